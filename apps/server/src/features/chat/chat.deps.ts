import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '@/db/client';
import type { Clock } from '@/lib/clock';
import type { SharedState } from '@/lib/shared-state';
import type { AgentsService } from '@/features/agents/agents.service';
import type { AgentEngine, LiveFacts } from '@/features/ai/ai.service';
import type { Language, User } from '@contrateia/shared';
import type { AgentRow } from '@/features/agents/agents.service';
import type { StopWaits } from './chat.stop';

/**
 * Another feature's way of answering an agent's messages instead of its engine, for the agents
 * whose data gives them that skill (indirect's `delivery`, which the WhatsApp feature answers):
 * a reply, and what to do once the exchange is stored; undefined to let the engine answer.
 */
export type ReplySkill = (request: {
  user: User;
  agent: AgentRow;
  conversationId: string;
  /** Nothing is stored of the conversation yet (its first message). */
  isNew: boolean;
  message: string;
  language: Language;
}) => Promise<
  | {
      text: string;
      /** The reply waits for the user's answer (see ChatMessage.awaits). */
      awaits?: 'relayConfirm';
      stored?: () => Promise<void>;
    }
  | undefined
>;

/** What createChatService is given. */
export type ChatDeps = {
  db: Db;
  clock: Clock;
  engine: AgentEngine;
  agents: AgentsService;
  /**
   * The live figures, for the agents whose data gives them that skill (administrador) when an
   * admin asks; "today" and "this week" are counted in `timeZone`.
   */
  facts: (timeZone: string) => Promise<LiveFacts>;
  logger: FastifyBaseLogger;
  /** Where the per-user limit is counted and the one-reply slot is held, shared by every instance. */
  state: SharedState;
  /** The replies a user may ask for (both chats and the test chat together) in a window. */
  limit?: { points: number; durationSeconds: number };
};

/**
 * What the chat use cases take: ChatDeps, and what createChatService builds from them once (the
 * per-user limit, the Stop waits, which listen on the shared state from the start). Each use case
 * takes only its part of it (a `Pick`), so its signature says what it touches.
 */
export type ChatContext = Omit<ChatDeps, 'limit'> & {
  /** Takes one reply from the user's limit, or throws the 429 saying when to try again. */
  throttle: (userId: string) => Promise<void>;
  stops: StopWaits;
  /** The skills other features answer (see ReplySkill), by name. */
  skills: Map<string, ReplySkill>;
};
