import { OTP_MAX_ATTEMPTS, OTP_RESEND_SECONDS } from '@contrateia/shared';
import { recordAudit, type AuditActor } from '@/features/audit/audit.service';
import type { AuthDeps } from './auth.deps';
import * as repo from './auth.repository';

/**
 * Removes the sessions and e-mail codes nobody can use any more (the monitor's quick action):
 * sessions revoked or expired (each account keeps its most recently used one, which says when
 * it was last seen), codes expired or used up once their resend cooldown is over. Asked by an
 * admin (`actor`), it is recorded in the admin audit as the monitor's quick action
 * (`monitor.cleanup-sessions`) in the same transaction; the hourly job records nothing.
 */
export async function removeExpiredSessionsAndCodes(
  { db, clock, sessions }: Pick<AuthDeps, 'db' | 'clock' | 'sessions'>,
  { actor }: { actor?: AuditActor },
): Promise<{ sessions: number; codes: number }> {
  const now = clock.now();
  const done = await db.transaction(async (tx) => {
    const sessionIds = await sessions.removeDead({ tx });
    const codeCount = await repo.deleteDeadEmailCodes({
      db: tx,
      now,
      cooldownStart: new Date(now.getTime() - OTP_RESEND_SECONDS * 1000),
      maxAttempts: OTP_MAX_ATTEMPTS,
    });
    const removed = { sessions: sessionIds.length, codes: codeCount };
    if (actor)
      await recordAudit(tx, {
        actor,
        at: now,
        action: 'monitor.cleanup-sessions',
        target: 'sessions',
        changes: {
          sessions: { before: null, after: removed.sessions },
          codes: { before: null, after: removed.codes },
        },
      });
    return { sessionIds, removed };
  });
  await sessions.forget(done.sessionIds);
  return done.removed;
}
