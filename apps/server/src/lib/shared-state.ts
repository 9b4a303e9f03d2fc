import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import type { Redis } from 'ioredis';
import {
  RateLimiterMemory,
  RateLimiterRedis,
  RateLimiterRes,
  type RateLimiterAbstract,
} from 'rate-limiter-flexible';
import { retryLater } from './errors';

/** A lock held until released; it is kept alive while held and lapses if its holder dies. */
export type Lock = {
  release: () => Promise<void>;
  /**
   * Extends the lock now (the keep-alive does so every third of its TTL): false once it is no
   * longer ours, because it lapsed and another holder took it. A lock that lapsed and that nobody
   * took (Redis was flushed, or expired it while this process was paused) is taken back.
   */
  renew: () => Promise<boolean>;
};

/**
 * State that requests share: counters with expiry, short locks and publish/subscribe. In memory for
 * a single process; in Redis when REDIS_URL is set, so that every instance sees the same counts,
 * locks and messages. The platform plugin makes the one instance every feature uses: no feature
 * chooses.
 */
export interface SharedState {
  readonly kind: 'memory' | 'redis';
  /** The Redis client, for a library that keeps its own state in Redis (the route rate limits). */
  readonly redis: Redis | undefined;
  /** Keys are named under this prefix, so apps sharing one Redis keep theirs apart. */
  readonly keyPrefix: string;
  /**
   * Counts events per key over a window (rate-limiter-flexible): rate limits, login throttles.
   * A window (and a duration given per call) is at most MAX_COUNTER_SECONDS.
   */
  counter(options: { name: string; points: number; durationSeconds: number }): RateLimiterAbstract;
  /**
   * Takes the lock `name` if nobody holds it; undefined if somebody does. `onLost` is called once
   * if a renewal finds that another holder has it now; the lock is not renewed after that.
   */
  tryLock(
    name: string,
    options?: { ttlMs?: number; onLost?: () => void },
  ): Promise<Lock | undefined>;
  /** Whether somebody holds the lock `name` now. */
  isLocked(name: string): Promise<boolean>;
  /** The value stored under `name`, unless it expired (or was never stored). */
  getValue(name: string): Promise<string | undefined>;
  /** Stores `value` under `name` for `ttlMs`, replacing what was there and its expiry. */
  setValue(name: string, value: string, ttlMs: number): Promise<void>;
  /**
   * Stores `value` under `name` unless a value is there already, which is kept; either way the one
   * stored now expires `ttlMs` from now. Answers the value kept (one step: of instances racing,
   * every one gets the first value stored).
   */
  keepValue(name: string, value: string, ttlMs: number): Promise<string>;
  /** Forgets the value under `name`. */
  deleteValue(name: string): Promise<void>;
  /**
   * Sets `key`'s entry in the map `map` for `ttlMs`: a map where each instance keeps its own
   * figure (its open sockets) under its own key, and an instance that dies drops out by itself.
   */
  setEntry(map: string, key: string, value: string, ttlMs: number): Promise<void>;
  /** Removes `key`'s entry from the map `map`. */
  deleteEntry(map: string, key: string): Promise<void>;
  /** The map's entries that have not expired, by key. */
  entries(map: string): Promise<Map<string, string>>;
  /** Sends a message to every subscriber of `channel` on every instance, this one included. */
  publish(channel: string, message: string): Promise<void>;
  /**
   * Calls `onMessage` for each message on `channel`. `onResync` runs when messages may have been
   * missed (the subscriber connection dropped and came back): caches then start afresh.
   * Returns the unsubscribe function.
   */
  subscribe(
    channel: string,
    onMessage: (message: string) => void,
    onResync?: () => void,
  ): () => void;
  /** Settles once every subscription so far is in force. */
  ready(): Promise<void>;
  /** Ends this state's own connections (not the Redis client it was given). */
  close(): Promise<void>;
}

/**
 * The longest window a counter may have: RateLimiterMemory expires a key with setTimeout, which
 * Node clamps to 1 ms beyond 2^31 - 1 ms (24.8 days), so a longer one would forget at once.
 */
export const MAX_COUNTER_SECONDS = Math.floor((2 ** 31 - 1) / 1000);

function checkWindow(name: string, durationSeconds: number): void {
  if (durationSeconds > MAX_COUNTER_SECONDS) {
    throw new Error(
      `counter ${name}: a window of ${durationSeconds} s is longer than ${MAX_COUNTER_SECONDS} s`,
    );
  }
}

/** How long a lock outlives a holder that died without releasing it. */
const DEFAULT_LOCK_TTL_MS = 15_000;

export function createSharedState({
  redis,
  keyPrefix,
}: {
  redis?: Redis;
  keyPrefix: string;
}): SharedState {
  return redis ? redisState(redis, keyPrefix) : memoryState(keyPrefix);
}

/**
 * Keeps a held lock alive every third of its TTL until released, or until a renewal finds that
 * another holder has it (`extend` says false): then `onLost` is told, once.
 */
function keptAlive(
  ttlMs: number,
  extend: () => Promise<boolean>,
  release: () => Promise<void>,
  onLost: (() => void) | undefined,
): Lock {
  let state: 'held' | 'lost' | 'released' = 'held';
  const renew = async () => {
    if (state !== 'held') return false;
    const ours = await extend();
    if (state !== 'held') return false;
    if (!ours) {
      state = 'lost';
      clearInterval(timer);
      onLost?.();
    }
    return ours;
  };
  // A renewal that fails (Redis unreachable) says nothing: the next one tries again.
  const timer = setInterval(
    () => void renew().catch(() => {}),
    Math.max(100, Math.floor(ttlMs / 3)),
  );
  timer.unref();
  return {
    renew,
    release: async () => {
      if (state === 'released') return;
      state = 'released';
      clearInterval(timer);
      await release();
    },
  };
}

function memoryState(keyPrefix: string): SharedState {
  const locks = new Map<string, { token: string; expiresAt: number }>();
  const values = new Map<string, { value: string; expiresAt: number }>();
  const maps = new Map<string, Map<string, { value: string; expiresAt: number }>>();
  // One store per counter name, as in Redis: every user of a name shares its counts.
  const counters = new Map<string, RateLimiterMemory>();
  const bus = new EventEmitter();
  bus.setMaxListeners(0);
  return {
    kind: 'memory',
    redis: undefined,
    keyPrefix,
    counter({ name, points, durationSeconds }) {
      checkWindow(name, durationSeconds);
      const id = `${keyPrefix}:${name}:${points}:${durationSeconds}`;
      let counter = counters.get(id);
      if (!counter) {
        counter = new RateLimiterMemory({
          points,
          duration: durationSeconds,
          keyPrefix: `${keyPrefix}:${name}`,
        });
        counters.set(id, counter);
      }
      return counter;
    },
    async tryLock(name, { ttlMs = DEFAULT_LOCK_TTL_MS, onLost } = {}) {
      const now = Date.now();
      const held = locks.get(name);
      if (held && held.expiresAt > now) return undefined;
      const token = randomUUID();
      locks.set(name, { token, expiresAt: now + ttlMs });
      return keptAlive(
        ttlMs,
        async () => {
          // As in Redis, where a lapsed lock is a missing key: ours unless another holder took it.
          const current = locks.get(name);
          const at = Date.now();
          if (current && current.token !== token && current.expiresAt > at) return false;
          locks.set(name, { token, expiresAt: at + ttlMs });
          return true;
        },
        async () => {
          if (locks.get(name)?.token === token) locks.delete(name);
        },
        onLost,
      );
    },
    async isLocked(name) {
      const held = locks.get(name);
      return held !== undefined && held.expiresAt > Date.now();
    },
    async getValue(name) {
      const stored = values.get(name);
      if (!stored) return undefined;
      if (stored.expiresAt > Date.now()) return stored.value;
      values.delete(name);
      return undefined;
    },
    async setValue(name, value, ttlMs) {
      const now = Date.now();
      // Expired values go as new ones come, as Redis forgets them: the map holds only live ones.
      for (const [key, stored] of values) if (stored.expiresAt <= now) values.delete(key);
      values.set(name, { value, expiresAt: now + ttlMs });
    },
    async keepValue(name, value, ttlMs) {
      const now = Date.now();
      const stored = values.get(name);
      const kept = stored && stored.expiresAt > now ? stored.value : value;
      values.set(name, { value: kept, expiresAt: now + ttlMs });
      return kept;
    },
    async deleteValue(name) {
      values.delete(name);
    },
    async setEntry(map, key, value, ttlMs) {
      let entries = maps.get(map);
      if (!entries) maps.set(map, (entries = new Map()));
      entries.set(key, { value, expiresAt: Date.now() + ttlMs });
    },
    async deleteEntry(map, key) {
      maps.get(map)?.delete(key);
    },
    async entries(map) {
      const now = Date.now();
      const live = new Map<string, string>();
      for (const [key, entry] of maps.get(map) ?? []) {
        if (entry.expiresAt > now) live.set(key, entry.value);
        else maps.get(map)?.delete(key);
      }
      return live;
    },
    async publish(channel, message) {
      // Delivered after the caller goes on, as Redis delivers it.
      setImmediate(() => bus.emit(channel, message));
    },
    subscribe(channel, onMessage) {
      bus.on(channel, onMessage);
      return () => void bus.off(channel, onMessage);
    },
    ready: async () => {},
    close: async () => {
      bus.removeAllListeners();
      locks.clear();
      values.clear();
      maps.clear();
      counters.clear();
    },
  };
}

// Both compare the holder's token, so a lock that lapsed and was taken by another holder is never
// extended or deleted by the old one. A renewal takes back a lock whose key is gone (it lapsed, or
// Redis lost it) and that nobody took meanwhile: its holder still acts as the owner, and making it
// stop would only leave the work undone until someone else took the lock.
const RENEW = `local held = redis.call('get', KEYS[1])
if held == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) end
if not held then redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2]) return 1 end
return 0`;
const RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;
const KEEP = `local held = redis.call('get', KEYS[1])
if held then redis.call('pexpire', KEYS[1], ARGV[2]) return held end
redis.call('set', KEYS[1], ARGV[1], 'PX', ARGV[2])
return ARGV[1]`;
// Sets the field and makes the hash live at least `ttlMs` more (PEXPIRE's GT option needs Redis 7).
const SET_ENTRY = `redis.call('hset', KEYS[1], ARGV[1], ARGV[2])
if redis.call('pttl', KEYS[1]) < tonumber(ARGV[3]) then redis.call('pexpire', KEYS[1], ARGV[3]) end
return 1`;

function redisState(redis: Redis, keyPrefix: string): SharedState {
  // A connection in subscriber mode can do nothing else, so messages get one of their own.
  const subscriber = redis.duplicate({ enableAutoPipelining: false });
  const handlers = new Map<string, Set<(message: string) => void>>();
  const resyncs = new Set<() => void>();
  const pending = new Set<Promise<unknown>>();
  const channelName = (channel: string) => `${keyPrefix}:bus:${channel}`;

  subscriber.on('message', (channel: string, message: string) => {
    for (const handler of handlers.get(channel) ?? []) handler(message);
  });
  // Errors are reported on the main client; this one reconnects by itself.
  subscriber.on('error', () => {});
  let connectedOnce = false;
  subscriber.on('ready', () => {
    // ioredis subscribes again by itself after a reconnection; what was published meanwhile is lost.
    if (connectedOnce) for (const resync of resyncs) resync();
    connectedOnce = true;
  });

  return {
    kind: 'redis',
    redis,
    keyPrefix,
    counter({ name, points, durationSeconds }) {
      // Redis could keep a longer one, but a setting must mean the same in both stores.
      checkWindow(name, durationSeconds);
      return new RateLimiterRedis({
        storeClient: redis,
        points,
        duration: durationSeconds,
        keyPrefix: `${keyPrefix}:${name}`,
      });
    },
    async tryLock(name, { ttlMs = DEFAULT_LOCK_TTL_MS, onLost } = {}) {
      const key = `${keyPrefix}:lock:${name}`;
      const token = randomUUID();
      const taken = await redis.set(key, token, 'PX', ttlMs, 'NX');
      if (taken !== 'OK') return undefined;
      return keptAlive(
        ttlMs,
        async () => (await redis.eval(RENEW, 1, key, token, ttlMs)) === 1,
        async () => {
          await redis.eval(RELEASE, 1, key, token);
        },
        onLost,
      );
    },
    async isLocked(name) {
      return (await redis.exists(`${keyPrefix}:lock:${name}`)) === 1;
    },
    async getValue(name) {
      return (await redis.get(`${keyPrefix}:value:${name}`)) ?? undefined;
    },
    async setValue(name, value, ttlMs) {
      await redis.set(`${keyPrefix}:value:${name}`, value, 'PX', ttlMs);
    },
    async keepValue(name, value, ttlMs) {
      return String(await redis.eval(KEEP, 1, `${keyPrefix}:value:${name}`, value, ttlMs));
    },
    async deleteValue(name) {
      await redis.del(`${keyPrefix}:value:${name}`);
    },
    // A hash of entries, each with its expiry beside its value (Redis expires only whole keys);
    // the hash itself goes once no entry has been set for the longest TTL given.
    async setEntry(map, key, value, ttlMs) {
      await redis.eval(
        SET_ENTRY,
        1,
        `${keyPrefix}:map:${map}`,
        key,
        JSON.stringify({ value, expiresAt: Date.now() + ttlMs }),
        ttlMs,
      );
    },
    async deleteEntry(map, key) {
      await redis.hdel(`${keyPrefix}:map:${map}`, key);
    },
    async entries(map) {
      const name = `${keyPrefix}:map:${map}`;
      const now = Date.now();
      const live = new Map<string, string>();
      const expired: string[] = [];
      for (const [key, stored] of Object.entries(await redis.hgetall(name))) {
        const entry = parseEntry(stored);
        if (entry && entry.expiresAt > now) live.set(key, entry.value);
        else expired.push(key);
      }
      if (expired.length > 0) await redis.hdel(name, ...expired);
      return live;
    },
    async publish(channel, message) {
      await redis.publish(channelName(channel), message);
    },
    subscribe(channel, onMessage, onResync) {
      const name = channelName(channel);
      let set = handlers.get(name);
      if (!set) {
        set = new Set();
        handlers.set(name, set);
        const subscribing = subscriber.subscribe(name);
        pending.add(subscribing);
        void subscribing.catch(() => {}).finally(() => pending.delete(subscribing));
      }
      set.add(onMessage);
      if (onResync) resyncs.add(onResync);
      return () => {
        set.delete(onMessage);
        if (onResync) resyncs.delete(onResync);
      };
    },
    async ready() {
      await Promise.all(pending);
    },
    async close() {
      handlers.clear();
      resyncs.clear();
      await subscriber.quit().catch(() => subscriber.disconnect());
    },
  };
}

function parseEntry(stored: string): { value: string; expiresAt: number } | undefined {
  try {
    const entry = JSON.parse(stored) as { value?: unknown; expiresAt?: unknown };
    return typeof entry.value === 'string' && typeof entry.expiresAt === 'number'
      ? { value: entry.value, expiresAt: entry.expiresAt }
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Takes one point of `counter` for `key`, or throws the 429 `retryLater(messageKey, …)` with the
 * wait the counter gives (`count` turns its seconds into the message's figure). A failure of the
 * store itself is thrown as it is.
 */
export async function takeOrRetryLater(
  counter: RateLimiterAbstract,
  key: string,
  messageKey: string,
  count?: (seconds: number) => number,
): Promise<void> {
  try {
    await counter.consume(key);
  } catch (error) {
    if (!(error instanceof RateLimiterRes)) throw error;
    throw retryLater(messageKey, error.msBeforeNext, count);
  }
}
