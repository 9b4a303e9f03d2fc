import type { Role } from '@contrateia/shared';
import type { Db } from '@/db/client';
import { hashPassword } from '@/lib/password';
import { isUuid } from '@/lib/uuid';
import {
  changedFields,
  recordAudit,
  type AuditActor,
  type AuditChanges,
} from '@/features/audit/audit.service';
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

// Accounts as an admin manages them. Each change is recorded in the admin audit, on behalf of the
// admin who made it (`actor`), in the transaction that makes it, so all of it is kept or none.

type ChangeDeps = Pick<AuthDeps, 'db' | 'clock' | 'sessions' | 'authenticator'>;

/** The fields of an account an audit record may name: never its password or hash. */
function audited(account: Account) {
  return {
    name: account.name,
    email: account.email,
    username: account.username,
    role: account.role,
    originalRole: account.originalRole,
    singleAgent: account.singleAgentName,
    isActive: account.isActive,
  };
}

/** Records an admin's change of an account (before is null for a new one): only the fields it changed. */
async function recordChange(
  tx: Db,
  { clock }: Pick<AuthDeps, 'clock'>,
  {
    actor,
    action,
    before,
    after,
  }: {
    actor: AuditActor;
    action: string;
    before: Account | null;
    after: Account;
  },
): Promise<void> {
  const now = audited(after);
  const changes: AuditChanges = before
    ? changedFields(audited(before), now)
    : Object.fromEntries(
        Object.entries(now).map(([field, value]) => [field, { before: null, after: value }]),
      );
  await recordAudit(tx, {
    actor,
    at: clock.now(),
    action,
    target: after.id,
    targetName: after.name,
    changes,
  });
}

/**
 * An account an admin makes for one agent: a user whose address the admin vouches
 * for (no code is mailed), its username made as at registration, limited to `agentName`.
 * A taken e-mail → 409 on the `email` field.
 */
export async function createSingleAgentAccount(
  { db, clock }: Pick<AuthDeps, 'db' | 'clock'>,
  {
    name,
    email,
    password,
    agentName,
    hire,
    actor,
  }: {
    name: string;
    email: string;
    password: string;
    agentName: string;
    /**
     * Hires the account's agent (the agents feature's) in the transaction that makes the account,
     * so both are kept or neither; it throws when the agent can no longer be hired.
     */
    hire: (tx: Db, accountId: string) => Promise<void>;
    actor: AuditActor;
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
      await hire(tx, account.id);
      await recordChange(
        tx,
        { clock },
        { actor, action: 'user.create', before: null, after: account },
      );
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
  { actor, userId, isActive }: { actor: AuditActor; userId: string; isActive: boolean },
): Promise<{ account: Account; changed: boolean }> {
  if (!isActive && userId === actor.actorId) throw cannotDeactivateSelf();
  return changeAccount(deps, {
    userId,
    actor,
    action: 'user.status',
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
  { actor, userId, role }: { actor: AuditActor; userId: string; role: Role },
): Promise<{ account: Account; changed: boolean }> {
  if (role === 'user' && userId === actor.actorId) throw cannotDemoteSelf();
  return changeAccount(deps, {
    userId,
    actor,
    action: 'user.role',
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
 * `change` changed something, it is recorded in the audit as `action` and (with `endSessions`)
 * every session of the account ends; every instance forgets them once committed.
 */
async function changeAccount(
  { db, clock, sessions, authenticator }: ChangeDeps,
  {
    userId,
    change,
    endSessions,
    actor,
    action,
  }: {
    userId: string;
    change: (tx: Db, before: Account) => Promise<boolean>;
    endSessions: boolean;
    actor: AuditActor;
    action: string;
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
    await recordChange(tx, { clock }, { actor, action, before, after });
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
