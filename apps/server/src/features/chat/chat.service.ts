import { takeOrRetryLater } from '@/lib/shared-state';
import {
  deleteConversation,
  getConversation,
  listConversations,
  renameConversation,
} from './chat.conversations';
import type { ChatContext, ChatDeps, ReplySkill } from './chat.deps';
import {
  consumePairing,
  createPairing,
  pairedAgent,
  pairedConversationOf,
  pairedHistory,
  storePairedTurn,
  storeAgentMessage,
} from './chat.pairing';
import { startReply, startShortReply } from './chat.reply';
import { countActivitySince, countConversationsByAgent, stats } from './chat.stats';
import { createStopWaits } from './chat.stop';
import { testReply } from './chat.test-chat';

export { titleOf } from './chat.conversations';
export { pairingTokenIn, type PairingUse } from './chat.pairing';
export type { ChatDeps, ReplySkill } from './chat.deps';
export { drain, type Drained, type ReplyStream } from './chat.reply';
export { TEST_CONVERSATION_TTL_MS, type TestChatInput } from './chat.test-chat';

export type ChatService = ReturnType<typeof createChatService>;

const DEFAULT_CHAT_LIMIT = { points: 30, durationSeconds: 60 };

/**
 * Conversations with agents. A reply is produced by the agent engine; the user's message and the
 * finished reply are stored together, so a failed reply leaves nothing half-written. Each use
 * case is a function of its own file taking its dependencies; this builds what they share (the
 * per-user limit, the Stop waits) and binds them to it once, for the routes and the other
 * features. Functions throw AppErrors (chat.errors.ts).
 */
export function createChatService({ limit = DEFAULT_CHAT_LIMIT, ...deps }: ChatDeps) {
  const limiter = deps.state.counter({
    name: 'chat',
    points: limit.points,
    durationSeconds: limit.durationSeconds,
  });
  const context: ChatContext = {
    ...deps,
    throttle: (userId) => takeOrRetryLater(limiter, userId, 'errors.tooManyRequests'),
    stops: createStopWaits(deps),
    skills: new Map(),
  };
  const bind =
    <Input, Result>(useCase: (deps: ChatContext, input: Input) => Result) =>
    (input: Input): Result =>
      useCase(context, input);
  return {
    startReply: bind(startReply),
    startShortReply: bind(startShortReply),
    listConversations: bind(listConversations),
    getConversation: bind(getConversation),
    renameConversation: bind(renameConversation),
    deleteConversation: bind(deleteConversation),
    stats: bind(stats),
    createPairing: bind(createPairing),
    consumePairing: bind(consumePairing),
    pairedAgent: bind(pairedAgent),
    pairedConversationOf: bind(pairedConversationOf),
    pairedHistory: bind(pairedHistory),
    storePairedTurn: bind(storePairedTurn),
    storeAgentMessage: bind(storeAgentMessage),
    countActivitySince: (since: Date) => countActivitySince(context, { since }),
    testReply: bind(testReply),
    countConversationsByAgent: () => countConversationsByAgent(context),
    /** Lets another feature answer an agent's skill (see ReplySkill): registered when it starts. */
    answerSkill: (name: string, skill: ReplySkill) => void context.skills.set(name, skill),
  };
}
