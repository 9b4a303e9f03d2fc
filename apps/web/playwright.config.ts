import { defineConfig } from '@playwright/test';

// Browser journeys against the built app (npm run build), driving Debian's Chromium; each worker
// starts its own server on a fresh embedded database with a real SMTP server beside it
// (e2e/fixtures.ts).
export default defineConfig({
  testDir: './e2e',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  // Deadlines for a page that hangs, not for one that waits its turn for a core: the journeys run
  // beside two other lanes on CI's 2 cores, where a first page load with its chunks, or a journey
  // at two screen sizes with axe, has taken past 7 s and 45 s.
  timeout: 90_000,
  expect: { timeout: 15_000 },
  reporter: [['list'], ['json']],
  outputDir: '../../test-results',
  use: {
    browserName: 'chromium',
    locale: 'pt-BR',
    viewport: { width: 1280, height: 800 },
    trace: 'off',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH || '/usr/bin/chromium',
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        // The brand domains of the language tests resolve to this machine.
        '--host-resolver-rules=MAP br.contrateia.test 127.0.0.1, MAP en.contrateia.test 127.0.0.1',
      ],
    },
  },
});
