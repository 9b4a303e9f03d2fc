import { and, asc, count, desc, eq, getTableColumns, inArray, isNotNull, or, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { prepared } from '@/db/prepared';
import {
  whatsappAccounts,
  whatsappConversations,
  whatsappMessages,
  type WhatsAppAccountRow,
  type WhatsAppConversationRow,
  type WhatsAppMessageRow,
} from './whatsapp.table';

/** The account's WhatsApp row, made with the defaults the first time. */
export async function ensureAccount({ db, userId, now }: { db: Db; userId: string; now: Date }): Promise<WhatsAppAccountRow> {
  const [inserted] = await db.insert(whatsappAccounts).values({ userId, updatedAt: now }).onConflictDoNothing().returning();
  if (inserted) return inserted;
  const [row] = await db.select().from(whatsappAccounts).where(eq(whatsappAccounts.userId, userId)).limit(1);
  return row!;
}

export async function findAccount({ db, userId }: { db: Db; userId: string }): Promise<WhatsAppAccountRow | undefined> {
  const [row] = await db.select().from(whatsappAccounts).where(eq(whatsappAccounts.userId, userId)).limit(1);
  return row;
}

/**
 * Changes the account's row; with `unlessReady`, only while it is not ready (a late QR or QR
 * limit must not undo a pairing that overtook it). Whether a row changed.
 */
export async function updateAccount({
  db,
  userId,
  set,
  unlessReady = false,
}: {
  db: Db;
  userId: string;
  set: Partial<Omit<WhatsAppAccountRow, 'userId'>> & { updatedAt: Date };
  unlessReady?: boolean;
}): Promise<boolean> {
  const rows = await db
    .update(whatsappAccounts)
    .set(set)
    .where(and(eq(whatsappAccounts.userId, userId), unlessReady ? sql`${whatsappAccounts.state} <> 'ready'` : undefined))
    .returning({ userId: whatsappAccounts.userId });
  return rows.length > 0;
}

/**
 * Accounts with a linked number (one was linked and not unlinked since: the number stays while
 * the connection is lost or failed) and, of them, those whose connection is open.
 */
export async function countLinkedAccounts({ db }: { db: Db }): Promise<{ linked: number; connected: number }> {
  const [row] = await db
    .select({
      linked: sql<number>`count(*)::int`,
      connected: sql<number>`count(*) filter (where ${whatsappAccounts.state} = 'ready')::int`,
    })
    .from(whatsappAccounts)
    .where(isNotNull(whatsappAccounts.phone));
  return { linked: row?.linked ?? 0, connected: row?.connected ?? 0 };
}

/** The linked accounts whose connection is not open and not being opened: it failed, or closed. */
export async function listBrokenLinkedAccounts({ db }: { db: Db }): Promise<string[]> {
  const rows = await db
    .select({ userId: whatsappAccounts.userId })
    .from(whatsappAccounts)
    .where(and(isNotNull(whatsappAccounts.phone), inArray(whatsappAccounts.state, ['failed', 'disconnected', 'reconnecting'])));
  return rows.map((row) => row.userId);
}

export async function countConversations({ db, userId }: { db: Db; userId: string }) {
  const [row] = await db
    .select({
      total: count(),
      aiEnabled: sql<number>`count(*) filter (where ${whatsappConversations.aiEnabled})::int`,
      whitelisted: sql<number>`count(*) filter (where ${whatsappConversations.isWhitelisted})::int`,
      agentAssigned: sql<number>`count(*) filter (where ${whatsappConversations.agentId} is not null)::int`,
    })
    .from(whatsappConversations)
    .where(eq(whatsappConversations.userId, userId));
  return { total: row?.total ?? 0, aiEnabled: row?.aiEnabled ?? 0, whitelisted: row?.whitelisted ?? 0, agentAssigned: row?.agentAssigned ?? 0 };
}

/** The account's conversation with a contact known by either of its JIDs (its own or its other one). */
export async function findConversationByContact({ db, userId, jids }: { db: Db; userId: string; jids: [string] | [string, string] }) {
  const c = whatsappConversations;
  const statement = prepared(db, 'whatsapp_conversation_by_contact', (db) => {
    const jid = sql.placeholder('jid');
    const other = sql.placeholder('other');
    return db
      .select()
      .from(c)
      .where(and(eq(c.userId, sql.placeholder('userId')), or(inArray(c.contactJid, [jid, other]), inArray(c.contactAltJid, [jid, other]))))
      .orderBy(asc(c.createdAt))
      .limit(1)
      .prepare('whatsapp_conversation_by_contact');
  });
  const [row] = await statement.execute({ userId, jid: jids[0], other: jids[1] ?? jids[0] });
  return row;
}

/** A new contact's conversation; when a concurrent message made it first, that one. */
export async function insertConversation({
  db,
  values,
}: {
  db: Db;
  values: Pick<WhatsAppConversationRow, 'userId' | 'contactJid' | 'contactAltJid' | 'contactName' | 'contactNumber' | 'createdAt' | 'updatedAt'>;
}): Promise<WhatsAppConversationRow> {
  const [inserted] = await db.insert(whatsappConversations).values(values).onConflictDoNothing().returning();
  if (inserted) return inserted;
  const [row] = await db
    .select()
    .from(whatsappConversations)
    .where(and(eq(whatsappConversations.userId, values.userId), eq(whatsappConversations.contactJid, values.contactJid)))
    .limit(1);
  return row!;
}

/** A conversation with its account's row (undefined without one), in one query: an auto-reply needs both. */
export async function findConversationWithAccount({ db, id }: { db: Db; id: string }) {
  const statement = prepared(db, 'whatsapp_conversation_with_account', (db) =>
    db
      .select({ conversation: whatsappConversations, account: whatsappAccounts })
      .from(whatsappConversations)
      .leftJoin(whatsappAccounts, eq(whatsappAccounts.userId, whatsappConversations.userId))
      .where(eq(whatsappConversations.id, sql.placeholder('id')))
      .limit(1)
      .prepare('whatsapp_conversation_with_account'),
  );
  const [row] = await statement.execute({ id });
  return row && { conversation: row.conversation, account: row.account ?? undefined };
}

export async function findConversation({ db, id }: { db: Db; id: string }): Promise<WhatsAppConversationRow | undefined> {
  const [row] = await db.select().from(whatsappConversations).where(eq(whatsappConversations.id, id)).limit(1);
  return row;
}

/** Changes one of the account's conversations: the updated row, or undefined if it is not theirs. */
export async function updateConversation({
  db,
  id,
  userId,
  set,
}: {
  db: Db;
  id: string;
  userId: string;
  set: Partial<
    Pick<WhatsAppConversationRow, 'aiEnabled' | 'isWhitelisted' | 'agentId' | 'unreadCount' | 'contactAltJid' | 'contactName' | 'contactNumber' | 'blockedUntil'>
  >;
}): Promise<WhatsAppConversationRow | undefined> {
  const [row] = await db
    .update(whatsappConversations)
    .set(set)
    .where(and(eq(whatsappConversations.id, id), eq(whatsappConversations.userId, userId)))
    .returning();
  return row;
}

export async function deleteConversation({ db, id, userId }: { db: Db; id: string; userId: string }): Promise<boolean> {
  const rows = await db
    .delete(whatsappConversations)
    .where(and(eq(whatsappConversations.id, id), eq(whatsappConversations.userId, userId)))
    .returning({ id: whatsappConversations.id });
  return rows.length > 0;
}

const lastMessageText = sql<string | null>`(select ${whatsappMessages.text} from ${whatsappMessages} where ${whatsappMessages.conversationId} = ${sql`${whatsappConversations}."id"`} order by ${whatsappMessages.seq} desc limit 1)`;

/**
 * The account's conversations, newest activity first, each with its last message's text and the
 * account's whitelist mode (null without an account row), which their status depends on.
 */
export async function listConversations({ db, userId, id }: { db: Db; userId: string; id?: string }) {
  return db
    .select({ conversation: whatsappConversations, lastMessage: lastMessageText, whitelistMode: whatsappAccounts.whitelistMode })
    .from(whatsappConversations)
    .leftJoin(whatsappAccounts, eq(whatsappAccounts.userId, whatsappConversations.userId))
    .where(and(eq(whatsappConversations.userId, userId), id ? eq(whatsappConversations.id, id) : undefined))
    .orderBy(desc(whatsappConversations.updatedAt), desc(whatsappConversations.id));
}

/**
 * Stores a message once: a WhatsApp id already stored in the conversation stores nothing and
 * gives undefined. Otherwise the conversation's activity moves, and a contact's message counts
 * as unread; all in one statement with the message (one round trip instead of a transaction's
 * four: a message is stored twice per exchange), which answers with the conversation as it is
 * now and its account's whitelist mode (null without an account row): what the owner's list shows.
 */
export async function insertMessage({
  db,
  values,
  unread,
}: {
  db: Db;
  values: Pick<WhatsAppMessageRow, 'conversationId' | 'waId' | 'sender' | 'text' | 'agentName' | 'error' | 'createdAt'>;
  unread: boolean;
}): Promise<{ message: WhatsAppMessageRow; conversation: WhatsAppConversationRow; whitelistMode: boolean | null } | undefined> {
  const statement = prepared(db, 'whatsapp_insert_message', (db) => {
    const m = whatsappMessages;
    const c = whatsappConversations;
    const p = (name: keyof typeof values | 'unread') => sql.placeholder(name);
    const column = (table: typeof m | typeof c, key: string) => sql.identifier((table[key as keyof typeof table] as { name: string }).name);
    const inserted = db.$with('inserted', getTableColumns(m)).as(
      sql`insert into ${m} (${sql.join(['conversationId', 'waId', 'sender', 'text', 'agentName', 'error', 'createdAt'].map((key) => column(m, key)), sql`, `)})
          values (${p('conversationId')}::uuid, ${p('waId')}, ${p('sender')}, ${p('text')}, ${p('agentName')}, ${p('error')}, ${p('createdAt')}::timestamptz)
          on conflict do nothing returning *`,
    );
    const moved = db.$with('moved', getTableColumns(c)).as(
      sql`update ${c} set ${column(c, 'updatedAt')} = greatest(${c.updatedAt}, ${p('createdAt')}::timestamptz),
          ${column(c, 'unreadCount')} = ${c.unreadCount} + ${p('unread')}::int
          where ${c.id} = ${p('conversationId')}::uuid and exists (select 1 from ${sql.identifier('inserted')})
          returning *`,
    );
    // A CTE's columns as a nested selection: the columns its proxy gives, which name the CTE.
    const fieldsOf = <S extends Record<string, unknown>>(cte: { _: { selectedFields: S } }): S =>
      Object.fromEntries(Object.keys(cte._.selectedFields).map((key) => [key, (cte as unknown as S)[key]])) as S;
    return db
      .with(inserted, moved)
      .select({
        message: fieldsOf(inserted),
        conversation: fieldsOf(moved),
        whitelistMode: whatsappAccounts.whitelistMode,
      })
      .from(inserted)
      .innerJoin(moved, sql`true`)
      .leftJoin(whatsappAccounts, eq(whatsappAccounts.userId, moved.userId))
      .prepare('whatsapp_insert_message');
  });
  const [row] = await statement.execute({ ...values, createdAt: values.createdAt.toISOString(), unread: unread ? 1 : 0 });
  return row;
}

export async function listMessages({ db, conversationId }: { db: Db; conversationId: string }): Promise<WhatsAppMessageRow[]> {
  return db.select().from(whatsappMessages).where(eq(whatsappMessages.conversationId, conversationId)).orderBy(asc(whatsappMessages.seq));
}

/** The newest `limit` messages, oldest first: an auto-reply's history. */
export async function listRecentMessages({ db, conversationId, limit }: { db: Db; conversationId: string; limit: number }) {
  const statement = prepared(db, 'whatsapp_recent_messages', (db) =>
    db
      .select()
      .from(whatsappMessages)
      .where(eq(whatsappMessages.conversationId, sql.placeholder('conversationId')))
      .orderBy(desc(whatsappMessages.seq))
      .limit(sql.placeholder('limit'))
      .prepare('whatsapp_recent_messages'),
  );
  const rows = await statement.execute({ conversationId, limit });
  return rows.reverse();
}

/** The WhatsApp ids of the contact's newest messages, to mark them read. */
export async function recentContactIds({ db, conversationId, limit }: { db: Db; conversationId: string; limit: number }) {
  const rows = await db
    .select({ waId: whatsappMessages.waId })
    .from(whatsappMessages)
    .where(and(eq(whatsappMessages.conversationId, conversationId), eq(whatsappMessages.sender, 'contact'), isNotNull(whatsappMessages.waId)))
    .orderBy(desc(whatsappMessages.seq))
    .limit(limit);
  return rows.map((r) => r.waId!).reverse();
}

/**
 * Forgets an agent that no longer exists (an admin deleted it) wherever accounts chose it: the
 * conversations it was assigned to and the accounts it was the default of fall back to their
 * defaults. The owners whose data changed.
 */
export async function unassignAgent({ db, agentId }: { db: Db; agentId: string }): Promise<string[]> {
  const fromConversations = await db
    .update(whatsappConversations)
    .set({ agentId: null })
    .where(eq(whatsappConversations.agentId, agentId))
    .returning({ userId: whatsappConversations.userId });
  const fromAccounts = await db
    .update(whatsappAccounts)
    .set({ defaultAgentId: null })
    .where(eq(whatsappAccounts.defaultAgentId, agentId))
    .returning({ userId: whatsappAccounts.userId });
  return [...new Set([...fromConversations, ...fromAccounts].map((row) => row.userId))];
}
