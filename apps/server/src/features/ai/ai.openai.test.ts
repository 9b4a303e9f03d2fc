import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { isWellFormedText, type AgentConfiguration, type Language } from '@contrateia/shared';
import {
  createGate,
  startFakeOpenAI,
  type FakeOpenAI,
  type FakeOpenAIOptions,
} from '../../../test/fake-openai';
import {
  DEFAULT_HISTORY_BUDGET_CHARS,
  EngineFailure,
  MAX_IMAGES_PER_TURN,
  type EngineRequest,
  type EngineTurn,
  type LiveFacts,
} from './ai.service';
import { createOpenAIEngine, type OpenAIEngineConfig } from './ai.openai';
import { VISION_MAX_SIDE } from './ai.vision';
import { configuration as fixture, GUIDE_KNOWLEDGE, SHOP_CATALOGUE } from './ai.test-fixtures';

const API_KEY = 'sk-test-0123456789';
let fake: FakeOpenAI | undefined;

afterEach(async () => {
  vi.useRealTimers();
  await fake?.close();
  fake = undefined;
});

async function serve(options: FakeOpenAIOptions): Promise<FakeOpenAI> {
  fake = await startFakeOpenAI(options);
  return fake;
}

// Small agents written for these tests (see ai.test-fixtures.ts); a fresh copy for each request.
const AGENTS: Record<string, () => AgentConfiguration> = {
  guide: () => fixture({ knowledge: GUIDE_KNOWLEDGE }),
  shop: () =>
    fixture({
      capabilities: { skills: ['catalogue'], fallback: 'notFound' },
      catalogue: SHOP_CATALOGUE,
    }),
  ops: () => fixture({ capabilities: { skills: ['liveFacts'], fallback: 'notFound' } }),
};

function configurationOf(name: string): AgentConfiguration {
  const make = AGENTS[name];
  if (!make) throw new Error(`no test agent ${name}`);
  return make();
}

function requestFor(
  overrides: Partial<EngineRequest> & { name?: string; configuration?: AgentConfiguration } = {},
): EngineRequest {
  const name = overrides.name ?? 'guide';
  return {
    agent: { name, configuration: overrides.configuration ?? configurationOf(name) },
    history: overrides.history,
    message: overrides.message ?? 'como conecto meu whatsapp?',
    language: overrides.language ?? 'pt-BR',
    facts: overrides.facts,
    signal: overrides.signal,
  };
}

async function collect(
  config: Partial<OpenAIEngineConfig> & { baseUrl: string },
  request: EngineRequest,
): Promise<string[]> {
  const engine = createOpenAIEngine({ timeoutMs: 5000, ...config });
  const chunks: string[] = [];
  for await (const chunk of engine.reply(request)) chunks.push(chunk);
  return chunks;
}

/** Runs the engine expecting an EngineFailure; returns it and what streamed before it. */
async function failure(
  config: Partial<OpenAIEngineConfig> & { baseUrl: string },
  request: EngineRequest = requestFor(),
): Promise<{ error: EngineFailure; chunks: string[] }> {
  const engine = createOpenAIEngine({ timeoutMs: 5000, ...config });
  const chunks: string[] = [];
  try {
    for await (const chunk of engine.reply(request)) chunks.push(chunk);
  } catch (error) {
    expect(error).toBeInstanceOf(EngineFailure);
    return { error: error as EngineFailure, chunks };
  }
  throw new Error('expected an EngineFailure');
}

/**
 * The watchdog's timeouts are tested on a fake clock: the test moves time on once the request or
 * chunk it is about has arrived, so the outcome does not depend on how loaded the machine is. Only
 * setTimeout and clearTimeout are faked (the watchdog's timer); sockets, setImmediate and the fake
 * provider's own waits stay real.
 */
const TIMEOUT_MS = 1000;
const useWatchdogClock = () => vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });

/** A reply to read one chunk at a time, with the watchdog at TIMEOUT_MS. */
function replyFrom(server: FakeOpenAI): AsyncIterator<string> {
  const engine = createOpenAIEngine({ baseUrl: server.url, timeoutMs: TIMEOUT_MS });
  return engine.reply(requestFor())[Symbol.asyncIterator]();
}

/** Whether `promise` has settled once the callbacks and microtasks now pending have run. */
async function settledYet(promise: Promise<unknown>): Promise<boolean> {
  let settled = false;
  const mark = () => {
    settled = true;
  };
  void promise.then(mark, mark);
  await new Promise((resolve) => setImmediate(resolve));
  return settled;
}

type SentBody = {
  model?: string;
  stream: boolean;
  temperature: number;
  max_tokens: number;
  messages: Array<{ role: string; content: string }>;
};

describe('openai engine: the request and the stream', () => {
  it('sends instructions, language, history and message, and yields each delta', async () => {
    const server = await serve({
      chunks: ['Abra a página', ' WhatsApp', ' e clique em Conectar.'],
    });
    const history: EngineTurn[] = [
      { role: 'user', text: 'oi' },
      { role: 'assistant', text: 'Olá! Em que posso ajudar?' },
      { role: 'user', text: 'quero usar o whatsapp' },
      { role: 'assistant', text: 'Claro.' },
    ];
    const request = requestFor({ history: async () => history });
    const chunks = await collect(
      { baseUrl: server.url, apiKey: API_KEY, model: 'default-model' },
      request,
    );

    expect(chunks).toEqual(['Abra a página', ' WhatsApp', ' e clique em Conectar.']);
    expect(server.requests).toHaveLength(1);
    const sent = server.requests[0]!;
    expect(sent.method).toBe('POST');
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(sent.headers['content-type']).toBe('application/json');
    const body = sent.body as SentBody;
    expect(body.stream).toBe(true);
    expect(body.model).toBe('default-model');
    expect(body.temperature).toBe(0.3);
    expect(body.max_tokens).toBe(500);

    const [system, ...rest] = body.messages;
    expect(system?.role).toBe('system');
    expect(system?.content.startsWith(request.agent.configuration.instructions)).toBe(true);
    expect(system?.content).toContain('Always answer in Brazilian Portuguese (pt-BR)');
    // The agent's knowledge in the user's language, the most relevant entry first.
    expect(system?.content).toContain('Reference knowledge');
    expect(system?.content).toContain('### Conectar o WhatsApp');
    expect(system?.content.indexOf('### Conectar o WhatsApp')).toBeLessThan(
      system!.content.indexOf('### Contratar um agente'),
    );
    expect(system?.content).not.toContain('### Connect WhatsApp');
    expect(rest).toEqual([
      { role: 'user', content: 'oi' },
      { role: 'assistant', content: 'Olá! Em que posso ajudar?' },
      { role: 'user', content: 'quero usar o whatsapp' },
      { role: 'assistant', content: 'Claro.' },
      { role: 'user', content: 'como conecto meu whatsapp?' },
    ]);
  });

  it("uses the agent's own model over AI_MODEL, and no Authorization without a key", async () => {
    const server = await serve({});
    const configuration = configurationOf('guide');
    configuration.model = { model: 'agent-model', temperature: 0.9, maxReplyLength: 1000 };
    await collect(
      { baseUrl: `${server.url}/`, model: 'default-model' },
      requestFor({ configuration }),
    );
    const body = server.requests[0]!.body as SentBody;
    expect(server.requests[0]!.path).toBe('/v1/chat/completions');
    expect(body.model).toBe('agent-model');
    expect(body.temperature).toBe(0.9);
    expect(body.max_tokens).toBe(250);
    expect(server.requests[0]!.headers.authorization).toBeUndefined();
  });

  it('never sends more than the first 4,000 characters of a turn, nor history beyond its budget', async () => {
    const server = await serve({});
    // A 64 K one-word message, as a WhatsApp contact may send, and history no caller cut.
    const word = 'conexao'.repeat(9_363);
    const long = (label: string) => `${label} ${'palavra '.repeat(1_000)}`;
    const history: EngineTurn[] = [
      { role: 'user', text: long('PRIMEIRA') },
      { role: 'assistant', text: 'Certo.' },
      { role: 'user', text: long('SEGUNDA') },
      { role: 'assistant', text: 'Claro.' },
      { role: 'user', text: long('TERCEIRA') },
      { role: 'assistant', text: 'Pronto.' },
    ];
    const read: number[] = [];
    await collect(
      { baseUrl: server.url, model: 'm' },
      requestFor({
        history: async (budgetChars) => {
          read.push(budgetChars);
          return history;
        },
        message: `oi ${word}`,
      }),
    );
    // Read once, asked for the engine's own budget.
    expect(read).toEqual([DEFAULT_HISTORY_BUDGET_CHARS]);
    const [, ...rest] = (server.requests[0]!.body as SentBody).messages;
    // Each turn's first 4,000 characters; the newest turns that fit the 12,000 of history.
    expect(rest).toEqual([
      { role: 'assistant', content: 'Certo.' },
      { role: 'user', content: long('SEGUNDA').slice(0, 4_000) },
      { role: 'assistant', content: 'Claro.' },
      { role: 'user', content: long('TERCEIRA').slice(0, 4_000) },
      { role: 'assistant', content: 'Pronto.' },
      { role: 'user', content: `oi ${word}`.slice(0, 4_000) },
    ]);
  });

  it.each<[Language, string]>([
    ['en-US', 'Always answer in English (en-US)'],
    ['es-ES', 'Always answer in Spanish (es-ES)'],
  ])('names the language to answer in (%s)', async (language, instruction) => {
    const server = await serve({});
    await collect({ baseUrl: server.url, model: 'm' }, requestFor({ language, message: 'hello' }));
    expect((server.requests[0]!.body as SentBody).messages[0]!.content).toContain(instruction);
  });

  it('gives the catalogue as knowledge, each item with its price in the language', async () => {
    const server = await serve({});
    await collect(
      { baseUrl: server.url, model: 'm' },
      requestFor({ name: 'shop', message: 'quanto custa a folha de pagamento?' }),
    );
    const system = (server.requests[0]!.body as SentBody).messages[0]!.content;
    // The item asked about first, then the rest; each with its own price, written for pt-BR.
    expect(system.indexOf('### Folha de pagamento')).toBeLessThan(
      system.indexOf('### Consultoria de gestão'),
    );
    expect(system).toContain(
      '### Folha de pagamento\nHolerites, férias e encargos dos seus funcionários.\n\n' +
        'Preço: R$\u00a045,00 (por funcionário, por mês).',
    );
    expect(system).toContain('Preço: R$\u00a01.800,00 (por mês).');
    expect(system).not.toContain('### Payroll');
  });

  it('gives the live figures when the request carries them (liveFacts, admins)', async () => {
    const server = await serve({});
    const facts = async (): Promise<LiveFacts> => ({
      activity: {
        total: { users: 7, conversations: 12, messages: 90 },
        today: { users: 1, conversations: 4, messages: 31 },
        week: { users: 3, conversations: 8, messages: 60 },
      },
      newestUsers: [],
      timeZone: 'UTC',
      database: { kind: 'postgres', ok: true },
      mail: 'smtp',
    });
    await collect(
      { baseUrl: server.url, model: 'm' },
      requestFor({ name: 'ops', message: 'how many users?', language: 'en-US', facts }),
    );
    const system = (server.requests[0]!.body as SentBody).messages[0]!.content;
    expect(system).toContain(
      '- in all: 7 accounts registered, 12 conversations started, 90 messages exchanged',
    );
    expect(system).toContain(
      '- today: 1 accounts registered, 4 conversations started, 31 messages exchanged',
    );
    expect(system).toContain('- database: PostgreSQL, working');
  });

  it('accepts a provider that answers with one JSON completion', async () => {
    const server = await serve({ json: true, chunks: ['All ', 'at once.'] });
    expect(await collect({ baseUrl: server.url, model: 'm' }, requestFor())).toEqual([
      'All at once.',
    ]);
  });

  it("stops at the agent's maximum reply length", async () => {
    const server = await serve({ chunks: Array.from({ length: 10 }, (_, i) => `${i}`.repeat(10)) });
    const configuration = configurationOf('guide');
    configuration.model.maxReplyLength = 55;
    const chunks = await collect(
      { baseUrl: server.url, model: 'm' },
      requestFor({ configuration }),
    );
    expect(chunks.join('')).toHaveLength(55);
    expect(chunks.at(-1)).toBe('55555');
  });

  it('never cuts a reply at its maximum length through the middle of an emoji', async () => {
    // 54 letters and an emoji (two UTF-16 units): unit 55 is the emoji's first half, which alone
    // could be neither stored (PostgreSQL refuses it in jsonb) nor sent.
    const server = await serve({ chunks: ['a'.repeat(54), '😀 and more'] });
    const configuration = configurationOf('guide');
    configuration.model.maxReplyLength = 55;
    const reply = (
      await collect({ baseUrl: server.url, model: 'm' }, requestFor({ configuration }))
    ).join('');
    expect(reply).toBe('a'.repeat(54));
    expect(isWellFormedText(reply)).toBe(true);
  });
});

// A business's own agent, as an account writes it: its knowledge in Portuguese only, a passage of
// one of its documents, its hours in its zone, and no answer beyond what it knows.
const CLINIC: AgentConfiguration = {
  ...fixture({
    knowledge: [
      {
        id: 'faq-1.pt-BR',
        language: 'pt-BR',
        title: 'Vocês atendem convênio?',
        content: 'Sim: atendemos Odontoprev, Amil Dental e Uniodonto.',
        keywords: [],
      },
      {
        id: 'doc-1-1.pt-BR',
        language: 'pt-BR',
        title: 'Cancelamento e faltas',
        content: 'Consultas podem ser desmarcadas sem custo até 24 horas antes.',
        keywords: [],
        source: 'Tabela 2026.pdf',
      },
    ],
    capabilities: { skills: ['dateTime'], fallback: 'notFound' },
  }),
  business: {
    name: 'Clínica Sorriso',
    timeZone: 'America/Sao_Paulo',
    hours: [{ day: 6, open: '08:00', close: '12:00' }],
    closedDates: [],
  },
};

describe('openai engine: an agent that answers only from what it knows', () => {
  // Saturday 5 December 2026, 11:30 in Curitiba.
  const now = () => new Date('2026-12-05T14:30:00Z');

  it('sends its knowledge, the document each passage comes from, its hours and the rule, asked in another language', async () => {
    const server = await serve({
      chunks: ['According to Tabela 2026.pdf, up to 24 hours before.'],
    });
    await collect(
      { baseUrl: server.url, model: 'm', now },
      requestFor({
        configuration: structuredClone(CLINIC),
        message: 'can I cancel my appointment?',
        language: 'en-US',
      }),
    );
    const system = (server.requests[0]!.body as SentBody).messages[0]!.content;
    expect(system).toContain('Always answer in English (en-US)');
    // Written in Portuguese, and given all the same.
    expect(system).toContain('### Cancelamento e faltas\nConsultas podem ser desmarcadas');
    expect(system).toContain('Document: Tabela 2026.pdf');
    expect(system).toContain('### Vocês atendem convênio?');
    expect(system).toContain('Business hours (time zone America/Sao_Paulo)');
    expect(system).toContain('- Saturday: 8:00 AM–12:00 PM');
    expect(system).toContain("We're open now, until 12:00 PM.");
    expect(system).toContain(`reply with exactly [HANDOFF] and nothing else`);
  });

  it('finds the passage an English question is about among more than it can send', async () => {
    const server = await serve({ chunks: ['Not our own, but the one next door.'] });
    // Passages enough to pass the knowledge budget, the one about parking last.
    const filler = Array.from({ length: 40 }, (_, i) => ({
      id: `doc-2-${i + 1}.pt-BR`,
      language: 'pt-BR' as const,
      title: `Procedimento ${i + 1}`,
      content: `Orientações do procedimento ${i + 1}: ${'jejum, repouso e retorno em sete dias. '.repeat(12)}`,
      keywords: [],
    }));
    const parking = {
      id: 'faq-9.pt-BR',
      language: 'pt-BR' as const,
      title: 'Tem estacionamento?',
      content: 'O Estacionamento Central, ao lado do prédio, dá 1 hora grátis.',
      keywords: [],
    };
    const configuration = { ...structuredClone(CLINIC), knowledge: [...filler, parking] };
    await collect(
      { baseUrl: server.url, model: 'm', now },
      requestFor({ configuration, message: 'is there parking nearby?', language: 'en-US' }),
    );
    const system = (server.requests[0]!.body as SentBody).messages[0]!.content;
    expect(system).not.toContain('### Procedimento 40');
    expect(system).toContain('### Tem estacionamento?\nO Estacionamento Central');
  });

  it('a reply of the mark, however it is split, is the honest "not found", and the caller is told', async () => {
    const server = await serve({ chunks: [' [HAND', 'OFF', ']'] });
    let unknown = 0;
    const chunks = await collect(
      { baseUrl: server.url, model: 'm', now },
      {
        ...requestFor({ configuration: structuredClone(CLINIC), message: 'vocês fazem lente?' }),
        onUnknown: () => (unknown += 1),
      },
    );
    expect(chunks.join('')).toBe('Não encontrei uma resposta para isso no que eu sei.');
    expect(unknown).toBe(1);
  });

  it('a reply that only starts like the mark is said whole, and nobody is told', async () => {
    for (const reply of [['[H', 'i] Olá!'], ['[HAND']]) {
      const server = await serve({ chunks: reply });
      let unknown = 0;
      const chunks = await collect(
        { baseUrl: server.url, model: 'm', now },
        {
          ...requestFor({ configuration: structuredClone(CLINIC) }),
          onUnknown: () => (unknown += 1),
        },
      );
      expect(chunks.join('')).toBe(reply.join(''));
      expect(unknown).toBe(0);
      await server.close();
    }
  });
});

describe('openai engine: every failure ends in an EngineFailure', () => {
  it('connection refused', async () => {
    const port = await closedPort();
    const { error } = await failure({ baseUrl: `http://127.0.0.1:${port}/v1` });
    expect(error.reason).toBe('connection');
    expect(error.message).toContain('ECONNREFUSED');
  });

  it.each<[number, string]>([
    [401, 'status-401'],
    [429, 'status-429'],
    [500, 'status-5xx'],
    [503, 'status-5xx'],
    [404, 'status-4xx'],
  ])('status %i → %s, with a short excerpt of the body for the log', async (status, reason) => {
    const errorBody = JSON.stringify({
      error: { message: `Incorrect API key provided: ${API_KEY}. ${'x'.repeat(2000)}` },
    });
    const server = await serve({ status, errorBody });
    const { error } = await failure({ baseUrl: server.url, apiKey: API_KEY });
    expect(error.reason).toBe(reason);
    expect(error.status).toBe(status);
    expect(error.detail).toContain('Incorrect API key provided');
    expect(error.detail).not.toContain(API_KEY);
    expect(error.detail!.length).toBeLessThanOrEqual(301);
  });

  it.each<[string, FakeOpenAIOptions, string]>([
    ['a data line that is not JSON', { rawEvents: ['this is not json'] }, 'malformed'],
    [
      'an event without choices',
      { rawEvents: ['{"id":"x","object":"chat.completion.chunk"}'] },
      'malformed',
    ],
    [
      'a stream cut off before [DONE]',
      { chunks: ['Half a', ' reply'], omitDone: true },
      'malformed',
    ],
    [
      'an error event in the stream',
      { rawEvents: ['{"error":{"message":"model overloaded"}}'] },
      'provider-error',
    ],
    ['a stream with no text', { chunks: [] }, 'empty'],
  ])('%s', async (_label, options, reason) => {
    const server = await serve(options);
    const { error } = await failure({ baseUrl: server.url });
    expect(error.reason).toBe(reason);
  });

  it('an answer over maxResponseBytes fails as too-large, streamed or not', async () => {
    const huge = 'x'.repeat(64 * 1024);
    let server = await serve({ json: true, chunks: [huge] });
    expect((await failure({ baseUrl: server.url, maxResponseBytes: 32 * 1024 })).error.reason).toBe(
      'too-large',
    );
    await server.close();
    // Events without text (usage, keep-alives) count too: they are bytes all the same.
    server = await serve({ rawEvents: Array.from({ length: 2000 }, () => '{"choices":[]}') });
    expect((await failure({ baseUrl: server.url, maxResponseBytes: 16 * 1024 })).error.reason).toBe(
      'too-large',
    );
    await server.close();
    // Under the bound, the same answer is read.
    server = await serve({ json: true, chunks: ['ok'] });
    expect(await collect({ baseUrl: server.url, maxResponseBytes: 1024 }, requestFor())).toEqual([
      'ok',
    ]);
  });

  it('keeps the key out of any excerpt, whatever part of the answer quotes it', async () => {
    const server = await serve({ rawEvents: [`not json, but the key: ${API_KEY}`] });
    const { error } = await failure({ baseUrl: server.url, apiKey: API_KEY });
    expect(error.reason).toBe('malformed');
    expect(error.detail).toBe('not json, but the key: [api key]');
  });

  it('a malformed event after some text still fails the whole reply', async () => {
    const good = JSON.stringify({
      choices: [{ index: 0, delta: { content: 'Hello' }, finish_reason: null }],
    });
    const server = await serve({ rawEvents: [good, '{not json'] });
    const { error, chunks } = await failure({ baseUrl: server.url });
    expect(chunks).toEqual(['Hello']);
    expect(error.reason).toBe('malformed');
    expect(error.detail).toBe('{not json');
  });

  it('fails with reason timeout when no first byte arrives within timeoutMs', async () => {
    const server = await serve({ hang: true });
    const received = server.nextRequest();
    useWatchdogClock();
    const outcome = failure({ baseUrl: server.url, timeoutMs: TIMEOUT_MS });
    await received; // sent, and the provider is silent
    vi.advanceTimersByTime(TIMEOUT_MS - 1);
    expect(await settledYet(outcome)).toBe(false);
    vi.advanceTimersByTime(1);
    const { error, chunks } = await outcome;
    expect(error.reason).toBe('timeout');
    expect(chunks).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });

  it('a stream that goes silent after it started fails with reason timeout, after what came', async () => {
    const server = await serve({ chunks: ['One', ' two', ' three'], stallAfterChunks: 1 });
    useWatchdogClock();
    const stream = replyFrom(server);
    expect(await stream.next()).toEqual({ done: false, value: 'One' });
    // Asking for more re-arms the watchdog: the silence counts from here.
    const next = stream.next();
    vi.advanceTimersByTime(TIMEOUT_MS - 1);
    expect(await settledYet(next)).toBe(false);
    vi.advanceTimersByTime(1);
    await expect(next).rejects.toMatchObject({ name: 'EngineFailure', reason: 'timeout' });
  });

  it('a slow but steady stream is not a timeout: the limit is on silence, not the whole reply', async () => {
    const gate = createGate();
    const server = await serve({
      chunks: ['a', 'b', 'c', 'd'],
      hold: { afterChunks: 1, until: gate.opened },
    });
    useWatchdogClock();
    const stream = replyFrom(server);
    const first = stream.next();
    vi.advanceTimersByTime(TIMEOUT_MS - 1); // before the first byte, just under the limit
    expect(await first).toEqual({ done: false, value: 'a' });
    const second = stream.next();
    vi.advanceTimersByTime(TIMEOUT_MS - 1); // held after 'a', just under the limit again
    gate.open();
    expect(await second).toEqual({ done: false, value: 'b' });
    expect(await stream.next()).toEqual({ done: false, value: 'c' });
    expect(await stream.next()).toEqual({ done: false, value: 'd' });
    expect(await stream.next()).toEqual({ done: true, value: undefined });
  });

  it('honours the request signal, mid-stream and before it starts', async () => {
    // Held after the first chunk, so nothing more can be on its way when the caller aborts.
    const server = await serve({
      chunks: ['tick ', 'tock '],
      hold: { afterChunks: 1, until: createGate().opened },
    });
    const controller = new AbortController();
    const engine = createOpenAIEngine({ baseUrl: server.url, timeoutMs: 5000 });
    const chunks: string[] = [];
    const run = (async () => {
      for await (const chunk of engine.reply(requestFor({ signal: controller.signal }))) {
        chunks.push(chunk);
        controller.abort();
      }
    })();
    await expect(run).rejects.toMatchObject({ name: 'EngineFailure', reason: 'aborted' });
    expect(chunks).toEqual(['tick ']);

    const { error } = await failure(
      { baseUrl: server.url },
      requestFor({ signal: AbortSignal.abort() }),
    );
    expect(error.reason).toBe('aborted');
    // Aborted before it started: nothing was sent.
    expect(server.requests).toHaveLength(1);
  });
});

/** A port on which nothing listens. */
async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe('pictures sent with the question', () => {
  const picture = (background: string, width = 40, height = 30) =>
    sharp({ create: { width, height, channels: 3, background } })
      .jpeg()
      .toBuffer();

  it('go after its text as image_url parts, the last MAX_IMAGES_PER_TURN of them, and the mark still hands over', async () => {
    const server = await serve({ chunks: ['[HANDOFF]'] });
    const images = await Promise.all(
      ['#111', '#222', '#333', '#444', '#555', '#666'].map(async (colour) => ({
        mimetype: 'image/jpeg',
        data: await picture(colour),
      })),
    );
    let unknown = false;
    const chunks = await collect(
      { baseUrl: server.url },
      {
        ...requestFor({ message: 'Vocês têm esse modelo?' }),
        images,
        onUnknown: () => (unknown = true),
      },
    );
    const [request] = server.requests;
    const { messages } = request!.body as { messages: { role: string; content: unknown }[] };
    const content = messages.at(-1)!.content as { type: string }[];
    expect(content[0]).toEqual({ type: 'text', text: 'Vocês têm esse modelo?' });
    expect(content.slice(1).every((part) => part.type === 'image_url')).toBe(true);
    expect(request!.images).toEqual(
      images
        .slice(-MAX_IMAGES_PER_TURN)
        .map(({ data }) => `data:image/jpeg;base64,${data.toString('base64')}`),
    );
    // An agent that answers only from what it knows still hands over on the mark.
    expect(unknown).toBe(true);
    expect(chunks.join('')).not.toContain('[HANDOFF]');
  });

  it('are scaled to VISION_MAX_SIDE, a transparent one kept as PNG; one that is no picture is left out', async () => {
    const server = await serve({ chunks: ['Ok.'] });
    const sticker = await sharp({
      create: {
        width: 2048,
        height: 1024,
        channels: 4,
        background: { r: 0, g: 0, b: 0, alpha: 0 },
      },
    })
      .webp()
      .toBuffer();
    await collect(
      { baseUrl: server.url },
      {
        ...requestFor({ message: '' }),
        images: [
          { mimetype: 'image/webp', data: sticker },
          { mimetype: 'image/jpeg', data: Buffer.from('not a picture') },
        ],
      },
    );
    const [url, ...others] = server.requests[0]!.images;
    expect(others).toEqual([]);
    expect(url).toMatch(/^data:image\/png;base64,/);
    const seen = await sharp(Buffer.from(url!.split(',')[1]!, 'base64')).metadata();
    expect([seen.width, seen.height, seen.hasAlpha]).toEqual([VISION_MAX_SIDE, 512, true]);
    // A picture without a caption: the picture alone.
    const { messages } = server.requests[0]!.body as { messages: { content: unknown }[] };
    expect((messages.at(-1)!.content as { type: string }[]).map((part) => part.type)).toEqual([
      'image_url',
    ]);
  });
});
