import type { OtpPurpose } from '@contrateia/shared';
import { retryLater } from '@/lib/errors';
import { takeOrRetryLater, type SharedState } from '@/lib/shared-state';

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

export type CodeLimits = { windowSeconds: number; perAddress: number };

export const DEFAULT_CODE_LIMITS: CodeLimits = { windowSeconds: 24 * 60 * 60, perAddress: 5 };

export type CodeLimiter = ReturnType<typeof createCodeLimiter>;

/**
 * Counts the e-mail codes sent to each address, per purpose, over a window, in the shared state.
 * Each code has OTP_MAX_ATTEMPTS tries and the resend cooldown is short, so without this asking
 * for a new code would renew the tries without end; with it, an address takes at most
 * `perAddress` codes' tries a window, whichever instance each request reaches. Registration and
 * password reset are counted apart: an account's registration codes do not hold back its reset
 * codes (and the reset answer stays the same for addresses with and without an account).
 */
export function createCodeLimiter({ limits, state }: { limits: CodeLimits; state: SharedState }) {
  const sent = state.counter({ name: 'email-codes', points: limits.perAddress, durationSeconds: limits.windowSeconds });
  const key = ({ address, purpose }: { address: string; purpose: OtpPurpose }) => `${purpose}:${address}`;

  /** Counts one code for the address, or throws a 429 with the wait (in hours) once the window's codes are spent. */
  async function take(code: { address: string; purpose: OtpPurpose }): Promise<void> {
    await takeOrRetryLater(sent, key(code), 'auth.otpDailyLimit', (seconds) => Math.ceil(seconds / 3600));
  }

  /** Gives back a code that was not sent after all (the cooldown refused it, its mail failed). */
  async function giveBack(code: { address: string; purpose: OtpPurpose }): Promise<void> {
    await sent.reward(key(code), 1);
  }

  return { take, giveBack };
}

function ignoreSpent(error: unknown): void {
  if (error instanceof Error) throw error; // a store failure, not a spent limit
}
