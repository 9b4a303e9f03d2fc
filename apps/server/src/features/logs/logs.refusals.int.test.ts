import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  defaultSettings,
  type ListLogsResponse,
  type LogEntry,
  type PublicSettings,
} from '@contrateia/shared';
import { eventually } from '../../../test/eventually';
import {
  DEFAULT_PASSWORD,
  get,
  login,
  post,
  registerAndLogin,
  UNLIMITED_ROUTES,
} from '../../../test/factories';
import { createTwoInstances, type TestContext, NO_MONITOR } from '../../../test/helpers';

type Account = Awaited<ReturnType<typeof registerAndLogin>>;

/** Every stored event matching `query`, read through `ctx` as the admin, all pages. */
async function allLogs(
  ctx: TestContext,
  token: string,
  query: Record<string, string> = {},
  language = 'pt-BR',
): Promise<LogEntry[]> {
  const logs: LogEntry[] = [];
  let cursor: string | undefined;
  do {
    const params = new URLSearchParams({ ...query, limit: '200', ...(cursor ? { cursor } : {}) });
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/api/logs?${params}`,
      headers: { authorization: `Bearer ${token}`, 'accept-language': language },
    });
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json<ListLogsResponse>();
    logs.push(...page.logs);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return logs;
}

/**
 * The maintenance 503 is an expected refusal, not an error. Two instances share
 * the database, the shared state (Redis with TEST_REDIS_URL) and the clock; anonymous callers hit
 * both while maintenance is on.
 */
describe('refusals during maintenance', () => {
  let instances: Awaited<ReturnType<typeof createTwoInstances>>;
  let a: TestContext;
  let b: TestContext;
  let admin: Account;

  beforeAll(async () => {
    instances = await createTwoInstances({
      without: NO_MONITOR,
      limits: { routes: UNLIMITED_ROUTES },
      logs: { writer: { flushMs: 20 } },
    });
    ({ a, b } = instances);
    admin = await registerAndLogin(a, { name: 'Ana Admin' });
  });

  afterAll(async () => instances?.close());

  async function setMaintenance(on: boolean) {
    const res = await post(
      a,
      '/api/admin/settings/system',
      { ...defaultSettings().system, maintenanceMode: on },
      { token: admin.token },
    );
    expect(res.statusCode).toBe(200);
    // Read from the public settings, which stay open: a refused request would be counted too.
    await eventually(
      async () =>
        (await get(b, '/api/settings/public')).json<PublicSettings>().maintenanceMode === on,
      `B in maintenance: ${on}`,
    );
  }

  /** Signs the admin in through each instance and waits for both sign-ins: what was recorded before is stored by then. */
  async function settled(since: string) {
    for (const ctx of [a, b])
      expect(
        (await login(ctx, { identifier: admin.user.email, password: DEFAULT_PASSWORD })).statusCode,
      ).toBe(200);
    await eventually(
      async () =>
        (await allLogs(a, admin.token, { search: `auth.sign_in ${admin.user.id}`, from: since }))
          .length >= 2,
      'both sign-ins stored',
    );
  }

  const summaries = async () =>
    (await allLogs(a, admin.token, { search: 'http.maintenance_refused' })).filter(
      (l) => l.context.event === 'http.maintenance_refused',
    );

  it('stores no error for 50 anonymous requests, and one info summary a minute with their count, across both instances', async () => {
    await setMaintenance(true);
    try {
      const since = instances.clock.now().toISOString();
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, n) => get(n % 2 === 0 ? a : b, '/api/user')),
      );
      expect(answers.map((res) => res.statusCode)).toEqual(Array(50).fill(503));
      await settled(since);
      expect(await allLogs(a, admin.token, { level: 'error' })).toEqual([]);
      expect((await summaries()).length).toBeLessThanOrEqual(1);

      // The next minute's first refusals (one through each instance) report the minute before, once.
      instances.clock.advance(61_000);
      const next = instances.clock.now().toISOString();
      for (const ctx of [a, b])
        expect((await get(ctx, '/api/agents/available')).statusCode).toBe(503);
      await settled(next);
      const [summary, ...others] = await summaries();
      expect(others).toEqual([]);
      expect(summary).toMatchObject({
        level: 'info',
        context: { category: 'server', event: 'http.maintenance_refused', count: 50 },
      });
      expect(summary!.message).toBe('50 requisições recusadas durante a manutenção');
      expect(await allLogs(a, admin.token, { level: 'error' })).toEqual([]);

      // Found by its Portuguese words, accents aside.
      for (const search of ['manutenção', 'manutencao', 'MANUTENÇAO recusadas']) {
        expect(
          (await allLogs(a, admin.token, { search })).map((l) => l.id),
          search,
        ).toContain(summary!.id);
      }
    } finally {
      await setMaintenance(false);
    }
    // Other expected refusals (401, 404, 400) are no errors either.
    const since = instances.clock.now().toISOString();
    const refused = await Promise.all([
      get(a, '/api/user'),
      get(b, '/api/nothing-here'),
      post(a, '/api/login', { email: 'x' }),
    ]);
    expect(refused.map((res) => res.statusCode)).toEqual([401, 404, 400]);
    await settled(since);
    expect(await allLogs(a, admin.token, { level: 'error' })).toEqual([]);
  });
});
