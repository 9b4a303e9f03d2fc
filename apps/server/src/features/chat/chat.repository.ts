import { and, asc, count, desc, eq, gte, ilike, isNull, lte, or, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { containing } from '@/lib/like';
import {
  conversations,
  messages,
  pairings,
  type ConversationRow,
  type MessageRow,
} from './chat.table';

export async function findConversation({
  db,
  id,
}: {
  db: Db;
  id: string;
}): Promise<ConversationRow | undefined> {
  const [row] = await db.select().from(conversations).where(eq(conversations.id, id)).limit(1);
  return row;
}

/** Newest first, as every list shows conversations: last activity, then creation, then id (ties). */
const NEWEST_FIRST = [
  desc(conversations.updatedAt),
  desc(conversations.createdAt),
  desc(conversations.id),
];

/**
 * The conversation with the agent that the user was in last: the first of their list, so the
 * dashboard's short form continues the one the agent's page opens.
 */
export async function findLatestConversation({
  db,
  userId,
  agentId,
}: {
  db: Db;
  userId: string;
  agentId: string;
}) {
  const [row] = await db
    .select()
    .from(conversations)
    .where(and(eq(conversations.userId, userId), eq(conversations.agentId, agentId)))
    .orderBy(...NEWEST_FIRST)
    .limit(1);
  return row;
}

/**
 * The user's conversations (with one agent, if given), newest first (by their last message), with their message counts, stored titles and first user messages; `search` keeps those
 * whose title or any message contains it, case-insensitively.
 */
export async function listConversations({
  db,
  userId,
  agentId,
  search,
}: {
  db: Db;
  userId: string;
  agentId?: string;
  search?: string;
}) {
  // Qualified by hand: with one table in the query, Drizzle leaves column names bare, and a
  // bare "id" inside the subqueries would be the message's.
  const ownId = sql`${conversations}."id"`;
  return db
    .select({
      id: conversations.id,
      agentId: conversations.agentId,
      title: conversations.title,
      createdAt: conversations.createdAt,
      updatedAt: conversations.updatedAt,
      messageCount: sql<number>`(select count(*)::int from ${messages} where ${messages.conversationId} = ${ownId})`,
      firstMessage: sql<
        string | null
      >`(select ${messages.text} from ${messages} where ${messages.conversationId} = ${ownId} and ${messages.sender} = 'user' order by ${messages.seq} limit 1)`,
    })
    .from(conversations)
    .where(
      and(
        eq(conversations.userId, userId),
        agentId ? eq(conversations.agentId, agentId) : undefined,
        search
          ? or(
              ilike(conversations.title, containing(search)),
              sql`exists (select 1 from ${messages} where ${messages.conversationId} = ${ownId} and ${messages.text} ilike ${containing(search)})`,
            )
          : undefined,
      ),
    )
    .orderBy(...NEWEST_FIRST);
}

/** The first message the user wrote in a conversation (the source of a derived title). */
export async function findFirstUserMessage({
  db,
  conversationId,
}: {
  db: Db;
  conversationId: string;
}): Promise<string | undefined> {
  const [row] = await db
    .select({ text: messages.text })
    .from(messages)
    .where(and(eq(messages.conversationId, conversationId), eq(messages.sender, 'user')))
    .orderBy(messages.seq)
    .limit(1);
  return row?.text;
}

/**
 * Sets a conversation's title, only if it is the user's: the updated row, or undefined. Its
 * place in the list (the last message) stays: a rename is not activity.
 */
export async function updateConversationTitle({
  db,
  id,
  userId,
  title,
}: {
  db: Db;
  id: string;
  userId: string;
  title: string;
}) {
  const [row] = await db
    .update(conversations)
    .set({ title })
    .where(and(eq(conversations.id, id), eq(conversations.userId, userId)))
    .returning();
  return row;
}

/** Deletes a conversation (its messages and pairings go with it), only if it is the user's. */
export async function deleteConversation({
  db,
  id,
  userId,
}: {
  db: Db;
  id: string;
  userId: string;
}): Promise<boolean> {
  const rows = await db
    .delete(conversations)
    .where(and(eq(conversations.id, id), eq(conversations.userId, userId)))
    .returning({ id: conversations.id });
  return rows.length > 0;
}

export async function listMessages({
  db,
  conversationId,
}: {
  db: Db;
  conversationId: string;
}): Promise<MessageRow[]> {
  return db
    .select()
    .from(messages)
    .where(eq(messages.conversationId, conversationId))
    .orderBy(messages.seq);
}

/**
 * The sender and text of the newest messages whose texts add up to at most `budgetChars` (at most
 * `limit` of them), oldest first: the history an engine gets, cut in the database so that turns beyond the budget are
 * never read. PostgreSQL counts characters and JavaScript UTF-16 units, which are never fewer,
 * so this is the engine's cut (trimHistory) or a little more, never less.
 */
export async function listRecentMessages({
  db,
  conversationId,
  limit,
  budgetChars,
}: {
  db: Db;
  conversationId: string;
  limit: number;
  budgetChars: number;
}) {
  const recent = db
    .select({
      seq: messages.seq,
      sender: messages.sender,
      text: messages.text,
      used: sql<number>`sum(char_length(${messages.text})) over (order by ${messages.seq} desc)`.as(
        'used',
      ),
    })
    .from(messages)
    .where(eq(messages.conversationId, conversationId))
    .orderBy(desc(messages.seq))
    .limit(limit)
    .as('recent');
  return db
    .select({ sender: recent.sender, text: recent.text })
    .from(recent)
    .where(lte(recent.used, budgetChars))
    .orderBy(asc(recent.seq));
}

/**
 * Stores one exchange (the user's message and the finished reply), creating the conversation when
 * it is new, in one statement: atomic without a transaction (a failed reply leaves nothing
 * behind), and one round trip to the database instead of five. Messages take their order (seq)
 * from the order of the rows: the question, then the reply.
 */
export async function insertExchange({
  db,
  conversation,
  userText,
  botText,
  userAt,
  botAt,
  stopped = false,
  awaits = null,
}: {
  db: Db;
  conversation: { id: string; userId: string; agentId: string };
  userText: string;
  botText: string;
  userAt: Date;
  botAt: Date;
  /** The user stopped the reply: `botText` is what had arrived. */
  stopped?: boolean;
  /** The reply waits for the user's answer (see ChatMessage.awaits). */
  awaits?: MessageRow['awaits'];
}): Promise<MessageRow> {
  const stored = db.$with('stored_conversation').as(
    db
      .insert(conversations)
      .values({ ...conversation, createdAt: userAt, updatedAt: botAt })
      // An existing conversation is only touched; never one of another user's (no row comes
      // back then, and the messages' conversation_id, null, fails the whole statement).
      .onConflictDoUpdate({
        target: conversations.id,
        set: { updatedAt: botAt },
        setWhere: eq(conversations.userId, conversation.userId),
      })
      .returning({ id: conversations.id }),
  );
  const conversationId = sql<string>`(select ${stored.id} from ${stored})`;
  const rows = await db
    .with(stored)
    .insert(messages)
    .values([
      { conversationId, sender: 'user', text: userText, createdAt: userAt },
      { conversationId, sender: 'bot', text: botText, stopped, awaits, createdAt: botAt },
    ])
    .returning();
  const bot = rows.find((row) => row.sender === 'bot');
  if (!bot) throw new Error('insert into messages returned no reply');
  return bot;
}

export async function countUserActivity({ db, userId }: { db: Db; userId: string }) {
  const [row] = await db
    .select({
      conversations: sql<number>`count(distinct ${conversations.id})::int`,
      messages: count(messages.id),
    })
    .from(conversations)
    .leftJoin(messages, eq(messages.conversationId, conversations.id))
    .where(eq(conversations.userId, userId));
  return { conversations: row?.conversations ?? 0, messages: Number(row?.messages ?? 0) };
}

export async function countActivitySince({ db, since }: { db: Db; since: Date }) {
  const [c] = await db
    .select({ n: count() })
    .from(conversations)
    .where(gte(conversations.createdAt, since));
  const [m] = await db.select({ n: count() }).from(messages).where(gte(messages.createdAt, since));
  return { conversations: Number(c?.n ?? 0), messages: Number(m?.n ?? 0) };
}

/** A new pairing for a conversation; the ones before it stop working. */
export async function replacePairing({
  db,
  userId,
  conversationId,
  tokenHash,
  now,
  expiresAt,
}: {
  db: Db;
  userId: string;
  conversationId: string;
  tokenHash: string;
  now: Date;
  expiresAt: Date;
}): Promise<void> {
  await db.transaction(async (tx) => {
    await tx
      .update(pairings)
      .set({ revokedAt: now })
      .where(
        and(
          eq(pairings.conversationId, conversationId),
          isNull(pairings.revokedAt),
          isNull(pairings.usedAt),
        ),
      );
    await tx
      .insert(pairings)
      .values({ userId, conversationId, tokenHash, createdAt: now, expiresAt });
  });
}

/**
 * Uses a pairing once, for the chat `by`: its conversation, or why not (see PairingUse). The
 * chat that used it gets its conversation again; a second chat never does, whoever is first.
 */
export async function usePairing({
  db,
  tokenHash,
  by,
  now,
}: {
  db: Db;
  tokenHash: string;
  by: string;
  now: Date;
}): Promise<
  | { outcome: 'paired'; conversationId: string; userId: string }
  | { outcome: 'used' | 'expired' | 'unknown' }
> {
  const [row] = await db
    .select()
    .from(pairings)
    .where(eq(pairings.tokenHash, tokenHash))
    .orderBy(desc(pairings.createdAt))
    .limit(1);
  if (!row || row.revokedAt) return { outcome: 'unknown' };
  const paired = {
    outcome: 'paired' as const,
    conversationId: row.conversationId,
    userId: row.userId,
  };
  if (row.usedAt) return row.usedBy === by ? paired : { outcome: 'used' };
  if (row.expiresAt < now) return { outcome: 'expired' };
  const [used] = await db
    .update(pairings)
    .set({ usedAt: now, usedBy: by })
    .where(and(eq(pairings.id, row.id), isNull(pairings.usedAt)))
    .returning({ id: pairings.id });
  if (used) return paired;
  // Another chat (or this one, on another instance) used it meanwhile.
  const [after] = await db
    .select({ usedBy: pairings.usedBy })
    .from(pairings)
    .where(eq(pairings.id, row.id));
  return after?.usedBy === by ? paired : { outcome: 'used' };
}

/**
 * Appends messages to a conversation under the given ids, touching the conversation; nothing when
 * those ids are stored already (a try repeated).
 */
export async function appendMessages({
  db,
  conversationId,
  rows,
}: {
  db: Db;
  conversationId: string;
  rows: { id: string; sender: 'user' | 'bot'; text: string; createdAt: Date }[];
}): Promise<void> {
  await db.transaction(async (tx) => {
    const stored = await tx
      .insert(messages)
      .values(rows.map((row) => ({ ...row, conversationId })))
      .onConflictDoNothing({ target: messages.id })
      .returning({ id: messages.id });
    if (stored.length > 0)
      await tx
        .update(conversations)
        .set({ updatedAt: rows.at(-1)!.createdAt })
        .where(eq(conversations.id, conversationId));
  });
}

/** How many conversations each agent has had, with any user (agents without any are absent). */
export async function countConversationsByAgent({ db }: { db: Db }): Promise<Map<string, number>> {
  const rows = await db
    .select({ agentId: conversations.agentId, n: count() })
    .from(conversations)
    .groupBy(conversations.agentId);
  return new Map(rows.map((row) => [row.agentId, Number(row.n)]));
}
