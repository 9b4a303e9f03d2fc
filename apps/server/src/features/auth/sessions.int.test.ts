import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { SignJWT, decodeJwt } from 'jose';
import type { User } from '@contrateia/shared';
import { createTestApp, type TestContext, NO_MONITOR } from '../../../test/helpers';
import { get, login, post, register, UNLIMITED_ROUTES, uniqueEmail } from '../../../test/factories';
import { sessions, users } from './auth.table';

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;
const ADMIN_ONLY = '/api/test/admin-only';

type Account = { email: string; password: string };

/** A new session for `account`: its token and user. */
async function signIn(ctx: TestContext, account: Account): Promise<{ token: string; user: User }> {
  const res = await login(ctx, { identifier: account.email, password: account.password });
  expect(res.statusCode).toBe(200);
  return res.json();
}

const base64url = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** Moves the sign-in time of the token's session back to `createdAt`, as if it were that old. */
async function signedInAt(ctx: TestContext, token: string, createdAt: Date): Promise<void> {
  const { sid } = decodeJwt(token);
  await ctx.database.db
    .update(sessions)
    .set({ createdAt })
    .where(eq(sessions.id, sid as string));
}

describe('GET /api/user', () => {
  let ctx: TestContext;
  let account: Account;
  beforeAll(async () => {
    ctx = await createTestApp({ without: NO_MONITOR, limits: { routes: UNLIMITED_ROUTES } });
    account = await register(ctx, { name: 'Rita Alves', email: uniqueEmail('rita') });
  });
  afterAll(async () => ctx.close());

  it('answers the signed-in user', async () => {
    const { token, user } = await signIn(ctx, account);
    const res = await get(ctx, '/api/user', { token });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ user });
    expect(user).toMatchObject({ name: 'Rita Alves', email: account.email });
    expect(Object.keys(user).sort()).toEqual([
      'avatar',
      'email',
      'id',
      'name',
      'originalRole',
      'role',
      'singleAgentName',
      'username',
    ]);
  });

  const forgeries: Array<[string, (token: string) => Promise<string | undefined>]> = [
    ['no token', async () => undefined],
    ['a token that is not a JWT', async () => 'garbage'],
    [
      'a token whose payload was changed',
      async (token) => {
        const [header, payload, signature] = token.split('.') as [string, string, string];
        const i = Math.floor(payload.length / 2);
        const changed =
          payload.slice(0, i) + (payload[i] === 'A' ? 'B' : 'A') + payload.slice(i + 1);
        return `${header}.${changed}.${signature}`;
      },
    ],
    [
      'a token signed with another secret',
      async (token) => {
        const { sid, sub, iat } = decodeJwt(token);
        return new SignJWT({ sid })
          .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
          .setSubject(sub!)
          .setIssuedAt(iat!)
          .sign(new TextEncoder().encode('another-secret-of-at-least-32-characters!'));
      },
    ],
    [
      'an unsigned token (alg: none)',
      async (token) => `${base64url({ alg: 'none', typ: 'JWT' })}.${base64url(decodeJwt(token))}.`,
    ],
  ];

  it.each(forgeries)('answers 401 JSON for %s', async (_case, forge) => {
    const { token } = await signIn(ctx, account);
    const forged = await forge(token);
    const res = await get(ctx, '/api/user', { token: forged, language: 'en-US' });
    expect(res.statusCode).toBe(401);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toEqual({ success: false, message: 'Unauthorized' });
    // The genuine token still works: the forgery did not disturb the session.
    expect((await get(ctx, '/api/user', { token })).statusCode).toBe(200);
  });

  it('refuses the token after 31 minutes without activity', async () => {
    const { token } = await signIn(ctx, account);
    ctx.clock.advance(31 * MINUTE);
    const res = await get(ctx, '/api/user', { token, language: 'en-US' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ success: false, message: 'Unauthorized' });
  });

  it('keeps a session alive while it is used (40 minutes in steps of 20)', async () => {
    const { token } = await signIn(ctx, account);
    ctx.clock.advance(20 * MINUTE);
    expect((await get(ctx, '/api/user', { token })).statusCode).toBe(200);
    ctx.clock.advance(20 * MINUTE);
    expect((await get(ctx, '/api/user', { token })).statusCode).toBe(200);
  });

  it('refuses a session 30 days after sign-in, though it was used all along', async () => {
    const { token } = await signIn(ctx, account);
    const step = 29 * MINUTE;
    let elapsed = 0;
    while (elapsed + step <= 30 * DAY) {
      ctx.clock.advance(step);
      elapsed += step;
      const res = await get(ctx, '/api/user', { token });
      expect(res.statusCode, `after ${elapsed / MINUTE} minutes`).toBe(200);
    }
    ctx.clock.advance(30 * DAY - elapsed + 1);
    const res = await get(ctx, '/api/user', { token, language: 'en-US' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ success: false, message: 'Unauthorized' });
  });

  it('refuses a session signed in over 30 days ago when it is read from the database, and lists it no more', async () => {
    const { token } = await signIn(ctx, account);
    const { token: other } = await signIn(ctx, account);
    // Neither was used yet, so no instance has them cached.
    await signedInAt(ctx, token, new Date(ctx.clock.now().getTime() - 30 * DAY - 1_000));
    expect((await get(ctx, '/api/user', { token })).statusCode).toBe(401);

    const listed = (await get(ctx, '/api/sessions', { token: other })).json<{
      sessions: { id: string }[];
    }>().sessions;
    expect(listed.map((s) => s.id)).toContain(decodeJwt(other).sid);
    expect(listed.map((s) => s.id)).not.toContain(decodeJwt(token).sid);
  });
});

describe('POST /api/logout', () => {
  let ctx: TestContext;
  let account: Account;
  beforeAll(async () => {
    ctx = await createTestApp({ without: NO_MONITOR, limits: { routes: UNLIMITED_ROUTES } });
    account = await register(ctx, { email: uniqueEmail('leaver') });
  });
  afterAll(async () => ctx.close());

  it('ends the session: its token is refused afterwards, other sessions live on', async () => {
    const { token } = await signIn(ctx, account);
    const { token: otherDevice } = await signIn(ctx, account);

    const res = await post(ctx, '/api/logout', {}, { token, language: 'en-US' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: 'You have been signed out' });

    expect((await get(ctx, '/api/user', { token })).statusCode).toBe(401);
    expect((await post(ctx, '/api/logout', {}, { token })).statusCode).toBe(401);
    expect((await get(ctx, '/api/user', { token: otherDevice })).statusCode).toBe(200);
  });

  it('answers 401 without a token', async () => {
    const res = await post(ctx, '/api/logout', {}, { language: 'en-US' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ success: false, message: 'Unauthorized' });
  });
});

describe('POST /api/switch-role', () => {
  let ctx: TestContext;
  let admin: Account;
  let member: Account;
  beforeAll(async () => {
    ctx = await createTestApp(
      { limits: { routes: UNLIMITED_ROUTES } },
      {
        setup: (app) => {
          app.get(ADMIN_ONLY, { preHandler: app.requireAdmin }, async () => ({ ok: true }));
        },
      },
    );
    admin = await register(ctx, { name: 'First Admin', email: uniqueEmail('admin') });
    member = await register(ctx, { name: 'Second User', email: uniqueEmail('member') });
  });
  afterAll(async () => ctx.close());

  // Every test starts with the admin in admin mode, whatever an earlier one left behind.
  beforeEach(async () => {
    const rows = await ctx.database.db
      .update(users)
      .set({ role: sql`${users.originalRole}` })
      .returning({ id: users.id });
    for (const { id } of rows) ctx.app.forgetUser(id);
  });

  const switchRole = (token: string, targetRole: string) =>
    post(ctx, '/api/switch-role', { targetRole }, { token, language: 'en-US' });

  it('refuses a user who was never admin', async () => {
    const { token, user } = await signIn(ctx, member);
    expect(user).toMatchObject({ role: 'user', originalRole: 'user' });

    const res = await switchRole(token, 'admin');
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ success: false, message: 'Only administrators can switch roles' });
    expect((await get(ctx, '/api/user', { token })).json().user.role).toBe('user');
  });

  it('refuses a switch to the current mode', async () => {
    const { token } = await signIn(ctx, admin);
    const res = await switchRole(token, 'admin');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ success: false, message: 'Already in admin mode' });
  });

  it('refuses an unknown role', async () => {
    const { token } = await signIn(ctx, admin);
    const res = await switchRole(token, 'superuser');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      success: false,
      message: 'Validation error',
      errors: { targetRole: 'Invalid value' },
    });
  });

  it('puts an admin in user mode with a new token, revoking the old one', async () => {
    const { token: oldToken, user: before } = await signIn(ctx, admin);
    expect(before).toMatchObject({ role: 'admin', originalRole: 'admin' });

    const res = await switchRole(oldToken, 'user');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ success: true, message: 'Switched to user mode' });
    expect(body.user).toEqual({ ...before, role: 'user', originalRole: 'admin' });
    expect(body.token).not.toBe(oldToken);

    expect((await get(ctx, '/api/user', { token: oldToken })).statusCode).toBe(401);
    const me = await get(ctx, '/api/user', { token: body.token });
    expect(me.statusCode).toBe(200);
    expect(me.json().user).toMatchObject({ role: 'user', originalRole: 'admin' });
  });

  it('gives one new session for six switches sent at once with one token: the others find it revoked', async () => {
    const { token, user } = await signIn(ctx, admin);
    const countSessions = async () =>
      ctx.database.db.$count(sessions, eq(sessions.userId, user.id));
    const before = await countSessions();

    const results = await Promise.all(Array.from({ length: 6 }, () => switchRole(token, 'user')));
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 401, 401, 401, 401, 401]);
    for (const refused of results.filter((r) => r.statusCode === 401)) {
      expect(refused.json()).toEqual({ success: false, message: 'Unauthorized' });
    }
    expect(await countSessions()).toBe(before + 1);

    const renewed = results.find((r) => r.statusCode === 200)!.json<{ token: string }>().token;
    expect((await get(ctx, '/api/user', { token })).statusCode).toBe(401);
    const me = await get(ctx, '/api/user', { token: renewed });
    expect(me.json().user).toMatchObject({ role: 'user', originalRole: 'admin' });
  });

  it('treats an admin in user mode as a user on admin routes until they switch back', async () => {
    const { token: adminToken } = await signIn(ctx, admin);
    expect((await get(ctx, ADMIN_ONLY, { token: adminToken })).statusCode).toBe(200);

    const asUser = (await switchRole(adminToken, 'user')).json().token as string;
    const refused = await get(ctx, ADMIN_ONLY, { token: asUser, language: 'en-US' });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ success: false, message: 'Access denied' });

    const back = await switchRole(asUser, 'admin');
    expect(back.statusCode).toBe(200);
    expect(back.json().user).toMatchObject({ role: 'admin', originalRole: 'admin' });
    const allowed = await get(ctx, ADMIN_ONLY, { token: back.json().token });
    expect(allowed.statusCode).toBe(200);
    expect(allowed.json()).toEqual({ ok: true });
  });

  it('keeps the sign-in time: the token a switch gives ends 30 days after the sign-in, as the old would have', async () => {
    const { token } = await signIn(ctx, admin);
    // Signed in 30 days ago less one hour.
    await signedInAt(ctx, token, new Date(ctx.clock.now().getTime() - 30 * DAY + 60 * MINUTE));
    const switched = await switchRole(token, 'user');
    expect(switched.statusCode).toBe(200);
    const renewed = switched.json<{ token: string }>().token;

    ctx.clock.advance(29 * MINUTE);
    expect((await get(ctx, '/api/user', { token: renewed })).statusCode).toBe(200);
    ctx.clock.advance(29 * MINUTE);
    expect((await get(ctx, '/api/user', { token: renewed })).statusCode).toBe(200);
    ctx.clock.advance(29 * MINUTE); // 30 days and 27 minutes after the sign-in
    expect((await get(ctx, '/api/user', { token: renewed })).statusCode).toBe(401);
  });

  it('keeps admin routes from users and from callers without a token', async () => {
    const { token } = await signIn(ctx, member);
    expect((await get(ctx, ADMIN_ONLY, { token })).statusCode).toBe(403);
    expect((await get(ctx, ADMIN_ONLY)).statusCode).toBe(401);
  });
});
