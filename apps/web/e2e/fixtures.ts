import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { test as base, expect, type Page } from '@playwright/test';
import { codeFromMail, startSmtpServer } from '../../server/test/smtp';

const ROOT = path.resolve(import.meta.dirname, '../../..');
export const BRAND_DOMAINS =
  'pt-BR=br.contrateia.test,en-US=en.contrateia.test,es-ES=en.contrateia.test';

export type TestServer = {
  baseURL: string;
  port: number;
  smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  /** The server's log so far (stdout and stderr). */
  log: () => string;
  /**
   * Moves the server's clock forward by `ms` (never back), for rules timed on the server such as
   * the 60 s resend cooldown; the browser's clock is page.clock's business. Shared by every test
   * of the worker, which is harmless for forward jumps of a minute or two.
   */
  advanceClock: (ms: number) => Promise<void>;
};

export type Account = { name: string; email: string; username: string; password: string };

let counter = 0;
/** A new, unique account description (not yet registered). */
export function newAccount(prefix = 'pessoa'): Account {
  counter += 1;
  const username = `${prefix}${Date.now().toString(36)}${counter}`;
  return {
    name: `Pessoa ${counter}`,
    email: `${username}@example.com`,
    username,
    password: 'segredo123',
  };
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

/**
 * Starts the built server on a fresh database; `env` adds to its environment (an AI provider, say).
 * `restart` stops it and starts it again on the same port and database, as a deploy would (its
 * clock starts afresh: advanceClock's jumps are forgotten).
 */
export async function startServer(
  env: Record<string, string> = {},
): Promise<{ server: TestServer; stop: () => Promise<void>; restart: () => Promise<void> }> {
  const smtp = await startSmtpServer();
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'contrateia-e2e-'));
  let output = '';
  const clockModule = path.join(import.meta.dirname, 'server-clock.mjs');
  const baseURL = `http://127.0.0.1:${port}`;
  let child: ChildProcess;

  const launch = async () => {
    const started: ChildProcess = spawn(
      process.execPath,
      ['--import', clockModule, path.join(ROOT, 'apps/server/dist/main.js')],
      {
        cwd: ROOT,
        env: {
          ...process.env,
          PORT: String(port),
          HOST: '127.0.0.1',
          // Links in mails (and QR codes) lead to this server.
          PUBLIC_URL: `http://127.0.0.1:${port}`,
          DATA_DIR: dataDir,
          SMTP_URL: smtp.url,
          BRAND_DOMAINS,
          LOG_LEVEL: 'warn',
          DATABASE_URL: '',
          REDIS_URL: '',
          ...env,
        },
        stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
      },
    );
    child = started;
    started.stdout?.on('data', (d: Buffer) => (output += d.toString()));
    started.stderr?.on('data', (d: Buffer) => (output += d.toString()));
    const deadline = Date.now() + 60_000;
    for (;;) {
      if (started.exitCode !== null) throw new Error(`server exited: ${output}`);
      try {
        const res = await fetch(`${baseURL}/api/health`);
        if (res.ok) break;
      } catch {
        // not listening yet
      }
      if (Date.now() > deadline) throw new Error(`server not healthy in 60 s: ${output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  const halt = async () => {
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  };
  await launch();

  let clockRequests = 0;
  const advanceClock = (ms: number) =>
    new Promise<void>((resolve, reject) => {
      clockRequests += 1;
      const id = clockRequests;
      const current = child;
      const timer = setTimeout(
        () => reject(new Error('the server did not confirm the clock change')),
        5_000,
      );
      const onMessage = (message: unknown) => {
        if (
          typeof message === 'object' &&
          message !== null &&
          (message as { id?: unknown }).id === id
        ) {
          clearTimeout(timer);
          current.off('message', onMessage);
          resolve();
        }
      };
      current.on('message', onMessage);
      current.send({ type: 'advance-clock', id, ms });
    });
  return {
    server: { baseURL, port, smtp, log: () => output, advanceClock },
    stop: async () => {
      await halt();
      await smtp.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
    restart: async () => {
      await halt();
      await launch();
    },
  };
}

type Fixtures = { consoleErrors: string[]; api: Api };
type WorkerFixtures = { server: TestServer; admin: Account };

export type Session = {
  token: string;
  user: {
    id: string;
    name: string;
    email: string;
    username: string;
    role: string;
    originalRole: string;
  };
};

let sourceAddress = 0;
/**
 * A loopback source address per call (127.0.0.2 … 127.0.0.251). The server limits the account
 * endpoints per client IP (e.g. 20 code requests a minute); set-up calls come from their own
 * addresses so they neither hit those limits nor spend the browser's (127.0.0.1) allowance.
 */
function nextSourceAddress(): string {
  sourceAddress = (sourceAddress % 250) + 1;
  return `127.0.0.${sourceAddress + 1}`;
}

/** Direct API calls for setting up state a test is not about. */
export class Api {
  constructor(private readonly server: TestServer) {}

  request<T>(
    method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
    url: string,
    body?: unknown,
    token?: string,
  ): Promise<{ status: number; body: T }> {
    const payload = body === undefined ? undefined : JSON.stringify(body);
    return new Promise((resolve, reject) => {
      const req = http.request(
        `${this.server.baseURL}${url}`,
        {
          method,
          localAddress: nextSourceAddress(),
          headers: {
            accept: 'application/json',
            'accept-language': 'en-US',
            ...(payload === undefined ? {} : { 'content-type': 'application/json' }),
            ...(token ? { authorization: `Bearer ${token}` } : {}),
          },
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => {
            try {
              resolve({
                status: res.statusCode ?? 0,
                body: (text ? JSON.parse(text) : undefined) as T,
              });
            } catch (error) {
              reject(error instanceof Error ? error : new Error(String(error)));
            }
          });
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  }

  post<T>(url: string, body: unknown, token?: string): Promise<{ status: number; body: T }> {
    return this.request<T>('POST', url, body, token);
  }

  get<T>(url: string, token?: string): Promise<{ status: number; body: T }> {
    return this.request<T>('GET', url, undefined, token);
  }

  /** Registers an account through the real flow: code mailed over SMTP, then completion. */
  async register(account: Account): Promise<void> {
    const since = this.server.smtp.messages.length;
    const sent = await this.post('/api/send-otp', {
      email: account.email,
      purpose: 'registration',
    });
    if (sent.status !== 200)
      throw new Error(`send-otp ${sent.status}: ${JSON.stringify(sent.body)}`);
    const otp = codeFromMail(await this.server.smtp.waitForMail(account.email, { since }));
    const done = await this.post('/api/complete-registration', {
      name: account.name,
      email: account.email,
      password: account.password,
      otp,
    });
    if (done.status !== 200)
      throw new Error(`complete-registration ${done.status}: ${JSON.stringify(done.body)}`);
  }

  async login(account: Account): Promise<Session> {
    const res = await this.post<Session>('/api/login', {
      email: account.email,
      password: account.password,
    });
    if (res.status !== 200) throw new Error(`login ${res.status}`);
    return res.body;
  }

  /** The status GET /api/user answers for a token: 200 while the session lives, 401 after. */
  async userStatus(token: string): Promise<number> {
    return (await this.get('/api/user', token)).status;
  }

  /** Puts an admin account back in admin mode (the mode is stored on the account, not the session). */
  async ensureAdminMode(account: Account): Promise<void> {
    const { token, user } = await this.login(account);
    if (user.role !== 'admin') {
      const res = await this.post('/api/switch-role', { targetRole: 'admin' }, token);
      if (res.status !== 200) throw new Error(`switch-role ${res.status}`);
    }
  }
}

export const test = base.extend<Fixtures, WorkerFixtures>({
  server: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const { server, stop } = await startServer();
      await use(server);
      await stop();
    },
    { scope: 'worker', timeout: 90_000 },
  ],
  // The first account on a fresh database is the admin; made once per worker, before any test
  // can register an account of its own (auto), so the admin is always this one.
  admin: [
    async ({ server }, use) => {
      const admin = newAccount('admin');
      await new Api(server).register(admin);
      await use(admin);
    },
    { scope: 'worker', auto: true },
  ],
  baseURL: async ({ server }, use) => use(server.baseURL),
  api: async ({ server }, use) => use(new Api(server)),
  // Every test fails on a console error or an uncaught page error (a missing translation key is
  // reported as a console error by the app's i18n setup). HTTP error statuses the test provokes
  // on purpose (401, 429...) are logged by Chromium as "Failed to load resource" and are not app errors.
  // Neither is Chromium's notice that the server's Cross-Origin-Opener-Policy header does not apply
  // on plain http:// to a non-local host: that is the brand-domain tests' http://*.contrateia.test
  // (production is served over HTTPS, where the header applies).
  consoleErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on('console', (message) => {
        const text = message.text();
        const environmentNoise =
          text.startsWith('Failed to load resource') ||
          text.startsWith(
            "The Cross-Origin-Opener-Policy header has been ignored, because the URL's origin was untrustworthy",
          );
        if (message.type() === 'error' && !environmentNoise) errors.push(text);
        if (message.type() === 'warning' && /i18n|translation|missingKey/i.test(text))
          errors.push(text);
      });
      page.on('pageerror', (error) => errors.push(error.message));
      await use(errors);
      expect(errors, 'console errors').toEqual([]);
    },
    { auto: true },
  ],
});

/**
 * Writes localStorage entries before the first page load of each origin in this tab, once: later
 * reloads and navigations see whatever the app made of them (so a test can log out or switch
 * language and reload).
 */
export async function seedStorage(page: Page, entries: Record<string, string>): Promise<void> {
  await page.addInitScript(
    ({ values, flag }) => {
      if (window.sessionStorage.getItem(flag)) return;
      window.sessionStorage.setItem(flag, '1');
      for (const [key, value] of Object.entries(values)) window.localStorage.setItem(key, value);
    },
    { values: entries, flag: `e2e-seeded:${Object.keys(entries).sort().join(',')}` },
  );
}

/** Starts the page signed in with a session made through the API (sign-in is not what is tested). */
export async function seedSession(page: Page, session: Session): Promise<void> {
  await seedStorage(page, { token: session.token, user: JSON.stringify(session.user) });
}

/** Starts the page in `language` (the choice the selector stores). */
export async function seedLanguage(
  page: Page,
  language: 'pt-BR' | 'en-US' | 'es-ES',
): Promise<void> {
  await seedStorage(page, { language });
}

/** A localStorage value of the page's current origin. */
export function stored(page: Page, key: string): Promise<string | null> {
  return page.evaluate((k) => window.localStorage.getItem(k), key);
}

/**
 * Stops the page's (installed, running) clock about where it is now, so its timers run only
 * through runFor/fastForward. pauseAt needs a time still ahead of the running clock: a small
 * margin, doubled if the clock got there first.
 */
export async function pauseClock(page: Page): Promise<void> {
  for (let marginMs = 50; ; marginMs *= 2) {
    const now = await page.evaluate(() => Date.now());
    try {
      await page.clock.pauseAt(now + marginMs);
      return;
    } catch (error) {
      if (marginMs >= 1_600 || !String(error).includes('to the past')) throw error;
    }
  }
}

/** Signs in through the login page. */
export async function signIn(page: Page, identifier: string, password: string) {
  await page.goto('/login');
  await page.getByLabel(/usuário ou e-mail|username or email|usuario o correo/i).fill(identifier);
  await page.getByLabel(/^senha$|^password$|^contraseña$/i).fill(password);
  await page.getByRole('button', { name: /entrar|sign in|iniciar sesión/i }).click();
}

export { expect };
