import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import {
  OTP_LENGTH,
  OTP_MAX_ATTEMPTS,
  OTP_RESEND_SECONDS,
  OTP_TTL_MINUTES,
  type AccountExport,
  type ChangePasswordInput,
  type CompleteRegistrationInput,
  type Language,
  type OtpPurpose,
  type ResetPasswordInput,
  type SessionInfo,
  type Role,
  type SendOtpInput,
  type SystemSettings,
  type User,
} from '@contrateia/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '@/db/client';
import type { Clock } from '@/lib/clock';
import type { EventLog } from '@/lib/event-log';
import { AppError, retryLater, underMaintenance as maintenance } from '@/lib/errors';
import type { MaybePromise } from '@/lib/maybe-promise';
import type { Translate } from '@/lib/i18n';
import type { Mailer } from '@/lib/mail';
import { hashPassword, verifyPassword } from '@/lib/password';
import type { Authenticator } from './auth.authenticator';
import { describeDevice } from './auth.devices';

export type { AuthContext, Authenticator } from './auth.authenticator';
import * as repo from './auth.repository';
import type { SessionStore } from './auth.sessions';
import type { UserRow } from './auth.table';
import type { CodeLimiter, LoginThrottle } from './auth.throttle';
import { isUuid } from '@/lib/uuid';

export type AuthService = ReturnType<typeof createAuthService>;

/** An account as an admin sees it: no password hash; when any of its sessions was last used. */
export type Account = repo.AccountRow;

/** What an admin's change did to an account (before is null for a new one): for the audit. */
export type AccountChange = { before: Account | null; after: Account };

export type AuthDeps = {
  db: Db;
  clock: Clock;
  mailer: Mailer;
  sessions: SessionStore;
  throttle: LoginThrottle;
  /** The codes each address may be sent over a day. */
  codes: CodeLimiter;
  /** Keys the e-mail code hashes, so a leaked table does not reveal live codes. */
  codeKey: string;
  /** The origin links in mails start with (`PUBLIC_URL`). */
  publicUrl: string;
  /** Drops cached copies of a user whose row changed, on every instance. */
  authenticator: Pick<Authenticator, 'forgetUser' | 'activeUser'>;
  /** Texts of the mail, in the language of the person it goes to. */
  translate: (language: Language) => Translate;
  /** Called once a new account exists (it gets its default agent). */
  onUserCreated: (userId: string) => Promise<void>;
  /** The account's data other features hold (hires, conversations, WhatsApp), for "Download my data". */
  collectUserData: (
    user: User,
    language: Language,
  ) => Promise<Pick<AccountExport, 'hires' | 'conversations' | 'whatsapp'>>;
  /** The admin's system settings in force: registration open, e-mail verification, maintenance. */
  systemSettings: () => MaybePromise<
    Pick<SystemSettings, 'registrationEnabled' | 'emailVerification' | 'maintenanceMode'>
  >;
  logger: FastifyBaseLogger;
  /** The stored log: sign-ins and failed ones, registrations, role switches. */
  eventLog: EventLog;
};

/**
 * Accounts: e-mail codes, registration, sign-in, sessions and role mode. Functions return data and
 * throw AppErrors; the routes word the answers in the caller's language.
 */
export function createAuthService(deps: AuthDeps) {
  const {
    db,
    clock,
    mailer,
    sessions,
    throttle,
    codes,
    codeKey,
    publicUrl,
    authenticator,
    translate,
    onUserCreated,
    collectUserData,
    systemSettings,
    logger,
    eventLog,
  } = deps;

  /**
   * What a failed sign-in is stored with instead of the name typed: a keyed hash, the same for
   * the same name (attempts on one account can be told apart) yet not the name, which may even be
   * a password typed in the wrong field.
   */
  const identifierHash = (identifier: string) =>
    createHmac('sha256', codeKey).update(`sign-in:${identifier}`).digest('hex').slice(0, 16);

  /** Refuses a registration step while the admin has closed registration (or the system is in maintenance). */
  async function registrationOpen(): Promise<{ emailVerification: boolean }> {
    const system = await systemSettings();
    if (system.maintenanceMode) throw maintenance();
    if (!system.registrationEnabled) throw new AppError(403, 'auth.registrationClosed');
    return system;
  }

  const hashCode = (email: string, purpose: string, code: string) =>
    createHmac('sha256', codeKey).update(`${purpose}:${email}:${code}`).digest('hex');

  /**
   * Stores a new code for (address, purpose) and returns it, or throws a 429: the address had its
   * codes for the day, or the resend cooldown. Registration and password reset share it: same
   * lifetime, tries, cooldown and daily number.
   */
  async function storeNewCode({
    address,
    purpose,
  }: {
    address: string;
    purpose: OtpPurpose;
  }): Promise<string> {
    // Counted first, so that no request replaces the current code once the day's are spent.
    await codes.take({ address, purpose });
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
      await codes.giveBack({ address, purpose });
      const current = await repo.findEmailCode({ db, email: address, purpose });
      const readyAt = (current?.createdAt.getTime() ?? now.getTime()) + OTP_RESEND_SECONDS * 1000;
      throw retryLater('auth.otpCooldown', readyAt - now.getTime());
    }
    return code;
  }

  /** Counts one try of `otp` against the live code; throws the code's 400 unless it matches. */
  async function checkCode({
    address,
    purpose,
    otp,
  }: {
    address: string;
    purpose: OtpPurpose;
    otp: string;
  }) {
    const now = clock.now();
    const current = await repo.findEmailCode({ db, email: address, purpose });
    if (!current || current.consumedAt)
      throw new AppError(400, 'auth.otpMissing', { field: 'otp' });
    if (current.expiresAt.getTime() <= now.getTime())
      throw new AppError(400, 'auth.otpExpired', { field: 'otp' });
    const claimed = await repo.claimEmailCodeAttempt({
      db,
      id: current.id,
      maxAttempts: OTP_MAX_ATTEMPTS,
    });
    if (!claimed) throw new AppError(400, 'auth.otpAttemptsExhausted', { field: 'otp' });
    if (!sameHash(claimed.codeHash, hashCode(address, purpose, otp))) {
      const key =
        claimed.attempts >= OTP_MAX_ATTEMPTS ? 'auth.otpAttemptsExhausted' : 'auth.otpInvalid';
      throw new AppError(400, key, { field: 'otp' });
    }
    return claimed;
  }

  /**
   * Mails a registration code, or, when the address has an account, a note to its owner on how
   * to sign in instead. The answer, the cooldown and the daily number are the same either way (a
   * code row is kept for the account's address too, never mailed), so the endpoint does not tell
   * who has an account. `email` is in its one written form (the shared schema made it so).
   */
  async function sendOtp({
    email,
    purpose,
    language,
  }: SendOtpInput & { language: Language }): Promise<{ email: string }> {
    if (purpose === 'registration') await registrationOpen();
    const owner = await repo.findUserByEmail({ db, email });
    const code = await storeNewCode({ address: email, purpose });
    const t = translate(owner?.language ?? language);
    const mail = owner
      ? {
          subject: t('mail.registerAttemptSubject'),
          text: t('mail.registerAttemptText', {
            loginUrl: `${publicUrl}/login`,
            resetUrl: `${publicUrl}/forgot-password`,
          }),
        }
      : {
          subject: t('mail.otpSubject', { code }),
          text: t('mail.otpText', { code, minutes: OTP_TTL_MINUTES }),
        };
    try {
      await mailer.send({ to: email, ...mail });
    } catch (error) {
      // The person never got this mail: drop the code so they can ask again at once.
      await repo.expireEmailCode({ db, email, purpose });
      await codes.giveBack({ address: email, purpose });
      throw new AppError(503, 'errors.mailUnavailable', { cause: error });
    }
    return { email };
  }

  async function completeRegistration({
    language,
    requestId,
    ...input
  }: CompleteRegistrationInput & { language: Language; requestId?: string }): Promise<{
    user: User;
  }> {
    const { email } = input;
    const now = clock.now();
    const { emailVerification } = await registrationOpen();
    // Without verification (the admin's choice) the account is made from the form alone.
    let claimed: { id: string } | undefined;
    if (emailVerification) {
      if (!input.otp) throw new AppError(400, 'validation.otpRequired', { field: 'otp' });
      claimed = await checkCode({ address: email, purpose: 'registration', otp: input.otp });
    }

    const passwordHash = await hashPassword(input.password);
    let created: UserRow;
    try {
      created = await db.transaction(async (tx) => {
        await repo.lockRegistrations({ db: tx });
        if (claimed && !(await repo.consumeEmailCode({ db: tx, id: claimed.id, now }))) {
          throw new AppError(400, 'auth.otpMissing', { field: 'otp' });
        }
        // The first account on an empty database runs the system.
        const role: Role = (await repo.countUsers({ db: tx })) === 0 ? 'admin' : 'user';
        const row = await insertAccount({
          tx,
          account: { name: input.name, email, role, passwordHash, language },
        });
        if (!row) throw new AppError(409, 'auth.emailTaken', { field: 'email' });
        return row;
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError(409, 'auth.emailTaken', { field: 'email' });
      throw error;
    }
    eventLog.record({
      category: 'auth',
      event: 'auth.registered',
      message: `Account registered (${created.role})`,
      userId: created.id,
      requestId,
      context: { role: created.role, language, verified: Boolean(claimed) },
    });
    await onUserCreated(created.id);
    return { user: toUser(created) };
  }

  /**
   * Inside `tx`, under the registration lock (taken here if the caller has not): the account, with
   * its username made from the e-mail as at registration (`maria`, `maria2`…); undefined when the
   * e-mail has an account already.
   */
  async function insertAccount({
    tx,
    account,
  }: {
    tx: Db;
    account: Pick<UserRow, 'name' | 'email' | 'role' | 'passwordHash'> &
      Partial<Pick<UserRow, 'language' | 'singleAgentName'>>;
  }): Promise<UserRow | undefined> {
    await repo.lockRegistrations({ db: tx });
    if (await repo.findUserByEmail({ db: tx, email: account.email })) return undefined;
    const username = chooseUsername(
      account.email,
      await repo.findUsernamesLike({ db: tx, base: usernameBase(account.email) }),
    );
    return repo.insertUser({ db: tx, user: { ...account, username, originalRole: account.role } });
  }

  async function login({
    identifier,
    password,
    ip,
    userAgent,
    requestId,
  }: {
    identifier: string;
    password: string;
    ip: string;
    userAgent?: string;
    requestId?: string;
  }): Promise<{ user: User; token: string }> {
    const key = identifier.toLowerCase();
    const user = key.includes('@')
      ? await repo.findUserByEmail({ db, email: key })
      : await repo.findUserByUsername({ db, username: key });
    const failed = (reason: string, error: AppError): AppError => {
      eventLog.record({
        level: 'warn',
        category: 'auth',
        event: 'auth.sign_in_failed',
        message: `Sign-in failed: ${reason.replaceAll('_', ' ')}`,
        userId: user?.id,
        requestId,
        context: { reason, identifierHash: identifierHash(key), ip },
      });
      return error;
    };
    // Counted per account, whichever of its names was typed; a name with none by itself.
    const attempt = await throttle
      .begin({ userId: user?.id, identifier: key, ip })
      .catch((error: unknown) => {
        throw error instanceof AppError && error.statusCode === 429
          ? failed('throttled', error)
          : error;
      });
    if (!(await verifyPassword(user?.passwordHash, password)) || !user) {
      await attempt.failed();
      throw failed('invalid_credentials', new AppError(401, 'auth.invalidCredentials'));
    }
    await attempt.succeeded();
    // Told only once the password is right, as maintenance below: the answer says nothing of an
    // account to someone who does not hold it.
    if (!user.isActive) throw failed('account_disabled', new AppError(403, 'auth.accountDisabled'));
    // Only admins sign in during maintenance; told only once the password is right, so the
    // answer says nothing of an account to someone who does not hold it.
    if (user.originalRole !== 'admin' && (await systemSettings()).maintenanceMode)
      throw failed('maintenance', maintenance());
    const { token } = await sessions.create({ userId: user.id, userAgent });
    eventLog.record({
      category: 'auth',
      event: 'auth.sign_in',
      message: 'Signed in',
      userId: user.id,
      requestId,
      context: { role: user.role, ip },
    });
    return { user: toUser(user), token };
  }

  /**
   * Ends the session. Several sign-outs with one token at once all succeed: they end the same
   * session and make nothing, so unlike a role switch there is no race to lose.
   */
  async function logout({ sessionId }: { sessionId: string }): Promise<void> {
    await sessions.revoke({ sessionId });
  }

  /**
   * Admins switch between admin and user mode; the new token replaces (and revokes) the old. Of
   * several switches sent with one token, one gets the new session; the others find the token
   * revoked (401), as a switch after it would.
   */
  async function switchRole({
    user,
    sessionId,
    targetRole,
    userAgent,
    requestId,
  }: {
    user: User;
    sessionId: string;
    targetRole: Role;
    userAgent?: string;
    requestId?: string;
  }): Promise<{ user: User; token: string }> {
    if (user.originalRole !== 'admin') throw new AppError(403, 'auth.roleSwitchForbidden');
    if (user.role === targetRole) {
      throw new AppError(400, 'auth.alreadyInMode', {
        params: { role: { key: `auth.roleNames.${targetRole}` } },
      });
    }
    const switched = await db.transaction(async (tx) => {
      // The account's row first, as a password change does: both lock the same rows in the same
      // order, and one account's changes go one at a time.
      const updated = await repo.updateUserRole({
        db: tx,
        id: user.id,
        role: targetRole,
        now: clock.now(),
      });
      if (!updated) throw new AppError(401, 'errors.unauthorized');
      // Revokes the old session only if it is still live, and only then makes the new one.
      const replaced = await sessions.replace({ sessionId, userId: user.id, userAgent, tx });
      if (!replaced) throw new AppError(401, 'errors.unauthorized');
      return { updated, token: replaced.token };
    });
    // After the commit: an instance that re-reads the rows on these messages sees the change.
    await sessions.forget([sessionId]);
    await authenticator.forgetUser(user.id);
    eventLog.record({
      category: 'auth',
      event: 'auth.role_switched',
      message: `Switched from ${user.role} to ${targetRole} mode`,
      userId: user.id,
      requestId,
      context: { from: user.role, to: targetRole },
    });
    return { user: toUser(switched.updated), token: switched.token };
  }

  /** Whether the account exists and an admin has not deactivated it: work done for it outside a request asks. */
  async function isAccountActive(userId: string): Promise<boolean> {
    if (!isUuid(userId)) return false;
    return (await authenticator.activeUser(userId)) !== undefined;
  }

  async function isSingleAgentUser(userId: string): Promise<boolean> {
    return Boolean(await singleAgentOf(userId));
  }

  /** The one agent of an account made for one agent; null for any other (or no such account). */
  async function singleAgentOf(userId: string): Promise<string | null> {
    if (!isUuid(userId)) return null;
    const row = await repo.findUserById({ db, id: userId });
    return row?.singleAgentName ?? null;
  }

  /** The account row of a signed-in user; 401 when it is gone (deleted on another device). */
  async function ownRow(userId: string): Promise<UserRow> {
    const row = await repo.findUserById({ db, id: userId });
    if (!row) throw new AppError(401, 'errors.unauthorized');
    return row;
  }

  /**
   * Checks the account's own password (a password change, a deletion). Wrong guesses count
   * against the same limits as sign-ins, so a session left open is no way around them.
   */
  async function assertOwnPassword({
    row,
    password,
    ip,
    field,
  }: {
    row: UserRow;
    password: string;
    ip: string;
    field: string;
  }) {
    const attempt = await throttle.begin({
      userId: row.id,
      identifier: row.email.toLowerCase(),
      ip,
    });
    if (!(await verifyPassword(row.passwordHash, password))) {
      await attempt.failed();
      throw new AppError(400, 'account.wrongPassword', { field });
    }
    await attempt.succeeded();
  }

  async function getProfile({
    user,
    language,
  }: {
    user: User;
    language: Language;
  }): Promise<{ user: User; language: Language }> {
    const row = await ownRow(user.id);
    return { user: toUser(row), language: row.language ?? language };
  }

  async function updateProfile({
    user,
    name,
    language,
  }: {
    user: User;
    name: string;
    language: Language;
  }): Promise<{ user: User; language: Language }> {
    const row = await repo.updateUserProfile({ db, id: user.id, name, language, now: clock.now() });
    if (!row) throw new AppError(401, 'errors.unauthorized');
    await authenticator.forgetUser(user.id);
    return { user: toUser(row), language };
  }

  /** Sets a new password; every other session of the account ends, this one goes on. */
  async function changePassword({
    user,
    sessionId,
    currentPassword,
    newPassword,
    ip,
  }: { user: User; sessionId: string; ip: string } & Pick<
    ChangePasswordInput,
    'currentPassword' | 'newPassword'
  >): Promise<void> {
    const row = await ownRow(user.id);
    await assertOwnPassword({ row, password: currentPassword, ip, field: 'currentPassword' });
    const passwordHash = await hashPassword(newPassword);
    const revoked = await db.transaction(async (tx) => {
      // Locks the account's row: two changes of one account go one at a time, so the second sees
      // what the first revoked.
      await repo.updateUserPassword({ db: tx, id: user.id, passwordHash, now: clock.now() });
      // A session that a concurrent change (or a sign-out) ended sets no password.
      if (!(await sessions.isLive({ sessionId, tx })))
        throw new AppError(401, 'errors.unauthorized');
      return sessions.revokeAllOf({ userId: user.id, except: sessionId, tx });
    });
    await sessions.forget(revoked);
  }

  async function listSessions({
    user,
    sessionId,
  }: {
    user: User;
    sessionId: string;
  }): Promise<SessionInfo[]> {
    const alive = await sessions.listAlive({ userId: user.id });
    return alive.map((s) => ({
      id: s.id,
      ...describeDevice(s.userAgent),
      createdAt: s.createdAt.toISOString(),
      lastSeenAt: s.lastSeenAt.toISOString(),
      current: s.id === sessionId,
    }));
  }

  /** "Sign out elsewhere": every session of the user but this one ends. */
  async function revokeOtherSessions({
    user,
    sessionId,
  }: {
    user: User;
    sessionId: string;
  }): Promise<{ count: number }> {
    const revoked = await sessions.revokeAllOf({ userId: user.id, except: sessionId });
    await sessions.forget(revoked);
    return { count: revoked.length };
  }

  /**
   * Mails a password-reset code when the address has an account. The answer, the timing and the
   * resend cooldown are the same either way (a code row is kept for unknown addresses too, and the
   * mail goes out after the answer), so the endpoint does not tell who has an account.
   */
  async function requestPasswordReset({
    email: address,
    language,
  }: {
    email: string;
    language: Language;
  }): Promise<void> {
    const user = await repo.findUserByEmail({ db, email: address });
    const code = await storeNewCode({ address, purpose: 'password-reset' });
    if (!user) return;
    const t = translate(user.language ?? language);
    void mailer
      .send({
        to: user.email,
        subject: t('mail.resetSubject', { code }),
        text: t('mail.resetText', { code, minutes: OTP_TTL_MINUTES }),
      })
      .catch(async (error: unknown) => {
        // Never sent: lift the cooldown so the person can ask again at once.
        logger.error({ err: error }, 'password-reset mail failed');
        await repo
          .expireEmailCode({ db, email: address, purpose: 'password-reset' })
          .catch(() => {});
        await codes.giveBack({ address, purpose: 'password-reset' }).catch(() => {});
      });
  }

  /**
   * Sets the new password once the mailed code matches; every session of the account ends, and the
   * sign-in throttle takes the reset as a sign-in from `ip`.
   */
  async function resetPassword({
    email: address,
    otp,
    password,
    ip,
  }: Pick<ResetPasswordInput, 'email' | 'otp' | 'password'> & { ip: string }): Promise<void> {
    const claimed = await checkCode({ address, purpose: 'password-reset', otp });
    const passwordHash = await hashPassword(password);
    const reset = await db.transaction(async (tx) => {
      if (!(await repo.consumeEmailCode({ db: tx, id: claimed.id, now: clock.now() }))) {
        throw new AppError(400, 'auth.otpMissing', { field: 'otp' });
      }
      const user = await repo.findUserByEmail({ db: tx, email: address });
      // A matching code for an address without an account cannot happen (none was ever mailed).
      if (!user) throw new AppError(400, 'auth.otpInvalid', { field: 'otp' });
      // A deactivated account gets no new password: nothing of it opens again until an admin says so.
      if (!user.isActive) throw new AppError(403, 'auth.accountDisabled');
      await repo.updateUserPassword({ db: tx, id: user.id, passwordHash, now: clock.now() });
      return { userId: user.id, revoked: await sessions.revokeAllOf({ userId: user.id, tx }) };
    });
    await sessions.forget(reset.revoked);
    await throttle.recordSuccess({ userId: reset.userId, ip });
  }

  /** "Download my data": the account, its sessions, hires, conversations and WhatsApp, with their messages. */
  async function exportData({
    user,
    language,
  }: {
    user: User;
    language: Language;
  }): Promise<AccountExport> {
    const row = await ownRow(user.id);
    const alive = await sessions.listAlive({ userId: user.id });
    const { hires, conversations, whatsapp } = await collectUserData(
      toUser(row),
      row.language ?? language,
    );
    return {
      exportedAt: clock.now().toISOString(),
      account: {
        id: row.id,
        name: row.name,
        email: row.email,
        username: row.username,
        role: row.originalRole,
        language: row.language ?? language,
        createdAt: row.createdAt.toISOString(),
      },
      sessions: alive.map((s) => ({
        id: s.id,
        ...describeDevice(s.userAgent),
        createdAt: s.createdAt.toISOString(),
        lastSeenAt: s.lastSeenAt.toISOString(),
      })),
      hires,
      conversations,
      whatsapp,
    };
  }

  /**
   * Deletes the account once its password is confirmed. Its hires, conversations, messages and
   * pairings go with the row (their foreign keys cascade); the last administrator cannot leave.
   */
  async function deleteAccount({
    user,
    password,
    ip,
  }: {
    user: User;
    password: string;
    ip: string;
  }): Promise<void> {
    const row = await ownRow(user.id);
    await assertOwnPassword({ row, password, ip, field: 'password' });
    const sessionIds = await db.transaction(async (tx) => {
      // The same lock as registration: two admins deleting at once cannot both pass the check.
      await repo.lockRegistrations({ db: tx });
      if (row.originalRole === 'admin' && (await repo.countAdmins({ db: tx })) <= 1) {
        throw new AppError(409, 'account.lastAdmin');
      }
      const ids = await repo.listSessionIds({ db: tx, userId: user.id });
      await repo.deleteUser({ db: tx, id: user.id });
      await repo.deleteEmailCodes({ db: tx, email: row.email.toLowerCase() });
      return ids;
    });
    await sessions.forget(sessionIds);
    await authenticator.forgetUser(user.id);
  }

  /**
   * Removes the sessions and e-mail codes nobody can use any more (the monitor's quick action):
   * sessions revoked or expired (each account keeps its most recently used one, which says when
   * it was last seen), codes expired or used up once their resend cooldown is over. In one
   * transaction with `inTransaction`, which records it.
   */
  async function removeExpiredSessionsAndCodes({
    inTransaction,
  }: {
    inTransaction: (tx: Db, removed: { sessions: number; codes: number }) => Promise<void>;
  }): Promise<{ sessions: number; codes: number }> {
    const now = clock.now();
    const done = await db.transaction(async (tx) => {
      const sessionIds = await sessions.removeDead({ tx });
      const codeCount = await repo.deleteDeadEmailCodes({
        db: tx,
        now,
        cooldownStart: new Date(now.getTime() - OTP_RESEND_SECONDS * 1000),
        maxAttempts: OTP_MAX_ATTEMPTS,
      });
      const removed = { sessions: sessionIds.length, codes: codeCount };
      await inTransaction(tx, removed);
      return { sessionIds, removed };
    });
    await sessions.forget(done.sessionIds);
    return done.removed;
  }

  /** Accounts in all, or registered since `since`. */
  const countUsers = (since?: Date) => repo.countUsers({ db, since });
  /** The newest accounts, for the admin's live figures. */
  const newestUsers = (limit: number) => repo.newestUsers({ db, limit });

  async function getUser({ id }: { id: string }): Promise<User | undefined> {
    const row = await repo.findUserById({ db, id });
    return row && toUser(row);
  }

  // ---- Accounts as an admin manages them ----

  /**
   * An account an admin makes for one agent (spec §5): a user whose address the admin vouches
   * for (no code is mailed), its username made as at registration, limited to `agentName`.
   * `inTransaction` runs in the transaction that makes it (the agent's hire, the audit record),
   * so all of it is kept or none. A taken e-mail → 409 on the `email` field.
   */
  async function createSingleAgentAccount({
    name,
    email,
    password,
    agentName,
    inTransaction,
  }: {
    name: string;
    email: string;
    password: string;
    agentName: string;
    inTransaction: (tx: Db, change: AccountChange) => Promise<void>;
  }): Promise<{ account: Account }> {
    const passwordHash = await hashPassword(password);
    const taken = () => new AppError(409, 'adminUsers.emailTaken', { field: 'email' });
    try {
      return await db.transaction(async (tx) => {
        const row = await insertAccount({
          tx,
          account: { name, email, role: 'user', passwordHash, singleAgentName: agentName },
        });
        if (!row) throw taken();
        const account = await accountIn(tx, row.id);
        await inTransaction(tx, { before: null, after: account });
        return { account };
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw taken();
      throw error;
    }
  }

  /** Accounts whose name, e-mail or username contains `search`, newest first, and how many match. */
  async function listAccounts({
    search,
    limit,
    offset,
  }: {
    search: string;
    limit: number;
    offset: number;
  }): Promise<{ accounts: Account[]; total: number }> {
    const { rows, total } = await repo.listAccounts({ db, search, limit, offset });
    return { accounts: rows, total };
  }

  /** Names and e-mails of these accounts, by id; those deleted are missing. */
  async function findAccountNames({
    ids,
  }: {
    ids: string[];
  }): Promise<Map<string, { id: string; name: string; email: string }>> {
    const rows = await repo.findUsersByIds({ db, ids: [...new Set(ids)] });
    return new Map(rows.map((row) => [row.id, row]));
  }

  /**
   * Activates or deactivates an account. Deactivating ends every session of it at once, on every
   * instance, and its sign-ins are refused from then on. Nobody deactivates their own account,
   * nor the last active administrator (400).
   */
  async function setAccountActive({
    actorId,
    userId,
    isActive,
    inTransaction,
  }: {
    actorId: string;
    userId: string;
    isActive: boolean;
    inTransaction: (tx: Db, change: AccountChange) => Promise<void>;
  }): Promise<{ account: Account; changed: boolean }> {
    if (!isActive && userId === actorId) throw new AppError(400, 'adminUsers.selfDeactivate');
    return changeAccount({
      userId,
      inTransaction,
      change: async (tx, before) => {
        if (before.isActive === isActive) return false;
        if (!isActive) await assertNotLastAdmin(tx, before);
        await repo.updateUserActive({ db: tx, id: userId, isActive, now: clock.now() });
        return true;
      },
      // A deactivated account's sessions end; a reactivated one signs in again.
      endSessions: !isActive,
    });
  }

  /**
   * Makes an account an administrator or a user (its mode and its origin both), and ends its
   * sessions: it signs in again as what it now is. Nobody demotes themselves, nor the last active
   * administrator (400).
   */
  async function setAccountRole({
    actorId,
    userId,
    role,
    inTransaction,
  }: {
    actorId: string;
    userId: string;
    role: Role;
    inTransaction: (tx: Db, change: AccountChange) => Promise<void>;
  }): Promise<{ account: Account; changed: boolean }> {
    if (role === 'user' && userId === actorId) throw new AppError(400, 'adminUsers.selfDemote');
    return changeAccount({
      userId,
      inTransaction,
      change: async (tx, before) => {
        if (before.role === role && before.originalRole === role) return false;
        if (role === 'user') await assertNotLastAdmin(tx, before);
        // An account made for one agent has no dashboard, catalogue or panel: it stays a user.
        if (role === 'admin' && before.singleAgentName)
          throw new AppError(400, 'adminUsers.singleAgentNotAdmin');
        await repo.updateUserRoles({ db: tx, id: userId, role, now: clock.now() });
        return true;
      },
      endSessions: true,
    });
  }

  /**
   * One admin change of an account, in one transaction under the registration lock (the one
   * registration and deletion take): the check of how many administrators remain and the change
   * are made one at a time, so two admins demoting each other at once cannot both succeed. When
   * `change` changed something, `inTransaction` records it and (with `endSessions`) every session
   * of the account ends; every instance forgets them once committed.
   */
  async function changeAccount({
    userId,
    change,
    endSessions,
    inTransaction,
  }: {
    userId: string;
    change: (tx: Db, before: Account) => Promise<boolean>;
    endSessions: boolean;
    inTransaction: (tx: Db, change: AccountChange) => Promise<void>;
  }): Promise<{ account: Account; changed: boolean }> {
    // Not an id at all: no such account (and no query PostgreSQL would refuse).
    if (!isUuid(userId)) throw new AppError(404, 'adminUsers.notFound');
    const done = await db.transaction(async (tx) => {
      await repo.lockRegistrations({ db: tx });
      const before = await repo.findAccount({ db: tx, id: userId });
      if (!before) throw new AppError(404, 'adminUsers.notFound');
      if (!(await change(tx, before))) return { account: before, changed: false, revoked: [] };
      const revoked = endSessions ? await sessions.revokeAllOf({ userId, tx }) : [];
      const after = await accountIn(tx, userId);
      await inTransaction(tx, { before, after });
      return { account: after, changed: true, revoked };
    });
    if (done.changed) {
      // After the commit: an instance that re-reads the rows on these messages sees the change.
      await sessions.forget(done.revoked);
      await authenticator.forgetUser(userId);
    }
    return { account: done.account, changed: done.changed };
  }

  /** How many active accounts have `agentName` as their one agent. */
  function countSingleAgentAccounts({ agentName }: { agentName: string }): Promise<number> {
    return repo.countActiveSingleAgentAccounts({ db, agentName });
  }

  /** Refuses to take away the last active administrator (under the registration lock). */
  async function assertNotLastAdmin(tx: Db, account: Account): Promise<void> {
    if (
      account.originalRole === 'admin' &&
      account.isActive &&
      (await repo.countAdmins({ db: tx })) <= 1
    ) {
      throw new AppError(400, 'adminUsers.lastAdmin');
    }
  }

  async function accountIn(tx: Db, id: string): Promise<Account> {
    const account = await repo.findAccount({ db: tx, id });
    if (!account) throw new Error(`account ${id} vanished inside its own transaction`);
    return account;
  }

  return {
    sendOtp,
    completeRegistration,
    login,
    logout,
    switchRole,
    getUser,
    isSingleAgentUser,
    singleAgentOf,
    isAccountActive,
    countSingleAgentAccounts,
    createSingleAgentAccount,
    listAccounts,
    findAccountNames,
    setAccountActive,
    setAccountRole,
    countUsers,
    newestUsers,
    removeExpiredSessionsAndCodes,
    getProfile,
    updateProfile,
    changePassword,
    listSessions,
    revokeOtherSessions,
    requestPasswordReset,
    resetPassword,
    exportData,
    deleteAccount,
  };
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
    singleAgentName: row.singleAgentName,
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
