import type { Readable } from 'node:stream';
import type { AccountExport, Language, User } from '@contrateia/shared';
import type { Signed } from '@/lib/url-signer';
import { isUuid } from '@/lib/uuid';
import { assertOwnPassword, ownRow, toUser } from './auth.account-rows';
import type { AuthDeps } from './auth.deps';
import { describeDevice } from './auth.devices';
import { archiveLinkInvalid, lastAdminCannotLeave } from './auth.errors';
import * as repo from './auth.repository';

// What the law gives the account's owner over their data: a copy of it, and its deletion.

/** "Download my data": the account, its sessions, hires, conversations and WhatsApp with their messages, and its own agents. */
export async function exportData(
  deps: Pick<AuthDeps, 'db' | 'clock' | 'sessions' | 'collectUserData'>,
  { user, language }: { user: User; language: Language },
): Promise<AccountExport> {
  const { clock, sessions, collectUserData } = deps;
  const row = await ownRow(deps, user.id);
  const alive = await sessions.listAlive({ userId: user.id });
  const { hires, conversations, whatsapp, myAgents } = await collectUserData(
    toUser(row),
    row.language ?? language,
  );
  return {
    exportedAt: clock.now().toISOString(),
    account: {
      id: row.id,
      name: row.name,
      email: row.email,
      username: row.username,
      role: row.originalRole,
      language: row.language ?? language,
      createdAt: row.createdAt.toISOString(),
    },
    sessions: alive.map((s) => ({
      id: s.id,
      ...describeDevice(s.userAgent),
      createdAt: s.createdAt.toISOString(),
      lastSeenAt: s.lastSeenAt.toISOString(),
    })),
    hires,
    conversations,
    whatsapp,
    myAgents,
  };
}

/** How long an address to download the ZIP lasts: it is asked for right before the download. */
export const ARCHIVE_LINK_LIFETIME = { ttlSeconds: 5 * 60, stepSeconds: 60 };

/**
 * "Download my data" with the files: the export, as `exportData` makes it, and the ZIP of it
 * with every kept file of the account, to be streamed (never held whole: it may be gigabytes).
 */
export async function exportArchive(
  deps: Pick<AuthDeps, 'db' | 'clock' | 'sessions' | 'collectUserData' | 'archiveUserData'>,
  { user, language }: { user: User; language: Language },
): Promise<{ username: string; archive: Readable }> {
  const data = await exportData(deps, { user, language });
  return { username: data.account.username, archive: deps.archiveUserData(user, data) };
}

/**
 * The address the session's browser downloads the ZIP from, signed for the session and valid for
 * four to five minutes (ARCHIVE_LINK_LIFETIME).
 */
export function archiveLink(
  { clock, archiveLinks }: Pick<AuthDeps, 'clock' | 'archiveLinks'>,
  { sessionId }: { sessionId: string },
): { url: string } {
  const { expires, signature } = archiveLinks.sign(sessionId, clock.now());
  const query = new URLSearchParams({ session: sessionId, expires, signature });
  return { url: `/api/account/export/archive?${query}` };
}

/**
 * The account a download address was given to, if the address is genuine and unexpired and its
 * session still alive (a sign-out, a password change or a deactivation ends it too); a 403
 * otherwise.
 */
export async function archiveUserOf(
  deps: Pick<AuthDeps, 'db' | 'clock' | 'sessions' | 'authenticator' | 'archiveLinks'>,
  { session, ...signed }: Partial<Signed> & { session?: string },
): Promise<User> {
  const { db, clock, sessions, authenticator, archiveLinks } = deps;
  if (!session || !isUuid(session) || archiveLinks.check(session, signed, clock.now()) === null)
    throw archiveLinkInvalid();
  const row = await repo.findSession({ db, id: session });
  const alive = row ? await sessions.listAlive({ userId: row.userId }) : [];
  const user = row && (await authenticator.activeUser(row.userId));
  if (!user || !alive.some((entry) => entry.id === session)) throw archiveLinkInvalid();
  return user;
}

/**
 * Deletes the account once its password is confirmed. Its hires, conversations, messages and
 * pairings go with the row (their foreign keys cascade); the last administrator cannot leave.
 * Once gone, the other features hear of it (`user.deleted`: WhatsApp unlinks the number).
 */
export async function deleteAccount(
  deps: Pick<AuthDeps, 'db' | 'sessions' | 'throttle' | 'authenticator' | 'onUserDeleted'>,
  { user, password, ip }: { user: User; password: string; ip: string },
): Promise<void> {
  const { db, sessions, authenticator, onUserDeleted } = deps;
  const row = await ownRow(deps, user.id);
  await assertOwnPassword(deps, { row, password, ip, field: 'password' });
  const sessionIds = await db.transaction(async (tx) => {
    // The same lock as registration: two admins deleting at once cannot both pass the check.
    await repo.lockRegistrations({ db: tx });
    if (row.originalRole === 'admin' && (await repo.countAdmins({ db: tx })) <= 1) {
      throw lastAdminCannotLeave();
    }
    const ids = await repo.listSessionIds({ db: tx, userId: user.id });
    await repo.deleteUser({ db: tx, id: user.id });
    await repo.deleteEmailCodes({ db: tx, email: row.email.toLowerCase() });
    return ids;
  });
  await sessions.forget(sessionIds);
  await authenticator.forgetUser(user.id);
  await onUserDeleted(user.id);
}
