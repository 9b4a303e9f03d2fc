import { setTimeout as delay } from 'node:timers/promises';
import { vi } from 'vitest';

/**
 * The waits tests use. Each has a deadline of its own and names what it waited for when it fails:
 * a test that times out as a whole only says it took too long, not what never came.
 */

/**
 * Polls `check` until it holds: what a client retrying would see (a change made through one
 * instance reaching another). Fails after `deadlineMs`.
 */
export async function eventually(
  check: () => Promise<boolean>,
  what: string,
  deadlineMs = 5_000,
): Promise<void> {
  const until = Date.now() + deadlineMs;
  for (;;) {
    if (await check()) return;
    if (Date.now() > until) throw new Error(`${what}: still not so after ${deadlineMs} ms`);
    await delay(10);
  }
}

/** How long a wait lasts unless told otherwise: far past what a loaded machine needs. */
export const WAIT_MS = 10_000;

/**
 * Retries `check` (an assertion) until it passes, and fails with its last error after `ms`:
 * Vitest's `vi.waitFor` with the suite's deadline, not its own 1 s, which a reply's send job on a
 * loaded machine outlasts.
 */
export function settles<T>(
  check: () => T | Promise<T>,
  deadline: number | { timeout: number; interval?: number } = WAIT_MS,
): Promise<T> {
  return vi.waitFor(
    check,
    typeof deadline === 'number' ? { timeout: deadline, interval: 20 } : deadline,
  );
}

/**
 * Waits for `promise`; fails after `ms` naming `what`. A wait may be set up before what it waits
 * for (a request the test is about to cause) and awaited later, or not at all: a failure is
 * reported where it is awaited, never as an unhandled rejection.
 */
export function within<T>(promise: Promise<T>, what: string, ms = WAIT_MS): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return quiet(
    Promise.race([
      promise,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`${what}: not within ${ms} ms`)), ms);
      }),
    ]).finally(() => clearTimeout(timer)),
  );
}

/** `promise`, with a handler that keeps its rejection from counting as unhandled. */
function quiet<T>(promise: Promise<T>): Promise<T> {
  promise.catch(() => {});
  return promise;
}

/** Calls `onChange` on each change of something watched; returns what stops it. */
export type Changes = (onChange: () => void) => () => void;

/**
 * Resolves with the first result of `check` that is not undefined: tried at once, then again at
 * each change (a log line written, an event heard), never on a timer. Fails after `ms` naming `what`.
 */
export function until<T>(
  check: () => T | undefined,
  { changes, what, ms = WAIT_MS }: { changes: Changes; what: string; ms?: number },
): Promise<T> {
  let stop = () => {};
  const found = new Promise<T>((resolve, reject) => {
    const attempt = () => {
      try {
        const result = check();
        if (result === undefined) return false;
        resolve(result);
      } catch (error) {
        reject(error);
      }
      return true;
    };
    if (attempt()) return;
    stop = changes(() => {
      if (attempt()) stop();
    });
  });
  return withCleanup(within(found, what, ms), () => stop());
}

/** `promise`, running `cleanup` once it settles (and as quiet as `within`'s). */
export function withCleanup<T>(promise: Promise<T>, cleanup: () => void): Promise<T> {
  return quiet(promise.finally(cleanup));
}

/**
 * A signal for `until`: `changes` watches it, `notify` fires it (after each item a fake server
 * receives, a test's observer records…).
 */
export function changeSignal(): { changes: Changes; notify: () => void } {
  const listeners = new Set<() => void>();
  return {
    changes: (onChange) => {
      listeners.add(onChange);
      return () => void listeners.delete(onChange);
    },
    notify: () => {
      for (const listener of [...listeners]) listener();
    },
  };
}
