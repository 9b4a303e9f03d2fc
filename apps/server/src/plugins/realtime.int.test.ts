import { randomBytes } from 'node:crypto';
import net from 'node:net';
import { io, type Socket } from 'socket.io-client';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Language } from '@contrateia/shared';
import type {
  ClientToServerEvents,
  ServerEventName,
  ServerToClientEvents,
} from '@contrateia/shared/realtime/realtime.events';
import {
  createTestApp,
  createTestClock,
  createTestDatabase,
  type TestContext,
  NO_MONITOR,
} from '../../test/helpers';
import { settles, within } from '../../test/eventually';
import { message, post, registerAndLogin } from '../../test/factories';

type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** Every socket a test opened, closed after it. */
const opened: ClientSocket[] = [];

afterEach(() => {
  for (const socket of opened.splice(0)) socket.close();
});

async function listen(ctx: TestContext): Promise<string> {
  return ctx.app.listen({ host: '127.0.0.1', port: 0 });
}

/** A socket as the web app opens one (WebSocket, `auth: {token}`), not yet connected. */
function socketTo(
  url: string,
  auth: { token?: unknown; language?: Language } = {},
  headers: Record<string, string> = {},
) {
  const socket: ClientSocket = io(url, {
    path: '/socket.io',
    transports: ['websocket'],
    auth,
    extraHeaders: headers,
    reconnection: false,
    forceNew: true,
  });
  opened.push(socket);
  return socket;
}

/** Connects, or rejects with the server's refusal. */
function connect(
  url: string,
  auth: { token?: unknown; language?: Language } = {},
  headers: Record<string, string> = {},
) {
  const socket = socketTo(url, auth, headers);
  return new Promise<ClientSocket>((resolve, reject) => {
    socket.once('connect', () => resolve(socket));
    socket.once('connect_error', reject);
  });
}

function refusal(
  url: string,
  auth: { token?: unknown; language?: Language } = {},
  headers: Record<string, string> = {},
) {
  return connect(url, auth, headers).then(
    () => {
      throw new Error('connected');
    },
    (error: Error & { data?: unknown }) => error,
  );
}

function disconnection(socket: ClientSocket): Promise<string> {
  return within(
    new Promise((resolve) => socket.once('disconnect', (reason) => resolve(reason))),
    'the disconnection of the socket',
  );
}

function join(
  socket: ClientSocket,
  event: 'join-whatsapp' | 'leave-whatsapp' = 'join-whatsapp',
): Promise<{ ok: boolean }> {
  return within(new Promise((resolve) => socket.emit(event, resolve)), `the answer to ${event}`);
}

/**
 * Records every server event a socket receives. `until(event)` resolves with all of them once
 * `event` arrives: events from one server reach a socket in order, so what came before a marker
 * is all that was sent before it.
 */
function record(socket: ClientSocket) {
  const received: { event: string; payload: unknown }[] = [];
  const waiting: { event: string; resolve: () => void }[] = [];
  socket.onAny((event: string, payload: unknown) => {
    received.push({ event, payload });
    for (const wait of waiting.filter((w) => w.event === event)) wait.resolve();
  });
  return {
    received,
    until: (event: ServerEventName) =>
      within(
        new Promise<typeof received>((resolve) => {
          if (received.some((r) => r.event === event)) return resolve(received);
          waiting.push({ event, resolve: () => resolve(received) });
        }),
        `the event ${event} on the socket`,
      ),
  };
}

describe('Socket.IO on the app port', () => {
  let ctx: TestContext;
  let url: string;
  let admin: Awaited<ReturnType<typeof registerAndLogin>>;
  let ana: Awaited<ReturnType<typeof registerAndLogin>>;
  let bia: Awaited<ReturnType<typeof registerAndLogin>>;

  beforeAll(async () => {
    // Checked again only every minute: a revocation must reach the sockets by its own message.
    ctx = await createTestApp({ without: NO_MONITOR });
    // The first account is the admin.
    admin = await registerAndLogin(ctx, { name: 'Admin' });
    ana = await registerAndLogin(ctx, { name: 'Ana' });
    bia = await registerAndLogin(ctx, { name: 'Bia' });
    url = await listen(ctx);
  });
  afterAll(async () => ctx.close());

  it('connects with a good token', async () => {
    const socket = await connect(url, { token: ana.token });
    expect(socket.connected).toBe(true);
    expect(await join(socket)).toEqual({ ok: true });
  });

  it.each([
    ['no token', {}],
    ['an empty token', { token: '' }],
    ['a token that is not a string', { token: { sub: 'x' } }],
    ['a forged token', { token: 'eyJhbGciOiJIUzI1NiJ9.eyJzaWQiOiJ4In0.c2lnbmF0dXJl' }],
  ])('refuses %s, in the language asked for', async (_case, auth) => {
    const error = await refusal(url, { ...auth, language: 'en-US' });
    expect(error.message).toBe(message('en-US', 'errors.unauthorized'));
    expect(error.data).toEqual({ status: 401 });
  });

  it('words the refusal in the Accept-Language of the handshake, else pt-BR', async () => {
    expect((await refusal(url, {}, { 'accept-language': 'es-ES,es;q=0.9' })).message).toBe(
      message('es-ES', 'errors.unauthorized'),
    );
    expect((await refusal(url, {})).message).toBe(message('pt-BR', 'errors.unauthorized'));
  });

  it("reaches only the owner's sockets that joined, never another account's", async () => {
    const anaJoined = await connect(url, { token: ana.token });
    const anaNotJoined = await connect(url, { token: ana.token });
    const biaJoined = await connect(url, { token: bia.token });
    await join(anaJoined);
    await join(biaJoined);
    const [anaSeen, anaIdleSeen, biaSeen] = [
      record(anaJoined),
      record(anaNotJoined),
      record(biaJoined),
    ];

    ctx.app.realtime.emitToUser(ana.user.id, 'whatsapp:ready', { phone: '5511999990000' });
    // Markers: once each socket has one, what it received before is all it was sent.
    ctx.app.realtime.emitToUser(bia.user.id, 'whatsapp:qr', { qrCode: 'marker' });
    await join(anaNotJoined);
    ctx.app.realtime.emitToUser(ana.user.id, 'whatsapp:qr', { qrCode: 'marker' });

    expect(await anaSeen.until('whatsapp:qr')).toEqual([
      { event: 'whatsapp:ready', payload: { phone: '5511999990000' } },
      { event: 'whatsapp:qr', payload: { qrCode: 'marker' } },
    ]);
    expect(await anaIdleSeen.until('whatsapp:qr')).toEqual([
      { event: 'whatsapp:qr', payload: { qrCode: 'marker' } },
    ]);
    expect(await biaSeen.until('whatsapp:qr')).toEqual([
      { event: 'whatsapp:qr', payload: { qrCode: 'marker' } },
    ]);
  });

  it('stops reaching a socket once it left the room', async () => {
    const socket = await connect(url, { token: ana.token });
    await join(socket);
    expect(await join(socket, 'leave-whatsapp')).toEqual({ ok: true });
    const seen = record(socket);
    ctx.app.realtime.emitToUser(ana.user.id, 'whatsapp:disconnected', { reason: 'gone' });
    await join(socket);
    ctx.app.realtime.emitToUser(ana.user.id, 'whatsapp:qr', { qrCode: 'marker' });
    expect(await seen.until('whatsapp:qr')).toEqual([
      { event: 'whatsapp:qr', payload: { qrCode: 'marker' } },
    ]);
  });

  it('ignores unexpected client payloads and events, and stays connected', async () => {
    const socket = await connect(url, { token: ana.token });
    const raw = socket as unknown as Socket;
    // A payload where none belongs: refused through the acknowledgement, and no room joined.
    expect(
      await new Promise((resolve) => raw.emit('join-whatsapp', { userId: bia.user.id }, resolve)),
    ).toEqual({ ok: false });
    expect(await new Promise((resolve) => raw.emit('leave-whatsapp', 'x', 1, resolve))).toEqual({
      ok: false,
    });
    raw.emit('join-whatsapp', { userId: bia.user.id });
    raw.emit('no-such-event', { a: 1 });
    raw.emit('join-whatsapp', null);
    const seen = record(socket);
    ctx.app.realtime.emitToUser(bia.user.id, 'whatsapp:ready', { phone: '1' });
    ctx.app.realtime.emitToUser(ana.user.id, 'whatsapp:ready', { phone: '2' });
    expect(await join(socket)).toEqual({ ok: true });
    ctx.app.realtime.emitToUser(ana.user.id, 'whatsapp:qr', { qrCode: 'marker' });
    expect(await seen.until('whatsapp:qr')).toEqual([
      { event: 'whatsapp:qr', payload: { qrCode: 'marker' } },
    ]);
    expect(socket.connected).toBe(true);
  });

  it('drops the socket of a session signed out, and refuses its token afterwards', async () => {
    const account = await registerAndLogin(ctx, { name: 'Caio' });
    const other = await post(ctx, '/api/login', {
      email: account.email,
      password: account.password,
    });
    const otherToken = other.json<{ token: string }>().token;
    const socket = await connect(url, { token: account.token });
    const untouched = await connect(url, { token: otherToken });
    const dropped = disconnection(socket);
    expect((await post(ctx, '/api/logout', {}, { token: account.token })).statusCode).toBe(200);
    expect(await dropped).toBe('io server disconnect');
    expect((await refusal(url, { token: account.token, language: 'en-US' })).message).toBe(
      message('en-US', 'errors.unauthorized'),
    );
    // The account's other session goes on.
    expect(untouched.connected).toBe(true);
    expect(await join(untouched)).toEqual({ ok: true });
  });

  it('drops every socket of an account an admin deactivated, and refuses its tokens afterwards', async () => {
    const account = await registerAndLogin(ctx, { name: 'Edu' });
    const second = (
      await post(ctx, '/api/login', { email: account.email, password: account.password })
    ).json<{ token: string }>().token;
    const sockets = [
      await connect(url, { token: account.token }),
      await connect(url, { token: second }),
    ];
    const dropped = sockets.map(disconnection);
    const res = await post(
      ctx,
      `/api/admin/users/${account.user.id}/status`,
      { isActive: false },
      { token: admin.token },
    );
    expect(res.statusCode).toBe(200);
    expect(await Promise.all(dropped)).toEqual(['io server disconnect', 'io server disconnect']);
    expect((await refusal(url, { token: second, language: 'en-US' })).message).toBe(
      message('en-US', 'errors.unauthorized'),
    );
  });

  it('drops the socket of the session a role switch replaced; the new token connects', async () => {
    const socket = await connect(url, { token: admin.token });
    const dropped = disconnection(socket);
    const res = await post(ctx, '/api/switch-role', { targetRole: 'user' }, { token: admin.token });
    expect(res.statusCode).toBe(200);
    expect(await dropped).toBe('io server disconnect');
    const fresh = await connect(url, { token: res.json<{ token: string }>().token });
    expect(await join(fresh)).toEqual({ ok: true });
  });

  it("drops the sockets of the account's other sessions on a password change, and keeps this one's", async () => {
    const account = await registerAndLogin(ctx, { name: 'Bruno' });
    const second = (
      await post(ctx, '/api/login', { email: account.email, password: account.password })
    ).json<{ token: string }>().token;
    const elsewhere = await connect(url, { token: second });
    const here = await connect(url, { token: account.token });
    const dropped = disconnection(elsewhere);
    const newPassword = 'Another-Horse-43';
    const res = await post(
      ctx,
      '/api/change-password',
      { currentPassword: account.password, newPassword, confirmPassword: newPassword },
      { token: account.token },
    );
    expect(res.statusCode).toBe(200);
    expect(await dropped).toBe('io server disconnect');
    expect(await join(here)).toEqual({ ok: true });
  });

  it('drops the sockets of the other sessions on "sign out elsewhere", and of a deleted account', async () => {
    const account = await registerAndLogin(ctx, { name: 'Duda' });
    const second = (
      await post(ctx, '/api/login', { email: account.email, password: account.password })
    ).json<{ token: string }>().token;
    const elsewhere = await connect(url, { token: second });
    const here = await connect(url, { token: account.token });
    const droppedElsewhere = disconnection(elsewhere);
    expect(
      (await post(ctx, '/api/sessions/revoke-others', {}, { token: account.token })).statusCode,
    ).toBe(200);
    expect(await droppedElsewhere).toBe('io server disconnect');
    expect(here.connected).toBe(true);

    const droppedHere = disconnection(here);
    expect(
      (
        await post(
          ctx,
          '/api/account/delete',
          { password: account.password },
          { token: account.token },
        )
      ).statusCode,
    ).toBe(200);
    expect(await droppedHere).toBe('io server disconnect');
  });
});

describe('a session that expires with its socket open', () => {
  let ctx: TestContext;
  let url: string;
  beforeAll(async () => {
    ctx = await createTestApp({ without: NO_MONITOR, realtimeRecheckMs: 20 });
    url = await listen(ctx);
  });
  afterAll(async () => ctx.close());

  it('drops a socket whose session expired, and its events never extend the session', async () => {
    const account = await registerAndLogin(ctx);
    const socket = await connect(url, { token: account.token });
    ctx.clock.advance(20 * 60_000);
    // An event 20 minutes on: the session holds, and the event does not count as its use.
    expect(await join(socket)).toEqual({ ok: true });
    const dropped = disconnection(socket);
    ctx.clock.advance(11 * 60_000);
    expect(await dropped).toBe('io server disconnect');
  });
});

describe('closing the app with sockets open', () => {
  it('ends the transports (the client may reconnect) and closes', async () => {
    const ctx = await createTestApp({ without: NO_MONITOR });
    const { token } = await registerAndLogin(ctx);
    const url = await listen(ctx);
    const socket = await connect(url, { token });
    const dropped = disconnection(socket);
    await ctx.close();
    expect(await dropped).toBe('transport close');
  });

  it('cuts a WebSocket client that never answers the close', async () => {
    const ctx = await createTestApp({ without: NO_MONITOR });
    const { port } = new URL(await listen(ctx));
    // A WebSocket handshake by hand, then silence: this client reads nothing and answers nothing.
    const raw = net.connect(Number(port), '127.0.0.1');
    const upgraded = new Promise<void>((resolve) => raw.once('data', () => resolve()));
    raw.write(
      [
        'GET /socket.io/?EIO=4&transport=websocket HTTP/1.1',
        `Host: 127.0.0.1:${port}`,
        'Upgrade: websocket',
        'Connection: Upgrade',
        `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
        'Sec-WebSocket-Version: 13',
        '',
        '',
      ].join('\r\n'),
    );
    await upgraded;
    raw.pause();
    const cut = new Promise<void>((resolve) => raw.once('close', () => resolve()));
    await ctx.close();
    // Reading again, the client finds its connection ended.
    raw.resume();
    await cut;
  });
});

// Two instances behind one load balancer, each with its own connections to PostgreSQL and Redis.
// Fan-out between instances is the Redis adapter's: without Redis there is one instance.
describe.runIf(process.env.TEST_REDIS_URL)('two instances sharing Redis', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let a: TestContext;
  let b: TestContext;
  let urlB: string;

  beforeAll(async () => {
    database = await createTestDatabase();
    const shared = {
      database,
      secret: randomBytes(32).toString('hex'),
      clock: createTestClock(),
      limits: { keyPrefix: `test-${randomBytes(6).toString('hex')}` },
    };
    a = await createTestApp(shared);
    b = await createTestApp(shared);
    await listen(a);
    urlB = await listen(b);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await database?.drop();
  });

  it('an event emitted on A reaches the socket on B; a sign-out through A drops it', async () => {
    const account = await registerAndLogin(a, { name: 'Fabi' });
    const other = await registerAndLogin(a, { name: 'Gil' });
    const socket = await connect(urlB, { token: account.token });
    const bystander = await connect(urlB, { token: other.token });
    await join(socket);
    await join(bystander);
    const [seen, bystanderSeen] = [record(socket), record(bystander)];

    a.app.realtime.emitToUser(account.user.id, 'whatsapp:ai_toggled', {
      conversationId: 'c1',
      enabled: false,
    });
    a.app.realtime.emitToUser(other.user.id, 'whatsapp:qr', { qrCode: 'marker' });
    expect(await seen.until('whatsapp:ai_toggled')).toEqual([
      { event: 'whatsapp:ai_toggled', payload: { conversationId: 'c1', enabled: false } },
    ]);
    expect(await bystanderSeen.until('whatsapp:qr')).toEqual([
      { event: 'whatsapp:qr', payload: { qrCode: 'marker' } },
    ]);

    const dropped = disconnection(socket);
    expect((await post(a, '/api/logout', {}, { token: account.token })).statusCode).toBe(200);
    expect(await dropped).toBe('io server disconnect');
    expect(bystander.connected).toBe(true);
  });
});

describe.runIf(process.env.TEST_REDIS_URL)('with Redis gone', () => {
  it("an emit that cannot be published is a warning; this instance's sockets still get it", async () => {
    // Commands fail at once while disconnected, rather than wait for a reconnection.
    const redis = new Redis(process.env.TEST_REDIS_URL!, { enableOfflineQueue: false });
    const ctx = await createTestApp({ without: NO_MONITOR, redis });
    try {
      const account = await registerAndLogin(ctx);
      const socket = await connect(await listen(ctx), { token: account.token });
      await join(socket);
      const seen = record(socket);
      redis.disconnect();
      ctx.app.realtime.emitToUser(account.user.id, 'whatsapp:qr', { qrCode: 'local' });
      expect(await seen.until('whatsapp:qr')).toEqual([
        { event: 'whatsapp:qr', payload: { qrCode: 'local' } },
      ]);
      await settles(() =>
        expect(ctx.logs.join('')).toMatch(
          /"command":"publish","msg":"socket event adapter: Redis command failed"/,
        ),
      );
    } finally {
      await ctx.close();
    }
  });
});
