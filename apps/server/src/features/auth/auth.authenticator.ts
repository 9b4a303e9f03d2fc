import type { FastifyBaseLogger } from 'fastify';
import type { User } from '@contrateia/shared';
import type { Db } from '@/db/client';
import { createSharedCache } from '@/lib/shared-cache';
import type { MaybePromise } from '@/lib/maybe-promise';
import type { SharedState } from '@/lib/shared-state';
import { findUserById } from './auth.repository';
import type { SessionClaims, SessionStore } from './auth.sessions';
import { toUser } from './auth.account-rows';

/** Who is calling: the user as they are now, and the session their token names. */
export type AuthContext = { user: User; sessionId: string };

export type Authenticator = ReturnType<typeof createAuthenticator>;

/** How stale a cached user may be if an invalidation message is ever lost. */
const USER_CACHE_TTL_MS = 15_000;

/**
 * Token → session → user, the one way every entry point (the HTTP guard today, Socket.IO's
 * handshake next) learns who is calling. Sessions and users are cached per instance and dropped
 * on every instance when they change (a sign-out, a role switch), through the shared state.
 */
export function createAuthenticator({
  db,
  sessions,
  state,
  logger,
}: {
  db: Db;
  sessions: SessionStore;
  state: SharedState;
  logger: FastifyBaseLogger;
}) {
  const users = createSharedCache<User>({
    state,
    name: 'users',
    max: 50_000,
    ttlMs: USER_CACHE_TTL_MS,
    logger,
  });

  /**
   * The caller behind a token, or null when the token is missing, forged, revoked or expired.
   * At once when the session and the user are cached; a promise when they must be read.
   * `touch: false` checks without counting as the session's use (see SessionStore.authenticate).
   */
  function authenticate(
    token: string | undefined,
    options?: { touch?: boolean },
  ): MaybePromise<AuthContext | null> {
    if (!token) return null;
    const session = sessions.authenticate(token, options);
    return session instanceof Promise ? session.then(withUser) : withUser(session);
  }

  function withUser(session: SessionClaims | null): MaybePromise<AuthContext | null> {
    if (!session) return null;
    const cached = users.peek(session.userId);
    if (cached) return { user: cached, sessionId: session.sessionId };
    return activeUser(session.userId).then((user) =>
      user ? { user, sessionId: session.sessionId } : null,
    );
  }

  /**
   * An account that exists and is active, through the same cache: work done for an account
   * outside a request (a WhatsApp auto-reply) asks it without a query each time. Undefined for a
   * deactivated or deleted account.
   */
  function activeUser(userId: string): Promise<User | undefined> {
    const cached = users.peek(userId);
    if (cached) return Promise.resolve(cached);
    return users.load(userId, async () => {
      const row = await findUserById({ db, id: userId });
      // A deactivated account is nobody, even with a session that a sign-in racing the
      // deactivation made after its sessions were ended.
      return row?.isActive ? toUser(row) : undefined;
    });
  }

  /** Drops every instance's copy of a user whose row changed. */
  const forgetUser = (userId: string) => users.invalidate(userId);

  /**
   * Calls `listener` on every instance when a caller's standing may have changed: a session
   * revoked or forgotten, a user changed or deleted; `null` when anything may have (a resync).
   * Whoever keeps a caller authenticated over time (a socket) checks it again through
   * `authenticate`. Returns the unsubscribe function.
   */
  function onChange(
    listener: (change: { sessionId: string } | { userId: string } | null) => void,
  ): () => void {
    const offSessions = sessions.onChange((sessionId) =>
      listener(sessionId === null ? null : { sessionId }),
    );
    const offUsers = users.onDrop((userId) => listener(userId === null ? null : { userId }));
    return () => {
      offSessions();
      offUsers();
    };
  }

  return { authenticate, activeUser, forgetUser, onChange };
}
