// `npm test`: lint, format check, type-check, unit and integration tests (Vitest, on PGlite, and on PostgreSQL
// and Redis too when TEST_DATABASE_URL / TEST_REDIS_URL are set), a production build, and the
// browser journeys (Playwright driving Debian's Chromium). Ends with one "N passed, N failed" line.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ensureChromium } from './ensure-chromium.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const reports = fs.mkdtempSync(path.join(os.tmpdir(), 'contrateia-test-'));
const bin = (name) => path.join(root, 'node_modules', '.bin', name);
let passed = 0;
let failed = 0;

function step(title, command, args, env = {}) {
  console.log(`\n▶ ${title}`);
  const started = Date.now();
  const result = spawnSync(command, args, {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, ...env },
  });
  console.log(
    `  ${title}: ${result.status === 0 ? 'ok' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  return result.status === 0;
}

function finish(ok) {
  console.log(`\n${passed} passed, ${failed} failed`);
  process.exit(ok && failed === 0 ? 0 : 1);
}

// Side by side, each mostly on one core.
let ok = (
  await Promise.all([
    task('lint', bin('eslint'), ['.', '--max-warnings=0'], {}, { quiet: true }),
    // One layout, Prettier's: a tree that drifts from it fails here, not in review.
    task('format', bin('prettier'), ['--check', '.', '--log-level=warn'], {}, { quiet: true }),
    task('type-check', 'npm', ['run', 'typecheck', '--silent'], {}, { quiet: true }),
  ])
).every(Boolean);
if (!ok) {
  failed += 1;
  finish(false);
}

// The bundle `npm start` runs and the browser tests load, built before the suites: the process
// tests start it (building it themselves only when it is out of date), so neither run of them
// rewrites it under the other.
ok = step('build', 'npm', ['run', 'build', '--silent']) && ok;

/**
 * Runs `command` beside the others; resolves whether it passed. `quiet` keeps its output in a
 * file and prints it whole when it ends, so that two runs' lines do not interleave.
 */
async function task(title, command, args, env, { quiet = false } = {}) {
  const log = path.join(reports, `${title.replace(/\W+/g, '-')}.log`);
  console.log(`\n▶ ${title}${quiet ? ' (its output follows when it ends)' : ''}`);
  const started = Date.now();
  const output = quiet ? fs.openSync(log, 'w') : 'inherit';
  const child = spawn(command, args, {
    cwd: root,
    stdio: ['ignore', output, output],
    env: { ...process.env, ...env },
  });
  const status = await new Promise((resolve) => child.on('close', (code) => resolve(code)));
  if (quiet) {
    fs.closeSync(output);
    console.log(`\n▶ ${title}: its output`);
    process.stdout.write(fs.readFileSync(log, 'utf8'));
  }
  const success = status === 0;
  console.log(
    `  ${title}: ${success ? 'ok' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
  return success;
}

/** Runs Vitest (see `task`); resolves whether it passed and adds its counts. */
async function vitest(title, args, env, options) {
  const report = path.join(reports, `vitest-${title.replace(/\W+/g, '-')}.json`);
  const success = await task(
    title,
    bin('vitest'),
    ['run', ...args, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`],
    env,
    options,
  );
  if (fs.existsSync(report)) {
    const result = JSON.parse(fs.readFileSync(report, 'utf8'));
    passed += result.numPassedTests;
    failed += result.numFailedTests;
    // Failed with every test passed (an unhandled error in the run): counted, not "0 failed".
    if (!success && result.numFailedTests === 0) failed += 1;
  } else if (!success) failed += 1;
  return success;
}

/** The /login budget (counted as one test), then the browser journeys (Playwright, Chromium). */
async function browserTests() {
  const withinBudget = await task('/login JavaScript budget', process.execPath, [
    'scripts/login-weight.mjs',
  ]);
  if (withinBudget) passed += 1;
  else failed += 1;
  const e2eReport = path.join(reports, 'e2e.json');
  const success = await task(
    'browser tests',
    bin('playwright'),
    ['test', '-c', 'apps/web/playwright.config.ts'],
    { PLAYWRIGHT_JSON_OUTPUT_NAME: e2eReport },
    { quiet: true },
  );
  if (fs.existsSync(e2eReport)) {
    const { stats } = JSON.parse(fs.readFileSync(e2eReport, 'utf8'));
    passed += stats.expected;
    failed += stats.unexpected + stats.flaky;
  } else if (!success) failed += 1;
  return withinBudget && success;
}

// Chromium first: a machine without it fails now, not after the suites.
ensureChromium();

// Three lanes on the two cores: Vitest on PGlite (every project); the server's integration
// suites again on PostgreSQL and Redis when configured; the browser journeys, then the server
// process suite on PGlite. Each lane spends much of its time waiting (on a timer, a fake server,
// a browser's frame, a server process starting), so two lanes left a third of the cores idle and
// the run took the sum of the last two; the process suite (a fifth of the PGlite lane, mostly
// its child processes starting and stopping) ends the shortest lane instead of the longest. The
// runs share nothing: each test has a database, a state and ports of its own.
const onServers = {
  TEST_DATABASE_URL: process.env.TEST_DATABASE_URL,
  TEST_REDIS_URL: process.env.TEST_REDIS_URL,
};
const onPglite = { TEST_DATABASE_URL: '', TEST_REDIS_URL: '' };
const processSuite = 'apps/server/test/process.int.test.ts';
const embedded = vitest(
  'unit and integration tests (PGlite)',
  ['--exclude', processSuite],
  onPglite,
);
const servers =
  onServers.TEST_DATABASE_URL || onServers.TEST_REDIS_URL
    ? vitest(
        'server integration tests (PostgreSQL/Redis)',
        ['--project', 'server-int'],
        onServers,
        {
          quiet: true,
        },
      )
    : Promise.resolve(true);
const browsers = browserTests().then(async (success) => {
  const processes = await vitest(
    'server process tests (PGlite)',
    ['--project', 'server-int', processSuite],
    onPglite,
    { quiet: true },
  );
  return success && processes;
});
ok = (await Promise.all([embedded, servers, browsers])).every(Boolean) && ok;

finish(ok);
