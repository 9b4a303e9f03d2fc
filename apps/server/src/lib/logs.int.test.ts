import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { users } from '@/features/auth/auth.table';
import { AppError } from './errors';
import { createTestApp, type TestContext, NO_MONITOR } from '../../test/helpers';
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
    ctx = await createTestApp({ without: NO_MONITOR });
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
      ...new Map(
        logged.filter((l) => l.url).map((l) => [l.reqId, `${l.method} ${l.url}`]),
      ).values(),
    ];

    expect(loggedRequests).toEqual(sent.map(({ method, url }) => `${method} ${url}`));
    // With the status each was answered.
    expect(completed()).toEqual(sent);
  });
  it("logs a URL's path, never its query: what a person searched for stays out of the log", async () => {
    const search = 'my-private-search-words';
    const signedIn = await login(ctx, { identifier: 'logged.person@example.com', password });
    const res = await get(ctx, `/api/chat/conversations?agentName=guia&q=${search}`, {
      token: signedIn.json().token,
    });
    expect(res.statusCode).toBe(200);
    expect(completed().at(-1)).toEqual({
      method: 'GET',
      url: '/api/chat/conversations',
      status: 200,
    });
    for (const line of ctx.logs) expect(line).not.toContain(search);
  });
});

describe('database errors in the log', () => {
  let ctx: TestContext;
  let db: TestContext['database']['db'] | undefined;
  // What a person typed, carried into a query as its parameters.
  const email = 'private.person@example.com';
  const name = 'Maria Private-Surname';

  type Logged = { msg?: string; err?: Record<string, unknown> };
  const insertDuplicate = () =>
    db!.insert(users).values({
      name,
      email: email.toUpperCase(),
      username: 'private-person-2',
      role: 'user',
      originalRole: 'user',
      passwordHash: 'not-a-hash',
    });

  beforeAll(async () => {
    ctx = await createTestApp(
      {},
      {
        // Queries that fail the way a real one can, with user content among their parameters;
        // each route fails as one of the ways the app meets a database error.
        setup: (app) => {
          app.post('/api/test/duplicate', async () => insertDuplicate());
          app.post('/api/test/wrapped', async () => {
            await insertDuplicate().catch((error: unknown) => {
              throw new AppError(500, 'errors.server', { cause: error });
            });
          });
          app.post('/api/test/caused', async () => {
            await insertDuplicate().catch((error: unknown) => {
              throw new Error('saving the profile failed', { cause: error });
            });
          });
          app.post('/api/test/bad-value', async () => db!.execute(sql`select ${name}::uuid`));
        },
      },
    );
    db = ctx.database.db;
    await completeRegistration(ctx, {
      name: 'Maria',
      email,
      password: 'Correct-Horse-42',
      otp: (await requestCode(ctx, { email })).code,
    });
  });
  afterAll(async () => ctx.close());

  /** The error lines logged while `run` ran. */
  async function errorsLoggedBy(
    run: () => Promise<unknown>,
  ): Promise<{ lines: string[]; errs: Record<string, unknown>[] }> {
    const from = ctx.logs.length;
    await run();
    const lines = ctx.logs.slice(from);
    const errs = lines
      .map((line) => JSON.parse(line) as Logged)
      .flatMap((line) => (line.err ? [line.err] : []));
    return { lines, errs };
  }

  it.each(['/api/test/duplicate', '/api/test/wrapped', '/api/test/caused'])(
    'logs a unique violation (%s) by its code, constraint and table, not its values',
    async (url) => {
      const { lines, errs } = await errorsLoggedBy(async () => {
        const res = await post(ctx, url, {}, { language: 'en-US' });
        expect(res.statusCode).toBe(500);
        expect(res.json()).toEqual({ success: false, message: 'Server error' });
      });
      expect(errs.length).toBeGreaterThan(0);
      for (const err of errs) {
        expect(err.database).toMatchObject({
          code: '23505',
          constraint: 'users_email_lower_key',
          table: 'users',
        });
      }
      for (const line of lines) {
        expect(line).not.toContain(email.toUpperCase());
        expect(line).not.toContain('Private-Surname');
        expect(line).not.toContain('not-a-hash');
      }
    },
  );

  it('logs a value the database refused by its code, without the value', async () => {
    const { lines, errs } = await errorsLoggedBy(() => post(ctx, '/api/test/bad-value', {}));
    expect(errs.length).toBeGreaterThan(0);
    for (const err of errs) expect(err.database).toMatchObject({ code: '22P02' });
    for (const line of lines) expect(line).not.toContain('Private-Surname');
  });
});
