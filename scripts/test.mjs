// `npm test`: lint, format check, type-check, unit and integration tests (Vitest, on PGlite, and on PostgreSQL
// and Redis too when TEST_DATABASE_URL / TEST_REDIS_URL are set), a production build, and the
// browser journeys (Playwright driving Debian's Chromium). Ends with one "N passed, N failed" line.
import { spawnSync } from 'node:child_process';
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

let ok = step('lint', bin('eslint'), ['.', '--max-warnings=0']);
// One layout, Prettier's: a tree that drifts from it fails here, not in review.
ok = step('format', bin('prettier'), ['--check', '.', '--log-level=warn']) && ok;
ok = step('type-check', 'npm', ['run', 'typecheck', '--silent']) && ok;
if (!ok) {
  failed += 1;
  finish(false);
}

function vitest(title, args, env) {
  const report = path.join(reports, `vitest-${title.replace(/\W+/g, '-')}.json`);
  const success = step(
    title,
    bin('vitest'),
    ['run', ...args, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`],
    env,
  );
  if (fs.existsSync(report)) {
    const result = JSON.parse(fs.readFileSync(report, 'utf8'));
    passed += result.numPassedTests;
    failed += result.numFailedTests;
  } else if (!success) failed += 1;
  return success;
}

// Every database-backed suite runs on embedded PGlite, and again on the servers when configured.
const onServers = {
  TEST_DATABASE_URL: process.env.TEST_DATABASE_URL,
  TEST_REDIS_URL: process.env.TEST_REDIS_URL,
};
ok =
  vitest('unit and integration tests (PGlite)', [], {
    TEST_DATABASE_URL: '',
    TEST_REDIS_URL: '',
  }) && ok;
if (onServers.TEST_DATABASE_URL || onServers.TEST_REDIS_URL) {
  ok =
    vitest('server integration tests (PostgreSQL/Redis)', ['--project', 'server'], onServers) && ok;
}

ok = step('build', 'npm', ['run', 'build', '--silent']) && ok;
ensureChromium();
// The JavaScript /login loads stays within its budget: counted as one test.
const withinBudget = step('/login JavaScript budget', process.execPath, [
  'scripts/login-weight.mjs',
]);
if (withinBudget) passed += 1;
else failed += 1;
ok = withinBudget && ok;
const e2eReport = path.join(reports, 'e2e.json');
ok =
  step('browser tests', bin('playwright'), ['test', '-c', 'apps/web/playwright.config.ts'], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: e2eReport,
  }) && ok;
if (fs.existsSync(e2eReport)) {
  const { stats } = JSON.parse(fs.readFileSync(e2eReport, 'utf8'));
  passed += stats.expected;
  failed += stats.unexpected + stats.flaky;
} else if (!ok) failed += 1;

finish(ok);
