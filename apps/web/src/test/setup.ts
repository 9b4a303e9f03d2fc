import '@testing-library/jest-dom/vitest';
import { createRequire } from 'node:module';
import type * as React from 'react';
import { afterAll, afterEach, beforeAll, beforeEach, vi, type MockInstance } from 'vitest';

declare global {
  // Read by React: updates outside act() are reported only where this is true.
  var IS_REACT_ACT_ENVIRONMENT: boolean | undefined;
  // happy-dom's handle on its window, in component tests.
  var happyDOM: { abort(): Promise<void> } | undefined;
  // React.lazy's loads under way, once React's `lazy` keeps them (see below).
  var lazyLoads: Set<Promise<unknown>> | undefined;
}

// A page's chunks loaded with React.lazy (the Markdown of agents' messages, the maintenance
// screen) may still be loading when a test has seen what it waited for (the fallback shows the
// same text): each load is kept until it settles, and a component test's end waits for it inside
// act before the page is unmounted (below), so that a late chunk renders in its own test and not
// in a later one, where React's act warnings would fail whatever runs then. The app reads `lazy`
// from React's exports as they were when a file first imported React in this process, so they
// are patched once per process, before that, and the loads are kept where every file sees them.
const lazyLoads = globalThis.lazyLoads ?? keepLazyLoads();

/** Patches React's `lazy` to keep each load until it settles, in a set made for the process. */
function keepLazyLoads(): Set<Promise<unknown>> {
  const loads = (globalThis.lazyLoads = new Set());
  const react = createRequire(import.meta.url)('react') as typeof React;
  const lazy = react.lazy;
  react.lazy = ((load: Parameters<typeof lazy>[0]) =>
    lazy(() => {
      const loaded = load();
      loads.add(loaded);
      const settled = () => void loads.delete(loaded);
      loaded.then(settled, settled);
      return loaded;
    })) as typeof react.lazy;
  return loads;
}

// Only component tests (`@vitest-environment happy-dom`) have a document; the Node tests of the
// same project skip all of this.
if (typeof document !== 'undefined') {
  // Testing Library registers these hooks itself only under a runner with globals, which this
  // configuration does not enable.
  const { act, cleanup, configure } = await import('@testing-library/react');
  // findBy*/waitFor give up after this long. Longer than the 1 s default: the machines that run
  // these share their cores, and a slow pass should not read as a failure.
  configure({ asyncUtilTimeout: 3_000 });

  beforeAll(() => {
    globalThis.IS_REACT_ACT_ENVIRONMENT = true;
  });

  // React's warnings and i18n's missing-key reports go to console.error; in a component test
  // any of them is a bug, so it fails the test instead of scrolling past.
  let consoleError: MockInstance<typeof console.error>;
  beforeEach(() => {
    consoleError = vi.spyOn(console, 'error').mockImplementation(() => {});
  });

  afterEach(async () => {
    if (lazyLoads.size > 0)
      await act(async () => {
        await Promise.allSettled([...lazyLoads]);
      });
    cleanup();
    window.localStorage.clear();
    window.sessionStorage.clear();
    vi.useRealTimers();
    vi.unstubAllGlobals();
    const calls = consoleError.mock.calls;
    consoleError.mockRestore();
    if (calls.length > 0) {
      const text = calls.map((args) => args.map(String).join(' ')).join('\n---\n');
      throw new Error(`console.error was called during the test:\n${text}`);
    }
  });
}

// The files of a worker share its process (vitest.config.ts: isolate), so each one ends by
// leaving the next what a process of its own would: the app's modules (and i18next, with the
// languages and texts it loaded) to be imported afresh, an empty document, and no work of the
// DOM's still pending.
afterAll(async () => {
  vi.resetModules();
  if (typeof document !== 'undefined') {
    await globalThis.happyDOM?.abort();
    document.head.replaceChildren();
    document.body.replaceChildren();
    for (const { name } of [...document.documentElement.attributes]) {
      document.documentElement.removeAttribute(name);
    }
  }
});
