import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, type TestContext } from '../../test/helpers';
import {
  completeRegistration,
  DEFAULT_PASSWORD,
  login,
  post,
  registerAndLogin,
  requestCode,
  sendOtp,
  UNLIMITED_ROUTES,
  uniqueEmail,
} from '../../test/factories';
import { emailCodes, users } from '../features/auth/auth.table';

/** The JSON error shape every failure has, and nothing a client should not see. */
function expectClientError(res: LightMyRequestResponse, status?: number) {
  if (status) expect(res.statusCode).toBe(status);
  expect(res.statusCode).toBeGreaterThanOrEqual(400);
  expect(res.statusCode).toBeLessThan(500);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const body = res.json();
  expect(body.success).toBe(false);
  expect(typeof body.message).toBe('string');
  expect(body.message.length).toBeGreaterThan(0);
  if ('errors' in body)
    expect(Object.values(body.errors).every((v) => typeof v === 'string')).toBe(true);
  expect(Object.keys(body).filter((k) => !['success', 'message', 'errors'].includes(k))).toEqual(
    [],
  );
  // A stack frame ("\n    at fn (file.ts:1:2)", raw or JSON-escaped) or a file position.
  expect(res.body).not.toMatch(/(\n|\\n)\s+at |\.(ts|js|mjs|cjs):\d+:\d+/);
  expect(res.body.toLowerCase()).not.toContain('stack');
}

async function countRows(ctx: TestContext): Promise<{ users: number; codes: number }> {
  const [u] = await ctx.database.db.select({ n: sql<number>`count(*)::int` }).from(users);
  const [c] = await ctx.database.db.select({ n: sql<number>`count(*)::int` }).from(emailCodes);
  return { users: u?.n ?? 0, codes: c?.n ?? 0 };
}

describe('unknown API routes', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => ctx.close());

  it.each([
    ['GET', '/api/nothing-here'],
    ['POST', '/api/agents/fire'],
    ['DELETE', '/api/user'],
  ] as const)('answers %s %s with a JSON 404', async (method, url) => {
    const res = await ctx.app.inject({ method, url, headers: { 'accept-language': 'en-US' } });
    expectClientError(res, 404);
    expect(res.json()).toEqual({ success: false, message: 'Not found' });
  });
});

describe('request bodies the parser refuses', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp({ limits: { routes: UNLIMITED_ROUTES } });
  });
  afterAll(async () => ctx.close());

  const raw = (payload: string, contentType = 'application/json') =>
    ctx.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { 'content-type': contentType, 'accept-language': 'en-US' },
      payload,
    });

  it('answers malformed JSON with 400', async () => {
    const res = await raw('{"email": "maria", "password": ');
    expectClientError(res, 400);
    expect(res.json().message).toBe('The request body is not valid JSON');
  });

  it('answers a body over 1 MB with 413', async () => {
    const res = await raw(JSON.stringify({ email: 'maria', password: 'x'.repeat(1024 * 1024) }));
    expectClientError(res, 413);
    expect(res.json().message).toBe('The request body is too large (maximum 1 MB)');
  });

  it.each([
    'application/xml',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
  ])('answers the content type %s with 415', async (contentType) => {
    const res = await raw('email=maria&password=secret1', contentType);
    expectClientError(res, 415);
    expect(res.json().message).toBe('Unsupported content type');
  });

  it.each([
    ['an empty JSON body', () => raw('')],
    ['no body at all', () => ctx.app.inject({ method: 'POST', url: '/api/login' })],
    ['a JSON array', () => raw(JSON.stringify([{ email: 'maria', password: 'secret1' }]))],
    ['a JSON string', () => raw('"maria"')],
    ['JSON null', () => raw('null')],
  ])('answers %s with 400', async (_case, send) => {
    expectClientError(await send(), 400);
  });

  it.each([
    ['__proto__', '{"__proto__": {"role": "admin"}, "email": "maria", "password": "secret1"}'],
    [
      'constructor.prototype',
      '{"constructor": {"prototype": {"role": "admin"}}, "email": "maria", "password": "secret1"}',
    ],
  ])('refuses a %s body without polluting any object', async (_case, payload) => {
    const res = await raw(payload);
    expectClientError(res, 400);
    expect(({} as Record<string, unknown>).role).toBeUndefined();
  });
});

describe('NUL characters in JSON strings', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp({ limits: { routes: UNLIMITED_ROUTES } });
  });
  afterAll(async () => ctx.close());

  const refused = 'The request contains characters that are not allowed';

  it('refuses a code request for an address with NUL: no code stored, no mail', async () => {
    const before = await countRows(ctx);
    const mails = ctx.smtp.messages.length;
    const res = await sendOtp(ctx, { email: `nul\u0000${uniqueEmail()}`, language: 'en-US' });
    expectClientError(res, 400);
    expect(res.json().message).toBe(refused);
    expect(await countRows(ctx)).toEqual(before);
    expect(ctx.smtp.messages).toHaveLength(mails);
  });

  it.each([
    ['name', { name: 'Ma\u0000ria' }],
    ['password', { password: 'secret\u0000123' }],
    ['otp', { otp: '12\u00003456' }],
  ])('refuses a registration with NUL in %s: no account, no try counted', async (_case, change) => {
    const email = uniqueEmail('nul');
    const { code } = await requestCode(ctx, { email });
    const before = await countRows(ctx);

    const res = await post(
      ctx,
      '/api/complete-registration',
      { name: 'Maria', email, password: 'secret123', otp: code, ...change },
      { language: 'en-US' },
    );
    expectClientError(res, 400);
    expect(res.json().message).toBe(refused);
    expect(await countRows(ctx)).toEqual(before);
    const [row] = await ctx.database.db
      .select()
      .from(emailCodes)
      .where(eq(emailCodes.email, email));
    expect(row?.attempts).toBe(0);
  });

  it('refuses NUL in a sign-in identifier and in a field name', async () => {
    expectClientError(await login(ctx, { identifier: 'ma\u0000ria', password: 'secret123' }), 400);
    expectClientError(
      await post(ctx, '/api/login', { 'email\u0000': 'maria', password: 'secret123' }),
      400,
    );
  });
});

describe('hostile input', () => {
  let ctx: TestContext;
  let token: string;
  beforeAll(async () => {
    ctx = await createTestApp({ limits: { routes: UNLIMITED_ROUTES } });
    ({ token } = await registerAndLogin(ctx, { email: 'first@example.com' }));
  });
  afterAll(async () => ctx.close());

  const endpoints: Array<{ url: string; body: Record<string, unknown>; auth?: boolean }> = [
    { url: '/api/send-otp', body: { email: 'someone@example.com', purpose: 'registration' } },
    {
      url: '/api/complete-registration',
      body: { name: 'Maria', email: 'someone@example.com', password: 'secret123', otp: '123456' },
    },
    { url: '/api/login', body: { email: 'someone@example.com', password: 'secret123' } },
    { url: '/api/switch-role', body: { targetRole: 'user' }, auth: true },
  ];
  const values: Array<[string, unknown]> = [
    ['SQL (quote)', "' OR 1=1 --"],
    ['SQL (drop)', '"; drop table users; --'],
    ['100 000 characters', 'x'.repeat(100_000)],
    ['a number', 123456],
    ['an array', ['a@b.com']],
    ['an object', { $ne: null }],
    ['null', null],
    ['true', true],
    ['false', false],
    ['an empty string', ''],
  ];
  const cases = endpoints.flatMap(({ url, body, auth }) =>
    Object.keys(body).flatMap((field) =>
      values.map(([label, value]) => ({
        name: `${url} ${field} = ${label}`,
        url,
        body: { ...body, [field]: value },
        auth,
      })),
    ),
  );

  it.each(cases)('answers $name with a 4xx JSON error', async ({ url, body, auth }) => {
    const res = await post(ctx, url, body, auth ? { token } : {});
    expectClientError(res);
  });

  it.each(endpoints)('answers an empty object sent to $url with 400', async ({ url, auth }) => {
    expectClientError(await post(ctx, url, {}, auth ? { token } : {}), 400);
  });

  it('takes SQL-looking text as plain text', async () => {
    const name = "Robert'); DROP TABLE users; --";
    const email = uniqueEmail('bobby');
    const { code } = await requestCode(ctx, { email });
    const before = await countRows(ctx);
    expect((await completeRegistration(ctx, { name, email, otp: code })).statusCode).toBe(200);

    const res = await login(ctx, { identifier: email, password: DEFAULT_PASSWORD });
    expect(res.json().user.name).toBe(name);
    expectClientError(
      await login(ctx, { identifier: "' OR 1=1 --", password: "' OR 1=1 --" }),
      401,
    );
    expectClientError(await login(ctx, { identifier: "admin'--", password: 'anything' }), 401);
    expect((await countRows(ctx)).users).toBe(before.users + 1);
  });
});

describe('security headers', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(async () => ctx.close());

  it('sends a strict content security policy and nosniff on API responses', async () => {
    for (const res of [
      await ctx.app.inject({ method: 'GET', url: '/api/health' }),
      await ctx.app.inject({ method: 'GET', url: '/api/user' }),
    ]) {
      const csp = String(res.headers['content-security-policy']);
      const directives = new Map(
        csp.split(';').map((d) => {
          const [name = '', ...sources] = d.trim().split(/\s+/);
          return [name, sources] as const;
        }),
      );
      expect(directives.get('script-src')).toBeDefined();
      expect(directives.get('script-src')).not.toContain("'unsafe-inline'");
      expect(directives.get('script-src')).not.toContain("'unsafe-eval'");
      expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
    }
  });
});

describe('per-route request limits', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp({ limits: { routes: { sendOtpPerMinute: 2 } } });
  });
  afterAll(async () => ctx.close());

  it('answers the request over the limit with a JSON 429 and retry-after', async () => {
    for (let i = 0; i < 2; i += 1)
      expect((await sendOtp(ctx, { email: uniqueEmail('limit') })).statusCode).toBe(200);

    const res = await sendOtp(ctx, { email: uniqueEmail('limit'), language: 'en-US' });
    expectClientError(res, 429);
    expect(res.json().message).toMatch(/^Too many requests\. Please try again in \d+ seconds\.$/);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(ctx.smtp.messages).toHaveLength(2);
  });
});
