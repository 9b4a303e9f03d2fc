/**
 * Calls made one statement at a time, each statement carrying every call that came while the one
 * before it ran (a group commit, or a batched read): under load many calls share a round trip,
 * and a call that finds nothing running goes at once, so a quiet server waits for nothing. Each
 * call resolves with its own answer once the statement that carried it is done; a statement that
 * fails fails every call it carried. `run` answers one result per item, in the items' order.
 */
export function grouped<I, O>(run: (items: I[]) => Promise<O[]>, maxItems: number): (item: I) => Promise<O> {
  const waiting: { item: I; resolve: (result: O) => void; reject: (error: unknown) => void }[] = [];
  let running = false;

  async function drain() {
    running = true;
    try {
      while (waiting.length > 0) {
        const group = waiting.splice(0, maxItems);
        try {
          const results = await run(group.map((call) => call.item));
          group.forEach((call, index) => call.resolve(results[index]!));
        } catch (error) {
          for (const call of group) call.reject(error);
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
