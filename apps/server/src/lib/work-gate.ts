import PQueue from 'p-queue';
import { retryLater } from './errors';

export type WorkGate = {
  /** Throws the gate's 429 when no more work may join now (a caller may ask before reading a request). */
  assertRoom(): void;
  /** Runs `work` when a slot is free; a 429 at once when the slots and the queue are all taken. */
  run<T>(work: () => Promise<T>): Promise<T>;
};

/**
 * CPU-heavy work that one process runs at most `running` at a time, `waiting` more in line; past
 * that a caller is told to come back (429 `key`, Retry-After `retryAfterSeconds`) instead of
 * joining a queue that would only grow: what a process can do at once is its own, so the gate is
 * per process (per instance), unlike the limits per user, which are shared.
 */
export function createWorkGate({
  running,
  waiting,
  retryAfterSeconds,
  key,
}: {
  running: number;
  waiting: number;
  retryAfterSeconds: number;
  key: string;
}): WorkGate {
  const queue = new PQueue({ concurrency: running });
  const assertRoom = () => {
    if (queue.pending >= running && queue.size >= waiting)
      throw retryLater(key, retryAfterSeconds * 1000);
  };
  return {
    assertRoom,
    run<T>(work: () => Promise<T>): Promise<T> {
      assertRoom();
      return queue.add(work);
    },
  };
}
