import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import pino from 'pino';
import { inject } from 'vitest';
import { buildApp, type App, type AppDeps } from '../src/app';
import { openDatabase, type Database } from '../src/db/client';
import type { JsonObject, Jobs, Sent, Settled } from '../src/lib/jobs';
import { loggerOptions } from '../src/lib/logger';
import { REDIS_OPTIONS } from '../src/lib/redis';
import { createSharedState } from '../src/lib/shared-state';
import { createServerDatabase } from './server-database';
import { startSmtpServer } from './smtp';

export { createServerDatabase };

/**
 * A fresh database for one test file: a copy of the migrated PGlite template by default, or,
 * when TEST_DATABASE_URL is set, a copy of the migrated template database on that server, dropped
 * afterwards, so runs never see each other's rows.
 */
export async function createTestDatabase(): Promise<Database & { drop: () => Promise<void> }> {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const template = fs.readFileSync(inject('pgliteTemplate'));
    const database = await openDatabase({
      dataDir: 'memory://',
      loadDataDir: new Uint8Array(template),
    });
    return { ...database, drop: () => database.close() };
  }
  const created = await createServerDatabase(
    serverUrl,
    'contrateia_test',
    inject('postgresTemplate'),
  );
  const database = await openDatabase({ url: created.url });
  return {
    ...database,
    drop: async () => {
      await database.close();
      await created.drop();
    },
  };
}

/** A new empty directory for an app's image files, and its removal. */
export function createImagesDir(): { dir: string; remove: () => Promise<void> } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'contrateia-images-'));
  return { dir, remove: () => fs.promises.rm(dir, { recursive: true, force: true }) };
}

export type TestClock = { now: () => Date; advance: (ms: number) => void };

/** A clock that stands still until told to move. */
export function createTestClock(start = new Date()): TestClock {
  let current = start.getTime();
  return { now: () => new Date(current), advance: (ms) => void (current += ms) };
}

export type TestContext = Awaited<ReturnType<typeof createTestApp>>;

/**
 * WhatsApp's pacing in tests unless one asks for it (`whatsapp.pacing`): no burst wait, no typing
 * wait, and a sending rate no test reaches; a test of pacing turns each on with small values.
 */
export const TEST_WHATSAPP_PACING = { debounceMs: 0, typingMsPerChar: 0, sendsPerMinute: 10_000 };

/**
 * `without` for a test that does not use the monitor: its sampling (a worker thread, the mail
 * server, the database) would only add load.
 */
export const NO_MONITOR = ['monitor'] as const;

/**
 * The whole app on a fresh database, with a real SMTP server receiving its mail, a movable clock,
 * every log line captured, and Redis (TEST_REDIS_URL) for the shared limits when configured.
 * `setup` runs before the app is ready, to register test-only routes.
 */
export async function createTestApp(
  overrides: Partial<AppDeps> = {},
  {
    setup,
    database: given,
  }: {
    setup?: (app: App) => void | Promise<void>;
    /**
     * A database to use instead of a fresh one, e.g. the one an app closed before used (a
     * restart); it outlives this app (close leaves it to its owner).
     */
    database?: Database;
  } = {},
) {
  const created = given ? undefined : await createTestDatabase();
  const database: Database = given ?? created!;
  const smtp = await startSmtpServer();
  const clock = createTestClock();
  const logs: string[] = [];
  const logger = pino(
    loggerOptions('info'),
    new Writable({
      write(chunk, _encoding, callback) {
        logs.push(String(chunk));
        callback();
      },
    }),
  );
  const redis = process.env.TEST_REDIS_URL
    ? new Redis(process.env.TEST_REDIS_URL, REDIS_OPTIONS)
    : undefined;
  // A directory of its own unless given one (two instances share theirs, as machines would).
  const images = overrides.imagesDir ? undefined : createImagesDir();
  const app: App = await buildApp({
    database,
    secret: randomBytes(32).toString('hex'),
    logger,
    version: 'test',
    imagesDir: images?.dir ?? overrides.imagesDir!,
    // WhatsApp's files in the images' temporary directory, removed with it.
    mediaDir: path.join(images?.dir ?? overrides.imagesDir!, 'whatsapp-media'),
    brandDomains: 'pt-BR=contrateia.com.br,en-US=hireyourai.com,es-ES=hireyourai.com',
    publicUrl: 'https://contrateia.test',
    smtpUrl: smtp.url,
    mailFrom: 'ContrateIA <no-reply@contrateia.test>',
    clock,
    redis,
    webDistDir: '/nonexistent',
    ...overrides,
    // Each message answered at once and each reply sent at once, unless a test is about pacing.
    whatsapp: {
      transport: 'baileys',
      ...overrides.whatsapp,
      pacing: { ...TEST_WHATSAPP_PACING, ...overrides.whatsapp?.pacing },
    },
    // Always a key prefix of its own: with Redis, files running in parallel (and earlier runs)
    // would otherwise share their rate-limit counters.
    limits: { keyPrefix: `test-${randomBytes(6).toString('hex')}`, ...overrides.limits },
  });
  const jobs = followJobs(app.jobs);
  await setup?.(app);
  await app.ready();
  return {
    app,
    database,
    jobs,
    smtp,
    clock,
    logs,
    imagesDir: images?.dir ?? overrides.imagesDir!,
    mediaDir:
      overrides.mediaDir ?? path.join(images?.dir ?? overrides.imagesDir!, 'whatsapp-media'),
    close: async () => {
      await app.close();
      await smtp.close();
      await created?.drop();
      await redis?.quit();
      await images?.remove();
    },
  };
}

/**
 * Two app instances behind one load balancer: one database, one shared state (Redis with
 * TEST_REDIS_URL, else one in-memory state both use, as machines would share Redis), one images
 * directory and one clock. `deps` go to both (their `limits` get the shared key prefix); `each` adds what one
 * instance has of its own (its event hub, its reply observer).
 */
export async function createTwoInstances(
  deps: Partial<AppDeps> = {},
  each: (instance: 'a' | 'b') => Partial<AppDeps> = () => ({}),
  {
    database: given,
  }: {
    /** The database two instances closed before used (both restarted); it outlives these. */
    database?: Awaited<ReturnType<typeof createTestDatabase>>;
  } = {},
) {
  const database = given ?? (await createTestDatabase());
  const keyPrefix = `test-${randomBytes(6).toString('hex')}`;
  const memoryState = process.env.TEST_REDIS_URL ? undefined : createSharedState({ keyPrefix });
  const clock = createTestClock();
  const images = createImagesDir();
  const shared: Partial<AppDeps> = {
    database,
    imagesDir: images.dir,
    // Both sign and check tokens with one key, as JWT_SECRET gives them.
    secret: randomBytes(32).toString('hex'),
    clock,
    ...(memoryState ? { state: memoryState } : {}),
    ...deps,
    limits: { ...deps.limits, keyPrefix },
  };
  const a = await createTestApp({ ...shared, ...each('a') });
  const b = await createTestApp({ ...shared, ...each('b') });
  return {
    a,
    b,
    database,
    clock,
    keyPrefix,
    /** The in-memory state both use; undefined with Redis (each has its own connection). */
    memoryState,
    close: async () => {
      await a.close();
      await b.close();
      await memoryState?.close();
      if (!given) await database.drop();
      await images.remove();
    },
  };
}

export type SentJob = Sent & { queue: string; data: JsonObject };
export type FinishedJob = SentJob & { settled: Settled };

/**
 * Every job an app sends, in order, from the moment this is called; tests await the jobs their
 * requests caused (a WhatsApp message's reply) rather than any hook of the feature.
 */
export function followJobs(jobs: Jobs) {
  const sent: SentJob[] = [];
  const waiting = new Set<() => void>();
  jobs.onSent((job) => {
    sent.push(job);
    for (const check of waiting) check();
  });
  /** The jobs sent to `queue` so far, oldest first. */
  const sentTo = (queue: string) => sent.filter((job) => job.queue === queue);
  return {
    sentTo,
    /**
     * The `count` jobs of `queue` matching `where` sent from the `since`th job of the queue on,
     * once each has finished (done, or failed for good) on whichever instance ran it. Rejects
     * after `timeoutMs`, saying what it waited for.
     */
    /** The job `id` of `queue`, once finished, here or on another instance. */
    settledJob(queue: string, id: string): Promise<Settled> {
      return jobs.settled({ name: queue }, id, { timeoutMs: 20_000 });
    },
    async settled({
      queue,
      since = 0,
      count = 1,
      where = () => true,
      timeoutMs = 20_000,
    }: {
      queue: string;
      since?: number;
      count?: number;
      where?: (job: SentJob) => boolean;
      timeoutMs?: number;
    }): Promise<FinishedJob[]> {
      const deadline = Date.now() + timeoutMs;
      const matching = () => sentTo(queue).slice(since).filter(where).slice(0, count);
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => {
          waiting.delete(check);
          reject(
            new Error(
              `${count} job(s) of ${queue} from #${since} on: ${matching().length} sent within ${timeoutMs} ms`,
            ),
          );
        }, timeoutMs);
        const check = () => {
          if (matching().length < count) return;
          clearTimeout(timer);
          waiting.delete(check);
          resolve();
        };
        waiting.add(check);
        check();
      });
      const finished: FinishedJob[] = [];
      for (const job of matching()) {
        const timeout = Math.max(1, deadline - Date.now());
        finished.push({
          ...job,
          settled: await jobs.settled({ name: job.queue }, job.id, { timeoutMs: timeout }),
        });
      }
      return finished;
    },
  };
}

/** Method and full path of every route the app has, from Fastify's printed route tree. */
export function routesOf(ctx: TestContext): string[] {
  const routes: string[] = [];
  const path: string[] = [];
  for (const line of ctx.app.printRoutes({ commonPrefix: false }).split('\n')) {
    const match = /^((?:│ {3}| {4})*)[├└]── (\S+)(?: \(([^)]*)\))?/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    path.length = depth;
    path[depth] = match[2]!;
    for (const method of match[3]?.split(', ') ?? [])
      if (method !== 'HEAD') routes.push(`${method} ${path.join('')}`);
  }
  return routes;
}
