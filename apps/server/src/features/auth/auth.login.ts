import { createHmac } from 'node:crypto';
import type { Role, User } from '@contrateia/shared';
import { AppError, underMaintenance } from '@/lib/errors';
import { verifyPassword } from '@/lib/password';
import { toUser } from './auth.account-rows';
import type { AuthDeps } from './auth.deps';
import {
  accountDisabled,
  alreadyInMode,
  invalidCredentials,
  roleSwitchForbidden,
  unauthorized,
} from './auth.errors';
import * as repo from './auth.repository';

/**
 * Signs in with an e-mail or a username and the password: a new session and its token. Every
 * failure is recorded in the stored log, without the name typed (see identifierHash).
 */
export async function login(
  {
    db,
    sessions,
    throttle,
    systemSettings,
    eventLog,
    codeKey,
  }: Pick<AuthDeps, 'db' | 'sessions' | 'throttle' | 'systemSettings' | 'eventLog' | 'codeKey'>,
  {
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
  },
): Promise<{ user: User; token: string }> {
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
      context: { reason, identifierHash: identifierHash(codeKey, key), ip },
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
    throw failed('invalid_credentials', invalidCredentials());
  }
  await attempt.succeeded();
  // Told only once the password is right, as maintenance below: the answer says nothing of an
  // account to someone who does not hold it.
  if (!user.isActive) throw failed('account_disabled', accountDisabled());
  // Only admins sign in during maintenance; told only once the password is right, so the
  // answer says nothing of an account to someone who does not hold it.
  if (user.originalRole !== 'admin' && (await systemSettings()).maintenanceMode)
    throw failed('maintenance', underMaintenance());
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
export async function logout(
  { sessions }: Pick<AuthDeps, 'sessions'>,
  { sessionId }: { sessionId: string },
): Promise<void> {
  await sessions.revoke({ sessionId });
}

/**
 * Admins switch between admin and user mode; the new token replaces (and revokes) the old. Of
 * several switches sent with one token, one gets the new session; the others find the token
 * revoked (401), as a switch after it would.
 */
export async function switchRole(
  {
    db,
    clock,
    sessions,
    authenticator,
    eventLog,
  }: Pick<AuthDeps, 'db' | 'clock' | 'sessions' | 'authenticator' | 'eventLog'>,
  {
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
  },
): Promise<{ user: User; token: string }> {
  if (user.originalRole !== 'admin') throw roleSwitchForbidden();
  if (user.role === targetRole) throw alreadyInMode(targetRole);
  const switched = await db.transaction(async (tx) => {
    // The account's row first, as a password change does: both lock the same rows in the same
    // order, and one account's changes go one at a time.
    const updated = await repo.updateUserRole({
      db: tx,
      id: user.id,
      role: targetRole,
      now: clock.now(),
    });
    if (!updated) throw unauthorized();
    // Revokes the old session only if it is still live, and only then makes the new one.
    const replaced = await sessions.replace({ sessionId, userId: user.id, userAgent, tx });
    if (!replaced) throw unauthorized();
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

/**
 * What a failed sign-in is stored with instead of the name typed: a keyed hash, the same for
 * the same name (attempts on one account can be told apart) yet not the name, which may even be
 * a password typed in the wrong field.
 */
function identifierHash(codeKey: string, identifier: string): string {
  return createHmac('sha256', codeKey).update(`sign-in:${identifier}`).digest('hex').slice(0, 16);
}
