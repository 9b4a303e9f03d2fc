import { randomUUID } from 'node:crypto';
import {
  DEFAULT_HISTORY_BUDGET_CHARS,
  replyToEnd,
  trimHistory,
  type EngineTurn,
} from '@/features/ai/ai.service';
import type { ChatContext } from './chat.deps';
import { conversationBusy, conversationNotFound, providerFailed } from './chat.errors';
import { agentReply, type ReplyRequest } from './chat.reply';

/** How long an admin's test conversation is kept after its last message. */
export const TEST_CONVERSATION_TTL_MS = 60 * 60_000;

/** A test conversation as kept in the shared state: whose it is, with which agent, and its turns. */
type TestConversation = { userId: string; agentId: string; history: EngineTurn[] };

/**
 * The admin panel's test chat: the agent's reply through the real engine, for an agent active or
 * not (404 for none or a deleted one), kept apart from users' conversations and every count of
 * them. Nothing is stored with them: a test conversation's turns are kept in the shared state
 * (any instance continues it) for TEST_CONVERSATION_TTL_MS after its last message. A
 * conversation id that is not the caller's test conversation with this agent (unknown, expired,
 * another admin's, a user conversation's) is 404.
 */
/** A message to an agent in a test conversation (the admin's test chat): a new one without an id. */
export type TestChatInput = Omit<ReplyRequest, 'signal'> & { conversationId?: string };

export async function testReply(
  deps: Pick<ChatContext, 'engine' | 'logger' | 'facts' | 'agents' | 'state' | 'throttle'>,
  { user, agentName, conversationId, message, language, timeZone }: TestChatInput,
): Promise<{ message: string; conversationId: string }> {
  const { agents, state, throttle } = deps;
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
      agentReply(deps, { user, agent, history: async () => history, message, language, timeZone }),
    );
    // A test chat has no signal: its reply is never stopped.
    if (end.ending !== 'answered')
      throw providerFailed({ cause: end.ending === 'failed' ? end.failure : undefined });
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
