import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { createSharedState, type SharedState } from './shared-state';

// In memory always; in Redis too where TEST_REDIS_URL names one (.ci/run sets it).
const redis = process.env.TEST_REDIS_URL ? new Redis(process.env.TEST_REDIS_URL) : undefined;
const states: [string, SharedState][] = [['memory', createSharedState({ keyPrefix: `test-${randomUUID()}` })]];
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
});
