import { vi } from 'vitest';
import type { SharedState } from '../src/lib/shared-state';

const DAY_MS = 24 * 60 * 60_000;

/**
 * Makes the lock `name` lapse, as when its holder stops renewing it for longer than its TTL (a long
 * pause, a death), and runs `then` at that moment, before the holder's next renewal can come: in
 * Redis its key goes (what its expiry does), and the commands `then` sends leave after that one on
 * the same connection; in memory the clock is past every TTL while `then` runs (the memory state
 * reads it before its first await).
 */
export async function whenLapsed<T>(
  state: SharedState,
  name: string,
  then: () => Promise<T>,
): Promise<T> {
  if (state.redis) {
    const gone = state.redis.del(`${state.keyPrefix}:lock:${name}`);
    const result = then();
    await gone;
    return result;
  }
  let result: Promise<T>;
  vi.useFakeTimers({ toFake: ['Date'] });
  try {
    vi.setSystemTime(Date.now() + DAY_MS);
    result = then();
  } finally {
    // At once: the rest of the process (a Baileys socket…) must not see the clock stand still.
    vi.useRealTimers();
  }
  return result;
}
