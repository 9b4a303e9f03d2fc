import type { AccountExport, Language, User } from '@contrateia/shared';
import { assertOwnPassword, ownRow, toUser } from './auth.account-rows';
import type { AuthDeps } from './auth.deps';
import { describeDevice } from './auth.devices';
import { lastAdminCannotLeave } from './auth.errors';
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
