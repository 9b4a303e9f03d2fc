import { createParser } from 'eventsource-parser';
import { sliceWhole, type KnowledgeEntry, type Language } from '@contrateia/shared';
import { createTranslator, type Translate } from '@/lib/i18n';
import { catalogueEntries } from './ai.catalogue';
import { hoursSummary } from './ai.hours';
import {
  boundRequest,
  DEFAULT_HISTORY_BUDGET_CHARS,
  type AgentEngine,
  type BoundRequest,
  type EngineRequest,
  type LiveFacts,
  type ProviderProbe,
} from './ai.service';
import { EngineFailure, throwIfAborted } from './ai.errors';
import { visionDataUrls } from './ai.vision';
import {
  PerConfiguration,
  indexFor,
  knowledgeLanguage,
  queryTerms,
  type KnowledgeIndex,
} from './ai.search';

/**
 * Any OpenAI-compatible chat-completions endpoint (OpenAI, Ollama, vLLM, llama.cpp server…),
 * streamed. Every way the provider can fail ends in an EngineFailure, and no failure can leave
 * the caller waiting: a watchdog aborts the request when no byte has arrived for `timeoutMs`.
 * A redirect is never followed (it fails as `redirect`): the key and the conversation go to the
 * address the admin typed, not wherever that address points them.
 */
export type OpenAIEngineConfig = {
  /** e.g. https://api.openai.com/v1 or http://127.0.0.1:11434/v1 */
  baseUrl: string;
  apiKey?: string;
  /** AI_MODEL; an agent's own model setting wins over it. */
  model?: string;
  timeoutMs: number;
  /**
   * The most a response may hold, in bytes (DEFAULT_MAX_RESPONSE_BYTES when absent): beyond it
   * the reply fails as `too-large`, so that a provider sending without end cannot fill memory.
   */
  maxResponseBytes?: number;
  /** The server's translator, for the catalogue's prices; one of its own when absent. */
  translate?: (language: Language) => Translate;
  /** The clock a business's "open now" is read from, replaceable in tests. */
  now?: () => Date;
};

/**
 * What a model answers, alone, when an agent that answers only from what it knows finds nothing
 * there: the engine then tells the caller (`onUnknown`: WhatsApp hands the contact to a person)
 * and says the engine's honest "not found" instead.
 */
export const HANDOFF_MARK = '[HANDOFF]';

const LANGUAGE_NAMES: Record<Language, string> = {
  'pt-BR': 'Brazilian Portuguese',
  'en-US': 'English',
  'es-ES': 'Spanish',
};

// Room for the agent's knowledge in the system message: about 3,000 tokens, so that with the
// history budget everything still fits an 8k context.
const KNOWLEDGE_BUDGET_CHARS = 12_000;
/**
 * Far above a real reply: the longest reply an agent may have (20,000 characters), streamed a
 * character per event, is about 4 MB of events.
 */
export const DEFAULT_MAX_RESPONSE_BYTES = 8 * 1024 * 1024;
const EXCERPT_CHARS = 300;

/** A user turn's content with pictures: its text, then each picture as a data URL. */
type ContentPart =
  { type: 'text'; text: string } | { type: 'image_url'; image_url: { url: string } };

type ChatMessage = { role: 'system' | 'user' | 'assistant'; content: string | ContentPart[] };

export function createOpenAIEngine(config: OpenAIEngineConfig): AgentEngine {
  const url = `${config.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  const indexes: PerConfiguration<Promise<KnowledgeIndex>> = new PerConfiguration();
  const translate = config.translate ?? createTranslator();
  return {
    name: 'openai',
    reply: (request) =>
      streamReply({
        config,
        url,
        indexes,
        translate,
        now: config.now ?? (() => new Date()),
        request,
      }),
  };
}

/**
 * Whether the provider answers, without spending a completion: GET `{baseUrl}/models` with the
 * key, as every OpenAI-compatible server offers (the monitor's check). Bounded by `timeoutMs`;
 * its body is not read.
 */
export async function probeOpenAI({
  baseUrl,
  apiKey,
  timeoutMs,
}: {
  baseUrl: string;
  apiKey?: string;
  timeoutMs: number;
}): Promise<ProviderProbe> {
  const started = performance.now();
  const latencyMs = () => Math.round(performance.now() - started);
  const deadline = AbortSignal.timeout(timeoutMs);
  let response: Response;
  try {
    response = await fetch(`${baseUrl.replace(/\/+$/, '')}/models`, {
      headers: {
        accept: 'application/json',
        ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
      },
      redirect: 'manual',
      signal: deadline,
    });
  } catch {
    return {
      ok: false,
      latencyMs: latencyMs(),
      reason: deadline.aborted ? 'timeout' : 'connection',
    };
  }
  await response.body?.cancel().catch(() => {});
  if (response.ok) return { ok: true, latencyMs: latencyMs() };
  return {
    ok: false,
    latencyMs: latencyMs(),
    reason: reasonOfStatus(response.status),
    status: response.status,
  };
}

async function* streamReply({
  config,
  url,
  indexes,
  translate,
  now,
  request: asked,
}: {
  config: OpenAIEngineConfig;
  url: string;
  indexes: PerConfiguration<Promise<KnowledgeIndex>>;
  translate: (language: Language) => Translate;
  now: () => Date;
  request: EngineRequest;
}): AsyncGenerator<string> {
  const request = await boundRequest(asked, DEFAULT_HISTORY_BUDGET_CHARS);
  const settings = request.agent.configuration.model;
  const facts = request.facts ? await request.facts().catch(() => undefined) : undefined;
  const body = {
    model: settings.model ?? config.model,
    stream: true,
    temperature: settings.temperature,
    // About four characters a token; the character cap below is the exact bound.
    max_tokens: Math.ceil(settings.maxReplyLength / 4),
    messages: await buildMessages(request, indexes, translate(request.language), facts, now()),
  };
  const watchdog = new Watchdog(config.timeoutMs);
  const signal = request.signal
    ? AbortSignal.any([watchdog.signal, request.signal])
    : watchdog.signal;
  const fail = (error: unknown) => failureOf(error, watchdog, request.signal);

  let response: Response;
  try {
    throwIfAborted(request.signal);
    response = await fetch(url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'text/event-stream',
        ...(config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {}),
      },
      body: JSON.stringify(body),
      redirect: 'manual',
      signal,
    });
  } catch (error) {
    watchdog.stop();
    throw fail(error);
  }

  const reader = response.body
    ?.pipeThrough(byteLimit(config.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES))
    .getReader();
  try {
    watchdog.touch();
    if (!reader)
      throw new EngineFailure('malformed', 'The provider sent no body', {
        status: response.status,
      });
    if (!response.ok) throw await statusFailure(response.status, reader, config.apiKey, fail);
    const isJson = (response.headers.get('content-type') ?? '').includes('application/json');
    const texts = isJson
      ? readCompletion(reader, watchdog, fail)
      : readEvents(reader, watchdog, fail);
    const t = translate(request.language);
    // An agent that may hand over holds the reply's start until it cannot be the mark.
    let held: string | undefined = answersOnlyFromKnowledge(request) ? '' : undefined;
    let length = 0;
    for await (const received of texts) {
      let text = received;
      if (held !== undefined) {
        held += text;
        const start = held.trimStart();
        if (start.startsWith(HANDOFF_MARK)) {
          request.onUnknown?.();
          yield t('engine.notFound');
          return;
        }
        if (HANDOFF_MARK.startsWith(start)) continue;
        text = held;
        held = undefined;
      }
      // The agent's maximum reply length is a hard bound, whatever the model makes of max_tokens.
      const room = settings.maxReplyLength - length;
      const piece = sliceWhole(text, room);
      length += piece.length;
      if (piece) {
        // The time the caller takes with a piece is not the provider's silence.
        watchdog.stop();
        yield piece;
        watchdog.touch();
      }
      if (length >= settings.maxReplyLength) break;
    }
    // The reply ended while it could still have been the mark ("[HAND"): it is what was said.
    if (held?.trim()) {
      length = held.length;
      yield sliceWhole(held, settings.maxReplyLength);
    }
    if (length === 0) throw new EngineFailure('empty', 'The provider sent an empty reply');
  } catch (error) {
    throw withoutKey(error, config.apiKey);
  } finally {
    watchdog.stop();
    // Whether the stream ended, failed, hit the length cap or the caller stopped reading: free
    // the connection (servers may keep it open after [DONE]).
    await reader?.cancel().catch(() => undefined);
  }
}

/**
 * An agent whose fallback is "not found" answers from what it knows or not at all (an account's
 * own agents, guia): a model is told so, and to say the mark when what it knows has no answer.
 */
const answersOnlyFromKnowledge = ({ agent }: BoundRequest) =>
  agent.configuration.capabilities.fallback === 'notFound';

/**
 * The system message holds the agent's instructions, the language to answer in, the agent's
 * knowledge and catalogue (most relevant to the question first, each item with its price, each
 * passage with the document it comes from), the business's hours and whether it is open now,
 * for admins the live figures, and for an agent that answers only from them that rule, so that a
 * model answers from the same facts as the builtin engine instead of inventing.
 */
async function buildMessages(
  request: BoundRequest,
  indexes: PerConfiguration<Promise<KnowledgeIndex>>,
  t: Translate,
  facts: LiveFacts | undefined,
  now: Date,
): Promise<ChatMessage[]> {
  const { agent, language } = request;
  const name = LANGUAGE_NAMES[language];
  const parts = [
    agent.configuration.instructions.trim(),
    `Always answer in ${name} (${language}), the user's language, even when these instructions or the ` +
      `reference knowledge are written in another language.`,
  ];
  const knowledge = await knowledgeFor(request, indexes, t);
  if (knowledge.length > 0) {
    parts.push(
      `Reference knowledge (answer from it when it applies):\n\n${knowledge.map(renderEntry).join('\n\n')}`,
    );
  }
  const { business } = agent.configuration;
  if (business && business.hours.length > 0) {
    parts.push(
      `Business hours (time zone ${business.timeZone}), and whether it is open now, computed just now:\n` +
        hoursSummary(business, now, t, language),
    );
  }
  if (facts) parts.push(`Live figures, read just now:\n${renderFacts(facts)}`);
  if (answersOnlyFromKnowledge(request)) {
    parts.push(
      'Answer only from the reference knowledge, the business hours and the live figures above. ' +
        'Never state a price, an hour, a date, an address, a link or any other fact they do not ' +
        'contain. When an answer comes from a document, name it ("according to <document>"). ' +
        'Greetings and thanks may be answered briefly. When they do not answer the question, reply ' +
        `with exactly ${HANDOFF_MARK} and nothing else.`,
    );
  }
  return [
    { role: 'system', content: parts.join('\n\n') },
    ...request.history.map((turn): ChatMessage => ({ role: turn.role, content: turn.text })),
    { role: 'user', content: await userContent(request) },
  ];
}

/**
 * The question as the model reads it: its text alone, or with pictures (a contact's photo and its
 * caption) the text part first, then each picture, as OpenAI's chat API takes them.
 */
async function userContent({ message, images }: BoundRequest): Promise<string | ContentPart[]> {
  const urls = images && images.length > 0 ? await visionDataUrls(images) : [];
  if (urls.length === 0) return message;
  return [
    ...(message ? [{ type: 'text' as const, text: message }] : []),
    ...urls.map((url) => ({ type: 'image_url' as const, image_url: { url } })),
  ];
}

async function knowledgeFor(
  request: BoundRequest,
  indexes: PerConfiguration<Promise<KnowledgeIndex>>,
  t: Translate,
): Promise<KnowledgeEntry[]> {
  const { agent, language } = request;
  // An account's own agent knows its business in one language: asked in another, that one.
  const known = knowledgeLanguage(agent.configuration.knowledge, language);
  const index = await indexes.get(
    agent.configuration,
    known,
    () =>
      indexFor(
        [
          ...agent.configuration.knowledge,
          ...catalogueEntries(agent.configuration.catalogue, known, t),
        ],
        known,
      ),
    agent.version,
  );
  // The question's words as its language reads them meet the knowledge's on shared words and
  // word groups ("parking" is "estacionamento"); read as the knowledge's, on the rest.
  const terms = new Set([
    ...queryTerms(request.message, language),
    ...queryTerms(request.message, known),
  ]);
  const ranked = index.rank([...terms]).map((match) => match.entry);
  const ordered = [...new Set([...ranked, ...index.entries])];
  const chosen: KnowledgeEntry[] = [];
  let used = 0;
  for (const entry of ordered) {
    const size = renderEntry(entry).length;
    if (used + size > KNOWLEDGE_BUDGET_CHARS) break;
    chosen.push(entry);
    used += size;
  }
  return chosen;
}

function renderEntry(entry: KnowledgeEntry): string {
  const source = entry.source ? `\nDocument: ${entry.source}` : '';
  return `### ${entry.title}\n${entry.content}${entry.link ? `\nPage: ${entry.link}` : ''}${source}`;
}

function renderFacts(facts: LiveFacts): string {
  return [
    ...(['total', 'today', 'week'] as const).map((period) => {
      const { users, conversations, messages } = facts.activity[period];
      const when = { total: 'in all', today: 'today', week: 'this week' }[period];
      return `- ${when}: ${users} accounts registered, ${conversations} conversations started, ${messages} messages exchanged`;
    }),
    `- newest accounts: ${facts.newestUsers.map((u) => `${u.name} (${u.createdAt.toISOString()})`).join(', ') || 'none'}`,
    `- "today" and "this week" are counted in the time zone ${facts.timeZone}`,
    `- database: ${facts.database.kind === 'pglite' ? 'embedded PGlite' : 'PostgreSQL'}, ${facts.database.ok ? 'working' : 'not responding'}`,
    `- mail: ${facts.mail === 'smtp' ? 'sent over SMTP' : 'no SMTP configured; verification codes are written to the server log'}`,
  ].join('\n');
}

// Reading the response ------------------------------------------------------------------------

type Fail = (error: unknown) => EngineFailure;

/** Text deltas of a `text/event-stream` answer, until `data: [DONE]`. */
async function* readEvents(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  watchdog: Watchdog,
  fail: Fail,
): AsyncGenerator<string> {
  const pending: string[] = [];
  const parser = createParser({ onEvent: (event) => pending.push(event.data) });
  const decoder = new TextDecoder();
  let sawFinish = false;
  for (;;) {
    const chunk = await read(reader, fail);
    if (chunk === undefined) break;
    watchdog.touch();
    parser.feed(decoder.decode(chunk, { stream: true }));
    for (const data of pending.splice(0)) {
      const event = parseEvent(data);
      if (event === 'done') return;
      sawFinish ||= event.finished;
      if (event.text) yield event.text;
    }
  }
  // A stream that stops without [DONE] or a finish reason was cut off: its text is half a reply.
  if (!sawFinish) throw new EngineFailure('malformed', 'The stream ended before [DONE]');
}

/** A provider that ignored `stream: true` and sent one JSON completion. */
async function* readCompletion(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  watchdog: Watchdog,
  fail: Fail,
): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let text = '';
  for (
    let chunk = await read(reader, fail);
    chunk !== undefined;
    chunk = await read(reader, fail)
  ) {
    watchdog.touch();
    text += decoder.decode(chunk, { stream: true });
  }
  text += decoder.decode();
  const json = parseJson(text);
  const choice = isRecord(json) && Array.isArray(json.choices) ? json.choices[0] : undefined;
  const content = isRecord(choice) && isRecord(choice.message) ? choice.message.content : undefined;
  if (typeof content !== 'string') throw malformed('The completion has no message content', text);
  yield content;
}

async function read(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  fail: Fail,
): Promise<Uint8Array | undefined> {
  try {
    const { done, value } = await reader.read();
    return done ? undefined : value;
  } catch (error) {
    throw fail(error);
  }
}

/** One `data:` payload: the delta's text and whether the choice finished, or the end marker. */
function parseEvent(data: string): 'done' | { text: string; finished: boolean } {
  if (data.trim() === '[DONE]') return 'done';
  const json = parseJson(data);
  if (isRecord(json) && json.error !== undefined) {
    // Some servers report a failure mid-stream as an event instead of a status.
    throw new EngineFailure('provider-error', 'The provider reported an error in the stream', {
      detail: excerpt(JSON.stringify(json.error)),
    });
  }
  if (!isRecord(json) || !Array.isArray(json.choices))
    throw malformed('A stream event has no choices', data);
  // An empty choices list is legal (usage or content-filter events); it carries no text.
  const choice: unknown = json.choices[0];
  if (choice === undefined) return { text: '', finished: false };
  if (!isRecord(choice)) throw malformed('A stream choice is not an object', data);
  const content = isRecord(choice.delta) ? choice.delta.content : undefined;
  return {
    text: typeof content === 'string' ? content : '',
    finished: typeof choice.finish_reason === 'string',
  };
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new EngineFailure('malformed', 'The provider sent something that is not JSON', {
      cause: error,
      detail: excerpt(text),
    });
  }
}

function malformed(message: string, data: string): EngineFailure {
  return new EngineFailure('malformed', message, { detail: excerpt(data) });
}

// Failures ----------------------------------------------------------------------------------

async function statusFailure(
  status: number,
  reader: ReadableStreamDefaultReader<Uint8Array>,
  apiKey: string | undefined,
  fail: Fail,
): Promise<EngineFailure> {
  // Read a little of the body for the log (it usually says why), never the whole of it.
  const decoder = new TextDecoder();
  let body = '';
  while (body.length < 2 * EXCERPT_CHARS) {
    const chunk = await read(reader, fail).catch(() => undefined);
    if (chunk === undefined) break;
    body += decoder.decode(chunk, { stream: true });
  }
  // Some providers echo part of the key in a 401; keep it out of the logs.
  const detail = excerpt(redactKey(body, apiKey));
  const reason = reasonOfStatus(status);
  return new EngineFailure(reason, `The provider answered ${status}`, { status, detail });
}

export function reasonOfStatus(
  status: number,
): 'redirect' | 'status-401' | 'status-429' | 'status-4xx' | 'status-5xx' {
  if (status >= 300 && status < 400) return 'redirect';
  return status === 401
    ? 'status-401'
    : status === 429
      ? 'status-429'
      : status >= 500
        ? 'status-5xx'
        : 'status-4xx';
}

export function redactKey(text: string, apiKey: string | undefined): string {
  return apiKey ? text.split(apiKey).join('[api key]') : text;
}

/**
 * The failure with the key taken out of its excerpt, whatever part of the answer the excerpt
 * quotes (an error body, a bad event, a completion that is not one): it goes to the log.
 */
function withoutKey(error: unknown, apiKey: string | undefined): unknown {
  if (!(error instanceof EngineFailure) || !apiKey || !error.detail?.includes(apiKey)) return error;
  return new EngineFailure(error.reason, error.message, {
    cause: error.cause,
    status: error.status,
    detail: redactKey(error.detail, apiKey),
  });
}

function failureOf(
  error: unknown,
  watchdog: Watchdog,
  signal: AbortSignal | undefined,
): EngineFailure {
  if (error instanceof EngineFailure) return error;
  if (watchdog.fired) {
    return new EngineFailure(
      'timeout',
      `No reply from the provider within ${watchdog.timeoutMs} ms`,
      { cause: error },
    );
  }
  if (signal?.aborted)
    return new EngineFailure('aborted', 'The request was aborted', { cause: signal.reason });
  const code = errorCode(error);
  if (code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT') {
    return new EngineFailure('timeout', `The provider timed out (${code})`, { cause: error });
  }
  return new EngineFailure(
    'connection',
    `Could not reach the provider${code ? ` (${code})` : ''}`,
    { cause: error },
  );
}

/** The system error code (ECONNREFUSED…) that fetch wraps in its `cause`. */
export function errorCode(error: unknown): string | undefined {
  for (let current: unknown = error, depth = 0; isRecord(current) && depth < 4; depth += 1) {
    if (typeof current.code === 'string') return current.code;
    current = current.cause;
  }
  return undefined;
}

export function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > EXCERPT_CHARS ? `${flat.slice(0, EXCERPT_CHARS)}…` : flat;
}

/** Passes bytes through until more than `max` have come, then fails the stream as `too-large`. */
export function byteLimit(max: number): TransformStream<Uint8Array, Uint8Array> {
  let seen = 0;
  return new TransformStream({
    transform(chunk, controller) {
      seen += chunk.byteLength;
      if (seen > max)
        controller.error(
          new EngineFailure('too-large', `The provider sent more than ${max} bytes`),
        );
      else controller.enqueue(chunk);
    },
  });
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}

/**
 * Aborts the request after `timeoutMs` without a byte from the provider: before the response
 * starts (no first byte) and between chunks (a stalled stream). AbortSignal.timeout cannot be
 * re-armed, hence a timer.
 */
class Watchdog {
  private readonly controller = new AbortController();
  private timer: NodeJS.Timeout | undefined;
  fired = false;

  constructor(readonly timeoutMs: number) {
    this.touch();
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  touch(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.fired = true;
      this.controller.abort(new Error(`no byte from the provider within ${this.timeoutMs} ms`));
    }, this.timeoutMs);
  }

  stop(): void {
    clearTimeout(this.timer);
  }
}
