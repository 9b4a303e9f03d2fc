import type { WhatsAppConversationStatus } from '@contrateia/shared/whatsapp/whatsapp.schemas';
import { useTranslation } from 'react-i18next';
import { Icon } from '@/components/ui/icons';

/**
 * A conversation's status (enhanced page): active green, blocked red, pending orange, anything else
 * grey. The shape and the name say it too, not the colour alone.
 */
export function StatusIcon({ status }: { status: WhatsAppConversationStatus | string }) {
  const { t } = useTranslation();
  const known = status === 'active' || status === 'blocked' || status === 'pending';
  const label = known ? t(`whatsapp.status.${status}`) : t('whatsapp.status.unknown');
  return (
    <span
      className={`wa-status wa-status--${known ? status : 'unknown'}`}
      role="img"
      aria-label={label}
      title={label}
    >
      <Icon aria-hidden="true">
        {status === 'active' ? (
          <path d="M5 12l4 4 10-10" />
        ) : status === 'blocked' ? (
          <>
            <circle cx="12" cy="12" r="9" />
            <path d="M5.6 5.6l12.8 12.8" />
          </>
        ) : status === 'pending' ? (
          <>
            <circle cx="12" cy="12" r="9" />
            <path d="M12 7v5l3 2" />
          </>
        ) : (
          <circle cx="12" cy="12" r="4" />
        )}
      </Icon>
    </span>
  );
}
