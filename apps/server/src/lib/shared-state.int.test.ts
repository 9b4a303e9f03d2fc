import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { eventually } from '../../test/eventually';
import { whenLapsed } from '../../test/locks';
import { REDIS_OPTIONS } from './redis';
import { createSharedState, MAX_COUNTER_SECONDS, type SharedState } from './shared-state';

// In memory always; in Redis too where TEST_REDIS_URL names one (.ci/run sets it).
const redis = process.env.TEST_REDIS_URL
  ? new Redis(process.env.TEST_REDIS_URL, REDIS_OPTIONS)
  : undefined;
const states: [string, SharedState][] = [
  ['memory', createSharedState({ keyPrefix: `test-${randomUUID()}` })],
];
if (redis) states.push(['redis', createSharedState({ redis, keyPrefix: `test-${randomUUID()}` })]);

afterAll(async () => {
  for (const [, state] of states) await state.close();
  await redis?.quit();
});

describe.each(states)('locks (%s)', (_kind, state) => {
  it('are held by one taker at a time, and seen as held until released', async () => {
    const name = `lock-${randomUUID()}`;
    expect(await state.isLocked(name)).toBe(false);
    const first = await state.tryLock(name);
    expect(first).toBeDefined();
    expect(await state.isLocked(name)).toBe(true);
    expect(await state.tryLock(name)).toBeUndefined();
    await first!.release();
    expect(await state.isLocked(name)).toBe(false);
    const second = await state.tryLock(name);
    expect(second).toBeDefined();
    await second!.release();
  });

  it('that lapsed and were taken by another holder: the old holder is told once, and neither extends nor releases them', async () => {
    const name = `lock-${randomUUID()}`;
    let lost = 0;
    const first = await state.tryLock(name, { onLost: () => (lost += 1) });
    expect(await first!.renew()).toBe(true);
    const second = await whenLapsed(state, name, () => state.tryLock(name));
    expect(second).toBeDefined();

    expect(await first!.renew()).toBe(false);
    expect(await first!.renew()).toBe(false);
    expect(lost).toBe(1);
    await first!.release();
    expect(await state.isLocked(name)).toBe(true);
    expect(await state.tryLock(name)).toBeUndefined();
    await second!.release();
    expect(await state.isLocked(name)).toBe(false);
  });

  it('taken by another holder: the keep-alive finds out by itself', async () => {
    const name = `lock-${randomUUID()}`;
    let onLost!: () => void;
    const lost = new Promise<void>((resolve) => (onLost = resolve));
    // Renewed every 100 ms.
    const first = await state.tryLock(name, { ttlMs: 300, onLost });
    const second = await whenLapsed(state, name, () => state.tryLock(name));
    expect(second).toBeDefined();
    await lost;
    await first!.release();
    expect(await state.isLocked(name)).toBe(true);
    await second!.release();
  });

  it('that lapsed and that nobody took are taken back by their next renewal', async () => {
    const name = `lock-${randomUUID()}`;
    let lost = 0;
    const lock = await state.tryLock(name, { onLost: () => (lost += 1) });
    expect(await whenLapsed(state, name, () => lock!.renew())).toBe(true);
    expect(await state.isLocked(name)).toBe(true);
    expect(await state.tryLock(name)).toBeUndefined();
    expect(lost).toBe(0);
    await lock!.release();
    expect(await state.isLocked(name)).toBe(false);
  });
});

describe.each(states)('values (%s)', (_kind, state) => {
  it('are read back as stored, replaced by the next write, and forgotten once expired', async () => {
    const name = `value-${randomUUID()}`;
    expect(await state.getValue(name)).toBeUndefined();
    await state.setValue(name, '{"turns":1}', 60_000);
    expect(await state.getValue(name)).toBe('{"turns":1}');
    await state.setValue(name, '{"turns":2}', 60_000);
    expect(await state.getValue(name)).toBe('{"turns":2}');
    // A write sets a new expiry: the short one now applies.
    await state.setValue(name, 'short-lived', 50);
    await eventually(async () => (await state.getValue(name)) === undefined, 'the value expires');
    expect(await state.getValue(`value-${randomUUID()}`)).toBeUndefined();
  });

  it('kept: the first value stays for every later taker, its expiry extended, until deleted or expired', async () => {
    const name = `kept-${randomUUID()}`;
    const takers = await Promise.all(
      ['a', 'b', 'c'].map((value) => state.keepValue(name, value, 60_000)),
    );
    // Whoever came first, every taker got the same value.
    expect(new Set(takers).size).toBe(1);
    expect(await state.keepValue(name, 'later', 60_000)).toBe(takers[0]);
    expect(await state.getValue(name)).toBe(takers[0]);
    await state.deleteValue(name);
    expect(await state.getValue(name)).toBeUndefined();
    expect(await state.keepValue(name, 'anew', 50)).toBe('anew');
    await eventually(
      async () => (await state.getValue(name)) === undefined,
      'the kept value expires',
    );
    expect(await state.keepValue(name, 'after expiry', 60_000)).toBe('after expiry');
  });
});

describe.each(states)('maps of entries (%s)', (_kind, state) => {
  it('hold each key its own value until it is deleted or expires', async () => {
    const map = `map-${randomUUID()}`;
    expect(await state.entries(map)).toEqual(new Map());
    await state.setEntry(map, 'instance-a', '3', 60_000);
    await state.setEntry(map, 'instance-b', '4', 60_000);
    await state.setEntry(map, 'instance-a', '5', 60_000);
    expect(await state.entries(map)).toEqual(
      new Map([
        ['instance-a', '5'],
        ['instance-b', '4'],
      ]),
    );
    await state.deleteEntry(map, 'instance-a');
    expect(await state.entries(map)).toEqual(new Map([['instance-b', '4']]));
    // An instance that stops setting its entry (it died) drops out by itself.
    await state.setEntry(map, 'instance-c', '1', 50);
    await eventually(
      async () => !(await state.entries(map)).has('instance-c'),
      'the short-lived entry expires',
    );
    expect(await state.entries(map)).toEqual(new Map([['instance-b', '4']]));
  });
});

describe.each(states)('counters (%s)', (_kind, state) => {
  // RateLimiterMemory expires keys with setTimeout, which fires at once past 2^31 - 1 ms: a
  // 30-day window would forget each count as soon as it was made. Redis is held to the same.
  it('refuse a window longer than a timer can wait', () => {
    expect(() =>
      state.counter({ name: 'too-long', points: 1, durationSeconds: 30 * 24 * 60 * 60 }),
    ).toThrow(/longer than/);
  });
});

describe('counters in memory', () => {
  it('keep a count for the longest window they take', async () => {
    const state = states[0]![1];
    vi.useFakeTimers();
    try {
      const longest = state.counter({
        name: 'longest',
        points: 5,
        durationSeconds: MAX_COUNTER_SECONDS,
      });
      await longest.consume('key');
      vi.advanceTimersByTime(60_000);
      expect((await longest.get('key'))?.consumedPoints).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });
});
