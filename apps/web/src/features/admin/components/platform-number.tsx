import { useTranslation } from 'react-i18next';
import { usePlatformNumber } from '@/features/admin/api/get-platform-number';
import { formatPhoneNumber } from '@/features/whatsapp/contact-name';
import { errorMessage } from '@/lib/api-client';

/**
 * The platform's WhatsApp number (WHATSAPP_PLATFORM_ACCOUNT's linked number): whose account it
 * is and whether it is connected. While it is not, auxtrat's Sync Agent is not offered.
 */
export function PlatformNumber() {
  const { t } = useTranslation();
  const { data, error, isPending } = usePlatformNumber();
  return (
    <section className="platform-number" aria-labelledby="platform-number-title">
      <h3 id="platform-number-title" className="admin-fieldset__legend">
        {t('platformNumber.title')}
      </h3>
      <p className="platform-number__intro">{t('platformNumber.intro')}</p>
      {isPending ? (
        <p role="status">{t('platformNumber.loading')}</p>
      ) : error ? (
        <p className="alert alert--error" role="alert">
          {errorMessage(error, { failed: t('platformNumber.failed') })}
        </p>
      ) : !data.account ? (
        <p className="alert">{t('platformNumber.noAccount')}</p>
      ) : (
        <dl className="platform-number__facts">
          <dt>{t('platformNumber.account')}</dt>
          <dd>{data.account}</dd>
          <dt>{t('platformNumber.number')}</dt>
          <dd>{data.phone ? formatPhoneNumber(data.phone) : t('platformNumber.noNumber')}</dd>
          <dt>{t('platformNumber.status')}</dt>
          <dd>
            <span className={data.connected ? 'badge badge--success' : 'badge admin-badge--off'}>
              {data.connected ? t('platformNumber.connected') : t('platformNumber.disconnected')}
            </span>
            {!data.connected && (
              <span className="platform-number__hint"> {t('platformNumber.howToConnect')}</span>
            )}
          </dd>
        </dl>
      )}
    </section>
  );
}
