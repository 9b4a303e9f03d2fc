import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { desc } from 'drizzle-orm';
import type { User } from '@contrateia/shared';
import { openDatabase, type Database } from '@/db/client';
import { adminAudit } from '@/features/audit/audit.table';
import {
  createServerDatabase,
  createTestApp,
  createTestDatabase,
  type TestContext,
} from '../../../test/helpers';
import { FIRST_SAMPLE_MS, QUICK_MONITOR, serviceOf, statusWhen } from '../../../test/monitor';
import { startFakeOpenAI } from '../../../test/fake-openai';
import {
  completeRegistration,
  DEFAULT_PASSWORD,
  login,
  message,
  post,
  registerAndLogin,
  sendOtp,
  uniqueEmail,
  UNLIMITED_ROUTES,
} from '../../../test/factories';

// Each service going down, for real: an SMTP server stopped, a database closed, a provider that
// refuses the key or fails its replies, Redis cut off. Each shows as down (or degraded), and the
// system's status follows.

type Account = { user: User; token: string };

const contexts: TestContext[] = [];
const cleanups: (() => Promise<void>)[] = [];
// After each test: an app left running samples five times a second, and a few of them on a busy
// machine kept the next app from getting ready in time (AVV_ERR_READY_TIMEOUT).
afterEach(async () => {
  for (const ctx of contexts.splice(0)) await ctx.close();
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

async function app(
  overrides: Parameters<typeof createTestApp>[0] = {},
  options: Parameters<typeof createTestApp>[1] = {},
) {
  const ctx = await createTestApp(
    {
      monitor: QUICK_MONITOR,
      ...overrides,
      limits: { routes: UNLIMITED_ROUTES, ...overrides.limits },
    },
    options,
  );
  contexts.push(ctx);
  const admin = await registerAndLogin(ctx, { name: 'Ana Admin' });
  return { ctx, admin };
}

describe('a service going down', () => {
  it("mail: the SMTP server stopped shows as down, the system degraded, and a test e-mail is refused in the caller's words", async () => {
    const { ctx, admin } = await app({ limits: { monitorActions: { 'test-email': 2 } } });
    const before = await statusWhen(
      ctx,
      admin,
      (s) => serviceOf(s, 'mail').status === 'up',
      'mail up',
      FIRST_SAMPLE_MS,
    );
    expect(before.systemStatus).toBe('healthy');

    await ctx.smtp.close();
    const after = await statusWhen(
      ctx,
      admin,
      (s) => serviceOf(s, 'mail').status === 'down',
      'mail down',
    );
    expect(serviceOf(after, 'mail')).toEqual({
      name: 'mail',
      status: 'down',
      uptime: null,
      details: { kind: 'smtp', error: 'refused' },
    });
    expect(after.systemStatus).toBe('degraded');

    const refused = await post(
      ctx,
      '/api/monitor/actions/test-email',
      {},
      { token: admin.token, language: 'pt-BR' },
    );
    expect(refused.statusCode).toBe(503);
    expect(refused.json()).toEqual({
      success: false,
      message: message('pt-BR', 'errors.mailUnavailable'),
    });
    // Nothing was done, so nothing is recorded.
    const [entry] = await ctx.database.db
      .select()
      .from(adminAudit)
      .orderBy(desc(adminAudit.at))
      .limit(1);
    expect(entry?.action).not.toBe('monitor.test-email');
    // Each admin may ask only so often.
    expect(
      (await post(ctx, '/api/monitor/actions/test-email', {}, { token: admin.token })).statusCode,
    ).toBe(503);
    const limited = await post(
      ctx,
      '/api/monitor/actions/test-email',
      {},
      { token: admin.token, language: 'es-ES' },
    );
    expect(limited.statusCode).toBe(429);
    expect(limited.headers['retry-after']).toBeDefined();
    expect(limited.json<{ message: string }>().message).toMatch(/\d/);
  });

  // The default install has no SMTP: log mode is how it is configured, not a fault.
  it('mail in "log" mode (no SMTP_URL) is up in log mode, leaves the system healthy, and the test e-mail goes to the log', async () => {
    const ctx = await createTestApp({
      monitor: QUICK_MONITOR,
      smtpUrl: undefined,
      limits: { routes: UNLIMITED_ROUTES },
    });
    contexts.push(ctx);
    // Without SMTP the code is in the log, where the operator reads it.
    const email = uniqueEmail('logged');
    expect((await sendOtp(ctx, { email })).statusCode).toBe(200);
    const code = new RegExp(`To: ${email}[\\s\\S]*?\\b(\\d{6})\\b`).exec(ctx.logs.join(''))?.[1];
    expect((await completeRegistration(ctx, { email, otp: code! })).statusCode).toBe(200);
    const admin = (
      await login(ctx, { identifier: email, password: DEFAULT_PASSWORD })
    ).json<Account>();

    const current = await statusWhen(
      ctx,
      admin,
      (s) => s.services.some((service) => service.name === 'mail'),
      'mail checked',
      FIRST_SAMPLE_MS,
    );
    expect(serviceOf(current, 'mail')).toMatchObject({ status: 'up', details: { kind: 'log' } });
    expect(serviceOf(current, 'mail').uptime).not.toBeNull();
    expect(current.systemStatus).toBe('healthy');
    const res = await post(ctx, '/api/monitor/actions/test-email', {}, { token: admin.token });
    expect(res.json()).toEqual({ success: true, action: 'test-email', to: email, mode: 'log' });
    expect(ctx.logs.join('')).toContain(message('pt-BR', 'mail.testSubject'));
  });

  it('database: closed, it shows as down, and so does the system', async () => {
    const { database, cleanup } = await databaseToClose();
    cleanups.push(cleanup);
    const { ctx, admin } = await app({}, { database });
    const kind = process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite';
    const before = await statusWhen(
      ctx,
      admin,
      (s) => serviceOf(s, 'database').status === 'up',
      'database up',
      FIRST_SAMPLE_MS,
    );
    expect(serviceOf(before, 'database').details.kind).toBe(kind);

    await database.close();
    // The admin's session and account are cached: the status still answers her.
    const after = await statusWhen(
      ctx,
      admin,
      (s) => serviceOf(s, 'database').status === 'down',
      'database down',
    );
    expect(serviceOf(after, 'database')).toMatchObject({
      status: 'down',
      uptime: null,
      details: { kind },
    });
    expect(['unreachable', 'timeout']).toContain(serviceOf(after, 'database').details.error);
    expect(after.systemStatus).toBe('down');
  });

  it('AI provider: checked with a list of its models, never a completion; replies failing make it degraded', async () => {
    const fake = await startFakeOpenAI();
    cleanups.push(() => fake.close());
    const { ctx, admin } = await app({
      ai: {
        provider: 'openai',
        baseUrl: fake.url,
        apiKey: 'sk-monitor-test',
        model: 'fake',
        timeoutMs: 5_000,
      },
      // Asked once a minute: here, once.
      monitor: { ...QUICK_MONITOR, aiEveryMs: 60_000 },
    });
    const up = await statusWhen(
      ctx,
      admin,
      (s) => serviceOf(s, 'ai').status === 'up',
      'provider up',
      FIRST_SAMPLE_MS,
    );
    expect(serviceOf(up, 'ai').details).toMatchObject({ kind: 'openai' });
    expect(serviceOf(up, 'ai').details.latencyMs).toBeGreaterThanOrEqual(0);
    const probes = fake.requests.filter(
      (request) => request.method === 'GET' && request.path === '/v1/models',
    );
    expect(probes.length).toBe(1);
    expect(probes[0]!.headers.authorization).toBe('Bearer sk-monitor-test');
    expect(fake.requests.filter((request) => request.path.endsWith('/chat/completions'))).toEqual(
      [],
    );

    // The provider fails people's replies: that is what they see.
    fake.setOptions({ status: 500 });
    expect(
      (
        await post(
          ctx,
          '/api/chat',
          { message: 'hello there', agentName: 'guia' },
          { token: admin.token, language: 'en-US' },
        )
      ).statusCode,
    ).toBe(502);
    const failing = await statusWhen(
      ctx,
      admin,
      (s) => serviceOf(s, 'ai').status === 'degraded',
      'replies failing',
    );
    expect(serviceOf(failing, 'ai').details).toMatchObject({
      kind: 'openai',
      error: 'replies-failing',
    });
    expect(failing.systemStatus).toBe('degraded');

    // A reply that goes through again clears it.
    fake.setOptions({});
    expect(
      (
        await post(
          ctx,
          '/api/chat',
          { message: 'hello again', agentName: 'guia' },
          { token: admin.token, language: 'en-US' },
        )
      ).statusCode,
    ).toBe(200);
    await statusWhen(ctx, admin, (s) => serviceOf(s, 'ai').status === 'up', 'replies work again');
  });

  it('AI provider: a key it refuses shows as down', async () => {
    const fake = await startFakeOpenAI({ status: 401 });
    cleanups.push(() => fake.close());
    const { ctx, admin } = await app({
      ai: {
        provider: 'openai',
        baseUrl: fake.url,
        apiKey: 'sk-wrong',
        model: 'fake',
        timeoutMs: 5_000,
      },
    });
    const current = await statusWhen(
      ctx,
      admin,
      (s) => serviceOf(s, 'ai').status === 'down',
      'provider down',
      FIRST_SAMPLE_MS,
    );
    expect(serviceOf(current, 'ai')).toEqual({
      name: 'ai',
      status: 'down',
      uptime: null,
      details: { kind: 'openai', error: 'auth' },
    });
    expect(current.systemStatus).toBe('degraded');
  });

  it('AI provider: an address that redirects shows as down, and the redirect is not followed', async () => {
    const target = await startFakeOpenAI();
    const fake = await startFakeOpenAI({
      status: 308,
      headers: { location: `${target.url}/models` },
    });
    cleanups.push(
      () => fake.close(),
      () => target.close(),
    );
    const { ctx, admin } = await app({
      ai: {
        provider: 'openai',
        baseUrl: fake.url,
        apiKey: 'sk-monitor-test',
        model: 'fake',
        timeoutMs: 5_000,
      },
    });
    const current = await statusWhen(
      ctx,
      admin,
      (s) => serviceOf(s, 'ai').status === 'down',
      'provider down',
      FIRST_SAMPLE_MS,
    );
    expect(serviceOf(current, 'ai')).toEqual({
      name: 'ai',
      status: 'down',
      uptime: null,
      details: { kind: 'openai', error: 'redirect' },
    });
    expect(target.requests).toEqual([]);
  });

  it.runIf(process.env.TEST_REDIS_URL)(
    'Redis: cut off, it shows as down and the system degraded',
    async () => {
      const redis = new Redis(process.env.TEST_REDIS_URL!);
      const { ctx, admin } = await app({ redis });
      await statusWhen(
        ctx,
        admin,
        (s) => serviceOf(s, 'redis').status === 'up',
        'redis up',
        FIRST_SAMPLE_MS,
      );
      redis.disconnect();
      const after = await statusWhen(
        ctx,
        admin,
        (s) => serviceOf(s, 'redis').status === 'down',
        'redis down',
      );
      expect(serviceOf(after, 'redis')).toMatchObject({ status: 'down', uptime: null });
      expect(after.systemStatus).toBe('degraded');
    },
  );
});

/**
 * A database this test may close under the app: PGlite in memory, or a PostgreSQL database of its
 * own (dropped afterwards, even though its pool was ended).
 */
async function databaseToClose(): Promise<{ database: Database; cleanup: () => Promise<void> }> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) return { database: await createTestDatabase(), cleanup: async () => {} };
  const created = await createServerDatabase(serverUrl, 'contrateia_test');
  const database = await openDatabase({ url: created.url });
  await database.migrate();
  return { database, cleanup: () => created.drop() };
}
