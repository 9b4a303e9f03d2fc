import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, desc, eq } from 'drizzle-orm';
import {
  MONITOR_ACTIONS,
  type Language,
  type MonitorStatus,
  type User,
  type WhatsAppStatus,
} from '@contrateia/shared';
import { createTwoInstances, routesOf, type TestContext } from '../../../test/helpers';
import {
  expectAdminOnly,
  get,
  login,
  message,
  post,
  register,
  sendOtp,
  uniqueEmail,
  UNLIMITED_ROUTES,
} from '../../../test/factories';
import {
  FIRST_SAMPLE_MS,
  monitorStatus,
  QUICK_MONITOR,
  serviceOf,
  statusWhen,
} from '../../../test/monitor';
import { linkSandbox } from '../../../test/whatsapp';
import { adminAudit } from '@/features/audit/audit.table';
import { emailCodes, sessions, users } from '@/features/auth/auth.table';
import { whatsappAccounts } from '@/features/whatsapp/whatsapp.table';

type Account = { email: string; password: string; user: User; token: string };

/** Every route of the monitor, with what an admin sends. */
const MONITOR_ROUTES: { method: 'GET' | 'POST'; url: string }[] = [
  { method: 'GET', url: '/api/monitor/status' },
  ...MONITOR_ACTIONS.map((action) => ({
    method: 'POST' as const,
    url: `/api/monitor/actions/${action}`,
  })),
];

async function signIn(
  ctx: TestContext,
  { name, language }: { name: string; language?: Language },
): Promise<Account> {
  const { email, password } = await register(ctx, { name, language });
  return logIn(ctx, { email, password });
}

async function logIn(
  ctx: TestContext,
  { email, password }: { email: string; password: string },
): Promise<Account> {
  const res = await login(ctx, { identifier: email, password });
  expect(res.statusCode).toBe(200);
  const { user, token } = res.json<{ user: User; token: string }>();
  return { email, password, user, token };
}

/** The latest admin change recorded. */
async function latestAudit(ctx: { database: TestContext['database'] }) {
  const [entry] = await ctx.database.db
    .select()
    .from(adminAudit)
    .orderBy(desc(adminAudit.at), desc(adminAudit.id))
    .limit(1);
  return entry;
}

describe('the live monitor on two instances', () => {
  let instances: Awaited<ReturnType<typeof createTwoInstances>>;
  let a: TestContext;
  let b: TestContext;
  let admin: Account;
  let member: Account;

  beforeAll(async () => {
    instances = await createTwoInstances({
      limits: {
        routes: UNLIMITED_ROUTES,
        monitorActions: { 'cleanup-sessions': 100, 'test-email': 100, 'reconnect-whatsapp': 100 },
      },
      whatsapp: { transport: 'sandbox' },
      monitor: QUICK_MONITOR,
    });
    ({ a, b } = instances);
    // The first account of a database is its admin; she reads her mail in Spanish.
    admin = await signIn(a, { name: 'Ana Admin', language: 'es-ES' });
    member = await signIn(a, { name: 'Bruno' });
  });

  afterAll(async () => instances?.close());

  const send = (
    ctx: TestContext,
    route: (typeof MONITOR_ROUTES)[number],
    token?: string,
    language?: Language,
  ) =>
    route.method === 'GET'
      ? get(ctx, route.url, { token, language })
      : post(ctx, route.url, {}, { token, language });

  it('lists every /api/monitor route the app has', () => {
    const routes = routesOf(a).filter((route) => route.includes(' /api/monitor'));
    expect(routes.sort()).toEqual(MONITOR_ROUTES.map((r) => `${r.method} ${r.url}`).sort());
  });

  describe.each(MONITOR_ROUTES)('$method $url', (route) => {
    it("answers 401 without a session, 403 to a user and to an admin in user mode, in the caller's language", async () => {
      await expectAdminOnly(a, {
        admin,
        member,
        send: ({ token, language }) => send(a, route, token, language),
      });
    });
  });

  it('answers an unknown action 404, as any path that does not exist', async () => {
    const res = await post(
      a,
      '/api/monitor/actions/format-disk',
      {},
      { token: admin.token, language: 'en-US' },
    );
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ success: false });
  });

  it("refuses a malformed or oversized body before doing anything, in the caller's language, and ignores a well-formed one", async () => {
    const url = '/api/monitor/actions/test-email';
    const since = a.smtp.messages.length;
    const headers = {
      authorization: `Bearer ${admin.token}`,
      'content-type': 'application/json',
      'accept-language': 'es-ES',
    };
    const malformed = await a.app.inject({
      method: 'POST',
      url,
      headers,
      payload: '{"to": "someone-else@example.com"',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({
      success: false,
      message: message('es-ES', 'errors.malformedJson'),
    });
    const huge = await a.app.inject({
      method: 'POST',
      url,
      headers,
      payload: JSON.stringify({ padding: 'x'.repeat(2 * 1024 * 1024) }),
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toEqual({
      success: false,
      message: message('es-ES', 'errors.payloadTooLarge'),
    });
    expect(a.smtp.messages.length).toBe(since);
    // What the body says changes nothing: the mail goes to the caller, never to an address sent.
    const ignored = await post(a, url, { to: 'someone-else@example.com' }, { token: admin.token });
    expect(ignored.statusCode).toBe(200);
    expect(ignored.json()).toMatchObject({ to: admin.email });
    await a.smtp.waitForMail(admin.email, { since });
    expect(a.smtp.messages.slice(since).map((mail) => mail.to)).not.toContain(
      'someone-else@example.com',
    );
  });

  it('reads real figures, each within its range, and every service up but what this setup lacks', async () => {
    const current = await statusWhen(
      a,
      admin,
      (s) => s.figures.memoryTotalBytes > 0 && s.figures.diskTotalBytes > 0,
      'the machine read',
      FIRST_SAMPLE_MS,
    );
    for (const share of [
      current.performance.cpu,
      current.performance.memory,
      current.performance.disk,
    ]) {
      expect(share).toBeGreaterThanOrEqual(0);
      expect(share).toBeLessThanOrEqual(100);
    }
    const { figures } = current;
    expect(figures.cpuCores).toBeGreaterThan(0);
    expect(figures.memoryUsedBytes).toBeGreaterThan(0);
    expect(figures.memoryUsedBytes).toBeLessThanOrEqual(figures.memoryTotalBytes);
    expect(figures.diskUsedBytes).toBeGreaterThan(0);
    expect(figures.diskUsedBytes).toBeLessThanOrEqual(figures.diskTotalBytes);
    expect(figures.processUptimeSeconds).toBeGreaterThan(0);
    // The link's speed is unknown on most virtual machines: then no percent, the bytes per second all the same.
    if (figures.networkLinkBitsPerSecond === null) expect(current.performance.network).toBeNull();
    else expect(current.performance.network).toBeGreaterThanOrEqual(0);
    expect(figures.networkRxBytesPerSecond).toBeGreaterThanOrEqual(0);
    expect(Date.parse(current.lastUpdate)).not.toBeNaN();

    const names = current.services.map((service) => service.name);
    expect(names).toEqual([
      'database',
      ...(process.env.TEST_REDIS_URL ? ['redis'] : []),
      'mail',
      'ai',
      'whatsapp',
      'sockets',
    ]);
    const database = serviceOf(current, 'database');
    expect(database).toMatchObject({
      status: 'up',
      details: { kind: process.env.TEST_DATABASE_URL ? 'postgres' : 'pglite' },
    });
    expect(database.details.latencyMs).toBeGreaterThanOrEqual(0);
    if (process.env.TEST_REDIS_URL) expect(serviceOf(current, 'redis').status).toBe('up');
    // The test app mails through a real SMTP server in this process.
    expect(serviceOf(current, 'mail')).toMatchObject({ status: 'up', details: { kind: 'smtp' } });
    expect(serviceOf(current, 'ai')).toMatchObject({ status: 'up', details: { kind: 'builtin' } });
    expect(serviceOf(current, 'whatsapp')).toMatchObject({
      status: 'up',
      details: { linked: 0, connected: 0 },
    });
    expect(serviceOf(current, 'sockets')).toMatchObject({
      status: 'up',
      details: { connections: 0 },
    });
    expect(current.systemStatus).toBe('healthy');
    for (const service of current.services) expect(service.uptime).toBeGreaterThanOrEqual(0);
  });

  it('answers the same uptimes on both instances, counted from when each service was first seen up', async () => {
    await statusWhen(
      b,
      admin,
      (s) => serviceOf(s, 'database').uptime !== null,
      'B has sampled',
      FIRST_SAMPLE_MS,
    );
    const before = serviceOf(await monitorStatus(a, admin), 'database').uptime!;
    // Both instances read one clock; the up-since mark is one, in the shared state.
    instances.clock.advance(90_000);
    const [fromA, fromB] = await Promise.all([monitorStatus(a, admin), monitorStatus(b, admin)]);
    for (const name of ['database', 'mail', 'ai', 'whatsapp', 'sockets'] as const) {
      expect(serviceOf(fromA, name).uptime).toBe(serviceOf(fromB, name).uptime);
    }
    expect(serviceOf(fromA, 'database').uptime).toBe(before + 90);
  });

  it('counts the real-time connections open on every instance', async () => {
    const base = await a.app.listen({ host: '127.0.0.1', port: 0 });
    const socket: Socket = io(base, {
      path: '/socket.io',
      transports: ['websocket'],
      auth: { token: admin.token },
      reconnection: false,
      forceNew: true,
    });
    try {
      await new Promise<void>((resolve, reject) => {
        socket.once('connect', () => resolve());
        socket.once('connect_error', reject);
      });
      // Opened on A; B counts it too.
      await statusWhen(
        b,
        admin,
        (s) => serviceOf(s, 'sockets').details.connections === 1,
        'B counts the socket open on A',
      );
      await statusWhen(
        a,
        admin,
        (s) => serviceOf(s, 'sockets').details.connections === 1,
        'A counts its socket',
      );
    } finally {
      socket.close();
    }
    await statusWhen(
      b,
      admin,
      (s) => serviceOf(s, 'sockets').details.connections === 0,
      'the closed socket is no longer counted',
    );
  });

  it('shows each job queue of every instance: jobs waiting, running, and failed in the last hour', async () => {
    const { database } = instances;
    // A reply due in an hour, one that failed for good a minute ago, and one two hours ago.
    const { rows } = await database.execute(
      `INSERT INTO pgboss.job (name, data, state, start_after, completed_on, policy) VALUES
         ('whatsapp-reply', '{}', 'created', now() + interval '1 hour', NULL, 'stately'),
         ('whatsapp-reply', '{}', 'failed', now() - interval '2 hours', now() - interval '1 minute', 'stately'),
         ('whatsapp-reply', '{}', 'failed', now() - interval '3 hours', now() - interval '2 hours', 'stately')
       RETURNING id`,
      [],
    );
    try {
      const queuesOf = (status: MonitorStatus) =>
        Object.fromEntries(status.queues.map(({ name, ...figures }) => [name, figures]));
      for (const ctx of [a, b]) {
        const current = await statusWhen(
          ctx,
          admin,
          (s) => queuesOf(s)['whatsapp-reply']?.waiting === 1,
          'the reply waiting counted',
        );
        expect(queuesOf(current)).toEqual({
          'logs-retention': { waiting: 0, active: 0, failedLastHour: 0 },
          'sessions-cleanup': { waiting: 0, active: 0, failedLastHour: 0 },
          'whatsapp-media-retention': { waiting: 0, active: 0, failedLastHour: 0 },
          'whatsapp-relay': { waiting: 0, active: 0, failedLastHour: 0 },
          'whatsapp-reply': { waiting: 1, active: 0, failedLastHour: 1 },
          'whatsapp-sandbox-offline': { waiting: 0, active: 0, failedLastHour: 0 },
          'whatsapp-send': { waiting: 0, active: 0, failedLastHour: 0 },
        });
      }
    } finally {
      await database.execute(`DELETE FROM pgboss.job WHERE id = ANY($1::uuid[])`, [
        rows.map((row) => row.id),
      ]);
    }
  });

  it("removes expired sessions and used or expired e-mail codes, keeping live ones and each account's latest, and records it", async () => {
    const { db } = instances.database;
    const sessionsOf = async (userId: string) =>
      (await db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, userId)))
        .length;
    const rows = async (table: typeof sessions | typeof emailCodes) =>
      (await db.select({ n: count() }).from(table))[0]!.n;
    // Carla signs in on three devices and signs out of one; a code is asked for an address nobody finishes registering with.
    const carla = await signIn(a, { name: 'Carla' });
    for (let i = 0; i < 2; i += 1) await logIn(a, carla);
    expect((await post(a, '/api/logout', {}, { token: carla.token })).statusCode).toBe(200);
    const abandoned = uniqueEmail('abandoned');
    expect((await sendOtp(a, { email: abandoned })).statusCode).toBe(200);
    expect(await sessionsOf(carla.user.id)).toBe(3);

    // Half an hour later (and a minute for activity not yet written back), every one of them is idle.
    instances.clock.advance(32 * 60_000);
    admin = await logIn(a, admin);
    const live = await logIn(a, carla);
    const sessionsBefore = await rows(sessions);
    const codesBefore = await rows(emailCodes);

    const res = await post(a, '/api/monitor/actions/cleanup-sessions', {}, { token: admin.token });
    expect(res.statusCode).toBe(200);
    const sessionsAfter = await rows(sessions);
    const codesAfter = await rows(emailCodes);
    expect(res.json()).toEqual({
      success: true,
      action: 'cleanup-sessions',
      removed: { sessions: sessionsBefore - sessionsAfter, codes: codesBefore - codesAfter },
    });
    // Carla's three old sessions went; her new one stays and still signs her in.
    expect(await sessionsOf(carla.user.id)).toBe(1);
    expect((await get(b, '/api/user', { token: live.token })).statusCode).toBe(200);
    expect(await db.select().from(emailCodes).where(eq(emailCodes.email, abandoned))).toEqual([]);
    // Every account keeps its latest session: the users list still says when each was last seen.
    const perAccount = await db
      .select({ id: users.id, n: count(sessions.id) })
      .from(users)
      .leftJoin(sessions, eq(sessions.userId, users.id))
      .groupBy(users.id);
    expect(perAccount.filter((account) => account.n === 0)).toEqual([]);

    const entry = await latestAudit(instances);
    expect(entry).toMatchObject({
      actorId: admin.user.id,
      action: 'monitor.cleanup-sessions',
      target: 'sessions',
      changes: {
        sessions: { before: null, after: sessionsBefore - sessionsAfter },
        codes: { before: null, after: codesBefore - codesAfter },
      },
    });
    expect(entry!.ip).toBeTruthy();

    // Run again at once: nothing left to remove.
    const again = await post(
      a,
      '/api/monitor/actions/cleanup-sessions',
      {},
      { token: admin.token },
    );
    expect(again.json()).toEqual({
      success: true,
      action: 'cleanup-sessions',
      removed: { sessions: 0, codes: 0 },
    });
  });

  it('sends the calling admin a test e-mail in her own language, through the real SMTP server, and records it', async () => {
    const since = a.smtp.messages.length;
    const res = await post(
      a,
      '/api/monitor/actions/test-email',
      {},
      { token: admin.token, language: 'en-US' },
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      action: 'test-email',
      to: admin.email,
      mode: 'smtp',
    });
    const mail = await a.smtp.waitForMail(admin.email, { since });
    expect(mail.subject).toBe(message('es-ES', 'mail.testSubject'));
    expect(mail.text).toContain('Hola, Ana Admin:');
    expect(mail.text).toContain('monitor del sistema');

    const entry = await latestAudit(instances);
    expect(entry).toMatchObject({
      actorId: admin.user.id,
      action: 'monitor.test-email',
      target: admin.email,
    });
  });

  it('shows a linked WhatsApp account whose connection failed, and reconnects it', async () => {
    // Ana links her number through the sandbox (it plays the phone that scans the QR code).
    await linkSandbox(a, admin, '5511987650001');
    await statusWhen(
      b,
      admin,
      (s) =>
        serviceOf(s, 'whatsapp').status === 'up' &&
        serviceOf(s, 'whatsapp').details.connected === 1,
      'linked and connected',
    );

    // Its connection fails for good, as the transport reports it after every attempt.
    await instances.database.db
      .update(whatsappAccounts)
      .set({ state: 'failed', lastCloseReason: 'failed' })
      .where(eq(whatsappAccounts.userId, admin.user.id));
    const broken = await statusWhen(
      a,
      admin,
      (s) => serviceOf(s, 'whatsapp').status === 'degraded',
      'the failed connection shows',
    );
    expect(serviceOf(broken, 'whatsapp').details).toEqual({ linked: 1, connected: 0 });
    expect(broken.systemStatus).toBe('degraded');

    const res = await post(
      b,
      '/api/monitor/actions/reconnect-whatsapp',
      {},
      { token: admin.token },
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, action: 'reconnect-whatsapp', reconnected: 1 });
    const account = (await get(a, '/api/whatsapp/status', { token: admin.token })).json<{
      data: WhatsAppStatus;
    }>().data;
    expect(account).toMatchObject({ isReady: true, state: 'ready', phone: '5511987650001' });
    const healthy = await statusWhen(
      a,
      admin,
      (s) => serviceOf(s, 'whatsapp').status === 'up',
      'connected again',
    );
    expect(serviceOf(healthy, 'whatsapp').details).toEqual({ linked: 1, connected: 1 });

    const entry = await latestAudit(instances);
    expect(entry).toMatchObject({
      actorId: admin.user.id,
      action: 'monitor.reconnect-whatsapp',
      changes: { reconnected: { before: null, after: 1 } },
    });
    // Nothing left to reconnect.
    expect(
      (await post(a, '/api/monitor/actions/reconnect-whatsapp', {}, { token: admin.token })).json(),
    ).toMatchObject({ reconnected: 0 });
  });
});
