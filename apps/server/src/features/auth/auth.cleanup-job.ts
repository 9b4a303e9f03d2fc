import type { FastifyBaseLogger } from 'fastify';
import { defineQueue, type Jobs } from '@/lib/jobs';
import type { AuthService } from './auth.service';

/** The clean-up's queue (made by migration 0017): one run at a time, on one instance. */
export const SESSIONS_CLEANUP_QUEUE = defineQueue<Record<string, never>>({
  name: 'sessions-cleanup',
  tries: 2,
  retryDelaySeconds: 60,
  expireSeconds: 10 * 60,
  concurrency: 1,
  pollMs: 30_000,
});

/** Every hour, at half past (the stored log's retention runs on the hour). */
const EVERY_HOUR = '30 * * * *';

/**
 * Removes the sessions and e-mail codes nobody can use any more every hour, as the monitor's
 * quick action does on demand: a durable job on one instance, which no restart skips.
 */
export function scheduleSessionsCleanup({
  jobs,
  auth,
  logger,
}: {
  jobs: Jobs;
  auth: Pick<AuthService, 'removeExpiredSessionsAndCodes'>;
  logger: FastifyBaseLogger;
}): void {
  jobs.work(SESSIONS_CLEANUP_QUEUE, async () => {
    // No admin asked, so nothing is audited (the quick action is).
    const removed = await auth.removeExpiredSessionsAndCodes({});
    if (removed.sessions > 0 || removed.codes > 0)
      logger.info(removed, 'expired sessions and e-mail codes removed');
    return removed;
  });
  jobs.schedule(SESSIONS_CLEANUP_QUEUE, EVERY_HOUR);
}
