// `npm run bench`: prints the figures the issues set targets for, all measured in this one run on
// this machine. Loopback only; every loop is bounded.
//   - GET /api/user with a valid token at 50 connections: requests/s and p99, next to a bare
//     Fastify hello-world measured the same way (target ratio >= 0.25);
//   - start-up time to the first healthy response on the embedded database (target < 2 s);
//   - gzip size of the JavaScript and CSS the browser loads for /login (target <= 150 KB).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import autocannon from 'autocannon';
import { chromium } from 'playwright-core';
import { ensureChromium } from './ensure-chromium.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const SERVER = path.join(root, 'apps/server/dist/main.js');
const DURATION_S = Number(process.env.BENCH_SECONDS ?? 10);
const children = new Set();
process.on('exit', () => children.forEach((c) => c.kill('SIGKILL')));

const freePort = () =>
  new Promise((resolve) => {
    const probe = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });

async function waitHealthy(url, child, deadlineMs = 60_000) {
  const end = Date.now() + deadlineMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not yet
    }
    if (Date.now() > end) throw new Error(`${url} not healthy within ${deadlineMs} ms`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

/** Starts the built server; resolves once /api/health answers, with the time that took. */
async function startServer(dataDir) {
  const port = await freePort();
  let output = '';
  const started = process.hrtime.bigint();
  const child = spawn(process.execPath, [SERVER], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, LOG_LEVEL: 'info', SMTP_URL: '', DATABASE_URL: '', REDIS_URL: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const base = `http://127.0.0.1:${port}`;
  await waitHealthy(`${base}/api/health`, child);
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  return {
    base,
    ms,
    output: () => output,
    stop: async () => {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
      children.delete(child);
    },
  };
}

async function post(url, body, token) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: await res.json() };
}

/** Registers through the API with the code read from the server log (no SMTP configured). */
async function registerAndLogin(server) {
  const email = `bench${Date.now()}@example.com`;
  await post(`${server.base}/api/send-otp`, { email, purpose: 'registration' });
  let otp;
  for (let i = 0; i < 200 && !otp; i += 1) {
    otp = new RegExp(`To: ${email}[\\s\\S]*?\\b(\\d{6})\\b`).exec(server.output())?.[1];
    if (!otp) await new Promise((r) => setTimeout(r, 25));
  }
  const done = await post(`${server.base}/api/complete-registration`, { name: 'Bench', email, password: 'bench-password', otp });
  if (done.status !== 200) throw new Error(`registration failed: ${JSON.stringify(done.body)}`);
  const login = await post(`${server.base}/api/login`, { email, password: 'bench-password' });
  return login.body.token;
}

function load(url, headers = {}) {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections: 50, duration: DURATION_S, headers }, (error, result) => {
      if (error) return reject(error);
      if (result.non2xx > 0 || result.errors > 0) return reject(new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`));
      resolve({ rps: result.requests.average, p99: result.latency.p99 });
    });
  });
}

async function startHelloWorld() {
  const port = await freePort();
  const code = `
    const app = require('fastify')();
    app.get('/', async () => ({ hello: 'world' }));
    app.listen({ port: ${port}, host: '127.0.0.1' });`;
  const child = spawn(process.execPath, ['-e', code], { cwd: path.join(root, 'apps/server'), stdio: 'ignore' });
  children.add(child);
  await waitHealthy(`http://127.0.0.1:${port}/`, child);
  return { url: `http://127.0.0.1:${port}/`, stop: () => child.kill('SIGKILL') };
}

async function loginPageWeight(base) {
  const browser = await chromium.launch({
    executablePath: ensureChromium(),
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const page = await browser.newPage();
  const assets = [];
  page.on('response', async (response) => {
    const type = response.request().resourceType();
    if (type === 'script' || type === 'stylesheet') assets.push({ url: response.url(), type, body: await response.body() });
  });
  await page.goto(`${base}/login`, { waitUntil: 'networkidle' });
  await browser.close();
  const size = (type) => assets.filter((a) => a.type === type).reduce((n, a) => n + zlib.gzipSync(a.body, { level: 9 }).length, 0);
  return { js: size('script'), css: size('stylesheet'), files: assets.length };
}

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;

console.log('Building...');
if (spawnSync('npm', ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' }).status !== 0) process.exit(1);
console.log(`\nContrateIA benchmarks (${os.cpus().length} cores, Node ${process.version}, ${DURATION_S} s per load run)\n`);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'contrateia-bench-'));
const first = await startServer(dataDir);
const token = await registerAndLogin(first);
const weight = await loginPageWeight(first.base);
await first.stop();

const starts = [];
let server;
for (let i = 0; i < 3; i += 1) {
  server = await startServer(dataDir);
  starts.push(server.ms);
  if (i < 2) await server.stop();
}
const hello = await startHelloWorld();
const helloFigures = await load(hello.url);
hello.stop();
const userFigures = await load(`${server.base}/api/user`, { authorization: `Bearer ${token}` });
await server.stop();
fs.rmSync(dataDir, { recursive: true, force: true });

const ratio = userFigures.rps / helloFigures.rps;
const warm = Math.min(...starts);
const rows = [
  ['GET /api/user, 50 connections', `${Math.round(userFigures.rps)} req/s, p99 ${userFigures.p99} ms`],
  ['bare Fastify hello-world, 50 connections', `${Math.round(helloFigures.rps)} req/s, p99 ${helloFigures.p99} ms`],
  ['ratio /api/user : hello-world', `${ratio.toFixed(2)} (target >= 0.25) ${ratio >= 0.25 ? 'ok' : 'MISSED'}`],
  ['start-up to first healthy response, new DATA_DIR', `${Math.round(first.ms)} ms (creates the database)`],
  ['start-up to first healthy response, existing DATA_DIR', `${Math.round(warm)} ms best of 3 [${starts.map(Math.round).join(', ')}] (target < 2000) ${warm < 2000 ? 'ok' : 'MISSED'}`],
  ['/login JavaScript, gzip', `${kb(weight.js)} (target <= 150 KB) ${weight.js <= 150 * 1024 ? 'ok' : 'MISSED'}`],
  ['/login CSS, gzip', `${kb(weight.css)} (${weight.files} files in all)`],
];
const width = Math.max(...rows.map(([k]) => k.length));
for (const [k, v] of rows) console.log(`${k.padEnd(width)}  ${v}`);
