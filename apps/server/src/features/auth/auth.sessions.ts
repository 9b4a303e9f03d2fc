import type { FastifyBaseLogger } from 'fastify';
import { SignJWT, jwtVerify } from 'jose';
import { LRUCache } from 'lru-cache';
import type { Db } from '@/db/client';
import type { Clock } from '@/lib/clock';
import type { MaybePromise } from '@/lib/maybe-promise';
import { createSharedCache } from '@/lib/shared-cache';
import type { SharedState } from '@/lib/shared-state';
import { USER_AGENT_MAX } from '@contrateia/shared';
import {
  deleteDeadSessions,
  findSession,
  insertSession,
  isSessionLive,
  listLiveSessions,
  revokeSession,
  revokeUserSessions,
  touchSession,
} from './auth.repository';
import { isUuid } from '@/lib/uuid';

type CachedSession = {
  userId: string;
  createdAt: number;
  lastSeenAt: number;
  persistedAt: number;
  revoked: boolean;
};
export type SessionClaims = { sessionId: string; userId: string };

export type SessionStore = ReturnType<typeof createSessionStore>;

/** How stale a cached session may be if an invalidation message is ever lost. */
const CACHE_TTL_MS = 15_000;
/** Activity is written back at most this often; the timeout is 30 minutes, so a minute is noise. */
const PERSIST_EVERY_MS = 60_000;

/**
 * Sessions behind signed tokens. A token is an HS256 JWT naming its session; the session row
 * says whether it was revoked, when it was signed in and when it was last used, so tokens can be
 * revoked and expire after `timeoutMs` of inactivity while each use extends them, and in any case
 * `maxAgeMs` after the sign-in.
 *
 * Reading the row on every request would cap throughput at the embedded database's speed, so
 * sessions are cached and their activity written back once a minute. A revocation drops the
 * cached copy on every instance through the shared state, so it takes effect everywhere at once.
 */
export function createSessionStore({
  db,
  secret,
  clock,
  timeoutMs,
  maxAgeMs,
  state,
  logger,
}: {
  db: Db;
  secret: string;
  clock: Clock;
  /** The idle lifetime in force (the admin's session timeout): asked at each check, so a change applies to existing sessions too. */
  timeoutMs: () => number;
  maxAgeMs: number;
  state: SharedState;
  logger: FastifyBaseLogger;
}) {
  // A CryptoKey imported once: given raw bytes or a KeyObject, jose imports the key again on
  // every verify, which costs more than the verify itself.
  const key = crypto.subtle.importKey(
    'raw',
    new TextEncoder().encode(secret),
    { name: 'HMAC', hash: 'SHA-256' },
    false,
    ['sign', 'verify'],
  );
  const cache = createSharedCache<CachedSession>({
    state,
    name: 'sessions',
    max: 50_000,
    ttlMs: CACHE_TTL_MS,
    logger,
  });
  // Tokens whose signature and claims were already checked: a token's claims never change, so
  // checking it again proves nothing new (the session behind it is still checked on every
  // request). Bounded by count alone: with a TTL, every lookup also read the clock and checked an
  // expiry.
  const verified = new LRUCache<string, SessionClaims>({ max: 50_000 });

  /**
   * A new session and its token, inside `tx` when given. `signedInAt` is when its sign-in was, if
   * earlier than now: a session that replaces another keeps its sign-in time (see `replace`).
   */
  async function create({
    userId,
    userAgent,
    signedInAt,
    tx = db,
  }: {
    userId: string;
    userAgent?: string;
    signedInAt?: Date;
    tx?: Db;
  }): Promise<{ token: string; sessionId: string }> {
    const now = clock.now();
    const session = await insertSession({
      db: tx,
      userId,
      now,
      createdAt: signedInAt ?? now,
      userAgent: cleanUserAgent(userAgent),
    });
    const token = await new SignJWT({ sid: session.id })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(userId)
      .setIssuedAt(Math.floor(now.getTime() / 1000))
      .sign(await key);
    return { token, sessionId: session.id };
  }

  /**
   * The session a token names, if the token is genuine and the session alive; extends it. Answers
   * at once when the token was verified before and its session is cached (nearly every request),
   * and with a promise only when that needs the database or the signature check: a promise and a
   * microtask on every request were a measurable share of an authenticated request's time.
   *
   * `touch: false` checks without extending: an open socket re-checking its session is no sign
   * that anybody is there, so it must not keep an idle session alive.
   */
  function authenticate(
    token: string,
    { touch = true }: { touch?: boolean } = {},
  ): MaybePromise<SessionClaims | null> {
    const claims = verified.get(token);
    return claims
      ? checkSession(claims, touch)
      : verifyToken(token).then((checked) => checked && checkSession(checked, touch));
  }

  /** A genuine token's claims, if they name a session and a user; null for any other token. */
  async function verifyToken(token: string): Promise<SessionClaims | null> {
    let sessionId: unknown;
    let userId: unknown;
    try {
      // Only HS256: a token claiming `alg: none` or any other algorithm is refused here.
      const { payload } = await jwtVerify(token, await key, { algorithms: ['HS256'] });
      sessionId = payload.sid;
      userId = payload.sub;
    } catch {
      return null;
    }
    if (typeof sessionId !== 'string' || typeof userId !== 'string' || !isUuid(sessionId))
      return null;
    const claims = { sessionId, userId };
    verified.set(token, claims);
    return claims;
  }

  function checkSession(claims: SessionClaims, touch: boolean): MaybePromise<SessionClaims | null> {
    const { sessionId } = claims;
    const entry = cache.peek(sessionId);
    if (entry) return extend(entry, claims, touch);
    return cache
      .load(sessionId, async () => {
        const row = await findSession({ db, id: sessionId });
        return (
          row && {
            userId: row.userId,
            createdAt: row.createdAt.getTime(),
            lastSeenAt: row.lastSeenAt.getTime(),
            persistedAt: row.lastSeenAt.getTime(),
            revoked: row.revokedAt !== null,
          }
        );
      })
      .then((loaded) => (loaded ? extend(loaded, claims, touch) : null));
  }

  /**
   * Refuses a revoked, foreign, idle or too old session; otherwise marks it used now (when
   * `touch`). Synchronous for a cached session (nearly every request): its sign-in time is in the
   * cache entry.
   */
  function extend(
    entry: CachedSession,
    claims: SessionClaims,
    touch: boolean,
  ): MaybePromise<SessionClaims | null> {
    if (entry.revoked || entry.userId !== claims.userId) return null;
    const now = clock.now().getTime();
    if (now - entry.lastSeenAt > timeoutMs() || now - entry.createdAt > maxAgeMs) return null;
    if (!touch) return claims;
    entry.lastSeenAt = Math.max(entry.lastSeenAt, now);
    if (now - entry.persistedAt < PERSIST_EVERY_MS) return claims;
    entry.persistedAt = now;
    return touchSession({ db, id: claims.sessionId, lastSeenAt: new Date(now) }).then(() => claims);
  }

  async function revoke({ sessionId }: { sessionId: string }): Promise<void> {
    await revokeSession({ db, id: sessionId, now: clock.now() });
    // After the write: an instance that re-reads the row on this message sees the revocation.
    await cache.invalidate(sessionId);
  }

  /**
   * Inside `tx`, revokes a session and makes the one that replaces it (a role switch), which keeps
   * the old one's sign-in time, so replacing a session does not renew its absolute lifetime.
   * Undefined, and no new session, when the old one was revoked already: of several concurrent
   * replacements of one session, exactly one makes a session. Call `forget` with the old id once
   * the transaction committed.
   */
  async function replace({
    sessionId,
    userId,
    userAgent,
    tx,
  }: {
    sessionId: string;
    userId: string;
    userAgent?: string;
    tx: Db;
  }): Promise<{ token: string; sessionId: string } | undefined> {
    const revoked = await revokeSession({ db: tx, id: sessionId, now: clock.now() });
    return revoked && create({ userId, userAgent, signedInAt: revoked.createdAt, tx });
  }

  /** Whether a session is not revoked, as its row says now (inside `tx` when given). */
  const isLive = ({ sessionId, tx = db }: { sessionId: string; tx?: Db }) =>
    isSessionLive({ db: tx, id: sessionId });

  /**
   * Revokes every live session of a user but `except`, inside `tx` when given (a password change
   * commits with its revocations). Call `forget` with the ids once that transaction committed.
   */
  async function revokeAllOf({
    userId,
    except,
    tx = db,
  }: {
    userId: string;
    except?: string;
    tx?: Db;
  }): Promise<string[]> {
    return revokeUserSessions({ db: tx, userId, except, now: clock.now() });
  }

  /**
   * Deletes, inside `tx`, the sessions that sign nobody in any more (each account keeps its most
   * recently used one: see deleteDeadSessions). Activity is written back once a minute, so a
   * session counts as idle only a minute past the timeout. Call `forget` with the ids once `tx`
   * committed.
   */
  async function removeDead({ tx = db }: { tx?: Db } = {}): Promise<string[]> {
    const now = clock.now().getTime();
    return deleteDeadSessions({
      db: tx,
      idleBefore: new Date(now - timeoutMs() - PERSIST_EVERY_MS),
      signedInBefore: new Date(now - maxAgeMs),
    });
  }

  /** Drops every instance's cached copy of these sessions (after their rows changed). */
  async function forget(sessionIds: string[]): Promise<void> {
    await Promise.all(sessionIds.map((id) => cache.invalidate(id)));
  }

  /** The user's sessions still alive (not revoked, used within the timeout, not too old), most recent first. */
  async function listAlive({ userId }: { userId: string }) {
    const now = clock.now().getTime();
    const rows = await listLiveSessions({
      db,
      userId,
      activeSince: new Date(now - timeoutMs()),
      signedInSince: new Date(now - maxAgeMs),
    });
    // Activity is written back once a minute: this instance's cache may know a later use.
    return rows.map((row) => {
      const cached = cache.peek(row.id);
      const lastSeenAt =
        cached && !cached.revoked
          ? Math.max(cached.lastSeenAt, row.lastSeenAt.getTime())
          : row.lastSeenAt.getTime();
      return {
        id: row.id,
        userAgent: row.userAgent,
        createdAt: row.createdAt,
        lastSeenAt: new Date(lastSeenAt),
      };
    });
  }

  /**
   * Calls `listener` on every instance when a session may have ended (revoked, or forgotten
   * after a change), with its id, or null when any may have: whoever holds one open (a socket)
   * checks it again.
   */
  const onChange = (listener: (sessionId: string | null) => void) => cache.onDrop(listener);

  return {
    create,
    authenticate,
    revoke,
    replace,
    isLive,
    revokeAllOf,
    removeDead,
    forget,
    listAlive,
    onChange,
  };
}

/** A User-Agent as stored: control characters out, trimmed, capped; null when nothing is left. */
function cleanUserAgent(value: string | undefined): string | null {
  const text = (value ?? '')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u001f\u007f]/g, '')
    .trim()
    .slice(0, USER_AGENT_MAX);
  return text || null;
}
