import type { FastifyBaseLogger } from 'fastify';
import type { Language } from '@contrateia/shared';
import { EngineFailure, type EngineFailureReason } from './ai.errors';
import type { AgentEngine, EngineAgent, EngineImage, HistoryLoader, LiveFacts } from './ai.service';

// The one way an agent answers, whoever asked (the chat, the admin's test chat, a WhatsApp
// contact): what a reply's end means is decided here, once, and each caller only turns the end
// into its own response.

/**
 * How a reply ended. `answered` and `stopped` carry the text to keep; `failed` says why there is
 * none (the provider failed, or answered with nothing), for the caller's own error: the chat's
 * 502, a WhatsApp conversation's failed reply. The failure's detail is logged here, never shown.
 */
export type AgentReplyEnd =
  /** `unknown`: the engine found nothing in the agent's knowledge that answers (its text says so). */
  | { ending: 'answered'; text: string; unknown?: true }
  /** Stopped by the caller's signal: what had arrived, possibly nothing (the question was asked). */
  | { ending: 'stopped'; text: string }
  | { ending: 'failed'; failure: EngineFailure };

/** What is reported once a reply has ended, whatever the ending: `ai.reply.finished`. */
export type AgentReplyFinished = {
  agent: string;
  ending: AgentReplyEnd['ending'];
  /** Why it failed; only for `failed`. */
  reason?: EngineFailureReason;
  /** The length of the text kept (0 for a failure). */
  chars: number;
};

/** The reply's text pieces as they come; its return value says how it ended. */
export type AgentReply = AsyncGenerator<string, AgentReplyEnd, undefined>;

/**
 * An agent's answer to `question`, streamed: each piece of text as the engine produces it, then
 * (as the generator's return value) how the reply ended. The engine reads the conversation's
 * earlier turns through `history` only if it reads any, as much as its own budget, so a caller
 * never asks how much to read. A reply with no text after `format` is a failure (`empty`); an
 * EngineFailure is a `failed` end, not an exception (anything else still throws). When `signal`
 * aborts (the user's Stop), the reply ends as `stopped` with what had arrived.
 */
export async function* runAgentReply({
  engine,
  logger,
  agent,
  question,
  history,
  language,
  timeZone,
  facts,
  images,
  signal,
  format = (text) => text.trim(),
  onFinished,
}: {
  engine: AgentEngine;
  logger: FastifyBaseLogger;
  agent: EngineAgent;
  question: string;
  history?: HistoryLoader;
  language: Language;
  /** The user's IANA time zone; the language's default when absent. */
  timeZone?: string;
  /** Live figures, for an agent with the liveFacts skill asked by an admin (see EngineRequest). */
  facts?: () => Promise<LiveFacts>;
  /** Pictures sent with the question, for a model that sees (see EngineRequest). */
  images?: EngineImage[];
  signal?: AbortSignal;
  /** The text as the caller's channel shows it (WhatsApp's from the Markdown); trimmed by default. */
  format?: (text: string) => string;
  /** Told how each reply ended (the `ai.reply.finished` event). */
  onFinished?: (finished: AgentReplyFinished) => void;
}): AgentReply {
  const end = (ended: AgentReplyEnd): AgentReplyEnd => {
    if (ended.ending === 'failed') {
      logger.error(
        { err: ended.failure, reason: ended.failure.reason, agent: agent.name },
        'agent engine failed',
      );
    }
    onFinished?.({
      agent: agent.name,
      ending: ended.ending,
      ...(ended.ending === 'failed'
        ? { reason: ended.failure.reason, chars: 0 }
        : { chars: ended.text.length }),
    });
    return ended;
  };

  let text = '';
  let stopped = false;
  let unknown = false;
  try {
    const onUnknown = () => void (unknown = true);
    const request = {
      agent,
      history,
      message: question,
      language,
      timeZone,
      facts,
      ...(images && images.length > 0 ? { images } : {}),
      signal,
      onUnknown,
    };
    for await (const delta of engine.reply(request)) {
      text += delta;
      yield delta;
      if (signal?.aborted) {
        stopped = true;
        break;
      }
    }
  } catch (error) {
    // Stopped by the caller: not a failure; what arrived is the reply.
    if (signal?.aborted) stopped = true;
    else if (error instanceof EngineFailure) return end({ ending: 'failed', failure: error });
    else throw error;
  }
  // A stopped reply is kept as it arrived, even empty.
  if (stopped) return end({ ending: 'stopped', text: text.trimEnd() });
  const shown = format(text);
  if (!shown) {
    const failure = new EngineFailure('empty', 'the agent engine returned an empty reply');
    return end({ ending: 'failed', failure });
  }
  return end({ ending: 'answered', text: shown, ...(unknown ? { unknown: true as const } : {}) });
}

/** Runs a reply to its end, for a caller that shows it only once complete: how it ended. */
export async function replyToEnd(reply: AgentReply): Promise<AgentReplyEnd> {
  for (;;) {
    const step = await reply.next();
    if (step.done) return step.value;
  }
}
