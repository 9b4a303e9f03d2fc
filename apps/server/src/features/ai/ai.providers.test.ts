import { afterEach, describe, expect, it } from 'vitest';
import { startFakeOpenAI, type FakeOpenAI } from '../../../test/fake-openai';
import { DEFAULT_HISTORY_BUDGET_CHARS, type EngineConfig, type EngineRequest } from './ai.service';
import {
  checkProvider,
  CHECK_REPLY_CHARS,
  createConfiguredEngine,
  createEngine,
  probeProvider,
} from './ai.providers';
import { configuration } from './ai.test-fixtures';

let fake: FakeOpenAI | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const request = (message = 'olá'): EngineRequest => ({
  agent: { name: 'guide', configuration: configuration({}) },
  message,
  language: 'pt-BR',
});

async function replyOf(engine: ReturnType<typeof createEngine>, message?: string): Promise<string> {
  let text = '';
  for await (const piece of engine.reply(request(message))) text += piece;
  return text;
}

describe('createEngine', () => {
  it('builds the engine AI_PROVIDER names', () => {
    expect(createEngine({ provider: 'builtin', timeoutMs: 1000 }).name).toBe('builtin');
    expect(
      createEngine({ provider: 'openai', baseUrl: 'http://127.0.0.1:1/v1', timeoutMs: 1000 }).name,
    ).toBe('openai');
  });

  it('refuses openai without a base URL', () => {
    expect(() => createEngine({ provider: 'openai', timeoutMs: 1000 })).toThrow(/AI_BASE_URL/);
  });
});

describe('createConfiguredEngine', () => {
  it('reads as much history as the provider in force reads: none for the builtin, the budget for a model', async () => {
    fake = await startFakeOpenAI({ chunks: ['ok'] });
    let current: EngineConfig = { provider: 'builtin', timeoutMs: 1000 };
    const engine = createConfiguredEngine({ config: async () => current });
    const read: number[] = [];
    const withHistory = (): EngineRequest => ({
      ...request(),
      history: async (budgetChars) => {
        read.push(budgetChars);
        return [];
      },
    });
    const drain = async () => {
      for await (const piece of engine.reply(withHistory())) void piece;
    };
    await drain();
    expect(read).toEqual([]);
    current = { provider: 'openai', baseUrl: fake.url, model: 'm1', timeoutMs: 1000 };
    await drain();
    expect(read).toEqual([DEFAULT_HISTORY_BUDGET_CHARS]);
    current = { provider: 'builtin', timeoutMs: 1000 };
    await drain();
    expect(read).toEqual([DEFAULT_HISTORY_BUDGET_CHARS]);
  });

  it('answers each reply with the provider in force at that moment', async () => {
    fake = await startFakeOpenAI({ chunks: ['from', ' the model'] });
    let current: EngineConfig = { provider: 'builtin', timeoutMs: 1000 };
    const engine = createConfiguredEngine({ config: async () => current });

    expect(await replyOf(engine)).not.toBe('from the model');
    expect(engine.name).toBe('builtin');
    expect(fake.requests).toHaveLength(0);

    current = {
      provider: 'openai',
      baseUrl: fake.url,
      model: 'm1',
      apiKey: 'sk-1',
      timeoutMs: 1000,
    };
    expect(await replyOf(engine)).toBe('from the model');
    expect(engine.name).toBe('openai');
    expect(fake.requests.at(-1)!.headers.authorization).toBe('Bearer sk-1');

    current = { ...current, model: 'm2', apiKey: 'sk-2' };
    await replyOf(engine);
    expect(fake.requests.at(-1)!.headers.authorization).toBe('Bearer sk-2');
    expect((fake.requests.at(-1)!.body as { model: string }).model).toBe('m2');

    current = { provider: 'builtin', timeoutMs: 1000 };
    await replyOf(engine);
    expect(fake.requests).toHaveLength(2);
  });
});

describe('checkProvider', () => {
  it('gets one short completion and its latency', async () => {
    fake = await startFakeOpenAI({ chunks: ['x'.repeat(500)] });
    const result = await checkProvider(
      { provider: 'openai', baseUrl: fake.url, model: 'm', timeoutMs: 2000 },
      { language: 'en-US' },
    );
    expect(result).toEqual({
      ok: true,
      latencyMs: expect.any(Number),
      reply: 'x'.repeat(CHECK_REPLY_CHARS),
    });
  });

  it('answers ok with the builtin engine', async () => {
    const result = await checkProvider(
      { provider: 'builtin', timeoutMs: 2000 },
      { language: 'es-ES' },
    );
    expect(result.ok).toBe(true);
  });

  it('turns a failure into its reason and status', async () => {
    fake = await startFakeOpenAI({ status: 404 });
    const result = await checkProvider(
      { provider: 'openai', baseUrl: fake.url, model: 'm', timeoutMs: 2000 },
      { language: 'en-US' },
    );
    expect(result).toEqual({
      ok: false,
      latencyMs: expect.any(Number),
      reason: 'status-4xx',
      status: 404,
    });
  });
});

describe('an address that redirects', () => {
  let target: FakeOpenAI | undefined;
  afterEach(async () => {
    await target?.close();
    target = undefined;
  });

  /** A provider answering `status` with a Location pointing at another server, which must hear nothing. */
  async function redirecting(status: number) {
    target = await startFakeOpenAI({ chunks: ['followed'] });
    fake = await startFakeOpenAI({ status, headers: { location: `${target.url}/models` } });
    return {
      provider: 'openai' as const,
      baseUrl: fake.url,
      apiKey: 'sk-redirect-test',
      model: 'm',
      timeoutMs: 2000,
    };
  }

  it.each([301, 302, 303, 307, 308])(
    "is not followed (%i): the test and the monitor's check say so, and nothing reaches where it points",
    async (status) => {
      const config = await redirecting(status);
      expect(await checkProvider(config, { language: 'en-US' })).toEqual({
        ok: false,
        latencyMs: expect.any(Number),
        reason: 'redirect',
        status,
      });
      expect(await probeProvider(config, { timeoutMs: 2000 })).toEqual({
        ok: false,
        latencyMs: expect.any(Number),
        reason: 'redirect',
        status,
      });
      expect(target!.requests).toHaveLength(0);
      expect(fake!.requests).toHaveLength(2);
    },
  );

  it('fails a real reply as a redirect, without following it', async () => {
    const engine = createEngine(await redirecting(307));
    await expect(replyOf(engine)).rejects.toMatchObject({
      name: 'EngineFailure',
      reason: 'redirect',
      status: 307,
    });
    expect(target!.requests).toHaveLength(0);
  });
});
