import type { FastifyBaseLogger } from 'fastify';
import type { Clock } from '@/lib/clock';
import type { EventLog } from '@/lib/event-log';
import type { SharedState } from '@/lib/shared-state';

/** How long one summary's window is. */
const WINDOW_MS = 60_000;
/** How long a window's count and the last window with refusals are kept. */
const KEEP_SECONDS = 24 * 60 * 60;
/** The last minute (its number since the epoch) that had refusals, of every instance. */
const LAST_WINDOW = 'logs-refusals-last-window';

/**
 * Expected refusals (the maintenance 503) as the stored log keeps them: not one error per request
 * (5 s of anonymous requests once made 16,647), but one `info` summary per minute with the count.
 * Counted in the shared state per minute, so that every instance adds to one figure. No timer
 * writes the summary: the first refusal of a minute (the counter says 1 to exactly one caller, of
 * every instance's) reports the last minute that had any, which it reads from the shared state
 * and replaces with its own. A minute's summary is therefore written once, when the next refusal
 * comes; refusals that stop for good leave their last minute unreported until maintenance is on
 * again, which is said in the summary's `from`/`to` (the minute it counts).
 */
export function createRefusalCounter({
  state,
  clock,
  eventLog,
  logger,
}: {
  state: SharedState;
  clock: Clock;
  eventLog: EventLog;
  logger: FastifyBaseLogger;
}) {
  // Points enough never to refuse: this counter only counts.
  const counter = state.counter({
    name: 'logs-maintenance-refusals',
    points: 2 ** 31 - 1,
    durationSeconds: KEEP_SECONDS,
  });

  async function count(): Promise<void> {
    const window = Math.floor(clock.now().getTime() / WINDOW_MS);
    const { consumedPoints } = await counter.consume(String(window));
    if (consumedPoints !== 1) return;
    const last = Number(await state.getValue(LAST_WINDOW));
    await state.setValue(LAST_WINDOW, String(window), KEEP_SECONDS * 1000);
    if (!Number.isSafeInteger(last) || last <= 0 || last >= window) return;
    const total = (await counter.get(String(last)))?.consumedPoints ?? 0;
    if (total <= 0) return;
    eventLog.record({
      level: 'info',
      category: 'server',
      event: 'http.maintenance_refused',
      message: `${total} requests refused during maintenance`,
      context: {
        count: total,
        from: new Date(last * WINDOW_MS).toISOString(),
        to: new Date((last + 1) * WINDOW_MS).toISOString(),
      },
    });
  }

  return {
    /** Counts one refusal; returns at once and never throws (a failure goes to the server's own log). */
    refused(): void {
      count().catch((error: unknown) =>
        logger.debug({ err: error }, 'maintenance refusal not counted'),
      );
    },
  };
}
