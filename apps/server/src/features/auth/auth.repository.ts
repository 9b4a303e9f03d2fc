import {
  and,
  asc,
  desc,
  eq,
  gt,
  gte,
  ilike,
  inArray,
  isNull,
  lt,
  lte,
  max,
  ne,
  or,
  sql,
  type SQL,
} from 'drizzle-orm';
import type { Language, OtpPurpose } from '@contrateia/shared';
import type { Db } from '@/db/client';
import { containing, escapeLike } from '@/lib/like';
import { emailCodes, sessions, users, type UserRow } from './auth.table';

// Drizzle queries only. Each takes { db } (the database or a transaction).

export async function findUserByEmail({
  db,
  email,
}: {
  db: Db;
  email: string;
}): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = lower(${email})`)
    .limit(1);
  return row;
}

/** The administrator by origin whose account is the oldest. */
export async function findFirstAdmin({ db }: { db: Db }): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(eq(users.originalRole, 'admin'))
    .orderBy(asc(users.createdAt), asc(users.id))
    .limit(1);
  return row;
}

export async function findUserByUsername({
  db,
  username,
}: {
  db: Db;
  username: string;
}): Promise<UserRow | undefined> {
  const [row] = await db
    .select()
    .from(users)
    .where(eq(users.username, username.toLowerCase()))
    .limit(1);
  return row;
}

export async function findUserById({
  db,
  id,
}: {
  db: Db;
  id: string;
}): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
}

export async function countUsers({ db, since }: { db: Db; since?: Date }): Promise<number> {
  const query = db.select({ n: sql<number>`count(*)::int` }).from(users);
  const [row] = await (since ? query.where(gte(users.createdAt, since)) : query);
  return row?.n ?? 0;
}

/** The most recently registered accounts, newest first: name and registration time only. */
export async function newestUsers({ db, limit }: { db: Db; limit: number }) {
  return db
    .select({ name: users.name, createdAt: users.createdAt })
    .from(users)
    .orderBy(desc(users.createdAt))
    .limit(limit);
}

/** Usernames equal to `base` or `base` followed by digits. */
export async function findUsernamesLike({ db, base }: { db: Db; base: string }): Promise<string[]> {
  const rows = await db
    .select({ username: users.username })
    .from(users)
    .where(sql`${users.username} like ${escapeLike(base) + '%'}`);
  return rows
    .map((r) => r.username)
    .filter((u) => u === base || /^\d+$/.test(u.slice(base.length)));
}

export async function insertUser({
  db,
  user,
}: {
  db: Db;
  user: typeof users.$inferInsert;
}): Promise<UserRow> {
  const [row] = await db.insert(users).values(user).returning();
  if (!row) throw new Error('insert into users returned nothing');
  return row;
}

export async function updateUserRole({
  db,
  id,
  role,
  now,
}: {
  db: Db;
  id: string;
  role: 'admin' | 'user';
  now: Date;
}): Promise<UserRow | undefined> {
  const [row] = await db
    .update(users)
    .set({ role, updatedAt: now })
    .where(eq(users.id, id))
    .returning();
  return row;
}

/** Serializes registrations inside a transaction (first-admin rule, username choice). */
export async function lockRegistrations({ db }: { db: Db }): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(727101)`);
}

/**
 * Stores a new code for (email, purpose), replacing the old one, unless the current one was made
 * after `cooldownStart` (one made exactly then has served its cooldown). Atomic: of two
 * simultaneous requests only one gets a row back.
 */
export async function upsertEmailCode({
  db,
  email,
  purpose,
  codeHash,
  now,
  expiresAt,
  cooldownStart,
}: {
  db: Db;
  email: string;
  purpose: OtpPurpose;
  codeHash: string;
  now: Date;
  expiresAt: Date;
  cooldownStart: Date;
}): Promise<boolean> {
  const rows = await db
    .insert(emailCodes)
    .values({ email, purpose, codeHash, createdAt: now, expiresAt, attempts: 0 })
    .onConflictDoUpdate({
      target: [emailCodes.email, emailCodes.purpose],
      set: { codeHash, createdAt: now, expiresAt, attempts: 0, consumedAt: null },
      setWhere: lte(emailCodes.createdAt, cooldownStart),
    })
    .returning({ id: emailCodes.id });
  return rows.length > 0;
}

export async function findEmailCode({
  db,
  email,
  purpose,
}: {
  db: Db;
  email: string;
  purpose: OtpPurpose;
}) {
  const [row] = await db
    .select()
    .from(emailCodes)
    .where(and(eq(emailCodes.email, email), eq(emailCodes.purpose, purpose)))
    .limit(1);
  return row;
}

/**
 * Counts one try against a live code and returns the row, or nothing when the code has no tries
 * left or was used. The check and the increment are one statement, so concurrent guesses cannot
 * exceed `maxAttempts` checks.
 */
export async function claimEmailCodeAttempt({
  db,
  id,
  maxAttempts,
}: {
  db: Db;
  id: string;
  maxAttempts: number;
}) {
  const [row] = await db
    .update(emailCodes)
    .set({ attempts: sql`${emailCodes.attempts} + 1` })
    .where(
      and(
        eq(emailCodes.id, id),
        lt(emailCodes.attempts, maxAttempts),
        isNull(emailCodes.consumedAt),
      ),
    )
    .returning();
  return row;
}

/** Marks a code used; false when another request used it first. */
export async function consumeEmailCode({
  db,
  id,
  now,
}: {
  db: Db;
  id: string;
  now: Date;
}): Promise<boolean> {
  const rows = await db
    .update(emailCodes)
    .set({ consumedAt: now })
    .where(and(eq(emailCodes.id, id), isNull(emailCodes.consumedAt)))
    .returning({ id: emailCodes.id });
  return rows.length > 0;
}

/** A new session, used `now`; signed in at `createdAt` (earlier than now when it replaces another). */
export async function insertSession({
  db,
  userId,
  now,
  createdAt,
  userAgent,
}: {
  db: Db;
  userId: string;
  now: Date;
  createdAt: Date;
  userAgent: string | null;
}) {
  const [row] = await db
    .insert(sessions)
    .values({ userId, createdAt, lastSeenAt: now, userAgent })
    .returning();
  if (!row) throw new Error('insert into sessions returned nothing');
  return row;
}

export async function findSession({ db, id }: { db: Db; id: string }) {
  const [row] = await db.select().from(sessions).where(eq(sessions.id, id)).limit(1);
  return row;
}

export async function touchSession({
  db,
  id,
  lastSeenAt,
}: {
  db: Db;
  id: string;
  lastSeenAt: Date;
}): Promise<void> {
  await db
    .update(sessions)
    .set({ lastSeenAt })
    .where(and(eq(sessions.id, id), lt(sessions.lastSeenAt, lastSeenAt)));
}

/**
 * Revokes the session if it is not revoked yet, and returns its sign-in time; nothing when it was
 * revoked already. One statement: of concurrent revocations of one session, exactly one hits.
 */
export async function revokeSession({
  db,
  id,
  now,
}: {
  db: Db;
  id: string;
  now: Date;
}): Promise<{ createdAt: Date } | undefined> {
  const [row] = await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.id, id), isNull(sessions.revokedAt)))
    .returning({ createdAt: sessions.createdAt });
  return row;
}

export async function isSessionLive({ db, id }: { db: Db; id: string }): Promise<boolean> {
  const [row] = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(and(eq(sessions.id, id), isNull(sessions.revokedAt)))
    .limit(1);
  return row !== undefined;
}

/** Makes the current code unusable and lifts its resend cooldown (its mail never went out). */
export async function expireEmailCode({
  db,
  email,
  purpose,
}: {
  db: Db;
  email: string;
  purpose: OtpPurpose;
}): Promise<void> {
  await db
    .update(emailCodes)
    .set({ createdAt: new Date(0), expiresAt: new Date(0) })
    .where(and(eq(emailCodes.email, email), eq(emailCodes.purpose, purpose)));
}

export async function updateUserProfile({
  db,
  id,
  name,
  language,
  now,
}: {
  db: Db;
  id: string;
  name: string;
  language: Language;
  now: Date;
}): Promise<UserRow | undefined> {
  const [row] = await db
    .update(users)
    .set({ name, language, updatedAt: now })
    .where(eq(users.id, id))
    .returning();
  return row;
}

export async function updateUserPassword({
  db,
  id,
  passwordHash,
  now,
}: {
  db: Db;
  id: string;
  passwordHash: string;
  now: Date;
}): Promise<boolean> {
  const rows = await db
    .update(users)
    .set({ passwordHash, updatedAt: now })
    .where(eq(users.id, id))
    .returning({ id: users.id });
  return rows.length > 0;
}

/** Revokes the user's live sessions, but `except`; returns the ids it revoked. */
export async function revokeUserSessions({
  db,
  userId,
  except,
  now,
}: {
  db: Db;
  userId: string;
  except?: string;
  now: Date;
}): Promise<string[]> {
  const rows = await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(
      and(
        eq(sessions.userId, userId),
        isNull(sessions.revokedAt),
        except ? ne(sessions.id, except) : undefined,
      ),
    )
    .returning({ id: sessions.id });
  return rows.map((r) => r.id);
}

/**
 * Deletes the sessions that sign nobody in any more (revoked, idle since before `idleBefore`, or
 * signed in before `signedInBefore`), but each account's most recently used session, which is
 * how the admin's list knows when the account was last seen. The ids deleted.
 */
export async function deleteDeadSessions({
  db,
  idleBefore,
  signedInBefore,
}: {
  db: Db;
  idleBefore: Date;
  signedInBefore: Date;
}): Promise<string[]> {
  const rows = await db
    .delete(sessions)
    .where(
      and(
        or(
          sql`${sessions.revokedAt} is not null`,
          lt(sessions.lastSeenAt, idleBefore),
          lt(sessions.createdAt, signedInBefore),
        ),
        sql`${sessions.id} not in (select distinct on (latest.user_id) latest.id from ${sessions} as latest order by latest.user_id, latest.last_seen_at desc, latest.id desc)`,
      ),
    )
    .returning({ id: sessions.id });
  return rows.map((r) => r.id);
}

/**
 * Deletes the e-mail codes nobody can use any more: expired, or used (consumed, or every try
 * spent) and created before `cooldownStart`, so that no row still holding a resend cooldown goes.
 * How many.
 */
export async function deleteDeadEmailCodes({
  db,
  now,
  cooldownStart,
  maxAttempts,
}: {
  db: Db;
  now: Date;
  cooldownStart: Date;
  maxAttempts: number;
}): Promise<number> {
  const rows = await db
    .delete(emailCodes)
    .where(
      or(
        lte(emailCodes.expiresAt, now),
        and(
          lte(emailCodes.createdAt, cooldownStart),
          or(sql`${emailCodes.consumedAt} is not null`, gte(emailCodes.attempts, maxAttempts)),
        ),
      ),
    )
    .returning({ id: emailCodes.id });
  return rows.length;
}

/** The user's sessions not revoked, used since `activeSince` and signed in since `signedInSince`, most recently used first. */
export async function listLiveSessions({
  db,
  userId,
  activeSince,
  signedInSince,
}: {
  db: Db;
  userId: string;
  activeSince: Date;
  signedInSince: Date;
}) {
  return db
    .select()
    .from(sessions)
    .where(
      and(
        eq(sessions.userId, userId),
        isNull(sessions.revokedAt),
        gt(sessions.lastSeenAt, activeSince),
        gte(sessions.createdAt, signedInSince),
      ),
    )
    .orderBy(desc(sessions.lastSeenAt));
}

export async function listSessionIds({
  db,
  userId,
}: {
  db: Db;
  userId: string;
}): Promise<string[]> {
  const rows = await db
    .select({ id: sessions.id })
    .from(sessions)
    .where(eq(sessions.userId, userId));
  return rows.map((r) => r.id);
}

/**
 * Active accounts that are administrators by origin (a switch to user mode does not make one
 * less; a deactivated one cannot sign in, so it runs nothing).
 */
export async function countAdmins({ db }: { db: Db }): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(users)
    .where(and(eq(users.originalRole, 'admin'), eq(users.isActive, true)));
  return row?.n ?? 0;
}

/** Active accounts made for one agent that have this one: they would be left with no agent without it. */
export async function countActiveSingleAgentAccounts({
  db,
  agentName,
}: {
  db: Db;
  agentName: string;
}): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(users)
    .where(and(eq(users.singleAgentName, agentName), eq(users.isActive, true)));
  return row?.n ?? 0;
}

/** Deletes the account; its sessions, hires, conversations, messages and pairings go with it (ON DELETE CASCADE). */
export async function deleteUser({ db, id }: { db: Db; id: string }): Promise<boolean> {
  const rows = await db.delete(users).where(eq(users.id, id)).returning({ id: users.id });
  return rows.length > 0;
}

export async function deleteEmailCodes({ db, email }: { db: Db; email: string }): Promise<void> {
  await db.delete(emailCodes).where(eq(emailCodes.email, email));
}

/** An account as the admin's list shows it: its row but the password hash, and its latest activity. */
export type AccountRow = Omit<UserRow, 'passwordHash' | 'language' | 'updatedAt' | 'avatar'> & {
  lastSeenAt: Date | null;
};

const accountColumns = {
  id: users.id,
  name: users.name,
  email: users.email,
  username: users.username,
  role: users.role,
  originalRole: users.originalRole,
  singleAgentName: users.singleAgentName,
  isActive: users.isActive,
  createdAt: users.createdAt,
  // The latest use of any of its sessions, revoked ones too (with the join below).
  lastSeenAt: max(sessions.lastSeenAt),
};

/** The accounts with their sessions, one row per account: select `accountColumns` from it. */
const accountsQuery = (db: Db, where: SQL | undefined) =>
  db
    .select(accountColumns)
    .from(users)
    .leftJoin(sessions, eq(sessions.userId, users.id))
    .where(where)
    .groupBy(users.id);

/**
 * Accounts whose name, e-mail or username contains `search` (any case; all when empty), newest
 * first, a page of them, and how many there are in all.
 */
export async function listAccounts({
  db,
  search,
  limit,
  offset,
}: {
  db: Db;
  search: string;
  limit: number;
  offset: number;
}): Promise<{ rows: AccountRow[]; total: number }> {
  const pattern = containing(search);
  const where: SQL | undefined = search
    ? or(ilike(users.name, pattern), ilike(users.email, pattern), ilike(users.username, pattern))
    : undefined;
  const [rows, [count]] = await Promise.all([
    accountsQuery(db, where)
      .orderBy(desc(users.createdAt), desc(users.id))
      .limit(limit)
      .offset(offset),
    db
      .select({ n: sql<number>`count(*)::int` })
      .from(users)
      .where(where),
  ]);
  return { rows, total: count?.n ?? 0 };
}

export async function findAccount({
  db,
  id,
}: {
  db: Db;
  id: string;
}): Promise<AccountRow | undefined> {
  const [row] = await accountsQuery(db, eq(users.id, id));
  return row;
}

/** The account's row, locked until the transaction ends: changes to one account go one at a time. */
export async function lockUser({ db, id }: { db: Db; id: string }): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1).for('update');
  return row;
}

export async function updateUserActive({
  db,
  id,
  isActive,
  now,
}: {
  db: Db;
  id: string;
  isActive: boolean;
  now: Date;
}): Promise<void> {
  await db.update(users).set({ isActive, updatedAt: now }).where(eq(users.id, id));
}

/** Makes the account an administrator or a user, in both its mode and its origin. */
export async function updateUserRoles({
  db,
  id,
  role,
  now,
}: {
  db: Db;
  id: string;
  role: 'admin' | 'user';
  now: Date;
}): Promise<void> {
  await db.update(users).set({ role, originalRole: role, updatedAt: now }).where(eq(users.id, id));
}

/** Names and e-mails of these accounts (those that still exist). */
export async function findUsersByIds({ db, ids }: { db: Db; ids: string[] }) {
  if (ids.length === 0) return [];
  return db
    .select({ id: users.id, name: users.name, email: users.email })
    .from(users)
    .where(inArray(users.id, ids));
}
