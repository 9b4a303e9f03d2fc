import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { createTestApp, type TestContext, NO_MONITOR } from '../../test/helpers';
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

type ErrorBody = { message: string; errors?: Record<string, string> };

/** The client error `status` with exactly this JSON body, and nothing a client should not see. */
function expectClientError(res: LightMyRequestResponse, status: number, body: ErrorBody) {
  expect(res.statusCode).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  expect(res.json()).toEqual({ success: false, ...body });
  // A stack frame ("\n    at fn (file.ts:1:2)", raw or JSON-escaped) or a file position.
  expect(res.body).not.toMatch(/(\n|\\n)\s+at |\.(ts|js|mjs|cjs):\d+:\d+/);
  expect(res.body.toLowerCase()).not.toContain('stack');
}

/** The answer to a body the route's schema refuses: 'Validation error' and each field's message. */
const invalid = (errors: Record<string, string>): ErrorBody => ({
  message: 'Validation error',
  errors,
});

async function countRows(ctx: TestContext): Promise<{ users: number; codes: number }> {
  const [u] = await ctx.database.db.select({ n: sql<number>`count(*)::int` }).from(users);
  const [c] = await ctx.database.db.select({ n: sql<number>`count(*)::int` }).from(emailCodes);
  return { users: u?.n ?? 0, codes: c?.n ?? 0 };
}

describe('unknown API routes', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp({ without: NO_MONITOR });
  });
  afterAll(async () => ctx.close());

  it.each([
    ['GET', '/api/nothing-here'],
    ['POST', '/api/agents/fire'],
    ['DELETE', '/api/user'],
  ] as const)('answers %s %s with a JSON 404', async (method, url) => {
    const res = await ctx.app.inject({ method, url, headers: { 'accept-language': 'en-US' } });
    expectClientError(res, 404, { message: 'Not found' });
  });
});

describe('errors raised before routing', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp({ without: NO_MONITOR });
  });
  afterAll(async () => ctx.close());

  /** The answer carries the API's headers and nothing of the request it refuses. */
  function expectNoEcho(res: LightMyRequestResponse, ...sent: string[]) {
    for (const text of sent) expect(res.body).not.toContain(text);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  }

  it.each([
    ['en-US', 'The request is not valid'],
    ['es-ES', 'La petición no es válida'],
  ] as const)(
    'answers a malformed percent-encoding with a JSON 400 (%s)',
    async (language, text) => {
      const res = await ctx.app.inject({
        method: 'GET',
        url: '/api/%E0%A4%A',
        headers: { 'accept-language': language },
      });
      expectClientError(res, 400, { message: text });
      expectNoEcho(res, '%E0', 'E0%A4');
    },
  );

  it('answers a path parameter over the length limit with a JSON 414', async () => {
    const id = 'secret-'.repeat(40);
    const res = await ctx.app.inject({
      method: 'GET',
      url: `/api/chat/conversations/${id}`,
      headers: { 'accept-language': 'en-US' },
    });
    expectClientError(res, 414, { message: 'The address is too long' });
    expectNoEcho(res, 'secret-');
  });
});

/** Sends `data` on a new connection and resolves with what came back once the server closed it. */
function exchange(
  port: number,
  data: string,
): Promise<{ status: number; headers: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(data));
    let received = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', body = ''] = received.split('\r\n\r\n');
      resolve({ status: Number(/^HTTP\/1\.1 (\d{3}) /.exec(head)?.[1]), headers: head, body });
    });
  });
}

describe('errors of the connection, before any request', () => {
  // Two servers: one with the default timeouts, for requests too big (a 400 ms timeout would
  // answer 408 to them on a busy machine, before their size is read), and one that times out in
  // 400 ms, for the request that does not arrive in time.
  let ctx: TestContext;
  let port: number;
  let quick: TestContext;
  let quickPort: number;
  const listening = async (app: TestContext['app']) => {
    await app.listen({ port: 0, host: '127.0.0.1' });
    return (app.server.address() as net.AddressInfo).port;
  };
  beforeAll(async () => {
    ctx = await createTestApp({ without: NO_MONITOR });
    port = await listening(ctx.app);
    quick = await createTestApp({
      without: NO_MONITOR,
      timeouts: { requestMs: 400, headersMs: 400 },
    });
    quickPort = await listening(quick.app);
  });
  afterAll(async () => {
    await Promise.all([ctx.close(), quick.close()]);
  });

  /** The API's JSON error: this status and message, and nothing of what was sent. */
  function expectJsonError(
    res: { status: number; headers: string; body: string },
    status: number,
    message: string,
    ...sent: string[]
  ) {
    expect(res.status).toBe(status);
    expect(res.headers).toMatch(/^content-type: application\/json; charset=utf-8$/im);
    expect(res.headers).toMatch(/^x-content-type-options: nosniff$/im);
    expect(JSON.parse(res.body)).toEqual({ success: false, message });
    for (const text of sent) expect(res.headers + res.body).not.toContain(text);
  }

  it('answers headers over the size limit with a JSON 431', async () => {
    const res = await exchange(
      port,
      `GET /api/health?q=private HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'s3cr3t'.repeat(4000)}\r\n\r\n`,
    );
    expectJsonError(
      res,
      431,
      'Os cabeçalhos da requisição são grandes demais',
      's3cr3t',
      'private',
    );
  });

  it('answers an address over the header limit with a JSON 414, and ends the connection without a reset', async () => {
    // 100 KB is what a probe sent; 4 MB keeps arriving long after the answer is written, and the
    // client must still read it (no RST for the bytes it sent meanwhile). The request's headers
    // come after the address, unread: the answer is in the default language.
    for (const size of [100 * 1024, 4 * 1024 * 1024]) {
      const res = await exchange(
        port,
        `GET /api/user?q=${'s3cr3t'.repeat(size / 6)} HTTP/1.1\r\nHost: localhost\r\n\r\n`,
      );
      expectJsonError(res, 414, 'O endereço é longo demais', 's3cr3t');
    }
    const page = await exchange(
      port,
      `GET /${'x'.repeat(100 * 1024)} HTTP/1.1\r\nHost: localhost\r\n\r\n`,
    );
    expectJsonError(page, 414, 'O endereço é longo demais');
  });

  it('answers malformed HTTP with a JSON 400 in the language it asked for', async () => {
    const res = await exchange(
      port,
      'GET /api/health?q=private HTTP/1.1\r\nAccept-Language: en-US\r\nHost: localhost\r\nno colon s3cr3t\r\n\r\n',
    );
    expectJsonError(res, 400, 'The request is not valid', 's3cr3t', 'private');
  });

  it('answers a request that does not arrive in time with a JSON 408', async () => {
    const res = await exchange(
      quickPort,
      'POST /api/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 10\r\n\r\n{',
    );
    expectJsonError(res, 408, 'A requisição demorou demais para chegar. Tente novamente.');
  });
});

describe('request bodies the parser refuses', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp({ without: NO_MONITOR, limits: { routes: UNLIMITED_ROUTES } });
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
    expectClientError(res, 400, { message: 'The request body is not valid JSON' });
  });

  it('answers a body over 1 MB with 413', async () => {
    const res = await raw(JSON.stringify({ email: 'maria', password: 'x'.repeat(1024 * 1024) }));
    expectClientError(res, 413, { message: 'The request body is too large (maximum 1 MB)' });
  });

  it.each([
    'application/xml',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
  ])('answers the content type %s with 415', async (contentType) => {
    const res = await raw('email=maria&password=secret1', contentType);
    expectClientError(res, 415, { message: 'Unsupported content type' });
  });

  const notAnObject = invalid({ general: 'Invalid value' });
  it.each([
    ['an empty JSON body', () => raw(''), { message: 'The request body is not valid JSON' }],
    [
      'no body at all',
      () =>
        ctx.app.inject({
          method: 'POST',
          url: '/api/login',
          headers: { 'accept-language': 'en-US' },
        }),
      notAnObject,
    ],
    [
      'a JSON array',
      () => raw(JSON.stringify([{ email: 'maria', password: 'secret1' }])),
      notAnObject,
    ],
    ['a JSON string', () => raw('"maria"'), notAnObject],
    ['JSON null', () => raw('null'), notAnObject],
  ])('answers %s with 400', async (_case, send, body) => {
    expectClientError(await send(), 400, body);
  });

  it.each([
    ['__proto__', '{"__proto__": {"role": "admin"}, "email": "maria", "password": "secret1"}'],
    [
      'constructor.prototype',
      '{"constructor": {"prototype": {"role": "admin"}}, "email": "maria", "password": "secret1"}',
    ],
  ])('refuses a %s body without polluting any object', async (_case, payload) => {
    const res = await raw(payload);
    expectClientError(res, 400, { message: 'The request body is not valid JSON' });
    expect(({} as Record<string, unknown>).role).toBeUndefined();
  });
});

describe('NUL characters in JSON strings', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp({ without: NO_MONITOR, limits: { routes: UNLIMITED_ROUTES } });
  });
  afterAll(async () => ctx.close());

  const refused = 'The request contains characters that are not allowed';

  it('refuses a code request for an address with NUL: no code stored, no mail', async () => {
    const before = await countRows(ctx);
    const mails = ctx.smtp.messages.length;
    const res = await sendOtp(ctx, { email: `nul\u0000${uniqueEmail()}`, language: 'en-US' });
    expectClientError(res, 400, { message: refused });
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
    expectClientError(res, 400, { message: refused });
    expect(await countRows(ctx)).toEqual(before);
    const [row] = await ctx.database.db
      .select()
      .from(emailCodes)
      .where(eq(emailCodes.email, email));
    expect(row?.attempts).toBe(0);
  });

  it('refuses NUL in a sign-in identifier and in a field name', async () => {
    expectClientError(
      await login(ctx, { identifier: 'ma\u0000ria', password: 'secret123', language: 'en-US' }),
      400,
      { message: refused },
    );
    expectClientError(
      await post(
        ctx,
        '/api/login',
        { 'email\u0000': 'maria', password: 'secret123' },
        { language: 'en-US' },
      ),
      400,
      { message: refused },
    );
  });
});

describe('hostile input', () => {
  let ctx: TestContext;
  let token: string;
  beforeAll(async () => {
    ctx = await createTestApp({ without: NO_MONITOR, limits: { routes: UNLIMITED_ROUTES } });
    ({ token } = await registerAndLogin(ctx, { email: 'first@example.com' }));
  });
  afterAll(async () => ctx.close());

  // Each hostile value is SQL-looking text, a huge string, or not a (non-empty) string at all.
  type Kind = 'sql' | 'huge' | 'notAString';
  type Answer = [status: number, body: ErrorBody];
  const values: Array<[string, unknown, Kind]> = [
    ['SQL (quote)', "' OR 1=1 --", 'sql'],
    ['SQL (drop)', '"; drop table users; --', 'sql'],
    ['100 000 characters', 'x'.repeat(100_000), 'huge'],
    ['a number', 123456, 'notAString'],
    ['an array', ['a@b.com'], 'notAString'],
    ['an object', { $ne: null }, 'notAString'],
    ['null', null, 'notAString'],
    ['true', true, 'notAString'],
    ['false', false, 'notAString'],
    ['an empty string', '', 'notAString'],
  ];
  const field = (name: string, text: string): Answer => [400, invalid({ [name]: text })];
  const sameFor = (answer: Answer): Record<Kind, Answer> => ({
    sql: answer,
    huge: answer,
    notAString: answer,
  });
  const badEmail = field('email', 'Please enter a valid email address');
  // SQL-looking text is a valid name or password: the request goes on, and meets the missing code.
  const noCode: Answer = [
    400,
    {
      message: 'No valid code for this email. Please request a new one.',
      errors: { otp: 'No valid code for this email. Please request a new one.' },
    },
  ];
  const wrongCredentials: Answer = [401, { message: 'Invalid username/email or password' }];
  const endpoints: Array<{
    url: string;
    body: Record<string, unknown>;
    auth?: boolean;
    answers: Record<string, Record<Kind, Answer>>;
    empty: ErrorBody;
  }> = [
    {
      url: '/api/send-otp',
      body: { email: 'someone@example.com', purpose: 'registration' },
      answers: {
        email: {
          sql: badEmail,
          huge: field('email', 'Email address is too long'),
          notAString: field('email', 'Email is required'),
        },
        purpose: sameFor(field('purpose', 'Invalid value')),
      },
      empty: invalid({ email: 'Email is required', purpose: 'Invalid value' }),
    },
    {
      url: '/api/complete-registration',
      body: { name: 'Maria', email: 'someone@example.com', password: 'secret123', otp: '123456' },
      answers: {
        name: {
          sql: noCode,
          huge: field('name', 'Name must be at most 100 characters'),
          notAString: field('name', 'First name is required'),
        },
        email: {
          sql: badEmail,
          huge: field('email', 'Email address is too long'),
          notAString: field('email', 'Email is required'),
        },
        password: {
          sql: noCode,
          huge: field('password', 'Password must be at most 128 characters'),
          notAString: field('password', 'Password is required'),
        },
        otp: {
          sql: field('otp', 'Verification code must be exactly 6 digits'),
          huge: field('otp', 'Verification code must be exactly 6 digits'),
          notAString: field('otp', 'Please enter the verification code from your email'),
        },
      },
      // The code is asked for once the rest is right, and only while e-mail verification is on
      // (the admin's setting; admin.system.int.test.ts).
      empty: invalid({
        name: 'First name is required',
        email: 'Email is required',
        password: 'Password is required',
      }),
    },
    {
      url: '/api/login',
      body: { email: 'someone@example.com', password: 'secret123' },
      answers: {
        email: {
          sql: wrongCredentials,
          huge: field('email', 'Username or email is too long'),
          notAString: field('email', 'Username or email is required'),
        },
        password: {
          sql: wrongCredentials,
          huge: field('password', 'Password must be at most 128 characters'),
          notAString: field('password', 'Password is required'),
        },
      },
      empty: invalid({ email: 'Username or email is required', password: 'Password is required' }),
    },
    {
      url: '/api/switch-role',
      body: { targetRole: 'user' },
      auth: true,
      answers: { targetRole: sameFor(field('targetRole', 'Invalid value')) },
      empty: invalid({ targetRole: 'Invalid value' }),
    },
  ];
  const cases = endpoints.flatMap(({ url, body, auth, answers }) =>
    Object.keys(body).flatMap((name) =>
      values.map(([label, value, kind]) => ({
        name: `${url} ${name} = ${label}`,
        url,
        body: { ...body, [name]: value },
        auth,
        answer: answers[name]![kind],
      })),
    ),
  );

  it('has an expected answer for every field of every endpoint', () => {
    expect(cases).toHaveLength(9 * values.length); // nine fields in all
    expect(cases.filter((c) => c.answer === undefined)).toEqual([]);
  });

  it.each(cases)('answers $name with its JSON error', async ({ url, body, auth, answer }) => {
    const res = await post(ctx, url, body, { language: 'en-US', ...(auth ? { token } : {}) });
    expectClientError(res, ...answer);
  });

  it.each(endpoints)(
    'answers an empty object sent to $url with 400',
    async ({ url, auth, empty }) => {
      expectClientError(
        await post(ctx, url, {}, { language: 'en-US', ...(auth ? { token } : {}) }),
        400,
        empty,
      );
    },
  );

  it('takes SQL-looking text as plain text', async () => {
    const name = "Robert'); DROP TABLE users; --";
    const email = uniqueEmail('bobby');
    const { code } = await requestCode(ctx, { email });
    const before = await countRows(ctx);
    expect((await completeRegistration(ctx, { name, email, otp: code })).statusCode).toBe(200);

    const res = await login(ctx, { identifier: email, password: DEFAULT_PASSWORD });
    expect(res.json().user.name).toBe(name);
    const wrong = { message: 'Invalid username/email or password' };
    expectClientError(
      await login(ctx, { identifier: "' OR 1=1 --", password: "' OR 1=1 --", language: 'en-US' }),
      401,
      wrong,
    );
    expectClientError(
      await login(ctx, { identifier: "admin'--", password: 'anything', language: 'en-US' }),
      401,
      wrong,
    );
    expect((await countRows(ctx)).users).toBe(before.users + 1);
  });
});

describe('security headers', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp({ without: NO_MONITOR });
  });
  afterAll(async () => ctx.close());

  // API answers are JSON, never rendered: their policy forbids everything, framing included.
  it('sends a deny-all content security policy, nosniff and no framing on API responses', async () => {
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
      expect([...directives.keys()]).toEqual(['default-src', 'frame-ancestors']);
      expect(directives.get('default-src')).toEqual(["'none'"]);
      expect(directives.get('frame-ancestors')).toEqual(["'none'"]);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
    }
  });
});

describe('per-route request limits', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp({ without: NO_MONITOR, limits: { routes: { sendOtpPerMinute: 2 } } });
  });
  afterAll(async () => ctx.close());

  it('answers the request over the limit with a JSON 429 and retry-after', async () => {
    const windowStarted = Date.now();
    for (let i = 0; i < 2; i += 1)
      expect((await sendOtp(ctx, { email: uniqueEmail('limit') })).statusCode).toBe(200);

    const res = await sendOtp(ctx, { email: uniqueEmail('limit'), language: 'en-US' });
    // The rest of the minute that began with the first request (on the real clock), said in the
    // header and in the message alike.
    const elapsed = Math.ceil((Date.now() - windowStarted) / 1000);
    const retryAfter = Number(res.headers['retry-after']);
    expect(retryAfter).toBeGreaterThanOrEqual(60 - elapsed);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expectClientError(res, 429, {
      message: `Too many requests. Please try again in ${retryAfter} seconds.`,
    });
    expect(ctx.smtp.messages).toHaveLength(2);
  });
});
