import type { FastifyBaseLogger } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { SharedState } from './shared-state';

export type SharedCache<V extends NonNullable<unknown>> = {
  /** The cached value, if any, without waiting: the fast path of a request that finds it. */
  peek(key: string): V | undefined;
  /** The cached value, or what `loader` gives (kept unless an invalidation crossed the load). */
  load(key: string, loader: () => Promise<V | undefined>): Promise<V | undefined>;
  /** Drops `key` here at once and, through the shared state, on every other instance. */
  invalidate(key: string): Promise<void>;
  /** Drops every key, here and everywhere. */
  invalidateAll(): Promise<void>;
  /**
   * Calls `listener` whenever this instance drops a key because it changed (here or on another
   * instance), with the key, or null when everything was dropped. Returns the unsubscribe function.
   */
  onDrop(listener: (key: string | null) => void): () => void;
};

const EVERYTHING = '*';

/** How old a clock reading may be when an entry's age is checked: nothing next to a TTL of seconds. */
const TTL_RESOLUTION_MS = 100;

/**
 * A per-instance cache of values read from the database, kept correct across instances: a change
 * calls `invalidate`, which reaches every instance's copy through the shared state's
 * publish/subscribe; the TTL bounds how stale a copy can be if a message is ever lost.
 *
 * A load that an invalidation overtook (the row was read before the change and the message came
 * while the read was in flight) is returned to its caller but not kept, so no stale row outlives
 * the message that should have removed it.
 */
export function createSharedCache<V extends NonNullable<unknown>>({
  state,
  name,
  max,
  ttlMs,
  logger,
}: {
  state: SharedState;
  name: string;
  max: number;
  ttlMs: number;
  logger: FastifyBaseLogger;
}): SharedCache<V> {
  // lru-cache reads the clock for every TTL check, unless it read it within `ttlResolution` ms;
  // each fresh reading also arms a timer that forgets it. At its default (1 ms), a busy instance
  // armed two such timers a millisecond (sessions and users) to age entries whose TTL is 15 s.
  const values = new LRUCache<string, V>({ max, ttl: ttlMs, ttlResolution: TTL_RESOLUTION_MS });
  // Bumped by every invalidation: a load compares it before and after.
  let generation = 0;
  const listeners = new Set<(key: string | null) => void>();
  const drop = (key: string) => {
    generation += 1;
    if (key === EVERYTHING) values.clear();
    else values.delete(key);
    for (const listener of listeners) listener(key === EVERYTHING ? null : key);
  };
  const channel = `cache:${name}`;
  state.subscribe(channel, drop, () => drop(EVERYTHING));

  async function announce(key: string): Promise<void> {
    drop(key);
    try {
      await state.publish(channel, key);
    } catch (error) {
      // The change itself is stored; other instances catch up when their copies expire.
      logger.warn({ err: error, cache: name }, 'cache invalidation could not be published');
    }
  }

  return {
    peek: (key) => values.get(key),
    async load(key, loader) {
      const cached = values.get(key);
      if (cached !== undefined) return cached;
      const before = generation;
      const value = await loader();
      if (value !== undefined && generation === before) values.set(key, value);
      return value;
    },
    invalidate: announce,
    invalidateAll: () => announce(EVERYTHING),
    onDrop(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}
