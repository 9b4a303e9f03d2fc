import { executionAsyncResource } from 'node:async_hooks';
import { describe, expect, it } from 'vitest';
import { keptTickObject } from './tick-object-map';

/** An object's own keys and symbol descriptions: what its hidden class is made of. */
const shape = (object: object) => [
  ...Object.keys(object),
  ...Object.getOwnPropertySymbols(object).map((symbol) => symbol.description),
];

describe('keptTickObject', () => {
  it("is one of process.nextTick's tick objects, shaped as the ones made later", async () => {
    const fresh = await new Promise<object>((resolve) =>
      process.nextTick(() => resolve(executionAsyncResource())),
    );
    const kept = keptTickObject();
    if (!kept) throw new Error('no tick object kept');
    expect(kept).not.toBe(fresh);
    // If Node stopped handing out the tick object here, the kept object would keep nothing useful.
    expect(shape(kept)).toEqual(['callback', 'args', 'async_id_symbol', 'trigger_async_id_symbol']);
    expect(shape(fresh)).toEqual(shape(kept));
  });
});
