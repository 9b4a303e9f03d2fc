import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type {
  AiSettings,
  AiSettingsInput,
  AiTestResponse,
  Language,
  SendMessageResponse,
} from '@contrateia/shared';
import type { Database } from '@/db/client';
import { createSecretBox } from '@/lib/secrets';
import {
  createTestApp,
  createTestDatabase,
  createTwoInstances,
  type TestContext,
} from '../../../test/helpers';
import { eventually } from '../../../test/eventually';
import { startFakeOpenAI, type FakeOpenAI } from '../../../test/fake-openai';
import { get, message, post, registerAndLogin, UNLIMITED_ROUTES } from '../../../test/factories';
import { voiceNote } from '../../../test/media';
import { freePort } from '../../../test/ports';
import { listAudit } from '@/features/audit/audit.service';
import { appSettings } from '@/features/settings/settings.table';

type Account = Awaited<ReturnType<typeof registerAndLogin>>;

const BUILTIN: AiSettingsInput = { provider: 'builtin', baseUrl: '', model: '', timeoutMs: 60_000 };
/** A key no other text of the app or the fake server holds: found anywhere, it leaked. */
const SECRET_KEY = 'sk-test-9f8e7d6c5b4a-SECRET';
const OTHER_KEY = 'sk-test-0a1b2c3d-OTHER';

const openai = (ai: FakeOpenAI, changes: Partial<AiSettingsInput> = {}): AiSettingsInput => ({
  provider: 'openai',
  baseUrl: ai.url,
  model: 'fake-model-1',
  timeoutMs: 5_000,
  ...changes,
});

/** Sends a chat message (guia, hired by every new account) and answers the reply's text. */
async function chat(ctx: TestContext, account: Account, text = 'olá'): Promise<string> {
  const res = await post(
    ctx,
    '/api/chat/message',
    { message: text, agentName: 'guia' },
    { token: account.token },
  );
  expect(res.statusCode, res.body).toBe(200);
  return res.json<SendMessageResponse>().message.text;
}

/**
 * The completions a fake provider received: the replies and tests. Not the monitor's checks
 * (GET /models, with the key in force, on every instance whenever the provider or key changes),
 * which may come at any moment.
 */
const completions = (ai: FakeOpenAI) =>
  ai.requests.filter((request) => request.path.endsWith('/chat/completions'));
const authorizationOf = (ai: FakeOpenAI) => completions(ai).at(-1)?.headers.authorization;

describe('the language model in the admin panel, on two instances', () => {
  let instances: Awaited<ReturnType<typeof createTwoInstances>>;
  let database: Database;
  let a: TestContext;
  let b: TestContext;
  let admin: Account;
  let ai: FakeOpenAI;

  beforeAll(async () => {
    ai = await startFakeOpenAI({ chunks: ['Hello', ' from', ' the fake model.'] });
    // No AI_* variables: the builtin engine, until an admin saves another provider.
    instances = await createTwoInstances({
      limits: {
        routes: UNLIMITED_ROUTES,
        chat: { points: 1000, durationSeconds: 60 },
        aiTestsPerMinute: 1000,
      },
    });
    ({ a, b, database } = instances);
    admin = await registerAndLogin(a, { name: 'Ana Admin' });
  });

  afterAll(async () => {
    await instances?.close();
    await ai?.close();
  });

  const save = (ctx: TestContext, input: unknown, language?: Language) =>
    post(ctx, '/api/admin/ai', input, { token: admin.token, language });
  const test = (ctx: TestContext, input: unknown, language?: Language) =>
    post(ctx, '/api/admin/ai/test', input, { token: admin.token, language });
  const settingsOn = async (ctx: TestContext) =>
    (await get(ctx, '/api/admin/ai', { token: admin.token })).json<AiSettings>();
  const audits = () => listAudit({ db: database.db, limit: 1000, offset: 0 });
  const storedRow = async () =>
    (await database.db.select().from(appSettings).where(eq(appSettings.section, 'ai')))[0];
  /** Every log line of both instances, and the audit, as one text to search for the key. */
  const everythingLogged = async () =>
    [...a.logs, ...b.logs, JSON.stringify(await audits())].join('\n');

  it("answers the environment's provider (builtin here) until an admin saves one, and replies come from it", async () => {
    expect(await settingsOn(b)).toEqual({
      provider: 'builtin',
      baseUrl: '',
      model: '',
      apiKeySet: false,
      timeoutMs: 60_000,
      transcriptionModel: '',
      vision: false,
    });
    expect(await storedRow()).toBeUndefined();
    const before = completions(ai).length;
    expect(await chat(b, admin)).not.toBe('');
    expect(completions(ai)).toHaveLength(before);
  });

  it('switches builtin → openai through A: the next reply on B comes from the provider, with the key; the key is never answered', async () => {
    const saved = await save(a, openai(ai, { apiKey: SECRET_KEY }));
    expect(saved.statusCode, saved.body).toBe(200);
    const expected: AiSettings = {
      provider: 'openai',
      baseUrl: ai.url,
      model: 'fake-model-1',
      apiKeySet: true,
      timeoutMs: 5_000,
      transcriptionModel: '',
      vision: false,
    };
    expect(saved.json()).toEqual(expected);
    expect(saved.body).not.toContain(SECRET_KEY);

    // In force on the other instance at once (within the 2 s the issue allows for settings).
    await eventually(
      async () => (await settingsOn(b)).provider === 'openai',
      'B has the new provider',
      2_000,
    );
    const onB = await get(b, '/api/admin/ai', { token: admin.token });
    expect(onB.json()).toEqual(expected);
    expect(onB.body).not.toContain(SECRET_KEY);

    const sent = completions(ai).length;
    expect(await chat(b, admin, 'quem é você?')).toBe('Hello from the fake model.');
    expect(completions(ai)).toHaveLength(sent + 1);
    const request = completions(ai).at(-1)!;
    expect(request.path).toBe('/v1/chat/completions');
    expect(request.headers.authorization).toBe(`Bearer ${SECRET_KEY}`);
    expect(request.body).toMatchObject({
      model: 'fake-model-1',
      messages: expect.arrayContaining([{ role: 'user', content: 'quem é você?' }]),
    });
    // And on A, where it was saved.
    expect(await chat(a, admin)).toBe('Hello from the fake model.');

    // Stored sealed: the row does not hold the key in the clear.
    expect(JSON.stringify((await storedRow())!.value)).not.toContain(SECRET_KEY);
  });

  it('records ai.update with the fields changed, the key only as set or not', async () => {
    const [entry] = await audits();
    expect(entry).toMatchObject({
      actorId: admin.user.id,
      action: 'ai.update',
      target: 'ai',
      changes: {
        provider: { before: 'builtin', after: 'openai' },
        baseUrl: { before: '', after: ai.url },
        model: { before: '', after: 'fake-model-1' },
        timeoutMs: { before: 60_000, after: 5_000 },
        apiKey: { before: '(not set)', after: '(set)' },
      },
    });
    expect(entry!.ip).toBeTruthy();
  });

  it('keeps the key when the form sends none, replaces it, and removes it with an empty one', async () => {
    const count = (await audits()).length;
    // Only the model changes: the key is kept and the audit says nothing of it.
    expect(
      (await save(a, openai(ai, { model: 'fake-model-2' }))).json<AiSettings>().apiKeySet,
    ).toBe(true);
    let [entry] = await audits();
    expect(entry!.changes).toEqual({ model: { before: 'fake-model-1', after: 'fake-model-2' } });
    await eventually(
      async () => (await settingsOn(b)).model === 'fake-model-2',
      'B has the new model',
      2_000,
    );
    await chat(b, admin);
    expect(authorizationOf(ai)).toBe(`Bearer ${SECRET_KEY}`);
    expect((completions(ai).at(-1)!.body as { model: string }).model).toBe('fake-model-2');

    // The same values again: nothing changed, nothing recorded.
    await save(a, openai(ai, { model: 'fake-model-2' }));
    await save(a, openai(ai, { model: 'fake-model-2', apiKey: SECRET_KEY }));
    expect(await audits()).toHaveLength(count + 1);

    await save(a, openai(ai, { model: 'fake-model-2', apiKey: OTHER_KEY }));
    [entry] = await audits();
    expect(entry!.changes).toEqual({ apiKey: { before: '(set)', after: '(replaced)' } });
    await eventually(
      async () => {
        await chat(b, admin);
        return authorizationOf(ai) === `Bearer ${OTHER_KEY}`;
      },
      'B sends the new key',
      2_000,
    );

    const removed = await save(a, openai(ai, { model: 'fake-model-2', apiKey: '' }));
    expect(removed.json<AiSettings>().apiKeySet).toBe(false);
    [entry] = await audits();
    expect(entry!.changes).toEqual({ apiKey: { before: '(set)', after: '(not set)' } });
    await eventually(async () => !(await settingsOn(b)).apiKeySet, 'B has no key', 2_000);
    await chat(b, admin);
    expect(authorizationOf(ai)).toBeUndefined();

    // Set again, for the tests below.
    await save(a, openai(ai, { model: 'fake-model-2', apiKey: SECRET_KEY }));
    expect((await audits())[0]!.changes).toEqual({
      apiKey: { before: '(not set)', after: '(set)' },
    });
  });

  it('saves a transcription model and vision through A, audited; B hears voice notes with that model at once, with the key', async () => {
    const saved = await save(
      a,
      openai(ai, { model: 'fake-model-2', transcriptionModel: ' whisper-1 ', vision: true }),
    );
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json<AiSettings>()).toMatchObject({
      transcriptionModel: 'whisper-1',
      vision: true,
    });
    expect((await audits())[0]).toMatchObject({
      action: 'ai.update',
      changes: {
        transcriptionModel: { before: '', after: 'whisper-1' },
        vision: { before: false, after: true },
      },
    });
    await eventually(
      async () => (await settingsOn(b)).transcriptionModel === 'whisper-1',
      'B has the transcription model',
      2_000,
    );
    expect(await b.app.ai.media.abilities()).toEqual({ transcribe: true, vision: true });
    const audio = voiceNote();
    const asked = ai.nextRequest();
    expect(
      await b.app.ai.media.transcribe({
        audio: { mimetype: 'audio/ogg; codecs=opus', data: audio },
      }),
    ).toBe('Hello from the fake transcription.');
    const request = await asked;
    expect(request.path).toBe('/v1/audio/transcriptions');
    expect(request.headers.authorization).toBe(`Bearer ${SECRET_KEY}`);
    expect(request.multipart!.fields).toMatchObject({ model: 'whisper-1' });
    const [file] = request.multipart!.files;
    expect(file).toMatchObject({ field: 'file', filename: 'audio.ogg', mimeType: 'audio/ogg' });
    expect(file!.data.equals(audio)).toBe(true);

    // A save that leaves them out keeps them (an older page does not turn them off).
    expect((await save(a, openai(ai, { model: 'fake-model-2' }))).json<AiSettings>()).toMatchObject(
      { transcriptionModel: 'whisper-1', vision: true },
    );
    // The builtin engine neither hears nor sees: kept, not used.
    await save(a, BUILTIN);
    await eventually(
      async () => (await settingsOn(b)).provider === 'builtin',
      'B has builtin',
      2_000,
    );
    expect(await settingsOn(b)).toMatchObject({ transcriptionModel: 'whisper-1', vision: true });
    expect(await b.app.ai.media.abilities()).toEqual({ transcribe: false, vision: false });
    const before = ai.requests.length;
    expect(
      await b.app.ai.media.transcribe({ audio: { mimetype: 'audio/ogg', data: audio } }),
    ).toBeUndefined();
    expect(
      ai.requests.slice(before).filter((r) => r.path.endsWith('/audio/transcriptions')),
    ).toEqual([]);

    // Cleared, for the tests below.
    await save(a, openai(ai, { model: 'fake-model-2', transcriptionModel: '', vision: false }));
    await eventually(
      async () => (await settingsOn(b)).transcriptionModel === '',
      'B has no transcription model',
      2_000,
    );
    expect(await b.app.ai.media.abilities()).toEqual({ transcribe: false, vision: false });
  });

  it('never shows the AI settings in the public or the other admin settings', async () => {
    const everyone = await get(b, '/api/settings/public');
    const settings = await get(b, '/api/admin/settings', { token: admin.token });
    for (const res of [everyone, settings]) {
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toContain(ai.url);
      expect(res.body).not.toContain('fake-model');
      expect(res.body).not.toContain(SECRET_KEY);
    }
  });

  describe('Test connection', () => {
    it('gets a real one-line completion from the provider, with its latency, and saves nothing', async () => {
      const before = {
        settings: await settingsOn(a),
        audits: (await audits()).length,
        row: await storedRow(),
      };
      ai.setOptions({ chunks: ['Conexão', ' funcionando!'] });
      const sent = completions(ai).length;
      const res = await test(a, openai(ai, { model: 'other-model', apiKey: OTHER_KEY }), 'pt-BR');
      expect(res.statusCode, res.body).toBe(200);
      const result = res.json<AiTestResponse>();
      expect(result).toEqual({
        ok: true,
        latencyMs: expect.any(Number),
        reply: 'Conexão funcionando!',
      });
      expect(result.latencyMs).toBeGreaterThanOrEqual(0);
      expect(completions(ai)).toHaveLength(sent + 1);
      const request = completions(ai).at(-1)!;
      expect(request.headers.authorization).toBe(`Bearer ${OTHER_KEY}`);
      expect(request.body).toMatchObject({
        model: 'other-model',
        messages: expect.arrayContaining([
          { role: 'user', content: message('pt-BR', 'aiProvider.testPrompt') },
        ]),
      });
      // A one-line test asks for a short answer.
      expect((request.body as { max_tokens: number }).max_tokens).toBeLessThanOrEqual(50);

      expect(await settingsOn(a)).toEqual(before.settings);
      expect(await audits()).toHaveLength(before.audits);
      expect(await storedRow()).toEqual(before.row);
      ai.setOptions({});
    });

    it('with a transcription model, has it hear half a second of silence too, and says why when it fails', async () => {
      const heard = () => ai.requests.filter((r) => r.path.endsWith('/audio/transcriptions'));
      const before = heard().length;
      ai.setOptions({ chunks: ['Ok.'], transcription: { text: '' } });
      const input = openai(ai, { apiKey: OTHER_KEY, transcriptionModel: 'fake-whisper' });
      const res = await test(a, input, 'pt-BR');
      expect(res.json<AiTestResponse>()).toEqual({
        ok: true,
        latencyMs: expect.any(Number),
        reply: 'Ok.',
        transcription: { ok: true, latencyMs: expect.any(Number) },
      });
      const [asked, ...more] = heard().slice(before);
      expect(more).toEqual([]);
      expect(asked!.headers.authorization).toBe(`Bearer ${OTHER_KEY}`);
      expect(asked!.multipart!.fields).toMatchObject({ model: 'fake-whisper' });
      const [file] = asked!.multipart!.files;
      expect(file).toMatchObject({ filename: 'audio.wav', mimeType: 'audio/wav' });
      expect(file!.data.subarray(0, 4).toString()).toBe('RIFF');

      // A provider without that model: the chat works, the transcription says why not.
      ai.setOptions({ chunks: ['Ok.'], transcription: { status: 404, errorBody: '{}' } });
      const failed = (await test(a, input, 'pt-BR')).json<AiTestResponse>();
      expect(failed).toEqual({
        ok: true,
        latencyMs: expect.any(Number),
        reply: 'Ok.',
        transcription: {
          ok: false,
          latencyMs: expect.any(Number),
          error: message('pt-BR', 'aiProvider.notFound'),
        },
      });
      // Without a transcription model, none is asked.
      const without = (await test(a, openai(ai, { apiKey: OTHER_KEY }))).json<AiTestResponse>();
      expect(without.transcription).toBeUndefined();
      expect(heard()).toHaveLength(before + 2);
      ai.setOptions({});
    });

    it('uses the saved key when the form sends none, and none when it sends an empty one', async () => {
      await test(a, openai(ai));
      expect(authorizationOf(ai)).toBe(`Bearer ${SECRET_KEY}`);
      await test(a, openai(ai, { apiKey: '' }));
      expect(authorizationOf(ai)).toBeUndefined();
    });

    it('answers ok for the builtin engine, with its own reply', async () => {
      const res = await test(b, BUILTIN, 'en-US');
      expect(res.statusCode).toBe(200);
      const result = res.json<AiTestResponse>();
      // The builtin engine greets back, in the admin's language.
      expect(result).toEqual({
        ok: true,
        latencyMs: expect.any(Number),
        reply: expect.stringMatching(/^Hello!/),
      });
    });

    it.each<
      [
        string,
        Parameters<FakeOpenAI['setOptions']>[0],
        Language,
        string,
        Record<string, string | number>?,
      ]
    >([
      [
        'a wrong key (401)',
        {
          status: 401,
          errorBody: `{"error":{"message":"Incorrect API key provided: ${SECRET_KEY}"}}`,
        },
        'pt-BR',
        'aiProvider.badKey',
      ],
      [
        'an unknown model (404)',
        { status: 404, errorBody: '{"error":{"message":"The model does not exist"}}' },
        'es-ES',
        'aiProvider.notFound',
      ],
      ['a refusal (403)', { status: 403 }, 'en-US', 'aiProvider.refused', { status: 403 }],
      ['a limit (429)', { status: 429 }, 'en-US', 'aiProvider.rateLimited'],
      [
        'a server error (500)',
        { status: 500, errorBody: '<html>Internal error at /srv/secret/path</html>' },
        'en-US',
        'aiProvider.serverError',
        { status: 500 },
      ],
      ['a stream that is not JSON', { rawEvents: ['not json'] }, 'en-US', 'aiProvider.malformed'],
      [
        'a web page instead of the API',
        {
          raw: {
            contentType: 'text/html',
            body: '<!doctype html><title>Router admin</title><p>internal page</p>',
          },
        },
        'pt-BR',
        'aiProvider.malformed',
      ],
      [
        'a JSON answer that is not a completion',
        { raw: { contentType: 'application/json', body: '{"hello":"world"}' } },
        'en-US',
        'aiProvider.malformed',
      ],
      [
        'an error event in the stream',
        { rawEvents: ['{"error":{"message":"overloaded"}}'] },
        'en-US',
        'aiProvider.providerError',
      ],
      [
        'an answer over 256 KB',
        {
          raw: {
            contentType: 'application/json',
            body: `{"choices":[{"message":{"content":"${'x'.repeat(300_000)}"}}]}`,
          },
        },
        'en-US',
        'aiProvider.tooLarge',
      ],
    ])(
      "explains %s in the admin's language, with no text of the provider's own",
      async (_label, options, language, key, params) => {
        ai.setOptions(options);
        try {
          const res = await test(a, openai(ai), language);
          expect(res.statusCode).toBe(200);
          expect(res.json()).toEqual({
            ok: false,
            latencyMs: expect.any(Number),
            error: message(language, key, params),
          });
          expect(res.body).not.toContain(SECRET_KEY);
          expect(res.body).not.toMatch(
            /secret\/path|internal page|Router admin|overloaded|does not exist/,
          );
        } finally {
          ai.setOptions({});
        }
      },
    );

    it('says an address that does not answer is unreachable', async () => {
      // Another address: the saved key stays with its own, so this test is given one.
      const res = await test(
        a,
        openai(ai, { baseUrl: `http://127.0.0.1:${await freePort()}/v1`, apiKey: OTHER_KEY }),
        'en-US',
      );
      expect(res.json()).toEqual({
        ok: false,
        latencyMs: expect.any(Number),
        error: message('en-US', 'aiProvider.unreachable'),
      });
    });

    it('gives up after the timeout when the provider is silent', async () => {
      ai.setOptions({ hang: true });
      try {
        const res = await test(a, openai(ai, { timeoutMs: 1_000 }), 'pt-BR');
        const result = res.json<AiTestResponse>();
        expect(result).toEqual({
          ok: false,
          latencyMs: expect.any(Number),
          error: message('pt-BR', 'aiProvider.timeout', { seconds: '1' }),
        });
        expect(result.latencyMs).toBeGreaterThanOrEqual(900);
        expect(result.latencyMs).toBeLessThan(5_000);
      } finally {
        ai.setOptions({});
      }
    });

    it('gives up after the timeout in all when the provider trickles a character at a time', async () => {
      // Never silent for long enough to trip the silence watchdog: only the test's own deadline ends it.
      ai.setOptions({ chunks: Array.from({ length: 100 }, () => '.'), delayMs: 100 });
      try {
        const res = await test(a, openai(ai, { timeoutMs: 1_500 }), 'es-ES');
        const result = res.json<AiTestResponse>();
        expect(result).toEqual({
          ok: false,
          latencyMs: expect.any(Number),
          error: message('es-ES', 'aiProvider.timeout', { seconds: '1,5' }),
        });
        expect(result.latencyMs).toBeLessThan(5_000);
      } finally {
        ai.setOptions({});
      }
    });

    it('cuts a long reply to 200 characters', async () => {
      ai.setOptions({ chunks: ['word '.repeat(100)] });
      try {
        const result = (await test(a, openai(ai))).json<AiTestResponse>();
        expect(result.ok).toBe(true);
        expect(result.reply!.length).toBeLessThanOrEqual(200);
      } finally {
        ai.setOptions({});
      }
    });
  });

  describe('bad input', () => {
    const invalid: [string, Record<string, unknown>, string, string][] = [
      [
        'an ftp address',
        { baseUrl: 'ftp://example.com/v1' },
        'baseUrl',
        'adminValidation.baseUrlInvalid',
      ],
      [
        'a file: URL',
        { baseUrl: 'file:///etc/passwd' },
        'baseUrl',
        'adminValidation.baseUrlInvalid',
      ],
      [
        'a javascript: URL',
        { baseUrl: 'javascript:alert(1)' },
        'baseUrl',
        'adminValidation.baseUrlInvalid',
      ],
      [
        'a URL with a user and password',
        { baseUrl: 'http://user:pass@127.0.0.1/v1' },
        'baseUrl',
        'adminValidation.baseUrlInvalid',
      ],
      [
        'a URL with a query',
        { baseUrl: 'http://127.0.0.1/v1?redirect=/admin' },
        'baseUrl',
        'adminValidation.baseUrlInvalid',
      ],
      [
        'a URL with a line break',
        { baseUrl: 'http://127.0.0.1/v1\nHost: evil' },
        'baseUrl',
        'adminValidation.baseUrlInvalid',
      ],
      ['not a URL', { baseUrl: 'localhost' }, 'baseUrl', 'adminValidation.baseUrlInvalid'],
      [
        'a huge URL',
        { baseUrl: `http://example.com/${'x'.repeat(600)}` },
        'baseUrl',
        'adminValidation.baseUrlInvalid',
      ],
      ['no base URL for openai', { baseUrl: '' }, 'baseUrl', 'adminValidation.baseUrlRequired'],
      ['no model for openai', { model: '  ' }, 'model', 'adminValidation.aiModelRequired'],
      ['a huge model name', { model: 'm'.repeat(201) }, 'model', 'adminValidation.aiModelInvalid'],
      ['a huge key', { apiKey: 'k'.repeat(501) }, 'apiKey', 'adminValidation.apiKeyTooLong'],
      ['a key with a space', { apiKey: 'sk-abc def' }, 'apiKey', 'adminValidation.apiKeyInvalid'],
      [
        'a key with a line break',
        { apiKey: 'sk-abc\r\nX-Injected: 1' },
        'apiKey',
        'adminValidation.apiKeyInvalid',
      ],
      ['a key with accents', { apiKey: 'sk-ação' }, 'apiKey', 'adminValidation.apiKeyInvalid'],
      [
        'an unknown provider',
        { provider: 'anthropic' },
        'provider',
        'adminValidation.aiProviderInvalid',
      ],
      [
        'a timeout under a second',
        { timeoutMs: 999 },
        'timeoutMs',
        'adminValidation.aiTimeoutRange',
      ],
      [
        'a timeout over ten minutes',
        { timeoutMs: 600_001 },
        'timeoutMs',
        'adminValidation.aiTimeoutRange',
      ],
      [
        'a timeout with a fraction',
        { timeoutMs: 1500.5 },
        'timeoutMs',
        'adminValidation.aiTimeoutRange',
      ],
      ['a timeout as text', { timeoutMs: '5000' }, 'timeoutMs', 'adminValidation.aiTimeoutRange'],
      [
        'a transcription model with a space',
        { transcriptionModel: 'whisper 1' },
        'transcriptionModel',
        'adminValidation.aiTranscriptionModelInvalid',
      ],
      [
        'a transcription model with a line break and a header',
        { transcriptionModel: 'whisper-1\r\nContent-Disposition: form-data; name="x"' },
        'transcriptionModel',
        'adminValidation.aiTranscriptionModelInvalid',
      ],
      [
        'a transcription model with markup',
        { transcriptionModel: '<img src=x onerror=alert(1)>' },
        'transcriptionModel',
        'adminValidation.aiTranscriptionModelInvalid',
      ],
      [
        'a huge transcription model',
        { transcriptionModel: 'w'.repeat(201) },
        'transcriptionModel',
        'adminValidation.aiTranscriptionModelInvalid',
      ],
      [
        'a transcription model as a number',
        { transcriptionModel: 7 },
        'transcriptionModel',
        'adminValidation.aiTranscriptionModelInvalid',
      ],
      ['vision as text', { vision: 'yes' }, 'vision', 'adminValidation.aiVisionInvalid'],
      ['vision as a number', { vision: 1 }, 'vision', 'adminValidation.aiVisionInvalid'],
      [
        'a missing timeout',
        { timeoutMs: undefined },
        'timeoutMs',
        'adminValidation.aiTimeoutRange',
      ],
    ];

    it.each(['/api/admin/ai', '/api/admin/ai/test'])(
      "%s refuses each with 400 and the field named in the caller's language, changing nothing",
      async (url) => {
        const before = {
          settings: await settingsOn(a),
          audits: (await audits()).length,
          requests: completions(ai).length,
        };
        for (const [label, change, field, key] of invalid) {
          for (const language of ['pt-BR', 'es-ES'] as const) {
            const res = await post(
              a,
              url,
              { ...openai(ai), ...change },
              { token: admin.token, language },
            );
            expect(res.statusCode, label).toBe(400);
            expect(res.json(), label).toEqual({
              success: false,
              message: message(language, 'errors.validation'),
              errors: { [field]: message(language, key) },
            });
          }
        }
        expect(await settingsOn(a)).toEqual(before.settings);
        expect(await audits()).toHaveLength(before.audits);
        // Nothing went out to any provider.
        expect(completions(ai)).toHaveLength(before.requests);
      },
    );

    it('refuses an unknown field, a missing body and a body over 1 MB', async () => {
      expect((await save(a, { ...BUILTIN, proxy: 'http://evil' })).statusCode).toBe(400);
      const missing = await a.app.inject({
        method: 'POST',
        url: '/api/admin/ai',
        headers: { authorization: `Bearer ${admin.token}` },
      });
      expect(missing.statusCode).toBe(400);
      expect(missing.json()).toMatchObject({ success: false });
      const huge = await save(a, { ...BUILTIN, apiKey: 'k'.repeat(1024 * 1024 + 1) });
      expect(huge.statusCode).toBe(413);
    });

    it('keeps a key with a pasted space around it, without the space', async () => {
      await save(a, openai(ai, { apiKey: `  ${SECRET_KEY}\n` }));
      await test(a, openai(ai));
      expect(authorizationOf(ai)).toBe(`Bearer ${SECRET_KEY}`);
    });
  });

  it('switches back to builtin: the next reply on B no longer reaches the provider', async () => {
    await save(a, BUILTIN);
    await eventually(
      async () => (await settingsOn(b)).provider === 'builtin',
      'B has builtin again',
      2_000,
    );
    const before = completions(ai).length;
    const reply = await chat(b, admin);
    expect(reply).not.toBe('Hello from the fake model.');
    expect(completions(ai)).toHaveLength(before);
    // The key is kept for when the provider is chosen again.
    expect(await settingsOn(b)).toMatchObject({ provider: 'builtin', apiKeySet: true });
  });

  it('never wrote the key to a log line or the audit', async () => {
    // Provoke the paths that log: a provider failure in a chat (its body quoting the key) and a failed test.
    await save(a, openai(ai));
    await eventually(
      async () => (await settingsOn(b)).provider === 'openai',
      'B has the provider',
      2_000,
    );
    ai.setOptions({ status: 401, errorBody: `{"error":"bad key ${SECRET_KEY}"}` });
    try {
      expect(
        (
          await post(
            b,
            '/api/chat/message',
            { message: 'oi', agentName: 'guia' },
            { token: admin.token },
          )
        ).statusCode,
      ).toBe(502);
      expect((await test(a, openai(ai))).json<AiTestResponse>().ok).toBe(false);
    } finally {
      ai.setOptions({});
    }
    const logged = await everythingLogged();
    expect(logged).toContain('AI connection test failed');
    expect(logged).toContain('agent engine failed');
    expect(logged).not.toContain(SECRET_KEY);
    expect(logged).not.toContain(OTHER_KEY);
  });
});

describe('the saved key goes only to the address it was saved with, on two instances', () => {
  let instances: Awaited<ReturnType<typeof createTwoInstances>>;
  let a: TestContext;
  let b: TestContext;
  let admin: Account;
  /** Where the key was saved for. */
  let ai: FakeOpenAI;
  /** Another address, as an attacker's echo server would be: nothing may reach it with the saved key. */
  let echo: FakeOpenAI;

  beforeAll(async () => {
    ai = await startFakeOpenAI({ chunks: ['Saved', ' address.'] });
    echo = await startFakeOpenAI({ chunks: ['Echo.'] });
    instances = await createTwoInstances({
      limits: {
        routes: UNLIMITED_ROUTES,
        chat: { points: 1000, durationSeconds: 60 },
        aiTestsPerMinute: 1000,
      },
    });
    ({ a, b } = instances);
    admin = await registerAndLogin(a, { name: 'Bia Admin' });
  });

  afterAll(async () => {
    await instances?.close();
    await ai?.close();
    await echo?.close();
  });

  const save = (ctx: TestContext, input: unknown, language?: Language) =>
    post(ctx, '/api/admin/ai', input, { token: admin.token, language });
  const test = (ctx: TestContext, input: unknown, language?: Language) =>
    post(ctx, '/api/admin/ai/test', input, { token: admin.token, language });
  const settingsOn = async (ctx: TestContext) =>
    (await get(ctx, '/api/admin/ai', { token: admin.token })).json<AiSettings>();
  const retype = (language: Language) => ({
    success: false,
    message: message(language, 'adminValidation.apiKeyRetype'),
    errors: { apiKey: message(language, 'adminValidation.apiKeyRetype') },
  });
  /** Every address that is not the saved one, however close: another host, port, scheme or path. */
  const otherAddresses = () => {
    const saved = new URL(ai.url);
    return [
      echo.url,
      ai.url.replace('127.0.0.1', 'localhost'),
      ai.url.replace('http:', 'https:'),
      `${saved.origin}/v2`,
      `${saved.origin}/v1/x`,
      `${saved.origin}/V1`,
      `${saved.origin}`,
    ];
  };

  it('saves the key with its address on A; B sends it there', async () => {
    expect((await save(a, openai(ai, { apiKey: SECRET_KEY }))).statusCode).toBe(200);
    await eventually(
      async () => (await settingsOn(b)).provider === 'openai',
      'B has the provider',
      2_000,
    );
    expect((await test(b, openai(ai))).json<AiTestResponse>().ok).toBe(true);
    expect(authorizationOf(ai)).toBe(`Bearer ${SECRET_KEY}`);
  });

  it("refuses a test on B with another address and no key typed: 400 on the key field, in the caller's language, and nothing is sent", async () => {
    const asked = completions(ai).length;
    for (const baseUrl of otherAddresses()) {
      for (const language of ['pt-BR', 'en-US', 'es-ES'] as const) {
        const res = await test(b, openai(ai, { baseUrl }), language);
        expect(res.statusCode, `${baseUrl} ${res.body}`).toBe(400);
        expect(res.json()).toEqual(retype(language));
      }
    }
    expect(echo.requests).toHaveLength(0);
    expect(completions(ai)).toHaveLength(asked);
  });

  it('refuses a save on B with another address and no key typed, changing nothing', async () => {
    const before = await settingsOn(a);
    for (const baseUrl of otherAddresses()) {
      const res = await save(b, openai(ai, { baseUrl }), 'pt-BR');
      expect(res.statusCode, baseUrl).toBe(400);
      expect(res.json()).toEqual(retype('pt-BR'));
    }
    expect(await settingsOn(a)).toEqual(before);
    expect(await settingsOn(b)).toEqual(before);
    // The replies still go to the saved address alone.
    await chat(b, admin);
    expect(authorizationOf(ai)).toBe(`Bearer ${SECRET_KEY}`);
    expect(echo.requests).toHaveLength(0);
  });

  it('takes the same address written another way as the same: a trailing slash, the case of the scheme', async () => {
    for (const baseUrl of [`${ai.url}/`, `${ai.url}//`, ai.url.replace('http:', 'HTTP:')]) {
      const res = await test(b, openai(ai, { baseUrl }));
      expect(res.json<AiTestResponse>().ok, baseUrl).toBe(true);
      expect(authorizationOf(ai)).toBe(`Bearer ${SECRET_KEY}`);
    }
    expect((await save(b, openai(ai, { baseUrl: `${ai.url}/` }))).statusCode).toBe(200);
    // A default port, written or not (saving sends nothing, so no server need answer there).
    expect(
      (await save(b, openai(ai, { baseUrl: 'http://127.0.0.1:80/v1', apiKey: OTHER_KEY })))
        .statusCode,
    ).toBe(200);
    for (const baseUrl of ['http://127.0.0.1/v1', 'HTTP://127.0.0.1:80/v1/']) {
      const res = await save(b, openai(ai, { baseUrl }));
      expect(res.statusCode, baseUrl).toBe(200);
      expect(res.json<AiSettings>()).toMatchObject({ baseUrl, apiKeySet: true });
    }
    expect((await save(b, openai(ai, { apiKey: SECRET_KEY }))).statusCode).toBe(200);
  });

  it('sends a key typed with another address there, and a saved one is bound to its new address', async () => {
    expect((await test(b, openai(echo, { apiKey: OTHER_KEY }))).json<AiTestResponse>().ok).toBe(
      true,
    );
    expect(authorizationOf(echo)).toBe(`Bearer ${OTHER_KEY}`);

    expect((await save(a, openai(echo, { apiKey: OTHER_KEY }))).statusCode).toBe(200);
    await eventually(
      async () => (await settingsOn(b)).baseUrl === echo.url,
      'B has the new address',
      2_000,
    );
    // The new key now stays with the new address: back to the first one, it is asked for again.
    const asked = completions(ai).length;
    expect((await test(b, openai(ai), 'es-ES')).json()).toEqual(retype('es-ES'));
    expect((await save(b, openai(ai), 'es-ES')).statusCode).toBe(400);
    expect(completions(ai)).toHaveLength(asked);
  });

  it('lets another address be saved or tested with the key removed', async () => {
    const asked = completions(ai).length;
    expect((await test(b, openai(ai, { apiKey: '' }))).json<AiTestResponse>().ok).toBe(true);
    expect(authorizationOf(ai)).toBeUndefined();
    const saved = await save(b, openai(ai, { apiKey: '' }));
    expect(saved.json<AiSettings>()).toMatchObject({ baseUrl: ai.url, apiKeySet: false });
    expect(completions(ai)).toHaveLength(asked + 1);
  });

  it('keeps the key with its address through the builtin engine: back to that address it goes, to another it does not', async () => {
    expect((await save(a, openai(ai, { apiKey: SECRET_KEY }))).statusCode).toBe(200);
    expect((await save(a, BUILTIN)).json<AiSettings>()).toMatchObject({
      provider: 'builtin',
      apiKeySet: true,
    });
    await eventually(
      async () => (await settingsOn(b)).provider === 'builtin',
      'B has builtin',
      2_000,
    );
    expect((await test(b, openai(echo), 'en-US')).json()).toEqual(retype('en-US'));
    expect((await save(b, openai(echo), 'en-US')).json()).toEqual(retype('en-US'));
    expect((await save(b, openai(ai))).json<AiSettings>()).toMatchObject({
      provider: 'openai',
      apiKeySet: true,
    });
    await eventually(
      async () => (await settingsOn(a)).provider === 'openai',
      'A has the provider',
      2_000,
    );
    await chat(a, admin);
    expect(authorizationOf(ai)).toBe(`Bearer ${SECRET_KEY}`);
    expect(
      echo.requests.filter((request) => request.headers.authorization === `Bearer ${SECRET_KEY}`),
    ).toHaveLength(0);
  });
  it.each([301, 307, 308])(
    'does not follow a redirect (%i) from the provider: a clear error on Test connection, a failed reply, and nothing reaches where it points',
    async (status) => {
      ai.setOptions({ status, headers: { location: `${echo.url}/chat/completions` } });
      try {
        const before = completions(echo).length;
        const res = await test(b, openai(ai, { apiKey: OTHER_KEY }), 'pt-BR');
        expect(res.statusCode).toBe(200);
        expect(res.json()).toEqual({
          ok: false,
          latencyMs: expect.any(Number),
          error: message('pt-BR', 'aiProvider.redirected', { status }),
        });
        expect(
          (
            await post(
              b,
              '/api/chat/message',
              { message: 'oi', agentName: 'guia' },
              { token: admin.token },
            )
          ).statusCode,
        ).toBe(502);
        // Where the redirect points (the monitor's check of the saved address is not followed either).
        expect(completions(echo)).toHaveLength(before);
      } finally {
        ai.setOptions({ chunks: ['Saved', ' address.'] });
      }
    },
  );
});

describe('the language model from the environment', () => {
  let ctx: TestContext;
  let admin: Account;
  let ai: FakeOpenAI;

  beforeAll(async () => {
    ai = await startFakeOpenAI({ chunks: ['From', ' the environment.'] });
    ctx = await createTestApp({
      limits: { routes: UNLIMITED_ROUTES, aiTestsPerMinute: 3 },
      ai: {
        provider: 'openai',
        baseUrl: ai.url,
        model: 'env-model',
        apiKey: SECRET_KEY,
        timeoutMs: 7_000,
        transcriptionModel: 'env-whisper',
        vision: true,
      },
    });
    admin = await registerAndLogin(ctx, { name: 'Eva Admin' });
  });
  afterAll(async () => {
    await ctx?.close();
    await ai?.close();
  });

  it('answers the AI_* values as the initial settings, the key only as set', async () => {
    const res = await get(ctx, '/api/admin/ai', { token: admin.token });
    expect(res.json()).toEqual({
      provider: 'openai',
      baseUrl: ai.url,
      model: 'env-model',
      apiKeySet: true,
      timeoutMs: 7_000,
      transcriptionModel: 'env-whisper',
      vision: true,
    });
    expect(res.body).not.toContain(SECRET_KEY);
    expect(await chat(ctx, admin)).toBe('From the environment.');
    expect(authorizationOf(ai)).toBe(`Bearer ${SECRET_KEY}`);
  });

  it("tests and saves with the environment's key when the form sends none", async () => {
    const input = {
      provider: 'openai',
      baseUrl: ai.url,
      model: 'saved-model',
      timeoutMs: 7_000,
    } as const;
    expect(
      (await post(ctx, '/api/admin/ai/test', input, { token: admin.token })).json<AiTestResponse>()
        .ok,
    ).toBe(true);
    expect(authorizationOf(ai)).toBe(`Bearer ${SECRET_KEY}`);
    const saved = await post(ctx, '/api/admin/ai', input, { token: admin.token });
    // The transcription model and vision were not sent: the environment's are kept.
    expect(saved.json()).toEqual({
      ...input,
      apiKeySet: true,
      transcriptionModel: 'env-whisper',
      vision: true,
    });
    await chat(ctx, admin);
    expect(authorizationOf(ai)).toBe(`Bearer ${SECRET_KEY}`);
    expect((completions(ai).at(-1)!.body as { model: string }).model).toBe('saved-model');
    const [entry] = await listAudit({ db: ctx.database.db, limit: 1, offset: 0 });
    expect(entry!.changes).toEqual({ model: { before: 'env-model', after: 'saved-model' } });
  });

  it('limits connection tests per admin and minute (each is a request to another server)', async () => {
    const input = { provider: 'builtin', baseUrl: '', model: '', timeoutMs: 7_000 };
    // One test ran above; the limit here is three a minute.
    for (let i = 0; i < 2; i += 1)
      expect(
        (await post(ctx, '/api/admin/ai/test', input, { token: admin.token })).statusCode,
      ).toBe(200);
    const refused = await post(ctx, '/api/admin/ai/test', input, {
      token: admin.token,
      language: 'en-US',
    });
    expect(refused.statusCode).toBe(429);
    expect(refused.json<{ message: string }>().message).toMatch(/^Too many requests/);
    expect(refused.headers['retry-after']).toBeDefined();
  });
});

describe('the key from the environment', () => {
  let ctx: TestContext;
  let admin: Account;
  let ai: FakeOpenAI;
  let echo: FakeOpenAI;

  beforeAll(async () => {
    ai = await startFakeOpenAI();
    echo = await startFakeOpenAI();
    ctx = await createTestApp({
      limits: { routes: UNLIMITED_ROUTES },
      ai: {
        provider: 'openai',
        baseUrl: ai.url,
        model: 'env-model',
        apiKey: SECRET_KEY,
        timeoutMs: 7_000,
      },
    });
    admin = await registerAndLogin(ctx, { name: 'Rui Admin' });
  });
  afterAll(async () => {
    await ctx?.close();
    await ai?.close();
    await echo?.close();
  });

  it('goes only to AI_BASE_URL: a test or save with another address and no key is refused, and nothing is sent', async () => {
    const input = {
      provider: 'openai',
      baseUrl: echo.url,
      model: 'env-model',
      timeoutMs: 7_000,
    } as const;
    const tested = await post(ctx, '/api/admin/ai/test', input, {
      token: admin.token,
      language: 'pt-BR',
    });
    expect(tested.statusCode).toBe(400);
    expect(tested.json()).toMatchObject({
      errors: { apiKey: message('pt-BR', 'adminValidation.apiKeyRetype') },
    });
    expect((await post(ctx, '/api/admin/ai', input, { token: admin.token })).statusCode).toBe(400);
    expect(echo.requests).toHaveLength(0);
    expect(
      (await get(ctx, '/api/admin/ai', { token: admin.token })).json<AiSettings>().baseUrl,
    ).toBe(ai.url);
  });
});

describe('a stored key that no longer opens', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let ctx: TestContext;
  let admin: Account;

  beforeAll(async () => {
    database = await createTestDatabase();
    // Sealed by a server with another secret (JWT_SECRET changed since).
    const sealed = createSecretBox('another secret, long enough to be one').seal(
      SECRET_KEY,
      'ai.apiKey',
    );
    await database.db.insert(appSettings).values({
      section: 'ai',
      value: {
        provider: 'openai',
        baseUrl: 'http://127.0.0.1:9/v1',
        model: 'm',
        timeoutMs: 2_000,
        apiKey: sealed,
      },
    });
    ctx = await createTestApp({ limits: { routes: UNLIMITED_ROUTES } }, { database });
    admin = await registerAndLogin(ctx, { name: 'Ivo Admin' });
  });
  afterAll(async () => {
    await ctx?.close();
    await database?.drop();
  });

  it('is treated as no key, and says so in the log', async () => {
    expect((await get(ctx, '/api/admin/ai', { token: admin.token })).json()).toEqual({
      provider: 'openai',
      baseUrl: 'http://127.0.0.1:9/v1',
      model: 'm',
      apiKeySet: false,
      timeoutMs: 2_000,
      transcriptionModel: '',
      vision: false,
    });
    expect(ctx.logs.join('\n')).toContain('the stored AI API key cannot be opened');
  });
});
