import { afterAll, describe, expect, it } from 'vitest';
import './zod-config';

describe('zod-config', () => {
  // The setting is a global: the files run after this one in its worker (vitest.config.ts:
  // isolate) start without it, as they would in a process of their own.
  afterAll(() => {
    delete (globalThis as { __zod_globalConfig?: unknown }).__zod_globalConfig;
  });

  it('turns off the parser compiler zod probes for with `new Function`, without importing zod', async () => {
    const { config, util, z } = await import('zod/v4/core').then(async (core) => ({
      ...core,
      z: await import('zod'),
    }));
    expect(config().jitless).toBe(true);
    // What an object schema checks when built: false without probing (Node itself allows eval).
    expect(util.allowsEval.value).toBe(false);
    expect(z.object({ name: z.string() }).parse({ name: 'Ana' })).toEqual({ name: 'Ana' });
  });
});
