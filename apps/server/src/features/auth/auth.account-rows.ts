import type { User } from '@contrateia/shared';
import type { Db } from '@/db/client';
import { verifyPassword } from '@/lib/password';
import type { AuthDeps } from './auth.deps';
import { unauthorized, wrongPassword } from './auth.errors';
import * as repo from './auth.repository';
import type { UserRow } from './auth.table';
import { hasSqlState, SQL_STATE } from '@/lib/sql-state';

// The account rows the use cases share: the user as clients see it, the signed-in user's own row
// and password check, and the insert registration and the admin's accounts both make.

export function toUser(row: UserRow): User {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    username: row.username,
    avatar: row.avatar,
    role: row.role,
    originalRole: row.originalRole,
    singleAgentName: row.singleAgentName,
  };
}

/** The account row of a signed-in user; 401 when it is gone (deleted on another device). */
export async function ownRow({ db }: Pick<AuthDeps, 'db'>, userId: string): Promise<UserRow> {
  const row = await repo.findUserById({ db, id: userId });
  if (!row) throw unauthorized();
  return row;
}

/**
 * Checks the account's own password (a password change, a deletion). Wrong guesses count
 * against the same limits as sign-ins, so a session left open is no way around them.
 */
export async function assertOwnPassword(
  { throttle }: Pick<AuthDeps, 'throttle'>,
  { row, password, ip, field }: { row: UserRow; password: string; ip: string; field: string },
): Promise<void> {
  const attempt = await throttle.begin({
    userId: row.id,
    identifier: row.email.toLowerCase(),
    ip,
  });
  if (!(await verifyPassword(row.passwordHash, password))) {
    await attempt.failed();
    throw wrongPassword(field);
  }
  await attempt.succeeded();
}

/**
 * Inside `tx`, under the registration lock (taken here if the caller has not): the account, with
 * its username made from the e-mail as at registration (`maria`, `maria2`…); undefined when the
 * e-mail has an account already.
 */
export async function insertAccount({
  tx,
  account,
}: {
  tx: Db;
  account: Pick<UserRow, 'name' | 'email' | 'role' | 'passwordHash'> &
    Partial<Pick<UserRow, 'language' | 'singleAgentName'>>;
}): Promise<UserRow | undefined> {
  await repo.lockRegistrations({ db: tx });
  if (await repo.findUserByEmail({ db: tx, email: account.email })) return undefined;
  const username = chooseUsername(
    account.email,
    await repo.findUsernamesLike({ db: tx, base: usernameBase(account.email) }),
  );
  return repo.insertUser({ db: tx, user: { ...account, username, originalRole: account.role } });
}

/** The e-mail's local part, lower-cased, without accents or characters outside [a-z0-9._-]. */
function usernameBase(email: string): string {
  const local = email.split('@')[0] ?? '';
  const base = local
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9._-]/g, '')
    .replace(/^[._-]+|[._-]+$/g, '')
    .slice(0, 30);
  return base || 'user';
}

/** `maria`, then `maria2`, `maria3`… whichever is first free. */
function chooseUsername(email: string, taken: string[]): string {
  const base = usernameBase(email);
  const used = new Set(taken);
  if (!used.has(base)) return base;
  let n = 2;
  while (used.has(`${base}${n}`)) n += 1;
  return `${base}${n}`;
}

/** Whether the database refused the row for one of its unique keys. */
export function isUniqueViolation(error: unknown): boolean {
  return hasSqlState(error, SQL_STATE.uniqueViolation);
}
