import {
  and,
  asc,
  count,
  desc,
  eq,
  getTableColumns,
  inArray,
  isNotNull,
  isNull,
  lt,
  lte,
  or,
  sql,
  type SQL,
  type SQLWrapper,
} from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Db } from '@/db/client';
import { prepared } from '@/db/prepared';
import {
  byIds,
  jobCompletionSql,
  jobsCompletionSql,
  jobInsertOrWaitSql,
  jobInsertSql,
  NO_JOB_COMPLETION,
  NO_JOB_INSERT,
  prefixed,
} from '@/lib/job-statements';
import type { JobCompletion, JobSlot } from '@/lib/jobs';
import { grouped } from '@/lib/grouped';
import { hasSqlState, SQL_STATE } from '@/lib/sql-state';
import {
  whatsappAccounts,
  whatsappConversations,
  whatsappLidMappings,
  whatsappMessages,
  type WhatsAppAccountRow,
  type WhatsAppConversationRow,
  type WhatsAppMessageRow,
} from './whatsapp.table';

/** The account's WhatsApp row, made with the defaults the first time. */

/**
 * The conversations the number's owner sees: not a Sync Agent chat (its user's conversation with
 * an agent holds it) nor an indirect relay's (its texts are the senders').
 */
export function ownersOwn(c: typeof whatsappConversations) {
  return and(isNull(c.pairedConversationId), eq(c.relay, false));
}

/** Whether the number's owner sees this conversation (see ownersOwn). */
export function isOwnersOwn(c: Pick<WhatsAppConversationRow, 'pairedConversationId' | 'relay'>) {
  return c.pairedConversationId === null && !c.relay;
}

export async function ensureAccount({
  db,
  userId,
  now,
}: {
  db: Db;
  userId: string;
  now: Date;
}): Promise<WhatsAppAccountRow> {
  const [inserted] = await db
    .insert(whatsappAccounts)
    .values({ userId, updatedAt: now })
    .onConflictDoNothing()
    .returning();
  if (inserted) return inserted;
  const [row] = await db
    .select()
    .from(whatsappAccounts)
    .where(eq(whatsappAccounts.userId, userId))
    .limit(1);
  return row!;
}

export async function findAccount({
  db,
  userId,
}: {
  db: Db;
  userId: string;
}): Promise<WhatsAppAccountRow | undefined> {
  const [row] = await db
    .select()
    .from(whatsappAccounts)
    .where(eq(whatsappAccounts.userId, userId))
    .limit(1);
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
    .where(
      and(
        eq(whatsappAccounts.userId, userId),
        unlessReady ? sql`${whatsappAccounts.state} <> 'ready'` : undefined,
      ),
    )
    .returning({ userId: whatsappAccounts.userId });
  return rows.length > 0;
}

/**
 * Accounts with a linked number (one was linked and not unlinked since: the number stays while
 * the connection is lost or failed) and, of them, those whose connection is open.
 */
export async function countLinkedAccounts({
  db,
}: {
  db: Db;
}): Promise<{ linked: number; connected: number }> {
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
    .where(
      and(
        isNotNull(whatsappAccounts.phone),
        inArray(whatsappAccounts.state, ['failed', 'disconnected', 'reconnecting']),
      ),
    );
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
    .where(and(eq(whatsappConversations.userId, userId), ownersOwn(whatsappConversations)));
  return {
    total: row?.total ?? 0,
    aiEnabled: row?.aiEnabled ?? 0,
    whitelisted: row?.whitelisted ?? 0,
    agentAssigned: row?.agentAssigned ?? 0,
  };
}

/** A CTE's columns as a nested selection: the columns its proxy gives, which name the CTE. */
function fieldsOf<S extends Record<string, unknown>>(cte: { _: { selectedFields: S } }): S {
  return Object.fromEntries(
    Object.keys(cte._.selectedFields).map((key) => [key, (cte as unknown as S)[key]]),
  ) as S;
}

/** A column's name in the database, for the raw SQL of the statements below. */
function columnName(table: typeof whatsappMessages | typeof whatsappConversations, key: string) {
  return sql.identifier((table[key as keyof typeof table] as { name: string }).name);
}

/**
 * A contact's message, stored in one statement with finding its conversation: the account's
 * conversation with the contact known by either of its JIDs (its own or its other one), the
 * message in it once (by WhatsApp's id; `stored` is undefined for the same message again), and
 * what `insertMessage` answers. Undefined when the account has no conversation with the contact
 * yet: nothing is stored then (insertConversation, then insertMessage). One round trip instead of
 * two for every message of a known contact.
 *
 * With `reply`, the message's reply job (`{ userId, conversationId }`, keyed by the conversation)
 * is inserted with it when the slot holds room for it and no reply of the conversation runs: the
 * message and the job that answers it then exist together or not at all, and the job costs no
 * round trip of its own. The slot is told what was inserted.
 */
export async function insertContactMessage({
  db,
  userId,
  jids,
  values,
  unread,
  reply,
  now,
  contextLimit = 0,
}: {
  db: Db;
  userId: string;
  jids: [string] | [string, string];
  values: Pick<
    WhatsAppMessageRow,
    'waId' | 'sender' | 'text' | 'unanswered' | 'createdAt' | 'media' | 'mediaFile'
  >;
  unread: boolean;
  reply?: JobSlot<{ userId: string; conversationId: string }>;
  /** Now: a contact's message that comes while the agent is paused or the contact blocked is stored `held`. */
  now: Date;
  /**
   * With `reply`: the reply's context (findReplyContext's, at most `contextLimit` messages) is
   * read in the same statement, for the job to start with when it runs here at once.
   */
  contextLimit?: number;
}): Promise<
  | {
      found: WhatsAppConversationRow;
      stored: StoredMessage | undefined;
      mapped?: string;
      context?: ReplyContext;
    }
  | undefined
> {
  const statement = prepared(db, 'whatsapp_insert_contact_message', (db) => {
    const m = whatsappMessages;
    const c = whatsappConversations;
    const p = (
      name: keyof typeof values | 'unread' | 'userId' | 'jid' | 'other' | 'now' | 'contextLimit',
    ) => sql.placeholder(name);
    const l = whatsappLidMappings;
    const pair = sql`${p('jid')}::text, ${p('other')}::text`;
    // The contact's other address as a mapping knows it, when the message did not carry it.
    const mapped = sql`(select case when ${l.lid} in (${pair}) then ${l.pn} else ${l.lid} end from ${l}
          where ${l.userId} = ${p('userId')}::uuid and (${l.lid} in (${pair}) or ${l.pn} in (${pair})) limit 1)`;
    const jid = sql`${pair}, ${mapped}`;
    const found = db.$with('found', getTableColumns(c)).as(
      sql`select * from ${c} where ${c.userId} = ${p('userId')}::uuid and (${c.contactJid} in (${jid}) or ${c.contactAltJid} in (${jid}))
          order by ${c.createdAt} asc limit 1`,
    );
    const inserted = db.$with('inserted', getTableColumns(m)).as(
      sql`insert into ${m} (${sql.join(
        [
          'conversationId',
          'waId',
          'sender',
          'text',
          'unanswered',
          'media',
          'mediaFile',
          'held',
          'createdAt',
        ].map((key) => columnName(m, key)),
        sql`, `,
      )})
          select ${sql.identifier('found')}.${columnName(c, 'id')}, ${p('waId')}, ${p('sender')}, ${p('text')}, ${p('unanswered')}::boolean,
            ${p('media')}::jsonb, ${p('mediaFile')}::text,
            ${p('sender')} = 'contact' and (coalesce(${sql.identifier('found')}.${columnName(c, 'pausedUntil')} > ${p('now')}::timestamptz, false)
              or ${sql.identifier('found')}.${columnName(c, 'blockedByOwner')}
              or coalesce(${sql.identifier('found')}.${columnName(c, 'blockedUntil')} > ${p('now')}::timestamptz, false)),
            ${p('createdAt')}::timestamptz from ${sql.identifier('found')}
          on conflict do nothing returning *`,
    );
    const moved = db.$with('moved', getTableColumns(c)).as(
      sql`update ${c} set ${columnName(c, 'updatedAt')} = greatest(${c.updatedAt}, ${p('createdAt')}::timestamptz),
          ${columnName(c, 'unreadCount')} = ${c.unreadCount} + ${p('unread')}::int
          where ${c.id} = (select ${columnName(m, 'conversationId')} from ${sql.identifier('inserted')})
          returning *`,
    );
    const conversationId = sql`${sql.identifier('inserted')}.${columnName(m, 'conversationId')}`;
    const job = db.$with('reply_job', {}).as(
      jobInsertSql({
        from: sql`${sql.identifier('inserted')}`,
        data: sql`jsonb_build_object('userId', ${p('userId')}::text, 'conversationId', ${conversationId})`,
        key: sql`${conversationId}::text`,
      }),
    );
    return db
      .with(found, inserted, moved, job)
      .select({
        found: fieldsOf(found),
        message: fieldsOf(inserted),
        conversation: fieldsOf(moved),
        account: whatsappAccounts,
        mapped: sql<string | null>`${mapped}`,
        job: sql<{ id: string; data: unknown; key: string | null } | null>`(
          select json_build_object('id', id, 'data', data, 'key', key) from ${sql.identifier('reply_job')})`,
        // What came before the message (the statement sees the conversation as it was): the
        // message itself is added to it after.
        recent: sql<RecentJson | null>`case when ${p('contextLimit')}::int > 0 and exists (select 1 from ${sql.identifier('reply_job')})
          then ${recentSql(conversationId, sql`${p('contextLimit')}::int - 1`)} end`,
      })
      .from(found)
      .leftJoin(inserted, sql`true`)
      .leftJoin(moved, sql`true`)
      .leftJoin(whatsappAccounts, eq(whatsappAccounts.userId, found.userId))
      .prepare('whatsapp_insert_contact_message');
  });
  const run = () =>
    statement.execute({
      ...values,
      media: values.media === null ? null : JSON.stringify(values.media),
      userId,
      jid: jids[0],
      other: jids[1] ?? jids[0],
      createdAt: values.createdAt.toISOString(),
      now: now.toISOString(),
      unread: unread ? 1 : 0,
      contextLimit: reply ? contextLimit : 0,
      ...(reply?.params() ?? NO_JOB_INSERT),
    });
  let row: Awaited<ReturnType<typeof run>>[number] | undefined;
  try {
    [row] = await run();
  } catch (error) {
    // The conversation found was being merged into the contact's other one (another instance, or
    // a mapping told meanwhile): the merge held it, then deleted it. The contact's one
    // conversation now knows both addresses, and the message goes there.
    if (!hasSqlState(error, SQL_STATE.foreignKeyViolation)) throw error;
    [row] = await run();
  }
  reply?.inserted(row?.job);
  if (!row) return undefined;
  const stored =
    row.message && row.conversation
      ? {
          message: row.message,
          conversation: row.conversation,
          whitelistMode: row.account?.whitelistMode ?? null,
        }
      : undefined;
  const context =
    stored && row.recent
      ? {
          conversation: stored.conversation,
          account: row.account ?? undefined,
          recent: [...recentOf(row.recent), historyOf(stored.message)],
        }
      : undefined;
  return { found: row.found, stored, mapped: row.mapped ?? undefined, context };
}

/** A new contact's conversation; when a concurrent message made it first, that one. */
export async function insertConversation({
  db,
  values,
}: {
  db: Db;
  values: Pick<
    WhatsAppConversationRow,
    | 'userId'
    | 'contactJid'
    | 'contactAltJid'
    | 'contactName'
    | 'contactNumber'
    | 'createdAt'
    | 'updatedAt'
  >;
}): Promise<WhatsAppConversationRow> {
  const [inserted] = await db
    .insert(whatsappConversations)
    .values(values)
    .onConflictDoNothing()
    .returning();
  if (inserted) return inserted;
  const [row] = await db
    .select()
    .from(whatsappConversations)
    .where(
      and(
        eq(whatsappConversations.userId, values.userId),
        eq(whatsappConversations.contactJid, values.contactJid),
      ),
    )
    .limit(1);
  return row!;
}

/**
 * What an auto-reply reads of a message: who wrote it, what, when, why it failed, its place, and
 * what it carries besides text (none once deleted for everyone) with its kept file's name.
 */
export type HistoryMessage = Pick<
  WhatsAppMessageRow,
  | 'id'
  | 'seq'
  | 'sender'
  | 'text'
  | 'error'
  | 'unanswered'
  | 'held'
  | 'createdAt'
  | 'media'
  | 'mediaFile'
>;

/**
 * What an auto-reply needs before asking the agent, in one query: the conversation, its account's
 * row (undefined without one) and the messages since its last reply, oldest first (as JSON: one
 * row to read, not one per message), at most `limit` of them: the question, found through the
 * conversation's index from its newest end. The turns before it are read apart, by
 * listReplyHistory, and only for an engine that reads history.
 */
export async function findReplyContext({
  db,
  id,
  limit,
}: {
  db: Db;
  id: string;
  limit: number;
}): Promise<ReplyContext | undefined> {
  const [row] = await replyContextStatement(db).execute({ id, limit });
  if (!row) return undefined;
  return {
    conversation: row.conversation,
    account: row.account ?? undefined,
    recent: recentOf(row.recent),
  };
}

/** What an auto-reply reads before asking the agent (findReplyContext). */
export type ReplyContext = {
  conversation: WhatsAppConversationRow;
  account: WhatsAppAccountRow | undefined;
  recent: HistoryMessage[];
};

type RecentJson = {
  id: string;
  seq: number;
  sender: WhatsAppMessageRow['sender'];
  text: string;
  error: string | null;
  unanswered: boolean;
  held: boolean;
  createdAt: string;
  media: WhatsAppMessageRow['media'];
  mediaFile: string | null;
}[];

/**
 * The conversation's messages since its last reply, oldest first, as JSON (see findReplyContext):
 * at most `limit` of them, found through its outgoing messages' index from its newest end.
 */
function recentSql(conversationId: SQL, limit: SQL) {
  const m = whatsappMessages;
  const last = alias(whatsappMessages, 'last_reply');
  const rows = sql`select ${m.id} as id, ${m.seq} as seq, ${m.sender} as sender, ${m.text} as text, ${m.error} as error, ${m.unanswered} as unanswered, ${m.held} as held, ${m.createdAt} as created_at,
          case when ${m.deletedAt} is null then ${m.media} end as media, case when ${m.deletedAt} is null then ${m.mediaFile} end as media_file
        from ${m}
        where ${m.conversationId} = ${conversationId}
          and ${m.seq} > coalesce((
            select ${last.seq} from ${m} as ${last} where ${last.conversationId} = ${conversationId} and ${last.sender} = 'user'
            order by ${last.seq} desc limit 1), 0)
        order by ${m.seq} desc limit ${limit}`;
  return sql<RecentJson>`(
      select coalesce(json_agg(json_build_object('id', r.id, 'seq', r.seq, 'sender', r.sender, 'text', r.text, 'error', r.error, 'unanswered', r.unanswered, 'held', r.held, 'createdAt', r.created_at, 'media', r.media, 'mediaFile', r.media_file) order by r.seq), '[]'::json)
      from (${rows}) r)`;
}

/** What an auto-reply reads of a stored message. */
function historyOf({
  id,
  seq,
  sender,
  text,
  error,
  unanswered,
  held,
  createdAt,
  media,
  mediaFile,
  deletedAt,
}: WhatsAppMessageRow): HistoryMessage {
  const kept = deletedAt === null;
  return {
    id,
    seq,
    sender,
    text,
    error,
    unanswered,
    held,
    createdAt,
    media: kept ? media : null,
    mediaFile: kept ? mediaFile : null,
  };
}

/** Messages of recentSql's JSON, with their times as dates. */
function recentOf(json: RecentJson): HistoryMessage[] {
  return json.map((message) => ({ ...message, createdAt: new Date(message.createdAt) }));
}

/** findReplyContext's statement, prepared once per database. */
const replyContextStatement = (db: Db) =>
  prepared(db, 'whatsapp_reply_question', (db) => {
    const recent = recentSql(sql`${whatsappConversations.id}`, sql`${sql.placeholder('limit')}`);
    return db
      .select({ conversation: whatsappConversations, account: whatsappAccounts, recent })
      .from(whatsappConversations)
      .leftJoin(whatsappAccounts, eq(whatsappAccounts.userId, whatsappConversations.userId))
      .where(eq(whatsappConversations.id, sql.placeholder('id')))
      .limit(1)
      .prepare('whatsapp_reply_question');
  });

/**
 * The turns an auto-reply's engine reads before the question (the messages before `beforeSeq`,
 * failed replies left out), oldest first: the newest whose texts add up to at most `budgetChars`,
 * at most `limit` of them, cut in the database so that a long conversation's older turns are never
 * read. PostgreSQL counts characters and JavaScript UTF-16 units, which are never fewer, so this is
 * the engine's cut (trimHistory) or a little more, never less.
 */
export async function listReplyHistory({
  db,
  conversationId,
  beforeSeq,
  limit,
  budgetChars,
}: {
  db: Db;
  conversationId: string;
  beforeSeq: number;
  limit: number;
  budgetChars: number;
}): Promise<Pick<WhatsAppMessageRow, 'sender' | 'text'>[]> {
  const m = whatsappMessages;
  // What a message said: its text, or a voice note's words once transcribed.
  const said = sql<string>`coalesce(nullif(${m.text}, ''), ${m.media}->>'transcript', '')`;
  const recent = db
    .select({
      seq: m.seq,
      sender: m.sender,
      text: said.as('said'),
      used: sql<number>`sum(char_length(${said})) over (order by ${m.seq} desc)`.as('used'),
    })
    .from(m)
    .where(
      and(
        eq(m.conversationId, conversationId),
        lt(m.seq, beforeSeq),
        isNull(m.error),
        // Deleted for everyone: nothing left to read.
        isNull(m.deletedAt),
        // A file that says nothing (a photo without caption, a voice note not transcribed) is no turn.
        sql`${said} <> ''`,
      ),
    )
    .orderBy(desc(m.seq))
    .limit(limit)
    .as('recent');
  return db
    .select({ sender: recent.sender, text: recent.text })
    .from(recent)
    .where(lte(recent.used, budgetChars))
    .orderBy(asc(recent.seq));
}

export async function findConversation({
  db,
  id,
}: {
  db: Db;
  id: string;
}): Promise<WhatsAppConversationRow | undefined> {
  const [row] = await db
    .select()
    .from(whatsappConversations)
    .where(eq(whatsappConversations.id, id))
    .limit(1);
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
    Pick<
      WhatsAppConversationRow,
      | 'aiEnabled'
      | 'isWhitelisted'
      | 'agentId'
      | 'unreadCount'
      | 'contactAltJid'
      | 'contactName'
      | 'contactNumber'
      | 'blockedUntil'
      | 'blockedByOwner'
      | 'pausedUntil'
      | 'needsHuman'
      | 'pairedConversationId'
      | 'relay'
    >
  >;
}): Promise<WhatsAppConversationRow | undefined> {
  const [row] = await db
    .update(whatsappConversations)
    .set(set)
    .where(and(eq(whatsappConversations.id, id), eq(whatsappConversations.userId, userId)))
    .returning();
  return row;
}

/**
 * Blocks the contact (by its owner, or `until` a time for writing too fast) and holds what it
 * wrote since its last answer, in one transaction: a block answers nothing the contact wrote
 * before it lifts, whatever the time on the contact's messages (WhatsApp's, in whole seconds and
 * from its own clock), and what comes during it is held as it is stored.
 */
export async function blockConversation({
  db,
  id,
  userId,
  set,
}: {
  db: Db;
  id: string;
  userId: string;
  set: { blockedByOwner: true } | { blockedUntil: Date };
}): Promise<WhatsAppConversationRow | undefined> {
  const m = whatsappMessages;
  return db.transaction(async (tx) => {
    const row = await updateConversation({ db: tx, id, userId, set });
    if (!row) return undefined;
    await tx
      .update(m)
      .set({ held: true })
      .where(
        and(
          eq(m.conversationId, id),
          eq(m.sender, 'contact'),
          eq(m.held, false),
          sql`${m.seq} > coalesce((select max(a.seq) from ${m} a
            where a.conversation_id = ${id}::uuid and a.sender <> 'contact'), 0)`,
        ),
      );
    return row;
  });
}

/**
 * Holds the contact's messages `seqs` of the conversation: kept and shown, never answered, nor
 * asked again with a later message (nobody was chosen to answer them).
 */
export async function holdMessages({
  db,
  conversationId,
  seqs,
}: {
  db: Db;
  conversationId: string;
  seqs: number[];
}): Promise<void> {
  if (seqs.length === 0) return;
  const m = whatsappMessages;
  await db
    .update(m)
    .set({ held: true })
    .where(
      and(eq(m.conversationId, conversationId), eq(m.sender, 'contact'), inArray(m.seq, seqs)),
    );
}

/**
 * Deletes the account's conversation and its messages: the names of the files its messages kept
 * (to be removed), or undefined when the account has no such conversation.
 */
export async function deleteConversation({
  db,
  id,
  userId,
}: {
  db: Db;
  id: string;
  userId: string;
}): Promise<{ files: string[] } | undefined> {
  return db.transaction(async (tx) => {
    const m = whatsappMessages;
    const c = whatsappConversations;
    // Read in the statement that deletes them: a file stored meanwhile is in the list or not stored.
    const files = await tx
      .delete(m)
      .where(
        and(
          isNotNull(m.mediaFile),
          eq(
            m.conversationId,
            sql`(select ${c.id} from ${c} where ${c.id} = ${id} and ${c.userId} = ${userId})`,
          ),
        ),
      )
      .returning({ file: m.mediaFile });
    const rows = await tx
      .delete(c)
      .where(and(eq(c.id, id), eq(c.userId, userId)))
      .returning({ id: c.id });
    return rows.length > 0 ? { files: files.map((row) => row.file!) } : undefined;
  });
}

/**
 * Keeps a voice note's transcript with its message (in its `media`), unless the message was
 * deleted for everyone meanwhile: the message as it is now, or undefined.
 */
export async function setTranscript({
  db,
  id,
  transcript,
}: {
  db: Db;
  id: string;
  transcript: string;
}): Promise<WhatsAppMessageRow | undefined> {
  const m = whatsappMessages;
  const [row] = await db
    .update(m)
    .set({
      media: sql`${m.media} || jsonb_build_object('transcript', ${transcript}::text)`,
    })
    .where(and(eq(m.id, id), isNull(m.deletedAt), isNotNull(m.media)))
    .returning();
  return row;
}

/** A message's media and the account it belongs to, to serve its file. */
export async function findMessageMedia({ db, id }: { db: Db; id: string }) {
  const m = whatsappMessages;
  const c = whatsappConversations;
  const [row] = await db
    .select({
      userId: c.userId,
      media: m.media,
      mediaFile: m.mediaFile,
      deletedAt: m.deletedAt,
    })
    .from(m)
    .innerJoin(c, eq(c.id, m.conversationId))
    .where(eq(m.id, id));
  return row;
}

/**
 * Lets go of at most `limit` files kept since before `before` (their messages say `expired` from
 * now on): the account and name of each, to be removed.
 */
export async function expireMedia({
  db,
  before,
  limit,
}: {
  db: Db;
  before: Date;
  limit: number;
}): Promise<{ userId: string; file: string }[]> {
  const result = await db.execute(sql`with picked as (
      select m.id, m.media_file as file, c.user_id as "userId"
      from ${whatsappMessages} m join ${whatsappConversations} c on c.id = m.conversation_id
      where m.media_file is not null and m.created_at < ${before.toISOString()}::timestamptz
      order by m.created_at limit ${limit}
      for update of m skip locked
    ), updated as (
      update ${whatsappMessages} m
      set media_file = null, sent_content = null,
          media = coalesce(m.media, '{}'::jsonb) || '{"unavailable":"expired"}'::jsonb
      from picked where m.id = picked.id
    )
    select "userId", file from picked`);
  return rowsOf(result) as { userId: string; file: string }[];
}

/** The names of the stored files the account's messages name (to tell a stray file from a kept one). */
export async function accountMediaFiles({
  db,
  userId,
}: {
  db: Db;
  userId: string;
}): Promise<Set<string>> {
  const result = await db.execute(sql`select m.media_file as file
      from ${whatsappMessages} m join ${whatsappConversations} c on c.id = m.conversation_id
      where c.user_id = ${userId} and m.media_file is not null`);
  return new Set(rowsOf(result).map((row) => String(row.file)));
}

/**
 * The files kept, on every instance together (one database, one DATA_DIR): how many and their
 * bytes, as their messages recorded them.
 */
export async function mediaUsage({ db }: { db: Db }): Promise<{ files: number; bytes: number }> {
  const result = await db.execute(sql`select count(*)::float8 as files,
      coalesce(sum((media->>'size')::numeric), 0)::float8 as bytes
      from ${whatsappMessages} where media_file is not null`);
  const [row] = rowsOf(result);
  return { files: Number(row?.files ?? 0), bytes: Number(row?.bytes ?? 0) };
}

/**
 * Which of these accounts still exist for WhatsApp (an account row goes with the account): the
 * others' files are what a deletion left behind.
 */
export async function existingAccounts({
  db,
  userIds,
}: {
  db: Db;
  userIds: string[];
}): Promise<Set<string>> {
  if (userIds.length === 0) return new Set();
  const rows = await db
    .select({ userId: whatsappAccounts.userId })
    .from(whatsappAccounts)
    .where(inArray(whatsappAccounts.userId, userIds));
  return new Set(rows.map((row) => row.userId));
}

/** What a list entry shows of its conversation's last message (see lastMessage). */
export type LastMessage = {
  /** Its first `previewChars` characters, and one more when it is longer. */
  text: string;
  /** What it carries besides text: the media's kind, or `voice` for a voice note; null for text alone. */
  media: string | null;
  /** Deleted for everyone: the preview says so. */
  deleted: boolean;
};

/**
 * The conversation's last message as its list entry shows it, read in one look-up of that row
 * and cut in the database, so a long message is never read whole; null without messages.
 */
const lastMessage = (previewChars: number) => {
  const m = whatsappMessages;
  return sql<LastMessage | null>`(select jsonb_build_object('text', left(${m.text}, ${previewChars + 1}), 'media', case when (${m.media}->>'voice') = 'true' then 'voice' else ${m.media}->>'kind' end, 'deleted', ${m.deletedAt} is not null) from ${m} where ${m.conversationId} = ${sql`${whatsappConversations}."id"`} order by ${m.seq} desc limit 1)`;
};

/**
 * The account's conversations, newest activity first, each with the start of its last message
 * (`previewChars` characters, and one more when it is longer) and the account's whitelist mode
 * (null without an account row), which their status depends on. A page: at most `limit` of
 * them, those after `after` (by last activity, then id) when given.
 */
export async function listConversations({
  db,
  userId,
  id,
  after,
  limit,
  previewChars,
}: {
  db: Db;
  userId: string;
  id?: string;
  after?: { updatedAt: Date; id: string };
  limit?: number;
  previewChars: number;
}) {
  const c = whatsappConversations;
  const query = db
    .select({
      conversation: c,
      lastMessage: lastMessage(previewChars),
      whitelistMode: whatsappAccounts.whitelistMode,
    })
    .from(c)
    .leftJoin(whatsappAccounts, eq(whatsappAccounts.userId, c.userId))
    .where(
      and(
        eq(c.userId, userId),
        ownersOwn(c),
        id ? eq(c.id, id) : undefined,
        after
          ? sql`(${c.updatedAt}, ${c.id}) < (${after.updatedAt.toISOString()}::timestamptz, ${after.id}::uuid)`
          : undefined,
      ),
    )
    .orderBy(desc(c.updatedAt), desc(c.id));
  return limit === undefined ? query : query.limit(limit);
}

/** Counts a contact's message that was not stored (see WhatsAppConversation.dropped_count): the conversation as it is now. */
export async function countDropped({
  db,
  userId,
  jid,
}: {
  db: Db;
  userId: string;
  jid: string;
}): Promise<WhatsAppConversationRow | undefined> {
  const c = whatsappConversations;
  const [row] = await db
    .update(c)
    .set({ droppedCount: sql`${c.droppedCount} + 1` })
    .where(and(eq(c.userId, userId), or(eq(c.contactJid, jid), eq(c.contactAltJid, jid))))
    .returning();
  return row;
}

/** A message just stored, with its conversation as it is now and the account's whitelist mode (null without an account row). */
export type StoredMessage = {
  message: WhatsAppMessageRow;
  conversation: WhatsAppConversationRow;
  whitelistMode: boolean | null;
};

/**
 * Stores a message once: a WhatsApp id already stored in the conversation stores nothing and
 * gives undefined. Otherwise the conversation's activity moves, and a contact's message counts
 * as unread; all in one statement with the message (one round trip instead of a transaction's
 * four: a message is stored twice per exchange), which answers with the conversation as it is
 * now and its account's whitelist mode (null without an account row): what the owner's list shows.
 * With `job`, the statement also marks that job done (a reply's, as it stores the reply).
 * `following` are stored after it in the same statement, alike but for their ids and texts: the
 * other parts of a long reply, so that a reply is stored whole or not at all.
 *
 * With `answerable`, an agent's reply, nothing is stored unless the owner still lets the agent
 * answer the conversation at `createdAt`: AI on, the contact not blocked by the owner, and no
 * takeover pause (a block for writing too fast holds back what came after it, not this reply);
 * `job` is then marked done as held (see `JobCompletion`). The answer also carries what the send
 * job's first try would read (`nextPending`): the contact's messages the first one answers, and
 * whether an outgoing message stored before it is still pending (it goes first then).
 */
export async function insertMessage({
  db,
  values,
  following = [],
  unread,
  answerable = false,
  job,
  send,
}: {
  db: Db;
  values: Pick<
    WhatsAppMessageRow,
    'conversationId' | 'waId' | 'sender' | 'text' | 'agentName' | 'error' | 'createdAt'
  > &
    Partial<Pick<WhatsAppMessageRow, 'id' | 'status' | 'unanswered' | 'media' | 'mediaFile'>>;
  following?: Pick<WhatsAppMessageRow, 'id' | 'waId' | 'text'>[];
  unread: boolean;
  answerable?: boolean;
  job?: JobCompletion;
  /** The message's send job (see `OutgoingJob`), inserted with it whatever room there is. */
  send?: JobSlot<OutgoingJob>;
}): Promise<
  | (StoredMessage & {
      /** `message` and those stored after it in the same statement (`following`), in order. */
      messages: WhatsAppMessageRow[];
      /** WhatsApp's ids of the contact's messages that `message` answers (see `nextPending`). */
      answered: string[];
      /** An outgoing message of the conversation stored before `message` is still pending. */
      pendingBefore: boolean;
    })
  | undefined
> {
  const statement = prepared(db, 'whatsapp_insert_message', (db) => {
    const m = whatsappMessages;
    const c = whatsappConversations;
    const p = (name: keyof typeof values | 'rows' | 'unread' | 'send' | 'answerable') =>
      sql.placeholder(name);
    const column = columnName;
    const inserted = db.$with('inserted', getTableColumns(m)).as(
      sql`insert into ${m} (${sql.join(
        [
          'id',
          'conversationId',
          'waId',
          'sender',
          'text',
          'agentName',
          'error',
          'unanswered',
          'status',
          'media',
          'mediaFile',
          'createdAt',
        ].map((key) => column(m, key)),
        sql`, `,
      )})
          select coalesce(r.id, gen_random_uuid()), ${p('conversationId')}::uuid, r.wa_id, ${p('sender')}, r.text, ${p('agentName')}, ${p('error')}, ${p('unanswered')}::boolean, ${p('status')},
            case when r.n = 1 then ${p('media')}::jsonb end, case when r.n = 1 then ${p('mediaFile')}::text end, ${p('createdAt')}::timestamptz
          from rows from (json_to_recordset(${p('rows')}::json) as (id uuid, wa_id text, text text)) with ordinality as r(id, wa_id, text, n)
          where not ${p('answerable')}::boolean or exists (select 1 from ${c}
            where ${c.id} = ${p('conversationId')}::uuid and ${c.aiEnabled} and not ${c.blockedByOwner}
              and (${c.pausedUntil} is null or ${c.pausedUntil} <= ${p('createdAt')}::timestamptz))
          order by r.n
          on conflict do nothing returning *`,
    );
    const moved = db.$with('moved', getTableColumns(c)).as(
      sql`update ${c} set ${column(c, 'updatedAt')} = greatest(${c.updatedAt}, ${p('createdAt')}::timestamptz),
          ${column(c, 'unreadCount')} = ${c.unreadCount} + ${p('unread')}::int
          where ${c.id} = ${p('conversationId')}::uuid and exists (select 1 from ${sql.identifier('inserted')})
          returning *`,
    );
    const i = sql.identifier('inserted');
    const jobDone = db
      .$with('job_done', {})
      .as(jobCompletionSql({ held: sql`not exists (select 1 from ${i})` }));
    const sendJob = db.$with('send_job', {}).as(
      jobInsertOrWaitSql({
        // One job for the messages stored: it sends them in order (see whatsapp.outbox.ts).
        from: sql`(select * from ${i} order by ${i}.${column(m, 'seq')} limit 1) as ${i}
          join ${c} on ${c.id} = ${i}.${column(m, 'conversationId')} where ${p('send')}::boolean`,
        data: sql`jsonb_build_object('userId', ${c.userId}::text, 'conversationId', ${i}.${column(m, 'conversationId')}::text, 'messageId', ${i}.${column(m, 'id')}::text)`,
        // One send at a time per conversation, in order (see whatsapp.outbox.ts).
        key: sql`${i}.${column(m, 'conversationId')}::text`,
        prefix: 'send_',
      }),
    );
    // As nextPending reads them (the statement's snapshot holds the conversation's earlier rows).
    const before = sql`${i}.${column(m, 'seq')}`;
    const conversationOf = sql`${i}.${column(m, 'conversationId')}`;
    const answered = answeredSql(conversationOf, before);
    const pendingBefore = sql<boolean>`exists (select 1 from ${m} o
      where o.conversation_id = ${conversationOf} and o.sender = 'user' and o.status = 'pending'
        and o.seq < ${before})`;
    return db
      .with(inserted, moved, jobDone, sendJob)
      .select({
        message: fieldsOf(inserted),
        conversation: fieldsOf(moved),
        answered,
        pendingBefore,
        whitelistMode: whatsappAccounts.whitelistMode,
        job: sql<{ id: string; data: unknown; key: string | null; running: boolean } | null>`(
          select json_build_object('id', id, 'data', data, 'key', key, 'running', running) from ${sql.identifier('send_job')})`,
      })
      .from(inserted)
      .innerJoin(moved, sql`true`)
      .leftJoin(whatsappAccounts, eq(whatsappAccounts.userId, moved.userId))
      .prepare('whatsapp_insert_message');
  });
  const { id = null, waId, text, ...same } = values;
  const rows = await statement.execute({
    status: null,
    ...same,
    rows: JSON.stringify(
      [{ id, waId, text }, ...following].map((r) => ({ id: r.id, wa_id: r.waId, text: r.text })),
    ),
    unanswered: values.unanswered ?? false,
    media: values.media ? JSON.stringify(values.media) : null,
    mediaFile: values.mediaFile ?? null,
    createdAt: values.createdAt.toISOString(),
    unread: unread ? 1 : 0,
    answerable,
    send: send !== undefined,
    ...(job?.params ?? NO_JOB_COMPLETION),
    ...prefixed('send_', send?.params() ?? NO_JOB_INSERT),
  });
  rows.sort((a, b) => a.message.seq - b.message.seq);
  const [row] = rows;
  job?.done(answerable && !row);
  send?.inserted(row?.job ?? null);
  if (!row) return undefined;
  const { job: _job, ...stored } = row;
  return { ...stored, messages: rows.map((r) => r.message) };
}

/**
 * WhatsApp's ids of the contact's messages that the outgoing message at `seq` of `conversationId`
 * answers (SQL for a JSON array): those after the account's last message before it (none for the
 * second part of a reply).
 */
function answeredSql(conversationId: SQLWrapper, seq: SQLWrapper) {
  const m = whatsappMessages;
  return sql<string[]>`(select coalesce(json_agg(a.wa_id order by a.seq), '[]'::json)
    from ${m} a where a.conversation_id = ${conversationId} and a.sender = 'contact'
      and a.wa_id is not null and a.seq < ${seq}
      and a.seq > coalesce((select max(u.seq) from ${m} u
        where u.conversation_id = ${conversationId} and u.sender = 'user' and u.seq < ${seq}), 0))`;
}

/** A send job: the outgoing message `messageId` of `userId`'s conversation, sent to its contact. */
export type OutgoingJob = { userId: string; conversationId: string; messageId: string };

/** An outgoing message with what its send needs: its conversation and its account's state. */
export async function findOutgoing({ db, id }: { db: Db; id: string }) {
  const [row] = await db
    .select({
      message: whatsappMessages,
      conversation: whatsappConversations,
      accountState: whatsappAccounts.state,
    })
    .from(whatsappMessages)
    .innerJoin(whatsappConversations, eq(whatsappConversations.id, whatsappMessages.conversationId))
    .leftJoin(whatsappAccounts, eq(whatsappAccounts.userId, whatsappConversations.userId))
    .where(eq(whatsappMessages.id, id))
    .limit(1);
  return row;
}

/**
 * The conversation's oldest outgoing message still `pending` (the next to send: a conversation's
 * messages go out in the order they were stored), with its conversation and the contact's
 * messages it answers, and whether another waits after it.
 */
export async function nextPending({ db, conversationId }: { db: Db; conversationId: string }) {
  const m = whatsappMessages;
  const rows = await db
    .select({
      message: m,
      conversation: whatsappConversations,
      answered: answeredSql(m.conversationId, m.seq),
    })
    .from(m)
    .innerJoin(whatsappConversations, eq(whatsappConversations.id, m.conversationId))
    .where(and(eq(m.conversationId, conversationId), eq(m.sender, 'user'), eq(m.status, 'pending')))
    .orderBy(m.seq)
    .limit(2);
  return rows[0] ? { ...rows[0], more: rows.length > 1 } : undefined;
}

/** Each status's place in a message's life: a receipt never takes it back. */
const statusRank = sql`(case ${whatsappMessages.status} when 'sent' then 1 when 'delivered' then 2 when 'read' then 3 else 0 end)`;
const RANK = { pending: 0, failed: 0, sent: 1, delivered: 2, read: 3 } as const;

/**
 * The outgoing messages of `userId`'s conversations that may move on to `status`: only forward,
 * `sent` only a pending one, and `failed` one not yet delivered (see moveStatus).
 */
function movable(status: NonNullable<WhatsAppMessageRow['status']>, userId: string | SQL) {
  const m = whatsappMessages;
  const c = whatsappConversations;
  return and(
    eq(m.sender, 'user'),
    status === 'failed'
      ? inArray(m.status, ['pending', 'sent'])
      : status === 'sent'
        ? // Our own mark after the send: WhatsApp's refusal, heard first (its ack can come back
          // before the send's statement runs, and on another instance), stands.
          eq(m.status, 'pending')
        : and(isNotNull(m.status), sql`${statusRank} < ${RANK[status]}`),
    // Each message's own conversation, looked up by its key: not the account's every conversation
    // read again for each message (a per-row lookup when `userId` comes from a joined row).
    sql`exists (select 1 from ${c} where ${c.id} = ${m.conversationId} and ${c.userId} = ${userId})`,
  );
}

/**
 * Moves outgoing messages on to `status`, only forward (a receipt that arrives before the send is
 * marked leaves it at the receipt's): those of `userId`'s conversations whose WhatsApp id is in
 * `waIds`, or the message `id`. `failed` (with `sendError`) takes one not yet delivered. Answers
 * the messages that moved.
 */
export async function moveStatus({
  db,
  userId,
  waIds,
  id,
  status,
  sendError = null,
}: {
  db: Db;
  userId: string;
  waIds?: string[];
  id?: string;
  status: NonNullable<WhatsAppMessageRow['status']>;
  sendError?: string | null;
}): Promise<{ id: string; conversationId: string }[]> {
  const m = whatsappMessages;
  const which = id !== undefined ? eq(m.id, id) : inArray(m.waId, waIds ?? []);
  return db
    .update(m)
    .set({ status, sendError: status === 'failed' ? sendError : null })
    .where(and(which, movable(status, userId)))
    .returning({ id: m.id, conversationId: m.conversationId });
}

/** Sent marks one statement carries at most (see `markSent`). */
const SENT_MARKS_PER_STATEMENT = 200;

type SentMark = { id: string; userId: string; job: JobCompletion };
type Moved = { id: string; conversationId: string };

/** Each database's grouped sent marks, by the queue of their jobs. */
const sentMarks = new WeakMap<Db, Map<string, (mark: SentMark) => Promise<Moved[]>>>();

/**
 * `moveStatus` to `sent` of the message `id` just handed to WhatsApp, marking its send job done
 * (`job`) in the same statement: the send's last write and the job's end are one round trip. The
 * marks of sends that end while one is being written go together in the next statement (see
 * `grouped`): at a few hundred messages a second, one statement a send was a round trip to the
 * database and a wake-up of it each. Each mark still moves only its own message, and only from
 * `pending`.
 */
export async function markSent({
  db,
  userId,
  id,
  job,
}: {
  db: Db;
  userId: string;
  id: string;
  job: JobCompletion;
}): Promise<Moved[]> {
  // Its job is always of one queue (the send jobs'): a statement of its own per queue.
  const queue = job.params.jobQueue;
  let byQueue = sentMarks.get(db);
  if (!byQueue) sentMarks.set(db, (byQueue = new Map()));
  let mark = byQueue.get(queue);
  if (!mark) {
    mark = grouped(
      (marks: SentMark[]) => markSentTogether(db, queue, marks),
      SENT_MARKS_PER_STATEMENT,
    );
    byQueue.set(queue, mark);
  }
  const moved = await mark({ id, userId, job });
  job.done();
  return moved;
}

/** The statement of `markSent`'s group: each mark's moved messages, in the marks' order. */
async function markSentTogether(db: Db, queue: string, marks: SentMark[]): Promise<Moved[][]> {
  const name = `whatsapp_mark_sent_${queue}`;
  const statement = prepared(db, name, (db) => {
    const m = whatsappMessages;
    // The marks once, as a table both updates read.
    const given = db.$with('marks', {}).as(
      sql`select * from json_to_recordset(${sql.placeholder('marks')}::json)
        as x(n int, id uuid, user_id uuid, job_id uuid, job_owner text, job_output jsonb)`,
    );
    const marked = sql`marks`;
    const jobsDone = db.$with('jobs_done', {}).as(jobsCompletionSql({ queue, from: marked }));
    const moved = db.$with('moved', {}).as(
      sql`update ${m} set ${sql.identifier(m.status.name)} = 'sent', ${sql.identifier(m.sendError.name)} = null
        from ${marked} as d
        where ${byIds(m.id, sql`select id from ${marked}`)} and ${m.id} = d.id and ${movable('sent', sql`d.user_id`)}
        returning d.n, ${m.id} as id, ${m.conversationId} as conversation_id`,
    );
    return db
      .with(given, jobsDone, moved)
      .select({
        n: sql<number>`moved.n`,
        id: sql<string>`moved.id`,
        conversationId: sql<string>`moved.conversation_id`,
      })
      .from(sql`moved`)
      .prepare(name);
  });
  const rows = await statement.execute({
    jobQueue: queue,
    marks: JSON.stringify(
      marks.map(({ id, userId, job }, n) => ({
        n,
        id,
        user_id: userId,
        job_id: job.params.jobId,
        job_owner: job.params.jobOwner,
        job_output: JSON.parse(job.params.jobOutput) as unknown,
      })),
    ),
  });
  const moved = marks.map((): Moved[] => []);
  for (const { n, id, conversationId } of rows) moved[n]!.push({ id, conversationId });
  return moved;
}

/** Keeps why the last try failed on a message still `pending` (its next try may still send it). */
export async function noteSendError({
  db,
  id,
  sendError,
}: {
  db: Db;
  id: string;
  sendError: string;
}) {
  await db
    .update(whatsappMessages)
    .set({ sendError })
    .where(and(eq(whatsappMessages.id, id), eq(whatsappMessages.status, 'pending')));
}

/**
 * A failed outgoing message of `userId`'s conversation `conversationId`, `pending` again with its
 * send job (in the same statement); undefined when there is no such failed message.
 */
export async function retryFailed({
  db,
  userId,
  conversationId,
  id,
  send,
}: {
  db: Db;
  userId: string;
  conversationId: string;
  id: string;
  send: JobSlot<OutgoingJob>;
}): Promise<WhatsAppMessageRow | undefined> {
  const statement = prepared(db, 'whatsapp_retry_failed', (db) => {
    const m = whatsappMessages;
    const c = whatsappConversations;
    const p = (name: 'id' | 'conversationId' | 'userId') => sql.placeholder(name);
    const retried = db.$with('retried', getTableColumns(m)).as(
      sql`update ${m} set ${columnName(m, 'status')} = 'pending', ${columnName(m, 'sendError')} = null
          where ${m.id} = ${p('id')}::uuid and ${m.conversationId} = ${p('conversationId')}::uuid
            and ${m.sender} = 'user' and ${m.status} = 'failed'
            and exists (select 1 from ${c} where ${c.id} = ${p('conversationId')}::uuid and ${c.userId} = ${p('userId')}::uuid)
          returning *`,
    );
    const r = sql.identifier('retried');
    const sendJob = db.$with('send_job', {}).as(
      jobInsertOrWaitSql({
        from: sql`${r}`,
        data: sql`jsonb_build_object('userId', ${p('userId')}::text, 'conversationId', ${r}.${columnName(m, 'conversationId')}::text, 'messageId', ${r}.${columnName(m, 'id')}::text)`,
        // One send at a time per conversation, in order (see whatsapp.outbox.ts).
        key: sql`${r}.${columnName(m, 'conversationId')}::text`,
      }),
    );
    return db
      .with(retried, sendJob)
      .select({
        message: fieldsOf(retried),
        job: sql<{ id: string; data: unknown; key: string | null; running: boolean } | null>`(
          select json_build_object('id', id, 'data', data, 'key', key, 'running', running) from ${sql.identifier('send_job')})`,
      })
      .from(retried)
      .prepare('whatsapp_retry_failed');
  });
  const [row] = await statement.execute({ id, conversationId, userId, ...send.params() });
  send.inserted(row?.job ?? null);
  return row?.message;
}

/**
 * A page of the conversation's messages: the newest `limit` older than `before` (a `seq`; the
 * newest of all without it), oldest first.
 */
export async function listMessages({
  db,
  conversationId,
  before,
  limit,
}: {
  db: Db;
  conversationId: string;
  before?: number;
  limit: number;
}): Promise<WhatsAppMessageRow[]> {
  const m = whatsappMessages;
  const rows = await db
    .select()
    .from(m)
    .where(
      and(
        eq(m.conversationId, conversationId),
        before === undefined ? undefined : lt(m.seq, before),
      ),
    )
    .orderBy(desc(m.seq))
    .limit(limit);
  return rows.reverse();
}

/** Every conversation of the account, oldest first, with all its messages in order: the LGPD export. */
export async function listAccountData({ db, userId }: { db: Db; userId: string }) {
  const conversations = await db
    .select()
    .from(whatsappConversations)
    .where(and(eq(whatsappConversations.userId, userId), ownersOwn(whatsappConversations)))
    .orderBy(asc(whatsappConversations.createdAt), asc(whatsappConversations.id));
  const messages = conversations.length
    ? await db
        .select()
        .from(whatsappMessages)
        .where(
          inArray(
            whatsappMessages.conversationId,
            conversations.map((c) => c.id),
          ),
        )
        .orderBy(asc(whatsappMessages.seq))
    : [];
  return { conversations, messages };
}

/** The WhatsApp ids of the contact's newest messages, to mark them read. */
export async function recentContactIds({
  db,
  conversationId,
  limit,
}: {
  db: Db;
  conversationId: string;
  limit: number;
}) {
  const rows = await db
    .select({ waId: whatsappMessages.waId })
    .from(whatsappMessages)
    .where(
      and(
        eq(whatsappMessages.conversationId, conversationId),
        eq(whatsappMessages.sender, 'contact'),
        isNotNull(whatsappMessages.waId),
      ),
    )
    .orderBy(desc(whatsappMessages.seq))
    .limit(limit);
  return rows.map((r) => r.waId!).reverse();
}

/**
 * Forgets an agent that no longer exists (an admin deleted it) wherever accounts chose it: the
 * conversations it was assigned to and the accounts it was the default of fall back to their
 * defaults. The owners whose data changed.
 */
export async function unassignAgent({
  db,
  agentId,
}: {
  db: Db;
  agentId: string;
}): Promise<string[]> {
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

/**
 * What the account sent as its message `waId`, for a contact's device that asks for it again: its
 * text, or the file message as it was sent (`sentContent`); undefined for a message the account
 * did not send, or a file whose sent form is not kept (never sent again as its caption alone).
 */
export async function findSentMessage({
  db,
  userId,
  waId,
}: {
  db: Db;
  userId: string;
  waId: string;
}): Promise<{ text: string } | { content: string } | undefined> {
  const [row] = await db
    .select({
      text: whatsappMessages.text,
      // Whether it carries a file, not the file's description (a video's still is kilobytes).
      hasMedia: sql<boolean>`${whatsappMessages.media} is not null`,
      sentContent: whatsappMessages.sentContent,
    })
    .from(whatsappMessages)
    .innerJoin(whatsappConversations, eq(whatsappConversations.id, whatsappMessages.conversationId))
    .where(
      and(
        eq(whatsappConversations.userId, userId),
        eq(whatsappMessages.waId, waId),
        eq(whatsappMessages.sender, 'user'),
      ),
    )
    .limit(1);
  if (!row) return undefined;
  if (row.sentContent !== null) return { content: row.sentContent };
  // A file's message is not its caption alone: never sent again as a text.
  return row.hasMedia ? undefined : { text: row.text };
}

/**
 * Keeps with the account's message `waId` the file message it sent (see `sentContent`), for a
 * retry receipt: on whichever instance it comes.
 */
export async function keepSentContent({
  db,
  userId,
  waId,
  content,
}: {
  db: Db;
  userId: string;
  waId: string;
  content: string;
}): Promise<void> {
  await db
    .update(whatsappMessages)
    .set({ sentContent: content })
    .where(
      and(
        eq(whatsappMessages.waId, waId),
        eq(whatsappMessages.sender, 'user'),
        inArray(
          whatsappMessages.conversationId,
          db
            .select({ id: whatsappConversations.id })
            .from(whatsappConversations)
            .where(eq(whatsappConversations.userId, userId)),
        ),
      ),
    );
}

/** The rows of a raw statement, as either driver answers them. */
function rowsOf(result: unknown): Record<string, unknown>[] {
  const rows = (result as { rows?: unknown }).rows ?? result;
  return Array.isArray(rows) ? (rows as Record<string, unknown>[]) : [];
}

/** What an edit, a deletion for everyone or a reaction does to a stored message. */
export type MessageChange =
  | { kind: 'edit'; text: string; at: Date }
  | { kind: 'delete'; at: Date }
  | { kind: 'react'; sender: 'contact' | 'user'; emoji: string };

/**
 * Applies `change` to the message with WhatsApp id `waId` written by `sender`, in the account's
 * conversation with the contact known by either of `jids`, in one statement (so two instances
 * never lose one another's reaction): the message as it is now and its conversation's id, or
 * undefined when there is no such message. A deleted message's text is emptied (not just
 * hidden), and a deleted one is not edited again; a reaction replaces the same party's last
 * (an empty emoji removes it).
 */
export async function changeMessage({
  db,
  userId,
  jids,
  waId,
  sender,
  change,
}: {
  db: Db;
  userId: string;
  jids: string[];
  waId: string;
  sender: 'contact' | 'user';
  change: MessageChange;
}): Promise<WhatsAppMessageRow | undefined> {
  const m = whatsappMessages;
  const c = whatsappConversations;
  const set =
    change.kind === 'edit'
      ? { text: change.text, editedAt: change.at }
      : change.kind === 'delete'
        ? { text: '', deletedAt: change.at }
        : {
            reactions: sql`(select coalesce(jsonb_agg(r), '[]'::jsonb) from jsonb_array_elements(${m.reactions}) r where r->>'sender' <> ${change.sender})
              || ${change.emoji ? sql`jsonb_build_array(jsonb_build_object('sender', ${change.sender}::text, 'emoji', ${change.emoji}::text))` : sql`'[]'::jsonb`}`,
          };
  const [row] = await db
    .update(m)
    .set(set)
    .where(
      and(
        eq(m.waId, waId),
        eq(m.sender, sender),
        change.kind === 'edit' ? isNull(m.deletedAt) : undefined,
        inArray(
          m.conversationId,
          db
            .select({ id: c.id })
            .from(c)
            .where(
              and(
                eq(c.userId, userId),
                or(inArray(c.contactJid, jids), inArray(c.contactAltJid, jids)),
              ),
            ),
        ),
      ),
    )
    .returning();
  return row;
}

/** A message of the account's found by its WhatsApp id (the sandbox's edit, revoke and react check it exists). */
export async function findMessageByWaId({
  db,
  userId,
  jids,
  waId,
}: {
  db: Db;
  userId: string;
  jids: string[];
  waId: string;
}): Promise<WhatsAppMessageRow | undefined> {
  const c = whatsappConversations;
  const [row] = await db
    .select(getTableColumns(whatsappMessages))
    .from(whatsappMessages)
    .innerJoin(c, eq(c.id, whatsappMessages.conversationId))
    .where(
      and(
        eq(c.userId, userId),
        or(inArray(c.contactJid, jids), inArray(c.contactAltJid, jids)),
        eq(whatsappMessages.waId, waId),
      ),
    )
    .limit(1);
  return row;
}

/**
 * The contact's other address as the account knows it (a LID's phone JID, or a phone JID's LID),
 * undefined when WhatsApp has not told it.
 */
export async function findMappedJid({
  db,
  userId,
  jid,
}: {
  db: Db;
  userId: string;
  jid: string;
}): Promise<string | undefined> {
  const l = whatsappLidMappings;
  const [row] = await db
    .select({ lid: l.lid, pn: l.pn })
    .from(l)
    .where(and(eq(l.userId, userId), or(eq(l.lid, jid), eq(l.pn, jid))))
    .limit(1);
  if (!row) return undefined;
  return row.lid === jid ? row.pn : row.lid;
}

/**
 * The account's conversations, AI on, that end with their contact's message to be answered (not
 * left unanswered for waiting too long, nor held while the owner had taken it over), written
 * `since` or later, among `among` when given: those whose reply job may be gone (a process that
 * stopped in the middle of a catch-up, a conversation merged away).
 */
export async function findAwaitingReply({
  db,
  userId,
  since,
  among,
}: {
  db: Db;
  userId: string;
  since?: Date;
  among?: string[];
}): Promise<string[]> {
  if (among?.length === 0) return [];
  const c = whatsappConversations;
  const m = whatsappMessages;
  const from = since?.toISOString();
  const result = await db.execute(
    sql`select ${c.id} as id from ${c}
        cross join lateral (
          select ${m.sender} as sender, ${m.unanswered} as unanswered, ${m.held} as held,
            ${m.createdAt} as created_at
          from ${m} where ${m.conversationId} = ${c.id} order by ${m.seq} desc limit 1) last
        where ${c.userId} = ${userId}::uuid and ${c.aiEnabled}
          and last.sender = 'contact' and not last.unanswered and not last.held
          ${from ? sql`and ${c.updatedAt} >= ${from}::timestamptz and last.created_at >= ${from}::timestamptz` : sql``}
          ${among ? sql`and ${c.id} = any(${`{${among.join(',')}}`}::uuid[])` : sql``}`,
  );
  return rowsOf(result).map((row) => String(row.id));
}

/** Two conversations found to be one contact: `from` was merged into `into`, and deleted. */
export type ConversationMerge = { from: string; into: string };

/**
 * WhatsApp says that `lid` and `pn` are one contact of the account: the mapping is kept, the
 * contact's conversation knows both addresses (and its number), and two or more conversations of
 * it become one, in one transaction: the oldest stays, with its settings, and receives the
 * others' messages, in the order they were written (the two conversations' messages interleaved
 * by time, each one's own order kept; those moved or after them take new `seq`s so that paging
 * reads them in that order) and their unread and dropped counts; the others are deleted. The
 * conversations are locked first, so that a second merge of the same contact (another instance,
 * the same mapping again) waits and then finds one conversation: nothing to do.
 */
export async function learnLidMapping({
  db,
  userId,
  lid,
  pn,
  number,
  now,
}: {
  db: Db;
  userId: string;
  lid: string;
  pn: string;
  /** The phone number's digits. */
  number: string;
  now: Date;
}): Promise<{
  conversation?: WhatsAppConversationRow;
  /** Whether the conversation learned something (an address, its number, its name, others' messages). */
  changed: boolean;
  merges: ConversationMerge[];
  /**
   * Whether a conversation merged away, its AI on, ended with its contact's message still to be
   * answered: its reply job finds no conversation, so the one it became must answer it.
   */
  awaitingReply: boolean;
}> {
  return db.transaction(async (tx) => {
    const l = whatsappLidMappings;
    await tx
      .insert(l)
      .values({ userId, lid, pn, updatedAt: now })
      .onConflictDoUpdate({
        target: [l.userId, l.lid],
        set: { pn, updatedAt: now },
        setWhere: sql`${l.pn} <> ${pn}`,
      });
    const c = whatsappConversations;
    const jids = [lid, pn];
    const found = await tx
      .select()
      .from(c)
      .where(
        and(eq(c.userId, userId), or(inArray(c.contactJid, jids), inArray(c.contactAltJid, jids))),
      )
      .orderBy(asc(c.createdAt), asc(c.id))
      .for('update');
    const [into, ...others] = found;
    if (!into) return { changed: false, merges: [], awaitingReply: false };
    const set: Partial<WhatsAppConversationRow> = {};
    const other = into.contactJid === lid ? pn : into.contactJid === pn ? lid : undefined;
    if (other && into.contactAltJid !== other) set.contactAltJid = other;
    if (!into.contactNumber && number) set.contactNumber = number;
    if (!into.contactName) {
      const named = others.find((o) => o.contactName);
      if (named) set.contactName = named.contactName;
    }
    const awaiting = await findAwaitingReply({
      db: tx as unknown as Db,
      userId,
      among: others.map((o) => o.id),
    });
    if (others.length > 0) {
      await moveMessages(
        tx as unknown as Db,
        into.id,
        others.map((o) => o.id),
      );
      set.unreadCount = others.reduce((sum, o) => sum + o.unreadCount, into.unreadCount);
      set.droppedCount = others.reduce((sum, o) => sum + o.droppedCount, into.droppedCount);
      const latest = Math.max(...found.map((o) => o.updatedAt.getTime()));
      set.updatedAt = new Date(latest);
      await tx.delete(c).where(
        inArray(
          c.id,
          others.map((o) => o.id),
        ),
      );
    }
    const conversation =
      Object.keys(set).length === 0
        ? into
        : (await tx.update(c).set(set).where(eq(c.id, into.id)).returning())[0]!;
    return {
      conversation,
      changed: conversation !== into,
      merges: others.map((o) => ({ from: o.id, into: into.id })),
      awaitingReply: awaiting.length > 0,
    };
  });
}

/**
 * The messages of the conversations `from` moved into `into`, in order: each conversation's
 * messages read in their own order (`seq`), the lists interleaved by when each was written; from
 * the first one out of place on, they take new `seq`s (drawn from the column's sequence, so they
 * never clash with messages stored meanwhile). A message already in `into` (the same WhatsApp id)
 * is not moved twice.
 */
async function moveMessages(db: Db, into: string, from: string[]) {
  const m = whatsappMessages;
  const rows = await db
    .select({
      id: m.id,
      seq: m.seq,
      conversationId: m.conversationId,
      waId: m.waId,
      createdAt: m.createdAt,
    })
    .from(m)
    .where(inArray(m.conversationId, [into, ...from]))
    .orderBy(asc(m.seq));
  const kept = new Set(rows.filter((r) => r.conversationId === into && r.waId).map((r) => r.waId));
  const twice = rows.filter((r) => r.conversationId !== into && r.waId && kept.has(r.waId));
  if (twice.length > 0)
    await db.delete(m).where(
      inArray(
        m.id,
        twice.map((r) => r.id),
      ),
    );
  const lists = [into, ...from].map((id) =>
    rows.filter((r) => r.conversationId === id && !twice.includes(r)),
  );
  const merged: typeof rows = [];
  const heads = lists.map(() => 0);
  for (;;) {
    let pick = -1;
    for (const [i, list] of lists.entries()) {
      const head = list[heads[i]!];
      if (!head) continue;
      const best = pick < 0 ? undefined : lists[pick]![heads[pick]!]!;
      if (!best || head.createdAt.getTime() < best.createdAt.getTime()) pick = i;
    }
    if (pick < 0) break;
    merged.push(lists[pick]![heads[pick]!]!);
    heads[pick]! += 1;
  }
  // The leading messages already in order keep their seq.
  let start = 0;
  while (
    start < merged.length &&
    merged[start]!.conversationId === into &&
    (start === 0 || merged[start]!.seq > merged[start - 1]!.seq)
  )
    start += 1;
  const moving = merged.slice(start);
  if (moving.length === 0) return;
  const drawn = await db.execute(
    sql`select nextval(pg_get_serial_sequence('whatsapp_messages', 'seq'))::text as seq
        from generate_series(1, ${moving.length}::int)`,
  );
  const seqs = rowsOf(drawn)
    .map((r) => BigInt(String(r.seq)))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
    .map(String);
  await db.execute(
    sql`update ${m} set ${sql.identifier(m.seq.name)} = v.seq, ${sql.identifier(m.conversationId.name)} = ${into}::uuid
        from unnest(${`{${moving.map((r) => r.id).join(',')}}`}::uuid[], ${`{${seqs.join(',')}}`}::bigint[]) as v(id, seq)
        where ${m.id} = v.id`,
  );
}
