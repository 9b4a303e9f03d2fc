import { SignJWT, jwtVerify } from 'jose';
import { LRUCache } from 'lru-cache';
import type { Db } from '@/db/client';
import type { Clock } from '@/lib/clock';
import { findSession, insertSession, revokeSession, touchSession } from './auth.repository';

type CachedSession = { userId: string; lastSeenAt: number; persistedAt: number; revoked: boolean };

export type SessionStore = ReturnType<typeof createSessionStore>;

/** How stale a cached session may be before it is re-read (revocations by another instance). */
const CACHE_TTL_MS = 15_000;
/** Activity is written back at most this often; the timeout is 30 minutes, so a minute is noise. */
const PERSIST_EVERY_MS = 60_000;

/**
 * Sessions behind signed tokens. A token is an HS256 JWT naming its session; the session row
 * says whether it was revoked and when it was last used, so tokens can be revoked and expire after
 * `timeoutMs` of inactivity while each use extends them.
 *
 * Reading the row on every request would cap throughput at the embedded database's speed, so
 * sessions are cached for a few seconds and their activity written back once a minute. A
 * revocation on this instance takes effect at once; on another instance within CACHE_TTL_MS.
 */
export function createSessionStore({
  db,
  secret,
  clock,
  timeoutMs,
}: {
  db: Db;
  secret: string;
  clock: Clock;
  timeoutMs: number;
}) {
  // A CryptoKey imported once: given raw bytes or a KeyObject, jose imports the key again on
  // every verify, which costs more than the verify itself.
  const key = crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
    'verify',
  ]);
  const cache = new LRUCache<string, CachedSession>({ max: 50_000, ttl: CACHE_TTL_MS });
  // Tokens whose signature was already checked: a token's claims never change, so checking it
  // again proves nothing new (the session behind it is still checked on every request).
  const verified = new LRUCache<string, { sessionId: unknown; userId: unknown }>({ max: 50_000, ttl: CACHE_TTL_MS });

  async function create({ userId }: { userId: string }): Promise<{ token: string; sessionId: string }> {
    const now = clock.now();
    const session = await insertSession({ db, userId, now });
    cache.set(session.id, { userId, lastSeenAt: now.getTime(), persistedAt: now.getTime(), revoked: false });
    const token = await new SignJWT({ sid: session.id })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(userId)
      .setIssuedAt(Math.floor(now.getTime() / 1000))
      .sign(await key);
    return { token, sessionId: session.id };
  }

  /** The session a token names, if the token is genuine and the session alive; extends it. */
  async function authenticate(token: string): Promise<{ sessionId: string; userId: string } | null> {
    let claims = verified.get(token);
    if (!claims) {
      try {
        // Only HS256: a token claiming `alg: none` or any other algorithm is refused here.
        const { payload } = await jwtVerify(token, await key, { algorithms: ['HS256'] });
        claims = { sessionId: payload.sid, userId: payload.sub };
      } catch {
        return null;
      }
      verified.set(token, claims);
    }
    const { sessionId, userId } = claims;
    if (typeof sessionId !== 'string' || typeof userId !== 'string' || !isUuid(sessionId)) return null;

    let entry = cache.get(sessionId);
    if (!entry) {
      const row = await findSession({ db, id: sessionId });
      if (!row) return null;
      entry = {
        userId: row.userId,
        lastSeenAt: row.lastSeenAt.getTime(),
        persistedAt: row.lastSeenAt.getTime(),
        revoked: row.revokedAt !== null,
      };
      cache.set(sessionId, entry);
    }
    if (entry.revoked || entry.userId !== userId) return null;

    const now = clock.now().getTime();
    if (now - entry.lastSeenAt > timeoutMs) return null;
    entry.lastSeenAt = Math.max(entry.lastSeenAt, now);
    if (now - entry.persistedAt >= PERSIST_EVERY_MS) {
      entry.persistedAt = now;
      await touchSession({ db, id: sessionId, lastSeenAt: new Date(now) });
    }
    return { sessionId, userId };
  }

  async function revoke({ sessionId }: { sessionId: string }): Promise<void> {
    const entry = cache.get(sessionId);
    if (entry) entry.revoked = true;
    await revokeSession({ db, id: sessionId, now: clock.now() });
  }

  return { create, authenticate, revoke };
}

function isUuid(value: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
}
