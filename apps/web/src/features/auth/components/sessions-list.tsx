import type { SessionInfo } from '@contrateia/shared';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { LiveMessage } from '@/components/ui/live-message';
import { useRevokeOtherSessions, useSessions } from '@/features/auth/api/sessions';
import { useDateFormat } from '@/hooks/use-date-format';
import { errorMessage } from '@/lib/api-client';

/** The account's signed-in devices with their last use, and "sign out elsewhere". */
export function SessionsList() {
  const { t } = useTranslation();
  const { dateTime } = useDateFormat();
  const { data, isPending, isError } = useSessions();
  const revoke = useRevokeOtherSessions();
  const [notice, setNotice] = useState<string | null>(null);
  const [generalError, setGeneralError] = useState<string | null>(null);

  const device = (session: SessionInfo) => {
    const parts = [session.browser, session.os].filter(Boolean).join(' · ');
    return parts || t('profile.unknownDevice');
  };

  const handleRevoke = async () => {
    setNotice(null);
    setGeneralError(null);
    try {
      setNotice((await revoke.mutateAsync()).message);
    } catch (error) {
      setGeneralError(errorMessage(error, { failed: t('profile.failed') }));
    }
  };

  const others = data?.sessions.filter((s) => !s.current).length ?? 0;

  return (
    <section className="profile-sessions" aria-labelledby="profile-sessions-title">
      <h2 id="profile-sessions-title" className="profile-card__title">
        {t('profile.sessionsTitle')}
      </h2>
      <LiveMessage tone="success" message={notice} />
      <LiveMessage tone="error" message={generalError ?? (isError ? t('profile.failed') : null)} />
      {isPending ? (
        <p>{t('app.loading')}</p>
      ) : (
        <ul className="profile-sessions__list">
          {data?.sessions.map((session) => (
            <li key={session.id} className="profile-sessions__item">
              <span className="profile-sessions__device">
                {device(session)}{' '}
                {session.current && <Badge tone="info">{t('profile.thisDevice')}</Badge>}
              </span>
              <span className="profile-sessions__seen">
                {t(`profile.deviceTypes.${session.deviceType}`)} ·{' '}
                {t('profile.lastSeen', { when: dateTime(session.lastSeenAt) })}
              </span>
            </li>
          ))}
        </ul>
      )}
      <Button
        variant="secondary"
        disabled={revoke.isPending || others === 0}
        onClick={() => void handleRevoke()}
      >
        {t('profile.signOutElsewhere')}
      </Button>
    </section>
  );
}
