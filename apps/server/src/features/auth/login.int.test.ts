import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setTimeout as sleep } from 'node:timers/promises';
import { decodeJwt } from 'jose';
import type { Language } from '@contrateia/shared';
import { createTestApp, type TestContext } from '../../../test/helpers';
import {
  get,
  login,
  post,
  register,
  UNLIMITED_ROUTES,
  uniqueEmail,
  uniqueIp,
} from '../../../test/factories';

const INVALID = 'Invalid username/email or password';
const THROTTLED = 'Too many failed sign-in attempts. Please try again in 15 minutes.';

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
    ctx = await createTestApp({ limits: { routes: UNLIMITED_ROUTES } });
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
      email: 'Carla.Dias@example.org',
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
  ])('answers 400 with field errors for %s', async (_case, body, errors) => {
    const res = await post(ctx, '/api/login', body, {
      language: 'en-US',
      remoteAddress: uniqueIp(),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ success: false, message: 'Validation error', errors });
  });

  it('refuses an identifier after 10 failures, even with the right password, but not other accounts', async () => {
    const victim = await register(ctx, { email: uniqueEmail('victim') });
    const other = await register(ctx, { email: uniqueEmail('other') });
    const ip = uniqueIp();
    const windowStarted = Date.now();
    await fail(ctx, { identifier: victim.email, ip, count: 10 });

    const right = await signIn(ctx, victim, { remoteAddress: ip, language: 'en-US' });
    expect(right.statusCode).toBe(429);
    expect(right.json()).toEqual({ success: false, message: THROTTLED });
    // The rest of the 15-minute window that began with the first failure (on the real clock).
    const elapsed = Math.ceil((Date.now() - windowStarted) / 1000);
    expect(Number(right.headers['retry-after'])).toBeGreaterThanOrEqual(15 * 60 - elapsed);
    expect(Number(right.headers['retry-after'])).toBeLessThanOrEqual(15 * 60);
    // The count belongs to the identifier, whatever IP the next attempt comes from.
    const elsewhere = await login(ctx, {
      identifier: victim.email.toUpperCase(),
      password: victim.password,
      remoteAddress: uniqueIp(),
    });
    expect(elsewhere.statusCode).toBe(429);

    const unaffected = await signIn(ctx, other, { remoteAddress: uniqueIp() });
    expect(unaffected.statusCode).toBe(200);
  });

  it('refuses an IP after 50 failures across identifiers', async () => {
    const account = await register(ctx, { email: uniqueEmail('ipuser') });
    const ip = uniqueIp();
    await fail(ctx, { identifier: (i) => `guess${i}`, ip, count: 50 });

    const fromThatIp = await signIn(ctx, account, { remoteAddress: ip, language: 'en-US' });
    expect(fromThatIp.statusCode).toBe(429);
    expect(fromThatIp.json()).toEqual({ success: false, message: THROTTLED });

    const fromAnother = await signIn(ctx, account, { remoteAddress: uniqueIp() });
    expect(fromAnother.statusCode).toBe(200);
  });

  it('forgets an identifier’s failures once it signs in', async () => {
    const account = await register(ctx, { email: uniqueEmail('reset') });
    const ip = uniqueIp();
    await fail(ctx, { identifier: account.email, ip, count: 9 });
    expect((await signIn(ctx, account, { remoteAddress: ip })).statusCode).toBe(200);

    await fail(ctx, { identifier: account.email, ip, count: 9 });
    const res = await signIn(ctx, account, { remoteAddress: ip });
    expect(res.statusCode).toBe(200);
  });
});

describe('POST /api/login after the failure window', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp({
      limits: { login: { windowSeconds: 2 }, routes: UNLIMITED_ROUTES },
    });
  });
  afterAll(async () => ctx.close());

  // rate-limiter-flexible counts on the real clock, so this test waits for real.
  it('lets the identifier sign in again once the window has passed', async () => {
    const account = await register(ctx, { email: uniqueEmail('window') });
    const ip = uniqueIp();
    await fail(ctx, { identifier: account.email, ip, count: 10 });
    expect((await signIn(ctx, account, { remoteAddress: ip })).statusCode).toBe(429);

    await sleep(2_100);
    const res = await signIn(ctx, account, { remoteAddress: ip });
    expect(res.statusCode).toBe(200);
  });
});
