import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { test as base, expect, type Page } from '@playwright/test';
import { codeFromMail, startSmtpServer } from '../../server/test/smtp';

const ROOT = path.resolve(import.meta.dirname, '../../..');
export const BRAND_DOMAINS = 'pt-BR=br.contrateia.test,en-US=en.contrateia.test,es-ES=en.contrateia.test';

export type TestServer = {
  baseURL: string;
  port: number;
  smtp: Awaited<ReturnType<typeof startSmtpServer>>;
  /** The server's log so far (stdout and stderr). */
  log: () => string;
};

export type Account = { name: string; email: string; username: string; password: string };

let counter = 0;
/** A new, unique account description (not yet registered). */
export function newAccount(prefix = 'pessoa'): Account {
  counter += 1;
  const username = `${prefix}${Date.now().toString(36)}${counter}`;
  return { name: `Pessoa ${counter}`, email: `${username}@example.com`, username, password: 'segredo123' };
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

async function startServer(): Promise<{ server: TestServer; stop: () => Promise<void> }> {
  const smtp = await startSmtpServer();
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'contrateia-e2e-'));
  let output = '';
  const child: ChildProcess = spawn(process.execPath, [path.join(ROOT, 'apps/server/dist/main.js')], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SMTP_URL: smtp.url,
      BRAND_DOMAINS,
      LOG_LEVEL: 'warn',
      DATABASE_URL: '',
      REDIS_URL: '',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const baseURL = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited: ${output}`);
    try {
      const res = await fetch(`${baseURL}/api/health`);
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`server not healthy in 60 s: ${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    server: { baseURL, port, smtp, log: () => output },
    stop: async () => {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
      await smtp.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

type Fixtures = { consoleErrors: string[]; api: Api };
type WorkerFixtures = { server: TestServer; admin: Account };

/** Direct API calls for setting up state a test is not about. */
export class Api {
  constructor(private readonly server: TestServer) {}

  async post<T>(url: string, body: unknown, token?: string): Promise<{ status: number; body: T }> {
    const res = await fetch(`${this.server.baseURL}${url}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'accept-language': 'en-US', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: (await res.json()) as T };
  }

  /** Registers an account through the real flow: code mailed over SMTP, then completion. */
  async register(account: Account): Promise<void> {
    const since = this.server.smtp.messages.length;
    const sent = await this.post('/api/send-otp', { email: account.email, purpose: 'registration' });
    if (sent.status !== 200) throw new Error(`send-otp ${sent.status}: ${JSON.stringify(sent.body)}`);
    const otp = codeFromMail(await this.server.smtp.waitForMail(account.email, { since }));
    const done = await this.post('/api/complete-registration', { name: account.name, email: account.email, password: account.password, otp });
    if (done.status !== 200) throw new Error(`complete-registration ${done.status}: ${JSON.stringify(done.body)}`);
  }

  async login(account: Account): Promise<{ token: string; user: unknown }> {
    const res = await this.post<{ token: string; user: unknown }>('/api/login', { email: account.email, password: account.password });
    if (res.status !== 200) throw new Error(`login ${res.status}`);
    return res.body;
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
  // The first account on a fresh database is the admin; made once per worker.
  admin: [
    async ({ server }, use) => {
      const admin = newAccount('admin');
      await new Api(server).register(admin);
      await use(admin);
    },
    { scope: 'worker' },
  ],
  baseURL: async ({ server }, use) => use(server.baseURL),
  api: async ({ server }, use) => use(new Api(server)),
  // Every test fails on a console error or an uncaught page error (a missing translation key is
  // reported as a console error by the app's i18n setup). HTTP error statuses the test provokes
  // on purpose (401, 429...) are logged by Chromium as "Failed to load resource" and are not app errors.
  consoleErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on('console', (message) => {
        if (message.type() === 'error' && !message.text().startsWith('Failed to load resource')) errors.push(message.text());
        if (message.type() === 'warning' && /i18n|translation|missingKey/i.test(message.text())) errors.push(message.text());
      });
      page.on('pageerror', (error) => errors.push(error.message));
      await use(errors);
      expect(errors, 'console errors').toEqual([]);
    },
    { auto: true },
  ],
});

/** Signs in through the login page. */
export async function signIn(page: Page, identifier: string, password: string) {
  await page.goto('/login');
  await page.getByLabel(/usuário ou e-mail|username or email|usuario o correo/i).fill(identifier);
  await page.getByLabel(/^senha$|^password$|^contraseña$/i).fill(password);
  await page.getByRole('button', { name: /entrar|sign in|iniciar sesión/i }).click();
}

export { expect };
