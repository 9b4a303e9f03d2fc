import '@testing-library/jest-dom/vitest';
import { afterAll, afterEach, beforeAll, beforeEach, vi, type MockInstance } from 'vitest';

declare global {
  // Read by React: updates outside act() are reported only where this is true.
  var IS_REACT_ACT_ENVIRONMENT: boolean | undefined;
  // happy-dom's handle on its window, in component tests.
  var happyDOM: { abort(): Promise<void> } | undefined;
}

// Only component tests (`@vitest-environment happy-dom`) have a document; the Node tests of the
// same project skip all of this.
if (typeof document !== 'undefined') {
  // Testing Library registers these hooks itself only under a runner with globals, which this
  // configuration does not enable.
  const { cleanup, configure } = await import('@testing-library/react');
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

  afterEach(() => {
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
