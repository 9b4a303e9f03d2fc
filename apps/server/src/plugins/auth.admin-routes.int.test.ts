import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSettings, type Language } from '@contrateia/shared';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, routesOf, type TestContext } from '../../test/helpers';
import { message, post, registerAndLogin, UNLIMITED_ROUTES } from '../../test/factories';

type Account = Awaited<ReturnType<typeof registerAndLogin>>;

/** The admin's pages' routes: every one is for admins in admin mode only, but these. */
const ADMIN_ONLY = /^\S+ \/api\/(admin|images|logs|monitor)(\/|$)/;
/** An image file: public, or private to an admin or a signed address (images.int.test.ts). */
const NOT_ADMIN_ONLY = new Set(['GET /api/images/:id']);

/** The routes that once answered anonymous callers with their rules (a probe found them). */
const FOUND_LEAKING = [
  'POST /api/admin/settings/content',
  'POST /api/admin/settings/theme',
  'POST /api/admin/settings/system',
  'POST /api/admin/ai',
  'POST /api/admin/ai/test',
  'GET /api/admin/users',
  'POST /api/admin/users/single-agent',
  'POST /api/admin/users/:id/status',
  'POST /api/admin/users/:id/role',
];

type Probe = { label: string; query: string; payload?: string };

/**
 * Input no route accepts: a query whose values fit no schema, and for a route with a body, one
 * that is not JSON, one missing every field and one with a field no schema has.
 */
function probesOf(method: string): Probe[] {
  const query =
    '?page=-1&limit=x&offset=x&level=x&category=x&from=x&to=x&q=%00&search=%00&sort=x&status=x';
  if (method === 'GET') return [{ label: 'a bad query', query }];
  return [
    { label: 'a body that is not JSON', query: '', payload: '{"' },
    { label: 'an empty object', query: '', payload: '{}' },
    {
      label: 'an unknown field and a bad query',
      query,
      payload: JSON.stringify({ unexpected: ['\u0000'] }),
    },
  ];
}

/**
 * Sends each probe to each route (`:id`s filled with an id nothing has); answers the ones whose
 * answer `expected` does not accept, each with its status and the start of its body.
 */
async function probeEvery(
  ctx: TestContext,
  routes: string[],
  { token, language }: { token?: string; language: Language },
  expected: (res: LightMyRequestResponse) => boolean,
): Promise<string[]> {
  const found: string[] = [];
  for (const route of routes) {
    const [method, path] = route.split(' ') as [string, string];
    for (const probe of probesOf(method)) {
      const res = await ctx.app.inject({
        method: method as 'GET',
        url: path.replaceAll(/:\w+/g, 'no-such-id') + probe.query,
        headers: {
          'accept-language': language,
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(probe.payload === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(probe.payload === undefined ? {} : { payload: probe.payload }),
      });
      if (!expected(res))
        found.push(
          `${route} with ${probe.label}: ${res.statusCode} (cache-control ${res.headers['cache-control']}) ${res.body.slice(0, 160)}`,
        );
    }
  }
  return found;
}

describe('every admin-only route checks the caller before the input (one guard stage)', () => {
  let ctx: TestContext;
  let admin: Account;
  let member: Account;
  let routes: string[];

  beforeAll(async () => {
    ctx = await createTestApp({ limits: { routes: UNLIMITED_ROUTES } });
    // The first account of a database is its admin.
    admin = await registerAndLogin(ctx, { name: 'Ada Admin' });
    member = await registerAndLogin(ctx, { name: 'Beto' });
    routes = routesOf(ctx).filter((route) => ADMIN_ONLY.test(route) && !NOT_ADMIN_ONLY.has(route));
  });

  afterAll(async () => ctx?.close());

  /** Sends each probe to each route; answers the ones whose answer `expected` does not accept. */
  const escaping = (
    token: string | undefined,
    language: Language,
    expected: (status: number, body: string) => boolean,
  ) => probeEvery(ctx, routes, { token, language }, (res) => expected(res.statusCode, res.body));

  const refused =
    (status: number, key: string, language: Language) => (code: number, body: string) =>
      code === status &&
      body === JSON.stringify({ success: false, message: message(language, key) });

  it('walks every route of the admin pages, the ones the issue found included', () => {
    expect(routes).toEqual(expect.arrayContaining(FOUND_LEAKING));
    expect(routes).toEqual(
      expect.arrayContaining([
        'POST /api/admin/agents',
        'POST /api/images/upload',
        'GET /api/logs',
        'GET /api/monitor/status',
      ]),
    );
  });

  it("answers 401 without a session, whatever the input, and never the fields' rules", async () => {
    expect(
      await escaping(undefined, 'pt-BR', refused(401, 'errors.unauthorized', 'pt-BR')),
    ).toEqual([]);
  });

  it('answers 403 to a user, whatever the input', async () => {
    expect(
      await escaping(member.token, 'es-ES', refused(403, 'errors.forbidden', 'es-ES')),
    ).toEqual([]);
  });

  it('answers 403 to an admin in user mode, whatever the input', async () => {
    const asUser = (
      await post(ctx, '/api/switch-role', { targetRole: 'user' }, { token: admin.token })
    ).json<{ token: string }>().token;
    try {
      expect(await escaping(asUser, 'en-US', refused(403, 'errors.forbidden', 'en-US'))).toEqual(
        [],
      );
    } finally {
      admin.token = (
        await post(ctx, '/api/switch-role', { targetRole: 'admin' }, { token: asUser })
      ).json<{ token: string }>().token;
    }
  });

  it('lets an admin in admin mode through to the input check (the probes are input no route takes)', async () => {
    const found: string[] = [];
    for (const route of routes) {
      const [method, path] = route.split(' ') as [string, string];
      if (method === 'GET') continue;
      const res = await ctx.app.inject({
        method: method as 'POST',
        url: path.replaceAll(/:\w+/g, 'no-such-id'),
        headers: { authorization: `Bearer ${admin.token}`, 'content-type': 'application/json' },
        payload: '{"',
      });
      if (res.statusCode !== 400) found.push(`${route}: ${res.statusCode}`);
    }
    expect(found).toEqual([]);
  });
});

/**
 * The routes anyone may call without a session: signing up and in, what the sign-in page reads,
 * the health check, public image files, and the sandbox's (its own guard: transports/sandbox.routes.ts).
 */
const PUBLIC =
  /^\S+ \/api\/(health|settings\/public|login|send-otp|complete-registration|forgot-password|reset-password|whatsapp\/sandbox\/.*)$|^GET \/api\/images\/:id$/;

describe('every route that needs a session refuses a caller without one before reading the input', () => {
  let ctx: TestContext;
  let routes: string[];

  beforeAll(async () => {
    ctx = await createTestApp({ limits: { routes: UNLIMITED_ROUTES } });
    routes = routesOf(ctx).filter((route) => /^\S+ \/api\//.test(route) && !PUBLIC.test(route));
  });

  afterAll(async () => ctx?.close());

  it("answers 401, never the fields' rules, on chat, WhatsApp, agents and account routes alike", async () => {
    expect(routes).toEqual(
      expect.arrayContaining([
        'POST /api/chat/message',
        'POST /api/agents/hire',
        'POST /api/whatsapp/conversations/:id/messages',
        'POST /api/switch-role',
        'GET /api/user',
      ]),
    );
    const found = await probeEvery(
      ctx,
      routes,
      { language: 'pt-BR' },
      (res) => res.statusCode === 401 && res.headers['cache-control'] === 'no-store',
    );
    expect(found.join('\n')).toBe('');
  });

  it('answers 503 in maintenance first: the session is checked after the maintenance gate', async () => {
    const admin = await registerAndLogin(ctx, { name: 'Ada Admin' });
    const system = { ...defaultSettings().system, maintenanceMode: true };
    expect(
      (await post(ctx, '/api/admin/settings/system', system, { token: admin.token })).statusCode,
    ).toBe(200);
    try {
      const found: string[] = [];
      for (const route of routes) {
        const [method, path] = route.split(' ') as [string, string];
        if (route === 'POST /api/logout') continue;
        const res = await ctx.app.inject({
          method: method as 'GET',
          url: path.replaceAll(/:\w+/g, 'no-such-id'),
          headers: { 'accept-language': 'pt-BR' },
        });
        if (res.statusCode !== 503 || res.headers['cache-control'] !== 'no-store')
          found.push(`${route}: ${res.statusCode}`);
      }
      expect(found.join('\n')).toBe('');
    } finally {
      await post(
        ctx,
        '/api/admin/settings/system',
        { ...system, maintenanceMode: false },
        { token: admin.token },
      );
    }
  });
});
