import { and, countDistinct, count, desc, eq, gt, ne, sql } from 'drizzle-orm';
import type { Language } from '@contrateia/shared';
import type { Db } from '@/db/client';
import {
  relayOptOuts,
  relays,
  relayThreads,
  type RelayRow,
  type RelayThreadRow,
} from './whatsapp.table';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** The database, or a transaction in it (the yes reads under its locks). */
export type RelayDb = Db | Tx;

/** The relay thread a conversation holds, if it holds one. */
export async function findThreadOf({
  db,
  conversationId,
}: {
  db: RelayDb;
  conversationId: string;
}): Promise<RelayThreadRow | undefined> {
  const [row] = await db
    .select()
    .from(relayThreads)
    .where(eq(relayThreads.conversationId, conversationId))
    .limit(1);
  return row;
}

/** The sender's thread with `recipient`, if they have one. */
export async function findThread({
  db,
  senderId,
  recipient,
}: {
  db: RelayDb;
  senderId: string;
  recipient: string;
}): Promise<RelayThreadRow | undefined> {
  const [row] = await db
    .select()
    .from(relayThreads)
    .where(and(eq(relayThreads.senderId, senderId), eq(relayThreads.recipient, recipient)))
    .limit(1);
  return row;
}

/** The thread a recipient's reply goes to: the one a message last went through. */
export async function latestThreadTo({
  db,
  recipient,
}: {
  db: Db;
  recipient: string;
}): Promise<RelayThreadRow | undefined> {
  const [row] = await db
    .select()
    .from(relayThreads)
    .where(eq(relayThreads.recipient, recipient))
    .orderBy(desc(relayThreads.lastAt))
    .limit(1);
  return row;
}

/** A new thread, or the pair's existing one. */
export async function upsertThread({
  db,
  values,
}: {
  db: Tx;
  values: {
    senderId: string;
    recipient: string;
    conversationId: string;
    language: Language;
    at: Date;
  };
}): Promise<RelayThreadRow> {
  const { at, ...rest } = values;
  const [row] = await db
    .insert(relayThreads)
    .values({ ...rest, lastAt: at, createdAt: at })
    .onConflictDoUpdate({
      target: [relayThreads.senderId, relayThreads.recipient],
      set: { lastAt: at, language: values.language },
    })
    .returning();
  return row!;
}

export async function touchThread({ db, id, at }: { db: Db; id: string; at: Date }) {
  await db.update(relayThreads).set({ lastAt: at }).where(eq(relayThreads.id, id));
}

/** The conversation's relay waiting for the sender's yes, asked after `since`. */
export async function findPending({
  db,
  conversationId,
  since,
}: {
  db: Db;
  conversationId: string;
  since: Date;
}): Promise<RelayRow | undefined> {
  const [row] = await db
    .select()
    .from(relays)
    .where(
      and(
        eq(relays.conversationId, conversationId),
        eq(relays.status, 'pending'),
        gt(relays.createdAt, since),
      ),
    )
    .orderBy(desc(relays.createdAt))
    .limit(1);
  return row;
}

/** A relay by its id. */
export async function findRelay({ db, id }: { db: Db; id: string }): Promise<RelayRow | undefined> {
  const [row] = await db.select().from(relays).where(eq(relays.id, id)).limit(1);
  return row;
}

/** Whether indirect was asked to relay anything in the conversation. */
export async function hasRelays({ db, conversationId }: { db: Db; conversationId: string }) {
  const [row] = await db
    .select({ id: relays.id })
    .from(relays)
    .where(eq(relays.conversationId, conversationId))
    .limit(1);
  return row !== undefined;
}

/** A relay proposed to the sender; the conversation's earlier one waiting is cancelled. */
export async function insertPending({
  db,
  values,
}: {
  db: Db;
  values: Pick<RelayRow, 'senderId' | 'conversationId' | 'recipient' | 'text' | 'createdAt'>;
}): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .update(relays)
      .set({ status: 'cancelled' })
      .where(and(eq(relays.conversationId, values.conversationId), eq(relays.status, 'pending')));
    await tx.insert(relays).values({ ...values, status: 'pending' });
  });
}

/** Moves a relay from one status to another: whether it was in `from` (a yes said twice sends once). */
export async function moveRelay({
  db,
  id,
  from,
  set,
}: {
  db: RelayDb;
  id: string;
  from: RelayRow['status'];
  set: Partial<Pick<RelayRow, 'status' | 'sentAt'>>;
}): Promise<boolean> {
  const moved = await db
    .update(relays)
    .set(set)
    .where(and(eq(relays.id, id), eq(relays.status, from)))
    .returning({ id: relays.id });
  return moved.length > 0;
}

/** Holds the sender's and the recipient's relays until the transaction ends (see relay limits). */
export async function lockRelays({ db, keys }: { db: Tx; keys: string[] }) {
  for (const key of keys)
    await db.execute(sql`select pg_advisory_xact_lock(hashtext(${`relay:${key}`}))`);
}

/** What the limits count since `since`: the sender's relays sent, new recipients, the recipient's other senders. */
export async function relayCounts({
  db,
  senderId,
  recipient,
  since,
}: {
  db: RelayDb;
  senderId: string;
  recipient: string;
  since: Date;
}) {
  const [sent] = await db
    .select({ n: count() })
    .from(relays)
    .where(and(eq(relays.senderId, senderId), eq(relays.status, 'sent'), gt(relays.sentAt, since)));
  const [threads] = await db
    .select({ n: count() })
    .from(relayThreads)
    .where(and(eq(relayThreads.senderId, senderId), gt(relayThreads.createdAt, since)));
  const [others] = await db
    .select({ n: countDistinct(relays.senderId) })
    .from(relays)
    .where(
      and(
        eq(relays.recipient, recipient),
        eq(relays.status, 'sent'),
        gt(relays.sentAt, since),
        ne(relays.senderId, senderId),
      ),
    );
  return {
    sent: Number(sent?.n ?? 0),
    newRecipients: Number(threads?.n ?? 0),
    otherSenders: Number(others?.n ?? 0),
  };
}

export async function isOptedOut({ db, recipient }: { db: RelayDb; recipient: string }) {
  const [row] = await db
    .select({ recipient: relayOptOuts.recipient })
    .from(relayOptOuts)
    .where(eq(relayOptOuts.recipient, recipient))
    .limit(1);
  return row !== undefined;
}

/** Opts a number out of relays: whether it is new (the number is told once). */
export async function optOut({ db, recipient, at }: { db: Db; recipient: string; at: Date }) {
  const inserted = await db
    .insert(relayOptOuts)
    .values({ recipient, createdAt: at })
    .onConflictDoNothing()
    .returning({ recipient: relayOptOuts.recipient });
  return inserted.length > 0;
}
