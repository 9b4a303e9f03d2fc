import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { Manager } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CONFIG_VARIABLES } from '../src/config';
import { eventually, until, within } from './eventually';
import { message } from './factories';
import { createGate, startFakeOpenAI, type FakeOpenAI } from './fake-openai';
import { createServerDatabase } from './helpers';
import { voiceNote } from './media';
import { checkPart } from '../../../scripts/build-stamp.mjs';
import { freePort } from './ports';
import { qrText } from './qr';

/**
 * The real server as an operator runs it: `node apps/server/dist/main.js`, built from the current
 * source before these tests when it is out of date, each server in a child process with its own DATA_DIR and
 * port. The build is what `npm start` runs, so these tests cover the bundle (paths resolved from
 * dist/, the PGlite template the build writes) and not only the source.
 */

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const SERVER_DIR = path.join(ROOT, 'apps/server');
const MAIN = path.join(SERVER_DIR, 'dist/main.js');

const STARTUP_MS = 60_000;
const EXIT_MS = 20_000;

type Exit = { code: number | null; signal: NodeJS.Signals | null };

type ServerProcess = {
  child: ChildProcess;
  port: number;
  url: string;
  dataDir: string;
  stdout: () => string;
  stderr: () => string;
  exited: Promise<Exit>;
};

const children = new Set<ChildProcess>();
const tempDirs = new Set<string>();

function tempDir(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'contrateia-process-'));
  tempDirs.add(dir);
  return dir;
}

async function startServer({
  dataDir,
  env = {},
  port,
  wrapper = [],
}: {
  dataDir: string;
  env?: Record<string, string>;
  port?: number;
  /** A command the server runs under, e.g. `unshare --net` (a network namespace of its own). */
  wrapper?: string[];
}): Promise<ServerProcess> {
  const listenPort = port ?? (await freePort());
  const childEnv: NodeJS.ProcessEnv = { ...process.env };
  // None of the variables loadConfig reads may leak in from the environment running the tests.
  for (const name of CONFIG_VARIABLES) delete childEnv[name];
  Object.assign(
    childEnv,
    { HOST: '127.0.0.1', PORT: String(listenPort), DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    env,
  );

  const [command, ...args] = [...wrapper, process.execPath, MAIN];
  const child = spawn(command!, args, {
    cwd: ROOT,
    env: childEnv,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  let stdout = '';
  let stderr = '';
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<Exit>((resolve) => {
    // 'close' rather than 'exit': by then every byte the child wrote has been read.
    child.once('close', (code, signal) => {
      children.delete(child);
      resolve({ code, signal });
    });
  });
  return {
    child,
    port: listenPort,
    url: `http://127.0.0.1:${listenPort}`,
    dataDir,
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
  };
}

/** Whether this machine lets us start a process in a new network namespace (root, unshare). */
function canUnshareNetwork(): boolean {
  try {
    execFileSync('unshare', ['--net', 'true'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function isRunning(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}

function waitForExit(server: ServerProcess, ms = EXIT_MS): Promise<Exit> {
  return within(server.exited, `exit of the server on port ${server.port}`, ms);
}

/** Polls GET /api/health until it answers 200; fails at once if the process exits. */
async function waitForHealth(
  server: ServerProcess,
  ms = STARTUP_MS,
): Promise<{ status: string; database: string }> {
  const deadline = Date.now() + ms;
  let exit: Exit | undefined;
  void server.exited.then((e) => (exit = e));
  for (;;) {
    if (exit) {
      throw new Error(
        `server exited (${JSON.stringify(exit)}) before answering /api/health; stderr: ${server.stderr()}`,
      );
    }
    try {
      const res = await fetch(`${server.url}/api/health`, { signal: AbortSignal.timeout(2_000) });
      if (res.status === 200) return (await res.json()) as { status: string; database: string };
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline)
      throw new Error(
        `no healthy server on port ${server.port} within ${ms} ms; stderr: ${server.stderr()}`,
      );
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function startHealthy(options: Parameters<typeof startServer>[0]): Promise<ServerProcess> {
  const server = await startServer(options);
  await waitForHealth(server);
  return server;
}

async function kill9(server: ServerProcess): Promise<void> {
  server.child.kill('SIGKILL');
  expect(await waitForExit(server)).toEqual({ code: null, signal: 'SIGKILL' });
}

/** A failed start: exit code 1 and exactly one line on stderr, with no stack trace. */
async function expectOneLineFailure(server: ServerProcess): Promise<string> {
  const exit = await waitForExit(server);
  const stderr = server.stderr();
  expect(exit, `stderr: ${stderr}`).toEqual({ code: 1, signal: null });
  expect(stderr).toMatch(/^[^\n]+\n$/);
  expect(stderr).not.toContain('    at ');
  return stderr.trim();
}

async function post(
  server: ServerProcess,
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
) {
  const res = await fetch(`${server.url}${url}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(15_000),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

type LogEntry = { msg?: string; url?: string };

/** The server's JSON log lines (stdout) so far, complete lines only. */
function logEntries(server: ServerProcess): LogEntry[] {
  const text = server.stdout();
  return text
    .slice(0, text.lastIndexOf('\n') + 1)
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as LogEntry);
}

/** Waits until `count` log entries match, as the server writes them; fails naming `what`. */
async function waitForLog(
  server: ServerProcess,
  match: (entry: LogEntry) => boolean,
  count: number,
  what: string,
  ms = 15_000,
): Promise<void> {
  const stdout = server.child.stdout!;
  try {
    await until(() => (logEntries(server).filter(match).length >= count ? true : undefined), {
      changes: (onChange) => {
        stdout.on('data', onChange);
        return () => void stdout.off('data', onChange);
      },
      what: `${count} log entries: ${what}`,
      ms,
    });
  } catch (error) {
    throw new Error(`${(error as Error).message}; the log: ${server.stdout()}`, { cause: error });
  }
}

/**
 * Without SMTP_URL the server writes each mail to its log (stdout, one JSON line per entry):
 * the verification code sent to `email` is read from there, as an operator would.
 */
async function codeFromLog(server: ServerProcess, email: string): Promise<string> {
  const isMail = (entry: LogEntry) => entry.msg?.includes(`To: ${email}`) ?? false;
  await waitForLog(server, isMail, 1, `the mail to ${email}`, 10_000);
  const mail = logEntries(server).find(isMail)!;
  // After the address: a random address can hold six digits of its own.
  const match = /\b(\d{6})\b/.exec(mail.msg!.split('Subject:')[1] ?? '');
  if (!match?.[1]) throw new Error(`no code in the mail logged for ${email}: ${mail.msg}`);
  return match[1];
}

/** Registers an account through the HTTP API, as the web app does. */
async function register(
  server: ServerProcess,
  account: { name: string; email: string; password: string },
) {
  const sent = await post(server, '/api/send-otp', {
    email: account.email,
    purpose: 'registration',
  });
  expect(sent.status, JSON.stringify(sent.body)).toBe(200);
  const otp = await codeFromLog(server, account.email);
  const done = await post(server, '/api/complete-registration', { ...account, otp });
  expect(done.status, JSON.stringify(done.body)).toBe(200);
  expect(done.body.success).toBe(true);
}

async function getUser(server: ServerProcess, token: string) {
  const res = await fetch(`${server.url}/api/user`, {
    headers: { authorization: `Bearer ${token}` },
    signal: AbortSignal.timeout(10_000),
  });
  return {
    status: res.status,
    body: (await res.json()) as { user?: { email: string; role: string } },
  };
}

type RawResponse = { status: number; headers: http.IncomingHttpHeaders; body: string; at: number };

/**
 * A POST over node:http, so the test knows when the request has been written in full; answers
 * the response with its complete body (or rejects if the connection breaks before the end).
 */
function rawPost(
  server: ServerProcess,
  url: string,
  body: unknown,
  agent: http.Agent,
): { written: Promise<void>; response: Promise<RawResponse> } {
  let onWritten!: () => void;
  const written = new Promise<void>((resolve) => (onWritten = resolve));
  const response = new Promise<RawResponse>((resolve, reject) => {
    const payload = JSON.stringify(body);
    const req = http.request(
      {
        host: '127.0.0.1',
        port: server.port,
        path: url,
        method: 'POST',
        agent,
        headers: {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () => {
          if (!res.complete) reject(new Error('response cut short'));
          else
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              body: text,
              at: performance.now(),
            });
        });
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.on('finish', onWritten);
    req.setTimeout(20_000, () => req.destroy(new Error('request timed out')));
    req.end(payload);
  });
  return { written, response };
}

afterEach(async () => {
  // No child outlives its test, whatever the test did.
  const running = [...children];
  for (const child of running) if (isRunning(child)) child.kill('SIGKILL');
  await Promise.all(
    running.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (!children.has(child)) return resolve();
          child.once('close', () => resolve());
        }),
    ),
  );
  for (const dir of tempDirs) fs.rmSync(dir, { recursive: true, force: true });
  tempDirs.clear();
});

afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
});

beforeAll(() => {
  // What `npm start` does: build only when the bundle or the template is out of date. Building
  // regardless would rewrite dist/ under another run of these tests started from it.
  if (!checkPart('server').upToDate || !checkPart('template').upToDate) {
    execFileSync(process.execPath, ['build.mjs'], {
      cwd: SERVER_DIR,
      stdio: 'pipe',
      timeout: 180_000,
    });
  }
  expect(fs.existsSync(MAIN)).toBe(true);
}, 200_000);

/**
 * A case of a server on its embedded database (a DATA_DIR): run by the PGlite run of the suites.
 * The run on the servers (TEST_DATABASE_URL) starts the same processes, which read neither
 * variable, so it would only repeat them (two minutes of CI); its own cases are the ones with
 * DATABASE_URL below.
 */
const embeddedRun = !process.env.TEST_DATABASE_URL;
const onEmbedded = it.runIf(embeddedRun);

describe('the server process', { timeout: 180_000 }, () => {
  describe('refuses a bad configuration with one line on stderr', () => {
    it('PORT=abc', async () => {
      const server = await startServer({ dataDir: tempDir(), env: { PORT: 'abc' } });
      const line = await expectOneLineFailure(server);
      expect(line).toBe('Invalid configuration: PORT must be a port number (0-65535) (got "abc")');
      expect(server.stdout()).toBe('');
    });

    it('DATABASE_URL=nonsense, without echoing the value', async () => {
      const server = await startServer({ dataDir: tempDir(), env: { DATABASE_URL: 'nonsense' } });
      const line = await expectOneLineFailure(server);
      expect(line).toBe(
        'Invalid configuration: DATABASE_URL must be a URL like postgres://user@host:5432/db',
      );
      expect(server.stdout()).toBe('');
    });

    it('a DATABASE_URL no server answers, naming the cause and not the password', async () => {
      const port = await freePort();
      const server = await startServer({
        dataDir: tempDir(),
        env: {
          DATABASE_URL: `postgres://app:hunter2@127.0.0.1:${port}/contrateia`,
          JWT_SECRET: 'k'.repeat(32),
        },
      });
      const line = await expectOneLineFailure(server);
      expect(line).toBe(`Cannot use DATABASE_URL: connect ECONNREFUSED 127.0.0.1:${port}`);
    });

    it('DATABASE_URL without JWT_SECRET: each instance would sign with a key of its own', async () => {
      const server = await startServer({
        dataDir: tempDir(),
        env: { DATABASE_URL: 'postgres://app@127.0.0.1:5432/contrateia' },
      });
      expect(await expectOneLineFailure(server)).toBe(
        'Invalid configuration: JWT_SECRET is required when DATABASE_URL is set (every instance sharing the database must sign tokens with the same key)',
      );
    });

    it('a DATA_DIR that cannot be a directory', async () => {
      const file = path.join(tempDir(), 'a-file');
      fs.writeFileSync(file, 'not a directory');
      const server = await startServer({ dataDir: file });
      const line = await expectOneLineFailure(server);
      expect(line).toBe(
        `Cannot create DATA_DIR ${file}: EEXIST: file already exists, mkdir '${file}'`,
      );
    });
  });

  onEmbedded(
    'refuses a DATA_DIR whose embedded database cannot open, naming the cause',
    async () => {
      const dataDir = tempDir();
      fs.writeFileSync(path.join(dataDir, 'pglite'), 'a file where the database directory goes');
      const server = await startServer({ dataDir });
      const line = await expectOneLineFailure(server);
      expect(line).toBe(
        `Cannot open the embedded database in ${dataDir}: file system error ENOTDIR`,
      );
    },
  );

  onEmbedded(
    'refuses to share an embedded DATA_DIR: the second process exits, the first keeps serving',
    async () => {
      const dataDir = tempDir();
      const first = await startHealthy({ dataDir });

      const second = await startServer({ dataDir });
      const line = await expectOneLineFailure(second);
      expect(line).toBe(
        `Another ContrateIA server is already using DATA_DIR ${fs.realpathSync(dataDir)}; stop it or give this one another DATA_DIR.`,
      );

      expect(isRunning(first.child)).toBe(true);
      expect(await waitForHealth(first, 5_000)).toMatchObject({ status: 'ok', database: 'pglite' });
    },
  );

  // A second server in a network namespace of its own, as in another container mounting the same
  // volume: a lock that lived in the network namespace (an abstract Unix socket) let both run.
  it.runIf(embeddedRun && canUnshareNetwork())(
    'refuses to share an embedded DATA_DIR with a server in another network namespace',
    async () => {
      const dataDir = tempDir();
      const first = await startHealthy({ dataDir });

      const second = await startServer({ dataDir, wrapper: ['unshare', '--net'] });
      expect(await expectOneLineFailure(second)).toBe(
        `Another ContrateIA server is already using DATA_DIR ${fs.realpathSync(dataDir)}; stop it or give this one another DATA_DIR.`,
      );
      expect(await waitForHealth(first, 5_000)).toMatchObject({ status: 'ok', database: 'pglite' });
    },
  );

  onEmbedded(
    'starts again on the DATA_DIR of a server killed with SIGKILL (its lock goes stale in seconds)',
    async () => {
      const dataDir = tempDir();
      const first = await startHealthy({ dataDir });
      await kill9(first);

      const second = await startServer({ dataDir });
      // The dead server's lock is taken over once stale (5 s): the start waits, and is never refused.
      expect(await waitForHealth(second, 30_000)).toMatchObject({
        status: 'ok',
        database: 'pglite',
      });
      expect(second.stderr()).toBe('');
    },
  );

  onEmbedded('keeps an acknowledged write and the signing key across a SIGKILL', async () => {
    const dataDir = tempDir();
    const account = {
      name: 'Maria Silva',
      email: 'maria@example.com',
      password: 'segredo-forte-123',
    };
    const first = await startHealthy({ dataDir });
    await register(first, account);
    const login = await post(first, '/api/login', {
      email: account.email,
      password: account.password,
    });
    expect(login.status).toBe(200);
    const token = login.body.token as string;
    expect(token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect((await getUser(first, token)).status).toBe(200);

    await kill9(first);
    const second = await startHealthy({ dataDir });

    // The account (committed before the 200) is there.
    const again = await post(second, '/api/login', {
      email: account.email,
      password: account.password,
    });
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body.user).toMatchObject({
      email: account.email,
      name: account.name,
      role: 'admin',
    });
    // So is the session, and the key that signed its token (kept in DATA_DIR).
    const before = await getUser(second, token);
    expect(before.status).toBe(200);
    expect(before.body.user).toMatchObject({ email: account.email });
    // The key file is the owner's alone.
    expect(fs.statSync(path.join(dataDir, 'jwt-secret')).mode & 0o777).toBe(0o600);
  });

  onEmbedded(
    'on SIGTERM, answers the requests in flight in full, exits 0 and frees the DATA_DIR',
    async () => {
      const dataDir = tempDir();
      // At info level the server logs each request as it takes it: the signal is sent once all
      // are taken (see below).
      const server = await startHealthy({ dataDir, env: { LOG_LEVEL: 'debug' } });
      // Keep-alive connections, as browsers and proxies hold them: the in-flight answers must end
      // them, or the process waits for the clients to hang up.
      const agent = new http.Agent({ keepAlive: true, maxSockets: 16 });
      try {
        // Each wrong password costs argon2 work (tens of ms, on a pool of 4 threads): 8 of them
        // keep the server busy for a while after SIGTERM.
        const requests = Array.from({ length: 8 }, (_, i) =>
          rawPost(
            server,
            '/api/login',
            { email: `nobody${i}@example.com`, password: 'wrong-password' },
            agent,
          ),
        );
        await Promise.all(requests.map((r) => r.written));
        // Written is not yet received: a request still in the socket buffer when the listener
        // closes is reset by the kernel or reaped as an idle connection, on any server. So the
        // signal goes once the server has logged taking all of them, which is still well before
        // their argon2 work is done.
        await waitForLog(
          server,
          (entry) => entry.msg === 'incoming request' && entry.url === '/api/login',
          8,
          'the sign-ins taken',
        );
        const signalledAt = performance.now();
        server.child.kill('SIGTERM');

        const responses = await Promise.all(requests.map((r) => r.response));
        for (const res of responses) {
          expect(res.status).toBe(401);
          expect(String(res.headers['content-type'])).toMatch(/^application\/json/);
          expect(JSON.parse(res.body)).toEqual({
            success: false,
            message: message('pt-BR', 'auth.invalidCredentials'),
          });
        }
        // At least some were still being worked on when the signal came.
        expect(responses.some((res) => res.at > signalledAt)).toBe(true);

        expect(await waitForExit(server, 15_000)).toEqual({ code: 0, signal: null });
        expect(server.stderr()).toBe('');
      } finally {
        agent.destroy();
      }

      const next = await startServer({ dataDir });
      expect(await waitForHealth(next, 30_000)).toMatchObject({ status: 'ok' });
    },
  );

  // Exit code 0 is the point: a connection holding the shutdown would run into close-with-grace's
  // 10 s limit, which exits 1. How long it takes is the bench's to measure.
  onEmbedded('on SIGTERM while idle, with a kept-alive connection open, exits 0', async () => {
    const server = await startHealthy({ dataDir: tempDir() });
    // An idle keep-alive connection must not hold the shutdown either.
    const agent = new http.Agent({ keepAlive: true });
    try {
      const health = rawPost(server, '/api/unknown', {}, agent);
      expect((await health.response).status).toBe(404);
      server.child.kill('SIGTERM');
      expect(await waitForExit(server, 15_000)).toEqual({ code: 0, signal: null });
    } finally {
      agent.destroy();
    }
  });

  onEmbedded(
    'on SIGTERM with a Socket.IO connection open, exits 0, and the client is told to reconnect',
    async () => {
      const server = await startHealthy({ dataDir: tempDir() });
      // The transport alone, as a page holds it between its sockets: an upgraded connection, which
      // the HTTP server's close would wait for.
      const manager = new Manager(server.url, {
        transports: ['websocket'],
        reconnection: false,
        autoConnect: false,
      });
      try {
        await new Promise<void>((resolve, reject) =>
          manager.open((error) => (error ? reject(error) : resolve())),
        );
        const closed = new Promise<string>((resolve) =>
          manager.once('close', (reason) => resolve(reason)),
        );
        server.child.kill('SIGTERM');
        expect(await waitForExit(server, 15_000)).toEqual({ code: 0, signal: null });
        expect(await closed).toBe('transport close');
      } finally {
        manager.engine?.close();
      }
    },
  );

  describe.runIf(process.env.TEST_DATABASE_URL)('with DATABASE_URL (TEST_DATABASE_URL)', () => {
    let databaseUrl: string;
    let dropDatabase: () => Promise<void>;

    beforeAll(async () => {
      ({ url: databaseUrl, drop: dropDatabase } = await createServerDatabase(
        process.env.TEST_DATABASE_URL!,
        'contrateia_process',
      ));
    });
    afterAll(async () => dropDatabase?.());

    // One JWT_SECRET for every instance, as the server requires with DATABASE_URL.
    const jwtSecret = randomBytes(32).toString('hex');
    const env = () => ({
      DATABASE_URL: databaseUrl,
      JWT_SECRET: jwtSecret,
      REDIS_URL: process.env.TEST_REDIS_URL!,
    });

    // Several instances need Redis: without it the second is refused (see the tests below).
    it.runIf(process.env.TEST_REDIS_URL)(
      'starts on PostgreSQL, and two processes may share one DATA_DIR',
      async () => {
        const dataDir = tempDir();
        // Both at once, on one DATA_DIR: with DATABASE_URL it holds no database and no lock.
        const [first, second] = await Promise.all([
          startServer({ dataDir, env: env() }),
          startServer({ dataDir, env: env() }),
        ]);
        expect(await waitForHealth(first)).toMatchObject({ status: 'ok', database: 'postgres' });
        expect(await waitForHealth(second)).toMatchObject({ status: 'ok', database: 'postgres' });
        expect(first.stderr()).toBe('');
        expect(second.stderr()).toBe('');
        // No embedded database was made there.
        expect(fs.existsSync(path.join(dataDir, 'pglite'))).toBe(false);
        expect(fs.existsSync(path.join(dataDir, 'PG_VERSION'))).toBe(false);

        // One account, signed in on one, recognised by the other: same database, same key.
        const account = {
          name: 'João Souza',
          email: `joao-${randomBytes(3).toString('hex')}@example.com`,
          password: 'senha-boa-456',
        };
        await register(first, account);
        const login = await post(second, '/api/login', {
          email: account.email,
          password: account.password,
        });
        expect(login.status, JSON.stringify(login.body)).toBe(200);
        expect((await getUser(first, login.body.token as string)).status).toBe(200);

        first.child.kill('SIGTERM');
        second.child.kill('SIGTERM');
        expect(await waitForExit(first, 15_000)).toEqual({ code: 0, signal: null });
        expect(await waitForExit(second, 15_000)).toEqual({ code: 0, signal: null });
      },
    );

    describe('without REDIS_URL: one instance per database', () => {
      // A database of its own for each test: its first account is the admin, who reads the log.
      let alone: { DATABASE_URL: string; JWT_SECRET: string };
      const drops: (() => Promise<void>)[] = [];
      beforeEach(async () => {
        const created = await createServerDatabase(
          process.env.TEST_DATABASE_URL!,
          'contrateia_alone',
        );
        drops.push(created.drop);
        alone = { DATABASE_URL: created.url, JWT_SECRET: jwtSecret };
      });
      // Once every server is gone (each test's are killed after it).
      afterAll(async () => {
        await Promise.all(drops.map((drop) => drop()));
      });

      it('works alone; a second one is refused with one line naming REDIS_URL, and the first logs it', async () => {
        const first = await startHealthy({ dataDir: tempDir(), env: alone });
        const admin = {
          name: 'Ana Lima',
          email: `ana-${randomBytes(3).toString('hex')}@example.com`,
          password: 'senha-boa-789',
        };
        await register(first, admin);

        const second = await startServer({ dataDir: tempDir(), env: alone });
        expect(await expectOneLineFailure(second)).toBe(
          'Another ContrateIA instance is running on this database; several instances need REDIS_URL (shared state): set it on every instance.',
        );
        expect(second.stdout()).toBe('');
        const tried = (entry: LogEntry) => /tried to start on this database/.test(entry.msg ?? '');
        await waitForLog(first, tried, 1, 'the warning of the refused start');
        expect(logEntries(first).filter(tried)).toHaveLength(1);

        // The first goes on serving, and its Logs page shows the warning.
        const signedIn = await post(first, '/api/login', {
          email: admin.email,
          password: admin.password,
        });
        expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
        const token = signedIn.body.token as string;
        await eventually(async () => {
          const res = await fetch(`${first.url}/api/logs?level=warn&search=REDIS_URL`, {
            headers: { authorization: `Bearer ${token}` },
            signal: AbortSignal.timeout(10_000),
          });
          const { logs } = (await res.json()) as { logs: { message: string }[] };
          return logs.some((item) => /tried to start on this database/.test(item.message));
        }, 'the warning on the Logs page');
      });

      it('a restart after SIGKILL is not refused: the mark went with the process', async () => {
        const first = await startHealthy({ dataDir: tempDir(), env: alone });
        await kill9(first);
        const next = await startServer({ dataDir: tempDir(), env: alone });
        expect(await waitForHealth(next)).toMatchObject({ status: 'ok', database: 'postgres' });
        expect(next.stderr()).toBe('');
      });

      it('a restart after SIGTERM is not refused either', async () => {
        const first = await startHealthy({ dataDir: tempDir(), env: alone });
        first.child.kill('SIGTERM');
        expect(await waitForExit(first, 15_000)).toEqual({ code: 0, signal: null });
        const next = await startServer({ dataDir: tempDir(), env: alone });
        expect(await waitForHealth(next)).toMatchObject({ status: 'ok', database: 'postgres' });
      });
    });
  });
});

describe(
  'a WhatsApp reply under way when the server is killed (SIGKILL)',
  { timeout: 180_000 },
  () => {
    let ai: FakeOpenAI;
    beforeAll(async () => {
      ai = await startFakeOpenAI();
    });
    afterAll(async () => ai?.close());
    /** The replies asked of the provider (the monitor asks it for its models besides). */
    const completions = () =>
      ai.requests.filter((request) => request.path.endsWith('/chat/completions'));

    async function getJson(server: ServerProcess, url: string, token: string) {
      const res = await fetch(`${server.url}${url}`, {
        headers: { authorization: `Bearer ${token}` },
        signal: AbortSignal.timeout(10_000),
      });
      expect(res.status, url).toBe(200);
      return (await res.json()) as Record<string, unknown>;
    }

    /**
     * A first server process on its own data with one account whose sandbox number is linked;
     * `inbound` has a contact write to it, `sent` reads what the number sent the contact (oldest
     * first; `failed` tries apart) through any process on that data.
     */
    async function linkedNumber(env: Record<string, string>, { platform = false } = {}) {
      const dataDir = tempDir();
      const account = {
        name: 'Rita Alves',
        email: `rita-${randomBytes(3).toString('hex')}@example.com`,
        password: 'senha-forte-789',
      };
      const serverEnv = {
        ...env,
        // `platform`: the number is the platform's, which indirect relays through.
        ...(platform ? { WHATSAPP_PLATFORM_ACCOUNT: account.email } : {}),
        WHATSAPP_TRANSPORT: 'sandbox',
        AI_PROVIDER: 'openai',
        AI_BASE_URL: ai.url,
        AI_MODEL: 'test-model',
        AI_TIMEOUT_MS: '30000',
        // The sandbox's inbound limit is counted per address under the server's fixed key prefix,
        // in a Redis that another local run (a bench's thousands of messages) may share.
        SANDBOX_INBOUND_PER_MINUTE: '1000000',
      };
      const first = await startHealthy({ dataDir, env: serverEnv });
      await register(first, account);
      const login = await post(first, '/api/login', {
        email: account.email,
        password: account.password,
      });
      expect(login.status).toBe(200);
      const token = login.body.token as string;
      const auth = { authorization: `Bearer ${token}` };
      // guia answers the contacts: nobody does until the account chooses.
      const { data: available } = (await getJson(
        first,
        '/api/whatsapp/agents/available',
        token,
      )) as {
        data: { id: string; name: string }[];
      };
      const guia = available.find((agent) => agent.name === 'guia');
      const chosen = await post(
        first,
        '/api/whatsapp/settings',
        { defaultAgentId: guia!.id },
        auth,
      );
      expect(chosen.status).toBe(200);
      const connected = await post(first, '/api/whatsapp/connect', {}, auth);
      const { qrCode } = connected.body.data as { qrCode: string };
      const phone = `55119${String(Date.now() % 1e8).padStart(8, '0')}`;
      const pairing = { token: new URL(qrText(qrCode)).searchParams.get('pair'), phone };
      expect((await post(first, '/api/whatsapp/sandbox/pair', pairing)).status).toBe(200);
      /** WhatsApp's id of the message. */
      const inbound = async (server: ServerProcess, text: string) => {
        const written = await post(server, '/api/whatsapp/sandbox/inbound', {
          to: phone,
          from: '5521955551234@s.whatsapp.net',
          text,
        });
        expect(written.status).toBe(200);
        return written.body.id as string;
      };
      /** The phone's link goes down, or comes back: the call ends once what waited is stored. */
      const network = (server: ServerProcess, online: boolean) =>
        post(server, `/api/whatsapp/sandbox/phones/${phone}/network`, { online }, auth);
      const sent = async (server: ServerProcess) =>
        (
          (await getJson(server, `/api/whatsapp/sandbox/phones/${phone}/events`, token)).events as {
            type: string;
            to?: string;
            text?: string;
            failed?: string;
          }[]
        ).filter((event) => event.type === 'message');
      /** What the number sent the contact: the replies, oldest first. */
      const replies = async (server: ServerProcess) =>
        (await sent(server)).filter((event) => !event.failed).map((event) => event.text);
      /** The contact's conversation. */
      const conversationId = async (server: ServerProcess) =>
        ((await getJson(server, '/api/whatsapp/conversations', token)).data as { id: string }[])[0]!
          .id;
      /** The conversation's messages as the owner's page reads them. */
      const messages = async (server: ServerProcess) =>
        (
          (
            await getJson(
              server,
              `/api/whatsapp/conversations/${await conversationId(server)}`,
              token,
            )
          ).data as { messages: { sender: string; text: string; status?: string }[] }
        ).messages;
      return {
        dataDir,
        serverEnv,
        first,
        token,
        auth,
        phone,
        inbound,
        network,
        sent,
        replies,
        conversationId,
        messages,
      };
    }

    /**
     * Waits for the process started after a kill to have sent `count` replies, then for nothing
     * left to do: no reply job waiting or running (the monitor counts them in the database).
     */
    async function answeredAfterRestart(
      server: ServerProcess,
      token: string,
      replies: () => Promise<unknown[]>,
      count: number,
      ms = 30_000,
    ) {
      await eventually(
        async () => (await replies()).length >= count,
        `${count} replies after the restart`,
        ms,
      );
      const answeredAt = Date.now();
      await eventually(
        async () => {
          const status = await getJson(server, '/api/monitor/status', token);
          const queue = (status.queues as { name: string; waiting: number; active: number }[]).find(
            (q) => q.name === 'whatsapp-reply',
          );
          return (
            Date.parse(String(status.lastUpdate)) > answeredAt &&
            queue?.waiting === 0 &&
            queue.active === 0
          );
        },
        'the reply queue idle',
        20_000,
      );
    }

    /** Runs `scenario` with a PostgreSQL database of its own (and the run's Redis, if any). */
    async function onOwnPostgres(scenario: (env: Record<string, string>) => Promise<void>) {
      const created = await createServerDatabase(
        process.env.TEST_DATABASE_URL!,
        'contrateia_process',
      );
      try {
        await scenario({
          DATABASE_URL: created.url,
          JWT_SECRET: randomBytes(32).toString('hex'),
          ...(process.env.TEST_REDIS_URL ? { REDIS_URL: process.env.TEST_REDIS_URL } : {}),
        });
      } finally {
        await created.drop();
      }
    }

    /**
     * One account with a sandbox number and a contact writing to it; the provider answers the first
     * message, and holds the reply to the second until the process serving it is killed. The next
     * process, on the same data, answers the second message once, and the first never again.
     */
    async function killedMidReply(env: Record<string, string>) {
      ai.setOptions({ chunks: ['Primeira', ' resposta.'] });
      const { dataDir, serverEnv, first, token, inbound, replies, messages } =
        await linkedNumber(env);

      await inbound(first, 'Oi, vocês abrem hoje?');
      await eventually(async () => (await replies(first)).length === 1, 'the first reply', 15_000);
      const gate = createGate();
      ai.setOptions({
        chunks: ['Segunda', ' resposta.'],
        hold: { afterChunks: 0, until: gate.opened },
      });
      const asked = ai.nextRequest();
      const completionsBefore = completions().length;
      await inbound(first, 'E amanhã?');
      await asked;
      await kill9(first);
      ai.setOptions({ chunks: ['Segunda', ' resposta.'] });
      gate.open();

      const second = await startHealthy({ dataDir, env: serverEnv });
      await answeredAfterRestart(second, token, () => replies(second), 2);
      expect(await replies(second)).toEqual(['Primeira resposta.', 'Segunda resposta.']);
      // The reply cut short and the one made after the restart: the provider was asked twice.
      expect(completions().length - completionsBefore).toBe(2);
      expect((await messages(second)).map((m) => [m.sender, m.text])).toEqual([
        ['contact', 'Oi, vocês abrem hoje?'],
        ['user', 'Primeira resposta.'],
        ['contact', 'E amanhã?'],
        ['user', 'Segunda resposta.'],
      ]);
      second.child.kill('SIGTERM');
      expect(await waitForExit(second)).toEqual({ code: 0, signal: null });
    }

    /**
     * A contact's voice note: its reply job transcribes it first, and the provider holds the
     * transcript until the process is killed. The next process, on the same data (the note's file
     * under DATA_DIR/media), transcribes it again and answers it once; its words are kept once.
     */
    async function killedMidTranscription(env: Record<string, string>) {
      const said = 'Vocês abrem no sábado?';
      const answer = ['Abrimos', ' no sábado.'];
      const { dataDir, serverEnv, first, token, phone, replies, conversationId } =
        await linkedNumber({ ...env, AI_TRANSCRIPTION_MODEL: 'whisper-1' });
      const transcriptions = () =>
        ai.requests.filter((request) => request.path.endsWith('/audio/transcriptions'));
      const before = transcriptions().length;
      const gate = createGate();
      ai.setOptions({ chunks: answer, transcription: { text: said, hold: gate.opened } });
      const transcribing = ai.nextRequest(30_000, (request) =>
        request.path.endsWith('/audio/transcriptions'),
      );
      const written = await post(first, '/api/whatsapp/sandbox/inbound', {
        to: phone,
        from: '5521955551234@s.whatsapp.net',
        media: {
          kind: 'audio',
          voice: true,
          mimetype: 'audio/ogg; codecs=opus',
          seconds: 3,
          dataBase64: voiceNote().toString('base64'),
        },
      });
      expect(written.status).toBe(200);
      await transcribing;
      await kill9(first);
      ai.setOptions({ chunks: answer, transcription: { text: said } });
      gate.open();

      const second = await startHealthy({ dataDir, env: serverEnv });
      await answeredAfterRestart(second, token, () => replies(second), 1);
      // The contact's phone got one answer, to what the voice note said.
      expect(await replies(second)).toEqual(['Abrimos no sábado.']);
      // The transcription cut short and the one after the restart, of the very bytes recorded.
      const heard = transcriptions().slice(before);
      expect(heard).toHaveLength(2);
      expect(heard[1]!.multipart!.files[0]!.data.equals(voiceNote())).toBe(true);
      const asked = completions().at(-1)!.body as {
        messages: { role: string; content: unknown }[];
      };
      expect(asked.messages.at(-1)).toEqual({ role: 'user', content: said });
      // The page shows the voice note with its words, once, and the one reply.
      const { messages } = (
        await getJson(second, `/api/whatsapp/conversations/${await conversationId(second)}`, token)
      ).data as {
        messages: {
          sender: string;
          text?: string;
          media?: { kind: string; transcript?: string };
        }[];
      };
      expect(
        messages.map((m) => [m.sender, m.media?.kind ?? null, m.media?.transcript ?? m.text]),
      ).toEqual([
        ['contact', 'audio', said],
        ['user', null, 'Abrimos no sábado.'],
      ]);
      second.child.kill('SIGTERM');
      expect(await waitForExit(second)).toEqual({ code: 0, signal: null });
    }

    /**
     * The reply is made and stored in the outbox, and WhatsApp refuses its first send; the process
     * is killed before the send is tried again. The next process, on the same data, sends it:
     * the contact gets it once, and the owner's page shows it sent.
     */
    async function killedWithReplyInOutbox(env: Record<string, string>) {
      ai.setOptions({ chunks: ['Abrimos', ' às 9h.'] });
      const { dataDir, serverEnv, first, token, auth, phone, inbound, sent, replies, messages } =
        await linkedNumber(env);
      // Every send fails until told otherwise, so the reply waits in the outbox through the kill.
      const failing = await post(
        first,
        `/api/whatsapp/sandbox/phones/${phone}/fail-sends`,
        { count: 100, code: '503' },
        auth,
      );
      expect(failing.status).toBe(200);
      await inbound(first, 'Que horas vocês abrem?');
      await eventually(
        async () => (await sent(first)).some((event) => event.failed === '503'),
        'a refused send of the reply',
        30_000,
      );
      await kill9(first);

      const second = await startHealthy({ dataDir, env: serverEnv });
      const healed = await post(
        second,
        `/api/whatsapp/sandbox/phones/${phone}/fail-sends`,
        { count: 0, code: '503' },
        { authorization: `Bearer ${token}` },
      );
      expect(healed.status).toBe(200);
      await eventually(
        async () => (await replies(second)).length > 0,
        'the reply sent after the restart',
        60_000,
      );
      await eventually(
        async () => (await messages(second)).at(-1)?.status === 'sent',
        'the reply shown sent',
        20_000,
      );
      expect(await replies(second)).toEqual(['Abrimos às 9h.']);
      expect((await messages(second)).map((m) => [m.sender, m.text, m.status ?? null])).toEqual([
        ['contact', 'Que horas vocês abrem?', null],
        ['user', 'Abrimos às 9h.', 'sent'],
      ]);
      second.child.kill('SIGTERM');
      expect(await waitForExit(second)).toEqual({ code: 0, signal: null });
    }

    /**
     * The number's link is down while a contact writes twice; when it comes back, WhatsApp hands
     * both messages over (a catch-up) and their one reply is being made when the process is
     * killed. The next process, on the same data, answers both together, once.
     */
    async function killedMidCatchUp(env: Record<string, string>) {
      const { dataDir, serverEnv, first, token, inbound, network, replies, messages } =
        await linkedNumber(env);
      expect((await network(first, false)).status).toBe(200);
      await inbound(first, 'Bom dia!');
      await inbound(first, 'Vocês entregam no sábado?');
      const gate = createGate();
      ai.setOptions({
        chunks: ['Entregamos', ' sim.'],
        hold: { afterChunks: 0, until: gate.opened },
      });
      const asked = ai.nextRequest();
      const completionsBefore = completions().length;
      expect((await network(first, true)).status).toBe(200);
      const question = JSON.stringify((await asked).body);
      // Both messages of the catch-up, in the one reply under way.
      expect(question).toContain('Bom dia!');
      expect(question).toContain('Vocês entregam no sábado?');
      await kill9(first);
      ai.setOptions({ chunks: ['Entregamos', ' sim.'] });
      gate.open();

      const second = await startHealthy({ dataDir, env: serverEnv });
      await answeredAfterRestart(second, token, () => replies(second), 1);
      expect(await replies(second)).toEqual(['Entregamos sim.']);
      // The reply cut short and the one made after the restart, each asked both messages.
      const asks = completions().slice(completionsBefore);
      expect(asks).toHaveLength(2);
      expect(JSON.stringify(asks[1]!.body)).toContain('Vocês entregam no sábado?');
      expect((await messages(second)).map((m) => [m.sender, m.text])).toEqual([
        ['contact', 'Bom dia!'],
        ['contact', 'Vocês entregam no sábado?'],
        ['user', 'Entregamos sim.'],
      ]);
      second.child.kill('SIGTERM');
      expect(await waitForExit(second)).toEqual({ code: 0, signal: null });
    }

    /**
     * indirect's relay: the sender says yes, and the process is killed once the relay is counted
     * but before its message is stored in the platform number's outbox (the store is held). The
     * next process, on the same data, sends it: the recipient gets it once, and a second yes sends
     * nothing more.
     */
    async function killedMidRelay(env: Record<string, string>) {
      const relayed = 'Oi, aqui é do condomínio: a garagem abre às 8h.';
      const recipient = '5511988887777';
      const { dataDir, serverEnv, first, sent } = await linkedNumber(
        {
          ...env,
          NODE_OPTIONS: `--import=${new URL('./hold-message.mjs', import.meta.url).href}`,
          HOLD_STATEMENT: 'whatsapp_insert_message',
          HOLD_MESSAGE_TEXT: relayed,
        },
        { platform: true },
      );
      const sender = {
        name: 'Bruno Costa',
        email: `bruno-${randomBytes(3).toString('hex')}@example.com`,
        password: 'senha-forte-456',
      };
      await register(first, sender);
      const login = await post(first, '/api/login', sender);
      expect(login.status).toBe(200);
      const auth = { authorization: `Bearer ${login.body.token as string}` };
      const available = await fetch(`${first.url}/api/agents/available`, { headers: auth });
      const { agents } = (await available.json()) as { agents: { id: string; name: string }[] };
      const indirect = agents.find((agent) => agent.name === 'indirect');
      if (indirect)
        expect((await post(first, '/api/agents/hire', { agentId: indirect.id }, auth)).status).toBe(
          200,
        );
      const say = async (server: ServerProcess, message: string, conversationId?: string) => {
        const res = await post(
          server,
          '/api/chat/message',
          { message, agentName: 'indirect', ...(conversationId ? { conversationId } : {}) },
          auth,
        );
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        return res.body as {
          message: { text: string; awaits?: string };
          conversation: { id: string };
        };
      };
      const shown = await say(first, `Manda pra (11) 98888-7777 dizendo: ${relayed}`);
      expect(shown.message.awaits).toBe('relayConfirm');
      const conversationId = shown.conversation.id;
      // The yes never gets its answer: the process dies under it.
      const yes = say(first, 'sim', conversationId).catch(() => undefined);
      await eventually(
        async () => first.stderr().includes('held the store of'),
        'the store of the relay held',
        15_000,
      );
      await kill9(first);
      await yes;

      const second = await startHealthy({ dataDir, env: { ...serverEnv, NODE_OPTIONS: '' } });
      const toRecipient = async () =>
        (await sent(second)).filter((event) => event.to === `${recipient}@s.whatsapp.net`);
      await eventually(async () => (await toRecipient()).length > 0, 'the relay sent', 30_000);
      expect((await toRecipient()).map((event) => event.text?.split('\n')[0])).toEqual([relayed]);
      // The sender's yes again finds nothing waiting: it was sent, and is not sent twice.
      const again = await say(second, 'sim', conversationId);
      expect(again.message.awaits).toBeUndefined();
      expect(await toRecipient()).toHaveLength(1);
      second.child.kill('SIGTERM');
      expect(await waitForExit(second)).toEqual({ code: 0, signal: null });
    }

    /** What the contact writes while the number's link is down; the store of HELD is held. */
    const WHILE_DOWN = [
      'Boa tarde!',
      'Queria encomendar um bolo.',
      'De chocolate, para sábado.',
      'Vocês entregam?',
      'Pago no pix.',
    ];
    const HELD = 2;

    /**
     * The store of one message of the catch-up, held: `stuck` resolves once the process waits on
     * it (the catch-up stores its messages one after the other, so those before it are stored and
     * none after it), `release` lets it go once the process is killed.
     */
    type HeldStore = { stuck: () => Promise<void>; release: () => Promise<void> };

    /**
     * A contact who wrote before (answered: its conversation is there) writes five messages while
     * the number's link is down; when it comes back, the process stores them oldest first and is
     * killed while it stores the third (`holdStore`): two stored, three not. The next process, on
     * the same data, stores the rest, once each and in order, and answers the five with one reply.
     */
    async function killedMidCatchUpBatch(
      env: Record<string, string>,
      holdStore: (
        first: ServerProcess,
        message: { conversationId: string; id: string },
      ) => Promise<HeldStore>,
    ) {
      ai.setOptions({ chunks: ['Olá!'] });
      const {
        dataDir,
        serverEnv,
        first,
        token,
        inbound,
        network,
        replies,
        conversationId,
        messages,
      } = await linkedNumber(env);
      await inbound(first, 'Oi!');
      await eventually(async () => (await replies(first)).length === 1, 'the first reply', 15_000);
      expect((await network(first, false)).status).toBe(200);
      const ids: string[] = [];
      for (const text of WHILE_DOWN) ids.push(await inbound(first, text));
      const held = await holdStore(first, {
        conversationId: await conversationId(first),
        id: ids[HELD]!,
      });
      // Answered once the catch-up is stored, which it never is: the kill cuts the call.
      const delivered = network(first, true).catch(() => undefined);
      await held.stuck();
      // The kill lands in the middle of the catch-up: what came before the held store is stored,
      // nothing after it.
      expect((await messages(first)).map((m) => m.text)).toEqual([
        'Oi!',
        'Olá!',
        ...WHILE_DOWN.slice(0, HELD),
      ]);
      await kill9(first);
      await delivered;
      await held.release();

      ai.setOptions({ chunks: ['Entregamos', ' sim.'] });
      const completionsBefore = completions().length;
      // Without the hold: this process stores the message like any other.
      const second = await startHealthy({ dataDir, env: { ...serverEnv, NODE_OPTIONS: '' } });
      // With Redis, the killed process's lease on the queued messages lapses first (15 s at most).
      await answeredAfterRestart(second, token, () => replies(second), 2, 60_000);
      expect(await replies(second)).toEqual(['Olá!', 'Entregamos sim.']);
      // The one reply was asked every message of the catch-up.
      const question = JSON.stringify(completions().slice(completionsBefore).at(-1)?.body);
      for (const text of WHILE_DOWN) expect(question).toContain(text);
      expect((await messages(second)).map((m) => [m.sender, m.text])).toEqual([
        ['contact', 'Oi!'],
        ['user', 'Olá!'],
        ...WHILE_DOWN.map((text) => ['contact', text]),
        ['user', 'Entregamos sim.'],
      ]);
      second.child.kill('SIGTERM');
      expect(await waitForExit(second)).toEqual({ code: 0, signal: null });
    }

    onEmbedded(
      'a catch-up killed halfway through storing it, on the embedded database: the next process stores every message once, in order, and answers them once',
      async () => {
        // The embedded database is the process's own: the process holds the store itself.
        await killedMidCatchUpBatch(
          {
            NODE_OPTIONS: `--import=${new URL('./hold-message.mjs', import.meta.url).href}`,
            HOLD_MESSAGE_TEXT: WHILE_DOWN[HELD]!,
          },
          async (first) => ({
            stuck: () =>
              eventually(
                async () => first.stderr().includes('held the store of'),
                'the store of the held message begun',
                15_000,
              ),
            release: async () => {},
          }),
        );
      },
    );

    it.runIf(process.env.TEST_DATABASE_URL)(
      'a catch-up killed halfway through storing it, on PostgreSQL: the next process stores every message once, in order, and answers them once',
      async () => {
        await onOwnPostgres((env) =>
          killedMidCatchUpBatch(env, async (_first, { conversationId, id }) => {
            // The same message written first, in a transaction left open: the process's statement
            // storing it waits on its unique key until that transaction ends, after the kill; the
            // dead process's statement then stores it, or the next process does: once either way.
            const lock = new pg.Client({ connectionString: env.DATABASE_URL });
            await lock.connect();
            await lock.query('begin');
            await lock.query(
              `insert into whatsapp_messages (conversation_id, wa_id, sender, text, created_at)
               values ($1, $2, 'contact', '', now())`,
              [conversationId, id],
            );
            return {
              stuck: () =>
                eventually(
                  async () =>
                    (
                      await lock.query(
                        'select 1 from pg_stat_activity where pg_backend_pid() = any(pg_blocking_pids(pid))',
                      )
                    ).rowCount === 1,
                  'the store of the held message waiting',
                  15_000,
                ),
              release: async () => {
                await lock.query('rollback');
                await lock.end();
              },
            };
          }),
        );
      },
    );

    onEmbedded(
      'an indirect relay counted but not yet stored, on the embedded database: the next process sends it once',
      async () => {
        await killedMidRelay({});
      },
    );

    onEmbedded(
      'a catch-up’s reply under way, on the embedded database: the next process answers both messages once',
      async () => {
        await killedMidCatchUp({});
      },
    );

    it.runIf(process.env.TEST_DATABASE_URL)(
      'a catch-up’s reply under way, on PostgreSQL: the next process answers both messages once',
      async () => {
        await onOwnPostgres(killedMidCatchUp);
      },
    );

    onEmbedded(
      'a voice note being transcribed, on the embedded database: the next process transcribes and answers it once',
      async () => {
        await killedMidTranscription({});
      },
    );

    it.runIf(process.env.TEST_DATABASE_URL)(
      'a voice note being transcribed, on PostgreSQL: the next process transcribes and answers it once',
      async () => {
        await onOwnPostgres(killedMidTranscription);
      },
    );

    onEmbedded(
      'a reply waiting in the outbox, on the embedded database: the next process sends it once',
      async () => {
        await killedWithReplyInOutbox({});
      },
    );

    it.runIf(process.env.TEST_DATABASE_URL)(
      'a reply waiting in the outbox, on PostgreSQL: the next process sends it once',
      async () => {
        await onOwnPostgres(killedWithReplyInOutbox);
      },
    );

    onEmbedded(
      'on the embedded database: the next process answers it once; the message answered before is not answered again',
      async () => {
        await killedMidReply({});
      },
    );

    it.runIf(process.env.TEST_DATABASE_URL)(
      'on PostgreSQL: the next process answers it once at its start, not after the job’s expiry',
      async () => {
        await onOwnPostgres(killedMidReply);
      },
    );
  },
);
