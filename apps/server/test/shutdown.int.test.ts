import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { checkPart } from '../../../scripts/build-stamp.mjs';
import { CONFIG_VARIABLES } from '../src/config';
import { eventually, until } from './eventually';
import { freePort } from './ports';
import { startFakeOpenAI, type FakeOpenAI } from './fake-openai';

/**
 * Stopping the real server (`node apps/server/dist/main.js`, as `npm start` runs it) while
 * clients are still connected, as a browser tab is: SIGTERM must end the process, with exit code
 * 0, whatever those clients do. Whether it does so promptly is measured, not asserted here: each
 * case would otherwise wait for its client (or close-with-grace's delay, and exit 1).
 */

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const SERVER_DIR = path.join(ROOT, 'apps/server');
const MAIN = path.join(SERVER_DIR, 'dist/main.js');
const PASSWORD = 'Correct-Horse-42';
const STARTUP_MS = 60_000;

type Exit = { code: number | null; signal: NodeJS.Signals | null };

type ServerProcess = {
  child: ChildProcess;
  port: number;
  url: string;
  stdout: () => string;
  exited: Promise<Exit>;
};

const children = new Set<ChildProcess>();
const cleanups: (() => unknown)[] = [];
// One DATA_DIR for every server here, one after the other: only the first start creates the database.
let dataDir: string;

/** Starts the built server and resolves once /api/health answers 200. */
async function startServer(env: Record<string, string> = {}): Promise<ServerProcess> {
  const port = await freePort();
  const childEnv: NodeJS.ProcessEnv = { ...process.env };
  for (const name of CONFIG_VARIABLES) delete childEnv[name];
  Object.assign(
    childEnv,
    { HOST: '127.0.0.1', PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'debug' },
    env,
  );
  const child = spawn(process.execPath, [MAIN], {
    cwd: ROOT,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  let exit: Exit | undefined;
  const exited = new Promise<Exit>((resolve) => {
    // 'close' rather than 'exit': by then every byte the child wrote has been read.
    child.once('close', (code, signal) => {
      children.delete(child);
      exit = { code, signal };
      resolve(exit);
    });
  });
  const server = { child, port, url: `http://127.0.0.1:${port}`, stdout: () => stdout, exited };
  // Polled: at debug level the log says when it listens, but a request is what proves it answers.
  await eventually(
    async () => {
      if (exit)
        throw new Error(
          `server exited (${JSON.stringify(exit)}) before answering; stderr: ${stderr}`,
        );
      try {
        const res = await fetch(`${server.url}/api/health`, { signal: AbortSignal.timeout(2_000) });
        return res.status === 200;
      } catch {
        return false; // not listening yet
      }
    },
    `a healthy server on port ${port}`,
    STARTUP_MS,
  );
  return server;
}

/**
 * Resolves once the server has logged `count` log entries that match (it logs each request it
 * takes, at debug level), as it writes them; fails after `ms` naming `what`.
 */
async function logged(
  server: ServerProcess,
  match: (entry: Record<string, unknown>) => boolean,
  what: string,
  { count = 1, ms = 15_000 } = {},
): Promise<Record<string, unknown>[]> {
  const stdout = server.child.stdout!;
  return until(
    () => {
      const text = server.stdout();
      const entries = text
        .slice(0, text.lastIndexOf('\n') + 1)
        .split('\n')
        .filter((line) => line.startsWith('{'))
        .map((line) => JSON.parse(line) as Record<string, unknown>)
        .filter(match);
      return entries.length >= count ? entries : undefined;
    },
    {
      changes: (onChange) => {
        stdout.on('data', onChange);
        return () => void stdout.off('data', onChange);
      },
      what,
      ms,
    },
  );
}

const takenRequest = (url: string) => (entry: Record<string, unknown>) =>
  entry.msg === 'incoming request' && entry.url === url;

async function post(server: ServerProcess, url: string, body: unknown, token?: string) {
  const res = await fetch(`${server.url}${url}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/** Registers through the API (the code is read from the log: no SMTP_URL) and signs in; the token. */
async function signedIn(server: ServerProcess): Promise<string> {
  const email = `shutdown-${Date.now()}@example.com`;
  expect((await post(server, '/api/send-otp', { email, purpose: 'registration' })).status).toBe(
    200,
  );
  const [mail] = await logged(
    server,
    (entry) => String(entry.msg ?? '').includes(`To: ${email}`),
    `the mail to ${email} in the log`,
  );
  const otp = /\b(\d{6})\b/.exec(String(mail!.msg))![1];
  const done = await post(server, '/api/complete-registration', {
    name: 'Shutdown Test',
    email,
    password: PASSWORD,
    otp,
  });
  expect(done.status, JSON.stringify(done.body)).toBe(200);
  const login = await post(server, '/api/login', { email, password: PASSWORD });
  expect(login.status, JSON.stringify(login.body)).toBe(200);
  return login.body.token as string;
}

beforeAll(() => {
  // What `npm start` does: build only when the bundle or the template is out of date.
  if (!checkPart('server').upToDate || !checkPart('template').upToDate) {
    execFileSync(process.execPath, ['build.mjs'], {
      cwd: SERVER_DIR,
      stdio: 'pipe',
      timeout: 180_000,
    });
  }
  expect(fs.existsSync(MAIN)).toBe(true);
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'contrateia-shutdown-'));
}, 200_000);

afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

afterEach(async () => {
  const running = [...children];
  for (const child of running) child.kill('SIGKILL');
  await Promise.all(
    running.map(
      (child) =>
        new Promise((resolve) =>
          children.has(child) ? child.once('close', resolve) : resolve(null),
        ),
    ),
  );
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('SIGTERM with clients still connected', { timeout: 120_000 }, () => {
  it('a kept-alive connection, idle (a browser keeps one open): exits 0', async () => {
    const server = await startServer();
    const agent = new http.Agent({ keepAlive: true });
    cleanups.push(() => agent.destroy());
    await new Promise<void>((resolve, reject) => {
      http
        .get(`${server.url}/api/health`, { agent }, (res) => {
          res.resume();
          res.on('end', resolve);
        })
        .on('error', reject);
    });
    expect(Object.values(agent.freeSockets).flat()).toHaveLength(1);

    server.child.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 0, signal: null });
  });

  it('a streamed chat reply in progress, its AI provider gone silent: exits 0 and ends the stream', async () => {
    // The provider sends its first words, then nothing: the reply would stay open for
    // AI_TIMEOUT_MS (ten minutes here).
    const ai: FakeOpenAI = await startFakeOpenAI({
      chunks: ['Hello', ' there'],
      stallAfterChunks: 1,
    });
    cleanups.push(() => ai.close());
    const server = await startServer({
      AI_PROVIDER: 'openai',
      AI_BASE_URL: ai.url,
      AI_MODEL: 'fake',
      AI_TIMEOUT_MS: '600000',
    });
    const token = await signedIn(server);

    let received = '';
    let streaming!: () => void;
    const started = new Promise<void>((resolve) => (streaming = resolve));
    const ended = new Promise<void>((resolve) => {
      const req = http.request(
        `${server.url}/api/chat/message`,
        {
          method: 'POST',
          agent: false,
          headers: {
            'content-type': 'application/json',
            accept: 'text/event-stream',
            authorization: `Bearer ${token}`,
          },
        },
        (res) => {
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            received += chunk;
            if (received.includes('event: delta')) streaming();
          });
          res.on('close', resolve);
        },
      );
      req.on('error', () => resolve());
      req.end(JSON.stringify({ message: 'hello', agentName: 'guia' }));
    });
    await started;

    server.child.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 0, signal: null });
    await ended;
    expect(received).not.toContain('event: done');
  });

  it('a slow client, still sending its request: exits 0', async () => {
    const server = await startServer();
    const socket = net.connect(server.port, '127.0.0.1');
    cleanups.push(() => socket.destroy());
    socket.on('error', () => {});
    const closed = new Promise((resolve) => socket.once('close', resolve));
    // The headers, and a part of the body they announce: the rest never comes.
    socket.write(
      'POST /api/login HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"email":',
    );
    await logged(server, takenRequest('/api/login'), 'the sign-in taken');

    server.child.kill('SIGTERM');
    expect(await server.exited).toEqual({ code: 0, signal: null });
    await closed;
  });
});
