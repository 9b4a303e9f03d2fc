import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestContext, NO_MONITOR } from '../../../test/helpers';
import {
  get,
  login,
  post,
  registerAndLogin,
  sendOtp,
  uniqueEmail,
  UNLIMITED_ROUTES,
} from '../../../test/factories';
import { SESSIONS_CLEANUP_QUEUE } from './auth.cleanup-job';
import { emailCodes, sessions } from './auth.table';

describe('the hourly clean-up of sessions and e-mail codes', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp({ without: NO_MONITOR, limits: { routes: UNLIMITED_ROUTES } });
  });
  afterAll(async () => ctx?.close());

  it('is kept in the database as an hourly schedule, whichever instance sends it', async () => {
    const { rows } = await ctx.database.execute(
      `SELECT cron, timezone FROM pgboss.schedule WHERE name = $1`,
      [SESSIONS_CLEANUP_QUEUE.name],
    );
    expect(rows).toEqual([{ cron: '30 * * * *', timezone: 'UTC' }]);
  });

  it('removes the sessions and codes nobody can use any more, keeping live ones and each account’s latest', async () => {
    const { db } = ctx.database;
    const sessionsOf = async (userId: string) =>
      (await db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, userId)))
        .length;
    // Carla signs in on three devices and signs out of one; a code is asked for an address nobody
    // finishes registering with.
    const carla = await registerAndLogin(ctx, { name: 'Carla' });
    for (let i = 0; i < 2; i += 1)
      expect(
        (await login(ctx, { identifier: carla.email, password: carla.password })).statusCode,
      ).toBe(200);
    expect((await post(ctx, '/api/logout', {}, { token: carla.token })).statusCode).toBe(200);
    const abandoned = uniqueEmail('abandoned');
    expect((await sendOtp(ctx, { email: abandoned })).statusCode).toBe(200);
    expect(await sessionsOf(carla.user.id)).toBe(3);

    // Half an hour later (and a minute for activity not yet written back), all of it is idle.
    ctx.clock.advance(32 * 60_000);
    const live = await login(ctx, { identifier: carla.email, password: carla.password });
    expect(live.statusCode).toBe(200);

    // The job the schedule sends every hour, sent now.
    const sent = await ctx.app.jobs.send(SESSIONS_CLEANUP_QUEUE, {});
    const done = await ctx.app.jobs.settled(SESSIONS_CLEANUP_QUEUE, sent.id);
    expect(done).toMatchObject({ state: 'completed', output: { sessions: 3, codes: 2 } });
    expect(await sessionsOf(carla.user.id)).toBe(1);
    expect(
      (await get(ctx, '/api/user', { token: live.json<{ token: string }>().token })).statusCode,
    ).toBe(200);
    expect(await db.select().from(emailCodes).where(eq(emailCodes.email, abandoned))).toEqual([]);
  });
});
