import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { AccountExport, Language, SessionInfo } from '@contrateia/shared';
import { createTestApp, type TestContext, NO_MONITOR } from '../../../test/helpers';
import {
  DEFAULT_PASSWORD,
  get,
  login,
  message,
  post,
  register,
  registerAndLogin,
  UNLIMITED_ROUTES,
  uniqueEmail,
  uniqueIp,
} from '../../../test/factories';
import { repliesOf } from '../../../test/replies';
import { codeFromMail } from '../../../test/smtp';
import { linkSandbox } from '../../../test/whatsapp';
import { agentHires } from '@/features/agents/agents.table';
import { conversations, messages } from '@/features/chat/chat.table';
import { emailCodes, sessions, users } from './auth.table';

// "Your account": profile, password change, sessions, forgotten password, LGPD export
// and deletion, each through the HTTP API as the web app calls it.

const NEW_PASSWORD = 'Brand-New-Secret-9';
const FIREFOX_ANDROID = 'Mozilla/5.0 (Android 14; Mobile; rv:128.0) Gecko/128.0 Firefox/128.0';
const CHROME_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';

type Account = Awaited<ReturnType<typeof registerAndLogin>>;

function patch(
  ctx: TestContext,
  url: string,
  body: unknown,
  { token, language }: { token?: string; language?: Language } = {},
) {
  return ctx.app.inject({
    method: 'PATCH',
    url,
    payload: JSON.stringify(body),
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(language ? { 'accept-language': language } : {}),
    },
  });
}

/** A new session for the account, from a browser with this User-Agent. */
async function signIn(
  ctx: TestContext,
  account: { email: string; password: string },
  userAgent?: string,
): Promise<string> {
  const res = await ctx.app.inject({
    method: 'POST',
    url: '/api/login',
    payload: JSON.stringify({ email: account.email, password: account.password }),
    headers: {
      'content-type': 'application/json',
      ...(userAgent ? { 'user-agent': userAgent } : {}),
    },
  });
  expect(res.statusCode).toBe(200);
  return res.json<{ token: string }>().token;
}

const status = async (ctx: TestContext, token: string) =>
  (await get(ctx, '/api/user', { token })).statusCode;

const userRow = async (ctx: TestContext, email: string) =>
  (
    await ctx.database.db
      .select()
      .from(users)
      .where(sql`lower(${users.email}) = lower(${email})`)
  )[0];

function changePassword(
  ctx: TestContext,
  token: string,
  body: Record<string, unknown>,
  language: Language = 'en-US',
) {
  return post(ctx, '/api/change-password', body, { token, language });
}

describe('profile: GET and PATCH /api/profile', () => {
  let ctx: TestContext;
  let account: Account;
  beforeAll(async () => {
    ctx = await createTestApp({ without: NO_MONITOR, limits: { routes: UNLIMITED_ROUTES } });
    account = await registerAndLogin(ctx, { name: 'Rita Alves' });
  });
  afterAll(async () => ctx.close());

  it('answers the user and the language they registered in', async () => {
    const res = await get(ctx, '/api/profile', { token: account.token });
    expect(res.statusCode).toBe(200);
    // register() sends no Accept-Language: the default language, Portuguese.
    expect(res.json()).toEqual({ user: account.user, language: 'pt-BR' });
  });

  it('changes the name and the language, and GET /api/user shows the new name at once', async () => {
    expect((await get(ctx, '/api/user', { token: account.token })).json().user.name).toBe(
      'Rita Alves',
    );
    const res = await patch(
      ctx,
      '/api/profile',
      { name: '  Rita Souza  ', language: 'es-ES' },
      { token: account.token, language: 'es-ES' },
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      success: true,
      message: 'Perfil guardado',
      language: 'es-ES',
      user: { name: 'Rita Souza' },
    });
    expect((await get(ctx, '/api/user', { token: account.token })).json().user.name).toBe(
      'Rita Souza',
    );
    expect((await get(ctx, '/api/profile', { token: account.token })).json().language).toBe(
      'es-ES',
    );
  });

  it.each([
    ['an empty name', { name: ' ', language: 'en-US' }, 'name', 'validation.nameRequired'],
    ['a one-letter name', { name: ' R ', language: 'en-US' }, 'name', 'validation.nameTooShort'],
    [
      'a name of 101 characters',
      { name: 'a'.repeat(101), language: 'en-US' },
      'name',
      'validation.nameTooLong',
    ],
    [
      'a language that does not exist',
      { name: 'Rita', language: 'xx-XX' },
      'language',
      'validation.languageInvalid',
    ],
    [
      'a name that is not text',
      { name: { $ne: 1 }, language: 'en-US' },
      'name',
      'validation.nameRequired',
    ],
  ])(
    "answers 400 for %s in the caller's language and changes nothing",
    async (_case, body, field, key) => {
      const before = await userRow(ctx, account.email);
      const res = await patch(ctx, '/api/profile', body, {
        token: account.token,
        language: 'pt-BR',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        success: false,
        message: message('pt-BR', 'errors.validation'),
        errors: { [field]: message('pt-BR', key) },
      });
      expect(await userRow(ctx, account.email)).toEqual(before);
    },
  );

  it('answers 400 for a NUL character in the name and changes nothing', async () => {
    const before = await userRow(ctx, account.email);
    const res = await patch(
      ctx,
      '/api/profile',
      { name: 'Rita\u0000; drop table users', language: 'en-US' },
      { token: account.token, language: 'en-US' },
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(message('en-US', 'errors.invalidCharacters'));
    expect(await userRow(ctx, account.email)).toEqual(before);
  });

  it('answers 413 for a huge body and changes nothing', async () => {
    const before = await userRow(ctx, account.email);
    const res = await patch(
      ctx,
      '/api/profile',
      { name: 'x'.repeat(2_000_000), language: 'en-US' },
      { token: account.token, language: 'en-US' },
    );
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toBe(message('en-US', 'errors.payloadTooLarge'));
    expect(await userRow(ctx, account.email)).toEqual(before);
  });

  it('refuses a caller without a session', async () => {
    expect((await get(ctx, '/api/profile')).statusCode).toBe(401);
    expect(
      (await patch(ctx, '/api/profile', { name: 'Intruder', language: 'en-US' })).statusCode,
    ).toBe(401);
  });
});

describe('POST /api/change-password', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp({ without: NO_MONITOR, limits: { routes: UNLIMITED_ROUTES } });
  });
  afterAll(async () => ctx.close());

  it('sets the new password; the other sessions end at once, this one keeps working', async () => {
    const account = await registerAndLogin(ctx);
    const other = await signIn(ctx, account);
    expect(await status(ctx, other)).toBe(200);

    const res = await changePassword(ctx, account.token, {
      currentPassword: account.password,
      newPassword: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      message: message('en-US', 'account.passwordChanged'),
    });

    expect(await status(ctx, other)).toBe(401);
    expect(await status(ctx, account.token)).toBe(200);
    expect(
      (await login(ctx, { identifier: account.email, password: account.password })).statusCode,
    ).toBe(401);
    expect(
      (await login(ctx, { identifier: account.email, password: NEW_PASSWORD })).statusCode,
    ).toBe(200);
  });

  it('lets one of two sessions changing the password at once win: the other, which it signs out, is refused', async () => {
    const account = await registerAndLogin(ctx);
    const other = await signIn(ctx, account);
    const attempts = [
      { token: account.token, password: 'First-New-Secret-1' },
      { token: other, password: 'Second-New-Secret-2' },
    ];
    const results = await Promise.all(
      attempts.map(({ token, password }) =>
        changePassword(ctx, token, {
          currentPassword: account.password,
          newPassword: password,
          confirmPassword: password,
        }),
      ),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 401]);
    const winner = attempts[results.findIndex((r) => r.statusCode === 200)]!;
    const loser = attempts[results.findIndex((r) => r.statusCode === 401)]!;

    // The password is the winner's, and only the winner's session is left.
    expect(await status(ctx, winner.token)).toBe(200);
    expect(await status(ctx, loser.token)).toBe(401);
    expect(
      (await login(ctx, { identifier: account.email, password: winner.password })).statusCode,
    ).toBe(200);
    expect(
      (await login(ctx, { identifier: account.email, password: loser.password })).statusCode,
    ).toBe(401);
    expect(
      (await login(ctx, { identifier: account.email, password: account.password })).statusCode,
    ).toBe(401);
  });

  it.each([
    [
      'a wrong current password',
      {
        currentPassword: 'not-my-password',
        newPassword: NEW_PASSWORD,
        confirmPassword: NEW_PASSWORD,
      },
      'currentPassword',
      'account.wrongPassword',
    ],
    [
      'a missing current password',
      { newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD },
      'currentPassword',
      'validation.currentPasswordRequired',
    ],
    [
      'a new password that is too short',
      { currentPassword: DEFAULT_PASSWORD, newPassword: '12345', confirmPassword: '12345' },
      'newPassword',
      'validation.passwordTooShort',
    ],
    [
      'a new password of 129 characters',
      {
        currentPassword: DEFAULT_PASSWORD,
        newPassword: 'a'.repeat(129),
        confirmPassword: 'a'.repeat(129),
      },
      'newPassword',
      'validation.passwordTooLong',
    ],
    [
      'a confirmation that does not match',
      {
        currentPassword: DEFAULT_PASSWORD,
        newPassword: NEW_PASSWORD,
        confirmPassword: `${NEW_PASSWORD}x`,
      },
      'confirmPassword',
      'validation.passwordsDoNotMatch',
    ],
  ])('answers 400 for %s and changes nothing', async (_case, body, field, key) => {
    const account = await registerAndLogin(ctx);
    const other = await signIn(ctx, account);
    const before = await userRow(ctx, account.email);

    const res = await changePassword(ctx, account.token, body, 'es-ES');
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({ [field]: message('es-ES', key) });

    expect(await userRow(ctx, account.email)).toEqual(before);
    expect(await status(ctx, other)).toBe(200);
    expect(
      (await login(ctx, { identifier: account.email, password: DEFAULT_PASSWORD })).statusCode,
    ).toBe(200);
  });
});

describe('password guesses from a signed-in session', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp({
      without: NO_MONITOR,
      limits: {
        routes: UNLIMITED_ROUTES,
        login: { perAccount: 3, baseDelaySeconds: 600, maxDelaySeconds: 600, perIp: 1_000 },
      },
    });
  });
  afterAll(async () => ctx.close());

  it('count against the sign-in limits: after 3 wrong ones even the right password waits', async () => {
    const account = await registerAndLogin(ctx);
    const wrong = {
      currentPassword: 'guess-1234',
      newPassword: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    };
    for (let i = 0; i < 2; i += 1)
      expect((await changePassword(ctx, account.token, wrong)).statusCode).toBe(400);
    expect(
      (await post(ctx, '/api/account/delete', { password: 'guess-5678' }, { token: account.token }))
        .statusCode,
    ).toBe(400);

    const right = await changePassword(ctx, account.token, {
      ...wrong,
      currentPassword: account.password,
    });
    expect(right.statusCode).toBe(429);
    expect(right.json().message).toBe(message('en-US', 'auth.loginThrottled', { count: 10 }));
    expect(
      (
        await post(
          ctx,
          '/api/account/delete',
          { password: account.password },
          { token: account.token },
        )
      ).statusCode,
    ).toBe(429);
    expect(await userRow(ctx, account.email)).toBeDefined();
    expect(
      (await login(ctx, { identifier: account.email, password: account.password })).statusCode,
    ).toBe(429);
  });
  it('are forgotten by a password reset: the owner signs in at once from where they reset it', async () => {
    const account = await register(ctx);
    const username = account.email.split('@')[0]!;
    const ip = uniqueIp();
    for (let i = 0; i < 3; i += 1) {
      expect(
        (
          await login(ctx, {
            identifier: username,
            password: 'guess-1234',
            remoteAddress: uniqueIp(),
          })
        ).statusCode,
      ).toBe(401);
    }
    expect(
      (
        await login(ctx, {
          identifier: account.email,
          password: account.password,
          remoteAddress: ip,
        })
      ).statusCode,
    ).toBe(429);

    const since = ctx.smtp.messages.length;
    expect(
      (await post(ctx, '/api/forgot-password', { email: account.email }, { remoteAddress: ip }))
        .statusCode,
    ).toBe(200);
    const code = codeFromMail(await ctx.smtp.waitForMail(account.email, { since }));
    const reset = await post(
      ctx,
      '/api/reset-password',
      { email: account.email, otp: code, password: NEW_PASSWORD, confirmPassword: NEW_PASSWORD },
      { remoteAddress: ip },
    );
    expect(reset.statusCode).toBe(200);

    expect(
      (await login(ctx, { identifier: username, password: NEW_PASSWORD, remoteAddress: ip }))
        .statusCode,
    ).toBe(200);
  });
});

describe('sessions: GET /api/sessions and POST /api/sessions/revoke-others', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp({ without: NO_MONITOR, limits: { routes: UNLIMITED_ROUTES } });
  });
  afterAll(async () => ctx.close());

  it('lists each live session with its device and last use, the current one marked', async () => {
    const { email, password } = await register(ctx);
    const phone = await signIn(ctx, { email, password }, FIREFOX_ANDROID);
    ctx.clock.advance(2 * 60_000);
    const desktop = await signIn(ctx, { email, password }, CHROME_WINDOWS);
    const gone = await signIn(ctx, { email, password }, CHROME_WINDOWS);
    expect((await post(ctx, '/api/logout', {}, { token: gone })).statusCode).toBe(200);

    const res = await get(ctx, '/api/sessions', { token: desktop });
    expect(res.statusCode).toBe(200);
    const list = res.json<{ sessions: SessionInfo[] }>().sessions;
    expect(
      list.map(({ browser, os, deviceType, current }) => ({ browser, os, deviceType, current })),
    ).toEqual([
      { browser: 'Chrome 131', os: 'Windows 10', deviceType: 'desktop', current: true },
      { browser: 'Firefox 128', os: 'Android 14', deviceType: 'mobile', current: false },
    ]);
    expect(Date.parse(list[0]!.lastSeenAt) - Date.parse(list[1]!.lastSeenAt)).toBe(2 * 60_000);
    const fromPhone = (await get(ctx, '/api/sessions', { token: phone })).json<{
      sessions: SessionInfo[];
    }>().sessions;
    expect(fromPhone.find((s) => s.current)?.browser).toBe('Firefox 128');
  });

  it('keeps at most 512 characters of a hostile User-Agent, without control characters', async () => {
    const { email, password } = await register(ctx);
    const token = await signIn(ctx, { email, password }, `Evil\u0001Agent ${'x'.repeat(5000)}`);
    const [row] = await ctx.database.db
      .select({ userAgent: sessions.userAgent })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(eq(users.email, email));
    expect(row?.userAgent).toHaveLength(512);
    expect(row?.userAgent?.startsWith('EvilAgent x')).toBe(true);
    expect((await get(ctx, '/api/sessions', { token })).statusCode).toBe(200);
  });

  it('"sign out elsewhere" ends every other session; the current one keeps working', async () => {
    const account = await registerAndLogin(ctx);
    const others = [await signIn(ctx, account), await signIn(ctx, account)];
    // In use (so cached), as on a device that is open.
    for (const token of others) expect(await status(ctx, token)).toBe(200);
    const res = await post(
      ctx,
      '/api/sessions/revoke-others',
      {},
      { token: account.token, language: 'en-US' },
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      message: message('en-US', 'account.otherSessionsEnded', { count: 2 }),
    });
    for (const token of others) expect(await status(ctx, token)).toBe(401);
    expect(await status(ctx, account.token)).toBe(200);
    const list = (await get(ctx, '/api/sessions', { token: account.token })).json<{
      sessions: SessionInfo[];
    }>().sessions;
    expect(list.map((s) => s.current)).toEqual([true]);
    // Again, with nothing left to end: said as such, never "0 outra sessão foi encerrada".
    const again = await post(
      ctx,
      '/api/sessions/revoke-others',
      {},
      { token: account.token, language: 'pt-BR' },
    );
    expect(again.json()).toEqual({ success: true, message: 'Nenhuma outra sessão estava aberta' });
  });

  it('refuses a caller without a session', async () => {
    expect((await get(ctx, '/api/sessions')).statusCode).toBe(401);
    expect((await post(ctx, '/api/sessions/revoke-others', {})).statusCode).toBe(401);
  });
});

describe('forgotten password: POST /api/forgot-password and /api/reset-password', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp({ without: NO_MONITOR, limits: { routes: UNLIMITED_ROUTES } });
  });
  afterAll(async () => ctx.close());

  /** Asks for a reset code and reads it from the mail. */
  async function requestResetCode(email: string, language: Language = 'en-US') {
    const since = ctx.smtp.messages.length;
    const res = await post(ctx, '/api/forgot-password', { email }, { language });
    expect(res.statusCode).toBe(200);
    const mail = await ctx.smtp.waitForMail(email, { since });
    return { code: codeFromMail(mail), mail };
  }

  const reset = (body: Record<string, unknown>, language: Language = 'en-US') =>
    post(ctx, '/api/reset-password', body, { language });

  it('answers an unknown address exactly as a known one, and mails nothing to it', async () => {
    const known = await register(ctx);
    const unknown = uniqueEmail('nobody');
    const since = ctx.smtp.messages.length;

    const forUnknown = await post(
      ctx,
      '/api/forgot-password',
      { email: unknown },
      { language: 'en-US' },
    );
    const forKnown = await post(
      ctx,
      '/api/forgot-password',
      { email: known.email },
      { language: 'en-US' },
    );
    expect(forUnknown.statusCode).toBe(200);
    expect(forKnown.statusCode).toBe(200);
    expect(forUnknown.json()).toEqual({
      success: true,
      message: message('en-US', 'account.resetCodeSent', { email: unknown }),
    });
    expect(forKnown.json()).toEqual({
      success: true,
      message: message('en-US', 'account.resetCodeSent', { email: known.email }),
    });

    // The known address's mail went out after the unknown's request: none was started for it.
    await ctx.smtp.waitForMail(known.email, { since });
    expect(ctx.smtp.messages.slice(since).map((m) => m.to)).toEqual([
      expect.stringContaining(known.email),
    ]);

    // A second request within the minute: the same cooldown either way.
    const again = [
      await post(ctx, '/api/forgot-password', { email: unknown }, { language: 'en-US' }),
      await post(ctx, '/api/forgot-password', { email: known.email }, { language: 'en-US' }),
    ];
    expect(again.map((r) => r.statusCode)).toEqual([429, 429]);
    expect(again[0]!.json()).toEqual(again[1]!.json());

    // And a guessed code for the unknown address is refused like a wrong one.
    const guessed = await reset({
      email: unknown,
      otp: '123456',
      password: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    });
    expect(guessed.statusCode).toBe(400);
    expect(guessed.json().errors).toEqual({ otp: message('en-US', 'auth.otpInvalid') });
    expect(await userRow(ctx, unknown)).toBeUndefined();
  });

  it('resets the password with the mailed code: every session ends, only the new password signs in', async () => {
    const account = await registerAndLogin(ctx);
    const other = await signIn(ctx, account);
    expect(await status(ctx, other)).toBe(200);
    const { code, mail } = await requestResetCode(account.email);
    expect(mail.subject).toBe(message('pt-BR', 'mail.resetSubject', { code }));

    const res = await reset({
      email: account.email.toUpperCase(),
      otp: code,
      password: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      message: message('en-US', 'account.passwordReset'),
    });

    expect(await status(ctx, account.token)).toBe(401);
    expect(await status(ctx, other)).toBe(401);
    expect(
      (await login(ctx, { identifier: account.email, password: account.password })).statusCode,
    ).toBe(401);
    expect(
      (await login(ctx, { identifier: account.email, password: NEW_PASSWORD })).statusCode,
    ).toBe(200);

    // The code served once.
    const replay = await reset({
      email: account.email,
      otp: code,
      password: 'Another-one-1',
      confirmPassword: 'Another-one-1',
    });
    expect(replay.statusCode).toBe(400);
    expect(
      (await login(ctx, { identifier: account.email, password: NEW_PASSWORD })).statusCode,
    ).toBe(200);
  });

  it("writes the mail in the language kept on the account, not the caller's", async () => {
    const account = await registerAndLogin(ctx);
    expect(
      (
        await patch(
          ctx,
          '/api/profile',
          { name: 'Ana', language: 'es-ES' },
          { token: account.token },
        )
      ).statusCode,
    ).toBe(200);
    const { code, mail } = await requestResetCode(account.email, 'en-US');
    expect(mail.subject).toBe(message('es-ES', 'mail.resetSubject', { code }));
    expect(mail.text).toContain(
      message('es-ES', 'mail.resetText', { code, minutes: 10 }).split('\n')[0]!,
    );
  });

  it('refuses a code 10 minutes and 1 second after it was sent', async () => {
    const account = await register(ctx);
    const { code } = await requestResetCode(account.email);
    ctx.clock.advance(10 * 60_000 + 1_000);
    const res = await reset({
      email: account.email,
      otp: code,
      password: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({ otp: message('en-US', 'auth.otpExpired') });
    expect(
      (await login(ctx, { identifier: account.email, password: account.password })).statusCode,
    ).toBe(200);
  });

  it('refuses the right code after 5 wrong tries', async () => {
    const account = await register(ctx);
    const { code } = await requestResetCode(account.email);
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i += 1) {
      expect(
        (
          await reset({
            email: account.email,
            otp: wrong,
            password: NEW_PASSWORD,
            confirmPassword: NEW_PASSWORD,
          })
        ).statusCode,
      ).toBe(400);
    }
    const res = await reset({
      email: account.email,
      otp: code,
      password: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({ otp: message('en-US', 'auth.otpAttemptsExhausted') });
    expect(
      (await login(ctx, { identifier: account.email, password: account.password })).statusCode,
    ).toBe(200);
  });

  it('gives reset codes only through forgot-password: send-otp refuses the purpose', async () => {
    const account = await register(ctx);
    ctx.clock.advance(60_000);
    const res = await post(
      ctx,
      '/api/send-otp',
      { email: uniqueEmail('fresh'), purpose: 'password-reset' },
      { language: 'en-US' },
    );
    expect(res.statusCode).toBe(400);
    expect(
      (await login(ctx, { identifier: account.email, password: account.password })).statusCode,
    ).toBe(200);
  });

  it.each([
    [
      'a confirmation that does not match',
      { password: NEW_PASSWORD, confirmPassword: 'Different-1' },
      'confirmPassword',
      'validation.passwordsDoNotMatch',
    ],
    [
      'a password that is too short',
      { password: '123', confirmPassword: '123' },
      'password',
      'validation.passwordTooShort',
    ],
  ])(
    'answers 400 for %s, and the code still works afterwards',
    async (_case, passwords, field, key) => {
      const account = await register(ctx);
      ctx.clock.advance(60_000);
      const { code } = await requestResetCode(account.email, 'pt-BR');
      const res = await reset({ email: account.email, otp: code, ...passwords }, 'pt-BR');
      expect(res.statusCode).toBe(400);
      expect(res.json().errors).toEqual({ [field]: message('pt-BR', key) });
      expect(
        (await login(ctx, { identifier: account.email, password: account.password })).statusCode,
      ).toBe(200);
      expect(
        (
          await reset({
            email: account.email,
            otp: code,
            password: NEW_PASSWORD,
            confirmPassword: NEW_PASSWORD,
          })
        ).statusCode,
      ).toBe(200);
    },
  );

  it('answers 400 for a malformed address and mails nothing', async () => {
    const since = ctx.smtp.messages.length;
    const res = await post(
      ctx,
      '/api/forgot-password',
      { email: 'not-an-address' },
      { language: 'es-ES' },
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({ email: message('es-ES', 'validation.emailInvalid') });
    expect(ctx.smtp.messages).toHaveLength(since);
  });
});

describe('reset codes per address over a day', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    // Two a day here, to keep the test short; five by default.
    ctx = await createTestApp({
      without: NO_MONITOR,
      limits: { routes: UNLIMITED_ROUTES, codes: { perAddress: 2 } },
    });
  });
  afterAll(async () => ctx.close());

  it('stops sending reset codes after the daily number, for known and unknown addresses alike', async () => {
    // Registering took a registration code: reset codes are counted on their own.
    const known = await register(ctx);
    const unknown = uniqueEmail('nobody');
    const ask = (email: string, language: Language = 'en-US') =>
      post(ctx, '/api/forgot-password', { email }, { language });

    for (let i = 0; i < 2; i += 1) {
      ctx.clock.advance(60_000);
      const since = ctx.smtp.messages.length;
      expect((await ask(unknown)).statusCode).toBe(200);
      expect((await ask(known.email)).statusCode).toBe(200);
      await ctx.smtp.waitForMail(known.email, { since });
    }
    const sent = ctx.smtp.messages.length;

    ctx.clock.advance(60_000);
    const refused = [await ask(unknown), await ask(known.email)];
    expect(refused.map((r) => r.statusCode)).toEqual([429, 429]);
    // The same answer either way: the limit does not tell who has an account.
    const text = 'Too many codes were sent to this address. Please try again in 24 hours.';
    expect(refused.map((r) => r.json())).toEqual([
      { success: false, message: text },
      { success: false, message: text },
    ]);
    expect(Number(refused[1]!.headers['retry-after'])).toBeGreaterThan(23 * 3600);
    expect((await ask(known.email, 'es-ES')).json().message).toBe(
      'Se han enviado demasiados códigos a este correo. Inténtalo de nuevo en 24 horas.',
    );
    expect(ctx.smtp.messages).toHaveLength(sent);
  });
});

describe('LGPD: GET /api/account/export and POST /api/account/delete', () => {
  let ctx: TestContext;
  let admin: Account;
  beforeAll(async () => {
    ctx = await createTestApp({ without: NO_MONITOR, limits: { routes: UNLIMITED_ROUTES } });
    // The first account is the administrator.
    admin = await registerAndLogin(ctx, { name: 'Admin' });
  });
  afterAll(async () => ctx.close());

  async function chatted(): Promise<Account> {
    const account = await registerAndLogin(ctx, { name: 'Carla Dias' });
    const res = await post(
      ctx,
      '/api/chat/message',
      { message: 'Como contrato um agente?', agentName: 'guia' },
      { token: account.token, language: 'pt-BR' },
    );
    expect(res.statusCode).toBe(200);
    return account;
  }

  it('downloads the account, its hires and its conversations with messages, and no hash or secret', async () => {
    const account = await chatted();
    const res = await get(ctx, '/api/account/export', { token: account.token });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="contrateia-.+\.json"$/,
    );
    const data = res.json<AccountExport>();
    expect(data.account).toMatchObject({
      name: 'Carla Dias',
      email: account.email,
      username: account.user.username,
      role: 'user',
    });
    expect(data.hires.map((h) => h.agentName)).toEqual(['guia']);
    expect(data.conversations).toHaveLength(1);
    expect(data.conversations[0]!.agentName).toBe('guia');
    expect(data.conversations[0]!.messages.map((m) => m.sender)).toEqual(['user', 'bot']);
    expect(data.conversations[0]!.messages[0]!.text).toBe('Como contrato um agente?');
    expect(data.sessions.length).toBeGreaterThan(0);

    const row = await userRow(ctx, account.email);
    expect(res.body).not.toContain(row!.passwordHash);
    expect(res.body).not.toMatch(/argon2|passwordHash|password_hash|codeHash|token/i);
    expect(res.body).not.toContain(account.token);
  });

  it('refuses a caller without a session', async () => {
    expect((await get(ctx, '/api/account/export')).statusCode).toBe(401);
    expect(
      (await post(ctx, '/api/account/delete', { password: DEFAULT_PASSWORD })).statusCode,
    ).toBe(401);
  });

  it.each([
    ['a wrong password', { password: 'not-my-password' }, 'password', 'account.wrongPassword'],
    ['no password', {}, 'password', 'validation.passwordRequired'],
    [
      'a password of 129 characters',
      { password: 'a'.repeat(129) },
      'password',
      'validation.passwordTooLong',
    ],
  ])('refuses to delete with %s and keeps everything', async (_case, body, field, key) => {
    const account = await chatted();
    const res = await post(ctx, '/api/account/delete', body, {
      token: account.token,
      language: 'es-ES',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().errors).toEqual({ [field]: message('es-ES', key) });
    expect(await userRow(ctx, account.email)).toBeDefined();
    expect(await status(ctx, account.token)).toBe(200);
    const owned = await ctx.database.db
      .select()
      .from(conversations)
      .where(eq(conversations.userId, account.user.id));
    expect(owned).toHaveLength(1);
  });

  it('deletes the account with its password: the user and all their rows are gone, every session ends', async () => {
    const account = await chatted();
    const other = await signIn(ctx, account);
    expect(await status(ctx, other)).toBe(200);
    const [conversation] = await ctx.database.db
      .select()
      .from(conversations)
      .where(eq(conversations.userId, account.user.id));

    const res = await post(
      ctx,
      '/api/account/delete',
      { password: account.password },
      { token: account.token, language: 'en-US' },
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      message: message('en-US', 'account.accountDeleted'),
    });

    expect(await userRow(ctx, account.email)).toBeUndefined();
    const id = account.user.id;
    expect(await ctx.database.db.select().from(sessions).where(eq(sessions.userId, id))).toEqual(
      [],
    );
    expect(
      await ctx.database.db.select().from(agentHires).where(eq(agentHires.userId, id)),
    ).toEqual([]);
    expect(
      await ctx.database.db.select().from(conversations).where(eq(conversations.userId, id)),
    ).toEqual([]);
    expect(
      await ctx.database.db
        .select()
        .from(messages)
        .where(eq(messages.conversationId, conversation!.id)),
    ).toEqual([]);
    expect(
      await ctx.database.db
        .select()
        .from(emailCodes)
        .where(eq(emailCodes.email, account.email.toLowerCase())),
    ).toEqual([]);

    expect(await status(ctx, account.token)).toBe(401);
    expect(await status(ctx, other)).toBe(401);
    expect(
      (await login(ctx, { identifier: account.email, password: account.password })).statusCode,
    ).toBe(401);
    // The address is free again.
    await register(ctx, { email: account.email });
  });

  it('refuses to delete the last administrator, and deletes one when another exists', async () => {
    const res = await post(
      ctx,
      '/api/account/delete',
      { password: admin.password },
      { token: admin.token, language: 'pt-BR' },
    );
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ success: false, message: message('pt-BR', 'account.lastAdmin') });
    expect(await userRow(ctx, admin.email)).toBeDefined();
    expect(await status(ctx, admin.token)).toBe(200);

    const second = await registerAndLogin(ctx);
    await ctx.database.db
      .update(users)
      .set({ role: 'admin', originalRole: 'admin' })
      .where(eq(users.id, second.user.id));
    expect(
      (await post(ctx, '/api/account/delete', { password: admin.password }, { token: admin.token }))
        .statusCode,
    ).toBe(200);
    expect(await userRow(ctx, admin.email)).toBeUndefined();
    // Now the other one is the last.
    expect(
      (
        await post(
          ctx,
          '/api/account/delete',
          { password: second.password },
          { token: second.token },
        )
      ).statusCode,
    ).toBe(409);
  });
});

describe('LGPD: the export of an admin in user mode', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp({ without: NO_MONITOR, limits: { routes: UNLIMITED_ROUTES } });
  });
  afterAll(async () => ctx.close());

  it('holds every hire and conversation of the account, those user mode keeps out of reach too', async () => {
    const admin = await registerAndLogin(ctx, { name: 'Admin' });
    expect(
      (await post(ctx, '/api/agents/hire', { agentId: 'administrador' }, { token: admin.token }))
        .statusCode,
    ).toBe(200);
    const asked = await post(
      ctx,
      '/api/chat/message',
      { message: 'How many users are there?', agentName: 'administrador' },
      { token: admin.token },
    );
    expect(asked.statusCode).toBe(200);
    const switched = await post(
      ctx,
      '/api/switch-role',
      { targetRole: 'user' },
      { token: admin.token },
    );
    const asUser = switched.json<{ token: string }>().token;

    const data = (await get(ctx, '/api/account/export', { token: asUser })).json<AccountExport>();
    expect(data.account.role).toBe('admin');
    expect(data.hires.map((h) => h.agentName).sort()).toEqual(['administrador', 'guia']);
    expect(data.conversations.map((c) => c.agentName)).toEqual(['administrador']);
    expect(data.conversations[0]!.messages.map((m) => m.sender)).toEqual(['user', 'bot']);
  });
});

// What the account holds through WhatsApp is the account's data too.
describe('LGPD: the export holds the WhatsApp conversations, contacts and messages', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp({
      without: NO_MONITOR,
      limits: { routes: UNLIMITED_ROUTES },
      whatsapp: { transport: 'sandbox' },
    });
  });
  afterAll(async () => ctx.close());

  /** Resolves once the account's `count`th auto-reply has settled. */
  async function replied(userId: string, count: number): Promise<void> {
    await repliesOf(ctx).settled({ userId, count });
  }

  it("holds the linked number, each contact and every message, and nobody else's", async () => {
    const ana = await registerAndLogin(ctx, { name: 'Ana Lima' });
    const bruno = await registerAndLogin(ctx, { name: 'Bruno' });
    const phone = `5511970${String(Date.now() % 1e6).padStart(6, '0')}`;
    await linkSandbox(ctx, ana, phone);
    const answered = replied(ana.user.id, 1);
    const inbound = await post(ctx, '/api/whatsapp/sandbox/inbound', {
      to: phone,
      from: '5521988887777@s.whatsapp.net',
      text: 'Olá, vocês abrem no sábado?',
      id: 'WA-EXPORT-1',
      pushName: 'Carla Souza',
    });
    expect(inbound.statusCode).toBe(200);
    await answered;

    const data = (
      await get(ctx, '/api/account/export', { token: ana.token })
    ).json<AccountExport>();
    expect(data.whatsapp.phone).toBe(phone);
    expect(data.whatsapp.conversations).toHaveLength(1);
    const [conversation] = data.whatsapp.conversations;
    expect(conversation).toMatchObject({
      contactName: 'Carla Souza',
      contactNumber: '5521988887777',
    });
    expect(conversation!.messages.map((m) => m.sender)).toEqual(['contact', 'user']);
    expect(conversation!.messages[0]!.text).toBe('Olá, vocês abrem no sábado?');
    expect(conversation!.messages[1]).toMatchObject({ agentName: 'guia' });
    expect(conversation!.messages[1]!.text.length).toBeGreaterThan(0);

    // Exporting reads nothing: the conversation is still unread on the WhatsApp page.
    const listed = await get(ctx, '/api/whatsapp/conversations', { token: ana.token });
    expect(JSON.stringify(listed.json())).toContain('"unread_count":1');

    const other = (
      await get(ctx, '/api/account/export', { token: bruno.token })
    ).json<AccountExport>();
    expect(other.whatsapp).toEqual({ phone: null, media: [], conversations: [] });
  });
});
