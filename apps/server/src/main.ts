// First: before the start's full GCs can collect the tick objects' map (see the module).
import './lib/tick-object-map';
import fs from 'node:fs';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import path from 'node:path';
import { ConfigError, loadConfig, type Config } from './config';
import { openDatabase } from './db/client';
import type { GuardLogger, InstanceGuard } from './db/instance-guard';
import { DataDirLockedError, lockDataDir } from './lib/data-dir-lock';
import { REDIS_OPTIONS } from './lib/redis';
import { PACKAGE_JSON, PGLITE_TEMPLATE } from './paths';

/** Stops the process with one line on stderr and no stack trace. */
function fail(message: string): never {
  process.stderr.write(`${message.replace(/\s*[\r\n]+\s*/g, ' ').trim()}\n`);
  process.exit(1);
}

/** What went wrong, from the innermost cause: Drizzle wraps the driver's error in "Failed query: …". */
function reason(error: unknown): string {
  let inner = error;
  while (inner instanceof Error && inner.cause instanceof Error) inner = inner.cause;
  if (!(inner instanceof Error)) return String(inner);
  return inner.message || (inner as NodeJS.ErrnoException).code || inner.name;
}

async function main() {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    throw error;
  }
  try {
    fs.mkdirSync(config.dataDir, { recursive: true });
  } catch (error) {
    fail(`Cannot create DATA_DIR ${config.dataDir}: ${(error as Error).message}`);
  }
  // The embedded database must have this directory to itself.
  const lock = config.databaseUrl
    ? undefined
    : await lockDataDir(config.dataDir, {
        // Another process took the directory over (this one stalled for seconds): writing on would
        // lose data, so stop at once.
        onLost: (error) => fail(`Lost the lock on DATA_DIR ${config.dataDir}: ${error.message}`),
      }).catch((error: unknown) => {
        if (error instanceof DataDirLockedError) fail(error.message);
        throw error;
      });

  // The database starts first, on a thread of its own, and everything else loads while it opens:
  // the embedded database's start is most of the server's. Only what the lock and the database
  // need is imported before this point.
  const opening = openDatabase({
    url: config.databaseUrl,
    dataDir: path.join(config.dataDir, 'pglite'),
    templateFile: PGLITE_TEMPLATE,
  });
  opening.catch(() => {}); // awaited below; this only keeps an early failure from going unhandled
  const [
    { buildApp },
    { default: pino },
    { default: closeWithGrace },
    { batchedDestination, loggerOptions },
    { loadJwtSecret },
  ] = await Promise.all([
    import('./app'),
    import('pino'),
    import('close-with-grace'),
    import('./lib/logger'),
    import('./lib/secrets'),
  ]);
  // Lines are gathered and written together: under load, a write per line (a round trip to
  // libuv's thread pool each) cost about as much as formatting it, a sixth of a simple request.
  // A line waits at most LOG_FLUSH_MS for the others; the log is flushed before the process exits
  // (pino's destination does it on exit, and the shutdown below asks for it).
  const logger = pino(
    loggerOptions(config.logLevel),
    batchedDestination({ dest: 1, minLength: LOG_BATCH_BYTES, periodicFlush: LOG_FLUSH_MS }),
  );
  const version = (JSON.parse(fs.readFileSync(PACKAGE_JSON, 'utf8')) as { version: string })
    .version;
  // On PostgreSQL, before anything changes the database: an instance that may not run beside
  // those already running (the shared state, see the module) stops here.
  const guard = config.databaseUrl
    ? await guardInstance({
        url: config.databaseUrl,
        sharedState: Boolean(config.redisUrl),
        logger,
      })
    : undefined;
  const database = await opening;
  // The app is built while the database opens and migrates; it touches the database only once
  // ready (the agents' seed), which waits for the migration below.
  const migrating = database.migrate();
  migrating.catch(() => {}); // awaited below; this only keeps an early failure from going unhandled

  const redis = config.redisUrl
    ? new (await import('ioredis')).Redis(config.redisUrl, REDIS_OPTIONS)
    : undefined;
  redis?.on('error', (error) => logger.warn({ err: error }, 'redis error'));

  const app = await buildApp({
    database,
    secret: loadJwtSecret({ configured: config.jwtSecret, dataDir: config.dataDir }),
    logger,
    version,
    imagesDir: config.imagesDir,
    mediaDir: config.mediaDir,
    brandDomains: config.brandDomains,
    publicUrl: config.publicUrl,
    smtpUrl: config.smtpUrl,
    mailFrom: config.mailFrom,
    redis,
    trustProxy: config.trustProxy,
    dataDir: config.dataDir,
    metricsToken: config.metricsToken,
    ai: config.ai,
    limits: {
      chat: { points: config.chatLimitPerMinute, durationSeconds: 60 },
      whatsappContact: { points: config.whatsappContactLimitPerMinute, durationSeconds: 60 },
      whatsappSendPerMinute: config.whatsappSendLimitPerMinute,
      sandboxInboundPerMinute: config.sandbox.inboundPerMinute,
    },
    whatsapp: {
      ...config.whatsapp,
      sandboxSecret: config.sandbox.secret,
      catchupMinutes: config.whatsappCatchupMinutes,
      takeoverMinutes: config.whatsappTakeoverMinutes,
      pacing: config.whatsappPacing,
      media: config.whatsappMedia,
    },
    logs: { retention: { days: config.logRetentionDays } },
  });

  try {
    await migrating;
  } catch (error) {
    fail(
      config.databaseUrl
        ? `Cannot use DATABASE_URL: ${reason(error)}`
        : `Cannot open the embedded database in ${config.dataDir}: ${reason(error)}`,
    );
  }
  try {
    await app.ready();
  } catch (error) {
    fail(`Cannot start: ${reason(error)}`);
  }

  // SIGTERM/SIGINT: stop accepting, let in-flight requests finish, then close the database.
  // Stopping with clients connected: idle kept-alive connections close at once
  // (Fastify's forceCloseConnections 'idle'), and close() waits for the requests in flight. A
  // response already under way (a streamed reply waiting on its AI provider, a file a client
  // reads slowly) or a request still arriving (a client sending slowly) would hold the process
  // as long as that provider or client likes: after RESPONSE_GRACE_MS their connections are cut.
  // Requests received and still being answered keep the whole delay.
  const responses = responsesUnderWay(app.server);
  closeWithGrace({ delay: 10_000 }, async ({ signal, err }) => {
    if (err) logger.error({ err }, 'shutting down after an error');
    else logger.info({ signal }, 'shutting down');
    const cut = setTimeout(responses.cut, RESPONSE_GRACE_MS);
    await app.close();
    clearTimeout(cut);
    await database.close();
    await redis?.quit().catch(() => {});
    // Last: a replacement may start once this one no longer serves.
    await guard?.close();
    await lock?.release();
    logger.flush();
  });

  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    fail(`Cannot listen on ${config.host}:${config.port}: ${(error as Error).message}`);
  }
}

/**
 * With DATABASE_URL: marks this instance live on the database, or stops the process with one line
 * if it may not run beside the instances there (several need REDIS_URL: db/instance-guard.ts).
 * Loaded only for PostgreSQL, as its driver is.
 */
async function guardInstance(options: {
  url: string;
  sharedState: boolean;
  logger: GuardLogger;
}): Promise<InstanceGuard> {
  const guarding = await import('./db/instance-guard');
  try {
    return await guarding.guardInstance(options);
  } catch (error) {
    if (error instanceof guarding.InstanceRefusedError) fail(error.message);
    fail(`Cannot use DATABASE_URL: ${reason(error)}`);
  }
}

/** How long a response waiting on its client may hold the shutdown (see closeWithGrace above). */
const RESPONSE_GRACE_MS = 1000;
/** The log is written once this much has gathered (a few dozen request lines)… */
const LOG_BATCH_BYTES = 4096;
/** …and at least this often, so that a quiet server's lines appear at once all the same. */
const LOG_FLUSH_MS = 100;

/**
 * Tracks `server`'s requests; `cut()` ends the connection of each one waiting on its client: its
 * request not received in full, or its response started and not yet delivered.
 */
function responsesUnderWay(server: Server) {
  // Tracked per connection (a few, kept alive), not per request: a listener registered on every
  // response cost about 2% of an API request's time. Each connection's latest response is enough.
  const connections = new Set<Socket>();
  const latest = new WeakMap<Socket, ServerResponse>();
  server.on('connection', (socket: Socket) => {
    connections.add(socket);
    socket.once('close', () => connections.delete(socket));
  });
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    latest.set(request.socket, response);
  });
  return {
    cut() {
      for (const socket of connections) {
        const response = latest.get(socket);
        if (
          response &&
          (!response.req.complete || (response.headersSent && !response.writableFinished))
        )
          socket.destroy();
      }
    },
  };
}

main().catch((error: unknown) =>
  fail(`Cannot start: ${error instanceof Error ? error.message : String(error)}`),
);
