import {
  DEFAULT_BRAND_DOMAINS,
  MIGRATIONS_DIR,
  PACKAGE_JSON,
  PGLITE_TEMPLATE,
  PGLITE_WORKER
} from "./chunk-5ZY5SOQ4.js";

// src/main.ts
import fs2 from "node:fs";
import path3 from "node:path";

// src/config.ts
import path from "node:path";
import { z } from "zod";
var urlWithProtocols = (protocols, example) => z.string().trim().refine((value) => {
  try {
    return protocols.includes(new URL(value).protocol);
  } catch {
    return false;
  }
}, `must be a URL like ${example}`);
var publicOrigin = z.string().trim().refine((value) => {
  try {
    const url = new URL(value);
    return ["http:", "https:"].includes(url.protocol) && !url.username && !url.password && url.pathname === "/" && !url.search && !url.hash && !/[?#]/.test(value);
  } catch {
    return false;
  }
}, "must be an origin like https://contrateia.com.br, with no path, query or credentials").transform((value) => new URL(value).origin);
var wholeNumber = (min, max, error, rangeError) => z.coerce.number({ error }).int(error).min(min, rangeError ?? `must be at least ${min}`).max(max, rangeError ?? `must be at most ${max}`);
var PORT_ERROR = "must be a port number (0-65535)";
var envSchema = z.object({
  PORT: wholeNumber(0, 65535, PORT_ERROR, PORT_ERROR).default(3e3),
  HOST: z.string().trim().min(1).default("0.0.0.0"),
  DATA_DIR: z.string().trim().min(1).default("./data"),
  DATABASE_URL: urlWithProtocols(["postgres:", "postgresql:"], "postgres://user@host:5432/db").optional(),
  REDIS_URL: urlWithProtocols(["redis:", "rediss:"], "redis://127.0.0.1:6379").optional(),
  SMTP_URL: urlWithProtocols(["smtp:", "smtps:"], "smtp://user:pass@host:587").optional(),
  MAIL_FROM: z.string().trim().min(3).default("ContrateIA <no-reply@contrateia.com.br>"),
  JWT_SECRET: z.string().min(32, "must be at least 32 characters").optional(),
  BRAND_DOMAINS: z.string().trim().regex(
    /^(pt-BR|en-US|es-ES)=[a-z0-9.-]+(,(pt-BR|en-US|es-ES)=[a-z0-9.-]+)*$/i,
    "must look like pt-BR=contrateia.com.br,en-US=hireyourai.com,es-ES=hireyourai.com"
  ).default(DEFAULT_BRAND_DOMAINS),
  PUBLIC_URL: publicOrigin.optional(),
  AI_PROVIDER: z.enum(["builtin", "openai"], { error: "must be builtin or openai" }).default("builtin"),
  AI_BASE_URL: urlWithProtocols(["http:", "https:"], "http://127.0.0.1:11434/v1").optional(),
  AI_API_KEY: z.string().optional(),
  AI_MODEL: z.string().trim().min(1).optional(),
  AI_TIMEOUT_MS: wholeNumber(1e3, 6e5, "must be a number of milliseconds").default(6e4),
  WHATSAPP_TRANSPORT: z.enum(["baileys", "sandbox"], { error: "must be baileys or sandbox" }).default("baileys"),
  WHATSAPP_WS_URL: urlWithProtocols(["ws:", "wss:"], "wss://web.whatsapp.com/ws/chat").optional(),
  CHAT_LIMIT_PER_MINUTE: wholeNumber(1, 1e5, "must be a whole number").default(30),
  WHATSAPP_CONTACT_LIMIT_PER_MINUTE: wholeNumber(1, 1e5, "must be a whole number").default(20),
  LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  TRUST_PROXY: z.enum(["true", "false"], { error: "must be true or false" }).default("false").transform((v) => v === "true")
});
var CONFIG_VARIABLES = Object.keys(envSchema.shape);
var SHOWABLE = /* @__PURE__ */ new Set(["PORT", "HOST", "LOG_LEVEL", "TRUST_PROXY", "BRAND_DOMAINS", "AI_PROVIDER", "AI_TIMEOUT_MS", "AI_MODEL", "CHAT_LIMIT_PER_MINUTE", "WHATSAPP_CONTACT_LIMIT_PER_MINUTE", "WHATSAPP_TRANSPORT"]);
var ConfigError = class extends Error {
};
function loadConfig(env = process.env) {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== void 0 && v !== ""));
  const result = envSchema.safeParse(present);
  if (!result.success) {
    const issue = result.error.issues[0];
    const name = String(issue?.path[0] ?? "environment");
    const shown = SHOWABLE.has(name) && present[name] !== void 0 ? ` (got ${JSON.stringify(String(present[name]).slice(0, 60))})` : "";
    throw new ConfigError(`Invalid configuration: ${name} ${issue?.message ?? "is invalid"}${shown}`);
  }
  const e = result.data;
  if (e.DATABASE_URL && !e.JWT_SECRET) {
    throw new ConfigError(
      "Invalid configuration: JWT_SECRET is required when DATABASE_URL is set (every instance sharing the database must sign tokens with the same key)"
    );
  }
  for (const name of ["AI_BASE_URL", "AI_MODEL"]) {
    if (e.AI_PROVIDER === "openai" && !e[name]) {
      throw new ConfigError(`Invalid configuration: ${name} is required when AI_PROVIDER=openai`);
    }
  }
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    jwtSecret: e.JWT_SECRET,
    brandDomains: e.BRAND_DOMAINS,
    publicUrl: e.PUBLIC_URL ?? `http://localhost:${e.PORT}`,
    ai: { provider: e.AI_PROVIDER, baseUrl: e.AI_BASE_URL, apiKey: e.AI_API_KEY, model: e.AI_MODEL, timeoutMs: e.AI_TIMEOUT_MS },
    chatLimitPerMinute: e.CHAT_LIMIT_PER_MINUTE,
    whatsapp: { transport: e.WHATSAPP_TRANSPORT, wsUrl: e.WHATSAPP_WS_URL },
    whatsappContactLimitPerMinute: e.WHATSAPP_CONTACT_LIMIT_PER_MINUTE,
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY
  };
}

// src/db/pglite-thread.ts
import v8 from "node:v8";
import { Worker } from "node:worker_threads";
function openPgliteThread(data) {
  v8.setFlagsFromString("--liftoff-only");
  const dump = data.loadDataDir;
  const movable = dump && dump.byteOffset === 0 && dump.byteLength === dump.buffer.byteLength && dump.buffer instanceof ArrayBuffer;
  const options = { workerData: data, transferList: movable ? [dump.buffer] : [] };
  const worker = new Worker(PGLITE_WORKER, options);
  const pending = /* @__PURE__ */ new Map();
  let nextId = 1;
  let failure;
  const ready = new Promise((resolve, reject) => {
    pending.set(0, {
      resolve: () => resolve(),
      reject: (error) => {
        reject(error);
        stop(error);
        void worker.terminate();
      }
    });
  });
  ready.catch(() => {
  });
  worker.on("message", (reply) => {
    const waiting = pending.get(reply.id);
    if (!waiting) return;
    pending.delete(reply.id);
    if (reply.ok) waiting.resolve(reply.result);
    else waiting.reject(deserializeError(reply.error));
  });
  const stop = (error) => {
    failure ??= error;
    const waiting = [...pending.values()];
    pending.clear();
    for (const { reject } of waiting) reject(failure);
  };
  worker.on("error", stop);
  worker.on("exit", (code) => stop(new Error(`The embedded database stopped (thread exit code ${code})`)));
  function call(request) {
    if (failure) return Promise.reject(failure);
    const id = nextId++;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      worker.postMessage({ ...request, id });
    });
  }
  async function query(sql, params = [], options2 = {}, tx) {
    const parsers = options2.parsers ?? {};
    const textTypes = Object.keys(parsers).map(Number);
    const rowMode = options2.rowMode ?? "object";
    const result = await call({ op: "query", sql, params, rowMode, textTypes, tx });
    if (textTypes.length > 0) applyParsers(result, parsers, rowMode);
    return result;
  }
  return {
    ready,
    query: (sql, params, options2) => query(sql, params, options2),
    async transaction(callback) {
      const tx = await call({ op: "begin" });
      let result;
      try {
        result = await callback({ query: (sql, params, options2) => query(sql, params, options2, tx) });
      } catch (error) {
        await call({ op: "end", tx, commit: false }).catch(() => {
        });
        throw error;
      }
      await call({ op: "end", tx, commit: true });
      return result;
    },
    dumpDataDir: async () => new Blob([await call({ op: "dump" })]),
    async close() {
      if (failure) return;
      await call({ op: "close" }).catch(() => {
      });
      await worker.terminate();
    }
  };
}
function applyParsers(result, parsers, rowMode) {
  result.fields.forEach((field, index) => {
    const parse = parsers[field.dataTypeID];
    if (!parse) return;
    const key = rowMode === "array" ? index : field.name;
    for (const row of result.rows) {
      const value = row[key];
      if (typeof value === "string") row[key] = parse(value);
    }
  });
}
function deserializeError(serialized) {
  const { message, name, ...fields } = serialized;
  const error = Object.assign(new Error(message), fields);
  error.name = name;
  return error;
}
var asPglite = (client) => client;

// src/db/client.ts
var MIGRATION_LOCK_KEY = 7243612001;
async function openDatabase(options) {
  if (options.url) {
    const [{ default: pg }, { drizzle: drizzlePg }, { migrate: migratePg }, schema2] = await Promise.all([
      import("pg"),
      import("drizzle-orm/node-postgres"),
      import("drizzle-orm/node-postgres/migrator"),
      import("./schema-6UC67Q6J.js")
    ]);
    const pool = new pg.Pool({ connectionString: options.url, max: 10 });
    pool.on("error", () => {
    });
    const pgDb = drizzlePg({ client: pool, schema: schema2 });
    return {
      db: pgDb,
      kind: "postgres",
      // Instances starting at once would run the same CREATEs side by side and collide: one
      // migrates under a session advisory lock while the others wait, then find nothing to do.
      migrate: async () => {
        const lock = await pool.connect();
        try {
          await lock.query("select pg_advisory_lock($1)", [MIGRATION_LOCK_KEY]);
          await migratePg(pgDb, { migrationsFolder: MIGRATIONS_DIR });
        } finally {
          await lock.query("select pg_advisory_unlock($1)", [MIGRATION_LOCK_KEY]).catch(() => {
          });
          lock.release();
        }
      },
      ping: () => answers(() => pool.query("select 1")),
      close: () => pool.end()
    };
  }
  const client = openPgliteThread({
    dataDir: options.dataDir ?? "memory://",
    loadDataDir: options.loadDataDir,
    templateFile: options.templateFile
  });
  const [{ drizzle: drizzlePglite }, { migrate: migratePglite }, schema] = await Promise.all([
    import("drizzle-orm/pglite"),
    import("drizzle-orm/pglite/migrator"),
    import("./schema-6UC67Q6J.js")
  ]);
  const pgliteDb = drizzlePglite({ client: asPglite(client), schema });
  return {
    db: pgliteDb,
    kind: "pglite",
    migrate: () => migratePglite(pgliteDb, { migrationsFolder: MIGRATIONS_DIR }),
    ping: () => answers(() => client.query("select 1")),
    close: () => client.close(),
    dumpDataDir: () => client.dumpDataDir()
  };
}
async function answers(query) {
  try {
    await query();
    return true;
  } catch {
    return false;
  }
}

// src/lib/data-dir-lock.ts
import fs from "node:fs";
import path2 from "node:path";
import lockfile from "proper-lockfile";
var DataDirLockedError = class extends Error {
};
var LOCK_TIMINGS = {
  /** A lock not refreshed for this long belongs to a dead process and is taken over. */
  staleMs: 5e3,
  /** How often the holder refreshes it. */
  updateMs: 1e3
};
async function lockDataDir(dataDir, { onLost }) {
  const real = fs.realpathSync(dataDir);
  const { staleMs, updateMs } = LOCK_TIMINGS;
  try {
    const release = await lockfile.lock(real, {
      lockfilePath: path2.join(real, ".server.lock"),
      stale: staleMs,
      update: updateMs,
      // Long enough for a dead holder's lock to go stale, so only a live holder refuses the start.
      retries: { retries: Math.ceil((staleMs + 2 * updateMs) / updateMs), factor: 1, minTimeout: updateMs, maxTimeout: updateMs },
      realpath: false,
      onCompromised: onLost
    });
    return { release: () => release().catch(() => {
    }) };
  } catch (error) {
    if (error.code === "ELOCKED") {
      throw new DataDirLockedError(
        `Another ContrateIA server is already using DATA_DIR ${real}; stop it or give this one another DATA_DIR.`
      );
    }
    throw error;
  }
}

// src/main.ts
function fail(message) {
  process.stderr.write(`${message.replace(/\s*[\r\n]+\s*/g, " ").trim()}
`);
  process.exit(1);
}
function reason(error) {
  let inner = error;
  while (inner instanceof Error && inner.cause instanceof Error) inner = inner.cause;
  if (!(inner instanceof Error)) return String(inner);
  return inner.message || inner.code || inner.name;
}
async function main() {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) fail(error.message);
    throw error;
  }
  try {
    fs2.mkdirSync(config.dataDir, { recursive: true });
  } catch (error) {
    fail(`Cannot create DATA_DIR ${config.dataDir}: ${error.message}`);
  }
  const lock = config.databaseUrl ? void 0 : await lockDataDir(config.dataDir, {
    // Another process took the directory over (this one stalled for seconds): writing on would
    // lose data, so stop at once.
    onLost: (error) => fail(`Lost the lock on DATA_DIR ${config.dataDir}: ${error.message}`)
  }).catch((error) => {
    if (error instanceof DataDirLockedError) fail(error.message);
    throw error;
  });
  const opening = openDatabase({
    url: config.databaseUrl,
    dataDir: path3.join(config.dataDir, "pglite"),
    templateFile: PGLITE_TEMPLATE
  });
  opening.catch(() => {
  });
  const [{ buildApp }, { default: pino }, { default: closeWithGrace }, { batchedDestination, loggerOptions }, { loadJwtSecret }] = await Promise.all([
    import("./app-CQEFQEJP.js"),
    import("pino"),
    import("close-with-grace"),
    import("./logger-T6OV443T.js"),
    import("./secrets-PDNU2MMT.js")
  ]);
  const logger = pino(loggerOptions(config.logLevel), batchedDestination({ dest: 1, minLength: LOG_BATCH_BYTES, periodicFlush: LOG_FLUSH_MS }));
  const version = JSON.parse(fs2.readFileSync(PACKAGE_JSON, "utf8")).version;
  const database = await opening;
  const migrating = database.migrate();
  migrating.catch(() => {
  });
  const redis = config.redisUrl ? new (await import("ioredis")).Redis(config.redisUrl, { maxRetriesPerRequest: 2 }) : void 0;
  redis?.on("error", (error) => logger.warn({ err: error }, "redis error"));
  const app = await buildApp({
    database,
    secret: loadJwtSecret({ configured: config.jwtSecret, dataDir: config.dataDir }),
    logger,
    version,
    brandDomains: config.brandDomains,
    publicUrl: config.publicUrl,
    smtpUrl: config.smtpUrl,
    mailFrom: config.mailFrom,
    redis,
    trustProxy: config.trustProxy,
    ai: config.ai,
    limits: {
      chat: { points: config.chatLimitPerMinute, durationSeconds: 60 },
      whatsappContact: { points: config.whatsappContactLimitPerMinute, durationSeconds: 60 }
    },
    whatsapp: config.whatsapp
  });
  try {
    await migrating;
  } catch (error) {
    fail(
      config.databaseUrl ? `Cannot use DATABASE_URL: ${reason(error)}` : `Cannot open the embedded database in ${config.dataDir}: ${reason(error)}`
    );
  }
  try {
    await app.ready();
  } catch (error) {
    fail(`Cannot start: ${reason(error)}`);
  }
  const responses = responsesUnderWay(app.server);
  closeWithGrace({ delay: 1e4 }, async ({ signal, err }) => {
    if (err) logger.error({ err }, "shutting down after an error");
    else logger.info({ signal }, "shutting down");
    const cut = setTimeout(responses.cut, RESPONSE_GRACE_MS);
    await app.close();
    clearTimeout(cut);
    await database.close();
    await redis?.quit().catch(() => {
    });
    await lock?.release();
    logger.flush();
  });
  try {
    await app.listen({ port: config.port, host: config.host });
  } catch (error) {
    fail(`Cannot listen on ${config.host}:${config.port}: ${error.message}`);
  }
}
var RESPONSE_GRACE_MS = 1e3;
var LOG_BATCH_BYTES = 4096;
var LOG_FLUSH_MS = 100;
function responsesUnderWay(server) {
  const connections = /* @__PURE__ */ new Set();
  const latest = /* @__PURE__ */ new WeakMap();
  server.on("connection", (socket) => {
    connections.add(socket);
    socket.once("close", () => connections.delete(socket));
  });
  server.on("request", (request, response) => {
    latest.set(request.socket, response);
  });
  return {
    cut() {
      for (const socket of connections) {
        const response = latest.get(socket);
        if (response && (!response.req.complete || response.headersSent && !response.writableFinished)) socket.destroy();
      }
    }
  };
}
main().catch((error) => fail(`Cannot start: ${error instanceof Error ? error.message : String(error)}`));
//# sourceMappingURL=main.js.map
