import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { io, type Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  defaultSettings,
  type AdminSettingsResponse,
  type Language,
  type PublicSettings,
} from '@contrateia/shared';
import type {
  ClientToServerEvents,
  ServerToClientEvents,
} from '@contrateia/shared/realtime/realtime.events';
import { eventually, within } from '../../test/eventually';
import { get, message, post, registerAndLogin, UNLIMITED_ROUTES } from '../../test/factories';
import { createTwoInstances, type TestContext, NO_MONITOR } from '../../test/helpers';

type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;
type Account = Awaited<ReturnType<typeof registerAndLogin>>;
type RawAnswer = { status: number; headers: http.IncomingHttpHeaders; body: string };

/**
 * Maintenance is decided on the route a request reaches, not on how its URL is written: a path
 * with percent-encoded letters (`/%61pi/user`) and an absolute-form request line (`GET
 * http://x/api/user`) reach the same routes as `/api/user`, so they are refused the same way and
 * answered with the same API headers. Sockets follow it too: a non-admin's is refused while it
 * lasts and dropped when it starts, on every instance.
 */
describe('maintenance, decided on the route', () => {
  let instances: Awaited<ReturnType<typeof createTwoInstances>>;
  let a: TestContext;
  let b: TestContext;
  let portA: number;
  let urlB: string;
  let admin: Account;
  let member: Account;
  let dist: string;
  const opened: ClientSocket[] = [];

  beforeAll(async () => {
    // A web build, so that paths outside the API get the page and its headers.
    dist = fs.mkdtempSync(path.join(os.tmpdir(), 'contrateia-web-'));
    fs.writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>ContrateIA</title>');
    instances = await createTwoInstances({
      without: NO_MONITOR,
      webDistDir: dist,
      limits: { routes: UNLIMITED_ROUTES, chat: { points: 1000, durationSeconds: 60 } },
      whatsapp: { transport: 'sandbox' },
    });
    ({ a, b } = instances);
    admin = await registerAndLogin(a, { name: 'Ana Admin' });
    member = await registerAndLogin(a, { name: 'Bruno' });
    portA = Number(new URL(await a.app.listen({ host: '127.0.0.1', port: 0 })).port);
    urlB = await b.app.listen({ host: '127.0.0.1', port: 0 });
  });

  afterEach(async () => {
    for (const socket of opened.splice(0)) socket.close();
    await setMaintenance(false);
  });

  afterAll(async () => {
    await instances?.close();
    if (dist) fs.rmSync(dist, { recursive: true, force: true });
  });

  /** Turns maintenance on or off through A, and waits until B has it in force. */
  async function setMaintenance(on: boolean) {
    const system = { ...defaultSettings().system, maintenanceMode: on };
    const res = await post(a, '/api/admin/settings/system', system, { token: admin.token });
    expect(res.statusCode).toBe(200);
    await eventually(
      async () =>
        (await get(b, '/api/admin/settings', { token: admin.token })).json<AdminSettingsResponse>()
          .systemSettings.maintenanceMode === on,
      'B has maintenance in force',
      2_000,
    );
  }

  /**
   * A request with its request line exactly as given (app.inject would rebuild it from a parsed
   * URL): percent-encodings kept, and an absolute-form target sent as such.
   */
  function raw(
    target: string,
    { method = 'GET', token, body }: { method?: string; token?: string; body?: unknown } = {},
  ): Promise<RawAnswer> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    return new Promise((resolve, reject) => {
      const request = http.request(
        {
          host: '127.0.0.1',
          port: portA,
          method,
          path: target,
          headers: {
            ...(token ? { authorization: `Bearer ${token}` } : {}),
            ...(payload ? { 'content-type': 'application/json' } : {}),
            'accept-language': 'en-US',
          },
        },
        (response) => {
          let text = '';
          response.setEncoding('utf8');
          response.on('data', (chunk: string) => (text += chunk));
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, headers: response.headers, body: text }),
          );
        },
      );
      request.on('error', reject);
      request.end(payload);
    });
  }

  const API_POLICY = /^default-src 'none'/;

  /** The API's headers; `cache` is what a route that sets its own says (the public settings: revalidated by ETag). */
  function expectApiHeaders(answer: RawAnswer, what: string, cache = 'no-store') {
    expect(answer.headers['cache-control'], what).toBe(cache);
    expect(String(answer.headers['content-security-policy']), what).toMatch(API_POLICY);
    // The page's permissions policy has no place on a JSON answer.
    expect(answer.headers['permissions-policy'], what).toBeUndefined();
  }

  it("refuses a non-admin's API calls however the path is written, with the API headers; the admin's pass", async () => {
    await setMaintenance(true);
    const refused: [string, Parameters<typeof raw>[1]][] = [
      ['/api/user', { token: member.token }],
      ['/%61pi/user', { token: member.token }],
      ['/%61%70%69/user', { token: member.token }],
      ['http://x/api/user', { token: member.token }],
      ['http://x/%61pi/user?x=1', { token: member.token }],
      [
        '/%61pi/chat/message',
        { method: 'POST', token: member.token, body: { message: 'olá', agentName: 'guia' } },
      ],
      [
        'http://x/api/chat',
        { method: 'POST', token: member.token, body: { message: 'olá', agentName: 'guia' } },
      ],
      [
        '/%61pi/whatsapp/sandbox/inbound',
        {
          method: 'POST',
          body: { to: '5511999990000', from: '5511988880000@s.whatsapp.net', text: 'oi' },
        },
      ],
      [
        'http://x/api/whatsapp/sandbox/pair',
        { method: 'POST', body: { token: 'x', phone: '5511999990000' } },
      ],
      ['/%61pi/agents/available', {}],
    ];
    for (const [target, options] of refused) {
      const answer = await raw(target, options);
      expect(answer.status, target).toBe(503);
      expect(answer.headers['retry-after'], target).toBe('300');
      expect(JSON.parse(answer.body), target).toEqual({
        success: false,
        message: message('en-US', 'errors.maintenance'),
      });
      expectApiHeaders(answer, target);
    }

    // What stays open in maintenance stays open however it is written.
    for (const target of [
      '/%61pi/health',
      'http://x/api/settings/public',
      '/api/settings/%70ublic',
    ]) {
      const answer = await raw(target);
      expect(answer.status, target).toBe(200);
      expectApiHeaders(answer, target, target.includes('health') ? 'no-store' : 'no-cache');
    }
    // The admin keeps working.
    for (const target of ['/%61pi/user', 'http://x/api/user']) {
      const answer = await raw(target, { token: admin.token });
      expect(answer.status, target).toBe(200);
      expectApiHeaders(answer, target);
    }
  });

  it('answers every API call with the API headers out of maintenance too, 404s included', async () => {
    for (const target of ['/%61pi/user', 'http://x/api/user', 'http://x/%61pi/health']) {
      const answer = await raw(target, { token: member.token });
      expect(answer.status, target).toBe(200);
      expectApiHeaders(answer, target);
    }
    for (const target of [
      '/api/nothing-here',
      '/%61pi/nothing-here',
      'http://x/api/nothing-here',
      'http://x/%61pi/nothing?q=1',
    ]) {
      const answer = await raw(target, { token: member.token });
      expect(answer.status, target).toBe(404);
      expect(JSON.parse(answer.body), target).toEqual({
        success: false,
        message: message('en-US', 'errors.notFound'),
      });
      expectApiHeaders(answer, target);
    }
    // Pages keep the page's policy, however they are asked for.
    for (const target of ['/login', 'http://x/login', '/']) {
      const answer = await raw(target);
      expect(answer.status, target).toBe(200);
      expect(answer.headers['content-type'], target).toMatch(/^text\/html/);
      expect(String(answer.headers['content-security-policy']), target).toMatch(
        /^default-src 'self'/,
      );
      expect(answer.headers['permissions-policy'], target).toContain('camera=()');
    }
  });

  /** A socket to `url` as the web app opens one, connected, or the server's refusal. */
  function connect(url: string, token: string, language: Language = 'en-US') {
    const socket: ClientSocket = io(url, {
      path: '/socket.io',
      transports: ['websocket'],
      auth: { token, language },
      reconnection: false,
      forceNew: true,
    });
    opened.push(socket);
    return new Promise<ClientSocket>((resolve, reject) => {
      socket.once('connect', () => resolve(socket));
      socket.once('connect_error', reject);
    });
  }

  function refusal(url: string, token: string) {
    return connect(url, token).then(
      () => {
        throw new Error('connected');
      },
      (error: Error & { data?: unknown }) => error,
    );
  }

  /** The `settings:changed` events a socket receives, and how it was disconnected. */
  function watch(socket: ClientSocket) {
    const changes: PublicSettings[] = [];
    socket.on('settings:changed', (payload) => changes.push(payload));
    const disconnected = within(
      new Promise<{ reason: string; changesBefore: typeof changes }>((resolve) =>
        socket.once('disconnect', (reason) => resolve({ reason, changesBefore: [...changes] })),
      ),
      'the disconnection of the socket',
    );
    return { changes, disconnected };
  }

  it("drops a non-admin's sockets on every instance when it starts, telling them first, and refuses them while it lasts; admins stay", async () => {
    const urlA = `http://127.0.0.1:${portA}`;
    const memberOnA = watch(await connect(urlA, member.token));
    const memberOnB = watch(await connect(urlB, member.token));
    const adminSocket = await connect(urlB, admin.token);
    const adminOnB = watch(adminSocket);

    await setMaintenance(true);
    for (const dropped of [memberOnA, memberOnB]) {
      const { reason, changesBefore } = await dropped.disconnected;
      expect(reason).toBe('io server disconnect');
      // The page learns why before the socket goes: it shows maintenance at once.
      expect(changesBefore.map((view) => view.maintenanceMode)).toEqual([true]);
    }
    await eventually(async () => adminOnB.changes.length === 1, "the admin's socket hears of it");
    expect(adminOnB.changes.map((view) => view.maintenanceMode)).toEqual([true]);
    expect(adminSocket.connected).toBe(true);

    for (const url of [urlA, urlB]) {
      const error = await refusal(url, member.token);
      expect(error.message).toBe(message('en-US', 'errors.maintenance'));
      expect(error.data).toEqual({ status: 503, maintenance: true });
      expect((await connect(url, admin.token)).connected).toBe(true);
    }

    // Over: the admin's socket hears it, and the member connects again.
    await setMaintenance(false);
    await eventually(async () => adminOnB.changes.length === 2, "the admin's socket hears the end");
    expect(adminOnB.changes.map((view) => view.maintenanceMode)).toEqual([true, false]);
    for (const url of [urlA, urlB]) expect((await connect(url, member.token)).connected).toBe(true);
  });

  it('tells every open socket once per change of what the pages show, and not when nothing they show changed', async () => {
    const socket = await connect(urlB, member.token);
    const seen = watch(socket);
    // The session timeout is no public setting: the pages show nothing new.
    const system = { ...defaultSettings().system, sessionTimeout: 45 };
    expect(
      (await post(a, '/api/admin/settings/system', system, { token: admin.token })).statusCode,
    ).toBe(200);
    // Registration closed is: the login page hides its link.
    expect(
      (
        await post(
          a,
          '/api/admin/settings/system',
          { ...system, registrationEnabled: false },
          { token: admin.token },
        )
      ).statusCode,
    ).toBe(200);
    await eventually(async () => seen.changes.length > 0, 'the socket hears of the change');
    // The first it hears of is the second save: what the login page reads, as it reads it.
    expect(seen.changes[0]).toEqual((await get(b, '/api/settings/public')).json<PublicSettings>());
    expect(seen.changes[0]?.registrationEnabled).toBe(false);
    expect(socket.connected).toBe(true);
  });
});
