import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import QRCode from 'qrcode';
import {
  DEFAULT_TIME_ZONES,
  DERIVED_TITLE_LENGTH,
  type ChatMessage,
  type ConversationSummary,
  type Language,
  type User,
} from '@contrateia/shared';
import type { Db } from '@/db/client';
import type { Clock } from '@/lib/clock';
import { hashToken } from '@/lib/secrets';
import { takeOrRetryLater, type SharedState } from '@/lib/shared-state';
import type { AgentRow, AgentsService } from '@/features/agents/agents.service';
import {
  DEFAULT_HISTORY_BUDGET_CHARS,
  replyToEnd,
  runAgentReply,
  trimHistory,
  type AgentEngine,
  type EngineTurn,
  type HistoryLoader,
  type LiveFacts,
} from '@/features/ai/ai.service';
import { conversationBusy, conversationNotFound, providerFailed } from './chat.errors';
import * as repo from './chat.repository';
import type { MessageRow } from './chat.table';

export type ChatService = ReturnType<typeof createChatService>;

const PAIRING_TTL_MS = 10 * 60_000;
/** How long a request right after Stop may wait for the stopped reply to be stored. */
const STOP_SETTLE_MS = 5_000;
/** Where every instance hears that a stopped reply is stored: the message is its conversation's id. */
const STOPPED_REPLY_STORED = 'chat-stopped-reply-stored';
/** The shared map of a user's stopped replies still being stored: conversation id → '1'. */
const stoppingOf = (userId: string) => `chat-stopping-replies:${userId}`;
const DEFAULT_CHAT_LIMIT = { points: 30, durationSeconds: 60 };
/** How long an admin's test conversation is kept after its last message. */
export const TEST_CONVERSATION_TTL_MS = 60 * 60_000;

/** A test conversation as kept in the shared state: whose it is, with which agent, and its turns. */
type TestConversation = { userId: string; agentId: string; history: EngineTurn[] };

/**
 * A reply being produced: text deltas as they come, then (as the return value) the stored message.
 * `conversationId` is known before the first delta (a new conversation's id is chosen up front).
 */
export type ReplyStream = ReplyGenerator & { conversationId: string };
/** A reply once complete and stored: the message and its conversation. */
export type Drained = { message: ChatMessage; conversationId: string };
type ReplyGenerator = AsyncGenerator<string, Drained>;

/**
 * Conversations with agents. A reply is produced by the agent engine; the user's message and the
 * finished reply are stored together, so a failed reply leaves nothing half-written.
 */
export function createChatService({
  db,
  clock,
  engine,
  agents,
  facts,
  logger,
  state,
  publicUrl,
  limit = DEFAULT_CHAT_LIMIT,
}: {
  db: Db;
  clock: Clock;
  engine: AgentEngine;
  agents: AgentsService;
  /** Live figures, for the agents whose data gives them that skill (administrador), asked by admins. */
  /** The live figures, with "today" and "this week" counted in `timeZone`. */
  facts: (timeZone: string) => Promise<LiveFacts>;
  logger: FastifyBaseLogger;
  /** Where the per-user limit is counted and the one-reply slot is held, shared by every instance. */
  state: SharedState;
  /** The origin pairing links start with (PUBLIC_URL), whatever Host a request names. */
  publicUrl: string;
  limit?: { points: number; durationSeconds: number };
}) {
  const limiter = state.counter({
    name: 'chat',
    points: limit.points,
    durationSeconds: limit.durationSeconds,
  });

  const throttle = (userId: string) => takeOrRetryLater(limiter, userId, 'errors.tooManyRequests');

  // Whoever waits for a stopped reply hears it stored here, whichever instance stored it.
  const storedListeners = new Set<(conversationId: string) => void>();
  state.subscribe(STOPPED_REPLY_STORED, (conversationId) => {
    for (const listener of storedListeners) listener(conversationId);
  });

  /**
   * The caller's conversation (with this agent, if given) and its agent: 404 for another user's or
   * another agent's alike; 403, as for an agent not hired, when its agent is not the caller's to
   * see in their mode (an admin in user mode and administrador).
   */
  async function ownConversation({
    user,
    agentId,
    id,
  }: {
    user: User;
    agentId?: string;
    id: string;
  }) {
    const conversation = await repo.findConversation({ db, id });
    if (
      !conversation ||
      conversation.userId !== user.id ||
      (agentId && conversation.agentId !== agentId)
    ) {
      throw conversationNotFound();
    }
    const agent = await agents.assertVisible({ user, agentId: conversation.agentId });
    return { conversation, agent };
  }

  /**
   * Waits, STOP_SETTLE_MS at most, until the replies the user has stopped are stored. A stopped
   * reply is written from the moment its instance notices the Stop (the engine has to end and the
   * exchange to be written); the user's next request, a send or a list read, may reach any
   * instance meanwhile, and then waits for it here instead of finding the conversation busy, not
   * there yet, or with the old count. Any other reply in progress still gets the 409.
   */
  async function stoppedRepliesStored(userId: string): Promise<void> {
    const heard = new Set<string>();
    let wake = () => {};
    // Listening before looking: a reply stored between the two is heard, not missed.
    const listener = (conversationId: string) => {
      heard.add(conversationId);
      wake();
    };
    storedListeners.add(listener);
    try {
      const stopping = [...(await state.entries(stoppingOf(userId))).keys()];
      const pending = () => stopping.some((id) => !heard.has(id));
      if (!pending()) return;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, STOP_SETTLE_MS);
        wake = () => {
          if (pending()) return;
          clearTimeout(timer);
          resolve();
        };
      });
    } finally {
      storedListeners.delete(listener);
    }
  }

  /**
   * Checks everything (agent access, conversation, limits, one reply at a time) before any reply
   * starts, so every refusal is an ordinary JSON error; then returns the reply as a stream.
   */
  async function startReply({
    user,
    agentName,
    conversationId,
    message,
    language,
    signal,
    timeZone,
  }: {
    user: User;
    agentName: string;
    conversationId?: string;
    message: string;
    language: Language;
    /**
     * Aborted when the user stops the reply (their client goes away): the engine stops, and what
     * had arrived is stored as the reply, marked stopped.
     */
    signal?: AbortSignal;
    /** The caller's IANA zone; the language's default when absent. */
    timeZone?: string;
  }): Promise<ReplyStream> {
    const agent = await agents.assertAccess({ user, agentName });
    await stoppedRepliesStored(user.id);
    const existing = conversationId
      ? (await ownConversation({ user, agentId: agent.id, id: conversationId })).conversation
      : undefined;
    return begin({ user, agent, existingId: existing?.id, message, language, signal, timeZone });
  }

  /**
   * A stopped reply is stored (or failed to be): whoever waits for it goes on, on every instance.
   * Not hearing of it only makes them wait STOP_SETTLE_MS, so a failure here is no failure of the
   * reply, which is stored.
   */
  async function announceStored(userId: string, conversationId: string) {
    try {
      await state.deleteEntry(stoppingOf(userId), conversationId);
      await state.publish(STOPPED_REPLY_STORED, conversationId);
    } catch (error) {
      logger.warn({ err: error, conversationId }, 'a stopped reply was stored unannounced');
    }
  }

  /** The agent's reply to `message` as both chats ask for it: with the caller's context. */
  function agentReply({
    user,
    agent,
    history,
    message,
    language,
    timeZone,
    signal,
  }: {
    user: User;
    agent: AgentRow;
    history?: HistoryLoader;
    message: string;
    language: Language;
    timeZone?: string;
    signal?: AbortSignal;
  }) {
    return runAgentReply({
      engine,
      logger,
      agent: { name: agent.name, configuration: agent.configuration },
      question: message,
      history,
      language,
      timeZone,
      facts:
        agent.configuration.capabilities.skills.includes('liveFacts') && user.role === 'admin'
          ? () => facts(timeZone ?? DEFAULT_TIME_ZONES[language])
          : undefined,
      signal,
    });
  }

  /** The part of a reply after the agent and the conversation (`existingId`, if any) are checked. */
  async function begin({
    user,
    agent,
    existingId,
    message,
    language,
    signal,
    timeZone,
  }: {
    user: User;
    agent: AgentRow;
    existingId: string | undefined;
    message: string;
    language: Language;
    signal?: AbortSignal;
    timeZone?: string;
  }): Promise<ReplyStream> {
    const id = existingId ?? randomUUID();
    // One reply at a time per conversation, whichever instance each send reaches.
    const taken = await state.tryLock(`chat-reply:${id}`);
    if (!taken) throw conversationBusy();
    const slot = taken;
    try {
      await throttle(user.id);
    } catch (error) {
      await slot.release();
      throw error;
    }
    const userAt = clock.now();
    // Nothing to read for a new conversation; the engine reads the rest only if it reads history.
    const history: HistoryLoader | undefined = existingId
      ? async (budgetChars) =>
          (await repo.listRecentMessages({ db, conversationId: id, limit: 200, budgetChars })).map(
            (m) => ({ role: m.sender === 'user' ? 'user' : 'assistant', text: m.text }),
          )
      : undefined;

    // From the moment the user stops the reply until it is stored, the user's next request (on
    // any instance) waits for it: see stoppedRepliesStored.
    let marked: Promise<void> | undefined;
    const markStopping = () => {
      marked = state
        .setEntry(stoppingOf(user.id), id, '1', STOP_SETTLE_MS)
        .catch((error: unknown) => logger.warn({ err: error }, 'a stopped reply was not marked'));
    };
    if (signal?.aborted) markStopping();
    else signal?.addEventListener('abort', markStopping, { once: true });

    async function* produce(): ReplyGenerator {
      try {
        const end = yield* agentReply({
          user,
          agent,
          history,
          message,
          language,
          timeZone,
          signal,
        });
        if (end.ending === 'failed') throw providerFailed({ cause: end.failure });
        const stopped = end.ending === 'stopped';
        const row = await repo.insertExchange({
          db,
          conversation: { id, userId: user.id, agentId: agent.id },
          userText: message,
          botText: end.text,
          userAt,
          botAt: later(clock.now(), userAt),
          stopped,
        });
        if (stopped)
          logger.info(
            { agent: agent.name, conversationId: id, chars: end.text.length },
            'reply stopped by the user',
          );
        return { message: toMessage(row), conversationId: id };
      } finally {
        signal?.removeEventListener('abort', markStopping);
        await slot.release();
        if (marked) {
          await marked;
          await announceStored(user.id, id);
        }
      }
    }
    return Object.assign(produce(), { conversationId: id });
  }

  /**
   * POST /api/chat: the dashboard's short form, continuing the latest conversation with the agent;
   * otherwise as startReply (streamed, and stopped by `signal`).
   */
  async function startShortReply({
    user,
    agentName,
    message,
    language,
    signal,
    timeZone,
  }: Omit<Parameters<typeof startReply>[0], 'conversationId'>): Promise<ReplyStream> {
    const agent = await agents.assertAccess({ user, agentName });
    // The caller's own conversation with this agent by construction: no second check needed.
    // After the user's stopped replies are stored: one may be the latest conversation, or start it.
    await stoppedRepliesStored(user.id);
    const latest = await repo.findLatestConversation({ db, userId: user.id, agentId: agent.id });
    return begin({ user, agent, existingId: latest?.id, message, language, signal, timeZone });
  }

  async function listConversations({
    user,
    agentName,
    search,
  }: {
    user: User;
    agentName?: string;
    search?: string;
  }): Promise<ConversationSummary[]> {
    // A list read right after Stop (the page refreshes its lists) has the stopped reply in it.
    await stoppedRepliesStored(user.id);
    // Agents come from their own service (its catalogue is cached): no join on their table.
    const agent =
      agentName === undefined ? undefined : await agents.findByName({ name: agentName });
    if (agentName !== undefined && !agent) return [];
    const rows = await repo.listConversations({
      db,
      userId: user.id,
      agentId: agent?.id,
      search: search || undefined,
    });
    const summaries: ConversationSummary[] = [];
    for (const row of rows) {
      const owner = await agents.findById({ id: row.agentId });
      // Conversations with an agent the caller may not see in their mode (an admin in user mode
      // and administrador) are left out, as the agent is.
      if (owner && agents.isVisibleTo({ user, agent: owner })) {
        summaries.push({
          id: row.id,
          agentName: owner.name,
          title: titleOf(row.title, row.firstMessage),
          messageCount: row.messageCount,
          createdAt: row.createdAt.toISOString(),
          updatedAt: row.updatedAt.toISOString(),
        });
      }
    }
    return summaries;
  }

  async function getConversation({ user, id }: { user: User; id: string }) {
    const { conversation, agent } = await ownConversation({ user, id });
    const rows = await repo.listMessages({ db, conversationId: id });
    return {
      id,
      agentName: agent?.name ?? '',
      title: titleOf(conversation.title, rows.find((m) => m.sender === 'user')?.text ?? null),
      createdAt: conversation.createdAt.toISOString(),
      messages: rows.map(toMessage),
    };
  }

  /**
   * Gives one of the user's conversations a title (already validated); 404 for anyone else's, 403
   * for one with an agent the user may not see in their mode (as reading it).
   */
  async function renameConversation({
    user,
    id,
    title,
  }: {
    user: User;
    id: string;
    title: string;
  }): Promise<ConversationSummary> {
    await ownConversation({ user, id });
    const row = await repo.updateConversationTitle({ db, id, userId: user.id, title });
    if (!row) throw conversationNotFound();
    const [summary] = (
      await repo.listConversations({ db, userId: user.id, agentId: row.agentId })
    ).filter((c) => c.id === id);
    const agent = await agents.findById({ id: row.agentId });
    return {
      id,
      agentName: agent?.name ?? '',
      title,
      messageCount: summary?.messageCount ?? 0,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    };
  }

  /**
   * Deletes one of the user's conversations with its messages; 404 for anyone else's, 403 as for
   * reading it (an agent the user may not see in their mode), 409 while a reply is being produced
   * in it (the reply would otherwise store itself into a new copy).
   */
  async function deleteConversation({ user, id }: { user: User; id: string }): Promise<void> {
    await ownConversation({ user, id });
    const slot = await state.tryLock(`chat-reply:${id}`);
    if (!slot) throw conversationBusy();
    try {
      if (!(await repo.deleteConversation({ db, id, userId: user.id })))
        throw conversationNotFound();
    } finally {
      await slot.release();
    }
  }

  /**
   * The admin panel's test chat: the agent's reply through the real engine, for an agent active or
   * not (404 for none or a deleted one), kept apart from users' conversations and every count of
   * them. Nothing is stored with them: a test conversation's turns are kept in the shared state
   * (any instance continues it) for TEST_CONVERSATION_TTL_MS after its last message. A
   * conversation id that is not the caller's test conversation with this agent (unknown, expired,
   * another admin's, a user conversation's) is 404.
   */
  async function testReply({
    user,
    agentName,
    conversationId,
    message,
    language,
    timeZone,
  }: {
    user: User;
    agentName: string;
    conversationId?: string;
    message: string;
    language: Language;
    timeZone?: string;
  }): Promise<{ message: string; conversationId: string }> {
    const agent = await agents.findForTest({ name: agentName });
    const id = conversationId ?? randomUUID();
    const slot = await state.tryLock(`chat-test-reply:${id}`);
    if (!slot) throw conversationBusy();
    try {
      let history: EngineTurn[] = [];
      if (conversationId) {
        const stored = parseTestConversation(await state.getValue(`chat-test:${id}`));
        if (!stored || stored.userId !== user.id || stored.agentId !== agent.id)
          throw conversationNotFound();
        history = stored.history;
      }
      await throttle(user.id);
      const end = await replyToEnd(
        agentReply({ user, agent, history: async () => history, message, language, timeZone }),
      );
      // A test chat has no signal: its reply is never stopped.
      if (end.ending !== 'answered')
        throw providerFailed({
          cause: end.ending === 'failed' ? end.failure : undefined,
        });
      const { text } = end;
      const turns = trimHistory(
        [...history, { role: 'user', text: message }, { role: 'assistant', text }],
        DEFAULT_HISTORY_BUDGET_CHARS,
      );
      const kept: TestConversation = { userId: user.id, agentId: agent.id, history: turns };
      await state.setValue(`chat-test:${id}`, JSON.stringify(kept), TEST_CONVERSATION_TTL_MS);
      return { message: text, conversationId: id };
    } finally {
      await slot.release();
    }
  }

  /** How many conversations users have had with each agent (test chats are not among them). */
  const countConversationsByAgent = () => repo.countConversationsByAgent({ db });

  async function stats({ user }: { user: User }) {
    const [hiredAgents, activity] = await Promise.all([
      agents.countHired({ user }),
      repo.countUserActivity({ db, userId: user.id }),
    ]);
    return { hiredAgents, ...activity };
  }

  /**
   * A one-time link pairing a conversation with a WhatsApp chat, as a QR code; valid 10 minutes,
   * and a new code for the conversation revokes the previous one. The code is drawn before
   * anything is stored, so one that cannot be made leaves the code already shown working.
   */
  async function createPairing({
    user,
    agentName,
    conversationId,
  }: {
    user: User;
    agentName: string;
    conversationId: string;
  }) {
    const agent = await agents.assertAccess({ user, agentName });
    await ownConversation({ user, agentId: agent.id, id: conversationId });
    const token = randomBytes(24).toString('base64url');
    const now = clock.now();
    const expiresAt = new Date(now.getTime() + PAIRING_TTL_MS);
    const link = `${publicUrl}/pair/${token}`;
    const qrCode = await QRCode.toDataURL(link, {
      errorCorrectionLevel: 'M',
      margin: 2,
      width: 320,
    });
    await repo.replacePairing({
      db,
      userId: user.id,
      conversationId,
      tokenHash: hashToken(token),
      now,
      expiresAt,
    });
    return { qrCode, expiresAt: expiresAt.toISOString(), link };
  }

  /** Uses a pairing link's token once (WhatsApp issue); its conversation, or undefined. */
  async function consumePairing({ token }: { token: string }) {
    return repo.consumePairing({ db, tokenHash: hashToken(token), now: clock.now() });
  }

  return {
    startReply,
    startShortReply,
    listConversations,
    getConversation,
    renameConversation,
    deleteConversation,
    stats,
    createPairing,
    consumePairing,
    countActivitySince: (since: Date) => repo.countActivitySince({ db, since }),
    testReply,
    countConversationsByAgent,
  };
}

/** A test conversation read back from the shared state; undefined for none or anything unreadable. */
function parseTestConversation(value: string | undefined): TestConversation | undefined {
  if (value === undefined) return undefined;
  try {
    const parsed = JSON.parse(value) as Partial<TestConversation>;
    if (
      typeof parsed.userId !== 'string' ||
      typeof parsed.agentId !== 'string' ||
      !Array.isArray(parsed.history)
    )
      return undefined;
    return { userId: parsed.userId, agentId: parsed.agentId, history: parsed.history };
  } catch {
    return undefined;
  }
}

/** Runs a reply stream to its end, ignoring the deltas: the stored message. */
export async function drain(stream: ReplyStream): Promise<Drained> {
  for (;;) {
    const step = await stream.next();
    if (step.done) return step.value;
  }
}

function toMessage(row: MessageRow): ChatMessage {
  return {
    id: row.id,
    text: row.text,
    sender: row.sender,
    timestamp: row.createdAt.toISOString(),
    ...(row.stopped ? { stopped: true } : {}),
  };
}

/**
 * The title a conversation shows: its stored one, else its first message on one line, cut at a
 * word near DERIVED_TITLE_LENGTH characters ('' before any message).
 */
export function titleOf(stored: string | null, firstMessage: string | null): string {
  if (stored) return stored;
  const line = (firstMessage ?? '').replace(/\s+/g, ' ').trim();
  if (line.length <= DERIVED_TITLE_LENGTH) return line;
  const cut = line.slice(0, DERIVED_TITLE_LENGTH - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > DERIVED_TITLE_LENGTH / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}

/** The reply is stamped after the question even when the clock has not moved (tests, fast engines). */
function later(now: Date, than: Date): Date {
  return now.getTime() > than.getTime() ? now : new Date(than.getTime() + 1);
}
