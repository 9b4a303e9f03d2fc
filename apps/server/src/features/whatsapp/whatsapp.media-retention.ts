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
/**
 * A file no message names is a stray once it is this old: a file is written just before its
 * message is stored, so a younger one may be being stored right now (on any instance).
 */
export const STRAY_AFTER_MS = 60 * 60_000;

type RetentionDeps = Pick<WhatsAppContext, 'db' | 'clock' | 'media' | 'logger'>;

/**
 * The retention's run: the files kept longer than WHATSAPP_MEDIA_RETENTION_DAYS are removed
 * (their messages stay, saying the file expired), then what deleted accounts left behind (an
 * account's deletion removes its files at once; this catches a process that stopped before),
 * then the stray files no message names (a process killed between writing a file and storing its
 * message, or between letting a file go and removing it). A stop ends it after the batch (or the
 * account) under way; the next run does the rest.
 */
export async function purgeExpiredMedia(
  deps: RetentionDeps,
  signal: AbortSignal,
): Promise<{ expired: number; accountsSwept: number; strays: number }> {
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
  const strays = await sweepStrays(deps, signal);
  if (expired > 0 || accountsSwept > 0 || strays > 0)
    logger.info({ expired, accountsSwept, strays }, 'whatsapp: old received files deleted');
  return { expired, accountsSwept, strays };
}

/**
 * Removes each account's files that no message names and that are older than STRAY_AFTER_MS; how
 * many. What the messages name is read first: a file written after that read is younger than the
 * cut, so a file being kept right now is never taken for a stray, nor is a file a message names.
 */
async function sweepStrays({ db, media }: RetentionDeps, signal: AbortSignal): Promise<number> {
  let removed = 0;
  for (const userId of await media.accounts()) {
    if (signal.aborted) break;
    const named = await repo.accountMediaFiles({ db, userId });
    // The file system's clock, as the files' times are: not the app's (a test's may be moved on).
    const strays = await media.strays(userId, named, Date.now() - STRAY_AFTER_MS);
    await media.remove(userId, strays);
    removed += strays.length;
  }
  return removed;
}

/** Removes the file directories of accounts that no longer exist; how many. */
async function sweepDeletedAccounts({ db, media }: RetentionDeps): Promise<number> {
  const accounts = await media.accounts();
  const existing = await repo.existingAccounts({ db, userIds: accounts });
  const gone = accounts.filter((userId) => !existing.has(userId));
  for (const userId of gone) await media.removeAccount(userId);
  return gone.length;
}
