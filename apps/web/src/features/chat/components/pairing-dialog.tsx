import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PAIRING_AGENT_NAME } from '@contrateia/shared';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { useCreatePairingCode } from '@/features/chat/api/create-pairing-code';
import { useDateFormat } from '@/hooks/use-date-format';
import { errorMessage } from '@/lib/api-client';
import { cx } from '@/lib/cx';

/**
 * Sync Agent: the QR code of a one-time pairing code for this conversation, asked for when the
 * dialog opens: a link that opens a chat with the platform's WhatsApp number with the code
 * written (also offered as a link, for a user on the phone itself). Generate New Code replaces
 * it (the server voids the old one). Without a connected platform number the server refuses,
 * and the dialog says so instead of showing a QR that leads nowhere.
 */
export function PairingDialog({
  conversationId,
  onClose,
}: {
  conversationId: string;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { time } = useDateFormat();
  const { mutate, data, error, isPending } = useCreatePairingCode();
  const [expiredAt, setExpiredAt] = useState<string | null>(null);
  const requested = useRef(false);

  const generate = () => {
    if (!isPending) mutate({ sessionId: conversationId, agentName: PAIRING_AGENT_NAME });
  };

  // Once per opening (the ref survives StrictMode's second effect run, so no second code).
  useEffect(() => {
    if (requested.current) return;
    requested.current = true;
    mutate({ sessionId: conversationId, agentName: PAIRING_AGENT_NAME });
  }, [mutate, conversationId]);

  // Flags the code as expired when its time comes, so the user knows to generate a new one.
  const expiresAt = data?.expiresAt;
  useEffect(() => {
    if (!expiresAt) return;
    const timer = window.setTimeout(
      () => setExpiredAt(expiresAt),
      Math.max(0, Date.parse(expiresAt) - Date.now()),
    );
    return () => window.clearTimeout(timer);
  }, [expiresAt]);
  const expired = expiresAt !== undefined && expiredAt === expiresAt;

  return (
    <Dialog
      title={t('auxtrat.syncTitle')}
      onClose={onClose}
      className="pairing-dialog"
      footer={
        <>
          <Button
            variant="secondary"
            aria-disabled={isPending || undefined}
            aria-busy={isPending || undefined}
            onClick={generate}
          >
            {t('auxtrat.generateNewCode')}
          </Button>
          <Button onClick={onClose}>{t('auxtrat.close')}</Button>
        </>
      }
    >
      {/* No code to scan, no instructions to scan it: only why (and Generate New Code to try again). */}
      {!error && <p className="pairing-dialog__intro">{t('auxtrat.syncIntro')}</p>}
      <div className="pairing-dialog__code" aria-busy={isPending || undefined}>
        {isPending ? (
          <div role="status" className="pairing-dialog__status">
            <span className="spinner" aria-hidden="true" />
            <span className="visually-hidden">{t('auxtrat.generating')}</span>
          </div>
        ) : error ? (
          <p className="alert alert--error" role="alert">
            {errorMessage(error, { failed: t('auxtrat.codeFailed') })}
          </p>
        ) : data ? (
          <img
            className={cx('pairing-dialog__qr', expired && 'is-expired')}
            src={data.qrCode}
            alt={t('auxtrat.qrAlt')}
            width={240}
            height={240}
          />
        ) : null}
      </div>
      {data && !isPending && !error && !expired && (
        <p className="pairing-dialog__open">
          <span>{t('auxtrat.openHint')}</span>{' '}
          <a href={data.link} target="_blank" rel="noopener noreferrer">
            {t('auxtrat.openInWhatsApp')}
          </a>
        </p>
      )}
      <p className="pairing-dialog__expiry" role="status">
        {data && !isPending
          ? expired
            ? t('auxtrat.codeExpired')
            : t('auxtrat.expiresAt', { time: time(data.expiresAt) })
          : ''}
      </p>
    </Dialog>
  );
}
