import http from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import Busboy, { type BusboyHeaders } from '@fastify/busboy';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { within } from './eventually';

/**
 * A local server that speaks the OpenAI chat-completions streaming protocol (and
 * `POST /audio/transcriptions`, multipart, read by busboy as a real server reads it), for the
 * engine's tests, the chat integration tests and `npm run bench`. It records every request it receives
 * and how it answered, can be told to fail in each way a real provider does, and can hold a reply
 * midway until the test lets it go on (`hold`, `nextRequest`).
 */
export type FakeOpenAIOptions = {
  /** The reply, as the content deltas to stream. */
  chunks?: string[];
  /** Wait before each chunk (the first included). */
  delayMs?: number;
  /** Wait before answering at all (no status line, no headers). */
  firstByteDelayMs?: number;
  /** Never answer: the connection stays open and silent. */
  hang?: boolean;
  /** Send the headers, then go silent after this many chunks. */
  stallAfterChunks?: number;
  /** Answer with this status and `errorBody` instead of a stream. */
  status?: number;
  errorBody?: string;
  /** Headers to add to that answer (a redirect's `location`). */
  headers?: Record<string, string>;
  /** Stream these raw SSE payloads (each sent as `data: …`) instead of well-formed chunks. */
  rawEvents?: string[];
  /** Leave out the closing `data: [DONE]` (and the finish reason). */
  omitDone?: boolean;
  /** Answer with one non-streamed JSON completion, as servers that ignore `stream` do. */
  json?: boolean;
  /** Answer 200 with this body and content type instead of a completion (a web page, a huge body). */
  raw?: { contentType: string; body: string };
  /**
   * Hold the stream after this many chunks (0: right after the headers) until `until` resolves:
   * the reply stays in progress exactly as long as the test needs, however fast the machine.
   */
  hold?: { afterChunks: number; until: Promise<void> };
  /**
   * How `POST /audio/transcriptions` answers (apart from the chat's options): `{ text }` with
   * `text` ('Hello from the fake transcription.' unless told), `raw` as the body instead, or
   * `status` with `errorBody`. `hang` and `headers` apply to it too. `hold` keeps the answer back
   * until it resolves: the transcription stays in progress as long as the test needs.
   */
  transcription?: {
    text?: string;
    status?: number;
    errorBody?: string;
    raw?: string;
    hold?: Promise<void>;
  };
};

/** A multipart request as a real parser (busboy) read it: its fields and its files' parts. */
export type FakeMultipart = {
  fields: Record<string, string>;
  files: { field: string; filename: string; mimeType: string; data: Buffer }[];
};

export type FakeOpenAIRequest = {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: unknown;
  /** A multipart request's parts (a transcription's file and model); absent for JSON requests. */
  multipart?: FakeMultipart;
  /** The data URLs of the image_url parts a chat request's messages carried, in order. */
  images: string[];
  /** Epoch milliseconds (sub-millisecond precision) when the first content chunk was written. */
  firstChunkAt?: number;
};

export type FakeOpenAI = {
  /** The base URL to give the engine (AI_BASE_URL), ending in /v1. */
  url: string;
  requests: FakeOpenAIRequest[];
  /** Changes how the next requests are answered. */
  setOptions(options: FakeOpenAIOptions): void;
  /**
   * Resolves with the next request to arrive after this call, once its body is read: from then
   * on, the caller's reply is in progress. Call it before sending. Fails after `ms`. With `match`,
   * the next one it accepts (a transcription, not the monitor's look at the models).
   */
  nextRequest(
    ms?: number,
    match?: (request: FakeOpenAIRequest) => boolean,
  ): Promise<FakeOpenAIRequest>;
  close(): Promise<void>;
};

type Waiter = (request: FakeOpenAIRequest) => void;

export type Gate = { opened: Promise<void>; open: () => void };

/** A promise the test opens when it chooses (for `hold`). */
export function createGate(): Gate {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

const now = () => performance.timeOrigin + performance.now();

export async function startFakeOpenAI(initial: FakeOpenAIOptions = {}): Promise<FakeOpenAI> {
  let options = initial;
  const requests: FakeOpenAIRequest[] = [];
  let waiting: { match: (request: FakeOpenAIRequest) => boolean; resolve: Waiter }[] = [];
  const received = (request: FakeOpenAIRequest) => {
    requests.push(request);
    const [met, still] = [
      waiting.filter((w) => w.match(request)),
      waiting.filter((w) => !w.match(request)),
    ];
    waiting = still;
    for (const { resolve } of met) resolve(request);
  };
  const server = http.createServer((req, res) => {
    void answer(req, res, options, received).catch(() => res.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    requests,
    setOptions(next) {
      options = next;
    },
    nextRequest: (ms, match = () => true) =>
      within(
        new Promise((resolve) => waiting.push({ match, resolve })),
        'the next request to the fake AI provider',
        ms,
      ),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

async function answer(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  options: FakeOpenAIOptions,
  received: (request: FakeOpenAIRequest) => void,
): Promise<void> {
  if ((req.headers['content-type'] ?? '').startsWith('multipart/form-data')) {
    const multipart = await readMultipart(req);
    received({
      method: req.method ?? '',
      path: req.url ?? '',
      headers: req.headers,
      body: undefined,
      multipart,
      images: [],
    });
    if (options.hang) return;
    const {
      text = 'Hello from the fake transcription.',
      status = 200,
      errorBody,
      raw,
      hold,
    } = options.transcription ?? {};
    if (hold) await hold;
    res.writeHead(status, { 'content-type': 'application/json', ...options.headers });
    res.end(
      status !== 200
        ? (errorBody ?? JSON.stringify({ error: { message: `fake error ${status}` } }))
        : (raw ?? JSON.stringify({ text })),
    );
    return;
  }
  const text = await readBody(req);
  const body = parseOrText(text);
  const record: FakeOpenAIRequest = {
    method: req.method ?? '',
    path: req.url ?? '',
    headers: req.headers,
    body,
    images: imageUrlsOf(body),
  };
  received(record);
  if (options.hang) return;
  if (options.firstByteDelayMs) await sleep(options.firstByteDelayMs);

  if (options.status && options.status !== 200) {
    res.writeHead(options.status, { 'content-type': 'application/json', ...options.headers });
    res.end(
      options.errorBody ?? JSON.stringify({ error: { message: `fake error ${options.status}` } }),
    );
    return;
  }
  if (options.raw) {
    res.writeHead(200, { 'content-type': options.raw.contentType });
    res.end(options.raw.body);
    return;
  }
  const chunks = options.chunks ?? ['Hello', ' from', ' the fake model.'];
  if (options.json) {
    res.writeHead(200, { 'content-type': 'application/json' });
    record.firstChunkAt = now();
    res.end(
      JSON.stringify({
        choices: [{ index: 0, message: { role: 'assistant', content: chunks.join('') } }],
      }),
    );
    return;
  }

  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  res.flushHeaders();
  const events = options.rawEvents ?? wellFormedEvents(chunks, options.omitDone ?? false);
  for (const [index, event] of events.entries()) {
    if (options.stallAfterChunks !== undefined && index >= options.stallAfterChunks) return;
    if (options.hold?.afterChunks === index) await options.hold.until;
    if (options.delayMs) await sleep(options.delayMs);
    if (res.destroyed) return;
    res.write(`data: ${event}\n\n`);
    record.firstChunkAt ??= now();
  }
  res.end();
}

function wellFormedEvents(chunks: string[], omitDone: boolean): string[] {
  const base = { id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: 0, model: 'fake' };
  const event = (delta: object, finish: string | null) =>
    JSON.stringify({ ...base, choices: [{ index: 0, delta, finish_reason: finish }] });
  const events = chunks.map((content, index) =>
    event(index === 0 ? { role: 'assistant', content } : { content }, null),
  );
  return omitDone ? events : [...events, event({}, 'stop'), '[DONE]'];
}

/** The image_url parts of a chat request's messages (a user turn's content may be a list of parts). */
function imageUrlsOf(body: unknown): string[] {
  const messages = (body as { messages?: unknown } | undefined)?.messages;
  if (!Array.isArray(messages)) return [];
  return messages.flatMap((message: { content?: unknown }) =>
    Array.isArray(message.content)
      ? message.content.flatMap((part: { type?: string; image_url?: { url?: string } }) =>
          part.type === 'image_url' && part.image_url?.url ? [part.image_url.url] : [],
        )
      : [],
  );
}

/** A multipart/form-data body read by busboy, files whole. */
function readMultipart(req: http.IncomingMessage): Promise<FakeMultipart> {
  return new Promise((resolve, reject) => {
    const parsed: FakeMultipart = { fields: {}, files: [] };
    const reading: Promise<void>[] = [];
    const busboy = Busboy({ headers: req.headers as BusboyHeaders });
    busboy.on('field', (name, value) => (parsed.fields[name] = value));
    busboy.on('file', (field, stream, filename, _encoding, mimeType) => {
      reading.push(
        (async () => {
          const parts: Buffer[] = [];
          for await (const part of stream) parts.push(part as Buffer);
          parsed.files.push({ field, filename, mimeType, data: Buffer.concat(parts) });
        })(),
      );
    });
    busboy.on('finish', () => void Promise.all(reading).then(() => resolve(parsed), reject));
    busboy.on('error', reject);
    req.pipe(busboy);
  });
}

async function readBody(req: http.IncomingMessage): Promise<string> {
  const parts: Buffer[] = [];
  for await (const part of req) parts.push(part as Buffer);
  return Buffer.concat(parts).toString('utf8');
}

function parseOrText(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
