import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { decodeJwt } from 'jose';
import type { LightMyRequestResponse } from 'fastify';
import type { Language } from '@contrateia/shared';
import { createSharedState, type SharedState } from '@/lib/shared-state';
import { createTestApp, type TestContext, NO_MONITOR } from '../../../test/helpers';
import {
  get,
  login,
  message,
  post,
  register,
  UNLIMITED_ROUTES,
  uniqueEmail,
  uniqueIp,
} from '../../../test/factories';
import { users } from './auth.table';
import { DEFAULT_LOGIN_LIMITS } from './auth.throttle';

const INVALID = 'Invalid username/email or password';
const THROTTLED = 'Too many failed sign-in attempts. Please try again in 15 minutes.';
/** The first wait an account's failures impose in the first suite below. */
const FIRST_DELAY_SECONDS = 60;

const waitSeconds = (count: number) => message('en-US', 'auth.loginThrottledSeconds', { count });
const retryAfter = (res: LightMyRequestResponse) => Number(res.headers['retry-after']);

/** `count` failed sign-ins from `ip`, for `identifier` or, given a function, one identifier each. */
async function fail(
  ctx: TestContext,
  {
    identifier,
    ip,
    count,
  }: { identifier: string | ((i: number) => string); ip: string; count: number },
) {
  const responses = await Promise.all(
    Array.from({ length: count }, (_, i) =>
      login(ctx, {
        identifier: typeof identifier === 'string' ? identifier : identifier(i),
        password: 'not-the-password',
        remoteAddress: ip,
      }),
    ),
  );
  expect(responses.map((r) => r.statusCode)).toEqual(Array(count).fill(401));
}

/** A sign-in of `account` with its right password. */
function signIn(
  ctx: TestContext,
  account: { email: string; password: string },
  options: { remoteAddress: string; language?: Language },
) {
  return login(ctx, { identifier: account.email, password: account.password, ...options });
}

describe('POST /api/login', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp({
      without: NO_MONITOR,
      limits: { login: { baseDelaySeconds: FIRST_DELAY_SECONDS }, routes: UNLIMITED_ROUTES },
    });
    await register(ctx, {
      name: 'Carla Dias',
      email: 'Carla.Dias@example.org',
      password: 'carla-pass-1',
    });
  });
  afterAll(async () => ctx.close());

  it.each([
    ['the username', 'carla.dias'],
    ['the username in capitals', 'CARLA.Dias'],
    ['the e-mail', 'carla.dias@example.org'],
    ['the e-mail in another case', 'Carla.Dias@EXAMPLE.org'],
  ])('signs in by %s', async (_case, identifier) => {
    const res = await login(ctx, {
      identifier,
      password: 'carla-pass-1',
      language: 'en-US',
      remoteAddress: uniqueIp(),
    });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ success: true, message: 'Welcome back, Carla Dias!' });
    expect(body.user).toMatchObject({
      name: 'Carla Dias',
      // Registered as "Carla.Dias@example.org", kept in its one written form.
      email: 'carla.dias@example.org',
      username: 'carla.dias',
    });
    // A token naming the account and its new session, which answers for the account.
    expect(body.token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(decodeJwt(body.token)).toMatchObject({
      sub: body.user.id,
      sid: expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
    const me = await get(ctx, '/api/user', { token: body.token });
    expect(me.json().user.id).toBe(body.user.id);
  });

  it('answers a wrong password and an unknown account alike', async () => {
    const { email } = await register(ctx, { email: uniqueEmail('alike') });
    const username = email.split('@')[0]!;
    const ip = uniqueIp();

    const responses = await Promise.all(
      [email, username, 'nobody-here', 'nobody@example.net'].map((identifier) =>
        login(ctx, {
          identifier,
          password: 'wrong-password',
          language: 'en-US',
          remoteAddress: ip,
        }),
      ),
    );
    for (const res of responses) {
      expect(res.statusCode).toBe(401);
      expect(res.json()).toEqual({ success: false, message: INVALID });
    }
  });

  it.each([
    ['no fields', {}, { email: 'Username or email is required', password: 'Password is required' }],
    [
      'empty fields',
      { email: '  ', password: '' },
      { email: 'Username or email is required', password: 'Password is required' },
    ],
    ['no password', { email: 'maria' }, { password: 'Password is required' }],
    [
      'an identifier that is half an e-mail',
      { email: 'bad@', password: 'whatever1' },
      { email: 'Please enter a valid email address' },
    ],
    [
      'an e-mail that NFKC would turn into another (KELVIN SIGN)',
      { email: '\u212Aate@example.com', password: 'whatever1' },
      { email: 'Please enter a valid email address' },
    ],
    [
      'an e-mail with a zero-width space',
      { email: 'ka\u200Bte@example.com', password: 'whatever1' },
      { email: 'Please enter a valid email address' },
    ],
  ])('answers 400 with field errors for %s', async (_case, body, errors) => {
    const res = await post(ctx, '/api/login', body, {
      language: 'en-US',
      remoteAddress: uniqueIp(),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ success: false, message: 'Validation error', errors });
  });

  it('counts the failures of one account together, whether named by e-mail or by username', async () => {
    const victim = await register(ctx, { email: uniqueEmail('victim') });
    const username = victim.email.split('@')[0]!;
    const other = await register(ctx, { email: uniqueEmail('other') });
    await fail(ctx, { identifier: victim.email.toUpperCase(), ip: uniqueIp(), count: 5 });
    await fail(ctx, { identifier: username, ip: uniqueIp(), count: 5 });

    // The account's tenth failure began its first wait: the right password waits, by either
    // name and from an IP the account has never signed in from.
    for (const identifier of [victim.email, username.toUpperCase()]) {
      const res = await login(ctx, {
        identifier,
        password: victim.password,
        remoteAddress: uniqueIp(),
        language: 'en-US',
      });
      expect(res.statusCode).toBe(429);
      const wait = retryAfter(res);
      expect(wait).toBeGreaterThan(0);
      expect(wait).toBeLessThanOrEqual(FIRST_DELAY_SECONDS);
      expect(res.json()).toEqual({ success: false, message: waitSeconds(wait) });
    }

    const unaffected = await signIn(ctx, other, { remoteAddress: uniqueIp() });
    expect(unaffected.statusCode).toBe(200);
  });

  it('throttles a name that has no account as it throttles an account', async () => {
    const account = await register(ctx, { email: uniqueEmail('real') });
    const names = [account.email, uniqueEmail('ghost'), `ghost-${uniqueIp()}`];
    for (const identifier of names) await fail(ctx, { identifier, ip: uniqueIp(), count: 10 });

    const answers = await Promise.all(
      names.map((identifier) =>
        login(ctx, {
          identifier,
          password: account.password,
          remoteAddress: uniqueIp(),
          language: 'en-US',
        }),
      ),
    );
    for (const res of answers) {
      expect(res.statusCode).toBe(429);
      expect(retryAfter(res)).toBeGreaterThan(FIRST_DELAY_SECONDS - 10);
      expect(res.json()).toEqual({ success: false, message: waitSeconds(retryAfter(res)) });
    }
  });

  it('refuses an IP after 50 failures across identifiers, even for an account that signed in from it', async () => {
    const account = await register(ctx, { email: uniqueEmail('ipuser') });
    const ip = uniqueIp();
    expect((await signIn(ctx, account, { remoteAddress: ip })).statusCode).toBe(200);
    const windowStarted = Date.now();
    await fail(ctx, { identifier: (i) => `guess${i}`, ip, count: 50 });

    const fromThatIp = await signIn(ctx, account, { remoteAddress: ip, language: 'en-US' });
    expect(fromThatIp.statusCode).toBe(429);
    expect(fromThatIp.json()).toEqual({ success: false, message: THROTTLED });
    // The rest of the 15-minute window that began with the first failure (on the real clock).
    const elapsed = Math.ceil((Date.now() - windowStarted) / 1000);
    expect(retryAfter(fromThatIp)).toBeGreaterThanOrEqual(15 * 60 - elapsed);
    expect(retryAfter(fromThatIp)).toBeLessThanOrEqual(15 * 60);

    const fromAnother = await signIn(ctx, account, { remoteAddress: uniqueIp() });
    expect(fromAnother.statusCode).toBe(200);
  });

  it('forgets an account’s failures once it signs in', async () => {
    const account = await register(ctx, { email: uniqueEmail('reset') });
    const username = account.email.split('@')[0]!;
    const ip = uniqueIp();
    await fail(ctx, { identifier: account.email, ip, count: 9 });
    expect((await signIn(ctx, account, { remoteAddress: ip })).statusCode).toBe(200);

    // Counted afresh: nine more, from elsewhere and by the other name, do not make a tenth.
    await fail(ctx, { identifier: username, ip: uniqueIp(), count: 9 });
    const res = await signIn(ctx, account, { remoteAddress: uniqueIp() });
    expect(res.statusCode).toBe(200);
  });
});

describe('POST /api/login: progressive waits after an account’s free tries', () => {
  let ctx: TestContext;
  // The app's shared state, made here so that the test can end a wait (see endWait).
  let state: SharedState;
  let redis: Redis | undefined;
  beforeAll(async () => {
    redis = process.env.TEST_REDIS_URL ? new Redis(process.env.TEST_REDIS_URL) : undefined;
    state = createSharedState({ redis, keyPrefix: `test-${randomBytes(6).toString('hex')}` });
    ctx = await createTestApp({
      without: NO_MONITOR,
      state,
      limits: { login: { perAccount: 3, baseDelaySeconds: 2 }, routes: UNLIMITED_ROUTES },
    });
  });
  afterAll(async () => {
    await ctx.close();
    await state.close();
    await redis?.quit();
  });

  /**
   * Ends the wait the account's latest turn imposed, as its expiry does: rate-limiter-flexible
   * counts on the real clock (Redis's, with Redis), which no test clock moves, so the count that
   * holds the wait (the throttle's `login-wait`, per account) goes instead of the test sleeping.
   * It must be the one holding the wait the refusal named (what is left of it).
   */
  async function endWait(email: string, named: number): Promise<void> {
    const [user] = await ctx.database.db
      .select({ id: users.id })
      .from(users)
      .where(eq(users.email, email));
    const waiting = state.counter({
      name: 'login-wait',
      points: 1,
      durationSeconds: DEFAULT_LOGIN_LIMITS.maxDelaySeconds,
    });
    const key = `user:${user!.id}`;
    const held = await waiting.get(key);
    expect(held?.msBeforeNext).toBeGreaterThan(0);
    expect(held!.msBeforeNext).toBeLessThanOrEqual(named * 1000);
    await waiting.delete(key);
  }

  it('makes the owner wait seconds, not a 15-minute wall, after strangers spend their tries', async () => {
    const owner = await register(ctx, { email: uniqueEmail('owner') });
    await fail(ctx, { identifier: owner.email, ip: uniqueIp(), count: 3 });

    const first = await signIn(ctx, owner, { remoteAddress: uniqueIp(), language: 'pt-BR' });
    expect(first.statusCode).toBe(429);
    const firstWait = retryAfter(first);
    expect(firstWait).toBeGreaterThanOrEqual(1);
    expect(firstWait).toBeLessThanOrEqual(2);
    expect(first.json().message).toBe(
      message('pt-BR', 'auth.loginThrottledSeconds', { count: firstWait }),
    );
    // An attempt during the wait is refused without being counted or tried.
    const during = await login(ctx, {
      identifier: owner.email,
      password: 'guess',
      remoteAddress: uniqueIp(),
    });
    expect(during.statusCode).toBe(429);

    await endWait(owner.email, firstWait);
    // A stranger's next failure doubles the wait.
    await fail(ctx, { identifier: owner.email, ip: uniqueIp(), count: 1 });
    const second = await signIn(ctx, owner, { remoteAddress: uniqueIp(), language: 'es-ES' });
    expect(second.statusCode).toBe(429);
    const secondWait = retryAfter(second);
    expect(secondWait).toBeGreaterThanOrEqual(3);
    expect(secondWait).toBeLessThanOrEqual(4);
    expect(second.json().message).toBe(
      message('es-ES', 'auth.loginThrottledSeconds', { count: secondWait }),
    );

    await endWait(owner.email, secondWait);
    const res = await signIn(ctx, owner, { remoteAddress: uniqueIp() });
    expect(res.statusCode).toBe(200);
  });
});

describe('POST /api/login with 3 free tries, then 10-minute waits', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp({
      without: NO_MONITOR,
      limits: {
        login: { perAccount: 3, baseDelaySeconds: 600, maxDelaySeconds: 600 },
        routes: UNLIMITED_ROUTES,
      },
    });
  });
  afterAll(async () => ctx.close());

  it('lets a burst of simultaneous guesses have the free tries and one turn, no more', async () => {
    const target = await register(ctx, { email: uniqueEmail('burst') });
    const answers = await Promise.all(
      Array.from({ length: 12 }, () =>
        login(ctx, { identifier: target.email, password: 'guess', remoteAddress: uniqueIp() }),
      ),
    );
    const statuses = answers.map((r) => r.statusCode).sort();
    expect(statuses).toEqual([...Array(3).fill(401), ...Array(9).fill(429)]);
  });

  it('lets the owner in at once while strangers wait, and counts its own failures apart', async () => {
    const owner = await register(ctx, { email: uniqueEmail('home') });
    const username = owner.email.split('@')[0]!;
    const home = uniqueIp();
    expect((await signIn(ctx, owner, { remoteAddress: home })).statusCode).toBe(200);
    await fail(ctx, { identifier: owner.email, ip: uniqueIp(), count: 3 });

    // Even the right password waits from an IP the account does not know...
    const stranger = await signIn(ctx, owner, { remoteAddress: uniqueIp(), language: 'en-US' });
    expect(stranger.statusCode).toBe(429);
    expect(retryAfter(stranger)).toBeGreaterThan(590);
    expect(stranger.json().message).toBe(message('en-US', 'auth.loginThrottled', { count: 10 }));
    // ...but not from the owner's.
    expect((await signIn(ctx, owner, { remoteAddress: home })).statusCode).toBe(200);
    // The owner's sign-in from home says nothing about the strangers: they still wait.
    expect((await signIn(ctx, owner, { remoteAddress: uniqueIp() })).statusCode).toBe(429);

    // Others behind the owner's IP (a shared NAT) are throttled too, on a count of that IP's own.
    await fail(ctx, { identifier: username, ip: home, count: 3 });
    const atHome = await signIn(ctx, owner, { remoteAddress: home });
    expect(atHome.statusCode).toBe(429);
    expect(retryAfter(atHome)).toBeGreaterThan(590);
  });
});
