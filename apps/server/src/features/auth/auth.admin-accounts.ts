import type { Role } from '@contrateia/shared';
import type { Db } from '@/db/client';
import { hashPassword } from '@/lib/password';
import { isUuid } from '@/lib/uuid';
import { insertAccount, isUniqueViolation } from './auth.account-rows';
import type { AuthDeps } from './auth.deps';
import {
  accountEmailTaken,
  accountNotFound,
  cannotDeactivateSelf,
  cannotDemoteSelf,
  lastActiveAdmin,
  singleAgentNotAdmin,
} from './auth.errors';
import * as repo from './auth.repository';
import type { Account } from './auth.users';

// Accounts as an admin manages them. Each change runs `inTransaction` (the caller's audit record,
// an agent's hire) in the transaction that makes it, so all of it is kept or none.

/** What an admin's change did to an account (before is null for a new one): for the audit. */
export type AccountChange = { before: Account | null; after: Account };

type Recorder = (tx: Db, change: AccountChange) => Promise<void>;

type ChangeDeps = Pick<AuthDeps, 'db' | 'clock' | 'sessions' | 'authenticator'>;

/**
 * An account an admin makes for one agent: a user whose address the admin vouches
 * for (no code is mailed), its username made as at registration, limited to `agentName`.
 * A taken e-mail → 409 on the `email` field.
 */
export async function createSingleAgentAccount(
  { db }: Pick<AuthDeps, 'db'>,
  {
    name,
    email,
    password,
    agentName,
    inTransaction,
  }: {
    name: string;
    email: string;
    password: string;
    agentName: string;
    inTransaction: Recorder;
  },
): Promise<{ account: Account }> {
  const passwordHash = await hashPassword(password);
  try {
    return await db.transaction(async (tx) => {
      const row = await insertAccount({
        tx,
        account: { name, email, role: 'user', passwordHash, singleAgentName: agentName },
      });
      if (!row) throw accountEmailTaken();
      const account = await accountIn(tx, row.id);
      await inTransaction(tx, { before: null, after: account });
      return { account };
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw accountEmailTaken();
    throw error;
  }
}

/**
 * Activates or deactivates an account. Deactivating ends every session of it at once, on every
 * instance, and its sign-ins are refused from then on. Nobody deactivates their own account,
 * nor the last active administrator (400).
 */
export async function setAccountActive(
  deps: ChangeDeps,
  {
    actorId,
    userId,
    isActive,
    inTransaction,
  }: { actorId: string; userId: string; isActive: boolean; inTransaction: Recorder },
): Promise<{ account: Account; changed: boolean }> {
  if (!isActive && userId === actorId) throw cannotDeactivateSelf();
  return changeAccount(deps, {
    userId,
    inTransaction,
    change: async (tx, before) => {
      if (before.isActive === isActive) return false;
      if (!isActive) await assertNotLastAdmin(tx, before);
      await repo.updateUserActive({ db: tx, id: userId, isActive, now: deps.clock.now() });
      return true;
    },
    // A deactivated account's sessions end; a reactivated one signs in again.
    endSessions: !isActive,
  });
}

/**
 * Makes an account an administrator or a user (its mode and its origin both), and ends its
 * sessions: it signs in again as what it now is. Nobody demotes themselves, nor the last active
 * administrator (400).
 */
export async function setAccountRole(
  deps: ChangeDeps,
  {
    actorId,
    userId,
    role,
    inTransaction,
  }: { actorId: string; userId: string; role: Role; inTransaction: Recorder },
): Promise<{ account: Account; changed: boolean }> {
  if (role === 'user' && userId === actorId) throw cannotDemoteSelf();
  return changeAccount(deps, {
    userId,
    inTransaction,
    change: async (tx, before) => {
      if (before.role === role && before.originalRole === role) return false;
      if (role === 'user') await assertNotLastAdmin(tx, before);
      // An account made for one agent has no dashboard, catalogue or panel: it stays a user.
      if (role === 'admin' && before.singleAgentName) throw singleAgentNotAdmin();
      await repo.updateUserRoles({ db: tx, id: userId, role, now: deps.clock.now() });
      return true;
    },
    endSessions: true,
  });
}

/**
 * One admin change of an account, in one transaction under the registration lock (the one
 * registration and deletion take): the check of how many administrators remain and the change
 * are made one at a time, so two admins demoting each other at once cannot both succeed. When
 * `change` changed something, `inTransaction` records it and (with `endSessions`) every session
 * of the account ends; every instance forgets them once committed.
 */
async function changeAccount(
  { db, sessions, authenticator }: ChangeDeps,
  {
    userId,
    change,
    endSessions,
    inTransaction,
  }: {
    userId: string;
    change: (tx: Db, before: Account) => Promise<boolean>;
    endSessions: boolean;
    inTransaction: Recorder;
  },
): Promise<{ account: Account; changed: boolean }> {
  // Not an id at all: no such account (and no query PostgreSQL would refuse).
  if (!isUuid(userId)) throw accountNotFound();
  const done = await db.transaction(async (tx) => {
    await repo.lockRegistrations({ db: tx });
    const before = await repo.findAccount({ db: tx, id: userId });
    if (!before) throw accountNotFound();
    if (!(await change(tx, before))) return { account: before, changed: false, revoked: [] };
    const revoked = endSessions ? await sessions.revokeAllOf({ userId, tx }) : [];
    const after = await accountIn(tx, userId);
    await inTransaction(tx, { before, after });
    return { account: after, changed: true, revoked };
  });
  if (done.changed) {
    // After the commit: an instance that re-reads the rows on these messages sees the change.
    await sessions.forget(done.revoked);
    await authenticator.forgetUser(userId);
  }
  return { account: done.account, changed: done.changed };
}

/** Refuses to take away the last active administrator (under the registration lock). */
async function assertNotLastAdmin(tx: Db, account: Account): Promise<void> {
  if (
    account.originalRole === 'admin' &&
    account.isActive &&
    (await repo.countAdmins({ db: tx })) <= 1
  ) {
    throw lastActiveAdmin();
  }
}

async function accountIn(tx: Db, id: string): Promise<Account> {
  const account = await repo.findAccount({ db: tx, id });
  if (!account) throw new Error(`account ${id} vanished inside its own transaction`);
  return account;
}
