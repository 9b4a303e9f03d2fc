import {
  MESSAGE_MAX_LENGTH,
  sliceWhole,
  type AgentConfiguration,
  type Language,
} from '@contrateia/shared';
import type { EngineFailureReason } from './ai.errors';

// The ai feature's service as other features see it: the engine's contract, and runAgentReply,
// the one way an agent answers (ai.reply.ts). The providers import the contract from here and are
// wired in one place, ai.providers.ts.

// EngineFailure lives in ai.errors.ts beside throwIfAborted, the helper the providers use; it is
// re-exported here because callers think of it as the engine's.
export { EngineFailure, type EngineFailureReason } from './ai.errors';

/**
 * Which provider answers, and how it is reached: the AI_* variables at first, then what an admin
 * saves in the panel. `openai` needs a base URL.
 */
export type EngineConfig = {
  provider: 'builtin' | 'openai';
  baseUrl?: string;
  apiKey?: string;
  model?: string;
  timeoutMs: number;
  /**
   * The provider's speech-to-text model (POST {baseUrl}/audio/transcriptions); none when absent.
   * Only an OpenAI-compatible provider transcribes: the builtin engine keeps it, unused.
   */
  transcriptionModel?: string;
  /** The chat model sees images (they go to it as image_url parts); only an OpenAI-compatible one. */
  vision?: boolean;
};

/**
 * What a connection test found (the admin panel's Test connection): a one-line completion and how
 * long it took, or why it failed. No text of the provider's own is kept on failure but the
 * status: an address an admin types must not turn the test into a reader of other servers' pages.
 */
export type ProviderCheck =
  | {
      ok: true;
      latencyMs: number;
      reply: string;
      /** The transcription model's own test, when one is set (see checkTranscription). */
      transcription?: ProviderProbe;
    }
  | { ok: false; latencyMs: number; reason: EngineFailureReason; status?: number };

/**
 * What the monitor's check of a provider found: it answered (a list of its models, which costs no
 * completion), or why not. Never the provider's own text.
 */
export type ProviderProbe =
  | { ok: true; latencyMs: number }
  | { ok: false; latencyMs: number; reason: EngineFailureReason; status?: number };

/** How a real reply through the provider ended (a stop by the user is neither). */
export type ReplyOutcome =
  | { provider: 'builtin' | 'openai'; ok: true }
  | { provider: 'builtin' | 'openai'; ok: false; reason: EngineFailureReason };

export type EngineTurn = { role: 'user' | 'assistant'; text: string };

/**
 * Reads a conversation's earlier turns, oldest first: at least the newest whose texts fit in
 * `budgetChars` (more is fine: the engine makes the exact cut). Only an engine that reads history
 * calls it, with its own budget, so a caller never asks how much to read.
 */
export type HistoryLoader = (budgetChars: number) => Promise<EngineTurn[]>;

/** The agent that answers, as an engine reads it. */
export type EngineAgent = {
  name: string;
  configuration: AgentConfiguration;
  /**
   * Names this configuration, when the caller reads a new copy of an unchanged one for each
   * question (an account's own agent, read from the database): what an engine derives from it
   * (its search index) is kept by this name rather than by the object.
   */
  version?: string;
};

export type EngineRequest = {
  agent: EngineAgent;
  /** The conversation's earlier turns, read when the engine wants them; none when absent. */
  history?: HistoryLoader;
  message: string;
  language: Language;
  /** The user's IANA time zone, for dates and times; the language's default when absent. */
  timeZone?: string;
  /**
   * Live figures, provided only when the agent has the liveFacts skill and the caller is an
   * admin; an agent with the skill asked without them says the figures are for admins.
   */
  facts?: () => Promise<LiveFacts>;
  signal?: AbortSignal;
  /**
   * Pictures sent with the message (a WhatsApp contact's photos), for a model that sees: the
   * engine bounds them (MAX_IMAGES_PER_TURN, resized); an engine that cannot see ignores them,
   * and its caller, who asked whether it can, words the message without them.
   */
  images?: EngineImage[];
  /**
   * Told when the engine found nothing in the agent's knowledge that answers: its reply is an
   * honest "I don't know" (a WhatsApp contact is handed over to a person instead).
   */
  onUnknown?: () => void;
};

/** A picture as it was received: its real type (read from its bytes) and the bytes. */
export type EngineImage = { mimetype: string; data: Buffer };

/** The most pictures one turn carries to a model: each costs a good part of its context. */
export const MAX_IMAGES_PER_TURN = 4;

/** How many accounts, conversations and messages were made in a period. */
export type ActivityCounts = { users: number; conversations: number; messages: number };

export type LiveFacts = {
  /** In all, since the start of today, and since the start of this week, in the user's zone. */
  activity: { total: ActivityCounts; today: ActivityCounts; week: ActivityCounts };
  /** The newest accounts, newest first. */
  newestUsers: Array<{ name: string; createdAt: Date }>;
  /** The zone "today" and "this week" were counted in, for telling the dates. */
  timeZone: string;
  database: { kind: 'pglite' | 'postgres'; ok: boolean };
  mail: 'smtp' | 'log';
};

/** A request as an engine works on it: the history read and every part cut to its bounds. */
export type BoundRequest = Omit<EngineRequest, 'history'> & { history: EngineTurn[] };

/**
 * Produces an agent's reply as a stream of text pieces; joined, they are the whole reply.
 * Throws EngineFailure when the provider fails (before or during the stream), so a caller that
 * only stores the reply after the loop ends never stores half of one. Features do not call it
 * themselves: runAgentReply (ai.reply.ts) does, and owns what a reply's end means.
 */
export interface AgentEngine {
  readonly name: 'builtin' | 'openai';
  reply(request: EngineRequest): AsyncIterable<string>;
}

/**
 * A sensible history budget: about 3,000 tokens of earlier turns, which leaves room for the
 * instructions and the reply in the smallest context windows still in use (8k).
 */
export const DEFAULT_HISTORY_BUDGET_CHARS = 12_000;

/**
 * The most of one turn an engine reads: what the web chat lets a user write. A WhatsApp message
 * may be 64 K characters of one word, and a backlog of them joined longer still; every engine
 * reads such a turn from its start, up to here: a 64 K word once stalled the server.
 */
export const MAX_TURN_CHARS = MESSAGE_MAX_LENGTH;

/** The first MAX_TURN_CHARS characters of `text`, never half of a surrogate pair. */
export function boundTurn(text: string): string {
  return sliceWhole(text, MAX_TURN_CHARS);
}

/**
 * The request as every engine reads it, whoever built it: the history read within `historyBudget`
 * (the engine's own; with 0 it is never read), the message and each earlier turn cut to
 * MAX_TURN_CHARS, and the history to the newest turns within the budget. Each engine passes what
 * it is asked through here before any other work on it.
 */
export async function boundRequest(
  request: EngineRequest,
  historyBudget: number,
): Promise<BoundRequest> {
  const read = historyBudget > 0 && request.history ? await request.history(historyBudget) : [];
  const history = trimHistory(
    read.map((turn) => ({ role: turn.role, text: boundTurn(turn.text) })),
    historyBudget,
  );
  return { ...request, message: boundTurn(request.message), history };
}

/**
 * Keeps the newest turns whose texts add up to at most `budgetChars`. The cut is contiguous: a
 * long turn in the middle ends the history there rather than being skipped, so the model never
 * sees a conversation with a hole in it.
 */
export function trimHistory(turns: EngineTurn[], budgetChars: number): EngineTurn[] {
  let used = 0;
  let start = turns.length;
  while (start > 0) {
    const turn = turns[start - 1]!;
    if (used + turn.text.length > budgetChars) break;
    used += turn.text.length;
    start -= 1;
  }
  return turns.slice(start);
}

// The one way an agent answers, which every feature that answers with agents calls
// (ai.reply.ts takes only types from this file, so the two do not load each other).
export {
  replyToEnd,
  runAgentReply,
  type AgentReply,
  type AgentReplyEnd,
  type AgentReplyFinished,
} from './ai.reply';

// The language a text is written in, for callers outside this feature that choose the language
// of a reply before asking for it (WhatsApp answers a contact in the contact's language).
export { detectLanguage } from './ai.language';

// What the provider in force can hear and see, for a caller that words a message with files
// (WhatsApp transcribes a voice note, or says it cannot listen yet).
export type { MediaAbilities, MediaUnderstanding } from './ai.transcription';
