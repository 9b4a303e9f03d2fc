import { retryLater } from '@/lib/errors';
import type { SharedState } from '@/lib/shared-state';

export type LoginLimits = { windowSeconds: number; perIdentifier: number; perIp: number };

export const DEFAULT_LOGIN_LIMITS: LoginLimits = { windowSeconds: 15 * 60, perIdentifier: 10, perIp: 50 };

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;

/**
 * Counts failed sign-ins per identifier and per IP over a fixed window, in the shared state (so
 * every instance shares the counts). Once either count is spent, every attempt is refused until
 * the window passes, even with the right password.
 */
export function createLoginThrottle({ limits, state }: { limits: LoginLimits; state: SharedState }) {
  const make = (points: number, name: string) => state.counter({ name, points, durationSeconds: limits.windowSeconds });
  const byIdentifier = make(limits.perIdentifier, 'login-fail:id');
  const byIp = make(limits.perIp, 'login-fail:ip');

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
