import type { MonitorAction, MonitorActionResponse } from '@contrateia/shared';
import type { TFunction } from 'i18next';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { LiveMessage } from '@/components/ui/live-message';
import { useMonitorAction } from '@/features/monitor/api/run-monitor-action';
import { monitorFailureText } from '@/features/monitor/failure-text';
import { SUCCESS_MESSAGE_MS, useTimedMessage } from '@/hooks/use-timed-message';

/** Each action's group of texts (systemMonitor.actions.<group>). */
const GROUP = {
  'cleanup-sessions': 'cleanup',
  'test-email': 'testEmail',
  'reconnect-whatsapp': 'reconnect',
} as const satisfies Record<MonitorAction, string>;

const ACTIONS = Object.keys(GROUP) as MonitorAction[];

/** What the server did, in words ("Removed 3 sessions and 5 codes."). */
function resultText(t: TFunction, answer: MonitorActionResponse): string {
  switch (answer.action) {
    case 'cleanup-sessions':
      return t('systemMonitor.actions.cleanup.done', {
        sessions: t('systemMonitor.actions.cleanup.sessions', { count: answer.removed.sessions }),
        codes: t('systemMonitor.actions.cleanup.codes', { count: answer.removed.codes }),
      });
    case 'test-email':
      return t(
        answer.mode === 'smtp'
          ? 'systemMonitor.actions.testEmail.sent'
          : 'systemMonitor.actions.testEmail.logged',
        { to: answer.to },
      );
    case 'reconnect-whatsapp':
      return t('systemMonitor.actions.reconnect.done', { count: answer.reconnected });
  }
}

/**
 * The quick actions: each does real work on the server, after a confirmation, and says what it did,
 * or why it failed.
 */
export function QuickActions({ email }: { email: string }) {
  const { t } = useTranslation();
  const headingId = useId();
  const [open, setOpen] = useState<MonitorAction | null>(null);
  const notice = useTimedMessage(SUCCESS_MESSAGE_MS);
  return (
    <section className="monitor-card monitor-actions" aria-labelledby={headingId}>
      <h2 id={headingId} className="monitor-card__title">
        {t('systemMonitor.actions.title')}
      </h2>
      <LiveMessage tone="success" message={notice.message} />
      <div className="monitor-actions__buttons">
        {ACTIONS.map((action) => (
          <Button key={action} variant="secondary" onClick={() => setOpen(action)}>
            {t(`systemMonitor.actions.${GROUP[action]}.button`)}
          </Button>
        ))}
      </div>
      {open && (
        <ActionDialog
          action={open}
          email={email}
          onClose={() => setOpen(null)}
          onDone={(message) => {
            setOpen(null);
            notice.show(message);
          }}
        />
      )}
    </section>
  );
}

/** Asks before an action; the server's refusal or failure stays in the dialog, to try again. */
function ActionDialog({
  action,
  email,
  onClose,
  onDone,
}: {
  action: MonitorAction;
  email: string;
  onClose: () => void;
  onDone: (message: string) => void;
}) {
  const { t } = useTranslation();
  const mutation = useMonitorAction();
  const group = GROUP[action];

  const handleConfirm = async () => {
    // aria-disabled rather than disabled while it runs: the button keeps the keyboard focus.
    if (mutation.isPending) return;
    try {
      onDone(resultText(t, await mutation.mutateAsync(action)));
    } catch {
      // Shown in the dialog from the mutation's state.
    }
  };

  return (
    <Dialog
      title={t(`systemMonitor.actions.${group}.title`)}
      onClose={onClose}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            {t('systemMonitor.actions.cancel')}
          </Button>
          <Button
            aria-disabled={mutation.isPending || undefined}
            onClick={() => void handleConfirm()}
          >
            {mutation.isPending
              ? t('systemMonitor.actions.working')
              : t(`systemMonitor.actions.${group}.confirm`)}
          </Button>
        </>
      }
    >
      <p>{t(`systemMonitor.actions.${group}.question`, { email })}</p>
      {mutation.isError && (
        <p className="alert alert--error" role="alert">
          {monitorFailureText(t, mutation.error, t(`systemMonitor.actions.${group}.failed`))}
        </p>
      )}
    </Dialog>
  );
}
