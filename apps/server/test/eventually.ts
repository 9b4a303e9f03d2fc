import { setTimeout as delay } from 'node:timers/promises';

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
