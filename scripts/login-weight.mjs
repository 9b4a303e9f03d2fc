// The weight of /login, the first page most visitors load: the JavaScript and CSS Chromium
// downloads for it until the network is idle, each file gzipped at level 9 (the method of
// `npm run bench`). Run on its own (`node scripts/login-weight.mjs`, after `npm run build`) it
// starts the built server on a throwaway DATA_DIR, prints each file, and fails when the
// JavaScript is over the budget: `npm test` runs it after the build, so the page stays within
// it as pages are added (a page's code belongs in its own lazily loaded chunk).
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { chromium } from 'playwright-core';
import { ensureChromium } from './ensure-chromium.mjs';

export const LOGIN_JS_BUDGET_BYTES = 120 * 1024;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

/** What Chromium loads for `${base}/login`: every script and stylesheet, gzip-9 sizes. */
export async function loginPageWeight(base) {
  const browser = await chromium.launch({
    executablePath: ensureChromium(),
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  try {
    const page = await browser.newPage();
    const pending = [];
    page.on('response', (response) => {
      const type = response.request().resourceType();
      if (type !== 'script' && type !== 'stylesheet') return;
      pending.push(
        response.body().then((body) => ({
          path: new URL(response.url()).pathname,
          type,
          gzip: zlib.gzipSync(body, { level: 9 }).length,
        })),
      );
    });
    await page.goto(`${base}/login`, { waitUntil: 'networkidle' });
    const files = await Promise.all(pending);
    const size = (type) => files.filter((f) => f.type === type).reduce((n, f) => n + f.gzip, 0);
    return { js: size('script'), css: size('stylesheet'), files };
  } finally {
    await browser.close();
  }
}

const freePort = () =>
  new Promise((resolve, reject) => {
    const probe = net.createServer().once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });

/** Starts the built server on a throwaway DATA_DIR; resolves with its address and a stop function. */
async function startServer() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'contrateia-weight-'));
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(root, 'apps/server/dist/main.js')], {
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      REDIS_URL: '',
      SMTP_URL: '',
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const stop = async () => {
    child.kill('SIGTERM');
    await exited;
    fs.rmSync(dataDir, { recursive: true, force: true });
  };
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the server exited with code ${child.exitCode}`);
    try {
      if ((await fetch(`${base}/api/health`)).ok) return { base, stop };
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stop();
      throw new Error('the server did not answer within 60 s');
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const server = await startServer();
  let weight;
  try {
    weight = await loginPageWeight(server.base);
  } finally {
    await server.stop();
  }
  for (const file of weight.files)
    console.log(
      `  ${kb(file.gzip).padStart(9)}  ${file.type === 'script' ? 'JS ' : 'CSS'} ${file.path}`,
    );
  const within = weight.js <= LOGIN_JS_BUDGET_BYTES;
  console.log(
    `/login JavaScript: ${kb(weight.js)} gzip, budget ${kb(LOGIN_JS_BUDGET_BYTES)}: ${within ? 'within' : 'OVER BUDGET'} (CSS ${kb(weight.css)})`,
  );
  if (!within) {
    console.log(
      'Keep what only some pages need out of the entry chunk: import it from the route that needs it (see apps/web/src/app/router.tsx).',
    );
  }
  process.exit(within ? 0 : 1);
}
