import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../test/helpers';
import {
  completeRegistration,
  containsNumber,
  get,
  login,
  post,
  requestCode,
} from '../../test/factories';

type Sent = { method: string; url: string; status: number };
type Line = {
  msg?: string;
  method?: string;
  url?: string;
  statusCode?: number;
  reqId?: string;
};

const JWT = /^[\w-]+\.[\w-]+\.[\w-]+$/;

describe('the server log over a whole account flow', () => {
  let ctx: TestContext;
  const sent: Sent[] = [];
  const password = 'Unique-Pa55phrase-for-logs';
  const wrongPassword = 'Wrong-Pa55phrase-for-logs';
  let code = '';
  const tokens: string[] = [];

  beforeAll(async () => {
    ctx = await createTestApp();
    const email = 'logged.person@example.com';
    const track = (method: string, url: string, status: number) =>
      sent.push({ method, url, status });

    ({ code } = await requestCode(ctx, { email }));
    track('POST', '/api/send-otp', 200);
    track(
      'POST',
      '/api/complete-registration',
      (await completeRegistration(ctx, { email, password, otp: code })).statusCode,
    );

    const signedIn = await login(ctx, { identifier: email, password });
    track('POST', '/api/login', signedIn.statusCode);
    tokens.push(signedIn.json().token);
    track('GET', '/api/user', (await get(ctx, '/api/user', { token: tokens[0] })).statusCode);

    const switched = await post(
      ctx,
      '/api/switch-role',
      { targetRole: 'user' },
      { token: tokens[0] },
    );
    track('POST', '/api/switch-role', switched.statusCode);
    tokens.push(switched.json().token);
    track(
      'POST',
      '/api/logout',
      (await post(ctx, '/api/logout', {}, { token: tokens[1] })).statusCode,
    );
    track(
      'POST',
      '/api/login',
      (await login(ctx, { identifier: email, password: wrongPassword })).statusCode,
    );
  });
  afterAll(async () => ctx.close());

  /** The line logged as each request completed: method, URL and status, in order. */
  const completed = () =>
    ctx.logs
      .map((line) => JSON.parse(line) as Line)
      .filter((line) => line.msg === 'request completed')
      .map((line) => ({
        method: line.method,
        url: line.url,
        status: line.statusCode,
      }));

  it('ran the flow as a client would see it', () => {
    expect(sent.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200, 401]);
    expect(tokens).toEqual([expect.stringMatching(JWT), expect.stringMatching(JWT)]);
    expect(tokens[1]).not.toBe(tokens[0]);
  });

  it('never logs a password, the code or a token', () => {
    // The secrets went through every request of the flow, and each of them was logged.
    expect(code).toMatch(/^\d{6}$/);
    expect(tokens).toHaveLength(2);
    expect(completed()).toEqual(sent);
    for (const line of ctx.logs) {
      expect(line).not.toContain(password);
      expect(line).not.toContain(wrongPassword);
      expect(line).not.toContain('$argon2');
      expect(containsNumber(line, code)).toBe(false);
      for (const token of tokens) {
        expect(line).not.toContain(token);
        expect(line).not.toContain(token.split('.')[2]); // the signature alone
      }
    }
  });

  it('logs every request with its method and URL', () => {
    const logged = ctx.logs.map((line) => JSON.parse(line) as Line);
    // Each request id once, with what it logged of its request, in the order they came.
    const loggedRequests = [
      ...new Map(logged.filter((l) => l.url).map((l) => [l.reqId, `${l.method} ${l.url}`])).values(),
    ];

    expect(loggedRequests).toEqual(sent.map(({ method, url }) => `${method} ${url}`));
    // With the status each was answered.
    expect(completed()).toEqual(sent);
  });
});
