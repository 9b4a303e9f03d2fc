import { describe, expect, it } from 'vitest';
import { DEFAULT_LOGIN_LIMITS, loginDelaySeconds } from './auth.throttle';

describe('the waits after an account’s free tries', () => {
  it('double from one second with each further failure, up to five minutes', () => {
    const waits = Array.from({ length: 12 }, (_, turn) =>
      loginDelaySeconds(turn, DEFAULT_LOGIN_LIMITS),
    );
    expect(waits).toEqual([1, 2, 4, 8, 16, 32, 64, 128, 256, 300, 300, 300]);
  });

  it('stay at the cap however long a run of failures gets', () => {
    expect(loginDelaySeconds(10_000, DEFAULT_LOGIN_LIMITS)).toBe(300);
    expect(
      loginDelaySeconds(3, { ...DEFAULT_LOGIN_LIMITS, baseDelaySeconds: 2, maxDelaySeconds: 10 }),
    ).toBe(10);
  });
});
