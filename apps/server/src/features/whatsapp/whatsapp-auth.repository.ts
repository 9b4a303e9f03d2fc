import { and, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { whatsappAuthCreds, whatsappAuthKeys } from './whatsapp-auth.table';

/** PostgreSQL takes at most 65 535 parameters a statement: a first upload of pre-keys is ~800 rows. */
const ROWS_PER_INSERT = 1000;

export async function readCreds({
  db,
  accountId,
}: {
  db: Db;
  accountId: string;
}): Promise<string | undefined> {
  const [row] = await db
    .select({ creds: whatsappAuthCreds.creds })
    .from(whatsappAuthCreds)
    .where(eq(whatsappAuthCreds.accountId, accountId));
  return row?.creds;
}

export async function writeCreds({
  db,
  accountId,
  creds,
  meId,
}: {
  db: Db;
  accountId: string;
  creds: string;
  meId: string | null;
}): Promise<void> {
  await db
    .insert(whatsappAuthCreds)
    .values({ accountId, creds, meId })
    .onConflictDoUpdate({
      target: whatsappAuthCreds.accountId,
      set: { creds, meId, updatedAt: sql`now()` },
    });
}

export async function readKeys({
  db,
  accountId,
  type,
  ids,
}: {
  db: Db;
  accountId: string;
  type: string;
  ids: string[];
}): Promise<Map<string, string>> {
  if (ids.length === 0) return new Map();
  const rows = await db
    .select({ id: whatsappAuthKeys.id, value: whatsappAuthKeys.value })
    .from(whatsappAuthKeys)
    .where(
      and(
        eq(whatsappAuthKeys.accountId, accountId),
        eq(whatsappAuthKeys.type, type),
        inArray(whatsappAuthKeys.id, ids),
      ),
    );
  return new Map(rows.map((row) => [row.id, row.value]));
}

/** Writes and deletes (value null) keys of an account, all or none. */
export async function writeKeys({
  db,
  accountId,
  changes,
}: {
  db: Db;
  accountId: string;
  changes: { type: string; id: string; value: string | null }[];
}): Promise<void> {
  const upserts = changes.filter(
    (c): c is { type: string; id: string; value: string } => c.value !== null,
  );
  const deletes = new Map<string, string[]>();
  for (const change of changes) {
    if (change.value === null)
      deletes.set(change.type, [...(deletes.get(change.type) ?? []), change.id]);
  }
  await db.transaction(async (tx) => {
    for (const [type, ids] of deletes) {
      await tx
        .delete(whatsappAuthKeys)
        .where(
          and(
            eq(whatsappAuthKeys.accountId, accountId),
            eq(whatsappAuthKeys.type, type),
            inArray(whatsappAuthKeys.id, ids),
          ),
        );
    }
    for (let start = 0; start < upserts.length; start += ROWS_PER_INSERT) {
      await tx
        .insert(whatsappAuthKeys)
        .values(upserts.slice(start, start + ROWS_PER_INSERT).map((c) => ({ accountId, ...c })))
        .onConflictDoUpdate({
          target: [whatsappAuthKeys.accountId, whatsappAuthKeys.type, whatsappAuthKeys.id],
          set: { value: sql`excluded.value` },
        });
    }
  });
}

/** Forgets an account's link: its credentials and every key. */
export async function deleteAuth({ db, accountId }: { db: Db; accountId: string }): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.delete(whatsappAuthKeys).where(eq(whatsappAuthKeys.accountId, accountId));
    await tx.delete(whatsappAuthCreds).where(eq(whatsappAuthCreds.accountId, accountId));
  });
}

/**
 * The accounts whose stored credentials belong to a linked device; with `resumable`, only those not
 * stopped for good (an instance takes them over when nobody holds them); with `accountId`, that one.
 */
export async function linkedAccountIds({
  db,
  resumable = false,
  accountId,
}: {
  db: Db;
  resumable?: boolean;
  accountId?: string;
}): Promise<string[]> {
  const rows = await db
    .select({ accountId: whatsappAuthCreds.accountId })
    .from(whatsappAuthCreds)
    .where(
      and(
        isNotNull(whatsappAuthCreds.meId),
        resumable ? isNull(whatsappAuthCreds.stoppedReason) : undefined,
        accountId ? eq(whatsappAuthCreds.accountId, accountId) : undefined,
      ),
    );
  return rows.map((row) => row.accountId);
}

/** Says why the account's link stopped for good while its auth state stays; null when asked to connect again. */
export async function setStoppedReason({
  db,
  accountId,
  reason,
}: {
  db: Db;
  accountId: string;
  reason: 'banned' | 'replaced' | 'failed' | null;
}): Promise<void> {
  await db
    .update(whatsappAuthCreds)
    .set({ stoppedReason: reason })
    .where(eq(whatsappAuthCreds.accountId, accountId));
}

/** How many keys of `type` an account has stored (tests and diagnostics). */
export async function countKeys({
  db,
  accountId,
  type,
}: {
  db: Db;
  accountId: string;
  type?: string;
}): Promise<number> {
  const [row] = await db
    .select({ count: sql<number>`count(*)::int` })
    .from(whatsappAuthKeys)
    .where(
      and(
        eq(whatsappAuthKeys.accountId, accountId),
        type ? eq(whatsappAuthKeys.type, type) : undefined,
      ),
    );
  return row?.count ?? 0;
}
