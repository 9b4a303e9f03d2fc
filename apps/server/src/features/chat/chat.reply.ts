import { randomUUID } from 'node:crypto';
import { DEFAULT_TIME_ZONES, type ChatMessage, type Language, type User } from '@contrateia/shared';
import { engineAgentOf, type AgentRow } from '@/features/agents/agents.service';
import { runAgentReply, type HistoryLoader } from '@/features/ai/ai.service';
import { ownConversation, replySlotOf, toMessage } from './chat.conversations';
import type { ChatContext } from './chat.deps';
import { conversationBusy, providerFailed } from './chat.errors';
import * as repo from './chat.repository';

/**
 * A reply being produced: text deltas as they come, then (as the return value) the stored message.
 * `conversationId` is known before the first delta (a new conversation's id is chosen up front).
 */
export type ReplyStream = ReplyGenerator & { conversationId: string };
/** A reply once complete and stored: the message and its conversation. */
export type Drained = { message: ChatMessage; conversationId: string };
type ReplyGenerator = AsyncGenerator<string, Drained>;

/** What a user's message to an agent comes with, in both chats. */
export type ReplyRequest = {
  user: User;
  agentName: string;
  message: string;
  language: Language;
  /**
   * Aborted when the user stops the reply (their client goes away): the engine stops, and what
   * had arrived is stored as the reply, marked stopped.
   */
  signal?: AbortSignal;
  /** The caller's IANA zone; the language's default when absent. */
  timeZone?: string;
};

type ReplyDeps = Pick<
  ChatContext,
  | 'db'
  | 'clock'
  | 'engine'
  | 'agents'
  | 'facts'
  | 'logger'
  | 'state'
  | 'throttle'
  | 'stops'
  | 'skills'
>;

/**
 * Checks everything (agent access, conversation, limits, one reply at a time) before any reply
 * starts, so every refusal is an ordinary JSON error; then returns the reply as a stream.
 */
export async function startReply(
  deps: ReplyDeps,
  { conversationId, ...request }: ReplyRequest & { conversationId?: string },
): Promise<ReplyStream> {
  const { user } = request;
  const agent = await deps.agents.assertAccess({ user, agentName: request.agentName });
  await deps.stops.stoppedRepliesStored(user.id);
  const existing = conversationId
    ? (await ownConversation(deps, { user, agentId: agent.id, id: conversationId })).conversation
    : undefined;
  return begin(deps, { ...request, agent, existingId: existing?.id });
}

/**
 * POST /api/chat: the dashboard's short form, continuing the latest conversation with the agent;
 * otherwise as startReply (streamed, and stopped by `signal`).
 */
export async function startShortReply(
  deps: ReplyDeps,
  request: ReplyRequest,
): Promise<ReplyStream> {
  const { db, agents, stops } = deps;
  const { user } = request;
  const agent = await agents.assertAccess({ user, agentName: request.agentName });
  // The caller's own conversation with this agent by construction: no second check needed.
  // After the user's stopped replies are stored: one may be the latest conversation, or start it.
  await stops.stoppedRepliesStored(user.id);
  const latest = await repo.findLatestConversation({ db, userId: user.id, agentId: agent.id });
  return begin(deps, { ...request, agent, existingId: latest?.id });
}

/** The agent's reply to `message`, with the caller's context: both chats' and the test chat's. */
export function agentReply(
  { engine, logger, facts }: Pick<ChatContext, 'engine' | 'logger' | 'facts'>,
  {
    user,
    agent,
    history,
    message,
    language,
    timeZone,
    signal,
  }: Omit<ReplyRequest, 'agentName'> & { agent: AgentRow; history?: HistoryLoader },
) {
  return runAgentReply({
    engine,
    logger,
    agent: engineAgentOf(agent),
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
async function begin(
  deps: ReplyDeps,
  {
    agent,
    existingId,
    ...request
  }: Omit<ReplyRequest, 'agentName'> & { agent: AgentRow; existingId: string | undefined },
): Promise<ReplyStream> {
  const { db, clock, logger, state, throttle, stops } = deps;
  const { user, message, signal } = request;
  const id = existingId ?? randomUUID();
  // One reply at a time per conversation, whichever instance each send reaches.
  const taken = await state.tryLock(replySlotOf(id));
  if (!taken) throw conversationBusy();
  // Narrowed once here: a check's narrowing does not reach into produce(), a hoisted function.
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
  // any instance) waits for it.
  const watched = stops.watchReply({ userId: user.id, conversationId: id, signal });

  // An agent whose skill another feature answers (indirect's relays) is answered by it first.
  const skill = agent.configuration.capabilities.skills
    .map((name) => deps.skills.get(name))
    .find((found) => found !== undefined);

  async function* produce(): ReplyGenerator {
    try {
      const handled = await skill?.({
        user,
        agent,
        conversationId: id,
        isNew: !existingId,
        message,
        language: request.language,
      });
      if (handled) yield handled.text;
      const end = handled
        ? { ending: 'answered' as const, text: handled.text }
        : yield* agentReply(deps, { ...request, agent, history });
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
        awaits: handled?.awaits,
      });
      await handled?.stored?.();
      if (stopped)
        logger.info(
          { agent: agent.name, conversationId: id, chars: end.text.length },
          'reply stopped by the user',
        );
      return { message: toMessage(row), conversationId: id };
    } finally {
      watched.ended();
      await slot.release();
      await watched.stored();
    }
  }
  return Object.assign(produce(), { conversationId: id });
}

/** Runs a reply stream to its end, ignoring the deltas: the stored message. */
export async function drain(stream: ReplyStream): Promise<Drained> {
  for (;;) {
    const step = await stream.next();
    if (step.done) return step.value;
  }
}

/** The reply is stamped after the question even when the clock has not moved (tests, fast engines). */
function later(now: Date, than: Date): Date {
  return now.getTime() > than.getTime() ? now : new Date(than.getTime() + 1);
}
