import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { Language, ListLogsResponse, LogEntry } from '@contrateia/shared';
import {
  createTestApp,
  createTestDatabase,
  routesOf,
  type TestContext,
} from '../../../test/helpers';
import { eventually } from '../../../test/eventually';
import { startFakeOpenAI, type FakeOpenAI } from '../../../test/fake-openai';
import {
  containsNumber,
  DEFAULT_PASSWORD,
  get,
  login,
  message,
  post,
  register,
  registerAndLogin,
  requestCode,
  completeRegistration,
  uniqueEmail,
  UNLIMITED_ROUTES,
} from '../../../test/factories';
import { makeImage, uploaded } from '../../../test/images';
import { linkSandbox } from '../../../test/whatsapp';
import { createSharedState } from '@/lib/shared-state';
import { logEvents } from './logs.table';

type Account = Awaited<ReturnType<typeof registerAndLogin>>;
type Query = Record<string, string | number | undefined>;

/** The writer writes every 20 ms here (every second in production), so a test waits little. */
const QUICK_LOGS = { writer: { flushMs: 20 } };

/** A word no other test's events hold: each test finds its own events by it. */
const tagged = (label: string) => `${label}${randomBytes(4).toString('hex')}`;

function listLogs(
  ctx: TestContext,
  token: string | undefined,
  query: Query = {},
  language?: Language,
) {
  const params = new URLSearchParams(
    Object.entries(query).flatMap(([name, value]): [string, string][] =>
      value === undefined ? [] : [[name, String(value)]],
    ),
  );
  // In English unless asked: the messages below are the en-US catalogue's (logs.language.int.test.ts has the others).
  return get(ctx, `/api/logs?${params}`, { token, language: language ?? 'en-US' });
}

/** Every event matching `query`, all pages read (newest first). */
async function allLogs(ctx: TestContext, token: string, query: Query = {}): Promise<LogEntry[]> {
  const logs: LogEntry[] = [];
  let cursor: string | undefined;
  do {
    const res = await listLogs(ctx, token, { ...query, limit: 200, cursor });
    expect(res.statusCode).toBe(200);
    const page = res.json<ListLogsResponse>();
    logs.push(...page.logs);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return logs;
}

/** The events matching `query` once `count` of them are stored (the writer is asynchronous). */
async function storedLogs(
  ctx: TestContext,
  token: string,
  query: Query,
  count = 1,
): Promise<LogEntry[]> {
  let logs: LogEntry[] = [];
  await eventually(
    async () => (logs = await allLogs(ctx, token, query)).length >= count,
    `${count} events stored for ${JSON.stringify(query)}`,
  );
  return logs;
}

/** Test-only routes: what any part of a server may log, through a request's logger or the app's. */
function loggingRoutes(app: TestContext['app']) {
  app.post('/api/test/warn', async (request) => {
    const { message: text, fields } = request.body as {
      message: string;
      fields?: Record<string, unknown>;
    };
    request.log.warn(fields ?? {}, text);
    return { ok: true };
  });
  app.post('/api/test/app-error', async (request) => {
    const { message: text } = request.body as { message: string };
    app.log.error({ part: 'scheduler', attempt: 3 }, text);
    return { ok: true };
  });
  app.get('/api/test/fail', async () => {
    throw new Error('kaboom: the disk is on fire');
  });
}

describe('the stored log', () => {
  let ctx: TestContext;
  let ai: FakeOpenAI;
  let admin: Account;
  let member: Account;
  const AI_KEY = `sk-logs-${randomBytes(8).toString('hex')}`;

  beforeAll(async () => {
    ai = await startFakeOpenAI({ chunks: ['Hello'] });
    ctx = await createTestApp(
      {
        limits: { routes: UNLIMITED_ROUTES },
        logs: QUICK_LOGS,
        // The filters' test moves the clock by hours: sessions outlast it.
        sessionTimeoutMs: 30 * 24 * 60 * 60_000,
        whatsapp: { transport: 'sandbox' },
        ai: {
          provider: 'openai',
          baseUrl: ai.url,
          apiKey: AI_KEY,
          model: 'logs-model',
          timeoutMs: 5000,
        },
      },
      { setup: loggingRoutes },
    );
    // The first account of a database is its admin.
    admin = await registerAndLogin(ctx, { name: 'Ana Admin' });
    member = await registerAndLogin(ctx, { name: 'Bruno Member' });
  });

  afterAll(async () => {
    await ctx?.close();
    await ai?.close();
  });

  describe('GET /api/logs', () => {
    it('is the one logs route the app has', () => {
      expect(routesOf(ctx).filter((route) => route.includes(' /api/logs'))).toEqual([
        'GET /api/logs',
      ]);
    });

    it("answers 401 without a session, 403 to a user and to an admin in user mode, in the caller's language; 200 to an admin", async () => {
      expect((await listLogs(ctx, undefined)).statusCode).toBe(401);
      // Refused before the query is even read: a bad one tells a stranger nothing either.
      expect((await listLogs(ctx, undefined, { limit: 'lots' })).statusCode).toBe(401);
      const asMember = await listLogs(ctx, member.token, {}, 'es-ES');
      expect(asMember.statusCode).toBe(403);
      expect(asMember.json()).toEqual({
        success: false,
        message: message('es-ES', 'errors.forbidden'),
      });
      const asUser = (
        await post(ctx, '/api/switch-role', { targetRole: 'user' }, { token: admin.token })
      ).json<{ token: string }>().token;
      try {
        expect((await listLogs(ctx, asUser, { level: 'error' })).statusCode).toBe(403);
      } finally {
        admin.token = (
          await post(ctx, '/api/switch-role', { targetRole: 'admin' }, { token: asUser })
        ).json<{ token: string }>().token;
      }
      const res = await listLogs(ctx, admin.token);
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ logs: expect.any(Array), nextCursor: null });
    });
  });

  describe('events of each kind', () => {
    it('stores a registration, a sign-in, failed sign-ins and role switches, with the account and the request', async () => {
      const email = uniqueEmail('ines');
      const { code } = await requestCode(ctx, { email });
      const registered = await completeRegistration(ctx, { name: 'Inês', email, otp: code });
      expect(registered.statusCode).toBe(200);
      const signedIn = await login(ctx, { identifier: email, password: DEFAULT_PASSWORD });
      expect(signedIn.statusCode).toBe(200);
      const userId = signedIn.json<{ user: { id: string } }>().user.id;
      expect(
        (await login(ctx, { identifier: email, password: 'not-the-password' })).statusCode,
      ).toBe(401);
      expect(
        (await login(ctx, { identifier: 'nobody-here@example.com', password: 'whatever-1' }))
          .statusCode,
      ).toBe(401);

      const [registration] = await storedLogs(
        ctx,
        admin.token,
        { search: userId, category: 'auth', level: 'info' },
        2,
      ).then((logs) => logs.filter((l) => l.context.event === 'auth.registered'));
      expect(registration).toMatchObject({
        level: 'info',
        message: 'Account registered (user)',
        context: {
          category: 'auth',
          event: 'auth.registered',
          userId,
          requestId: expect.any(String),
          role: 'user',
        },
      });
      const [signIn] = (
        await storedLogs(ctx, admin.token, { search: 'auth.sign_in ' + userId, level: 'info' })
      ).filter((l) => l.context.event === 'auth.sign_in');
      expect(signIn).toMatchObject({
        level: 'info',
        message: 'Signed in',
        context: { category: 'auth', userId, requestId: expect.any(String), role: 'user' },
      });
      expect(signIn!.context.requestId).not.toBe(registration!.context.requestId);

      const failures = await storedLogs(
        ctx,
        admin.token,
        { search: 'auth.sign_in_failed', level: 'warn', category: 'auth' },
        2,
      );
      const mine = failures.find((l) => l.context.userId === userId);
      expect(mine).toMatchObject({
        level: 'warn',
        message: 'Sign-in failed: invalid credentials',
        context: {
          category: 'auth',
          event: 'auth.sign_in_failed',
          reason: 'invalid_credentials',
          identifierHash: expect.stringMatching(/^[0-9a-f]{16}$/),
        },
      });
      // An unknown name: no account, and the name itself not kept, only a hash of it.
      const stranger = failures.find(
        (l) =>
          l.context.userId === null && l.context.identifierHash !== mine!.context.identifierHash,
      );
      expect(stranger).toMatchObject({ context: { reason: 'invalid_credentials' } });
      expect(JSON.stringify(failures)).not.toContain('nobody-here');
      expect(JSON.stringify(failures)).not.toContain(email);

      // A second apart, and from the switches before (the test clock stands still otherwise).
      ctx.clock.advance(1000);
      const since = ctx.clock.now().toISOString();
      const asUser = await post(
        ctx,
        '/api/switch-role',
        { targetRole: 'user' },
        { token: admin.token },
      );
      ctx.clock.advance(1000);
      admin.token = (
        await post(
          ctx,
          '/api/switch-role',
          { targetRole: 'admin' },
          { token: asUser.json<{ token: string }>().token },
        )
      ).json<{ token: string }>().token;
      const switches = await storedLogs(
        ctx,
        admin.token,
        { search: `auth.role_switched ${admin.user.id}`, from: since },
        2,
      );
      expect(switches.map((l) => [l.message, l.context.from, l.context.to])).toEqual([
        ['Switched from user to admin mode', 'user', 'admin'],
        ['Switched from admin to user mode', 'admin', 'user'],
      ]);
    });

    it('stores throttled and refused sign-ins with their reason', async () => {
      const { email, password } = await register(ctx);
      const userId = (await login(ctx, { identifier: email, password })).json<{
        user: { id: string };
      }>().user.id;
      // The account's free tries spent, the next attempt waits its turn (429).
      let status = 401;
      for (let n = 0; n < 20 && status === 401; n += 1)
        status = (await login(ctx, { identifier: email, password: `wrong-${n}` })).statusCode;
      expect(status).toBe(429);
      const [throttled] = await storedLogs(ctx, admin.token, { search: `throttled ${userId}` });
      expect(throttled).toMatchObject({
        level: 'warn',
        message: 'Sign-in failed: too many attempts',
        context: { event: 'auth.sign_in_failed', reason: 'throttled', userId },
      });

      const other = await register(ctx);
      const otherId = (
        await login(ctx, { identifier: other.email, password: other.password })
      ).json<{ user: { id: string } }>().user.id;
      expect(
        (
          await post(
            ctx,
            `/api/admin/users/${otherId}/status`,
            { isActive: false },
            { token: admin.token },
          )
        ).statusCode,
      ).toBe(200);
      expect(
        (await login(ctx, { identifier: other.email, password: other.password })).statusCode,
      ).toBe(403);
      const [refused] = await storedLogs(ctx, admin.token, {
        search: `account_disabled ${otherId}`,
      });
      expect(refused).toMatchObject({
        level: 'warn',
        message: 'Sign-in failed: account disabled',
        context: { event: 'auth.sign_in_failed', reason: 'account_disabled', userId: otherId },
      });
    });

    it('stores each admin change as admin.<action>, naming the fields changed and their values old → new, once committed', async () => {
      const theme = (await get(ctx, '/api/admin/settings', { token: admin.token })).json<{
        themeSettings: Record<string, string>;
      }>().themeSettings;
      const saved = await post(
        ctx,
        '/api/admin/settings/theme',
        { ...theme, primaryColor: '#123456' },
        { token: admin.token },
      );
      expect(saved.statusCode).toBe(200);
      const [change] = await storedLogs(ctx, admin.token, {
        category: 'admin',
        search: 'admin.settings.theme',
      });
      expect(change).toMatchObject({
        level: 'info',
        message: 'Admin changed the theme settings',
        changes: [
          {
            field: 'primaryColor',
            name: 'primary colour',
            from: theme.primaryColor,
            to: '#123456',
          },
        ],
        context: {
          category: 'admin',
          event: 'admin.settings.theme',
          userId: admin.user.id,
          requestId: expect.any(String),
          target: 'theme',
          fields: 'primaryColor',
        },
      });

      // A change refused (the last admin cannot demote itself) is in neither the audit nor the log.
      const refused = await post(
        ctx,
        `/api/admin/users/${admin.user.id}/role`,
        { role: 'user' },
        { token: admin.token },
      );
      expect(refused.statusCode).toBe(400);
      const role = await post(
        ctx,
        `/api/admin/users/${member.user.id}/role`,
        { role: 'admin' },
        { token: admin.token },
      );
      expect(role.statusCode).toBe(200);
      const roleChanges = await storedLogs(ctx, admin.token, {
        category: 'admin',
        search: 'admin.user.role',
      });
      expect(roleChanges.map((l) => l.context.target)).toEqual([member.user.id]);
      expect(roleChanges[0]!.context.fields).toContain('originalRole');
      expect(roleChanges[0]!.message).toBe('Admin changed the role of the user “Bruno Member”');
      expect(roleChanges[0]!.changes).toContainEqual({
        field: 'role',
        name: 'role',
        from: 'user',
        to: 'admin',
      });
      await post(
        ctx,
        `/api/admin/users/${member.user.id}/role`,
        { role: 'user' },
        { token: admin.token },
      );
    });

    it("stores the image library's changes and the monitor's quick actions as admin changes too", async () => {
      const imageId = await uploaded(ctx, {
        token: admin.token,
        file: await makeImage('png'),
        name: 'logo.png',
        type: 'image/png',
      });
      const [upload] = await storedLogs(ctx, admin.token, {
        category: 'admin',
        search: `admin.image.upload ${imageId}`,
      });
      expect(upload).toMatchObject({
        level: 'info',
        context: { event: 'admin.image.upload', userId: admin.user.id, target: imageId },
      });
      const cleanup = await post(
        ctx,
        '/api/monitor/actions/cleanup-sessions',
        {},
        { token: admin.token },
      );
      expect(cleanup.statusCode, cleanup.body).toBe(200);
      const [action] = await storedLogs(ctx, admin.token, {
        category: 'admin',
        search: 'admin.monitor.cleanup-sessions',
      });
      expect(action).toMatchObject({
        context: { event: 'admin.monitor.cleanup-sessions', userId: admin.user.id },
      });
    });

    it('stores WhatsApp connections, logouts and the reason a connection closed', async () => {
      const account = await registerAndLogin(ctx, { name: 'Walter WhatsApp' });
      const connect = async () => {
        const phone = `5511${String(Date.now()).slice(-9)}`;
        await linkSandbox(ctx, account, phone);
        return phone;
      };
      // A second between steps: the test clock stands still otherwise, and they would share a time.
      const phone = await connect();
      ctx.clock.advance(1000);
      expect(
        (await post(ctx, '/api/whatsapp/disconnect', {}, { token: account.token })).statusCode,
      ).toBe(200);
      ctx.clock.advance(1000);
      const second = await connect();
      ctx.clock.advance(1000);
      // The phone unlinks the device: WhatsApp's 401.
      expect(
        (
          await post(
            ctx,
            `/api/whatsapp/sandbox/phones/${second}/logout`,
            {},
            { token: account.token },
          )
        ).statusCode,
      ).toBe(200);

      const events = await storedLogs(
        ctx,
        admin.token,
        { category: 'whatsapp', search: account.user.id },
        4,
      );
      expect(
        events.map((l) => [l.level, l.context.event, l.context.reason ?? null, l.message]),
      ).toEqual([
        ['info', 'whatsapp.logged_out', 'logged-out', 'WhatsApp logged out (from the phone)'],
        ['info', 'whatsapp.connected', null, 'WhatsApp connected'],
        ['info', 'whatsapp.logged_out', 'requested', 'WhatsApp logged out (from ContrateIA)'],
        ['info', 'whatsapp.connected', null, 'WhatsApp connected'],
      ]);
      expect(events.every((l) => l.context.userId === account.user.id)).toBe(true);
      // The number's last four digits only.
      expect(events[3]!.context.phone).toBe(`…${phone.slice(-4)}`);
      expect(JSON.stringify(events)).not.toContain(phone);
    });

    it('stores an AI provider failure (provider, reason, status), never its key or the prompt', async () => {
      const prompt = `What is my secret plan ${randomBytes(4).toString('hex')}?`;
      const asker = await registerAndLogin(ctx, { name: 'Alice Asker' });
      ai.setOptions({
        status: 401,
        errorBody: JSON.stringify({ error: { message: 'Incorrect API key provided' } }),
      });
      try {
        const res = await post(
          ctx,
          '/api/chat/message',
          { message: prompt, agentName: 'guia' },
          { token: asker.token },
        );
        expect(res.statusCode).toBe(502);
      } finally {
        ai.setOptions({ chunks: ['Hello'] });
      }
      const [failure] = await storedLogs(ctx, admin.token, { category: 'ai' });
      expect(failure).toMatchObject({
        level: 'error',
        message: 'AI provider openai failed: status-401',
        context: {
          category: 'ai',
          event: 'ai.provider_failed',
          provider: 'openai',
          model: 'logs-model',
          reason: 'status-401',
          status: 401,
          agent: 'guia',
        },
      });
      const everything = JSON.stringify(await allLogs(ctx, admin.token));
      expect(everything).not.toContain(AI_KEY);
      expect(everything).not.toContain(prompt);
    });

    it("stores the server's warnings and errors, whichever part logs them, with the request's id", async () => {
      const tag = tagged('diskwarn');
      expect(
        (
          await post(ctx, '/api/test/warn', {
            message: `disk almost full ${tag}`,
            fields: { freeBytes: 1024, volume: '/data', nested: { depth: 2 } },
          })
        ).statusCode,
      ).toBe(200);
      const [warning] = await storedLogs(ctx, admin.token, { search: tag, level: 'warn' });
      expect(warning).toMatchObject({
        level: 'warn',
        message: `disk almost full ${tag}`,
        context: {
          category: 'server',
          requestId: expect.any(String),
          freeBytes: 1024,
          volume: '/data',
          'nested.depth': 2,
        },
      });

      expect((await get(ctx, '/api/test/fail')).statusCode).toBe(500);
      const failures = await storedLogs(ctx, admin.token, {
        search: 'kaboom',
        level: 'error',
        category: 'server',
      });
      expect(failures[0]).toMatchObject({
        message: 'request failed',
        context: {
          'err.type': 'Error',
          'err.message': 'kaboom: the disk is on fire',
          requestId: expect.any(String),
        },
      });
      expect(JSON.stringify(failures[0])).not.toContain('at '); // no stack

      const appTag = tagged('scheduler');
      await post(ctx, '/api/test/app-error', { message: `nightly job failed ${appTag}` });
      const [appError] = await storedLogs(ctx, admin.token, { search: appTag });
      expect(appError).toMatchObject({
        level: 'error',
        context: { category: 'server', requestId: null, part: 'scheduler', attempt: 3 },
      });
    });

    it('keeps info lines (each request completed) out of the stored log', async () => {
      const tag = tagged('infoline');
      await get(ctx, `/api/health?${tag}`);
      ctx.app.log.info({ tag }, 'an ordinary info line');
      const warnTag = tagged('after');
      await post(ctx, '/api/test/warn', { message: warnTag });
      await storedLogs(ctx, admin.token, { search: warnTag });
      expect(await allLogs(ctx, admin.token, { search: tag })).toEqual([]);
    });
  });

  describe('what is stored of user text', () => {
    it('neutralises CR/LF and other control characters in the message and the context', async () => {
      const tag = tagged('forged');
      const forged = `login ok ${tag}\r\n{"level":50,"msg":"admin deleted"}\u0007\u202e`;
      await post(ctx, '/api/test/warn', {
        message: forged,
        fields: { typed: 'line one\nline two\ttab' },
      });
      const [entry] = await storedLogs(ctx, admin.token, { search: tag });
      expect(entry!.message).toBe(
        `login ok ${tag}\\r\\n{"level":50,"msg":"admin deleted"}\\u0007\\u202e`,
      );
      expect(entry!.context.typed).toBe('line one\\nline two\\ttab');
      // eslint-disable-next-line no-control-regex -- no control character may remain
      expect(JSON.stringify(entry)).not.toMatch(/[\u0000-\u001f\u202e]/);
    });

    it('caps the message and the context', async () => {
      const tag = tagged('huge');
      const fields = Object.fromEntries(
        Array.from({ length: 100 }, (_, i) => [`field${i}`, 'v'.repeat(5000)]),
      );
      await post(ctx, '/api/test/warn', { message: `${tag} ${'x'.repeat(50_000)}`, fields });
      const [entry] = await storedLogs(ctx, admin.token, { search: tag });
      expect(entry!.message).toHaveLength(1000);
      expect(entry!.message.endsWith('…')).toBe(true);
      const values = Object.entries(entry!.context).filter(([name]) => name.startsWith('field'));
      expect(values.length).toBeLessThanOrEqual(24);
      expect(values.every(([, value]) => typeof value === 'string' && value.length <= 300)).toBe(
        true,
      );
      expect(entry!.context.truncated).toBe(true);
    });

    it('blanks what pino redacts, and anything shaped like a token, even deeper in what is logged', async () => {
      const tag = tagged('secrets');
      const jwt = `eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.${randomBytes(16).toString('base64url')}`;
      await post(ctx, '/api/test/warn', {
        message: `${tag} header was Bearer ${jwt}`,
        fields: {
          password: 'hunter2-top',
          input: {
            token: 'tok-123456',
            apiKey: 'sk-abc',
            profile: { newPassword: 'deep-secret-1' },
          },
          note: `copied ${jwt}`,
        },
      });
      const [entry] = await storedLogs(ctx, admin.token, { search: tag });
      expect(entry!.message).toBe(`${tag} header was Bearer [redacted]`);
      expect(entry!.context).toMatchObject({
        password: '[redacted]',
        'input.token': '[redacted]',
        'input.apiKey': '[redacted]',
        'input.profile.newPassword': '[redacted]',
        note: 'copied [redacted]',
      });
      expect(JSON.stringify(entry)).not.toMatch(/hunter2|tok-123456|sk-abc|deep-secret|eyJhbGci/);
    });
  });

  describe('filters and search', () => {
    it('filters by level, category and date range', async () => {
      const tag = tagged('range');
      const start = ctx.clock.now();
      await post(ctx, '/api/test/warn', { message: `${tag} first` });
      await storedLogs(ctx, admin.token, { search: tag });
      ctx.clock.advance(60 * 60_000);
      await post(ctx, '/api/test/app-error', { message: `${tag} second` });
      await storedLogs(ctx, admin.token, { search: tag }, 2);
      ctx.clock.advance(60 * 60_000);
      await post(ctx, '/api/test/warn', { message: `${tag} third` });
      const all = await storedLogs(ctx, admin.token, { search: tag }, 3);
      expect(all.map((l) => l.message)).toEqual([`${tag} third`, `${tag} second`, `${tag} first`]);

      const at = (minutes: number) => new Date(start.getTime() + minutes * 60_000).toISOString();
      const messages = async (query: Query) =>
        (await allLogs(ctx, admin.token, { search: tag, ...query })).map((l) => l.message);
      expect(await messages({ level: 'warn' })).toEqual([`${tag} third`, `${tag} first`]);
      expect(await messages({ level: 'error' })).toEqual([`${tag} second`]);
      expect(await messages({ level: 'info' })).toEqual([]);
      expect(await messages({ from: at(30), to: at(90) })).toEqual([`${tag} second`]);
      expect(await messages({ from: at(30) })).toEqual([`${tag} third`, `${tag} second`]);
      expect(await messages({ to: at(90) })).toEqual([`${tag} second`, `${tag} first`]);
      // Both ends count, and any offset names the same instant.
      expect(await messages({ from: at(60), to: at(60) })).toEqual([`${tag} second`]);
      const offset = new Date(start.getTime() + 60 * 60_000 - 3 * 60 * 60_000)
        .toISOString()
        .replace('Z', '-03:00');
      expect(await messages({ from: offset, to: offset })).toEqual([`${tag} second`]);

      expect(
        (await allLogs(ctx, admin.token, { category: 'auth' })).every(
          (l) => l.context.category === 'auth',
        ),
      ).toBe(true);
      expect(
        (await allLogs(ctx, admin.token, { category: 'server', level: 'warn' })).every(
          (l) => l.context.category === 'server' && l.level === 'warn',
        ),
      ).toBe(true);
      expect(await messages({ category: 'auth' })).toEqual([]);
    });

    it('searches accents and case aside, a word anywhere, in the three languages', async () => {
      const tag = tagged('idiomas');
      const texts = [
        `${tag} Sessão expirada para Joana Conceição`,
        `${tag} Sesión caducada para Lucía Muñoz`,
        `${tag} Session expired for John O'Brien`,
        `${tag} sesion sin acento, 100% listo`,
      ];
      for (const text of texts) await post(ctx, '/api/test/warn', { message: text });
      await storedLogs(ctx, admin.token, { search: tag }, texts.length);
      const found = async (search: string) =>
        (await allLogs(ctx, admin.token, { search: `${tag} ${search}` }))
          .map((l) => texts.indexOf(l.message))
          .sort();
      expect(await found('sessao')).toEqual([0]);
      expect(await found('SESSÃO EXPIRADA')).toEqual([0]);
      expect(await found('conceicao')).toEqual([0]);
      expect(await found('Sesión')).toEqual([1, 3]);
      expect(await found('sesion')).toEqual([1, 3]);
      expect(await found('lucia muñoz')).toEqual([1]);
      expect(await found('MUNOZ caducada')).toEqual([1]);
      expect(await found('session')).toEqual([2]);
      expect(await found("o'brien")).toEqual([2]);
      expect(await found('expir')).toEqual([0, 2]);
      // Every word must be there.
      expect(await found('expired joana')).toEqual([]);
      // LIKE's wildcards are taken literally.
      expect(await found('100%')).toEqual([3]);
      expect(await found('%')).toEqual([3]);
      expect(await found('_')).toEqual([]);
      // Fields and ids are searched too: the event names, the context.
      expect(
        (await allLogs(ctx, admin.token, { search: `auth.sign_in ${admin.user.id}` })).length,
      ).toBeGreaterThan(0);
    });

    it('pages newest first without gaps or repeats, events of one millisecond included', async () => {
      const tag = tagged('paging');
      // The test clock stands still: all of these have one timestamp, and their ids decide.
      for (let n = 0; n < 23; n += 1)
        await post(ctx, '/api/test/warn', { message: `${tag} number ${n}` });
      const whole = await storedLogs(ctx, admin.token, { search: tag }, 23);
      expect(whole).toHaveLength(23);
      expect(new Set(whole.map((l) => l.timestamp)).size).toBe(1);

      const pages: LogEntry[][] = [];
      let cursor: string | undefined;
      do {
        const res = await listLogs(ctx, admin.token, { search: tag, limit: 5, cursor });
        expect(res.statusCode).toBe(200);
        const page = res.json<ListLogsResponse>();
        pages.push(page.logs);
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      expect(pages.map((page) => page.length)).toEqual([5, 5, 5, 5, 3]);
      expect(pages.flat().map((l) => l.id)).toEqual(whole.map((l) => l.id));

      // Events that arrive while a person pages do not shift the pages after the one they are at.
      const first = (
        await listLogs(ctx, admin.token, { search: tag, limit: 10 })
      ).json<ListLogsResponse>();
      ctx.clock.advance(1000);
      await post(ctx, '/api/test/warn', { message: `${tag} newer` });
      await storedLogs(ctx, admin.token, { search: tag }, 24);
      const next = (
        await listLogs(ctx, admin.token, { search: tag, limit: 20, cursor: first.nextCursor! })
      ).json<ListLogsResponse>();
      expect([...first.logs, ...next.logs].map((l) => l.id)).toEqual(whole.map((l) => l.id));
      expect(next.nextCursor).toBeNull();
    });

    it("refuses a bad query with a 400 in the caller's language", async () => {
      const cursor = (await listLogs(ctx, admin.token, { limit: 1 })).json<ListLogsResponse>()
        .nextCursor!;
      expect(cursor).toBeTruthy();
      const [payload, signature] = cursor.split('.') as [string, string];
      const forgedPayload = Buffer.from(
        JSON.stringify(['2099-01-01T00:00:00.000Z', '00000000-0000-0000-0000-000000000000']),
      ).toString('base64url');
      const cases: [Query | string, string, string][] = [
        [{ level: 'debug' }, 'level', 'validation.invalidValue'],
        [{ category: 'billing' }, 'category', 'validation.invalidValue'],
        [{ limit: 0 }, 'limit', 'validation.invalidValue'],
        [{ limit: 201 }, 'limit', 'validation.invalidValue'],
        [{ limit: 'ten' }, 'limit', 'validation.invalidValue'],
        [{ limit: 2.5 }, 'limit', 'validation.invalidValue'],
        [{ from: 'yesterday' }, 'from', 'adminValidation.logDateInvalid'],
        [{ to: '2026-01-01' }, 'to', 'adminValidation.logDateInvalid'],
        [
          { from: '2026-02-01T00:00:00Z', to: '2026-01-01T00:00:00Z' },
          'to',
          'adminValidation.logRangeInvalid',
        ],
        [{ search: 'x'.repeat(201) }, 'search', 'validation.searchTooLong'],
        [{ cursor: 'x'.repeat(201) }, 'cursor', 'validation.invalidValue'],
        ['level=warn&level=error', 'level', 'validation.invalidValue'],
      ];
      for (const [query, field, key] of cases) {
        const res =
          typeof query === 'string'
            ? await get(ctx, `/api/logs?${query}`, { token: admin.token, language: 'es-ES' })
            : await listLogs(ctx, admin.token, query, 'es-ES');
        expect(res.statusCode, JSON.stringify(query)).toBe(400);
        expect(res.json(), JSON.stringify(query)).toEqual({
          success: false,
          message: message('es-ES', 'errors.validation'),
          errors: { [field]: message('es-ES', key) },
        });
      }
      const tampered = [
        'not-a-cursor',
        `${payload}.${signature}x`,
        `${forgedPayload}.${signature}`,
        `${payload}.${signature}.${signature}`,
        `${payload.slice(0, -2)}AA.${signature}`,
        `.${signature}`,
      ];
      for (const bad of tampered) {
        const res = await listLogs(ctx, admin.token, { cursor: bad }, 'pt-BR');
        expect(res.statusCode, bad).toBe(400);
        expect(res.json(), bad).toEqual({
          success: false,
          message: message('pt-BR', 'errors.logsCursorInvalid'),
          errors: { cursor: message('pt-BR', 'errors.logsCursorInvalid') },
        });
      }
      // Times a database timestamp cannot hold are bounds all the same: they exclude all or nothing.
      const count = async (query: Query) =>
        (await listLogs(ctx, admin.token, { ...query, limit: 200 })).json<ListLogsResponse>().logs
          .length;
      const everything = await count({});
      expect(everything).toBeGreaterThan(0);
      // (At least as many as before: events may have been written since.)
      expect(
        await count({ from: '0000-01-01T00:00:00Z', to: '9999-12-31T23:59:59-05:00' }),
      ).toBeGreaterThanOrEqual(everything);
      expect(await count({ to: '0000-01-01T00:00:00+01:00' })).toBe(0);
      expect(await count({ from: '9999-12-31T23:00:00-05:00' })).toBe(0);
      // NUL is refused as anywhere else; a search that is all spaces finds everything.
      expect((await listLogs(ctx, admin.token, { search: 'a\u0000b' })).statusCode).toBe(400);
      expect(
        (await listLogs(ctx, admin.token, { search: '   ', limit: 1 })).json<ListLogsResponse>()
          .logs,
      ).toHaveLength(1);
    });
  });

  it('never stores a password, an e-mail code, a token, a password hash or the AI key', async () => {
    // A flow through every secret: a code, a password, a wrong one, a password typed in the name
    // field, tokens, the AI key (in use above).
    const email = uniqueEmail('secretive');
    const password = `Pa55-${randomBytes(6).toString('hex')}`;
    const wrong = `Wr0ng-${randomBytes(6).toString('hex')}`;
    const { code } = await requestCode(ctx, { email });
    expect((await completeRegistration(ctx, { email, password, otp: code })).statusCode).toBe(200);
    expect((await login(ctx, { identifier: email, password: wrong })).statusCode).toBe(401);
    expect((await login(ctx, { identifier: password, password })).statusCode).toBe(401);
    const signedIn = await login(ctx, { identifier: email, password });
    const token = signedIn.json<{ token: string }>().token;
    await post(ctx, '/api/test/warn', {
      message: 'a handler logging too much',
      fields: { body: { email, password, otp: code, token } },
    });
    await storedLogs(ctx, admin.token, { search: 'a handler logging too much' });
    await storedLogs(
      ctx,
      admin.token,
      { search: signedIn.json<{ user: { id: string } }>().user.id, category: 'auth' },
      2,
    );

    const rows = await ctx.database.db.select().from(logEvents);
    expect(rows.length).toBeGreaterThan(30);
    const stored = JSON.stringify(rows);
    for (const secret of [
      password,
      wrong,
      AI_KEY,
      admin.token,
      member.token,
      token,
      token.split('.')[2]!,
      '$argon2',
    ]) {
      expect(stored).not.toContain(secret);
    }
    expect(containsNumber(stored, code)).toBe(false);
  });
});

describe('without SMTP', () => {
  let ctx: TestContext;

  beforeAll(async () => {
    // Mail goes to the server's log instead (SMTP_URL unset): codes included, for the operator.
    ctx = await createTestApp({ logs: QUICK_LOGS, smtpUrl: undefined });
  });
  afterAll(async () => ctx?.close());

  it("keeps the mailed codes on the server's own log, never in the stored one", async () => {
    const email = uniqueEmail('nosmtp');
    expect((await post(ctx, '/api/send-otp', { email, purpose: 'registration' })).statusCode).toBe(
      200,
    );
    const mailLine = ctx.logs.find(
      (line) => line.includes('SMTP_URL is not set') && line.includes(email),
    );
    const code = /\b(\d{6})\b/.exec(JSON.parse(mailLine!).msg as string)![1]!;
    expect((await completeRegistration(ctx, { email, otp: code })).statusCode).toBe(200);
    const admin = (await login(ctx, { identifier: email, password: DEFAULT_PASSWORD })).json<{
      token: string;
      user: { id: string };
    }>();
    await storedLogs(ctx, admin.token, { search: admin.user.id }, 2);
    const stored = JSON.stringify(await ctx.database.db.select().from(logEvents));
    expect(stored).not.toContain('SMTP_URL is not set');
    expect(containsNumber(stored, code)).toBe(false);
  });
});

describe('a WhatsApp connection that ends by itself', () => {
  let ctx: TestContext;

  beforeAll(async () => {
    // One QR code, shown 30 ms: nobody scans it, and the connection closes (qr-limit).
    ctx = await createTestApp({
      logs: QUICK_LOGS,
      whatsapp: { transport: 'sandbox', qr: { refreshMs: 30, limit: 1 } },
    });
  });
  afterAll(async () => ctx?.close());

  it('is stored as a warning with its reason', async () => {
    const admin = await registerAndLogin(ctx);
    expect((await post(ctx, '/api/whatsapp/connect', {}, { token: admin.token })).statusCode).toBe(
      200,
    );
    const [closed] = await storedLogs(ctx, admin.token, { category: 'whatsapp' });
    expect(closed).toMatchObject({
      level: 'warn',
      message: 'WhatsApp connection closed: the QR code was not scanned in time',
      context: {
        category: 'whatsapp',
        event: 'whatsapp.closed',
        reason: 'qr-limit',
        userId: admin.user.id,
      },
    });
  });
});

describe('writing the stored log', () => {
  it('holds a bounded number of events while the database refuses them, drops the oldest and says how many', async () => {
    const ctx = await createTestApp(
      { logs: { writer: { flushMs: 20, batchRows: 10, bufferedRows: 40 } } },
      { setup: loggingRoutes },
    );
    try {
      const admin = await registerAndLogin(ctx);
      const tag = tagged('outage');
      // The table is out of reach for a while: every write fails as with the database down.
      await ctx.database.db.execute(sql`alter table log_events rename to log_events_away`);
      for (let n = 0; n < 100; n += 1)
        await post(ctx, '/api/test/warn', { message: `${tag} ${n}` });
      await eventually(
        async () => ctx.logs.some((line) => line.includes('log events could not be stored')),
        'the failure is logged',
      );
      await ctx.database.db.execute(sql`alter table log_events_away rename to log_events`);

      // Written last, once writing works again: what was dropped, and how many.
      const [dropped] = await storedLogs(ctx, admin.token, { search: 'logs.dropped' });
      expect(dropped).toMatchObject({
        level: 'warn',
        context: { category: 'server', event: 'logs.dropped', dropped: expect.any(Number) },
      });
      // The newest were kept: those waiting when the table came back, a run up to the last one,
      // and at most the batch (10) that was being written then. That batch left the buffer
      // before the newest arrived, so it can be older than the rest, with a gap between (a
      // write under way is not taken back).
      const numbers = (await allLogs(ctx, admin.token, { search: tag }))
        .map((l) => Number(l.message.split(' ')[1]))
        .sort((a, b) => a - b);
      expect(numbers.length).toBeGreaterThanOrEqual(40);
      expect(numbers.length).toBeLessThanOrEqual(50);
      const runs = numbers.reduce<number[][]>((all, n) => {
        const run = all.at(-1);
        if (run && n === run.at(-1)! + 1) run.push(n);
        else all.push([n]);
        return all;
      }, []);
      expect(runs.at(-1)!.at(-1)).toBe(99);
      expect(runs.length).toBeLessThanOrEqual(2);
      expect(runs.slice(0, -1).flat().length).toBeLessThanOrEqual(10);
      // Every event not kept is counted: in the first warning, or (one pushed out by that warning
      // itself) in the next.
      await eventually(async () => {
        const counted = (await allLogs(ctx, admin.token, { search: 'logs.dropped' })).reduce(
          (sum, l) => sum + Number(l.context.dropped),
          0,
        );
        return counted >= 100 - numbers.length;
      }, 'every dropped event counted');
      // Said once on the server's log, however many writes failed; never stored in itself.
      expect(
        ctx.logs.filter((line) => line.includes('log events could not be stored')),
      ).toHaveLength(1);
      expect(await allLogs(ctx, admin.token, { search: 'could not be stored' })).toEqual([]);
    } finally {
      await ctx.close();
    }
  });

  it('writes what gathered when the app closes', async () => {
    const database = await createTestDatabase();
    try {
      const ctx = await createTestApp(
        { logs: { writer: { flushMs: 60 * 60_000 } } },
        { setup: loggingRoutes, database },
      );
      const tag = tagged('closing');
      await post(ctx, '/api/test/warn', { message: tag });
      const rows = async () =>
        (
          await database.db
            .select()
            .from(logEvents)
            .where(sql`${logEvents.message} = ${tag}`)
        ).length;
      expect(await rows()).toBe(0);
      await ctx.close();
      expect(await rows()).toBe(1);
    } finally {
      await database.drop();
    }
  });
});

describe('retention', () => {
  const DAY = 24 * 60 * 60_000;

  it('deletes the events older than LOG_RETENTION_DAYS at start, once for two instances, and nothing newer', async () => {
    const database = await createTestDatabase();
    const state = process.env.TEST_REDIS_URL
      ? undefined
      : createSharedState({ keyPrefix: tagged('retention') });
    const keyPrefix = tagged('retention');
    const apps: TestContext[] = [];
    try {
      const now = Date.now();
      const event = (daysAgo: number, message: string) => ({
        at: new Date(now - daysAgo * DAY),
        level: 'info' as const,
        category: 'server' as const,
        message,
        context: {},
      });
      // More than one batch of old ones, and some just inside the retention.
      const old = Array.from({ length: 25 }, (_, n) => event(8 + n / 10, `old ${n}`));
      const kept = [event(6.9, 'recent 1'), event(1, 'recent 2'), event(0, 'recent 3')];
      await database.db.insert(logEvents).values([...old, ...kept]);

      // Two instances sharing the database and the state, as behind a load balancer.
      const secret = randomBytes(32).toString('hex');
      for (let i = 0; i < 2; i += 1) {
        apps.push(
          await createTestApp(
            {
              secret,
              ...(state ? { state } : {}),
              limits: { keyPrefix },
              logs: { retention: { days: 7, batchRows: 10 } },
            },
            { database },
          ),
        );
      }
      const messages = async () =>
        (
          await database.db
            .select({ message: logEvents.message })
            .from(logEvents)
            .where(sql`${logEvents.message} similar to '(old|recent) %'`)
        )
          .map((r) => r.message)
          .sort();
      await eventually(
        async () => (await messages()).every((m) => !m.startsWith('old')),
        'the old events deleted',
      );
      expect(await messages()).toEqual(['recent 1', 'recent 2', 'recent 3']);
      // One instance did it; the other found it done or under way.
      await eventually(
        async () =>
          apps.some((app) => app.logs.some((line) => line.includes('old log events deleted'))),
        'the deletion logged',
      );
      const deleting = apps.filter((app) =>
        app.logs.some((line) => line.includes('old log events deleted')),
      );
      expect(deleting).toHaveLength(1);
      expect(
        JSON.parse(deleting[0]!.logs.find((line) => line.includes('old log events deleted'))!),
      ).toMatchObject({ deleted: 25 });

      // A page read on one instance goes on on the other: the cursor is signed with the shared secret.
      const admin = await registerAndLogin(apps[0]!);
      const first = (
        await listLogs(apps[0]!, admin.token, { search: 'recent', limit: 2 })
      ).json<ListLogsResponse>();
      const rest = await listLogs(apps[1]!, admin.token, {
        search: 'recent',
        limit: 2,
        cursor: first.nextCursor!,
      });
      expect(rest.statusCode).toBe(200);
      expect([...first.logs, ...rest.json<ListLogsResponse>().logs].map((l) => l.message)).toEqual([
        'recent 3',
        'recent 2',
        'recent 1',
      ]);
    } finally {
      for (const app of apps) await app.close();
      await state?.close();
      await database.drop();
    }
  });
});
