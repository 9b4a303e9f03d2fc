import { defineQueue } from '@/lib/jobs';
import type { WhatsAppContext } from './whatsapp.deps';
import * as repo from './whatsapp.repository';

/**
 * The retention of received files (made by migration 0031): stately, so one run at a time on
 * every instance, and a run asked while one waits is that one.
 */
export const MEDIA_RETENTION_QUEUE = defineQueue<Record<string, never>>({
  name: 'whatsapp-media-retention',
  tries: 2,
  retryDelaySeconds: 60,
  expireSeconds: 15 * 60,
  concurrency: 1,
  pollMs: 30_000,
});

/** The retention runs every hour on the hour, and at each start. */
export const MEDIA_RETENTION_CRON = '17 * * * *';

/** The most files one statement lets go of. */
const BATCH = 500;
const DAY_MS = 24 * 60 * 60_000;

type RetentionDeps = Pick<WhatsAppContext, 'db' | 'clock' | 'media' | 'logger'>;

/**
 * The retention's run: the files kept longer than WHATSAPP_MEDIA_RETENTION_DAYS are removed
 * (their messages stay, saying the file expired), then what deleted accounts left behind (an
 * account's deletion removes its files at once; this catches a process that stopped before).
 * A stop ends it after the batch under way; the next run does the rest.
 */
export async function purgeExpiredMedia(
  deps: RetentionDeps,
  signal: AbortSignal,
): Promise<{ expired: number; accountsSwept: number }> {
  const { db, clock, media, logger } = deps;
  const before = new Date(clock.now().getTime() - media.retentionDays * DAY_MS);
  let expired = 0;
  for (;;) {
    const rows = await repo.expireMedia({ db, before, limit: BATCH });
    const byAccount = new Map<string, string[]>();
    for (const { userId, file } of rows)
      byAccount.set(userId, [...(byAccount.get(userId) ?? []), file]);
    for (const [userId, files] of byAccount) await media.remove(userId, files);
    expired += rows.length;
    if (rows.length < BATCH || signal.aborted) break;
  }
  const accountsSwept = await sweepDeletedAccounts(deps);
  if (expired > 0 || accountsSwept > 0)
    logger.info({ expired, accountsSwept }, 'whatsapp: old received files deleted');
  return { expired, accountsSwept };
}

/** Removes the file directories of accounts that no longer exist; how many. */
async function sweepDeletedAccounts({ db, media }: RetentionDeps): Promise<number> {
  const accounts = await media.accounts();
  const existing = await repo.existingAccounts({ db, userIds: accounts });
  const gone = accounts.filter((userId) => !existing.has(userId));
  for (const userId of gone) await media.removeAccount(userId);
  return gone.length;
}
