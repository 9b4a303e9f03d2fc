/**
 * Calls made one statement at a time, each statement carrying every call that came while the one
 * before it ran (a group commit, or a batched read): under load many calls share a round trip,
 * and a call that finds nothing running goes at once, so a quiet server waits for nothing. Each
 * call resolves with its own answer once the statement that carried it is done; a statement that
 * fails fails every call it carried, unless `retryAlone` says the failure may be one item's
 * doing (the database refused a value): then each call is run again on its own, in order, and
 * gets its own answer or error, so one caller's bad item fails no other caller. `run` answers one
 * result per item, in the items' order, and must be all or nothing (one statement) for a retry
 * to be safe.
 */
export function grouped<I, O>(
  run: (items: I[]) => Promise<O[]>,
  maxItems: number,
  { retryAlone }: { retryAlone?: (error: unknown) => boolean } = {},
): (item: I) => Promise<O> {
  type Call = { item: I; resolve: (result: O) => void; reject: (error: unknown) => void };
  const waiting: Call[] = [];
  let running = false;

  async function carry(group: Call[]) {
    const results = await run(group.map((call) => call.item));
    group.forEach((call, index) => call.resolve(results[index]!));
  }

  async function drain() {
    running = true;
    try {
      while (waiting.length > 0) {
        const group = waiting.splice(0, maxItems);
        try {
          await carry(group);
        } catch (error) {
          if (group.length > 1 && retryAlone?.(error)) {
            for (const call of group) await carry([call]).catch(call.reject);
          } else {
            for (const call of group) call.reject(error);
          }
        }
      }
    } finally {
      running = false;
    }
  }

  return (item) =>
    new Promise<O>((resolve, reject) => {
      waiting.push({ item, resolve, reject });
      if (!running) void drain();
    });
}
