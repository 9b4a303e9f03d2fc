// Midnights in a user's time zone, as instants: "today" and "this week" are the user's, not the
// server's. Intl is the only zone database needed; no dependency.

const partsFormats = new Map<string, Intl.DateTimeFormat>();

/** How far `timeZone`'s wall clock is ahead of UTC at `at`, in milliseconds. */
function offsetAt(at: Date, timeZone: string): number {
  let format = partsFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    partsFormats.set(timeZone, format);
  }
  const parts = Object.fromEntries(
    format.formatToParts(at).map((part) => [part.type, Number(part.value)]),
  ) as Record<string, number>;
  const wall = Date.UTC(
    parts.year!,
    parts.month! - 1,
    parts.day!,
    parts.hour!,
    parts.minute!,
    parts.second!,
  );
  return wall - (at.getTime() - at.getMilliseconds());
}

/** The instant the wall-clock midnight `days` days before `now`'s date began in `timeZone`. */
function midnight(now: Date, timeZone: string, days: number): Date {
  const wall = new Date(now.getTime() + offsetAt(now, timeZone));
  const wallMidnight = Date.UTC(
    wall.getUTCFullYear(),
    wall.getUTCMonth(),
    wall.getUTCDate() - days,
  );
  // The offset at midnight may differ from now's (a daylight-saving change in between).
  const guess = new Date(wallMidnight - offsetAt(now, timeZone));
  return new Date(wallMidnight - offsetAt(guess, timeZone));
}

/** The start of `now`'s day in `timeZone`. */
export function startOfDay(now: Date, timeZone: string): Date {
  return midnight(now, timeZone, 0);
}

/** The start of `now`'s week (Monday, as in Brazil's and Spain's calendars) in `timeZone`. */
export function startOfWeek(now: Date, timeZone: string): Date {
  const wall = new Date(now.getTime() + offsetAt(now, timeZone));
  return midnight(now, timeZone, (wall.getUTCDay() + 6) % 7);
}

/** A moment as a wall clock in a zone: its calendar date, its weekday (0 Sunday) and minutes since midnight. */
export type WallClock = { date: string; day: number; minutes: number };

/** What the clocks on the walls of `timeZone` show at `at`. */
export function wallClock(at: Date, timeZone: string): WallClock {
  const wall = new Date(at.getTime() + offsetAt(at, timeZone));
  return {
    date: wall.toISOString().slice(0, 10),
    day: wall.getUTCDay(),
    minutes: wall.getUTCHours() * 60 + wall.getUTCMinutes(),
  };
}
