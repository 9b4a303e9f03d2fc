import { executionAsyncResource } from 'node:async_hooks';

/**
 * Keeps one of `process.nextTick`'s tick objects alive for the life of the process, so that the
 * hidden class (map) tick objects share is never collected. Imported first by main.ts.
 *
 * Why: Node makes every tick object with `{ [async_id_symbol]: …, [trigger_async_id_symbol]: …,
 * callback, args }`. V8 records the map each computed key is defined on, weakly; a full GC at a
 * moment when no tick is pending collects that map, the next tick object gets a new one, and the
 * site's feedback turns megamorphic for good. From then on every `nextTick` (five per HTTP
 * request, from Node's own streams) calls into V8's runtime (Runtime_DefineKeyedOwnPropertyInLiteral)
 * instead of running optimized code. Our server's start (the database, the migrations, the
 * seed) runs several full GCs: `perf` found that runtime call at 4–6 % of the main thread under
 * load in 15 of 16 server processes, and in none of 16 with one tick object kept (none in a bare
 * Fastify either). A kept object keeps its map, and its map keeps the maps it came from.
 */
const KEPT = Symbol.for('contrateia.keptTickObject');
const holder = globalThis as typeof globalThis & { [KEPT]?: object };

// Held by the global object: a module's variable that nothing reads may not outlive its module's
// evaluation. Inside a tick's callback, the execution's resource is the tick object itself.
process.nextTick(() => {
  holder[KEPT] ??= executionAsyncResource();
});

/** The tick object kept (once the first tick has run). */
export function keptTickObject(): object | undefined {
  return holder[KEPT];
}
