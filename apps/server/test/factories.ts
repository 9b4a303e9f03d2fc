import type { LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { Language, User } from '@contrateia/shared';
import type { Db } from '../src/db/client';
import { users } from '../src/features/auth/auth.table';
import { createTranslator } from '../src/lib/i18n';
import type { TestContext } from './helpers';
import { codeFromMail, type ReceivedMail } from './smtp';

// Small building blocks the integration tests share: requests as a client sends them, and the
// accounts most tests start from.

export const DEFAULT_PASSWORD = 'Correct-Horse-42';

/** Route limits high enough that a test's own traffic never meets them. */
export const UNLIMITED_ROUTES = {
  sendOtpPerMinute: 10_000,
  registrationPerMinute: 10_000,
  loginPerMinute: 10_000,
};

let sequence = 0;

/** An address no other test in this file uses. */
export function uniqueEmail(local = 'user'): string {
  sequence += 1;
  return `${local}${sequence}@example.com`;
}

/** An IP of its own, so per-IP limits of one test never touch another's. */
export function uniqueIp(): string {
  sequence += 1;
  return `10.${(sequence >> 16) & 255}.${(sequence >> 8) & 255}.${sequence & 255}`;
}

type RequestOptions = { token?: string; language?: Language; remoteAddress?: string };

/** The headers and remote address of a request with these options, beside any `headers` given. */
function injectOptions(
  { token, language, remoteAddress }: RequestOptions,
  headers: Record<string, string> = {},
) {
  return {
    headers: {
      ...headers,
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(language ? { 'accept-language': language } : {}),
    },
    ...(remoteAddress ? { remoteAddress } : {}),
  };
}

/** A JSON POST as the web client sends it. */
export function post(
  ctx: TestContext,
  url: string,
  body: unknown,
  options: RequestOptions = {},
): Promise<LightMyRequestResponse> {
  return ctx.app.inject({
    method: 'POST',
    url,
    payload: JSON.stringify(body),
    ...injectOptions(options, { 'content-type': 'application/json' }),
  });
}

export function get(
  ctx: TestContext,
  url: string,
  options: RequestOptions = {},
): Promise<LightMyRequestResponse> {
  return ctx.app.inject({ method: 'GET', url, ...injectOptions(options) });
}

export function sendOtp(
  ctx: TestContext,
  { email, ...options }: { email: string } & RequestOptions,
) {
  return post(ctx, '/api/send-otp', { email, purpose: 'registration' }, options);
}

/** Asks for a registration code and reads it from the mail that arrives. */
export async function requestCode(
  ctx: TestContext,
  { email, ...options }: { email: string } & RequestOptions,
): Promise<{ code: string; mail: ReceivedMail }> {
  const since = ctx.smtp.messages.length;
  const res = await sendOtp(ctx, { email, ...options });
  if (res.statusCode !== 200)
    throw new Error(`send-otp for ${email}: ${res.statusCode} ${res.body}`);
  const mail = await ctx.smtp.waitForMail(email, { since });
  return { code: codeFromMail(mail), mail };
}

export function completeRegistration(
  ctx: TestContext,
  {
    name = 'Maria Souza',
    email,
    password = DEFAULT_PASSWORD,
    otp,
    ...options
  }: { name?: string; email: string; password?: string; otp: string } & RequestOptions,
) {
  return post(ctx, '/api/complete-registration', { name, email, password, otp }, options);
}

/** Registers an account the way a person does: code by mail, then the form. */
export async function register(
  ctx: TestContext,
  {
    name = 'Maria Souza',
    email = uniqueEmail(),
    password = DEFAULT_PASSWORD,
    language,
  }: { name?: string; email?: string; password?: string; language?: Language } = {},
): Promise<{ name: string; email: string; password: string }> {
  const { code } = await requestCode(ctx, { email, language });
  const res = await completeRegistration(ctx, { name, email, password, otp: code, language });
  if (res.statusCode !== 200)
    throw new Error(`complete-registration for ${email}: ${res.statusCode} ${res.body}`);
  return { name, email, password };
}

export function login(
  ctx: TestContext,
  { identifier, password, ...options }: { identifier: string; password: string } & RequestOptions,
) {
  return post(ctx, '/api/login', { email: identifier, password }, options);
}

/** A registered, signed-in account. */
export async function registerAndLogin(
  ctx: TestContext,
  input: { name?: string; email?: string; password?: string } = {},
): Promise<{ email: string; password: string; user: User; token: string }> {
  const { email, password } = await register(ctx, input);
  const res = await login(ctx, { identifier: email, password });
  if (res.statusCode !== 200) throw new Error(`login for ${email}: ${res.statusCode} ${res.body}`);
  const { user, token } = res.json<{ user: User; token: string }>();
  return { email, password, user, token };
}

const translate = createTranslator();

/** A message of the shared catalogue in one language, e.g. `message('en-US', 'auth.otpInvalid')`. */
export function message(
  language: Language,
  key: string,
  params: Record<string, string | number> = {},
): string {
  const text = translate(language)(key, params);
  if (text === key) throw new Error(`no message ${key} in ${language}`);
  return text;
}

/** True when `text` holds `digits` as a number of its own (not inside a longer one, e.g. a timestamp). */
export function containsNumber(text: string, digits: string): boolean {
  return new RegExp(`(?<!\\d)${digits}(?!\\d)`).test(text);
}

let rows = 0;
/**
 * An account row written straight to the database, for tests of a part below the API (a
 * transport, a repository) that only needs a user to belong to. Its id.
 */
export async function insertAccountRow(db: Db, label = 'account'): Promise<string> {
  rows += 1;
  const [user] = await db
    .insert(users)
    .values({
      name: `${label} ${rows}`,
      email: `${label}${rows}-${Date.now()}@example.com`,
      username: `${label}${rows}_${Date.now()}`,
      role: 'user',
      originalRole: 'user',
      passwordHash: 'not used',
    })
    .returning({ id: users.id });
  return user!.id;
}

/**
 * Checks a route admins in admin mode only may use: 401 without a session, 403 (in the caller's
 * language) to a user and to an admin in user mode, 200 to the admin. `send` makes the request
 * with a token (or none) and a language. The admin switches to user mode and back, so
 * `admin.token` is a new one afterwards.
 */
export async function expectAdminOnly(
  ctx: TestContext,
  {
    send,
    admin,
    member,
  }: {
    send: (options: { token?: string; language?: Language }) => Promise<LightMyRequestResponse>;
    admin: { token: string };
    member: { token: string };
  },
): Promise<void> {
  const anonymous = await send({ language: 'pt-BR' });
  expect(anonymous.statusCode).toBe(401);
  expect(anonymous.json()).toEqual({
    success: false,
    message: message('pt-BR', 'errors.unauthorized'),
  });
  const asMember = await send({ token: member.token, language: 'es-ES' });
  expect(asMember.statusCode).toBe(403);
  expect(asMember.json()).toEqual({
    success: false,
    message: message('es-ES', 'errors.forbidden'),
  });
  const asUser = (
    await post(ctx, '/api/switch-role', { targetRole: 'user' }, { token: admin.token })
  ).json<{ token: string }>().token;
  try {
    expect((await send({ token: asUser })).statusCode).toBe(403);
  } finally {
    admin.token = (
      await post(ctx, '/api/switch-role', { targetRole: 'admin' }, { token: asUser })
    ).json<{ token: string }>().token;
  }
  expect((await send({ token: admin.token })).statusCode).toBe(200);
}
