import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { retryLater } from '@/lib/errors';

export type LoginLimits = { windowSeconds: number; perIdentifier: number; perIp: number };

export const DEFAULT_LOGIN_LIMITS: LoginLimits = { windowSeconds: 15 * 60, perIdentifier: 10, perIp: 50 };

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;

/**
 * Counts failed sign-ins per identifier and per IP over a fixed window (rate-limiter-flexible,
 * in Redis when configured so every instance shares the counts). Once either count is spent,
 * every attempt is refused until the window passes, even with the right password.
 */
export function createLoginThrottle({
  limits,
  redis,
  keyPrefix = 'login-fail',
}: {
  limits: LoginLimits;
  redis?: Redis;
  keyPrefix?: string;
}) {
  const make = (points: number, prefix: string): RateLimiterAbstract =>
    redis
      ? new RateLimiterRedis({ storeClient: redis, points, duration: limits.windowSeconds, keyPrefix: prefix })
      : new RateLimiterMemory({ points, duration: limits.windowSeconds, keyPrefix: prefix });
  const byIdentifier = make(limits.perIdentifier, `${keyPrefix}:id`);
  const byIp = make(limits.perIp, `${keyPrefix}:ip`);

  async function assertAllowed({ identifier, ip }: { identifier: string; ip: string }): Promise<void> {
    const [id, addr] = await Promise.all([byIdentifier.get(identifier), byIp.get(ip)]);
    const blocked = [
      id && id.consumedPoints >= limits.perIdentifier ? id.msBeforeNext : 0,
      addr && addr.consumedPoints >= limits.perIp ? addr.msBeforeNext : 0,
    ];
    const waitMs = Math.max(...blocked);
    if (waitMs > 0) throw retryLater('auth.loginThrottled', waitMs, (seconds) => Math.ceil(seconds / 60));
  }

  async function recordFailure({ identifier, ip }: { identifier: string; ip: string }): Promise<void> {
    // consume() rejects once the points are spent; that is the state assertAllowed reads.
    await Promise.all([byIdentifier.consume(identifier).catch(ignoreSpent), byIp.consume(ip).catch(ignoreSpent)]);
  }

  async function recordSuccess({ identifier }: { identifier: string }): Promise<void> {
    await byIdentifier.delete(identifier);
  }

  return { assertAllowed, recordFailure, recordSuccess };
}

function ignoreSpent(error: unknown): void {
  if (error instanceof Error) throw error; // a store failure, not a spent limit
}
