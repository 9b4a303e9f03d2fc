import type {
  WhatsAppCloseReason,
  WhatsAppState,
  WhatsAppStatus,
} from '@contrateia/shared/whatsapp/whatsapp.schemas';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { QrIcon } from '@/components/ui/action-icons';
import { useConnection } from '@/features/whatsapp/api/get-status';
import { QrDialog } from '@/features/whatsapp/components/qr-dialog';
import type { LiveState } from '@/features/whatsapp/whatsapp-live';
import { errorMessage } from '@/lib/api-client';
import { cx } from '@/lib/cx';

/**
 * What the panel says about a disconnection, by the reason the server gives. `requested`
 * (Disconnect, or the server stopping) needs no words, and a ban is said as WhatsApp's refusal;
 * any other failure gets the general words.
 */
function endedText(reason: WhatsAppCloseReason) {
  switch (reason) {
    case 'requested':
    case 'banned':
      return null;
    case 'logged-out':
      return 'whatsapp.ended.loggedOut' as const;
    case 'qr-limit':
      return 'whatsapp.ended.qrLimit' as const;
    case 'replaced':
      return 'whatsapp.ended.replaced' as const;
    default:
      return 'whatsapp.ended.other' as const;
  }
}

/** States in which the number is linked or being linked: the button then offers Disconnect. */
const ACTIVE_STATES: readonly WhatsAppState[] = ['connecting', 'qr', 'ready', 'reconnecting'];

/**
 * The connection: an indicator with the state in words, Connect or Disconnect, and the QR modal.
 * The modal opens with Connect, shows each new code as it arrives and closes by itself once the
 * phone is linked; while a code waits it can be shown again.
 */
export function ConnectionPanel({
  status,
  liveState,
  authFailure,
}: {
  /** Its `lastCloseReason` says why the connection ended, also after a reload. */
  status: WhatsAppStatus;
  liveState: LiveState;
  /** The message of the last `whatsapp:auth_failure` event, if the page heard one. */
  authFailure: string | null;
}) {
  const { t } = useTranslation();
  const connection = useConnection();
  const [qrOpen, setQrOpen] = useState(false);
  const { state } = status;
  const linking = state === 'connecting' || state === 'qr';

  // Once the state moves on to linked, failed or disconnected, the modal has nothing left to
  // show (adjusting state while rendering, once per change of state).
  const [shownState, setShownState] = useState(state);
  if (state !== shownState) {
    setShownState(state);
    if (!linking) setQrOpen(false);
  }

  // The modal gives focus back to what opened it; Show QR code hides while the modal is open, and
  // a button may be gone by the time it closes (linked: only Disconnect is left). Focus then
  // goes to the panel's buttons rather than to the page's body.
  const showQrRef = useRef<HTMLButtonElement>(null);
  const mainButtonRef = useRef<HTMLButtonElement>(null);
  const wasOpen = useRef(false);
  useEffect(() => {
    if (qrOpen) {
      wasOpen.current = true;
      return;
    }
    if (!wasOpen.current) return;
    wasOpen.current = false;
    const focused = document.activeElement;
    if (focused && focused !== document.body && focused.isConnected) return;
    (showQrRef.current ?? mainButtonRef.current)?.focus();
  }, [qrOpen]);

  const active = ACTIVE_STATES.includes(state);
  // Without the live connection the page hears of no change: the last state it knew may be
  // stale, so the indicator says it does not know rather than show it (green "connected").
  const stale = liveState === 'reconnecting' || liveState === 'offline';
  const stateText = stale
    ? t('whatsapp.state.unknown')
    : state === 'ready' && status.phone
      ? t('whatsapp.state.readyPhone', { phone: status.phone })
      : t(`whatsapp.state.${state}`);

  const ended = state === 'disconnected' || state === 'failed' ? status.lastCloseReason : null;
  const endedKey = ended !== null && authFailure === null ? endedText(ended) : null;
  const banned = state === 'failed' && (authFailure ?? ended) === 'banned';

  const handleConnect = () => {
    setQrOpen(true);
    connection.mutate('connect', { onError: () => setQrOpen(false) });
  };

  return (
    <section className="wa-connection" aria-label={t('whatsapp.connection')}>
      <p className="wa-connection__state" role="status">
        <span
          className={cx('wa-dot', stale ? 'wa-dot--unknown' : `wa-dot--${state}`)}
          aria-hidden="true"
        />
        <span>{stateText}</span>
      </p>
      <div className="wa-connection__actions">
        {state === 'qr' && !qrOpen && (
          <Button ref={showQrRef} variant="secondary" onClick={() => setQrOpen(true)}>
            <QrIcon />
            {t('whatsapp.showQr')}
          </Button>
        )}
        {active ? (
          <Button
            ref={mainButtonRef}
            variant="secondary"
            disabled={connection.isPending}
            onClick={() => connection.mutate('disconnect')}
          >
            {t('whatsapp.disconnect')}
          </Button>
        ) : (
          <Button ref={mainButtonRef} disabled={connection.isPending} onClick={handleConnect}>
            {t('whatsapp.connect')}
          </Button>
        )}
      </div>
      <div className="wa-connection__messages" role="alert">
        {connection.isError && (
          <p className="alert alert--error">
            {errorMessage(connection.error, {
              failed:
                connection.variables === 'disconnect'
                  ? t('whatsapp.disconnectFailed')
                  : t('whatsapp.connectFailed'),
            })}
          </p>
        )}
        {banned ? (
          <p className="alert alert--error">{t('whatsapp.banned')}</p>
        ) : (
          authFailure !== null &&
          state === 'failed' && (
            // The server names the refusal; its words are never shown as they are (not translated).
            <p className="alert alert--error">{t('whatsapp.authFailed')}</p>
          )
        )}
        {endedKey && <p className="alert alert--error">{t(endedKey)}</p>}
      </div>
      {liveState !== 'live' && (
        <p className={cx('wa-live', `wa-live--${liveState}`)} role="status">
          {t(`whatsapp.live.${liveState}`)}
        </p>
      )}
      {qrOpen && (
        <QrDialog
          qrCode={status.qrCode}
          pairingCode={status.pairingCode}
          onClose={() => setQrOpen(false)}
        />
      )}
    </section>
  );
}
