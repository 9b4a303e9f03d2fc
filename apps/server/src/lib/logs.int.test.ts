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

  it('ran the flow as a client would see it', () => {
    expect(sent.map((r) => r.status)).toEqual([200, 200, 200, 200, 200, 200, 401]);
    expect(tokens.every((t) => t.split('.').length === 3)).toBe(true);
  });

  it('never logs a password, the code or a token', () => {
    expect(ctx.logs.length).toBeGreaterThan(0);
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
    type Line = { req?: { method?: string; url?: string }; reqId?: string };
    const logged = ctx.logs.map((line) => JSON.parse(line) as Line);
    // Requests per "METHOD url", as sent and as logged (one request id each).
    const count = (items: Array<{ method?: string; url?: string }>) => {
      const counts = new Map<string, number>();
      for (const { method, url } of items)
        counts.set(`${method} ${url}`, (counts.get(`${method} ${url}`) ?? 0) + 1);
      return counts;
    };
    const loggedRequests = [
      ...new Map(logged.filter((l) => l.req).map((l) => [l.reqId, l.req!])).values(),
    ];

    expect(count(loggedRequests)).toEqual(count(sent));
  });
});
