import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import {
  OTP_LENGTH,
  OTP_MAX_ATTEMPTS,
  OTP_RESEND_SECONDS,
  OTP_TTL_MINUTES,
  type CompleteRegistrationInput,
  type Language,
  type Role,
  type SendOtpInput,
  type User,
} from '@contrateia/shared';
import type { Db } from '@/db/client';
import type { Clock } from '@/lib/clock';
import { AppError, retryLater } from '@/lib/errors';
import type { Translate } from '@/lib/i18n';
import type { Mailer } from '@/lib/mail';
import { hashPassword, verifyPassword } from '@/lib/password';
import type { Authenticator } from './auth.authenticator';

export type { AuthContext, Authenticator } from './auth.authenticator';
import * as repo from './auth.repository';
import type { SessionStore } from './auth.sessions';
import type { UserRow } from './auth.table';
import type { LoginThrottle } from './auth.throttle';

export type AuthService = ReturnType<typeof createAuthService>;

export type AuthDeps = {
  db: Db;
  clock: Clock;
  mailer: Mailer;
  sessions: SessionStore;
  throttle: LoginThrottle;
  /** Keys the e-mail code hashes, so a leaked table does not reveal live codes. */
  codeKey: string;
  /** Drops cached copies of a user whose row changed, on every instance. */
  authenticator: Pick<Authenticator, 'forgetUser'>;
  /** Texts of the mail, in the language of the person it goes to. */
  translate: (language: Language) => Translate;
  /** Called once a new account exists (it gets its default agent). */
  onUserCreated: (userId: string) => Promise<void>;
};

/**
 * Accounts: e-mail codes, registration, sign-in, sessions and role mode. Functions return data and
 * throw AppErrors; the routes word the answers in the caller's language.
 */
export function createAuthService(deps: AuthDeps) {
  const { db, clock, mailer, sessions, throttle, codeKey, authenticator, translate, onUserCreated } = deps;

  const hashCode = (email: string, purpose: string, code: string) =>
    createHmac('sha256', codeKey).update(`${purpose}:${email}:${code}`).digest('hex');

  async function sendOtp({ email, purpose, language }: SendOtpInput & { language: Language }): Promise<{ email: string }> {
    const address = email.toLowerCase();
    if (await repo.findUserByEmail({ db, email: address })) throw new AppError(409, 'auth.emailTaken', { field: 'email' });

    const now = clock.now();
    const code = String(randomInt(0, 10 ** OTP_LENGTH)).padStart(OTP_LENGTH, '0');
    const stored = await repo.upsertEmailCode({
      db,
      email: address,
      purpose,
      codeHash: hashCode(address, purpose, code),
      now,
      expiresAt: new Date(now.getTime() + OTP_TTL_MINUTES * 60_000),
      cooldownStart: new Date(now.getTime() - OTP_RESEND_SECONDS * 1000),
    });
    if (!stored) {
      const current = await repo.findEmailCode({ db, email: address, purpose });
      const readyAt = (current?.createdAt.getTime() ?? now.getTime()) + OTP_RESEND_SECONDS * 1000;
      throw retryLater('auth.otpCooldown', readyAt - now.getTime());
    }
    const t = translate(language);
    try {
      await mailer.send({
        to: email,
        subject: t('mail.otpSubject', { code }),
        text: t('mail.otpText', { code, minutes: OTP_TTL_MINUTES }),
      });
    } catch (error) {
      // The person never got this code: drop it so they can ask again at once.
      await repo.expireEmailCode({ db, email: address, purpose });
      throw new AppError(503, 'errors.mailUnavailable', { cause: error });
    }
    return { email };
  }

  async function completeRegistration(input: CompleteRegistrationInput): Promise<{ user: User }> {
    const email = input.email.toLowerCase();
    if (await repo.findUserByEmail({ db, email })) throw new AppError(409, 'auth.emailTaken', { field: 'email' });

    const now = clock.now();
    const current = await repo.findEmailCode({ db, email, purpose: 'registration' });
    if (!current || current.consumedAt) throw new AppError(400, 'auth.otpMissing', { field: 'otp' });
    if (current.expiresAt.getTime() <= now.getTime()) throw new AppError(400, 'auth.otpExpired', { field: 'otp' });
    const claimed = await repo.claimEmailCodeAttempt({ db, id: current.id, maxAttempts: OTP_MAX_ATTEMPTS });
    if (!claimed) throw new AppError(400, 'auth.otpAttemptsExhausted', { field: 'otp' });
    if (!sameHash(claimed.codeHash, hashCode(email, 'registration', input.otp))) {
      const key = claimed.attempts >= OTP_MAX_ATTEMPTS ? 'auth.otpAttemptsExhausted' : 'auth.otpInvalid';
      throw new AppError(400, key, { field: 'otp' });
    }

    const passwordHash = await hashPassword(input.password);
    let created: UserRow;
    try {
      created = await db.transaction(async (tx) => {
        await repo.lockRegistrations({ db: tx });
        if (!(await repo.consumeEmailCode({ db: tx, id: claimed.id, now }))) {
          throw new AppError(400, 'auth.otpMissing', { field: 'otp' });
        }
        if (await repo.findUserByEmail({ db: tx, email })) throw new AppError(409, 'auth.emailTaken', { field: 'email' });
        // The first account on an empty database runs the system.
        const role: Role = (await repo.countUsers({ db: tx })) === 0 ? 'admin' : 'user';
        const username = chooseUsername(email, await repo.findUsernamesLike({ db: tx, base: usernameBase(email) }));
        return repo.insertUser({
          db: tx,
          user: { name: input.name, email: input.email, username, role, originalRole: role, passwordHash },
        });
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError(409, 'auth.emailTaken', { field: 'email' });
      throw error;
    }
    await onUserCreated(created.id);
    return { user: toUser(created) };
  }

  async function login(
    { identifier, password, ip }: { identifier: string; password: string; ip: string },
  ): Promise<{ user: User; token: string }> {
    const key = identifier.toLowerCase();
    await throttle.assertAllowed({ identifier: key, ip });
    const user = key.includes('@')
      ? await repo.findUserByEmail({ db, email: key })
      : await repo.findUserByUsername({ db, username: key });
    if (!(await verifyPassword(user?.passwordHash, password)) || !user) {
      await throttle.recordFailure({ identifier: key, ip });
      throw new AppError(401, 'auth.invalidCredentials');
    }
    await throttle.recordSuccess({ identifier: key });
    const { token } = await sessions.create({ userId: user.id });
    return { user: toUser(user), token };
  }

  async function logout({ sessionId }: { sessionId: string }): Promise<void> {
    await sessions.revoke({ sessionId });
  }

  /** Admins switch between admin and user mode; the new token replaces (and revokes) the old. */
  async function switchRole(
    { user, sessionId, targetRole }: { user: User; sessionId: string; targetRole: Role },
  ): Promise<{ user: User; token: string }> {
    if (user.originalRole !== 'admin') throw new AppError(403, 'auth.roleSwitchForbidden');
    if (user.role === targetRole) {
      throw new AppError(400, 'auth.alreadyInMode', { params: { role: { key: `auth.roleNames.${targetRole}` } } });
    }
    const updated = await repo.updateUserRole({ db, id: user.id, role: targetRole, now: clock.now() });
    if (!updated) throw new AppError(401, 'errors.unauthorized');
    await authenticator.forgetUser(user.id);
    await sessions.revoke({ sessionId });
    const { token } = await sessions.create({ userId: user.id });
    return { user: toUser(updated), token };
  }

  async function isSingleAgentUser(userId: string): Promise<boolean> {
    const row = await repo.findUserById({ db, id: userId });
    return Boolean(row?.singleAgentName);
  }

  /** Accounts in all, or registered since `since`. */
  const countUsers = (since?: Date) => repo.countUsers({ db, since });
  /** The newest accounts, for the admin's live figures. */
  const newestUsers = (limit: number) => repo.newestUsers({ db, limit });

  async function getUser({ id }: { id: string }): Promise<User | undefined> {
    const row = await repo.findUserById({ db, id });
    return row && toUser(row);
  }

  return { sendOtp, completeRegistration, login, logout, switchRole, getUser, isSingleAgentUser, countUsers, newestUsers };
}

export function toUser(row: UserRow): User {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    username: row.username,
    avatar: row.avatar,
    role: row.role,
    originalRole: row.originalRole,
  };
}

/** The e-mail's local part, lower-cased, without accents or characters outside [a-z0-9._-]. */
export function usernameBase(email: string): string {
  const local = email.split('@')[0] ?? '';
  const base = local
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9._-]/g, '')
    .replace(/^[._-]+|[._-]+$/g, '')
    .slice(0, 30);
  return base || 'user';
}

/** `maria`, then `maria2`, `maria3`… whichever is first free. */
export function chooseUsername(email: string, taken: string[]): string {
  const base = usernameBase(email);
  const used = new Set(taken);
  if (!used.has(base)) return base;
  let n = 2;
  while (used.has(`${base}${n}`)) n += 1;
  return `${base}${n}`;
}

function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

function isUniqueViolation(error: unknown): boolean {
  for (let e: unknown = error; e instanceof Error; e = e.cause) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}
