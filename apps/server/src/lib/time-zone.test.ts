import { describe, expect, it } from 'vitest';
import { startOfDay, startOfWeek } from './time-zone';

describe('startOfDay and startOfWeek', () => {
  it("are the user's midnights, not the server's", () => {
    // 01:30 UTC on Wednesday 4 March is still Tuesday the 3rd, 22:30, in São Paulo (UTC-3).
    const now = new Date('2026-03-04T01:30:00Z');
    expect(startOfDay(now, 'America/Sao_Paulo').toISOString()).toBe('2026-03-03T03:00:00.000Z');
    expect(startOfDay(now, 'UTC').toISOString()).toBe('2026-03-04T00:00:00.000Z');
    expect(startOfDay(now, 'Asia/Tokyo').toISOString()).toBe('2026-03-03T15:00:00.000Z');
    // The week starts on Monday 2 March.
    expect(startOfWeek(now, 'America/Sao_Paulo').toISOString()).toBe('2026-03-02T03:00:00.000Z');
    expect(startOfWeek(now, 'UTC').toISOString()).toBe('2026-03-02T00:00:00.000Z');
  });

  it('follow daylight-saving changes', () => {
    // Madrid moves from UTC+1 to UTC+2 on Sunday 29 March 2026; that Monday began at UTC+1.
    const now = new Date('2026-03-29T12:00:00Z');
    expect(startOfDay(now, 'Europe/Madrid').toISOString()).toBe('2026-03-28T23:00:00.000Z');
    expect(startOfWeek(now, 'Europe/Madrid').toISOString()).toBe('2026-03-22T23:00:00.000Z');
  });
});
