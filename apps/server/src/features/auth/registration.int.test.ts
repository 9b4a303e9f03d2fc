import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { LANGUAGES, type Language, type User } from '@contrateia/shared';
import { createTestApp, type TestContext, NO_MONITOR } from '../../../test/helpers';
import {
  completeRegistration,
  containsNumber,
  DEFAULT_PASSWORD,
  get,
  login,
  message,
  post,
  register,
  requestCode,
  sendOtp,
  UNLIMITED_ROUTES,
  uniqueEmail,
} from '../../../test/factories';
import { codeFromMail } from '../../../test/smtp';
import { emailCodes, users } from './auth.table';

const TEN_MINUTES = 10 * 60_000;

/** A code that is certainly not `code`. */
function wrongCode(code: string): string {
  return String((Number(code) + 1) % 1_000_000).padStart(6, '0');
}

async function emailCodeRow(ctx: TestContext, email: string) {
  const [row] = await ctx.database.db
    .select()
    .from(emailCodes)
    .where(eq(emailCodes.email, email.toLowerCase()));
  return row;
}

async function userRow(ctx: TestContext, email: string) {
  const [row] = await ctx.database.db
    .select()
    .from(users)
    .where(sql`lower(${users.email}) = lower(${email})`);
  return row;
}

async function userCount(ctx: TestContext): Promise<number> {
  const [row] = await ctx.database.db.select({ n: sql<number>`count(*)::int` }).from(users);
  return row?.n ?? 0;
}

async function codeCount(ctx: TestContext): Promise<number> {
  const [row] = await ctx.database.db.select({ n: sql<number>`count(*)::int` }).from(emailCodes);
  return row?.n ?? 0;
}

describe('POST /api/send-otp', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp({ without: NO_MONITOR, limits: { routes: UNLIMITED_ROUTES } });
  });
  afterAll(async () => ctx.close());

  it('mails a 6-digit code in Portuguese when the caller names no language', async () => {
    const email = uniqueEmail('pt');
    const since = ctx.smtp.messages.length;
    const res = await sendOtp(ctx, { email });

    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      message: message('pt-BR', 'auth.otpSent', { email }),
    });
    const mail = await ctx.smtp.waitForMail(email, { since });
    const code = codeFromMail(mail);
    expect(code).toMatch(/^\d{6}$/);
    expect(mail.from).toContain('no-reply@contrateia.test');
    expect(mail.subject).toBe(message('pt-BR', 'mail.otpSubject', { code }));
    expect(mail.text.trim()).toBe(message('pt-BR', 'mail.otpText', { code, minutes: 10 }));
  });

  it.each(['en-US', 'es-ES'] as const)(
    'mails the code in the language of Accept-Language (%s)',
    async (language) => {
      const email = uniqueEmail(language.toLowerCase());
      const since = ctx.smtp.messages.length;
      const res = await sendOtp(ctx, { email, language });

      expect(res.statusCode).toBe(200);
      expect(res.json().message).toBe(message(language, 'auth.otpSent', { email }));
      const mail = await ctx.smtp.waitForMail(email, { since });
      const code = codeFromMail(mail);
      expect(mail.subject).toBe(message(language, 'mail.otpSubject', { code }));
      expect(mail.text.trim()).toBe(message(language, 'mail.otpText', { code, minutes: 10 }));
    },
  );

  it('refuses a second code within 60 s with the seconds left, then sends a new one that replaces the old', async () => {
    const email = uniqueEmail('cooldown');
    const { code: first } = await requestCode(ctx, { email });

    ctx.clock.advance(15_000);
    const early = await sendOtp(ctx, { email, language: 'en-US' });
    expect(early.statusCode).toBe(429);
    expect(early.headers['retry-after']).toBe('45');
    expect(early.json()).toEqual({
      success: false,
      message: 'Please wait 45 seconds before requesting a new code',
    });
    expect(ctx.smtp.messages.filter((m) => m.to.includes(email))).toHaveLength(1);

    ctx.clock.advance(44_500); // half a second left, in the singular, in each language
    expect((await sendOtp(ctx, { email, language: 'en-US' })).json().message).toBe(
      'Please wait 1 second before requesting a new code',
    );
    expect((await sendOtp(ctx, { email, language: 'pt-BR' })).json().message).toBe(
      'Aguarde 1 segundo antes de pedir um novo código',
    );

    ctx.clock.advance(500); // 60 s after the first code
    const { code: second } = await requestCode(ctx, { email });
    const withOld = await completeRegistration(ctx, { email, otp: first, language: 'en-US' });
    expect(withOld.statusCode).toBe(400);
    const invalid = 'Invalid code. Please check it and try again.';
    expect(withOld.json()).toEqual({ success: false, message: invalid, errors: { otp: invalid } });

    const withNew = await completeRegistration(ctx, { email, otp: second });
    expect(withNew.statusCode).toBe(200);
  });

  it('answers an address that has an account as it answers a new one, and mails its owner how to sign in', async () => {
    const local = uniqueEmail('maria').split('@')[0]!;
    const owner = `${local}@x.com`;
    await register(ctx, { email: owner, language: 'es-ES' });
    ctx.clock.advance(60_000); // past the resend cooldown of the code that registered it
    const newcomer = uniqueEmail('newcomer');
    const since = ctx.smtp.messages.length;

    // In another case, from someone writing in English: the same answer as for a new address.
    const res = await sendOtp(ctx, { email: `${local.toUpperCase()}@X.COM`, language: 'en-US' });
    const fresh = await sendOtp(ctx, { email: newcomer, language: 'en-US' });
    expect(res.statusCode).toBe(200);
    expect(fresh.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      message: message('en-US', 'auth.otpSent', { email: owner }),
    });
    expect(fresh.json()).toEqual({
      success: true,
      message: message('en-US', 'auth.otpSent', { email: newcomer }),
    });
    expect(message('en-US', 'auth.otpSent', { email: owner })).toBe(
      `If this address can register, a code is on its way to ${owner}`,
    );

    // The owner is told, in the account's language, with the links to sign in; no code.
    const mail = await ctx.smtp.waitForMail(owner, { since });
    expect(mail.subject).toBe(message('es-ES', 'mail.registerAttemptSubject'));
    expect(mail.text.trim()).toBe(
      message('es-ES', 'mail.registerAttemptText', {
        loginUrl: 'https://contrateia.test/login',
        resetUrl: 'https://contrateia.test/forgot-password',
      }),
    );
    expect(mail.text).not.toMatch(/\b\d{6}\b/);
    expect(ctx.smtp.messages.slice(since).filter((m) => m.to.includes(owner))).toHaveLength(1);

    // The resend cooldown answers alike too.
    const again = await sendOtp(ctx, { email: owner, language: 'en-US' });
    const freshAgain = await sendOtp(ctx, { email: newcomer, language: 'en-US' });
    expect([again.statusCode, freshAgain.statusCode]).toEqual([429, 429]);
    expect(again.json()).toEqual(freshAgain.json());
  });

  it('mails and answers the address in its one written form: trimmed and lower-cased', async () => {
    const local = uniqueEmail('Mixed').split('@')[0]!;
    const since = ctx.smtp.messages.length;
    const res = await sendOtp(ctx, { email: `  ${local}@Example.COM `, language: 'en-US' });
    const address = `${local.toLowerCase()}@example.com`;
    expect(res.statusCode).toBe(200);
    expect(res.json().message).toBe(message('en-US', 'auth.otpSent', { email: address }));
    const mail = await ctx.smtp.waitForMail(address, { since });
    expect(mail.to).toContain(address);
    expect(mail.to).not.toContain(local);
  });

  it.each([
    ['a KELVIN SIGN that turns into another address', '\u212Aate@example.com'],
    ['full-width letters', '\uFF4Daria@example.com'],
    ['a zero-width space', 'ma\u200Bria@example.com'],
    ['a zero-width joiner in the domain', 'maria@exam\u200Dple.com'],
    ['a control character', 'maria\u0007@example.com'],
    ['a trailing dot', 'a@example.com.'],
    ['two dots in the domain', 'a@example..com'],
    ['a domain that starts with a dot', 'a@.example.com'],
    ['two dots in the name', 'a..b@example.com'],
    ['a name that starts with a dot', '.a@example.com'],
    ['a name that ends with a dot', 'a.@example.com'],
    ['a domain label that starts with a hyphen', 'a@-example.com'],
    ['a quoted name', '"a b"@example.com'],
    ['a numeric top-level domain', 'a@example.123'],
  ])('refuses %s as an invalid e-mail, mails nothing and keeps no code', async (_case, email) => {
    const sent = ctx.smtp.messages.length;
    const codes = await codeCount(ctx);
    const res = await sendOtp(ctx, { email, language: 'en-US' });
    expect(res.statusCode).toBe(400);
    const text = 'Please enter a valid email address';
    expect(res.json()).toEqual({
      success: false,
      message: 'Validation error',
      errors: { email: text },
    });
    expect(ctx.smtp.messages).toHaveLength(sent);
    expect(await codeCount(ctx)).toBe(codes);
  });

  it.each([
    [
      'an invalid e-mail',
      { email: 'maria@', purpose: 'registration' },
      'email',
      'Please enter a valid email address',
    ],
    ['a missing e-mail', { purpose: 'registration' }, 'email', 'Email is required'],
    ['a missing purpose', { email: 'maria@example.com' }, 'purpose', 'Invalid value'],
    [
      'a wrong purpose',
      { email: 'maria@example.com', purpose: 'reset' },
      'purpose',
      'Invalid value',
    ],
  ])('answers 400 for %s, naming the field', async (_case, body, field, text) => {
    const sent = ctx.smtp.messages.length;
    const res = await post(ctx, '/api/send-otp', body, { language: 'en-US' });

    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      success: false,
      message: 'Validation error',
      errors: { [field]: text },
    });
    expect(ctx.smtp.messages).toHaveLength(sent);
  });
});

describe('registration codes per address over a day', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    // Three a day here, to keep the test short; five by default.
    ctx = await createTestApp({
      without: NO_MONITOR,
      limits: { routes: UNLIMITED_ROUTES, codes: { perAddress: 3 } },
    });
  });
  afterAll(async () => ctx.close());

  it('sends no more than the daily codes, so new codes cannot renew the 5 tries without end', async () => {
    const email = uniqueEmail('daily');
    // Two codes whose 5 tries are spent, and a third kept.
    let code = '';
    for (let i = 0; i < 3; i += 1) {
      if (i > 0) {
        // A request the resend cooldown refuses sends nothing, so it does not count.
        const early = await sendOtp(ctx, { email, language: 'en-US' });
        expect(early.json().message).toBe('Please wait 60 seconds before requesting a new code');
        ctx.clock.advance(60_000);
      }
      code = (await requestCode(ctx, { email })).code;
      if (i < 2) {
        for (let t = 0; t < 5; t += 1) {
          expect(
            (await completeRegistration(ctx, { email, otp: wrongCode(code) })).statusCode,
          ).toBe(400);
        }
      }
    }
    const sent = ctx.smtp.messages.length;

    ctx.clock.advance(60_000); // the resend cooldown is over: the daily limit is not
    const refused = await sendOtp(ctx, { email, language: 'en-US' });
    expect(refused.statusCode).toBe(429);
    // The wait is the rest of the day the codes are counted over, in the header and in hours.
    const seconds = Number(refused.headers['retry-after']);
    expect(seconds).toBeGreaterThan(23 * 3600);
    expect(seconds).toBeLessThanOrEqual(24 * 3600);
    expect(refused.json()).toEqual({
      success: false,
      message: 'Too many codes were sent to this address. Please try again in 24 hours.',
    });
    expect((await sendOtp(ctx, { email, language: 'pt-BR' })).json().message).toBe(
      'Muitos códigos foram enviados para este e-mail. Tente novamente em 24 horas.',
    );
    expect((await sendOtp(ctx, { email, language: 'es-ES' })).json().message).toBe(
      'Se han enviado demasiados códigos a este correo. Inténtalo de nuevo en 24 horas.',
    );
    expect(ctx.smtp.messages).toHaveLength(sent);

    // Another address is not held back, and the refusals did not replace the code last sent.
    await requestCode(ctx, { email: uniqueEmail('other') });
    expect((await completeRegistration(ctx, { email, otp: code })).statusCode).toBe(200);
  });
});

describe('POST /api/complete-registration', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp({ without: NO_MONITOR, limits: { routes: UNLIMITED_ROUTES } });
  });
  afterAll(async () => ctx.close());

  it('creates the account with the right code, and the new account can sign in', async () => {
    const email = uniqueEmail('new');
    const { code } = await requestCode(ctx, { email });

    const res = await completeRegistration(ctx, {
      name: 'Ana Lima',
      email,
      password: 'ana-secret-1',
      otp: code,
      language: 'en-US',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      success: true,
      message: 'Registration successful! Please sign in with your new account.',
    });

    const signIn = await login(ctx, { identifier: email, password: 'ana-secret-1' });
    expect(signIn.statusCode).toBe(200);
    expect(signIn.json().user).toMatchObject({ name: 'Ana Lima', email });
  });

  it.each(LANGUAGES)(
    'refuses a wrong code with a message about the code on the otp field, never saying "OTP" (%s)',
    async (language: Language) => {
      const email = uniqueEmail('wrong');
      const { code } = await requestCode(ctx, { email });

      const res = await completeRegistration(ctx, { email, otp: wrongCode(code), language });
      expect(res.statusCode).toBe(400);
      const body = res.json();
      expect(body.success).toBe(false);
      // The field is named (errors.otp); the words are plain: "código", not "código OTP".
      expect(body.message).not.toContain('OTP');
      expect(body.message).toBe(message(language, 'auth.otpInvalid'));
      expect(body.errors.otp).toBe(body.message);
      expect(await userRow(ctx, email)).toBeUndefined();
    },
  );

  it('refuses a code 10 minutes and 1 second after it was sent', async () => {
    const email = uniqueEmail('late');
    const { code } = await requestCode(ctx, { email });

    ctx.clock.advance(TEN_MINUTES + 1_000);
    const res = await completeRegistration(ctx, { email, otp: code, language: 'en-US' });
    expect(res.statusCode).toBe(400);
    const expired = 'This code has expired. Please request a new one.';
    expect(res.json()).toEqual({ success: false, message: expired, errors: { otp: expired } });
    expect(await userRow(ctx, email)).toBeUndefined();
  });

  it('refuses the right code after 5 wrong tries, until a new code is requested', async () => {
    const email = uniqueEmail('tries');
    const { code } = await requestCode(ctx, { email });
    for (let i = 0; i < 5; i += 1) {
      const res = await completeRegistration(ctx, { email, otp: wrongCode(code) });
      expect(res.statusCode).toBe(400);
    }

    const right = await completeRegistration(ctx, { email, otp: code, language: 'en-US' });
    expect(right.statusCode).toBe(400);
    expect(right.json().message).toBe('Too many wrong codes. Please request a new one.');

    ctx.clock.advance(60_000);
    const { code: fresh } = await requestCode(ctx, { email });
    const res = await completeRegistration(ctx, { email, otp: fresh });
    expect(res.statusCode).toBe(200);
  });

  it('counts exactly 5 tries when 50 wrong guesses arrive at once', async () => {
    const email = uniqueEmail('burst');
    const { code } = await requestCode(ctx, { email });

    const guesses = Array.from({ length: 50 }, (_, i) =>
      String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0'),
    );
    const results = await Promise.all(
      guesses.map((otp) => completeRegistration(ctx, { email, otp })),
    );
    expect(results.map((r) => r.statusCode)).toEqual(Array(50).fill(400));
    expect((await emailCodeRow(ctx, email))?.attempts).toBe(5);

    const right = await completeRegistration(ctx, { email, otp: code, language: 'en-US' });
    expect(right.statusCode).toBe(400);
    const exhausted = 'Too many wrong codes. Please request a new one.';
    expect(right.json()).toEqual({
      success: false,
      message: exhausted,
      errors: { otp: exhausted },
    });
    expect(await userRow(ctx, email)).toBeUndefined();
  });

  it('creates one account when the right code is sent twice at once', async () => {
    const email = uniqueEmail('twice');
    const { code } = await requestCode(ctx, { email });

    const results = await Promise.all(
      [1, 2].map(() => completeRegistration(ctx, { email, otp: code, language: 'en-US' })),
    );
    const [won, lost] = [...results].sort((a, b) => a.statusCode - b.statusCode);
    expect(won!.statusCode).toBe(200);
    // The code is checked and used up before the address is: the other finds it used.
    const used = 'No valid code for this email. Please request a new one.';
    expect([lost!.statusCode, lost!.json()]).toEqual([
      400,
      { success: false, message: used, errors: { otp: used } },
    ]);
    const rows = await ctx.database.db.select().from(users).where(eq(users.email, email));
    expect(rows).toHaveLength(1);
  });

  it('refuses a code already used, as a code and not as a taken address', async () => {
    const email = uniqueEmail('reuse');
    const { code } = await requestCode(ctx, { email });
    expect((await completeRegistration(ctx, { email, otp: code })).statusCode).toBe(200);

    const again = await completeRegistration(ctx, { email, otp: code, language: 'en-US' });
    expect(again.statusCode).toBe(400);
    const used = 'No valid code for this email. Please request a new one.';
    expect(again.json()).toEqual({ success: false, message: used, errors: { otp: used } });
  });

  it('checks the code before anything else, so an address with an account answers as one without', async () => {
    const local = uniqueEmail('case').split('@')[0]!;
    await register(ctx, { email: `${local}@x.com` });
    const stranger = uniqueEmail('stranger');
    const accounts = await userCount(ctx);

    // No code asked for: the same answer whether the address has an account or not.
    const taken = await completeRegistration(ctx, {
      email: `${local.toUpperCase()}@x.com`,
      otp: '123456',
      language: 'en-US',
    });
    const unknown = await completeRegistration(ctx, {
      email: stranger,
      otp: '123456',
      language: 'en-US',
    });
    expect(taken.statusCode).toBe(400);
    expect(taken.json()).toEqual(unknown.json());

    // A code asked for the address with an account was never mailed: a guess is just wrong.
    ctx.clock.advance(60_000);
    expect((await sendOtp(ctx, { email: `${local}@x.com` })).statusCode).toBe(200);
    expect((await sendOtp(ctx, { email: stranger })).statusCode).toBe(200);
    const guess = await completeRegistration(ctx, {
      email: `${local}@x.com`,
      otp: '123456',
      language: 'en-US',
    });
    const strangerGuess = await completeRegistration(ctx, {
      email: stranger,
      otp: '123456',
      language: 'en-US',
    });
    expect(guess.statusCode).toBe(400);
    expect(guess.json()).toEqual(strangerGuess.json());
    expect(await userCount(ctx)).toBe(accounts);
  });

  it('registers exactly the address the code was sent to, in its one written form', async () => {
    const local = uniqueEmail('Form').split('@')[0]!;
    const { code } = await requestCode(ctx, { email: `${local}@Example.com` });
    const kelvin = await completeRegistration(ctx, {
      email: `\u212A${local}@example.com`,
      otp: code,
      language: 'en-US',
    });
    expect(kelvin.statusCode).toBe(400);
    expect(kelvin.json().errors).toEqual({ email: 'Please enter a valid email address' });

    const res = await completeRegistration(ctx, {
      email: ` ${local.toUpperCase()}@EXAMPLE.COM`,
      otp: code,
    });
    expect(res.statusCode).toBe(200);
    const address = `${local.toLowerCase()}@example.com`;
    expect((await userRow(ctx, address))?.email).toBe(address);
    const signIn = await login(ctx, {
      identifier: `${local}@example.COM`,
      password: DEFAULT_PASSWORD,
    });
    expect(signIn.statusCode).toBe(200);
    expect(signIn.json().user.email).toBe(address);
  });

  it('stores only a hash of the code, which does not contain it', async () => {
    const email = uniqueEmail('hash');
    const { code } = await requestCode(ctx, { email });

    const row = await emailCodeRow(ctx, email);
    // An HMAC-SHA-256, in hex.
    expect(row?.codeHash).toMatch(/^[0-9a-f]{64}$/);
    expect(row?.codeHash).not.toContain(code);
  });

  it.each([
    ['name', { name: '   ' }, 'First name is required'],
    // A one-letter name is there but too short: it says so, rather than that it is missing.
    ['name', { name: '  a  ' }, 'Name must be at least 2 characters'],
    ['password', { password: '12345' }, 'Password must be at least 6 characters'],
    ['email', { email: 'a@b' }, 'Please enter a valid email address'],
    ['otp', { otp: 'abcdef' }, 'Verification code must contain only numbers (0-9)'],
    ['otp', { otp: '123' }, 'Verification code must be exactly 6 digits'],
  ])('applies the rule on %s: %j → %s', async (field, change, text) => {
    const email = uniqueEmail('rules');
    const { code } = await requestCode(ctx, { email });
    const body = { name: 'Maria Souza', email, password: 'long-enough', otp: code, ...change };

    const res = await post(ctx, '/api/complete-registration', body, { language: 'en-US' });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      success: false,
      message: 'Validation error',
      errors: { [field]: text },
    });
    expect(await userRow(ctx, email)).toBeUndefined();
  });

  it('stores the password as an argon2id hash and never returns it', async () => {
    const password = 'Pa55word-never-shown';
    const email = uniqueEmail('hash');
    const { code } = await requestCode(ctx, { email });
    const responses = [await completeRegistration(ctx, { email, password, otp: code })];
    responses.push(await login(ctx, { identifier: email, password }));
    const token = responses[1]!.json<{ token: string }>().token;
    responses.push(await get(ctx, '/api/user', { token }));

    const row = await userRow(ctx, email);
    // PHC: $argon2id$v=19$<params>$<salt>$<hash>; the library may list the params in any order.
    const [, algorithm, version, params, salt, hash] = (row?.passwordHash ?? '').split('$');
    expect({ algorithm, version }).toEqual({ algorithm: 'argon2id', version: 'v=19' });
    expect(Object.fromEntries(params!.split(',').map((p) => p.split('=')))).toEqual({
      m: '19456',
      t: '2',
      p: '1',
    });
    expect(salt).toMatch(/^[A-Za-z0-9+/]{16,}$/);
    expect(hash).toMatch(/^[A-Za-z0-9+/]{32,}$/);
    expect(row?.passwordHash).not.toContain(password);
    for (const res of responses) {
      expect(res.statusCode).toBe(200);
      expect(res.body).not.toContain(password);
      expect(res.body).not.toContain('$argon2');
      expect(res.body.toLowerCase()).not.toContain('password');
    }
  });
});

describe('new accounts', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp({ without: NO_MONITOR, limits: { routes: UNLIMITED_ROUTES } });
  });
  afterAll(async () => ctx.close());

  async function signIn(email: string, password: string): Promise<User> {
    const res = await login(ctx, { identifier: email, password });
    expect(res.statusCode).toBe(200);
    return res.json<{ user: User }>().user;
  }

  // One test: which account is first depends on order, so the order is fixed here.
  it('makes the first account admin and the next ones users, with usernames from the e-mail', async () => {
    const first = await register(ctx, { name: 'Maria A', email: 'maria@a.com' });
    const second = await register(ctx, { name: 'Maria B', email: 'maria@b.com' });
    const third = await register(ctx, { name: 'João Silva', email: 'João.Silva@x.com' });

    const admin = await signIn(first.email, first.password);
    expect(admin).toMatchObject({ username: 'maria', role: 'admin', originalRole: 'admin' });
    const user = await signIn(second.email, second.password);
    expect(user).toMatchObject({ username: 'maria2', role: 'user', originalRole: 'user' });
    const joao = await signIn(third.email, third.password);
    expect(joao).toMatchObject({
      username: 'joao.silva',
      name: 'João Silva',
      email: 'joão.silva@x.com',
      role: 'user',
    });

    expect(Object.keys(joao).sort()).toEqual([
      'avatar',
      'email',
      'id',
      'name',
      'originalRole',
      'role',
      'singleAgentName',
      'username',
    ]);
    expect(joao.avatar).toBeNull();
    expect(joao.singleAgentName).toBeNull();
    expect(joao.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(await userCount(ctx)).toBe(3);
  });
});

describe('the registration code and the log', () => {
  it('writes the code to the log when no SMTP server is configured, and it works', async () => {
    const ctx = await createTestApp({ smtpUrl: undefined });
    try {
      const email = uniqueEmail('nosmtp');
      const res = await sendOtp(ctx, { email });
      expect(res.statusCode).toBe(200);

      const line = ctx.logs.find((l) => l.includes(email) && l.includes('SMTP_URL is not set'));
      const code = /(?<!\d)(\d{6})(?!\d)/.exec(line?.split('SMTP_URL')[1] ?? '')?.[1];
      expect(code).toMatch(/^\d{6}$/);
      expect(ctx.smtp.messages).toHaveLength(0);
      expect((await completeRegistration(ctx, { email, otp: code! })).statusCode).toBe(200);
    } finally {
      await ctx.close();
    }
  });

  it('never writes the code to the log when the mail is sent', async () => {
    const ctx = await createTestApp();
    try {
      const email = uniqueEmail('smtp');
      const { code } = await requestCode(ctx, { email });
      expect((await completeRegistration(ctx, { email, otp: wrongCode(code) })).statusCode).toBe(
        400,
      );
      expect((await completeRegistration(ctx, { email, otp: code })).statusCode).toBe(200);

      // Every request that carried the code was logged: the lines where it could have leaked.
      const completed = ctx.logs
        .map((line) => JSON.parse(line) as { msg?: string; url?: string })
        .filter((entry) => entry.msg === 'request completed')
        .map((entry) => entry.url);
      expect(completed).toEqual([
        '/api/send-otp',
        '/api/complete-registration',
        '/api/complete-registration',
      ]);
      for (const line of ctx.logs) expect(containsNumber(line, code)).toBe(false);
    } finally {
      await ctx.close();
    }
  });
});
