import type { OtpPurpose } from '@contrateia/shared';
import { RateLimiterRes } from 'rate-limiter-flexible';
import { takeOrRetryLater, type SharedState } from '@/lib/shared-state';
import { loginThrottled, loginThrottledSeconds } from './auth.errors';

export type LoginLimits = {
  /** The per-IP window: `perIp` failures from one IP within it, and the IP is refused until it ends. */
  windowSeconds: number;
  perIp: number;
  /** Attempts at an account's password that go at once; after that many, each waits its turn. */
  perAccount: number;
  /** The first wait; each further failure doubles it, up to `maxDelaySeconds`. */
  baseDelaySeconds: number;
  maxDelaySeconds: number;
  /** How long an account's run of attempts is remembered, from its first (a sign-in ends it sooner). */
  accountWindowSeconds: number;
  /** How long an IP stays known to an account after a sign-in from it (each sign-in renews it). */
  knownIpSeconds: number;
};

export const DEFAULT_LOGIN_LIMITS: LoginLimits = {
  windowSeconds: 15 * 60,
  perIp: 50,
  perAccount: 10,
  baseDelaySeconds: 1,
  maxDelaySeconds: 5 * 60,
  accountWindowSeconds: 24 * 60 * 60,
  // Within the shared state's longest window (MAX_COUNTER_SECONDS, some 24 days).
  knownIpSeconds: 20 * 24 * 60 * 60,
};

/** The wait the `turn`-th delayed attempt (from 0) imposes on the next: base × 2^turn, capped. */
export function loginDelaySeconds(
  turn: number,
  limits: Pick<LoginLimits, 'baseDelaySeconds' | 'maxDelaySeconds'>,
): number {
  // 2^turn overflows to Infinity long after the cap, and min() takes the cap then. Whole seconds:
  // the stores keep expiries in them.
  return Math.ceil(Math.min(limits.maxDelaySeconds, limits.baseDelaySeconds * 2 ** turn));
}

/** An attempt the throttle let through: the caller says how it ended. */
export type LoginAttempt = { failed: () => Promise<void>; succeeded: () => Promise<void> };

/** Whose password is tried: an account's (by id, whichever name was typed), or a name with none. */
export type LoginTarget = { userId: string | undefined; identifier: string };

export type LoginThrottle = ReturnType<typeof createLoginThrottle>;

/**
 * Limits password guesses, in the shared state (so every instance shares the counts).
 *
 * Per account: the count belongs to the account, whether the e-mail or the username named it, and
 * a name that names no account is counted by itself, the same way, so the answers do not tell
 * which names have accounts. The first `perAccount` attempts go at once; after them each attempt
 * waits its turn, and each turn doubles the wait before the next (1 s, 2 s, 4 s … 5 min), until a
 * sign-in or the window ends the run. A wall (every attempt refused for 15 minutes, the right
 * password too) would let anyone who knows a name lock its owner out at will; waits bounded by
 * `maxDelaySeconds` cap that, while a guesser keeps to about one guess per wait (some 300 a day
 * per account at the defaults, against 960 with the old 10-per-15-minutes wall).
 *
 * The owner's own IPs: a sign-in makes its IP known to the account for `knownIpSeconds`, and an IP
 * the account knows is counted apart (account and IP), so strangers' guesses never make the owner
 * wait where they signed in before. It is not exempt: others behind the same address (a shared
 * NAT, mobile carriers' CGNAT) get the same free tries and waits on that count of its own. A
 * sign-in from a known IP leaves the strangers' count as it is, or each of the owner's sign-ins
 * would hand the strangers a fresh set of free tries; a sign-in from a new IP ends it (that IP
 * was judged by it). Known IPs live in the shared state with the counts (Redis in production),
 * so every instance knows them.
 *
 * The attempts are counted before the password is checked, as rate-limiter-flexible's
 * ExpressBruteFlexible counts them: its three counters (free tries, the turn's wait, turns taken)
 * with `penalty(…, { customDuration })` make sure that of simultaneous attempts past the free
 * tries exactly one takes the turn, so a burst of parallel guesses gets no more than one. That
 * class itself is an Express middleware that keys by `req.ip` and makes its own stores, which
 * neither fits a service nor shares this app's state.
 *
 * Per IP: `perIp` failures within `windowSeconds`, whichever names they tried, and every attempt
 * from that IP is refused until the window passes.
 */
export function createLoginThrottle({
  limits,
  state,
}: {
  limits: LoginLimits;
  state: SharedState;
}) {
  if (limits.perAccount < 1 || limits.baseDelaySeconds < 1)
    throw new Error('login limits: perAccount and baseDelaySeconds must be at least 1');
  const byIp = state.counter({
    name: 'login-fail:ip',
    points: limits.perIp,
    durationSeconds: limits.windowSeconds,
  });
  // The attempt that spends the last free point takes the first turn.
  const free = state.counter({
    name: 'login-free',
    points: limits.perAccount - 1,
    durationSeconds: limits.accountWindowSeconds,
  });
  const turns = state.counter({
    name: 'login-turns',
    points: 1,
    durationSeconds: limits.accountWindowSeconds,
  });
  // Held for the wait a turn imposes (its duration is given with each turn).
  const waiting = state.counter({
    name: 'login-wait',
    points: 1,
    durationSeconds: limits.maxDelaySeconds,
  });
  const known = state.counter({
    name: 'login-known-ip',
    points: 1,
    durationSeconds: limits.knownIpSeconds,
  });

  const userKey = (userId: string) => `user:${userId}`;
  const accountKey = ({ userId, identifier }: LoginTarget) =>
    userId ? userKey(userId) : `name:${identifier}`;
  // Only a sign-in makes an IP known, so only accounts (`user:…`) ever have known IPs: a name's
  // key, whatever it holds, never reads as one.
  const knownIpKey = (account: string, ip: string) => `${account} ${ip}`;

  /** The key that counts attempts at `account` from `ip`: apart when the account knows the IP. */
  async function countedAs(account: string, ip: string): Promise<string> {
    const key = knownIpKey(account, ip);
    return (await known.get(key)) ? key : account;
  }

  /**
   * Lets an attempt at `target`'s password go ahead, counting it, or throws a 429 with the wait:
   * the IP's window is spent, or the account's free tries are and the turn is taken.
   */
  async function begin({ ip, ...target }: LoginTarget & { ip: string }): Promise<LoginAttempt> {
    const account = accountKey(target);
    const [fromIp, key] = await Promise.all([byIp.get(ip), countedAs(account, ip)]);
    if (fromIp && fromIp.consumedPoints >= limits.perIp && fromIp.msBeforeNext > 0)
      throw loginThrottled(fromIp.msBeforeNext);
    await takeTurn(key);
    return {
      failed: async () => {
        // consume() rejects once the points are spent; that is the state begin() reads.
        await byIp.consume(ip).catch(ignoreSpent);
      },
      succeeded: () => forget(key, knownIpKey(account, ip)),
    };
  }

  async function takeTurn(key: string): Promise<void> {
    try {
      await free.consume(key);
      return;
    } catch (error) {
      ignoreSpent(error);
    }
    const [wait, taken] = await Promise.all([waiting.get(key), turns.get(key)]);
    if (wait && wait.msBeforeNext > 0) throw delayed(wait.msBeforeNext);
    const seconds = loginDelaySeconds(taken?.consumedPoints ?? 0, limits);
    // Atomic in the store: of attempts racing here, the one that makes the count 1 has the turn.
    const turn = await waiting.penalty(key, 1, { customDuration: seconds });
    if (turn.consumedPoints > 1) throw delayed(turn.msBeforeNext);
    await turns.penalty(key);
  }

  /** Ends the run counted under `key` and makes the IP known to the account (or keeps it known). */
  async function forget(key: string, ipKey: string): Promise<void> {
    await Promise.all([
      free.delete(key),
      turns.delete(key),
      waiting.delete(key),
      known.set(ipKey, 1, limits.knownIpSeconds),
    ]);
  }

  /**
   * The account's owner proved who they are from `ip` another way (a mailed password-reset code):
   * as a sign-in from there would, this ends the run that counts that IP's attempts and makes it known.
   */
  async function recordSuccess({ userId, ip }: { userId: string; ip: string }): Promise<void> {
    const account = userKey(userId);
    await forget(await countedAs(account, ip), knownIpKey(account, ip));
  }

  return { begin, recordSuccess };
}

/** A wait of a turn, in seconds while it is short, in minutes after. */
function delayed(waitMs: number) {
  return waitMs < 120_000 ? loginThrottledSeconds(waitMs) : loginThrottled(waitMs);
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
  const sent = state.counter({
    name: 'email-codes',
    points: limits.perAddress,
    durationSeconds: limits.windowSeconds,
  });
  const key = ({ address, purpose }: { address: string; purpose: OtpPurpose }) =>
    `${purpose}:${address}`;

  /** Counts one code for the address, or throws a 429 with the wait (in hours) once the window's codes are spent. */
  async function take(code: { address: string; purpose: OtpPurpose }): Promise<void> {
    await takeOrRetryLater(sent, key(code), 'auth.otpDailyLimit', (seconds) =>
      Math.ceil(seconds / 3600),
    );
  }

  /** Gives back a code that was not sent after all (the cooldown refused it, its mail failed). */
  async function giveBack(code: { address: string; purpose: OtpPurpose }): Promise<void> {
    await sent.reward(key(code), 1);
  }

  return { take, giveBack };
}

function ignoreSpent(error: unknown): void {
  if (!(error instanceof RateLimiterRes)) throw error; // a store failure, not a spent limit
}
