import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { defaultExclude, defineConfig } from 'vitest/config';

const dir = (p: string) => fileURLToPath(new URL(p, import.meta.url));

// Unit and integration tests (browser journeys run under Playwright: apps/web/e2e).
export default defineConfig(({ mode }) => {
  // `npm run test:unit` (`vitest run --mode unit`): the unit tests alone. The slow suites, named
  // *.int.test.* (a database, a server process, a build, or a whole page of the web app driven
  // through its journeys against a fake API), stay out, and so does what only they need: the
  // migrated PGlite template the server's global setup builds.
  const unit = mode === 'unit';
  const exclude = unit ? [...defaultExclude, '**/*.int.test.*'] : defaultExclude;
  return {
    test: {
      // Vitest leaves a core to itself by default; the unit tests spend nothing outside their
      // workers, so they take every core (both, on the 2-core CI machine).
      ...(unit ? { maxWorkers: os.availableParallelism() } : {}),
      projects: [
        {
          resolve: { alias: { '@/': dir('./apps/server/src/') } },
          test: {
            name: 'server',
            include: ['apps/server/**/*.test.ts'],
            exclude: [...defaultExclude, '**/*.int.test.*'],
            environment: 'node',
            // Some start a thread or a child process (the monitor's sampler takes seconds to
            // start on CI's 2 cores shared by three lanes): Vitest's 5 s would fail them for
            // waiting their turn. A timeout is for a test that hangs.
            testTimeout: 30_000,
          },
        },
        // The server's integration suites: each file builds its apps, databases and fake servers
        // in its tests' hooks and closes them, so one worker runs file after file in one process
        // and loads Fastify, Baileys, Drizzle and PGlite once, not once per file (a third of the
        // run went to that). The unit tests above stay isolated: some mock a module or look at
        // the process's own first objects.
        ...(unit
          ? []
          : [
              {
                resolve: { alias: { '@/': dir('./apps/server/src/') } },
                test: {
                  name: 'server-int',
                  include: ['apps/server/**/*.int.test.ts'],
                  environment: 'node',
                  globalSetup: ['apps/server/test/global-setup.ts'],
                  isolate: false,
                  // A timeout is for a test that hangs, not one that waits its turn for a core:
                  // the suites that start two apps (a restart, two instances) take 20 to 25 s
                  // alone, and past 30 s on CI's 2 cores shared by three lanes. Each wait inside a
                  // test has its own deadline, which names what never came.
                  testTimeout: 90_000,
                  hookTimeout: 90_000,
                },
              },
            ]),
        {
          resolve: { alias: { '@/': dir('./apps/web/src/') } },
          test: {
            name: 'web',
            include: ['apps/web/src/**/*.test.{ts,tsx}'],
            exclude,
            // Logic tests run on Node; component tests (*.test.tsx) ask for happy-dom in their first
            // line (`// @vitest-environment happy-dom`), so `--project web` runs both kinds.
            environment: 'node',
            setupFiles: ['apps/web/src/test/setup.ts'],
            // A worker runs file after file in one process, so React, the DOM and the libraries
            // are loaded and compiled once instead of once per file, which was most of this
            // project's time. What a file leaves behind does not reach the next: setup.ts
            // imports the app's modules afresh for each file and empties the document, and the
            // libraries that keep state the tests read (i18next's languages and texts, zod's
            // configuration) run through Vite (inlined), so each file gets its own of them too.
            isolate: false,
            server: { deps: { inline: ['i18next', 'react-i18next', 'zod'] } },
            // A page of 120 cards takes seconds on a loaded 2-core machine; a timeout is for a
            // test that hangs, not for one that waits its turn for a core.
            testTimeout: 15_000,
          },
        },
        {
          test: {
            name: 'shared',
            include: ['packages/shared/**/*.test.ts'],
            exclude,
            environment: 'node',
          },
        },
      ],
    },
  };
});
