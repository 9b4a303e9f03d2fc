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
 * Sync Agent: the QR code of a one-time pairing link for this conversation, asked for when the
 * dialog opens. Generate New Code replaces it (the server voids the old one).
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
      <p className="pairing-dialog__intro">{t('auxtrat.syncIntro')}</p>
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
