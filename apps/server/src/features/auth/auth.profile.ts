import type { ChangePasswordInput, Language, SessionInfo, User } from '@contrateia/shared';
import { hashPassword } from '@/lib/password';
import { assertOwnPassword, ownRow, toUser } from './auth.account-rows';
import type { AuthDeps } from './auth.deps';
import { describeDevice } from './auth.devices';
import { unauthorized } from './auth.errors';
import * as repo from './auth.repository';

// "Your account": the profile and preferred language, the password, the sessions.

export async function getProfile(
  deps: Pick<AuthDeps, 'db'>,
  { user, language }: { user: User; language: Language },
): Promise<{ user: User; language: Language }> {
  const row = await ownRow(deps, user.id);
  return { user: toUser(row), language: row.language ?? language };
}

export async function updateProfile(
  { db, clock, authenticator }: Pick<AuthDeps, 'db' | 'clock' | 'authenticator'>,
  { user, name, language }: { user: User; name: string; language: Language },
): Promise<{ user: User; language: Language }> {
  const row = await repo.updateUserProfile({ db, id: user.id, name, language, now: clock.now() });
  if (!row) throw unauthorized();
  await authenticator.forgetUser(user.id);
  return { user: toUser(row), language };
}

/** Sets a new password; every other session of the account ends, this one goes on. */
export async function changePassword(
  deps: Pick<AuthDeps, 'db' | 'clock' | 'sessions' | 'throttle'>,
  {
    user,
    sessionId,
    currentPassword,
    newPassword,
    ip,
  }: { user: User; sessionId: string; ip: string } & Pick<
    ChangePasswordInput,
    'currentPassword' | 'newPassword'
  >,
): Promise<void> {
  const { db, clock, sessions } = deps;
  const row = await ownRow(deps, user.id);
  await assertOwnPassword(deps, { row, password: currentPassword, ip, field: 'currentPassword' });
  const passwordHash = await hashPassword(newPassword);
  const revoked = await db.transaction(async (tx) => {
    // Locks the account's row: two changes of one account go one at a time, so the second sees
    // what the first revoked.
    await repo.updateUserPassword({ db: tx, id: user.id, passwordHash, now: clock.now() });
    // A session that a concurrent change (or a sign-out) ended sets no password.
    if (!(await sessions.isLive({ sessionId, tx }))) throw unauthorized();
    return sessions.revokeAllOf({ userId: user.id, except: sessionId, tx });
  });
  await sessions.forget(revoked);
}

export async function listSessions(
  { sessions }: Pick<AuthDeps, 'sessions'>,
  { user, sessionId }: { user: User; sessionId: string },
): Promise<SessionInfo[]> {
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
export async function revokeOtherSessions(
  { sessions }: Pick<AuthDeps, 'sessions'>,
  { user, sessionId }: { user: User; sessionId: string },
): Promise<{ count: number }> {
  const revoked = await sessions.revokeAllOf({ userId: user.id, except: sessionId });
  await sessions.forget(revoked);
  return { count: revoked.length };
}
