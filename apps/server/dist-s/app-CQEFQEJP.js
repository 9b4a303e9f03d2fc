import {
  DEFAULT_AGENT_NAME,
  DEFAULT_TIME_ZONES,
  DERIVED_TITLE_LENGTH,
  LANGUAGES,
  OTP_LENGTH,
  OTP_MAX_ATTEMPTS,
  OTP_RESEND_SECONDS,
  OTP_TTL_MINUTES,
  SEEDED_AGENT_NAMES,
  SESSION_MAX_AGE_DAYS,
  SESSION_TIMEOUT_MINUTES,
  USER_AGENT_MAX,
  WEB_DIST_DIR,
  accountExportSchema,
  agentSeedSchema,
  agentsResponseSchema,
  assignAgentSchema,
  changePasswordSchema,
  completeRegistrationSchema,
  conversationResponseSchema,
  conversationsQuerySchema,
  conversationsResponseSchema,
  dataResponse,
  deleteAccountSchema,
  deleteConversationResponseSchema,
  errorResponseSchema,
  forgotPasswordSchema,
  healthResponseSchema,
  hireAgentResponseSchema,
  hireAgentSchema,
  languageFromTag,
  loginSchema,
  messageResponseSchema,
  pairingQrResponseSchema,
  pairingQrSchema,
  phoneSchema,
  profileResponseSchema,
  renameConversationResponseSchema,
  renameConversationSchema,
  resetPasswordSchema,
  sandboxInboundSchema,
  sandboxOutboundSchema,
  sandboxPairSchema,
  sandboxPhoneEventSchema,
  sendMessageResponseSchema,
  sendMessageSchema,
  sendOtpSchema,
  sendWhatsAppMessageSchema,
  sessionResponseSchema,
  sessionsResponseSchema,
  sharedMessages,
  shortChatResponseSchema,
  shortChatSchema,
  switchRoleSchema,
  toggleAiSchema,
  updateProfileResponseSchema,
  updateProfileSchema,
  userResponseSchema,
  userStatsResponseSchema,
  whatsappAgentSchema,
  whatsappConversationDetailSchema,
  whatsappConversationSchema,
  whatsappMessageSchema,
  whatsappSettingsSchema,
  whatsappStatusSchema,
  whitelistSchema
} from "./chunk-5ZY5SOQ4.js";
import {
  agentHires,
  agents,
  conversations,
  messages,
  pairings,
  whatsappAccounts,
  whatsappConversations,
  whatsappMessages,
  whatsappSandboxEvents,
  whatsappSandboxLinks,
  whatsappSandboxPairings
} from "./chunk-YQ3A2WUH.js";
import {
  isLevelEnabled,
  lazyChildLoggerFactory
} from "./chunk-RB7PO6FM.js";
import {
  hashToken
} from "./chunk-ZX43WYFR.js";
import {
  linkedAccountIds
} from "./chunk-P47EXQ27.js";
import {
  emailCodes,
  sessions,
  users
} from "./chunk-NSF64HGU.js";

// src/app.ts
import Fastify, { LogController } from "fastify";
import rateLimit from "@fastify/rate-limit";
import { ResponseSerializationError, validatorCompiler } from "fastify-type-provider-zod";

// src/lib/clock.ts
var systemClock = { now: () => /* @__PURE__ */ new Date() };

// src/lib/errors.ts
function retryLater(key, waitMs, count3 = (seconds) => seconds) {
  const seconds = Math.max(1, Math.ceil(waitMs / 1e3));
  return new AppError(429, key, { params: { count: count3(seconds) }, headers: { "retry-after": String(seconds) } });
}
var AppError = class extends Error {
  constructor(statusCode, key, options = {}) {
    super(key, { cause: options.cause });
    this.statusCode = statusCode;
    this.key = key;
    this.name = "AppError";
    this.params = options.params ?? {};
    this.headers = options.headers ?? {};
    this.field = options.field;
  }
  statusCode;
  key;
  params;
  headers;
  field;
};
function translateError(error, t) {
  const params2 = Object.fromEntries(
    Object.entries(error.params).map(([name, value]) => [name, typeof value === "object" ? t(value.key) : value])
  );
  return t(error.key, params2);
}

// src/lib/i18n.ts
import i18next from "i18next";
import Negotiator from "negotiator";
function createTranslator() {
  const instance = i18next.createInstance();
  void instance.init({
    resources: Object.fromEntries(LANGUAGES.map((lng) => [lng, { translation: sharedMessages[lng] }])),
    lng: "pt-BR",
    fallbackLng: "pt-BR",
    initAsync: false,
    interpolation: { escapeValue: false }
  });
  const fixed = new Map(LANGUAGES.map((lng) => [lng, instance.getFixedT(lng)]));
  return (language) => fixed.get(language) ?? instance.getFixedT(language);
}
function languageOf(acceptLanguage) {
  if (!acceptLanguage) return "pt-BR";
  const tags = new Negotiator({ headers: { "accept-language": acceptLanguage } }).languages();
  for (const tag of tags) {
    const language = languageFromTag(tag);
    if (language) return language;
  }
  return "pt-BR";
}
var knownZones;
function timeZoneOf(header, language) {
  knownZones ??= /* @__PURE__ */ new Set([...Intl.supportedValuesOf("timeZone"), "UTC"]);
  const zone = Array.isArray(header) ? header[0] : header;
  return zone && knownZones.has(zone) ? zone : DEFAULT_TIME_ZONES[language];
}

// src/lib/time-zone.ts
var partsFormats = /* @__PURE__ */ new Map();
function offsetAt(at, timeZone) {
  let format = partsFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "numeric",
      day: "numeric",
      hour: "numeric",
      minute: "numeric",
      second: "numeric"
    });
    partsFormats.set(timeZone, format);
  }
  const parts = Object.fromEntries(
    format.formatToParts(at).map((part) => [part.type, Number(part.value)])
  );
  const wall = Date.UTC(
    parts.year,
    parts.month - 1,
    parts.day,
    parts.hour,
    parts.minute,
    parts.second
  );
  return wall - (at.getTime() - at.getMilliseconds());
}
function midnight(now, timeZone, days) {
  const wall = new Date(now.getTime() + offsetAt(now, timeZone));
  const wallMidnight = Date.UTC(
    wall.getUTCFullYear(),
    wall.getUTCMonth(),
    wall.getUTCDate() - days
  );
  const guess = new Date(wallMidnight - offsetAt(now, timeZone));
  return new Date(wallMidnight - offsetAt(guess, timeZone));
}
function startOfDay(now, timeZone) {
  return midnight(now, timeZone, 0);
}
function startOfWeek(now, timeZone) {
  const wall = new Date(now.getTime() + offsetAt(now, timeZone));
  return midnight(now, timeZone, (wall.getUTCDay() + 6) % 7);
}

// src/lib/mail.ts
import nodemailer from "nodemailer";
function createMailer({
  smtpUrl,
  from,
  logger
}) {
  if (!smtpUrl) {
    return {
      kind: "log",
      // The one case a code may be logged: without SMTP the log is how the operator reads it.
      send: async ({ to, subject, text }) => {
        logger.warn(`SMTP_URL is not set, so this mail was not sent. To: ${to}
Subject: ${subject}

${text}`);
      },
      close: () => {
      }
    };
  }
  const transport = nodemailer.createTransport(smtpUrl, { from });
  return {
    kind: "smtp",
    send: async (mail) => {
      await transport.sendMail(mail);
    },
    close: () => transport.close()
  };
}

// src/lib/shared-state.ts
import { randomUUID } from "node:crypto";
import { EventEmitter } from "node:events";
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from "rate-limiter-flexible";
var MAX_COUNTER_SECONDS = Math.floor((2 ** 31 - 1) / 1e3);
function checkWindow(name, durationSeconds) {
  if (durationSeconds > MAX_COUNTER_SECONDS) {
    throw new Error(`counter ${name}: a window of ${durationSeconds} s is longer than ${MAX_COUNTER_SECONDS} s`);
  }
}
var DEFAULT_LOCK_TTL_MS = 15e3;
function createSharedState({ redis, keyPrefix }) {
  return redis ? redisState(redis, keyPrefix) : memoryState(keyPrefix);
}
function keptAlive(ttlMs, renew, release) {
  const timer = setInterval(() => void renew().catch(() => {
  }), Math.max(100, Math.floor(ttlMs / 3)));
  timer.unref();
  let released = false;
  return {
    release: async () => {
      if (released) return;
      released = true;
      clearInterval(timer);
      await release();
    }
  };
}
function memoryState(keyPrefix) {
  const locks = /* @__PURE__ */ new Map();
  const counters = /* @__PURE__ */ new Map();
  const bus = new EventEmitter();
  bus.setMaxListeners(0);
  return {
    kind: "memory",
    redis: void 0,
    keyPrefix,
    counter({ name, points, durationSeconds }) {
      checkWindow(name, durationSeconds);
      const id = `${keyPrefix}:${name}:${points}:${durationSeconds}`;
      let counter = counters.get(id);
      if (!counter) {
        counter = new RateLimiterMemory({ points, duration: durationSeconds, keyPrefix: `${keyPrefix}:${name}` });
        counters.set(id, counter);
      }
      return counter;
    },
    async tryLock(name, { ttlMs = DEFAULT_LOCK_TTL_MS } = {}) {
      const now = Date.now();
      const held = locks.get(name);
      if (held && held.expiresAt > now) return void 0;
      const token = randomUUID();
      locks.set(name, { token, expiresAt: now + ttlMs });
      const mine = () => locks.get(name)?.token === token;
      return keptAlive(
        ttlMs,
        async () => {
          if (mine()) locks.set(name, { token, expiresAt: Date.now() + ttlMs });
        },
        async () => {
          if (mine()) locks.delete(name);
        }
      );
    },
    async isLocked(name) {
      const held = locks.get(name);
      return held !== void 0 && held.expiresAt > Date.now();
    },
    async publish(channel, message) {
      setImmediate(() => bus.emit(channel, message));
    },
    subscribe(channel, onMessage) {
      bus.on(channel, onMessage);
      return () => void bus.off(channel, onMessage);
    },
    ready: async () => {
    },
    close: async () => {
      bus.removeAllListeners();
      locks.clear();
      counters.clear();
    }
  };
}
var RENEW = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('pexpire', KEYS[1], ARGV[2]) else return 0 end`;
var RELEASE = `if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) else return 0 end`;
function redisState(redis, keyPrefix) {
  const subscriber = redis.duplicate();
  const handlers = /* @__PURE__ */ new Map();
  const resyncs = /* @__PURE__ */ new Set();
  const pending = /* @__PURE__ */ new Set();
  const channelName = (channel) => `${keyPrefix}:bus:${channel}`;
  subscriber.on("message", (channel, message) => {
    for (const handler of handlers.get(channel) ?? []) handler(message);
  });
  subscriber.on("error", () => {
  });
  let connectedOnce = false;
  subscriber.on("ready", () => {
    if (connectedOnce) for (const resync of resyncs) resync();
    connectedOnce = true;
  });
  return {
    kind: "redis",
    redis,
    keyPrefix,
    counter({ name, points, durationSeconds }) {
      checkWindow(name, durationSeconds);
      return new RateLimiterRedis({ storeClient: redis, points, duration: durationSeconds, keyPrefix: `${keyPrefix}:${name}` });
    },
    async tryLock(name, { ttlMs = DEFAULT_LOCK_TTL_MS } = {}) {
      const key = `${keyPrefix}:lock:${name}`;
      const token = randomUUID();
      const taken = await redis.set(key, token, "PX", ttlMs, "NX");
      if (taken !== "OK") return void 0;
      return keptAlive(
        ttlMs,
        () => redis.eval(RENEW, 1, key, token, ttlMs),
        async () => {
          await redis.eval(RELEASE, 1, key, token);
        }
      );
    },
    async isLocked(name) {
      return await redis.exists(`${keyPrefix}:lock:${name}`) === 1;
    },
    async publish(channel, message) {
      await redis.publish(channelName(channel), message);
    },
    subscribe(channel, onMessage, onResync) {
      const name = channelName(channel);
      let set2 = handlers.get(name);
      if (!set2) {
        set2 = /* @__PURE__ */ new Set();
        handlers.set(name, set2);
        const subscribing = subscriber.subscribe(name);
        pending.add(subscribing);
        void subscribing.catch(() => {
        }).finally(() => pending.delete(subscribing));
      }
      set2.add(onMessage);
      if (onResync) resyncs.add(onResync);
      return () => {
        set2.delete(onMessage);
        if (onResync) resyncs.delete(onResync);
      };
    },
    async ready() {
      await Promise.all(pending);
    },
    async close() {
      handlers.clear();
      resyncs.clear();
      await subscriber.quit().catch(() => subscriber.disconnect());
    }
  };
}
async function takeOrRetryLater(counter, key, messageKey, count3) {
  try {
    await counter.consume(key);
  } catch (error) {
    if (!(error instanceof RateLimiterRes)) throw error;
    throw retryLater(messageKey, error.msBeforeNext, count3);
  }
}

// src/lib/shared-cache.ts
import { LRUCache } from "lru-cache";
var EVERYTHING = "*";
function createSharedCache({
  state,
  name,
  max,
  ttlMs,
  logger
}) {
  const values = new LRUCache({ max, ttl: ttlMs });
  let generation = 0;
  const listeners = /* @__PURE__ */ new Set();
  const drop = (key) => {
    generation += 1;
    if (key === EVERYTHING) values.clear();
    else values.delete(key);
    for (const listener of listeners) listener(key === EVERYTHING ? null : key);
  };
  const channel = `cache:${name}`;
  state.subscribe(channel, drop, () => drop(EVERYTHING));
  async function announce(key) {
    drop(key);
    try {
      await state.publish(channel, key);
    } catch (error) {
      logger.warn({ err: error, cache: name }, "cache invalidation could not be published");
    }
  }
  return {
    peek: (key) => values.get(key),
    async load(key, loader) {
      const cached = values.get(key);
      if (cached !== void 0) return cached;
      const before = generation;
      const value = await loader();
      if (value !== void 0 && generation === before) values.set(key, value);
      return value;
    },
    invalidate: announce,
    invalidateAll: () => announce(EVERYTHING),
    onDrop(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    }
  };
}

// src/features/auth/auth.repository.ts
import { and, desc, eq, gt, gte, isNull, lt, lte, ne, sql } from "drizzle-orm";
async function findUserByEmail({ db, email }) {
  const [row] = await db.select().from(users).where(sql`lower(${users.email}) = lower(${email})`).limit(1);
  return row;
}
async function findUserByUsername({ db, username }) {
  const [row] = await db.select().from(users).where(eq(users.username, username.toLowerCase())).limit(1);
  return row;
}
async function findUserById({ db, id }) {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
}
async function countUsers({ db, since }) {
  const query = db.select({ n: sql`count(*)::int` }).from(users);
  const [row] = await (since ? query.where(gte(users.createdAt, since)) : query);
  return row?.n ?? 0;
}
async function newestUsers({ db, limit }) {
  return db.select({ name: users.name, createdAt: users.createdAt }).from(users).orderBy(desc(users.createdAt)).limit(limit);
}
async function findUsernamesLike({ db, base }) {
  const escaped = base.replace(/[\\%_]/g, (c) => `\\${c}`);
  const rows = await db.select({ username: users.username }).from(users).where(sql`${users.username} like ${escaped + "%"}`);
  return rows.map((r) => r.username).filter((u) => u === base || /^\d+$/.test(u.slice(base.length)));
}
async function insertUser({ db, user }) {
  const [row] = await db.insert(users).values(user).returning();
  if (!row) throw new Error("insert into users returned nothing");
  return row;
}
async function updateUserRole({ db, id, role, now }) {
  const [row] = await db.update(users).set({ role, updatedAt: now }).where(eq(users.id, id)).returning();
  return row;
}
async function lockRegistrations({ db }) {
  await db.execute(sql`select pg_advisory_xact_lock(727101)`);
}
async function upsertEmailCode({
  db,
  email,
  purpose,
  codeHash,
  now,
  expiresAt,
  cooldownStart
}) {
  const rows = await db.insert(emailCodes).values({ email, purpose, codeHash, createdAt: now, expiresAt, attempts: 0 }).onConflictDoUpdate({
    target: [emailCodes.email, emailCodes.purpose],
    set: { codeHash, createdAt: now, expiresAt, attempts: 0, consumedAt: null },
    setWhere: lte(emailCodes.createdAt, cooldownStart)
  }).returning({ id: emailCodes.id });
  return rows.length > 0;
}
async function findEmailCode({ db, email, purpose }) {
  const [row] = await db.select().from(emailCodes).where(and(eq(emailCodes.email, email), eq(emailCodes.purpose, purpose))).limit(1);
  return row;
}
async function claimEmailCodeAttempt({ db, id, maxAttempts }) {
  const [row] = await db.update(emailCodes).set({ attempts: sql`${emailCodes.attempts} + 1` }).where(and(eq(emailCodes.id, id), lt(emailCodes.attempts, maxAttempts), isNull(emailCodes.consumedAt))).returning();
  return row;
}
async function consumeEmailCode({ db, id, now }) {
  const rows = await db.update(emailCodes).set({ consumedAt: now }).where(and(eq(emailCodes.id, id), isNull(emailCodes.consumedAt))).returning({ id: emailCodes.id });
  return rows.length > 0;
}
async function insertSession({
  db,
  userId,
  now,
  createdAt,
  userAgent
}) {
  const [row] = await db.insert(sessions).values({ userId, createdAt, lastSeenAt: now, userAgent }).returning();
  if (!row) throw new Error("insert into sessions returned nothing");
  return row;
}
async function findSession({ db, id }) {
  const [row] = await db.select().from(sessions).where(eq(sessions.id, id)).limit(1);
  return row;
}
async function touchSession({ db, id, lastSeenAt }) {
  await db.update(sessions).set({ lastSeenAt }).where(and(eq(sessions.id, id), lt(sessions.lastSeenAt, lastSeenAt)));
}
async function revokeSession({ db, id, now }) {
  const [row] = await db.update(sessions).set({ revokedAt: now }).where(and(eq(sessions.id, id), isNull(sessions.revokedAt))).returning({ createdAt: sessions.createdAt });
  return row;
}
async function isSessionLive({ db, id }) {
  const [row] = await db.select({ id: sessions.id }).from(sessions).where(and(eq(sessions.id, id), isNull(sessions.revokedAt))).limit(1);
  return row !== void 0;
}
async function expireEmailCode({ db, email, purpose }) {
  await db.update(emailCodes).set({ createdAt: /* @__PURE__ */ new Date(0), expiresAt: /* @__PURE__ */ new Date(0) }).where(and(eq(emailCodes.email, email), eq(emailCodes.purpose, purpose)));
}
async function updateUserProfile({
  db,
  id,
  name,
  language,
  now
}) {
  const [row] = await db.update(users).set({ name, language, updatedAt: now }).where(eq(users.id, id)).returning();
  return row;
}
async function updateUserPassword({ db, id, passwordHash, now }) {
  const rows = await db.update(users).set({ passwordHash, updatedAt: now }).where(eq(users.id, id)).returning({ id: users.id });
  return rows.length > 0;
}
async function revokeUserSessions({ db, userId, except, now }) {
  const rows = await db.update(sessions).set({ revokedAt: now }).where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), except ? ne(sessions.id, except) : void 0)).returning({ id: sessions.id });
  return rows.map((r) => r.id);
}
async function listLiveSessions({
  db,
  userId,
  activeSince,
  signedInSince
}) {
  return db.select().from(sessions).where(
    and(
      eq(sessions.userId, userId),
      isNull(sessions.revokedAt),
      gt(sessions.lastSeenAt, activeSince),
      gte(sessions.createdAt, signedInSince)
    )
  ).orderBy(desc(sessions.lastSeenAt));
}
async function listSessionIds({ db, userId }) {
  const rows = await db.select({ id: sessions.id }).from(sessions).where(eq(sessions.userId, userId));
  return rows.map((r) => r.id);
}
async function countAdmins({ db }) {
  const [row] = await db.select({ n: sql`count(*)::int` }).from(users).where(eq(users.originalRole, "admin"));
  return row?.n ?? 0;
}
async function deleteUser({ db, id }) {
  const rows = await db.delete(users).where(eq(users.id, id)).returning({ id: users.id });
  return rows.length > 0;
}
async function deleteEmailCodes({ db, email }) {
  await db.delete(emailCodes).where(eq(emailCodes.email, email));
}

// src/features/auth/auth.service.ts
import { createHmac, randomInt, timingSafeEqual } from "node:crypto";

// src/lib/password.ts
import argon2 from "argon2";
var PASSWORD_HASH_OPTIONS = {
  type: argon2.argon2id,
  memoryCost: 19 * 1024,
  timeCost: 2,
  parallelism: 1
};
function hashPassword(password) {
  return argon2.hash(password, PASSWORD_HASH_OPTIONS);
}
var DUMMY_HASH = "$argon2id$v=19$m=19456,t=2,p=1$OtidXQHQGhkhFyR3j/eVBA$drlYkxdQ1RpZxRkFLIu9V247App7qfIPld9WsfDa6iQ";
async function verifyPassword(hash, password) {
  try {
    const ok = await argon2.verify(hash ?? DUMMY_HASH, password);
    return hash !== void 0 && ok;
  } catch {
    return false;
  }
}

// src/features/auth/auth.devices.ts
import Bowser from "bowser";
function describeDevice(userAgent) {
  if (!userAgent) return { browser: null, os: null, deviceType: "other" };
  const parsed = Bowser.parse(userAgent);
  const join = (name, version) => name ? [name, version].filter(Boolean).join(" ") : null;
  const majorVersion = parsed.browser.version?.split(".")[0];
  const type = parsed.platform.type;
  return {
    browser: join(parsed.browser.name, majorVersion),
    os: join(parsed.os.name, parsed.os.versionName ?? parsed.os.version),
    deviceType: type === "desktop" || type === "mobile" || type === "tablet" ? type : "other"
  };
}

// src/features/auth/auth.service.ts
function createAuthService(deps) {
  const { db, clock, mailer, sessions: sessions2, throttle, codes, codeKey, publicUrl, authenticator, translate, onUserCreated, collectUserData, logger } = deps;
  const hashCode = (email, purpose, code) => createHmac("sha256", codeKey).update(`${purpose}:${email}:${code}`).digest("hex");
  async function storeNewCode({ address, purpose }) {
    await codes.take({ address, purpose });
    const now = clock.now();
    const code = String(randomInt(0, 10 ** OTP_LENGTH)).padStart(OTP_LENGTH, "0");
    const stored = await upsertEmailCode({
      db,
      email: address,
      purpose,
      codeHash: hashCode(address, purpose, code),
      now,
      expiresAt: new Date(now.getTime() + OTP_TTL_MINUTES * 6e4),
      cooldownStart: new Date(now.getTime() - OTP_RESEND_SECONDS * 1e3)
    });
    if (!stored) {
      await codes.giveBack({ address, purpose });
      const current = await findEmailCode({ db, email: address, purpose });
      const readyAt = (current?.createdAt.getTime() ?? now.getTime()) + OTP_RESEND_SECONDS * 1e3;
      throw retryLater("auth.otpCooldown", readyAt - now.getTime());
    }
    return code;
  }
  async function checkCode({ address, purpose, otp }) {
    const now = clock.now();
    const current = await findEmailCode({ db, email: address, purpose });
    if (!current || current.consumedAt) throw new AppError(400, "auth.otpMissing", { field: "otp" });
    if (current.expiresAt.getTime() <= now.getTime()) throw new AppError(400, "auth.otpExpired", { field: "otp" });
    const claimed = await claimEmailCodeAttempt({ db, id: current.id, maxAttempts: OTP_MAX_ATTEMPTS });
    if (!claimed) throw new AppError(400, "auth.otpAttemptsExhausted", { field: "otp" });
    if (!sameHash(claimed.codeHash, hashCode(address, purpose, otp))) {
      const key = claimed.attempts >= OTP_MAX_ATTEMPTS ? "auth.otpAttemptsExhausted" : "auth.otpInvalid";
      throw new AppError(400, key, { field: "otp" });
    }
    return claimed;
  }
  async function sendOtp({ email, purpose, language }) {
    const owner = await findUserByEmail({ db, email });
    const code = await storeNewCode({ address: email, purpose });
    const t = translate(owner?.language ?? language);
    const mail = owner ? {
      subject: t("mail.registerAttemptSubject"),
      text: t("mail.registerAttemptText", { loginUrl: `${publicUrl}/login`, resetUrl: `${publicUrl}/forgot-password` })
    } : { subject: t("mail.otpSubject", { code }), text: t("mail.otpText", { code, minutes: OTP_TTL_MINUTES }) };
    try {
      await mailer.send({ to: email, ...mail });
    } catch (error) {
      await expireEmailCode({ db, email, purpose });
      await codes.giveBack({ address: email, purpose });
      throw new AppError(503, "errors.mailUnavailable", { cause: error });
    }
    return { email };
  }
  async function completeRegistration({ language, ...input }) {
    const { email } = input;
    const now = clock.now();
    const claimed = await checkCode({ address: email, purpose: "registration", otp: input.otp });
    const passwordHash = await hashPassword(input.password);
    let created;
    try {
      created = await db.transaction(async (tx) => {
        await lockRegistrations({ db: tx });
        if (!await consumeEmailCode({ db: tx, id: claimed.id, now })) {
          throw new AppError(400, "auth.otpMissing", { field: "otp" });
        }
        if (await findUserByEmail({ db: tx, email })) throw new AppError(409, "auth.emailTaken", { field: "email" });
        const role = await countUsers({ db: tx }) === 0 ? "admin" : "user";
        const username = chooseUsername(email, await findUsernamesLike({ db: tx, base: usernameBase(email) }));
        return insertUser({
          db: tx,
          user: { name: input.name, email, username, role, originalRole: role, passwordHash, language }
        });
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new AppError(409, "auth.emailTaken", { field: "email" });
      throw error;
    }
    await onUserCreated(created.id);
    return { user: toUser(created) };
  }
  async function login({ identifier, password, ip, userAgent }) {
    const key = identifier.toLowerCase();
    const user = key.includes("@") ? await findUserByEmail({ db, email: key }) : await findUserByUsername({ db, username: key });
    const attempt = await throttle.begin({ userId: user?.id, identifier: key, ip });
    if (!await verifyPassword(user?.passwordHash, password) || !user) {
      await attempt.failed();
      throw new AppError(401, "auth.invalidCredentials");
    }
    await attempt.succeeded();
    const { token } = await sessions2.create({ userId: user.id, userAgent });
    return { user: toUser(user), token };
  }
  async function logout({ sessionId }) {
    await sessions2.revoke({ sessionId });
  }
  async function switchRole({ user, sessionId, targetRole, userAgent }) {
    if (user.originalRole !== "admin") throw new AppError(403, "auth.roleSwitchForbidden");
    if (user.role === targetRole) {
      throw new AppError(400, "auth.alreadyInMode", { params: { role: { key: `auth.roleNames.${targetRole}` } } });
    }
    const switched = await db.transaction(async (tx) => {
      const updated = await updateUserRole({ db: tx, id: user.id, role: targetRole, now: clock.now() });
      if (!updated) throw new AppError(401, "errors.unauthorized");
      const replaced = await sessions2.replace({ sessionId, userId: user.id, userAgent, tx });
      if (!replaced) throw new AppError(401, "errors.unauthorized");
      return { updated, token: replaced.token };
    });
    await sessions2.forget([sessionId]);
    await authenticator.forgetUser(user.id);
    return { user: toUser(switched.updated), token: switched.token };
  }
  async function isSingleAgentUser(userId) {
    const row = await findUserById({ db, id: userId });
    return Boolean(row?.singleAgentName);
  }
  async function ownRow(userId) {
    const row = await findUserById({ db, id: userId });
    if (!row) throw new AppError(401, "errors.unauthorized");
    return row;
  }
  async function assertOwnPassword({ row, password, ip, field }) {
    const attempt = await throttle.begin({ userId: row.id, identifier: row.email.toLowerCase(), ip });
    if (!await verifyPassword(row.passwordHash, password)) {
      await attempt.failed();
      throw new AppError(400, "account.wrongPassword", { field });
    }
    await attempt.succeeded();
  }
  async function getProfile({ user, language }) {
    const row = await ownRow(user.id);
    return { user: toUser(row), language: row.language ?? language };
  }
  async function updateProfile({ user, name, language }) {
    const row = await updateUserProfile({ db, id: user.id, name, language, now: clock.now() });
    if (!row) throw new AppError(401, "errors.unauthorized");
    await authenticator.forgetUser(user.id);
    return { user: toUser(row), language };
  }
  async function changePassword({ user, sessionId, currentPassword, newPassword, ip }) {
    const row = await ownRow(user.id);
    await assertOwnPassword({ row, password: currentPassword, ip, field: "currentPassword" });
    const passwordHash = await hashPassword(newPassword);
    const revoked = await db.transaction(async (tx) => {
      await updateUserPassword({ db: tx, id: user.id, passwordHash, now: clock.now() });
      if (!await sessions2.isLive({ sessionId, tx })) throw new AppError(401, "errors.unauthorized");
      return sessions2.revokeAllOf({ userId: user.id, except: sessionId, tx });
    });
    await sessions2.forget(revoked);
  }
  async function listSessions({ user, sessionId }) {
    const alive = await sessions2.listAlive({ userId: user.id });
    return alive.map((s) => ({
      id: s.id,
      ...describeDevice(s.userAgent),
      createdAt: s.createdAt.toISOString(),
      lastSeenAt: s.lastSeenAt.toISOString(),
      current: s.id === sessionId
    }));
  }
  async function revokeOtherSessions({ user, sessionId }) {
    const revoked = await sessions2.revokeAllOf({ userId: user.id, except: sessionId });
    await sessions2.forget(revoked);
    return { count: revoked.length };
  }
  async function requestPasswordReset({ email: address, language }) {
    const user = await findUserByEmail({ db, email: address });
    const code = await storeNewCode({ address, purpose: "password-reset" });
    if (!user) return;
    const t = translate(user.language ?? language);
    void mailer.send({
      to: user.email,
      subject: t("mail.resetSubject", { code }),
      text: t("mail.resetText", { code, minutes: OTP_TTL_MINUTES })
    }).catch(async (error) => {
      logger.error({ err: error }, "password-reset mail failed");
      await expireEmailCode({ db, email: address, purpose: "password-reset" }).catch(() => {
      });
      await codes.giveBack({ address, purpose: "password-reset" }).catch(() => {
      });
    });
  }
  async function resetPassword({ email: address, otp, password, ip }) {
    const claimed = await checkCode({ address, purpose: "password-reset", otp });
    const passwordHash = await hashPassword(password);
    const reset = await db.transaction(async (tx) => {
      if (!await consumeEmailCode({ db: tx, id: claimed.id, now: clock.now() })) {
        throw new AppError(400, "auth.otpMissing", { field: "otp" });
      }
      const user = await findUserByEmail({ db: tx, email: address });
      if (!user) throw new AppError(400, "auth.otpInvalid", { field: "otp" });
      await updateUserPassword({ db: tx, id: user.id, passwordHash, now: clock.now() });
      return { userId: user.id, revoked: await sessions2.revokeAllOf({ userId: user.id, tx }) };
    });
    await sessions2.forget(reset.revoked);
    await throttle.recordSuccess({ userId: reset.userId, ip });
  }
  async function exportData({ user, language }) {
    const row = await ownRow(user.id);
    const alive = await sessions2.listAlive({ userId: user.id });
    const { hires, conversations: conversations2 } = await collectUserData(toUser(row), row.language ?? language);
    return {
      exportedAt: clock.now().toISOString(),
      account: {
        id: row.id,
        name: row.name,
        email: row.email,
        username: row.username,
        role: row.originalRole,
        language: row.language ?? language,
        createdAt: row.createdAt.toISOString()
      },
      sessions: alive.map((s) => ({
        id: s.id,
        ...describeDevice(s.userAgent),
        createdAt: s.createdAt.toISOString(),
        lastSeenAt: s.lastSeenAt.toISOString()
      })),
      hires,
      conversations: conversations2
    };
  }
  async function deleteAccount({ user, password, ip }) {
    const row = await ownRow(user.id);
    await assertOwnPassword({ row, password, ip, field: "password" });
    const sessionIds = await db.transaction(async (tx) => {
      await lockRegistrations({ db: tx });
      if (row.originalRole === "admin" && await countAdmins({ db: tx }) <= 1) {
        throw new AppError(409, "account.lastAdmin");
      }
      const ids = await listSessionIds({ db: tx, userId: user.id });
      await deleteUser({ db: tx, id: user.id });
      await deleteEmailCodes({ db: tx, email: row.email.toLowerCase() });
      return ids;
    });
    await sessions2.forget(sessionIds);
    await authenticator.forgetUser(user.id);
  }
  const countUsers2 = (since) => countUsers({ db, since });
  const newestUsers2 = (limit) => newestUsers({ db, limit });
  async function getUser({ id }) {
    const row = await findUserById({ db, id });
    return row && toUser(row);
  }
  return {
    sendOtp,
    completeRegistration,
    login,
    logout,
    switchRole,
    getUser,
    isSingleAgentUser,
    countUsers: countUsers2,
    newestUsers: newestUsers2,
    getProfile,
    updateProfile,
    changePassword,
    listSessions,
    revokeOtherSessions,
    requestPasswordReset,
    resetPassword,
    exportData,
    deleteAccount
  };
}
function toUser(row) {
  return {
    id: row.id,
    name: row.name,
    email: row.email,
    username: row.username,
    avatar: row.avatar,
    role: row.role,
    originalRole: row.originalRole
  };
}
function usernameBase(email) {
  const local = email.split("@")[0] ?? "";
  const base = local.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase().replace(/[^a-z0-9._-]/g, "").replace(/^[._-]+|[._-]+$/g, "").slice(0, 30);
  return base || "user";
}
function chooseUsername(email, taken) {
  const base = usernameBase(email);
  const used = new Set(taken);
  if (!used.has(base)) return base;
  let n = 2;
  while (used.has(`${base}${n}`)) n += 1;
  return `${base}${n}`;
}
function sameHash(a, b) {
  const x = Buffer.from(a, "hex");
  const y = Buffer.from(b, "hex");
  return x.length === y.length && timingSafeEqual(x, y);
}
function isUniqueViolation(error) {
  for (let e = error; e instanceof Error; e = e.cause) {
    if (e.code === "23505") return true;
  }
  return false;
}

// src/features/auth/auth.authenticator.ts
var USER_CACHE_TTL_MS = 15e3;
function createAuthenticator({
  db,
  sessions: sessions2,
  state,
  logger
}) {
  const users2 = createSharedCache({ state, name: "users", max: 5e4, ttlMs: USER_CACHE_TTL_MS, logger });
  function authenticate(token, options) {
    if (!token) return null;
    const session = sessions2.authenticate(token, options);
    return session instanceof Promise ? session.then(withUser) : withUser(session);
  }
  function withUser(session) {
    if (!session) return null;
    const cached = users2.peek(session.userId);
    if (cached) return { user: cached, sessionId: session.sessionId };
    return users2.load(session.userId, async () => {
      const row = await findUserById({ db, id: session.userId });
      return row && toUser(row);
    }).then((user) => user ? { user, sessionId: session.sessionId } : null);
  }
  const forgetUser = (userId) => users2.invalidate(userId);
  function onChange(listener) {
    const offSessions = sessions2.onChange((sessionId) => listener(sessionId === null ? null : { sessionId }));
    const offUsers = users2.onDrop((userId) => listener(userId === null ? null : { userId }));
    return () => {
      offSessions();
      offUsers();
    };
  }
  return { authenticate, forgetUser, onChange };
}

// src/plugins/auth.ts
import fp from "fastify-plugin";

// src/lib/maybe-promise.ts
function settle(value, then, fail) {
  if (value instanceof Promise) value.then(then, fail);
  else then(value);
}

// src/plugins/auth.ts
var authPlugin = fp(
  async (app, { authenticator }) => {
    app.decorateRequest("auth", null);
    app.decorate("forgetUser", authenticator.forgetUser);
    app.decorate("authenticate", function(request, _reply, done) {
      settle(
        authenticator.authenticate(bearerToken(request.headers.authorization)),
        (context) => {
          if (!context) return done(new AppError(401, "errors.unauthorized"));
          request.auth = context;
          done();
        },
        (error) => done(error)
      );
    });
    app.decorate("requireAdmin", async (request) => {
      request.auth ??= await authenticator.authenticate(bearerToken(request.headers.authorization));
      if (!request.auth) throw new AppError(401, "errors.unauthorized");
      if (request.auth.user.role !== "admin") throw new AppError(403, "errors.forbidden");
    });
  },
  { name: "auth", dependencies: ["i18n"] }
);
function bearerToken(header) {
  if (!header || !BEARER.test(header)) return void 0;
  return header.slice(7).trim() || void 0;
}
var BEARER = /^bearer /i;
function authOf(request) {
  if (!request.auth) throw new AppError(401, "errors.unauthorized");
  return request.auth;
}

// src/features/auth/auth.routes.ts
var DEFAULT_AUTH_ROUTE_LIMITS = {
  sendOtpPerMinute: 20,
  registrationPerMinute: 30,
  loginPerMinute: 60
};
var errors = { 400: errorResponseSchema, 401: errorResponseSchema, 403: errorResponseSchema, 409: errorResponseSchema, 429: errorResponseSchema };
var perMinute = (max) => ({ rateLimit: { max, timeWindow: 6e4 } });
var authRoutes = async (app, { auth, limits }) => {
  app.post(
    "/send-otp",
    { schema: { body: sendOtpSchema, response: { 200: messageResponseSchema, ...errors } }, config: perMinute(limits.sendOtpPerMinute) },
    async (request) => {
      const { email } = await auth.sendOtp({ ...request.body, language: request.language });
      return { success: true, message: request.t("auth.otpSent", { email }) };
    }
  );
  app.post(
    "/complete-registration",
    {
      schema: { body: completeRegistrationSchema, response: { 200: messageResponseSchema, ...errors } },
      config: perMinute(limits.registrationPerMinute)
    },
    async (request) => {
      await auth.completeRegistration({ ...request.body, language: request.language });
      return { success: true, message: request.t("auth.registered") };
    }
  );
  app.post(
    "/login",
    { schema: { body: loginSchema, response: { 200: sessionResponseSchema, ...errors } }, config: perMinute(limits.loginPerMinute) },
    async (request) => {
      const { user, token } = await auth.login({
        identifier: request.body.email,
        password: request.body.password,
        ip: request.ip,
        userAgent: request.headers["user-agent"]
      });
      return { success: true, message: request.t("auth.loginSuccess", { name: user.name }), user, token };
    }
  );
  app.get(
    "/user",
    { schema: { response: { 200: userResponseSchema, 401: errorResponseSchema } }, preHandler: app.authenticate },
    async (request) => ({ user: authOf(request).user })
  );
  app.post(
    "/logout",
    { schema: { response: { 200: messageResponseSchema, 401: errorResponseSchema } }, preHandler: app.authenticate },
    async (request) => {
      await auth.logout({ sessionId: authOf(request).sessionId });
      return { success: true, message: request.t("auth.loggedOut") };
    }
  );
  app.post(
    "/switch-role",
    { schema: { body: switchRoleSchema, response: { 200: sessionResponseSchema, ...errors } }, preHandler: app.authenticate },
    async (request) => {
      const { user, sessionId } = authOf(request);
      const switched = await auth.switchRole({
        user,
        sessionId,
        targetRole: request.body.targetRole,
        userAgent: request.headers["user-agent"]
      });
      const role = request.t(`auth.roleNames.${request.body.targetRole}`);
      return { success: true, message: request.t("auth.roleSwitched", { role }), ...switched };
    }
  );
  const signedIn = { preHandler: app.authenticate };
  app.get(
    "/profile",
    { schema: { response: { 200: profileResponseSchema, 401: errorResponseSchema } }, ...signedIn },
    async (request) => auth.getProfile({ user: authOf(request).user, language: request.language })
  );
  app.patch(
    "/profile",
    { schema: { body: updateProfileSchema, response: { 200: updateProfileResponseSchema, ...errors } }, ...signedIn },
    async (request) => {
      const updated = await auth.updateProfile({ user: authOf(request).user, ...request.body });
      return { success: true, message: request.t("account.profileSaved"), ...updated };
    }
  );
  app.post(
    "/change-password",
    {
      schema: { body: changePasswordSchema, response: { 200: messageResponseSchema, ...errors } },
      config: perMinute(limits.loginPerMinute),
      ...signedIn
    },
    async (request) => {
      const { user, sessionId } = authOf(request);
      await auth.changePassword({ user, sessionId, ip: request.ip, ...request.body });
      return { success: true, message: request.t("account.passwordChanged") };
    }
  );
  app.get("/sessions", { schema: { response: { 200: sessionsResponseSchema, 401: errorResponseSchema } }, ...signedIn }, async (request) => {
    const { user, sessionId } = authOf(request);
    return { sessions: await auth.listSessions({ user, sessionId }) };
  });
  app.post(
    "/sessions/revoke-others",
    { schema: { response: { 200: messageResponseSchema, 401: errorResponseSchema } }, ...signedIn },
    async (request) => {
      const { user, sessionId } = authOf(request);
      const { count: count3 } = await auth.revokeOtherSessions({ user, sessionId });
      return { success: true, message: request.t("account.otherSessionsEnded", { count: count3 }) };
    }
  );
  app.post(
    "/forgot-password",
    { schema: { body: forgotPasswordSchema, response: { 200: messageResponseSchema, ...errors } }, config: perMinute(limits.sendOtpPerMinute) },
    async (request) => {
      await auth.requestPasswordReset({ email: request.body.email, language: request.language });
      return { success: true, message: request.t("account.resetCodeSent", { email: request.body.email }) };
    }
  );
  app.post(
    "/reset-password",
    {
      schema: { body: resetPasswordSchema, response: { 200: messageResponseSchema, ...errors } },
      config: perMinute(limits.registrationPerMinute)
    },
    async (request) => {
      await auth.resetPassword({ ...request.body, ip: request.ip });
      return { success: true, message: request.t("account.passwordReset") };
    }
  );
  app.get(
    "/account/export",
    { schema: { response: { 200: accountExportSchema, 401: errorResponseSchema } }, ...signedIn },
    async (request, reply) => {
      const data = await auth.exportData({ user: authOf(request).user, language: request.language });
      reply.header("content-disposition", `attachment; filename="contrateia-${data.account.username}.json"`).header("cache-control", "no-store");
      return data;
    }
  );
  app.post(
    "/account/delete",
    {
      schema: { body: deleteAccountSchema, response: { 200: messageResponseSchema, ...errors } },
      config: perMinute(limits.loginPerMinute),
      ...signedIn
    },
    async (request) => {
      await auth.deleteAccount({ user: authOf(request).user, password: request.body.password, ip: request.ip });
      return { success: true, message: request.t("account.accountDeleted") };
    }
  );
};

// src/features/auth/auth.sessions.ts
import { SignJWT, jwtVerify } from "jose";
import { LRUCache as LRUCache2 } from "lru-cache";
var CACHE_TTL_MS = 15e3;
var PERSIST_EVERY_MS = 6e4;
function createSessionStore({
  db,
  secret,
  clock,
  timeoutMs,
  maxAgeMs,
  state,
  logger
}) {
  const key = crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
    "sign",
    "verify"
  ]);
  const cache = createSharedCache({ state, name: "sessions", max: 5e4, ttlMs: CACHE_TTL_MS, logger });
  const verified = new LRUCache2({ max: 5e4 });
  async function create({
    userId,
    userAgent,
    signedInAt,
    tx = db
  }) {
    const now = clock.now();
    const session = await insertSession({ db: tx, userId, now, createdAt: signedInAt ?? now, userAgent: cleanUserAgent(userAgent) });
    const token = await new SignJWT({ sid: session.id }).setProtectedHeader({ alg: "HS256", typ: "JWT" }).setSubject(userId).setIssuedAt(Math.floor(now.getTime() / 1e3)).sign(await key);
    return { token, sessionId: session.id };
  }
  function authenticate(token, { touch = true } = {}) {
    const claims = verified.get(token);
    return claims ? checkSession(claims, touch) : verifyToken(token).then((checked) => checked && checkSession(checked, touch));
  }
  async function verifyToken(token) {
    let claims;
    try {
      const { payload } = await jwtVerify(token, await key, { algorithms: ["HS256"] });
      claims = { sessionId: payload.sid, userId: payload.sub };
    } catch {
      return null;
    }
    verified.set(token, claims);
    return claims;
  }
  function checkSession({ sessionId, userId }, touch) {
    if (typeof sessionId !== "string" || typeof userId !== "string" || !isUuid(sessionId)) return null;
    const entry = cache.peek(sessionId);
    if (entry) return extend(entry, { sessionId, userId }, touch);
    return cache.load(sessionId, async () => {
      const row = await findSession({ db, id: sessionId });
      return row && {
        userId: row.userId,
        createdAt: row.createdAt.getTime(),
        lastSeenAt: row.lastSeenAt.getTime(),
        persistedAt: row.lastSeenAt.getTime(),
        revoked: row.revokedAt !== null
      };
    }).then((loaded) => loaded ? extend(loaded, { sessionId, userId }, touch) : null);
  }
  function extend(entry, claims, touch) {
    if (entry.revoked || entry.userId !== claims.userId) return null;
    const now = clock.now().getTime();
    if (now - entry.lastSeenAt > timeoutMs || now - entry.createdAt > maxAgeMs) return null;
    if (!touch) return claims;
    entry.lastSeenAt = Math.max(entry.lastSeenAt, now);
    if (now - entry.persistedAt < PERSIST_EVERY_MS) return claims;
    entry.persistedAt = now;
    return touchSession({ db, id: claims.sessionId, lastSeenAt: new Date(now) }).then(() => claims);
  }
  async function revoke({ sessionId }) {
    await revokeSession({ db, id: sessionId, now: clock.now() });
    await cache.invalidate(sessionId);
  }
  async function replace({
    sessionId,
    userId,
    userAgent,
    tx
  }) {
    const revoked = await revokeSession({ db: tx, id: sessionId, now: clock.now() });
    return revoked && create({ userId, userAgent, signedInAt: revoked.createdAt, tx });
  }
  const isLive = ({ sessionId, tx = db }) => isSessionLive({ db: tx, id: sessionId });
  async function revokeAllOf({ userId, except, tx = db }) {
    return revokeUserSessions({ db: tx, userId, except, now: clock.now() });
  }
  async function forget(sessionIds) {
    await Promise.all(sessionIds.map((id) => cache.invalidate(id)));
  }
  async function listAlive({ userId }) {
    const now = clock.now().getTime();
    const rows = await listLiveSessions({
      db,
      userId,
      activeSince: new Date(now - timeoutMs),
      signedInSince: new Date(now - maxAgeMs)
    });
    return rows.map((row) => {
      const cached = cache.peek(row.id);
      const lastSeenAt = cached && !cached.revoked ? Math.max(cached.lastSeenAt, row.lastSeenAt.getTime()) : row.lastSeenAt.getTime();
      return { id: row.id, userAgent: row.userAgent, createdAt: row.createdAt, lastSeenAt: new Date(lastSeenAt) };
    });
  }
  const onChange = (listener) => cache.onDrop(listener);
  return { create, authenticate, revoke, replace, isLive, revokeAllOf, forget, listAlive, onChange };
}
function cleanUserAgent(value) {
  const text = (value ?? "").replace(/[\u0000-\u001f\u007f]/g, "").trim().slice(0, USER_AGENT_MAX);
  return text || null;
}
function isUuid(value) {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);
}

// src/features/auth/auth.throttle.ts
import { RateLimiterRes as RateLimiterRes2 } from "rate-limiter-flexible";
var DEFAULT_LOGIN_LIMITS = {
  windowSeconds: 15 * 60,
  perIp: 50,
  perAccount: 10,
  baseDelaySeconds: 1,
  maxDelaySeconds: 5 * 60,
  accountWindowSeconds: 24 * 60 * 60,
  // Within the shared state's longest window (MAX_COUNTER_SECONDS, some 24 days).
  knownIpSeconds: 20 * 24 * 60 * 60
};
function loginDelaySeconds(turn, limits) {
  return Math.ceil(Math.min(limits.maxDelaySeconds, limits.baseDelaySeconds * 2 ** turn));
}
function createLoginThrottle({ limits, state }) {
  if (limits.perAccount < 1 || limits.baseDelaySeconds < 1) throw new Error("login limits: perAccount and baseDelaySeconds must be at least 1");
  const byIp = state.counter({ name: "login-fail:ip", points: limits.perIp, durationSeconds: limits.windowSeconds });
  const free = state.counter({ name: "login-free", points: limits.perAccount - 1, durationSeconds: limits.accountWindowSeconds });
  const turns = state.counter({ name: "login-turns", points: 1, durationSeconds: limits.accountWindowSeconds });
  const waiting = state.counter({ name: "login-wait", points: 1, durationSeconds: limits.maxDelaySeconds });
  const known = state.counter({ name: "login-known-ip", points: 1, durationSeconds: limits.knownIpSeconds });
  const userKey = (userId) => `user:${userId}`;
  const accountKey = ({ userId, identifier }) => userId ? userKey(userId) : `name:${identifier}`;
  const knownIpKey = (account, ip) => `${account} ${ip}`;
  async function countedAs(account, ip) {
    const key = knownIpKey(account, ip);
    return await known.get(key) ? key : account;
  }
  async function begin({ ip, ...target }) {
    const account = accountKey(target);
    const [fromIp, key] = await Promise.all([byIp.get(ip), countedAs(account, ip)]);
    if (fromIp && fromIp.consumedPoints >= limits.perIp && fromIp.msBeforeNext > 0) throw walled(fromIp.msBeforeNext);
    await takeTurn(key);
    return {
      failed: async () => {
        await byIp.consume(ip).catch(ignoreSpent);
      },
      succeeded: () => forget(key, knownIpKey(account, ip))
    };
  }
  async function takeTurn(key) {
    try {
      await free.consume(key);
      return;
    } catch (error) {
      ignoreSpent(error);
    }
    const [wait, taken] = await Promise.all([waiting.get(key), turns.get(key)]);
    if (wait && wait.msBeforeNext > 0) throw delayed(wait.msBeforeNext);
    const seconds = loginDelaySeconds(taken?.consumedPoints ?? 0, limits);
    const turn = await waiting.penalty(key, 1, { customDuration: seconds });
    if (turn.consumedPoints > 1) throw delayed(turn.msBeforeNext);
    await turns.penalty(key);
  }
  async function forget(key, ipKey) {
    await Promise.all([free.delete(key), turns.delete(key), waiting.delete(key), known.set(ipKey, 1, limits.knownIpSeconds)]);
  }
  async function recordSuccess({ userId, ip }) {
    const account = userKey(userId);
    await forget(await countedAs(account, ip), knownIpKey(account, ip));
  }
  return { begin, recordSuccess };
}
function delayed(waitMs) {
  return waitMs < 12e4 ? retryLater("auth.loginThrottledSeconds", waitMs) : walled(waitMs);
}
function walled(waitMs) {
  return retryLater("auth.loginThrottled", waitMs, (seconds) => Math.ceil(seconds / 60));
}
var DEFAULT_CODE_LIMITS = { windowSeconds: 24 * 60 * 60, perAddress: 5 };
function createCodeLimiter({ limits, state }) {
  const sent2 = state.counter({ name: "email-codes", points: limits.perAddress, durationSeconds: limits.windowSeconds });
  const key = ({ address, purpose }) => `${purpose}:${address}`;
  async function take(code) {
    await takeOrRetryLater(sent2, key(code), "auth.otpDailyLimit", (seconds) => Math.ceil(seconds / 3600));
  }
  async function giveBack(code) {
    await sent2.reward(key(code), 1);
  }
  return { take, giveBack };
}
function ignoreSpent(error) {
  if (!(error instanceof RateLimiterRes2)) throw error;
}

// src/features/system/system.routes.ts
var systemRoutes = async (app, { database, version }) => {
  app.get(
    "/health",
    { schema: { response: { 200: healthResponseSchema, 503: errorResponseSchema } } },
    async () => {
      if (!await database.ping()) throw new AppError(503, "errors.unavailable");
      return { status: "ok", database: database.kind, version };
    }
  );
};

// src/features/agents/agents.routes.ts
var errors2 = { 400: errorResponseSchema, 401: errorResponseSchema, 403: errorResponseSchema, 404: errorResponseSchema };
var agentsRoutes = async (app, { agents: agents2 }) => {
  app.addHook("preHandler", app.authenticate);
  app.get("/agents/user", { schema: { response: { 200: agentsResponseSchema, 401: errorResponseSchema } } }, async (request) => ({
    agents: await agents2.listHired({ user: authOf(request).user, language: request.language })
  }));
  app.get("/agents/available", { schema: { response: { 200: agentsResponseSchema, 401: errorResponseSchema } } }, async (request) => ({
    agents: await agents2.listAvailable({ user: authOf(request).user, language: request.language })
  }));
  app.post("/agents/hire", { schema: { body: hireAgentSchema, response: { 200: hireAgentResponseSchema, ...errors2 } } }, async (request) => {
    const { agent } = await agents2.hire({ user: authOf(request).user, agentId: request.body.agentId, language: request.language });
    return { success: true, message: request.t("agents.hired", { name: agent.displayName }), agent };
  });
};

// src/features/agents/agents.repository.ts
import { and as and2, eq as eq2, isNull as isNull2, lt as lt2, or, sql as sql2 } from "drizzle-orm";
async function listAgents({ db }) {
  return db.select().from(agents).orderBy(agents.createdAt, agents.name);
}
async function syncSeededAgents({ db, rows }) {
  const stored = new Map(
    (await db.select({ name: agents.name, seedVersion: agents.seedVersion, editedAt: agents.editedAt }).from(agents)).map((r) => [r.name, r])
  );
  const missing = rows.filter((r) => !stored.has(r.name));
  if (missing.length > 0) await db.insert(agents).values(missing).onConflictDoNothing({ target: agents.name });
  for (const row of rows) {
    const current = stored.get(row.name);
    if (!current || current.editedAt !== null || (current.seedVersion ?? 0) >= row.seedVersion) continue;
    const { name, ...content } = row;
    await db.update(agents).set(content).where(and2(eq2(agents.name, name), isNull2(agents.editedAt), or(isNull2(agents.seedVersion), lt2(agents.seedVersion, row.seedVersion))));
  }
}
async function listHiredAgentIds({ db, userId }) {
  const rows = await db.select({ agentId: agentHires.agentId }).from(agentHires).where(eq2(agentHires.userId, userId));
  return new Set(rows.map((r) => r.agentId));
}
async function isHired({ db, userId, agentId }) {
  const [row] = await db.select({ one: sql2`1` }).from(agentHires).where(and2(eq2(agentHires.userId, userId), eq2(agentHires.agentId, agentId))).limit(1);
  return row !== void 0;
}
async function insertHire({ db, userId, agentId }) {
  await db.insert(agentHires).values({ userId, agentId }).onConflictDoNothing();
}

// src/features/agents/seed/administrador.json
var administrador_default = {
  seedVersion: 4,
  displayName: {
    "pt-BR": "Administrador",
    "en-US": "Administrator",
    "es-ES": "Administrador"
  },
  description: {
    "pt-BR": "Para administradores: n\xFAmeros do sistema ao vivo e onde encontrar cada configura\xE7\xE3o.",
    "en-US": "For administrators: live system figures and where to find each setting.",
    "es-ES": "Para administradores: cifras del sistema en vivo y d\xF3nde encontrar cada ajuste."
  },
  adminOnly: true,
  configuration: {
    instructions: "You are Administrador, the system administration assistant of ContrateIA, and you speak only to administrators. ContrateIA is a web application, sold first in Brazil, where people hire their own AI agents, chat with them, and connect a WhatsApp number so that an agent answers their contacts. Answer questions about the system from the live figures given to you (users, conversations and messages in total, today and this week, the newest accounts, database and mail status) and explain the server configuration variables. The admin panel, logs, monitor and image pages do not exist yet: say so plainly, and never link to them. Use only the figures given; never guess a number. Never reveal secrets such as passwords, tokens or API keys. Be concise: a few short sentences or a short list, in Markdown.",
    welcomeMessage: {
      "pt-BR": "Ol\xE1! Eu sou o Administrador. Pergunte, por exemplo, quantos usu\xE1rios h\xE1, quantas conversas houve hoje ou como est\xE1 o banco de dados.",
      "en-US": "Hello! I'm the Administrator. Ask me, for example, how many users there are, how many conversations there were today or how the database is doing.",
      "es-ES": "\xA1Hola! Soy el Administrador. Preg\xFAntame, por ejemplo, cu\xE1ntos usuarios hay, cu\xE1ntas conversaciones hubo hoy o c\xF3mo est\xE1 la base de datos."
    },
    model: {
      model: null,
      temperature: 0.3,
      maxReplyLength: 2e3
    },
    capabilities: {
      skills: ["liveFacts"],
      fallback: "notFound"
    },
    knowledge: [
      {
        id: "administrador.panel.pt-BR",
        language: "pt-BR",
        title: "O painel de administra\xE7\xE3o",
        content: "O painel de administra\xE7\xE3o (conte\xFAdo, tema e textos das p\xE1ginas) **ainda n\xE3o est\xE1 dispon\xEDvel**.",
        keywords: [
          "painel de administra\xE7\xE3o",
          "admin",
          "administra\xE7\xE3o",
          "conte\xFAdo",
          "tema",
          "cores",
          "textos"
        ]
      },
      {
        id: "administrador.panel.en-US",
        language: "en-US",
        title: "The admin panel",
        content: "The admin panel (content, theme and page texts) **is not available yet**.",
        keywords: [
          "admin panel",
          "admin",
          "administration",
          "content",
          "theme",
          "colours",
          "colors",
          "texts"
        ]
      },
      {
        id: "administrador.panel.es-ES",
        language: "es-ES",
        title: "El panel de administraci\xF3n",
        content: "El panel de administraci\xF3n (contenido, tema y textos de las p\xE1ginas) **todav\xEDa no est\xE1 disponible**.",
        keywords: [
          "panel de administraci\xF3n",
          "admin",
          "administraci\xF3n",
          "contenido",
          "tema",
          "colores",
          "textos"
        ]
      },
      {
        id: "administrador.agents.pt-BR",
        language: "pt-BR",
        title: "Gerenciar agentes",
        content: "Gerenciar agentes (criar, ativar, desativar, testar) **ainda n\xE3o est\xE1 dispon\xEDvel** na interface: hoje os agentes s\xE3o os cinco que v\xEAm com o ContrateIA.",
        keywords: [
          "agentes",
          "criar agente",
          "desativar agente",
          "ativar agente",
          "excluir agente",
          "testar agente",
          "usu\xE1rio de um agente s\xF3",
          "conhecimento"
        ]
      },
      {
        id: "administrador.agents.en-US",
        language: "en-US",
        title: "Manage agents",
        content: "Managing agents (create, activate, deactivate, test) **is not available yet** in the interface: today the agents are the five that come with ContrateIA.",
        keywords: [
          "agents",
          "create agent",
          "deactivate agent",
          "activate agent",
          "delete agent",
          "test agent",
          "single-agent user",
          "knowledge"
        ]
      },
      {
        id: "administrador.agents.es-ES",
        language: "es-ES",
        title: "Gestionar agentes",
        content: "Gestionar agentes (crear, activar, desactivar, probar) **todav\xEDa no est\xE1 disponible** en la interfaz: hoy los agentes son los cinco que vienen con ContrateIA.",
        keywords: [
          "agentes",
          "crear agente",
          "desactivar agente",
          "activar agente",
          "eliminar agente",
          "probar agente",
          "usuario de un solo agente",
          "conocimiento"
        ]
      },
      {
        id: "administrador.settings.pt-BR",
        language: "pt-BR",
        title: "Configura\xE7\xF5es do sistema",
        content: "As configura\xE7\xF5es do sistema (manuten\xE7\xE3o, cadastro, verifica\xE7\xE3o de e-mail, arquivos, dura\xE7\xE3o da sess\xE3o) **ainda n\xE3o est\xE3o dispon\xEDveis** na interface.",
        keywords: [
          "configura\xE7\xF5es",
          "manuten\xE7\xE3o",
          "modo de manuten\xE7\xE3o",
          "cadastro",
          "verifica\xE7\xE3o de e-mail",
          "tamanho de arquivo",
          "sess\xE3o",
          "tempo de sess\xE3o"
        ]
      },
      {
        id: "administrador.settings.en-US",
        language: "en-US",
        title: "System settings",
        content: "System settings (maintenance, registration, e-mail verification, files, session length) **are not available yet** in the interface.",
        keywords: [
          "settings",
          "maintenance",
          "maintenance mode",
          "registration",
          "email verification",
          "file size",
          "session",
          "session timeout"
        ]
      },
      {
        id: "administrador.settings.es-ES",
        language: "es-ES",
        title: "Ajustes del sistema",
        content: "Los ajustes del sistema (mantenimiento, registro, verificaci\xF3n de correo, archivos, duraci\xF3n de la sesi\xF3n) **todav\xEDa no est\xE1n disponibles** en la interfaz.",
        keywords: [
          "ajustes",
          "mantenimiento",
          "modo de mantenimiento",
          "registro",
          "verificaci\xF3n de correo",
          "tama\xF1o de archivo",
          "sesi\xF3n",
          "duraci\xF3n de la sesi\xF3n"
        ]
      },
      {
        id: "administrador.logs.pt-BR",
        language: "pt-BR",
        title: "Logs do sistema",
        content: "A p\xE1gina de registros do sistema **ainda n\xE3o est\xE1 dispon\xEDvel**; os registros do servidor saem no log do processo.",
        keywords: ["logs", "registros", "erros", "log do servidor", "auditoria"]
      },
      {
        id: "administrador.logs.en-US",
        language: "en-US",
        title: "System logs",
        content: "The system logs page **is not available yet**; the server writes its records to the process log.",
        keywords: ["logs", "log", "records", "errors", "server log", "audit"]
      },
      {
        id: "administrador.logs.es-ES",
        language: "es-ES",
        title: "Registros del sistema",
        content: "La p\xE1gina de registros del sistema **todav\xEDa no est\xE1 disponible**; el servidor escribe sus registros en el log del proceso.",
        keywords: ["registros", "logs", "errores", "registro del servidor", "auditor\xEDa"]
      },
      {
        id: "administrador.monitor.pt-BR",
        language: "pt-BR",
        title: "Monitor do sistema",
        content: 'O monitor do sistema (CPU, mem\xF3ria, disco, servi\xE7os) **ainda n\xE3o est\xE1 dispon\xEDvel**. Posso dizer agora o estado do banco de dados e do e-mail: pergunte "status do sistema".',
        keywords: [
          "monitor",
          "desempenho",
          "cpu",
          "mem\xF3ria",
          "disco",
          "rede",
          "servi\xE7os",
          "uptime"
        ]
      },
      {
        id: "administrador.monitor.en-US",
        language: "en-US",
        title: "System monitor",
        content: 'The system monitor (CPU, memory, disk, services) **is not available yet**. I can tell you the state of the database and mail right now: ask "system status".',
        keywords: [
          "monitor",
          "performance",
          "cpu",
          "memory",
          "disk",
          "network",
          "services",
          "uptime"
        ]
      },
      {
        id: "administrador.monitor.es-ES",
        language: "es-ES",
        title: "Monitor del sistema",
        content: 'El monitor del sistema (CPU, memoria, disco, servicios) **todav\xEDa no est\xE1 disponible**. Puedo decirte ahora el estado de la base de datos y del correo: pregunta "estado del sistema".',
        keywords: [
          "monitor",
          "rendimiento",
          "cpu",
          "memoria",
          "disco",
          "red",
          "servicios",
          "uptime"
        ]
      },
      {
        id: "administrador.images.pt-BR",
        language: "pt-BR",
        title: "Gerenciar imagens",
        content: "O gerenciamento de imagens **ainda n\xE3o est\xE1 dispon\xEDvel**.",
        keywords: ["imagens", "enviar imagem", "upload", "fotos", "galeria"]
      },
      {
        id: "administrador.images.en-US",
        language: "en-US",
        title: "Manage images",
        content: "Image management **is not available yet**.",
        keywords: ["images", "upload image", "upload", "pictures", "photos", "gallery"]
      },
      {
        id: "administrador.images.es-ES",
        language: "es-ES",
        title: "Gestionar im\xE1genes",
        content: "La gesti\xF3n de im\xE1genes **todav\xEDa no est\xE1 disponible**.",
        keywords: ["im\xE1genes", "subir imagen", "upload", "fotos", "galer\xEDa"]
      },
      {
        id: "administrador.model.pt-BR",
        language: "pt-BR",
        title: "Configurar um modelo de linguagem",
        content: "Sem configura\xE7\xE3o, os agentes usam o motor embutido, que funciona offline. Para usar um modelo de linguagem, inicie o servidor com `AI_PROVIDER=openai`, `AI_BASE_URL` (qualquer API compat\xEDvel com a da OpenAI: OpenAI, Ollama, vLLM, llama.cpp), `AI_API_KEY` e `AI_MODEL`; `AI_TIMEOUT_MS` limita a espera (padr\xE3o 60000). Cada agente pode ter o pr\xF3prio modelo na configura\xE7\xE3o dele.",
        keywords: [
          "modelo de linguagem",
          "ia",
          "openai",
          "llm",
          "ollama",
          "chatgpt",
          "ai_provider",
          "configurar ia",
          "chave da api"
        ]
      },
      {
        id: "administrador.model.en-US",
        language: "en-US",
        title: "Set up a language model",
        content: "Out of the box the agents use the built-in engine, which works offline. To use a language model, start the server with `AI_PROVIDER=openai`, `AI_BASE_URL` (any OpenAI-compatible API: OpenAI, Ollama, vLLM, llama.cpp), `AI_API_KEY` and `AI_MODEL`; `AI_TIMEOUT_MS` bounds the wait (default 60000). Each agent can have its own model in its configuration.",
        keywords: [
          "language model",
          "ai",
          "openai",
          "llm",
          "ollama",
          "chatgpt",
          "ai_provider",
          "configure ai",
          "api key"
        ]
      },
      {
        id: "administrador.model.es-ES",
        language: "es-ES",
        title: "Configurar un modelo de lenguaje",
        content: "Sin configuraci\xF3n, los agentes usan el motor integrado, que funciona sin conexi\xF3n. Para usar un modelo de lenguaje, inicia el servidor con `AI_PROVIDER=openai`, `AI_BASE_URL` (cualquier API compatible con la de OpenAI: OpenAI, Ollama, vLLM, llama.cpp), `AI_API_KEY` y `AI_MODEL`; `AI_TIMEOUT_MS` limita la espera (60000 por defecto). Cada agente puede tener su propio modelo en su configuraci\xF3n.",
        keywords: [
          "modelo de lenguaje",
          "ia",
          "openai",
          "llm",
          "ollama",
          "chatgpt",
          "ai_provider",
          "configurar ia",
          "clave de api"
        ]
      },
      {
        id: "administrador.mail.pt-BR",
        language: "pt-BR",
        title: "Configurar o envio de e-mail",
        content: "Os c\xF3digos de verifica\xE7\xE3o saem por SMTP quando o servidor tem `SMTP_URL` (por exemplo smtp://usuario:senha@servidor:587) e `MAIL_FROM`. Sem `SMTP_URL`, os c\xF3digos s\xE3o escritos no log do servidor.",
        keywords: [
          "e-mail",
          "smtp",
          "envio de e-mail",
          "smtp_url",
          "mail_from",
          "c\xF3digos de verifica\xE7\xE3o"
        ]
      },
      {
        id: "administrador.mail.en-US",
        language: "en-US",
        title: "Set up outgoing mail",
        content: "Verification codes go out over SMTP when the server has `SMTP_URL` (for example smtp://user:pass@host:587) and `MAIL_FROM`. Without `SMTP_URL`, the codes are written to the server log.",
        keywords: [
          "email",
          "mail",
          "smtp",
          "outgoing mail",
          "smtp_url",
          "mail_from",
          "verification codes"
        ]
      },
      {
        id: "administrador.mail.es-ES",
        language: "es-ES",
        title: "Configurar el env\xEDo de correo",
        content: "Los c\xF3digos de verificaci\xF3n salen por SMTP cuando el servidor tiene `SMTP_URL` (por ejemplo smtp://usuario:clave@servidor:587) y `MAIL_FROM`. Sin `SMTP_URL`, los c\xF3digos se escriben en el registro del servidor.",
        keywords: [
          "correo",
          "email",
          "smtp",
          "env\xEDo de correo",
          "smtp_url",
          "mail_from",
          "c\xF3digos de verificaci\xF3n"
        ]
      },
      {
        id: "administrador.newAdmin.pt-BR",
        language: "pt-BR",
        title: "Criar outro administrador",
        content: "A primeira conta cadastrada num banco de dados vazio vira administradora. Criar outros administradores pela interface **ainda n\xE3o est\xE1 dispon\xEDvel**.",
        keywords: [
          "novo administrador",
          "criar administrador",
          "tornar administrador",
          "permiss\xE3o de administrador",
          "admin"
        ]
      },
      {
        id: "administrador.newAdmin.en-US",
        language: "en-US",
        title: "Create another administrator",
        content: "The first account registered on an empty database becomes an administrator. Creating further administrators from the interface **is not available yet**.",
        keywords: [
          "new administrator",
          "create administrator",
          "make admin",
          "admin rights",
          "admin"
        ]
      },
      {
        id: "administrador.newAdmin.es-ES",
        language: "es-ES",
        title: "Crear otro administrador",
        content: "La primera cuenta registrada en una base de datos vac\xEDa se convierte en administradora. Crear m\xE1s administradores desde la interfaz **todav\xEDa no est\xE1 disponible**.",
        keywords: [
          "nuevo administrador",
          "crear administrador",
          "hacer administrador",
          "permisos de administrador",
          "admin"
        ]
      }
    ]
  }
};

// src/features/agents/seed/assistente.json
var assistente_default = {
  seedVersion: 4,
  displayName: {
    "pt-BR": "Assistente",
    "en-US": "Assistant",
    "es-ES": "Asistente"
  },
  description: {
    "pt-BR": "Assistente geral: tira d\xFAvidas, faz contas e ajuda no dia a dia.",
    "en-US": "A general assistant: answers questions, does sums and helps with everyday tasks.",
    "es-ES": "Un asistente general: resuelve dudas, hace cuentas y ayuda en el d\xEDa a d\xEDa."
  },
  adminOnly: false,
  configuration: {
    instructions: "You are Assistente, the general-purpose assistant of ContrateIA. ContrateIA is a web application, sold first in Brazil, where people hire their own AI agents, chat with them, and connect a WhatsApp number so that an agent answers their contacts. Help the user with questions, writing, calculations and everyday tasks. Be accurate: when you are not sure, say so rather than guess, and do not claim to have done anything outside this chat. Be concise: a few short sentences or a short list, in Markdown.",
    welcomeMessage: {
      "pt-BR": "Ol\xE1! Eu sou o Assistente. Em que posso ajudar hoje?",
      "en-US": "Hello! I'm the Assistant. How can I help you today?",
      "es-ES": "\xA1Hola! Soy el Asistente. \xBFEn qu\xE9 puedo ayudarte hoy?"
    },
    model: {
      model: null,
      temperature: 0.3,
      maxReplyLength: 2e3
    },
    capabilities: {
      skills: ["dateTime", "calculation"],
      fallback: "cannotYet"
    },
    knowledge: [
      {
        id: "assistente.abilities.pt-BR",
        language: "pt-BR",
        title: "O que o Assistente faz",
        content: "Sem um modelo de linguagem, eu cumprimento, digo a data e a hora (no seu fuso hor\xE1rio) e fa\xE7o contas com +, \u2212, \xD7, \xF7 e par\xEAnteses, como 2 + 3 \xD7 (4 \u2212 1). Quando um administrador configurar um modelo de linguagem, passo a responder perguntas abertas, ajudar a escrever textos e muito mais.",
        keywords: [
          "assistente",
          "o que voc\xEA faz",
          "capacidades",
          "fun\xE7\xF5es",
          "recursos",
          "contas",
          "calcular",
          "data",
          "hora"
        ]
      },
      {
        id: "assistente.abilities.en-US",
        language: "en-US",
        title: "What the Assistant does",
        content: "Without a language model, I greet you, tell the date and time (in your time zone) and do sums with +, \u2212, \xD7, \xF7 and brackets, like 2 + 3 \xD7 (4 \u2212 1). Once an administrator sets up a language model, I can answer open questions, help you write and much more.",
        keywords: [
          "assistant",
          "what you do",
          "abilities",
          "features",
          "capabilities",
          "sums",
          "calculate",
          "date",
          "time"
        ]
      },
      {
        id: "assistente.abilities.es-ES",
        language: "es-ES",
        title: "Qu\xE9 hace el Asistente",
        content: "Sin un modelo de lenguaje, saludo, digo la fecha y la hora (en tu zona horaria) y hago cuentas con +, \u2212, \xD7, \xF7 y par\xE9ntesis, como 2 + 3 \xD7 (4 \u2212 1). Cuando un administrador configure un modelo de lenguaje, podr\xE9 responder preguntas abiertas, ayudarte a escribir y mucho m\xE1s.",
        keywords: [
          "asistente",
          "qu\xE9 haces",
          "capacidades",
          "funciones",
          "cuentas",
          "calcular",
          "fecha",
          "hora"
        ]
      },
      {
        id: "assistente.model.pt-BR",
        language: "pt-BR",
        title: "Por que minhas respostas s\xE3o limitadas",
        content: "Agora eu funciono com o motor embutido da ContrateIA, que roda sem internet e sem um modelo de linguagem: ele \xE9 r\xE1pido e previs\xEDvel, mas n\xE3o entende perguntas abertas. Um administrador pode ligar um modelo (OpenAI, Ollama ou outro compat\xEDvel) e a\xED eu respondo de verdade.",
        keywords: [
          "limitado",
          "modelo de linguagem",
          "intelig\xEAncia artificial",
          "chatgpt",
          "openai",
          "por que n\xE3o responde",
          "motor embutido"
        ]
      },
      {
        id: "assistente.model.en-US",
        language: "en-US",
        title: "Why my answers are limited",
        content: "Right now I run on ContrateIA's built-in engine, which works without the internet and without a language model: it is fast and predictable, but it doesn't understand open questions. An administrator can switch on a model (OpenAI, Ollama or another compatible one), and then I answer properly.",
        keywords: [
          "limited",
          "language model",
          "artificial intelligence",
          "chatgpt",
          "openai",
          "why no answer",
          "built-in engine"
        ]
      },
      {
        id: "assistente.model.es-ES",
        language: "es-ES",
        title: "Por qu\xE9 mis respuestas son limitadas",
        content: "Ahora funciono con el motor integrado de ContrateIA, que va sin internet y sin un modelo de lenguaje: es r\xE1pido y predecible, pero no entiende preguntas abiertas. Un administrador puede activar un modelo (OpenAI, Ollama u otro compatible) y entonces respondo de verdad.",
        keywords: [
          "limitado",
          "modelo de lenguaje",
          "inteligencia artificial",
          "chatgpt",
          "openai",
          "por qu\xE9 no responde",
          "motor integrado"
        ]
      },
      {
        id: "assistente.history.pt-BR",
        language: "pt-BR",
        title: "Suas conversas comigo",
        content: "Nossas conversas ficam guardadas na sua conta e s\xF3 voc\xEA as v\xEA. **Limpar conversa** come\xE7a uma nova; a anterior continua guardada.",
        keywords: [
          "hist\xF3rico",
          "conversas",
          "privacidade",
          "guardar",
          "apagar conversa",
          "limpar conversa",
          "salvas",
          "salvo",
          "guardadas"
        ]
      },
      {
        id: "assistente.history.en-US",
        language: "en-US",
        title: "Your conversations with me",
        content: "Our conversations are kept in your account and only you see them. **Clear Chat** starts a new one; the previous one stays saved.",
        keywords: [
          "history",
          "conversations",
          "privacy",
          "saved",
          "delete conversation",
          "clear chat",
          "kept"
        ]
      },
      {
        id: "assistente.history.es-ES",
        language: "es-ES",
        title: "Tus conversaciones conmigo",
        content: "Nuestras conversaciones se guardan en tu cuenta y solo t\xFA las ves. **Limpiar chat** empieza una nueva; la anterior sigue guardada.",
        keywords: [
          "historial",
          "conversaciones",
          "privacidad",
          "guardar",
          "borrar conversaci\xF3n",
          "limpiar chat",
          "guardadas",
          "guardado"
        ]
      }
    ]
  }
};

// src/features/agents/seed/auxtrat.json
var auxtrat_default = {
  seedVersion: 4,
  displayName: {
    "pt-BR": "Auxtrat",
    "en-US": "Auxtrat",
    "es-ES": "Auxtrat"
  },
  description: {
    "pt-BR": "Especialista em produtos e servi\xE7os: o que oferecemos, o que inclui e quanto custa.",
    "en-US": "Products and services specialist: what we offer, what it includes and what it costs.",
    "es-ES": "Especialista en productos y servicios: qu\xE9 ofrecemos, qu\xE9 incluye y cu\xE1nto cuesta."
  },
  adminOnly: false,
  configuration: {
    instructions: "You are Auxtrat, the products and services specialist of a small Brazilian business-services company, working inside ContrateIA. ContrateIA is a web application, sold first in Brazil, where people hire their own AI agents, chat with them, and connect a WhatsApp number so that an agent answers their contacts. Answer questions about the catalogue in the reference knowledge: what each product or service is, what it includes and its price in Brazilian reais (BRL). Quote prices exactly as listed. Never invent products, prices, discounts or deadlines; for anything not in the catalogue, say so and suggest the closest item. Be concise: a few short sentences or a short list, in Markdown.",
    welcomeMessage: {
      "pt-BR": "Ol\xE1! Eu sou o Auxtrat. Pergunte sobre nossos produtos e servi\xE7os: o que inclui cada um e quanto custa.",
      "en-US": "Hello! I'm Auxtrat. Ask me about our products and services: what each one includes and what it costs.",
      "es-ES": "\xA1Hola! Soy Auxtrat. Preg\xFAntame por nuestros productos y servicios: qu\xE9 incluye cada uno y cu\xE1nto cuesta."
    },
    model: {
      model: null,
      temperature: 0.3,
      maxReplyLength: 2e3
    },
    capabilities: {
      skills: ["catalogue"],
      fallback: "notFound"
    },
    knowledge: [
      {
        id: "auxtrat.payment.pt-BR",
        language: "pt-BR",
        title: "Formas de pagamento",
        content: "Aceitamos **Pix**, **boleto banc\xE1rio** e **cart\xE3o de cr\xE9dito**. Os planos mensais s\xE3o cobrados todo m\xEAs na mesma data; os servi\xE7os avulsos, na contrata\xE7\xE3o.",
        keywords: [
          "pagamento",
          "pagar",
          "forma de pagamento",
          "pix",
          "boleto",
          "cart\xE3o",
          "cart\xE3o de cr\xE9dito",
          "parcelar"
        ]
      },
      {
        id: "auxtrat.payment.en-US",
        language: "en-US",
        title: "Payment methods",
        content: "We accept **Pix**, **bank slip (boleto)** and **credit card**. Monthly plans are charged every month on the same date; one-off services when you order them.",
        keywords: [
          "payment",
          "pay",
          "payment methods",
          "pix",
          "boleto",
          "card",
          "credit card",
          "installments"
        ]
      },
      {
        id: "auxtrat.payment.es-ES",
        language: "es-ES",
        title: "Formas de pago",
        content: "Aceptamos **Pix**, **boleto bancario** y **tarjeta de cr\xE9dito**. Los planes mensuales se cobran cada mes en la misma fecha; los servicios puntuales, al contratarlos.",
        keywords: [
          "pago",
          "pagar",
          "formas de pago",
          "pix",
          "boleto",
          "tarjeta",
          "tarjeta de cr\xE9dito",
          "cuotas"
        ]
      },
      {
        id: "auxtrat.trial.pt-BR",
        language: "pt-BR",
        title: "Teste gr\xE1tis",
        content: "Os planos mensais (Plano Start e Plano Empresa) t\xEAm **teste gr\xE1tis de 7 dias**, sem cart\xE3o. Os servi\xE7os avulsos n\xE3o t\xEAm teste.",
        keywords: [
          "teste",
          "teste gr\xE1tis",
          "gratis",
          "gr\xE1tis",
          "experimentar",
          "per\xEDodo de teste",
          "trial",
          "degusta\xE7\xE3o"
        ]
      },
      {
        id: "auxtrat.trial.en-US",
        language: "en-US",
        title: "Free trial",
        content: "The monthly plans (Start plan and Business plan) come with a **7-day free trial**, no card needed. One-off services have no trial.",
        keywords: ["trial", "free trial", "free", "try", "test", "trial period"]
      },
      {
        id: "auxtrat.trial.es-ES",
        language: "es-ES",
        title: "Prueba gratis",
        content: "Los planes mensuales (Plan Start y Plan Empresa) tienen **prueba gratis de 7 d\xEDas**, sin tarjeta. Los servicios puntuales no tienen prueba.",
        keywords: ["prueba", "prueba gratis", "gratis", "probar", "periodo de prueba", "trial"]
      },
      {
        id: "auxtrat.cancel.pt-BR",
        language: "pt-BR",
        title: "Cancelamento",
        content: "Os planos mensais podem ser **cancelados a qualquer momento**, sem multa: o m\xEAs j\xE1 pago vale at\xE9 o fim.",
        keywords: ["cancelar", "cancelamento", "multa", "fidelidade", "contrato"]
      },
      {
        id: "auxtrat.cancel.en-US",
        language: "en-US",
        title: "Cancelling",
        content: "Monthly plans can be **cancelled at any time**, with no fee: the month already paid runs to its end.",
        keywords: ["cancel", "cancellation", "cancelling", "fee", "contract", "commitment"]
      },
      {
        id: "auxtrat.cancel.es-ES",
        language: "es-ES",
        title: "Cancelaci\xF3n",
        content: "Los planes mensuales se pueden **cancelar en cualquier momento**, sin penalizaci\xF3n: el mes ya pagado sigue hasta su fin.",
        keywords: ["cancelar", "cancelaci\xF3n", "penalizaci\xF3n", "permanencia", "contrato"]
      }
    ],
    catalogue: {
      currency: "BRL",
      items: [
        {
          id: "consulting",
          name: {
            "pt-BR": "Consultoria de gest\xE3o",
            "en-US": "Management consulting",
            "es-ES": "Consultor\xEDa de gesti\xF3n"
          },
          description: {
            "pt-BR": "Diagn\xF3stico do neg\xF3cio e plano de a\xE7\xE3o com um consultor: processos, custos, metas e indicadores, com encontros a cada quinze dias.",
            "en-US": "A business diagnosis and action plan with a consultant: processes, costs, goals and indicators, with a meeting every two weeks.",
            "es-ES": "Diagn\xF3stico del negocio y plan de acci\xF3n con un consultor: procesos, costes, metas e indicadores, con reuniones cada quince d\xEDas."
          },
          keywords: {
            "pt-BR": [
              "consultoria",
              "consultor",
              "gest\xE3o",
              "processos",
              "estrat\xE9gia",
              "planejamento"
            ],
            "en-US": [
              "consulting",
              "consultant",
              "consultancy",
              "management",
              "strategy",
              "planning"
            ],
            "es-ES": [
              "consultor\xEDa",
              "consultor",
              "gesti\xF3n",
              "procesos",
              "estrategia",
              "planificaci\xF3n"
            ]
          },
          price: 1800,
          unit: "month"
        },
        {
          id: "company",
          name: {
            "pt-BR": "Abertura de empresa",
            "en-US": "Company registration",
            "es-ES": "Apertura de empresa"
          },
          description: {
            "pt-BR": "Abrimos sua empresa do in\xEDcio ao fim: escolha do tipo (MEI, ME ou LTDA), CNPJ, inscri\xE7\xF5es e alvar\xE1 de funcionamento.",
            "en-US": "We open your company from start to finish: choosing the type (MEI, ME or LTDA), the CNPJ number, registrations and the operating licence.",
            "es-ES": "Abrimos tu empresa de principio a fin: elecci\xF3n del tipo (MEI, ME o LTDA), CNPJ, inscripciones y licencia de apertura."
          },
          keywords: {
            "pt-BR": ["abrir empresa", "abertura", "cnpj", "ltda", "me", "alvar\xE1", "formalizar"],
            "en-US": [
              "open a company",
              "start a business",
              "incorporation",
              "cnpj",
              "ltda",
              "licence",
              "license"
            ],
            "es-ES": ["abrir empresa", "apertura", "constituir", "cnpj", "ltda", "licencia"]
          },
          price: 990,
          unit: "once"
        },
        {
          id: "mei",
          name: {
            "pt-BR": "Contabilidade para MEI",
            "en-US": "Bookkeeping for MEI",
            "es-ES": "Contabilidad para MEI"
          },
          description: {
            "pt-BR": "Guia DAS todo m\xEAs, declara\xE7\xE3o anual (DASN-SIMEI) e ajuda para emitir notas fiscais.",
            "en-US": "The monthly DAS payment slip, the annual return (DASN-SIMEI) and help issuing invoices, for individual micro-entrepreneurs.",
            "es-ES": "La gu\xEDa DAS cada mes, la declaraci\xF3n anual (DASN-SIMEI) y ayuda para emitir facturas, para microemprendedores."
          },
          keywords: {
            "pt-BR": [
              "contabilidade",
              "contador",
              "mei",
              "das",
              "dasn",
              "nota fiscal",
              "microempreendedor"
            ],
            "en-US": [
              "bookkeeping",
              "accounting",
              "accountant",
              "mei",
              "das",
              "invoice",
              "micro-entrepreneur"
            ],
            "es-ES": ["contabilidad", "contador", "mei", "das", "factura", "microemprendedor"]
          },
          price: 119,
          unit: "month"
        },
        {
          id: "payroll",
          name: {
            "pt-BR": "Folha de pagamento",
            "en-US": "Payroll",
            "es-ES": "N\xF3mina"
          },
          description: {
            "pt-BR": "C\xE1lculo de sal\xE1rios, f\xE9rias, 13\xBA, FGTS e INSS, com envio ao eSocial e holerites para a equipe.",
            "en-US": "Salaries, holidays, the 13th salary, FGTS and INSS worked out, with eSocial filings and payslips for your team.",
            "es-ES": "C\xE1lculo de salarios, vacaciones, 13.\xBA, FGTS e INSS, con env\xEDo al eSocial y recibos de sueldo para el equipo."
          },
          keywords: {
            "pt-BR": [
              "folha",
              "folha de pagamento",
              "sal\xE1rio",
              "holerite",
              "funcion\xE1rios",
              "esocial",
              "fgts",
              "inss",
              "f\xE9rias"
            ],
            "en-US": [
              "payroll",
              "salary",
              "salaries",
              "payslip",
              "employees",
              "esocial",
              "fgts",
              "inss",
              "holidays"
            ],
            "es-ES": [
              "n\xF3mina",
              "nominas",
              "salario",
              "recibo de sueldo",
              "empleados",
              "esocial",
              "fgts",
              "inss",
              "vacaciones"
            ]
          },
          price: 45,
          unit: "employeeMonth"
        },
        {
          id: "incomeTax",
          name: {
            "pt-BR": "Declara\xE7\xE3o de Imposto de Renda (IRPF)",
            "en-US": "Personal income tax return (IRPF)",
            "es-ES": "Declaraci\xF3n de la renta (IRPF)"
          },
          description: {
            "pt-BR": "Preparamos e enviamos sua declara\xE7\xE3o de pessoa f\xEDsica, revisando dedu\xE7\xF5es e acompanhando a restitui\xE7\xE3o.",
            "en-US": "We prepare and file your personal income tax return, review your deductions and follow up on any refund.",
            "es-ES": "Preparamos y presentamos tu declaraci\xF3n de la renta de persona f\xEDsica, revisando deducciones y siguiendo la devoluci\xF3n."
          },
          keywords: {
            "pt-BR": [
              "imposto de renda",
              "irpf",
              "declara\xE7\xE3o",
              "restitui\xE7\xE3o",
              "le\xE3o",
              "receita federal"
            ],
            "en-US": ["income tax", "tax return", "irpf", "taxes", "refund", "receita federal"],
            "es-ES": [
              "declaraci\xF3n de la renta",
              "impuesto sobre la renta",
              "irpf",
              "impuestos",
              "devoluci\xF3n",
              "receita federal"
            ]
          },
          price: 250,
          unit: "once"
        },
        {
          id: "certificate",
          name: {
            "pt-BR": "Certificado digital e-CNPJ A1",
            "en-US": "e-CNPJ A1 digital certificate",
            "es-ES": "Certificado digital e-CNPJ A1"
          },
          description: {
            "pt-BR": "Emiss\xE3o com valida\xE7\xE3o por videoconfer\xEAncia, v\xE1lido por 12 meses, para emitir notas e acessar os sistemas do governo.",
            "en-US": "Issued with identity validation by video call, valid for 12 months, to issue invoices and use the government's systems.",
            "es-ES": "Emisi\xF3n con validaci\xF3n por videollamada, v\xE1lido durante 12 meses, para emitir facturas y acceder a los sistemas del gobierno."
          },
          keywords: {
            "pt-BR": [
              "certificado",
              "certificado digital",
              "e-cnpj",
              "a1",
              "assinatura digital",
              "token"
            ],
            "en-US": [
              "certificate",
              "digital certificate",
              "e-cnpj",
              "a1",
              "digital signature",
              "token"
            ],
            "es-ES": [
              "certificado",
              "certificado digital",
              "e-cnpj",
              "a1",
              "firma digital",
              "token"
            ]
          },
          price: 220,
          unit: "once"
        },
        {
          id: "website",
          name: {
            "pt-BR": "Site institucional",
            "en-US": "Business website",
            "es-ES": "Sitio web corporativo"
          },
          description: {
            "pt-BR": "Site de at\xE9 5 p\xE1ginas, que se adapta ao celular, com formul\xE1rio de contato, bot\xE3o de WhatsApp e dom\xEDnio configurado.",
            "en-US": "A website of up to 5 pages that works on phones, with a contact form, a WhatsApp button and your domain set up.",
            "es-ES": "Un sitio de hasta 5 p\xE1ginas adaptado al m\xF3vil, con formulario de contacto, bot\xF3n de WhatsApp y dominio configurado."
          },
          keywords: {
            "pt-BR": [
              "site",
              "website",
              "p\xE1gina na internet",
              "landing page",
              "dom\xEDnio",
              "cria\xE7\xE3o de site"
            ],
            "en-US": ["website", "site", "web page", "landing page", "domain", "web design"],
            "es-ES": ["sitio web", "p\xE1gina web", "web", "landing page", "dominio", "dise\xF1o web"]
          },
          price: 2400,
          unit: "once"
        },
        {
          id: "social",
          name: {
            "pt-BR": "Gest\xE3o de redes sociais",
            "en-US": "Social media management",
            "es-ES": "Gesti\xF3n de redes sociales"
          },
          description: {
            "pt-BR": "12 publica\xE7\xF5es por m\xEAs no Instagram e no Facebook, com artes, textos e um relat\xF3rio mensal de resultados.",
            "en-US": "12 posts a month on Instagram and Facebook, with artwork, captions and a monthly results report.",
            "es-ES": "12 publicaciones al mes en Instagram y Facebook, con dise\xF1os, textos y un informe mensual de resultados."
          },
          keywords: {
            "pt-BR": [
              "redes sociais",
              "instagram",
              "facebook",
              "social media",
              "posts",
              "marketing digital"
            ],
            "en-US": ["social media", "instagram", "facebook", "posts", "digital marketing"],
            "es-ES": [
              "redes sociales",
              "instagram",
              "facebook",
              "social media",
              "publicaciones",
              "marketing digital"
            ]
          },
          price: 1200,
          unit: "month"
        },
        {
          id: "trademark",
          name: {
            "pt-BR": "Registro de marca no INPI",
            "en-US": "Trademark registration (INPI)",
            "es-ES": "Registro de marca en el INPI"
          },
          description: {
            "pt-BR": "Pesquisa de viabilidade, pedido de registro e acompanhamento do processo at\xE9 a concess\xE3o. As taxas do INPI s\xE3o pagas \xE0 parte.",
            "en-US": "Availability search, the registration filing and follow-up until the mark is granted. INPI's own fees are paid separately.",
            "es-ES": "B\xFAsqueda de viabilidad, solicitud de registro y seguimiento del proceso hasta la concesi\xF3n. Las tasas del INPI se pagan aparte."
          },
          keywords: {
            "pt-BR": [
              "marca",
              "registro de marca",
              "inpi",
              "patente",
              "logotipo",
              "proteger marca"
            ],
            "en-US": ["trademark", "brand", "register a brand", "inpi", "logo", "protect my brand"],
            "es-ES": ["marca", "registro de marca", "inpi", "patente", "logotipo", "proteger marca"]
          },
          price: 1350,
          unit: "once"
        },
        {
          id: "whatsappBot",
          name: {
            "pt-BR": "Atendimento autom\xE1tico no WhatsApp",
            "en-US": "Automated WhatsApp customer service",
            "es-ES": "Atenci\xF3n autom\xE1tica por WhatsApp"
          },
          description: {
            "pt-BR": "Implanta\xE7\xE3o de um agente de IA que responde seus clientes no WhatsApp, treinado com as informa\xE7\xF5es do seu neg\xF3cio, com 30 dias de ajustes.",
            "en-US": "Setting up an AI agent that answers your customers on WhatsApp, trained on your business information, with 30 days of fine-tuning.",
            "es-ES": "Implantaci\xF3n de un agente de IA que responde a tus clientes por WhatsApp, entrenado con la informaci\xF3n de tu negocio, con 30 d\xEDas de ajustes."
          },
          keywords: {
            "pt-BR": [
              "whatsapp",
              "atendimento",
              "chatbot",
              "rob\xF4",
              "bot",
              "atendimento autom\xE1tico",
              "ia"
            ],
            "en-US": ["whatsapp", "customer service", "chatbot", "bot", "automation", "ai"],
            "es-ES": ["whatsapp", "atenci\xF3n al cliente", "chatbot", "bot", "automatizaci\xF3n", "ia"]
          },
          price: 1900,
          unit: "once"
        },
        {
          id: "planStart",
          name: {
            "pt-BR": "Plano Start",
            "en-US": "Start plan",
            "es-ES": "Plan Start"
          },
          description: {
            "pt-BR": "Plano mensal para quem est\xE1 come\xE7ando: contabilidade do MEI, emiss\xE3o de notas e um atendimento por m\xEAs com um contador.",
            "en-US": "A monthly plan for those starting out: MEI bookkeeping, invoicing and one session a month with an accountant.",
            "es-ES": "Un plan mensual para quien empieza: contabilidad del MEI, emisi\xF3n de facturas y una consulta al mes con un contador."
          },
          keywords: {
            "pt-BR": ["plano start", "plano", "start", "mensalidade", "assinatura", "iniciante"],
            "en-US": ["start plan", "plan", "start", "subscription", "starter", "monthly plan"],
            "es-ES": ["plan start", "plan", "start", "suscripci\xF3n", "inicial", "mensualidad"]
          },
          price: 149,
          unit: "month"
        },
        {
          id: "planBusiness",
          name: {
            "pt-BR": "Plano Empresa",
            "en-US": "Business plan",
            "es-ES": "Plan Empresa"
          },
          description: {
            "pt-BR": "Plano mensal para empresas do Simples Nacional: contabilidade completa, folha de at\xE9 5 funcion\xE1rios e consultoria trimestral.",
            "en-US": "A monthly plan for Simples Nacional companies: full bookkeeping, payroll for up to 5 employees and a consulting session every quarter.",
            "es-ES": "Un plan mensual para empresas del Simples Nacional: contabilidad completa, n\xF3mina de hasta 5 empleados y una consultor\xEDa cada trimestre."
          },
          keywords: {
            "pt-BR": [
              "plano empresa",
              "plano",
              "empresa",
              "empresarial",
              "simples nacional",
              "assinatura"
            ],
            "en-US": [
              "business plan",
              "plan",
              "business",
              "company plan",
              "simples nacional",
              "subscription"
            ],
            "es-ES": [
              "plan empresa",
              "plan",
              "empresa",
              "empresarial",
              "simples nacional",
              "suscripci\xF3n"
            ]
          },
          price: 590,
          unit: "month"
        }
      ]
    }
  }
};

// src/features/agents/seed/guia.json
var guia_default = {
  seedVersion: 10,
  displayName: {
    "pt-BR": "Guia",
    "en-US": "Guide",
    "es-ES": "Gu\xEDa"
  },
  description: {
    "pt-BR": "Mostra o caminho na ContrateIA: cada p\xE1gina e como fazer cada tarefa.",
    "en-US": "Shows you around ContrateIA: every page and how to do each task.",
    "es-ES": "Te orienta en ContrateIA: cada p\xE1gina y c\xF3mo hacer cada tarea."
  },
  adminOnly: false,
  configuration: {
    instructions: "You are Guia, the guide of ContrateIA. ContrateIA is a web application, sold first in Brazil, where people hire their own AI agents, chat with them, and connect a WhatsApp number so that an agent answers their contacts. Your job is to explain how to use the product: registering with an e-mail code, signing in and out, the dashboard, hiring agents, chatting and Clear Chat, the auxtrat page and its Sync Agent QR code, connecting WhatsApp by QR code on /whatsapp and managing its conversations (AI on or off, whitelist, assigned agent) on /whatsapp and /whatsapp-enhanced, switching language and, for admins, the role mode switch. The admin panel is not available yet: say so. Answer from the reference knowledge; when a page is involved, link to its path with a Markdown link such as [/dashboard](/dashboard). If the product does not do something, say so; never invent pages or features. Be concise: a few short sentences or a short list, in Markdown.",
    welcomeMessage: {
      "pt-BR": "Ol\xE1! Eu sou o Guia. Pergunte como fazer qualquer coisa na ContrateIA: contratar agentes, gerenciar conversas, mudar a senha, trocar o idioma\u2026",
      "en-US": "Hello! I'm the Guide. Ask me how to do anything in ContrateIA: hire agents, manage conversations, change your password, switch the language\u2026",
      "es-ES": "\xA1Hola! Soy la Gu\xEDa. Preg\xFAntame c\xF3mo hacer cualquier cosa en ContrateIA: contratar agentes, gestionar conversaciones, cambiar la contrase\xF1a, cambiar el idioma\u2026"
    },
    model: {
      model: null,
      temperature: 0.3,
      maxReplyLength: 2e3
    },
    capabilities: {
      skills: [],
      fallback: "notFound"
    },
    knowledge: [
      {
        id: "guia.language.pt-BR",
        language: "pt-BR",
        title: "Trocar o idioma",
        content: "Use o seletor **Idioma** no topo de qualquer p\xE1gina (na p\xE1gina de entrada, os bot\xF5es com bandeiras) e escolha Portugu\xEAs (Brasil), English ou Espa\xF1ol. A interface e as respostas dos agentes passam a usar o idioma escolhido. O portugu\xEAs fica em contrateia.com.br e o ingl\xEAs e o espanhol em hireyourai.com; se o idioma pertence a outro endere\xE7o, pedimos confirma\xE7\xE3o antes de levar voc\xEA at\xE9 l\xE1.",
        keywords: [
          "idioma",
          "l\xEDngua",
          "trocar idioma",
          "mudar idioma",
          "ingl\xEAs",
          "espanhol",
          "portugu\xEAs",
          "tradu\xE7\xE3o"
        ]
      },
      {
        id: "guia.language.en-US",
        language: "en-US",
        title: "Change the language",
        content: "Use the **Language** selector at the top of any page (on the sign-in page, the flag buttons) and choose Portugu\xEAs (Brasil), English or Espa\xF1ol. The interface and the agents' replies switch to that language. Portuguese lives at contrateia.com.br, and English and Spanish at hireyourai.com; if the language belongs to another address, we ask before taking you there.",
        keywords: [
          "language",
          "change language",
          "switch language",
          "english",
          "spanish",
          "portuguese",
          "translate"
        ]
      },
      {
        id: "guia.language.es-ES",
        language: "es-ES",
        title: "Cambiar el idioma",
        content: "Usa el selector **Idioma** en la parte superior de cualquier p\xE1gina (en la p\xE1gina de inicio de sesi\xF3n, los botones con banderas) y elige Portugu\xEAs (Brasil), English o Espa\xF1ol. La interfaz y las respuestas de los agentes pasan a ese idioma. El portugu\xE9s est\xE1 en contrateia.com.br, y el ingl\xE9s y el espa\xF1ol en hireyourai.com; si el idioma pertenece a otra direcci\xF3n, te pedimos confirmaci\xF3n antes de llevarte all\xED.",
        keywords: [
          "idioma",
          "lengua",
          "cambiar idioma",
          "ingl\xE9s",
          "espa\xF1ol",
          "portugu\xE9s",
          "traducci\xF3n"
        ]
      },
      {
        id: "guia.chat.pt-BR",
        language: "pt-BR",
        title: "Conversar com um agente",
        content: "Abra a p\xE1gina do agente pelo bot\xE3o **Conversar** em **Seus agentes contratados**, no Painel (o Guia fica em /guia, o Assistente em /assistente). Escreva a mensagem e pressione **Enter** para enviar; **Shift+Enter** cria uma nova linha. A resposta aparece enquanto \xE9 escrita. Mensagens em branco n\xE3o s\xE3o enviadas, e a pr\xF3xima s\xF3 pode ser enviada quando a resposta terminar. Suas conversas ficam guardadas: ao voltar \xE0 p\xE1gina, a conversa continua de onde parou.",
        keywords: [
          "conversar",
          "conversa",
          "chat",
          "mensagem",
          "enviar",
          "enter",
          "nova linha",
          "falar com agente",
          "perguntar",
          "hist\xF3rico"
        ],
        link: "/dashboard"
      },
      {
        id: "guia.chat.en-US",
        language: "en-US",
        title: "Chat with an agent",
        content: "Open an agent's page with the **Chat** button under **Your Hired Agents** on the Dashboard (the Guide is at /guia, the Assistant at /assistente). Type your message and press **Enter** to send; **Shift+Enter** starts a new line. The reply appears as it is written. Blank messages are not sent, and you can send the next one once the reply has finished. Your conversations are kept: come back to the page and it carries on where you left off.",
        keywords: [
          "chat",
          "conversation",
          "message",
          "send",
          "enter",
          "new line",
          "talk to an agent",
          "ask",
          "history"
        ],
        link: "/dashboard"
      },
      {
        id: "guia.chat.es-ES",
        language: "es-ES",
        title: "Chatear con un agente",
        content: "Abre la p\xE1gina de un agente con el bot\xF3n **Chatear** en **Tus agentes contratados**, en el Panel (la Gu\xEDa est\xE1 en /guia, el Asistente en /assistente). Escribe tu mensaje y pulsa **Intro** para enviarlo; **May\xFAs+Intro** crea una l\xEDnea nueva. La respuesta aparece a medida que se escribe. Los mensajes en blanco no se env\xEDan, y puedes enviar el siguiente cuando la respuesta haya terminado. Tus conversaciones se guardan: al volver a la p\xE1gina, contin\xFAa donde la dejaste.",
        keywords: [
          "chatear",
          "chat",
          "conversaci\xF3n",
          "mensaje",
          "enviar",
          "intro",
          "enter",
          "nueva l\xEDnea",
          "hablar con un agente",
          "preguntar",
          "historial"
        ],
        link: "/dashboard"
      },
      {
        id: "guia.clear.pt-BR",
        language: "pt-BR",
        title: "Limpar a conversa",
        content: "O bot\xE3o **Limpar conversa**, no topo de cada p\xE1gina de agente, pergunta antes e, confirmado, come\xE7a uma conversa nova e mostra de novo a mensagem de boas-vindas. A conversa anterior n\xE3o \xE9 apagada: ela continua guardada na sua conta, na lista de conversas da p\xE1gina.",
        keywords: [
          "limpar",
          "limpar conversa",
          "clear chat",
          "apagar",
          "nova conversa",
          "recome\xE7ar",
          "zerar"
        ]
      },
      {
        id: "guia.clear.en-US",
        language: "en-US",
        title: "Clear the chat",
        content: "The **Clear Chat** button at the top of each agent page asks first and, once confirmed, starts a fresh conversation and shows the welcome message again. The previous conversation is not deleted: it stays in your account, in the page's conversation list.",
        keywords: [
          "clear",
          "clear chat",
          "delete",
          "erase",
          "new conversation",
          "start over",
          "reset"
        ]
      },
      {
        id: "guia.clear.es-ES",
        language: "es-ES",
        title: "Borrar el chat",
        content: "El bot\xF3n **Borrar chat**, en la parte superior de cada p\xE1gina de agente, pregunta antes y, confirmado, empieza una conversaci\xF3n nueva y vuelve a mostrar el mensaje de bienvenida. La conversaci\xF3n anterior no se borra: sigue guardada en tu cuenta, en la lista de conversaciones de la p\xE1gina.",
        keywords: [
          "limpiar",
          "limpiar chat",
          "clear chat",
          "borrar",
          "nueva conversaci\xF3n",
          "empezar de nuevo",
          "reiniciar"
        ]
      },
      {
        id: "guia.register.pt-BR",
        language: "pt-BR",
        title: "Criar uma conta (cadastro)",
        content: "Na p\xE1gina **Criar conta**, preencha nome completo, e-mail, senha (pelo menos 6 caracteres) e a confirma\xE7\xE3o, e clique em **Enviar c\xF3digo de verifica\xE7\xE3o**. Enviamos um c\xF3digo de 6 d\xEDgitos para o seu e-mail: digite-o e clique em **Verificar e criar conta**. Se o c\xF3digo n\xE3o chegar, veja a caixa de spam; depois de 60 segundos voc\xEA pode pedir outro em **Reenviar c\xF3digo**. Se o e-mail j\xE1 tiver uma conta, nenhum c\xF3digo \xE9 enviado: chega um e-mail explicando como entrar, ou como criar uma nova senha em [/forgot-password](/forgot-password). Com a conta criada, entre com seu e-mail e sua senha.",
        keywords: [
          "cadastro",
          "cadastrar",
          "registrar",
          "criar conta",
          "nova conta",
          "c\xF3digo de verifica\xE7\xE3o",
          "verificar e-mail",
          "reenviar c\xF3digo",
          "n\xE3o recebi o c\xF3digo",
          "otp"
        ],
        link: "/register"
      },
      {
        id: "guia.register.en-US",
        language: "en-US",
        title: "Register: create an account",
        content: "On the **Create Account** page, fill in your full name, e-mail, password (at least 6 characters) and its confirmation, and click **Send Verification Code**. We e-mail you a 6-digit code: type it and click **Verify & Create Account**. If the code doesn't arrive, check your spam folder; after 60 seconds you can ask for another with **Resend code**. If the e-mail already has an account, no code is sent: a mail arrives explaining how to sign in, or how to set a new password at [/forgot-password](/forgot-password). Once the account exists, sign in with your e-mail and password.",
        keywords: [
          "register",
          "registration",
          "sign up",
          "create account",
          "new account",
          "verification code",
          "verify email",
          "resend code",
          "code not received",
          "otp"
        ],
        link: "/register"
      },
      {
        id: "guia.register.es-ES",
        language: "es-ES",
        title: "Registrarse: crear una cuenta",
        content: "En la p\xE1gina **Crear cuenta**, rellena tu nombre completo, correo electr\xF3nico, contrase\xF1a (al menos 6 caracteres) y su confirmaci\xF3n, y haz clic en **Enviar c\xF3digo de verificaci\xF3n**. Te enviamos por correo un c\xF3digo de 6 d\xEDgitos: escr\xEDbelo y haz clic en **Verificar y crear cuenta**. Si el c\xF3digo no llega, revisa la carpeta de spam; pasados 60 segundos puedes pedir otro con **Reenviar c\xF3digo**. Si el correo ya tiene una cuenta, no se env\xEDa ning\xFAn c\xF3digo: llega un correo que explica c\xF3mo iniciar sesi\xF3n, o c\xF3mo crear una contrase\xF1a nueva en [/forgot-password](/forgot-password). Con la cuenta creada, inicia sesi\xF3n con tu correo y tu contrase\xF1a.",
        keywords: [
          "registro",
          "registrarse",
          "crear cuenta",
          "nueva cuenta",
          "c\xF3digo de verificaci\xF3n",
          "verificar correo",
          "reenviar c\xF3digo",
          "no recib\xED el c\xF3digo",
          "otp"
        ],
        link: "/register"
      },
      {
        id: "guia.signin.pt-BR",
        language: "pt-BR",
        title: "Entrar na sua conta",
        content: "Na p\xE1gina **Entrar**, digite seu usu\xE1rio ou e-mail e sua senha e clique em **Entrar**: voc\xEA vai para o Painel. Seu usu\xE1rio \xE9 a parte do e-mail antes do @ (por exemplo, maria). Se a entrada falhar, confira o e-mail e a senha.",
        keywords: [
          "entrar",
          "login",
          "logar",
          "acessar",
          "acesso",
          "senha",
          "usu\xE1rio",
          "iniciar sess\xE3o"
        ],
        link: "/login"
      },
      {
        id: "guia.signin.en-US",
        language: "en-US",
        title: "Sign in",
        content: "On the **Sign In** page, type your username or e-mail and your password and click **Sign In**: you land on the Dashboard. Your username is the part of your e-mail before the @ (for example, maria). If signing in fails, check your e-mail and password.",
        keywords: [
          "sign in",
          "login",
          "log in",
          "access",
          "password",
          "username"
        ],
        link: "/login"
      },
      {
        id: "guia.signin.es-ES",
        language: "es-ES",
        title: "Iniciar sesi\xF3n",
        content: "En la p\xE1gina **Iniciar sesi\xF3n**, escribe tu usuario o correo y tu contrase\xF1a y haz clic en **Iniciar sesi\xF3n**: llegas al Panel. Tu usuario es la parte del correo antes de la @ (por ejemplo, maria). Si no puedes entrar, revisa el correo y la contrase\xF1a.",
        keywords: [
          "iniciar sesi\xF3n",
          "entrar",
          "login",
          "acceder",
          "acceso",
          "contrase\xF1a",
          "usuario"
        ],
        link: "/login"
      },
      {
        id: "guia.signout.pt-BR",
        language: "pt-BR",
        title: "Sair da conta",
        content: "Clique em **Sair**, no topo de qualquer p\xE1gina. A sess\xE3o termina neste navegador e voc\xEA volta para a p\xE1gina de entrada.",
        keywords: [
          "sair",
          "saio",
          "sa\xEDda",
          "logout",
          "deslogar",
          "encerrar sess\xE3o",
          "fazer logout"
        ]
      },
      {
        id: "guia.signout.en-US",
        language: "en-US",
        title: "Sign out",
        content: "Click **Logout** at the top of any page. Your session ends in this browser and you return to the sign-in page.",
        keywords: [
          "sign out",
          "log out",
          "logout",
          "exit",
          "leave",
          "end session"
        ]
      },
      {
        id: "guia.signout.es-ES",
        language: "es-ES",
        title: "Cerrar sesi\xF3n",
        content: "Haz clic en **Cerrar sesi\xF3n**, en la parte superior de cualquier p\xE1gina. La sesi\xF3n termina en este navegador y vuelves a la p\xE1gina de inicio de sesi\xF3n.",
        keywords: [
          "cerrar sesi\xF3n",
          "salir",
          "logout",
          "terminar sesi\xF3n"
        ]
      },
      {
        id: "guia.dashboard.pt-BR",
        language: "pt-BR",
        title: "O Painel",
        content: "O **Painel** \xE9 a p\xE1gina inicial depois de entrar. Mostra seu nome e e-mail, seus n\xFAmeros (agentes contratados, conversas e mensagens), **Seus agentes contratados** com o bot\xE3o **Conversar**, **Agentes dispon\xEDveis** com o bot\xE3o **Contratar** e um chat r\xE1pido para falar com um agente sem sair da p\xE1gina.",
        keywords: [
          "painel",
          "dashboard",
          "in\xEDcio",
          "p\xE1gina inicial",
          "estat\xEDsticas",
          "n\xFAmeros",
          "resumo",
          "chat r\xE1pido"
        ],
        link: "/dashboard"
      },
      {
        id: "guia.dashboard.en-US",
        language: "en-US",
        title: "The Dashboard",
        content: "The **Dashboard** is where you land after signing in. It shows your name and e-mail, your figures (hired agents, conversations and messages), **Your Hired Agents** with a **Chat** button, **Available Agents** with a **Hire** button, and a quick chat panel to talk to an agent without leaving the page.",
        keywords: [
          "dashboard",
          "home",
          "start page",
          "stats",
          "statistics",
          "figures",
          "overview",
          "quick chat"
        ],
        link: "/dashboard"
      },
      {
        id: "guia.dashboard.es-ES",
        language: "es-ES",
        title: "El Panel",
        content: "El **Panel** es la p\xE1gina a la que llegas al iniciar sesi\xF3n. Muestra tu nombre y correo, tus cifras (agentes contratados, conversaciones y mensajes), **Tus agentes contratados** con el bot\xF3n **Chatear**, **Agentes disponibles** con el bot\xF3n **Contratar** y un chat r\xE1pido para hablar con un agente sin salir de la p\xE1gina.",
        keywords: [
          "panel",
          "dashboard",
          "inicio",
          "p\xE1gina principal",
          "estad\xEDsticas",
          "cifras",
          "resumen",
          "chat r\xE1pido"
        ],
        link: "/dashboard"
      },
      {
        id: "guia.auxtrat.pt-BR",
        language: "pt-BR",
        title: "A p\xE1gina do Auxtrat e o Sincronizar agente",
        content: "Em **/auxtrat** voc\xEA conversa com o especialista em produtos e servi\xE7os. A barra lateral **Outras conversas do Auxtrat** lista suas conversas anteriores (Conversa #, os 6 \xFAltimos caracteres do c\xF3digo, o n\xFAmero de mensagens e a data); clique numa para abri-la e use **Atualizar** para recarregar a lista. O bot\xE3o **Sincronizar agente** mostra um QR code que liga a conversa ao WhatsApp: ele vale por 10 minutos, **Gerar novo c\xF3digo** cria outro (e invalida o anterior) e **Fechar** fecha a janela.",
        keywords: [
          "auxtrat",
          "sincronizar",
          "sincronizar agente",
          "sync agent",
          "qr code",
          "outras conversas",
          "conversas anteriores",
          "conversas antigas",
          "gerar novo c\xF3digo"
        ],
        link: "/auxtrat"
      },
      {
        id: "guia.auxtrat.en-US",
        language: "en-US",
        title: "The Auxtrat page and Sync Agent",
        content: "At **/auxtrat** you chat with the products and services specialist. The **Other Auxtrat Conversations** sidebar lists your earlier conversations (Conversation #, the last 6 characters of its id, the number of messages and the date); click one to open it, and use **Refresh** to reload the list. The **Sync Agent** button shows a QR code that links the conversation to WhatsApp: it is valid for 10 minutes, **Generate New Code** makes another (and cancels the old one), and **Close** closes the window.",
        keywords: [
          "auxtrat",
          "sync",
          "sync agent",
          "synchronize",
          "qr code",
          "other conversations",
          "past conversations",
          "old conversations",
          "generate new code"
        ],
        link: "/auxtrat"
      },
      {
        id: "guia.auxtrat.es-ES",
        language: "es-ES",
        title: "La p\xE1gina de Auxtrat y Sincronizar agente",
        content: "En **/auxtrat** chateas con el especialista en productos y servicios. La barra lateral **Otras conversaciones de Auxtrat** lista tus conversaciones anteriores (Conversaci\xF3n #, los 6 \xFAltimos caracteres de su c\xF3digo, el n\xFAmero de mensajes y la fecha); haz clic en una para abrirla y usa **Actualizar** para recargar la lista. El bot\xF3n **Sincronizar agente** muestra un c\xF3digo QR que vincula la conversaci\xF3n con WhatsApp: vale 10 minutos, **Generar nuevo c\xF3digo** crea otro (y anula el anterior) y **Cerrar** cierra la ventana.",
        keywords: [
          "auxtrat",
          "sincronizar",
          "sincronizar agente",
          "sync agent",
          "c\xF3digo qr",
          "otras conversaciones",
          "conversaciones anteriores",
          "conversaciones antiguas",
          "generar nuevo c\xF3digo"
        ],
        link: "/auxtrat"
      },
      {
        id: "guia.agents.pt-BR",
        language: "pt-BR",
        title: "Os agentes da ContrateIA",
        content: "- **Guia**: explica como usar a ContrateIA; toda conta nova j\xE1 come\xE7a com ele contratado.\n- **Assistente**: diz a data e a hora e faz contas.\n- **Auxtrat**: conhece nossos produtos e servi\xE7os e seus pre\xE7os.\n- **Indirect**: explica como v\xE3o funcionar as mensagens an\xF4nimas; o envio ainda n\xE3o est\xE1 dispon\xEDvel.\n- **Administrador**: d\xE1 os n\xFAmeros do sistema ao vivo; s\xF3 aparece para administradores.\n\nPara contratar um agente, clique em **Contratar** nele, em **Agentes dispon\xEDveis**, no Painel; depois, **Conversar** abre a p\xE1gina dele. Com um modelo de linguagem configurado, todos respondem tamb\xE9m a perguntas abertas.",
        keywords: [
          "agentes",
          "quais agentes",
          "que agentes",
          "quais s\xE3o os agentes",
          "quais agentes existem",
          "agentes que existem",
          "quais agentes posso contratar",
          "que agentes posso contratar",
          "lista de agentes",
          "assistente",
          "auxtrat",
          "indirect",
          "administrador",
          "tipos de agente",
          "o que cada agente faz"
        ],
        link: "/dashboard"
      },
      {
        id: "guia.agents.en-US",
        language: "en-US",
        title: "ContrateIA's agents",
        content: "- **Guide**: explains how to use ContrateIA; every new account starts with it hired.\n- **Assistant**: tells the date and time and does sums.\n- **Auxtrat**: knows our products and services and their prices.\n- **Indirect**: explains how anonymous messages will work; sending them is not available yet.\n- **Administrator**: gives the system's live figures; offered to administrators only.\n\nTo hire an agent, click **Hire** on it under **Available Agents** on the Dashboard; then **Chat** opens its page. With a language model set up, they all answer open questions too.",
        keywords: [
          "agents",
          "which agents",
          "what agents",
          "what are the agents",
          "agents that exist",
          "which agents can I hire",
          "what agents can I hire",
          "list of agents",
          "assistant",
          "auxtrat",
          "indirect",
          "administrator",
          "kinds of agent",
          "what each agent does"
        ],
        link: "/dashboard"
      },
      {
        id: "guia.agents.es-ES",
        language: "es-ES",
        title: "Los agentes de ContrateIA",
        content: "- **Gu\xEDa**: explica c\xF3mo usar ContrateIA; toda cuenta nueva empieza con ella contratada.\n- **Asistente**: dice la fecha y la hora y hace cuentas.\n- **Auxtrat**: conoce nuestros productos y servicios y sus precios.\n- **Indirect**: explica c\xF3mo funcionar\xE1n los mensajes an\xF3nimos; el env\xEDo todav\xEDa no est\xE1 disponible.\n- **Administrador**: da las cifras del sistema en vivo; solo se ofrece a los administradores.\n\nPara contratar un agente, haz clic en **Contratar** en \xE9l, en **Agentes disponibles**, en el Panel; despu\xE9s, **Chatear** abre su p\xE1gina. Con un modelo de lenguaje configurado, todos responden tambi\xE9n a preguntas abiertas.",
        keywords: [
          "agentes",
          "qu\xE9 agentes",
          "cu\xE1les son los agentes",
          "qu\xE9 agentes existen",
          "agentes que existen",
          "qu\xE9 agentes puedo contratar",
          "lista de agentes",
          "asistente",
          "auxtrat",
          "indirect",
          "administrador",
          "tipos de agente",
          "qu\xE9 hace cada agente"
        ],
        link: "/dashboard"
      },
      {
        id: "guia.roleMode.pt-BR",
        language: "pt-BR",
        title: "Alternar entre modo administrador e modo usu\xE1rio",
        content: "S\xF3 para administradores: no topo da p\xE1gina, o seletor **Modo** troca entre **Modo administrador** e **Modo usu\xE1rio**. No modo usu\xE1rio voc\xEA usa a ContrateIA como um usu\xE1rio comum, at\xE9 voltar ao modo administrador. O selo ao lado do seu nome mostra o modo atual (verde: administrador; azul: usu\xE1rio).",
        keywords: [
          "modo",
          "modo administrador",
          "modo usu\xE1rio",
          "trocar modo",
          "alternar modo",
          "perfil",
          "papel",
          "admin"
        ],
        link: "/dashboard"
      },
      {
        id: "guia.roleMode.en-US",
        language: "en-US",
        title: "Switch between admin mode and user mode",
        content: "For administrators only: at the top of the page, the **Mode** selector switches between **Admin mode** and **User mode**. In user mode you use ContrateIA as an ordinary user would, until you switch back to admin mode. The badge next to your name shows the current mode (green: admin; blue: user).",
        keywords: [
          "mode",
          "admin mode",
          "user mode",
          "switch mode",
          "switch role",
          "role",
          "admin"
        ],
        link: "/dashboard"
      },
      {
        id: "guia.roleMode.es-ES",
        language: "es-ES",
        title: "Cambiar entre modo administrador y modo usuario",
        content: "Solo para administradores: en la parte superior de la p\xE1gina, el selector **Modo** cambia entre **Modo administrador** y **Modo usuario**. En modo usuario usas ContrateIA como un usuario normal, hasta que vuelvas al modo administrador. La insignia junto a tu nombre muestra el modo actual (verde: administrador; azul: usuario).",
        keywords: [
          "modo",
          "modo administrador",
          "modo usuario",
          "cambiar modo",
          "cambiar rol",
          "rol",
          "admin"
        ],
        link: "/dashboard"
      },
      {
        id: "guia.indirect.pt-BR",
        language: "pt-BR",
        title: "Mensagens an\xF4nimas (Indirect)",
        content: "O agente **Indirect** (/indirect) vai enviar uma mensagem sua a um n\xFAmero de telefone pelo WhatsApp da plataforma, sem revelar quem enviou; as respostas voltam para o seu chat com ele. O envio chega com a integra\xE7\xE3o do WhatsApp; por enquanto o Indirect explica como vai funcionar.",
        keywords: [
          "indirect",
          "an\xF4nimo",
          "an\xF4nima",
          "mensagem an\xF4nima",
          "anonimato",
          "sem identifica\xE7\xE3o"
        ],
        link: "/indirect"
      },
      {
        id: "guia.indirect.en-US",
        language: "en-US",
        title: "Anonymous messages (Indirect)",
        content: "The **Indirect** agent (/indirect) will send your message to a phone number through the platform\u2019s WhatsApp without revealing who sent it; replies come back to your chat with it. Sending arrives with the WhatsApp integration; for now Indirect explains how it will work.",
        keywords: [
          "indirect",
          "anonymous",
          "anonymous message",
          "anonymously",
          "without my name"
        ],
        link: "/indirect"
      },
      {
        id: "guia.indirect.es-ES",
        language: "es-ES",
        title: "Mensajes an\xF3nimos (Indirect)",
        content: "El agente **Indirect** (/indirect) enviar\xE1 tu mensaje a un n\xFAmero de tel\xE9fono por el WhatsApp de la plataforma sin revelar qui\xE9n lo env\xEDa; las respuestas vuelven a tu chat con \xE9l. El env\xEDo llega con la integraci\xF3n de WhatsApp; por ahora Indirect explica c\xF3mo funcionar\xE1.",
        keywords: [
          "indirect",
          "an\xF3nimo",
          "an\xF3nima",
          "mensaje an\xF3nimo",
          "anonimato",
          "sin identificarme"
        ],
        link: "/indirect"
      },
      {
        id: "guia.conversationList.pt-BR",
        language: "pt-BR",
        title: "Suas conversas com um agente",
        content: "Cada p\xE1gina de agente tem a lista das suas conversas com ele, incluindo a que est\xE1 aberta, marcada **Aberta agora** (em /auxtrat, a lista mostra s\xF3 as outras): ao lado do chat no computador, e no bot\xE3o **Conversas** no topo do chat no celular. A mais recente vem primeiro, e cada uma tem como t\xEDtulo o come\xE7o da primeira mensagem. Escolha uma para abri-la e continuar de onde parou. A caixa **Buscar em t\xEDtulos e mensagens** procura o texto nos t\xEDtulos e em todas as mensagens.",
        keywords: [
          "lista de conversas",
          "minhas conversas",
          "conversas antigas",
          "outras conversas",
          "buscar conversa",
          "procurar conversa",
          "pesquisar conversa",
          "hist\xF3rico de conversas",
          "abrir conversa"
        ],
        link: "/guia"
      },
      {
        id: "guia.conversationList.en-US",
        language: "en-US",
        title: "Your conversations with an agent",
        content: "Every agent page lists your conversations with that agent, including the one open now, marked **Open now** (on /auxtrat the list shows only the other ones): beside the chat on a computer, and under the **Conversations** button at the top of the chat on a phone. The newest comes first, and each is titled with the start of its first message. Choose one to open it and carry on where you left off. The **Search titles and messages** box looks for text in the titles and in every message.",
        keywords: [
          "conversation list",
          "my conversations",
          "old conversations",
          "other conversations",
          "search conversations",
          "find a conversation",
          "conversation history",
          "open a conversation"
        ],
        link: "/guia"
      },
      {
        id: "guia.conversationList.es-ES",
        language: "es-ES",
        title: "Tus conversaciones con un agente",
        content: "Cada p\xE1gina de agente tiene la lista de tus conversaciones con \xE9l, incluida la que est\xE1 abierta, marcada **Abierta ahora** (en /auxtrat la lista muestra solo las otras): al lado del chat en el ordenador, y en el bot\xF3n **Conversaciones** en la parte superior del chat en el m\xF3vil. La m\xE1s reciente aparece primero, y cada una lleva como t\xEDtulo el comienzo de su primer mensaje. Elige una para abrirla y seguir donde lo dejaste. El cuadro **Buscar en t\xEDtulos y mensajes** busca el texto en los t\xEDtulos y en todos los mensajes.",
        keywords: [
          "lista de conversaciones",
          "mis conversaciones",
          "conversaciones antiguas",
          "otras conversaciones",
          "buscar conversaci\xF3n",
          "encontrar una conversaci\xF3n",
          "historial de conversaciones",
          "abrir conversaci\xF3n"
        ],
        link: "/guia"
      },
      {
        id: "guia.renameConversation.pt-BR",
        language: "pt-BR",
        title: "Renomear uma conversa",
        content: "Na lista de conversas de uma p\xE1gina de agente, use o bot\xE3o de l\xE1pis (**Renomear**) ao lado da conversa, digite o novo t\xEDtulo e pressione **Enter** para salvar (**Esc** cancela). O t\xEDtulo pode ter at\xE9 100 caracteres, em texto simples.",
        keywords: [
          "renomear",
          "renomear conversa",
          "mudar o t\xEDtulo",
          "trocar nome da conversa",
          "t\xEDtulo da conversa",
          "dar nome"
        ],
        link: "/guia"
      },
      {
        id: "guia.renameConversation.en-US",
        language: "en-US",
        title: "Rename a conversation",
        content: "In an agent page's conversation list, use the pencil button (**Rename**) beside the conversation, type the new title and press **Enter** to save (**Esc** cancels). A title can have up to 100 characters of plain text.",
        keywords: [
          "rename",
          "rename conversation",
          "change the title",
          "conversation title",
          "name a conversation"
        ],
        link: "/guia"
      },
      {
        id: "guia.renameConversation.es-ES",
        language: "es-ES",
        title: "Renombrar una conversaci\xF3n",
        content: "En la lista de conversaciones de una p\xE1gina de agente, usa el bot\xF3n del l\xE1piz (**Renombrar**) junto a la conversaci\xF3n, escribe el nuevo t\xEDtulo y pulsa **Enter** para guardar (**Esc** cancela). El t\xEDtulo puede tener hasta 100 caracteres de texto simple.",
        keywords: [
          "renombrar",
          "renombrar conversaci\xF3n",
          "cambiar el t\xEDtulo",
          "t\xEDtulo de la conversaci\xF3n",
          "poner nombre"
        ],
        link: "/guia"
      },
      {
        id: "guia.deleteConversation.pt-BR",
        language: "pt-BR",
        title: "Excluir uma conversa",
        content: "Na lista de conversas de uma p\xE1gina de agente, use o bot\xE3o de lixeira (**Excluir**) ao lado da conversa e confirme em **Excluir**. A conversa e todas as suas mensagens s\xE3o apagadas de vez; n\xE3o \xE9 poss\xEDvel desfazer.",
        keywords: [
          "excluir conversa",
          "apagar conversa",
          "deletar conversa",
          "remover conversa",
          "lixeira"
        ],
        link: "/guia"
      },
      {
        id: "guia.deleteConversation.en-US",
        language: "en-US",
        title: "Delete a conversation",
        content: "In an agent page's conversation list, use the bin button (**Delete**) beside the conversation and confirm with **Delete**. The conversation and all its messages are removed for good; this cannot be undone.",
        keywords: [
          "delete conversation",
          "remove conversation",
          "erase conversation",
          "bin",
          "trash"
        ],
        link: "/guia"
      },
      {
        id: "guia.deleteConversation.es-ES",
        language: "es-ES",
        title: "Eliminar una conversaci\xF3n",
        content: "En la lista de conversaciones de una p\xE1gina de agente, usa el bot\xF3n de la papelera (**Eliminar**) junto a la conversaci\xF3n y confirma con **Eliminar**. La conversaci\xF3n y todos sus mensajes se borran para siempre; no se puede deshacer.",
        keywords: [
          "eliminar conversaci\xF3n",
          "borrar conversaci\xF3n",
          "quitar conversaci\xF3n",
          "papelera"
        ],
        link: "/guia"
      },
      {
        id: "guia.stopReply.pt-BR",
        language: "pt-BR",
        title: "Parar uma resposta",
        content: "Enquanto o agente escreve, o bot\xE3o **Parar** fica no lugar de **Enviar**. Ele interrompe a resposta: o que j\xE1 chegou fica na conversa, marcado como interrompido, e voc\xEA j\xE1 pode enviar a pr\xF3xima mensagem.",
        keywords: [
          "parar",
          "parar resposta",
          "interromper",
          "cancelar resposta",
          "resposta longa demais"
        ],
        link: "/guia"
      },
      {
        id: "guia.stopReply.en-US",
        language: "en-US",
        title: "Stop a reply",
        content: "While the agent is writing, the **Stop** button takes the place of **Send**. It ends the reply: what has arrived stays in the conversation, marked as stopped, and you can send your next message straight away.",
        keywords: [
          "stop",
          "stop reply",
          "interrupt",
          "cancel reply",
          "reply too long"
        ],
        link: "/guia"
      },
      {
        id: "guia.stopReply.es-ES",
        language: "es-ES",
        title: "Detener una respuesta",
        content: "Mientras el agente escribe, el bot\xF3n **Detener** ocupa el lugar de **Enviar**. Corta la respuesta: lo que ya lleg\xF3 se queda en la conversaci\xF3n, marcado como detenido, y puedes enviar tu siguiente mensaje enseguida.",
        keywords: [
          "detener",
          "detener respuesta",
          "interrumpir",
          "cancelar respuesta",
          "respuesta demasiado larga"
        ],
        link: "/guia"
      },
      {
        id: "guia.copyReply.pt-BR",
        language: "pt-BR",
        title: "Copiar uma resposta",
        content: "Cada resposta de um agente tem o bot\xE3o **Copiar**, embaixo do texto: ele copia a resposta inteira para a \xE1rea de transfer\xEAncia, e aparece **Copiado**.",
        keywords: [
          "copiar",
          "copiar resposta",
          "\xE1rea de transfer\xEAncia",
          "colar resposta"
        ],
        link: "/guia"
      },
      {
        id: "guia.copyReply.en-US",
        language: "en-US",
        title: "Copy a reply",
        content: "Each agent's reply has a **Copy** button under its text: it puts the whole reply on the clipboard, and **Copied** appears.",
        keywords: [
          "copy",
          "copy reply",
          "clipboard",
          "paste a reply"
        ],
        link: "/guia"
      },
      {
        id: "guia.copyReply.es-ES",
        language: "es-ES",
        title: "Copiar una respuesta",
        content: "Cada respuesta de un agente tiene el bot\xF3n **Copiar** debajo del texto: copia la respuesta completa al portapapeles, y aparece **Copiado**.",
        keywords: [
          "copiar",
          "copiar respuesta",
          "portapapeles",
          "pegar respuesta"
        ],
        link: "/guia"
      },
      {
        id: "guia.clearConfirm.pt-BR",
        language: "pt-BR",
        title: "Limpar conversa pede confirma\xE7\xE3o",
        content: "**Limpar conversa** pergunta antes: confirme em **Come\xE7ar de novo** para abrir uma conversa nova, ou **Cancelar** para continuar nesta. A conversa anterior continua na sua lista de conversas.",
        keywords: [
          "confirmar limpar",
          "come\xE7ar de novo",
          "pergunta antes de limpar"
        ],
        link: "/guia"
      },
      {
        id: "guia.clearConfirm.en-US",
        language: "en-US",
        title: "Clear Chat asks first",
        content: "**Clear Chat** asks first: confirm with **Start afresh** to open a new conversation, or **Cancel** to stay in this one. The previous conversation stays in your conversation list.",
        keywords: [
          "confirm clear",
          "start afresh",
          "asks before clearing"
        ],
        link: "/guia"
      },
      {
        id: "guia.clearConfirm.es-ES",
        language: "es-ES",
        title: "Borrar chat pide confirmaci\xF3n",
        content: "**Borrar chat** pregunta antes: confirma con **Empezar de nuevo** para abrir una conversaci\xF3n nueva, o **Cancelar** para seguir en esta. La conversaci\xF3n anterior sigue en tu lista de conversaciones.",
        keywords: [
          "confirmar limpiar",
          "empezar de nuevo",
          "pregunta antes de limpiar"
        ],
        link: "/guia"
      },
      {
        id: "guia.profile.pt-BR",
        language: "pt-BR",
        title: "Seu perfil (/profile)",
        content: "Em **Perfil** (/profile, no menu do topo) voc\xEA muda seu nome e o idioma preferido da conta (os e-mails que enviamos, como o c\xF3digo de nova senha, chegam nele). L\xE1 tamb\xE9m est\xE3o a troca de senha, as sess\xF5es abertas e os seus dados (LGPD).",
        keywords: [
          "perfil",
          "meu perfil",
          "mudar nome",
          "trocar nome",
          "idioma",
          "idioma preferido",
          "minha conta",
          "conta"
        ],
        link: "/profile"
      },
      {
        id: "guia.profile.en-US",
        language: "en-US",
        title: "Your profile (/profile)",
        content: "On **Profile** (/profile, in the top menu) you change your name and the account's preferred language (the e-mails we send, such as a password-reset code, arrive in it). It also holds the password change, your open sessions and your data (LGPD).",
        keywords: [
          "profile",
          "my profile",
          "change name",
          "rename",
          "language",
          "preferred language",
          "my account",
          "account"
        ],
        link: "/profile"
      },
      {
        id: "guia.profile.es-ES",
        language: "es-ES",
        title: "Tu perfil (/profile)",
        content: "En **Perfil** (/profile, en el men\xFA superior) cambias tu nombre y el idioma preferido de la cuenta (los correos que enviamos, como el c\xF3digo para restablecer la contrase\xF1a, llegan en \xE9l). Tambi\xE9n est\xE1n el cambio de contrase\xF1a, tus sesiones abiertas y tus datos (LGPD).",
        keywords: [
          "perfil",
          "mi perfil",
          "cambiar nombre",
          "idioma",
          "idioma preferido",
          "mi cuenta",
          "cuenta"
        ],
        link: "/profile"
      },
      {
        id: "guia.password.pt-BR",
        language: "pt-BR",
        title: "Trocar a senha",
        content: "Em /profile, **Alterar senha**: digite a senha atual e a nova duas vezes (m\xEDnimo de 6 caracteres). Ao trocar, todas as outras sess\xF5es da conta s\xE3o encerradas; esta continua aberta.",
        keywords: [
          "senha",
          "trocar senha",
          "mudar senha",
          "alterar senha",
          "nova senha"
        ],
        link: "/profile"
      },
      {
        id: "guia.password.en-US",
        language: "en-US",
        title: "Changing your password",
        content: "On /profile, **Change password**: type your current password and the new one twice (at least 6 characters). Every other session of the account is signed out; this one stays open.",
        keywords: [
          "password",
          "change password",
          "new password",
          "reset my password"
        ],
        link: "/profile"
      },
      {
        id: "guia.password.es-ES",
        language: "es-ES",
        title: "Cambiar la contrase\xF1a",
        content: "En /profile, **Cambiar contrase\xF1a**: escribe la contrase\xF1a actual y la nueva dos veces (m\xEDnimo 6 caracteres). Se cierran todas las dem\xE1s sesiones de la cuenta; esta sigue abierta.",
        keywords: [
          "contrase\xF1a",
          "cambiar contrase\xF1a",
          "nueva contrase\xF1a",
          "clave"
        ],
        link: "/profile"
      },
      {
        id: "guia.sessions.pt-BR",
        language: "pt-BR",
        title: "Sess\xF5es e sair dos outros aparelhos",
        content: "Em /profile, **Sess\xF5es** lista cada aparelho conectado (navegador, sistema e \xFAltimo uso); a sess\xE3o atual vem marcada. **Sair dos outros aparelhos** encerra todas as outras de uma vez.",
        keywords: [
          "sess\xF5es",
          "sess\xE3o",
          "aparelhos",
          "dispositivos",
          "sair dos outros",
          "desconectar",
          "onde estou conectado"
        ],
        link: "/profile"
      },
      {
        id: "guia.sessions.en-US",
        language: "en-US",
        title: "Sessions and signing out elsewhere",
        content: "On /profile, **Sessions** lists every signed-in device (browser, system and last use), with the current one marked. **Sign out elsewhere** ends all the others at once.",
        keywords: [
          "sessions",
          "session",
          "devices",
          "sign out elsewhere",
          "log out other devices",
          "where am i signed in"
        ],
        link: "/profile"
      },
      {
        id: "guia.sessions.es-ES",
        language: "es-ES",
        title: "Sesiones y cerrar sesi\xF3n en otros dispositivos",
        content: "En /profile, **Sesiones** muestra cada dispositivo conectado (navegador, sistema y \xFAltimo uso), con la sesi\xF3n actual marcada. **Cerrar las dem\xE1s sesiones** las termina todas de una vez.",
        keywords: [
          "sesiones",
          "sesi\xF3n",
          "dispositivos",
          "cerrar otras sesiones",
          "desconectar",
          "d\xF3nde estoy conectado"
        ],
        link: "/profile"
      },
      {
        id: "guia.data.pt-BR",
        language: "pt-BR",
        title: "Baixar meus dados e excluir a conta (LGPD)",
        content: "Em /profile, **Baixar meus dados** gera um arquivo JSON com sua conta, agentes contratados e conversas com as mensagens. **Excluir minha conta** pede sua senha e apaga a conta e todos os dados, sem volta; o \xFAltimo administrador n\xE3o pode ser exclu\xEDdo.",
        keywords: [
          "lgpd",
          "meus dados",
          "baixar dados",
          "exportar",
          "excluir conta",
          "apagar conta",
          "deletar conta",
          "privacidade"
        ],
        link: "/profile"
      },
      {
        id: "guia.data.en-US",
        language: "en-US",
        title: "Download my data and delete the account (LGPD)",
        content: "On /profile, **Download my data** gives a JSON file with your account, hired agents and conversations with their messages. **Delete my account** asks for your password and removes the account and all its data for good; the last administrator cannot be deleted.",
        keywords: [
          "lgpd",
          "gdpr",
          "my data",
          "download data",
          "export",
          "delete account",
          "remove account",
          "privacy"
        ],
        link: "/profile"
      },
      {
        id: "guia.data.es-ES",
        language: "es-ES",
        title: "Descargar mis datos y eliminar la cuenta (LGPD)",
        content: "En /profile, **Descargar mis datos** genera un archivo JSON con tu cuenta, los agentes contratados y las conversaciones con sus mensajes. **Eliminar mi cuenta** pide tu contrase\xF1a y borra la cuenta y todos sus datos para siempre; el \xFAltimo administrador no se puede eliminar.",
        keywords: [
          "lgpd",
          "mis datos",
          "descargar datos",
          "exportar",
          "eliminar cuenta",
          "borrar cuenta",
          "privacidad"
        ],
        link: "/profile"
      },
      {
        id: "guia.forgot-password.pt-BR",
        language: "pt-BR",
        title: "Esqueci minha senha",
        content: "Na tela de entrada (/login), **Esqueci minha senha** (/forgot-password): informe seu e-mail e enviaremos um c\xF3digo de 6 d\xEDgitos (vale 10 minutos, 5 tentativas). Digite o c\xF3digo e a nova senha; todas as sess\xF5es da conta s\xE3o encerradas e voc\xEA entra com a senha nova.",
        keywords: [
          "esqueci a senha",
          "esqueci minha senha",
          "recuperar senha",
          "redefinir senha",
          "perdi a senha",
          "n\xE3o consigo entrar"
        ],
        link: "/forgot-password"
      },
      {
        id: "guia.forgot-password.en-US",
        language: "en-US",
        title: "Forgot your password",
        content: "On the sign-in page (/login), **Forgot password?** (/forgot-password): enter your e-mail and we send a 6-digit code (valid 10 minutes, 5 tries). Type the code and a new password; every session of the account ends and you sign in with the new password.",
        keywords: [
          "forgot password",
          "forgotten password",
          "reset password",
          "recover password",
          "lost password",
          "can't sign in"
        ],
        link: "/forgot-password"
      },
      {
        id: "guia.forgot-password.es-ES",
        language: "es-ES",
        title: "Olvid\xE9 mi contrase\xF1a",
        content: "En la pantalla de inicio de sesi\xF3n (/login), **\xBFOlvidaste tu contrase\xF1a?** (/forgot-password): escribe tu correo y te enviaremos un c\xF3digo de 6 d\xEDgitos (v\xE1lido 10 minutos, 5 intentos). Escribe el c\xF3digo y la nueva contrase\xF1a; se cierran todas las sesiones de la cuenta y entras con la nueva.",
        keywords: [
          "olvid\xE9 mi contrase\xF1a",
          "olvid\xE9 la contrase\xF1a",
          "recuperar contrase\xF1a",
          "restablecer contrase\xF1a",
          "no puedo entrar"
        ],
        link: "/forgot-password"
      },
      {
        id: "guia.hire.pt-BR",
        language: "pt-BR",
        title: "Contratar um agente",
        content: "No Painel, a se\xE7\xE3o **Agentes dispon\xEDveis** mostra os agentes que voc\xEA ainda n\xE3o contratou. Clique em **Contratar** no agente que quiser: ele passa na hora para **Seus agentes contratados**, sem recarregar a p\xE1gina. Depois clique em **Conversar** para abrir a p\xE1gina dele. Toda conta nova j\xE1 come\xE7a com o Guia contratado; o Administrador s\xF3 aparece para administradores.",
        keywords: [
          "contratar",
          "contrata\xE7\xE3o",
          "contrato",
          "agentes dispon\xEDveis",
          "adicionar agente",
          "novo agente"
        ],
        link: "/dashboard"
      },
      {
        id: "guia.hire.en-US",
        language: "en-US",
        title: "Hire an agent",
        content: "On the Dashboard, **Available Agents** lists the agents you haven't hired yet. Click **Hire** on the one you want: it moves at once to **Your Hired Agents**, without reloading the page. Then click **Chat** to open its page. Every new account starts with the Guide already hired; the Administrator is offered to administrators only.",
        keywords: [
          "hire",
          "hiring",
          "available agents",
          "add an agent",
          "new agent",
          "get an agent"
        ],
        link: "/dashboard"
      },
      {
        id: "guia.hire.es-ES",
        language: "es-ES",
        title: "Contratar un agente",
        content: "En el Panel, **Agentes disponibles** muestra los agentes que a\xFAn no has contratado. Haz clic en **Contratar** en el que quieras: pasa al instante a **Tus agentes contratados**, sin recargar la p\xE1gina. Despu\xE9s haz clic en **Chatear** para abrir su p\xE1gina. Toda cuenta nueva empieza con la Gu\xEDa ya contratada; el Administrador solo se ofrece a los administradores.",
        keywords: [
          "contratar",
          "contrataci\xF3n",
          "agentes disponibles",
          "a\xF1adir agente",
          "nuevo agente"
        ],
        link: "/dashboard"
      },
      {
        id: "guia.whatsapp.pt-BR",
        language: "pt-BR",
        title: "Conectar o WhatsApp",
        content: "Na p\xE1gina **WhatsApp** (/whatsapp, no menu do topo), clique em **Conectar**: aparece um QR code. No celular, abra o WhatsApp, v\xE1 em **Aparelhos conectados**, toque em **Conectar um aparelho** e escaneie o c\xF3digo; ele se renova sozinho at\xE9 voc\xEA escanear, e a janela fecha quando o n\xFAmero fica conectado. A p\xE1gina diz o estado em palavras (conectando, escaneie o c\xF3digo, conectado, reconectando, n\xE3o foi poss\xEDvel falar com o WhatsApp), e **Desconectar** desliga o n\xFAmero.",
        keywords: [
          "whatsapp",
          "conectar",
          "conex\xE3o",
          "qr code",
          "aparelhos conectados",
          "celular",
          "n\xFAmero",
          "telefone",
          "vincular"
        ],
        link: "/whatsapp"
      },
      {
        id: "guia.whatsapp.en-US",
        language: "en-US",
        title: "Connect WhatsApp",
        content: "On the **WhatsApp** page (/whatsapp, in the top menu), click **Connect**: a QR code appears. On your phone, open WhatsApp, go to **Linked devices**, tap **Link a device** and scan the code; it renews itself until you scan it, and the window closes once the number is linked. The page says the state in words (connecting, scan the code, connected, reconnecting, cannot reach WhatsApp), and **Disconnect** unlinks the number.",
        keywords: [
          "whatsapp",
          "connect",
          "connection",
          "link",
          "qr code",
          "linked devices",
          "phone",
          "number",
          "pair"
        ],
        link: "/whatsapp"
      },
      {
        id: "guia.whatsapp.es-ES",
        language: "es-ES",
        title: "Conectar WhatsApp",
        content: "En la p\xE1gina **WhatsApp** (/whatsapp, en el men\xFA superior), haz clic en **Conectar**: aparece un c\xF3digo QR. En tu tel\xE9fono, abre WhatsApp, ve a **Dispositivos vinculados**, toca **Vincular un dispositivo** y escanea el c\xF3digo; se renueva solo hasta que lo escanees, y la ventana se cierra cuando el n\xFAmero queda vinculado. La p\xE1gina dice el estado con palabras (conectando, escanea el c\xF3digo, conectado, reconectando, no se puede contactar con WhatsApp), y **Desconectar** desvincula el n\xFAmero.",
        keywords: [
          "whatsapp",
          "conectar",
          "conexi\xF3n",
          "vincular",
          "c\xF3digo qr",
          "dispositivos vinculados",
          "m\xF3vil",
          "tel\xE9fono",
          "n\xFAmero"
        ],
        link: "/whatsapp"
      },
      {
        id: "guia.whatsappConversations.pt-BR",
        language: "pt-BR",
        title: "Conversas do WhatsApp e respostas autom\xE1ticas",
        content: "Em /whatsapp ficam as suas conversas do WhatsApp, com o total; clique em uma para ler e responder \xE0 m\xE3o. **IA LIGADA/DESLIGADA** liga ou desliga as respostas autom\xE1ticas do agente em cada conversa (o chat mostra **Assistente de IA ativo** ou **Modo manual**), e **Excluir** apaga a conversa depois de voc\xEA confirmar. O **WhatsApp avan\xE7ado** (/whatsapp-enhanced) acrescenta o status de cada contato (ativo em verde, bloqueado em vermelho, pendente em laranja), o bot\xE3o **Lista de permiss\xF5es** e o modo lista de permiss\xF5es (s\xF3 os contatos da lista recebem respostas da IA), **Atribuir agente** para escolher qual agente responde, e abas com as 10 primeiras conversas. Um contato que envia mensagens demais em pouco tempo fica bloqueado por alguns minutos: as mensagens dele continuam aparecendo, mas o agente n\xE3o responde at\xE9 o bloqueio acabar.",
        keywords: [
          "conversas do whatsapp",
          "resposta autom\xE1tica",
          "ligar ia",
          "desligar ia",
          "modo manual",
          "whitelist",
          "lista de permitidos",
          "atribuir agente",
          "contatos"
        ],
        link: "/whatsapp-enhanced"
      },
      {
        id: "guia.whatsappConversations.en-US",
        language: "en-US",
        title: "WhatsApp conversations and automatic replies",
        content: "On /whatsapp you find your WhatsApp conversations, with their count; click one to read it and reply by hand. **AI ON/OFF** switches the agent's automatic replies for each conversation (the chat shows **AI Assistant Active** or **Manual Mode**), and **Delete** removes a conversation once you confirm. **Enhanced WhatsApp** (/whatsapp-enhanced) adds each contact's status (active in green, blocked in red, pending in orange), the **Whitelist** button and whitelist mode (only whitelisted contacts get AI replies), **Assign Agent** to choose which agent answers, and tabs with the first 10 conversations. A contact who sends too many messages in a short time is blocked for some minutes: their messages still show, but the agent does not answer until the block ends.",
        keywords: [
          "whatsapp conversations",
          "automatic reply",
          "auto reply",
          "turn ai on",
          "turn ai off",
          "manual mode",
          "whitelist",
          "assign agent",
          "contacts"
        ],
        link: "/whatsapp-enhanced"
      },
      {
        id: "guia.whatsappConversations.es-ES",
        language: "es-ES",
        title: "Conversaciones de WhatsApp y respuestas autom\xE1ticas",
        content: "En /whatsapp est\xE1n tus conversaciones de WhatsApp, con su total; haz clic en una para leerla y responder a mano. **IA ACTIVADA/DESACTIVADA** enciende o apaga las respuestas autom\xE1ticas del agente en cada conversaci\xF3n (el chat muestra **Asistente de IA activo** o **Modo manual**), y **Eliminar** borra una conversaci\xF3n despu\xE9s de que confirmes. **WhatsApp avanzado** (/whatsapp-enhanced) a\xF1ade el estado de cada contacto (activo en verde, bloqueado en rojo, pendiente en naranja), el bot\xF3n **Lista blanca** y el modo lista blanca (solo los contactos de la lista reciben respuestas de la IA), **Asignar agente** para elegir qu\xE9 agente responde, y pesta\xF1as con las 10 primeras conversaciones. Un contacto que env\xEDa demasiados mensajes en poco tiempo queda bloqueado unos minutos: sus mensajes siguen apareciendo, pero el agente no responde hasta que termina el bloqueo.",
        keywords: [
          "conversaciones de whatsapp",
          "respuesta autom\xE1tica",
          "activar ia",
          "desactivar ia",
          "modo manual",
          "whitelist",
          "lista de permitidos",
          "asignar agente",
          "contactos"
        ],
        link: "/whatsapp-enhanced"
      },
      {
        id: "guia.admin.pt-BR",
        language: "pt-BR",
        title: "O painel de administra\xE7\xE3o",
        content: "O painel de administra\xE7\xE3o (conte\xFAdo, tema, configura\xE7\xF5es, agentes, imagens, monitor e registros) **ainda n\xE3o est\xE1 dispon\xEDvel**. Hoje, um administrador pode alternar entre o modo administrador e o modo usu\xE1rio e perguntar ao agente **Administrador** (/administrador) os n\xFAmeros do sistema.",
        keywords: [
          "administra\xE7\xE3o",
          "painel de administra\xE7\xE3o",
          "admin",
          "configura\xE7\xF5es",
          "tema",
          "conte\xFAdo",
          "gerenciar agentes",
          "imagens",
          "monitor",
          "logs"
        ],
        link: "/administrador"
      },
      {
        id: "guia.admin.en-US",
        language: "en-US",
        title: "The admin panel",
        content: "The admin panel (content, theme, settings, agents, images, monitor and logs) **is not available yet**. Today, an administrator can switch between admin mode and user mode and ask the **Administrator** agent (/administrador) for the system's figures.",
        keywords: [
          "admin panel",
          "administration",
          "admin",
          "settings",
          "theme",
          "content",
          "manage agents",
          "images",
          "monitor",
          "logs"
        ],
        link: "/administrador"
      },
      {
        id: "guia.admin.es-ES",
        language: "es-ES",
        title: "El panel de administraci\xF3n",
        content: "El panel de administraci\xF3n (contenido, tema, ajustes, agentes, im\xE1genes, monitor y registros) **todav\xEDa no est\xE1 disponible**. Hoy, un administrador puede cambiar entre el modo administrador y el modo usuario y preguntar al agente **Administrador** (/administrador) las cifras del sistema.",
        keywords: [
          "administraci\xF3n",
          "panel de administraci\xF3n",
          "admin",
          "ajustes",
          "tema",
          "contenido",
          "gestionar agentes",
          "im\xE1genes",
          "monitor",
          "registros",
          "logs"
        ],
        link: "/administrador"
      },
      {
        id: "guia.about.pt-BR",
        language: "pt-BR",
        title: "Para que serve o ContrateIA",
        content: "O ContrateIA \xE9 um aplicativo web onde voc\xEA **contrata os seus pr\xF3prios agentes de IA** e conversa com eles: o **Guia** explica como usar o app, o **Assistente** diz a data e a hora e faz contas, o **Auxtrat** conhece os nossos produtos e pre\xE7os, o **Indirect** explica as mensagens an\xF4nimas e o **Administrador** d\xE1 os n\xFAmeros do sistema aos administradores. Comece pelo Painel.",
        keywords: [
          "contrateia",
          "aplicativo",
          "app",
          "site",
          "serve",
          "para que serve",
          "o que \xE9",
          "sobre",
          "plataforma"
        ],
        link: "/dashboard"
      },
      {
        id: "guia.about.en-US",
        language: "en-US",
        title: "What ContrateIA is for",
        content: "ContrateIA is a web app where you **hire your own AI agents** and chat with them: the **Guide** explains how to use the app, the **Assistant** tells the date and time and does sums, **Auxtrat** knows our products and prices, **Indirect** explains anonymous messages and the **Administrator** gives administrators the system's figures. Start from the Dashboard.",
        keywords: [
          "contrateia",
          "app",
          "application",
          "website",
          "for",
          "what is this",
          "about",
          "platform",
          "purpose"
        ],
        link: "/dashboard"
      },
      {
        id: "guia.about.es-ES",
        language: "es-ES",
        title: "Para qu\xE9 sirve ContrateIA",
        content: "ContrateIA es una aplicaci\xF3n web donde **contratas tus propios agentes de IA** y conversas con ellos: el **Gu\xEDa** explica c\xF3mo usar la app, el **Asistente** dice la fecha y la hora y hace cuentas, **Auxtrat** conoce nuestros productos y precios, **Indirect** explica los mensajes an\xF3nimos y el **Administrador** da a los administradores las cifras del sistema. Empieza por el Panel.",
        keywords: [
          "contrateia",
          "aplicaci\xF3n",
          "app",
          "sitio",
          "sirve",
          "para qu\xE9 sirve",
          "qu\xE9 es",
          "sobre",
          "plataforma"
        ],
        link: "/dashboard"
      }
    ]
  }
};

// src/features/agents/seed/indirect.json
var indirect_default = {
  seedVersion: 4,
  displayName: {
    "pt-BR": "Indirect",
    "en-US": "Indirect",
    "es-ES": "Indirect"
  },
  description: {
    "pt-BR": "Mensagens an\xF4nimas pelo WhatsApp (em breve): por enquanto, explica como v\xE3o funcionar.",
    "en-US": "Anonymous messages over WhatsApp (coming soon): for now, it explains how they will work.",
    "es-ES": "Mensajes an\xF3nimos por WhatsApp (pr\xF3ximamente): por ahora, explica c\xF3mo funcionar\xE1n."
  },
  adminOnly: false,
  configuration: {
    instructions: "You are Indirect, the anonymous messaging agent of ContrateIA. ContrateIA is a web application, sold first in Brazil, where people hire their own AI agents, chat with them, and connect a WhatsApp number so that an agent answers their contacts. You will relay a user's message to a phone number through the platform's WhatsApp connection without revealing the sender; replies come back to this chat, and a recipient can answer STOP never to be messaged again. Delivery is not available yet: it arrives with the WhatsApp integration, so explain how it will work and never claim that a message was sent. Refuse to help with harassment, threats or spam. Be concise: a few short sentences or a short list, in Markdown.",
    welcomeMessage: {
      "pt-BR": "Ol\xE1! Eu sou o Indirect. Com a integra\xE7\xE3o do WhatsApp, vou entregar mensagens suas sem revelar quem enviou. Pergunte como vai funcionar.",
      "en-US": "Hello! I'm Indirect. With the WhatsApp integration, I'll deliver your messages without revealing who sent them. Ask me how it will work.",
      "es-ES": "\xA1Hola! Soy Indirect. Con la integraci\xF3n de WhatsApp, entregar\xE9 tus mensajes sin revelar qui\xE9n los env\xEDa. Preg\xFAntame c\xF3mo funcionar\xE1."
    },
    model: {
      model: null,
      temperature: 0.3,
      maxReplyLength: 2e3
    },
    capabilities: {
      skills: ["delivery"],
      fallback: "notFound"
    },
    knowledge: [
      {
        id: "indirect.how.pt-BR",
        language: "pt-BR",
        title: "Como funcionam as mensagens an\xF4nimas",
        content: "Quando o envio estiver dispon\xEDvel, voc\xEA me dar\xE1 o n\xFAmero do destinat\xE1rio e a mensagem, e eu a entregarei pelo WhatsApp da plataforma sem revelar quem enviou; as respostas aparecer\xE3o aqui. **Hoje nenhuma mensagem \xE9 enviada**: o envio chega com a integra\xE7\xE3o com o WhatsApp.",
        keywords: [
          "an\xF4nimo",
          "an\xF4nima",
          "mensagem an\xF4nima",
          "enviar mensagem",
          "como funciona",
          "destinat\xE1rio",
          "resposta"
        ]
      },
      {
        id: "indirect.how.en-US",
        language: "en-US",
        title: "How anonymous messages work",
        content: "Once sending is available, you will give me the recipient's number and the message, and I will deliver it through the platform's WhatsApp without revealing who sent it; replies will show up here. **Today no message is sent**: sending arrives with the WhatsApp integration.",
        keywords: [
          "anonymous",
          "anonymous message",
          "send a message",
          "how it works",
          "recipient",
          "reply"
        ]
      },
      {
        id: "indirect.how.es-ES",
        language: "es-ES",
        title: "C\xF3mo funcionan los mensajes an\xF3nimos",
        content: "Cuando el env\xEDo est\xE9 disponible, me dar\xE1s el n\xFAmero del destinatario y el mensaje, y lo entregar\xE9 por el WhatsApp de la plataforma sin revelar qui\xE9n lo envi\xF3; las respuestas aparecer\xE1n aqu\xED. **Hoy no se env\xEDa ning\xFAn mensaje**: el env\xEDo llega con la integraci\xF3n con WhatsApp.",
        keywords: [
          "an\xF3nimo",
          "an\xF3nima",
          "mensaje an\xF3nimo",
          "enviar mensaje",
          "c\xF3mo funciona",
          "destinatario",
          "respuesta"
        ]
      },
      {
        id: "indirect.availability.pt-BR",
        language: "pt-BR",
        title: "Quando o envio estar\xE1 dispon\xEDvel",
        content: "O envio an\xF4nimo chega com a integra\xE7\xE3o do WhatsApp da ContrateIA. At\xE9 l\xE1 nenhuma mensagem \xE9 enviada: eu s\xF3 explico como vai funcionar.",
        keywords: [
          "dispon\xEDvel",
          "quando",
          "envio",
          "entregar",
          "ainda n\xE3o",
          "em breve",
          "whatsapp"
        ]
      },
      {
        id: "indirect.availability.en-US",
        language: "en-US",
        title: "When sending will be available",
        content: "Anonymous sending arrives with ContrateIA's WhatsApp integration. Until then no message is sent: I only explain how it will work.",
        keywords: [
          "available",
          "availability",
          "when",
          "sending",
          "deliver",
          "not yet",
          "soon",
          "whatsapp"
        ]
      },
      {
        id: "indirect.availability.es-ES",
        language: "es-ES",
        title: "Cu\xE1ndo estar\xE1 disponible el env\xEDo",
        content: "El env\xEDo an\xF3nimo llega con la integraci\xF3n de WhatsApp de ContrateIA. Hasta entonces no se env\xEDa ning\xFAn mensaje: solo explico c\xF3mo funcionar\xE1.",
        keywords: [
          "disponible",
          "cu\xE1ndo",
          "env\xEDo",
          "entregar",
          "todav\xEDa no",
          "pronto",
          "whatsapp"
        ]
      },
      {
        id: "indirect.privacy.pt-BR",
        language: "pt-BR",
        title: "Privacidade e o pedido STOP",
        content: "O destinat\xE1rio n\xE3o v\xEA seu nome nem seu n\xFAmero. Ele pode responder **STOP** a qualquer momento para nunca mais receber mensagens por aqui. Use com respeito: ass\xE9dio, amea\xE7as e spam n\xE3o s\xE3o permitidos.",
        keywords: [
          "privacidade",
          "sigilo",
          "identidade",
          "stop",
          "parar",
          "bloquear",
          "ass\xE9dio",
          "spam",
          "meu n\xFAmero",
          "n\xFAmero",
          "meu nome",
          "anonimato",
          "v\xEA",
          "responder stop"
        ]
      },
      {
        id: "indirect.privacy.en-US",
        language: "en-US",
        title: "Privacy and the STOP request",
        content: "The recipient sees neither your name nor your number. They can answer **STOP** at any time never to be messaged from here again. Use it with respect: harassment, threats and spam are not allowed.",
        keywords: [
          "privacy",
          "secret",
          "identity",
          "stop",
          "block",
          "unsubscribe",
          "harassment",
          "spam",
          "my number",
          "number",
          "my name",
          "see",
          "reply stop"
        ]
      },
      {
        id: "indirect.privacy.es-ES",
        language: "es-ES",
        title: "Privacidad y la petici\xF3n STOP",
        content: "El destinatario no ve tu nombre ni tu n\xFAmero. Puede responder **STOP** en cualquier momento para no volver a recibir mensajes desde aqu\xED. \xDAsalo con respeto: no se permiten acoso, amenazas ni spam.",
        keywords: [
          "privacidad",
          "secreto",
          "identidad",
          "stop",
          "parar",
          "bloquear",
          "acoso",
          "spam",
          "mi n\xFAmero",
          "n\xFAmero",
          "mi nombre",
          "anonimato",
          "ve",
          "responder stop"
        ]
      }
    ]
  }
};

// src/features/agents/agents.seed.ts
var FILES = { guia: guia_default, assistente: assistente_default, auxtrat: auxtrat_default, administrador: administrador_default, indirect: indirect_default };
function loadSeededAgents() {
  return SEEDED_AGENT_NAMES.map((name) => {
    const parsed = agentSeedSchema.safeParse(FILES[name]);
    if (!parsed.success) throw new Error(`seed/${name}.json: ${parsed.error.message}`);
    return { name, ...parsed.data };
  });
}

// src/features/agents/agents.service.ts
var CATALOGUE_TTL_MS = 6e4;
function createAgentsService({
  db,
  isSingleAgentUser,
  state,
  logger
}) {
  const catalogue2 = createSharedCache({ state, name: "agents", max: 1, ttlMs: CATALOGUE_TTL_MS, logger });
  const all = async () => await catalogue2.load("all", () => listAgents({ db })) ?? [];
  const invalidate = () => catalogue2.invalidate("all");
  async function seed() {
    await syncSeededAgents({
      db,
      rows: loadSeededAgents().map((a) => ({
        name: a.name,
        seedVersion: a.seedVersion,
        displayName: a.displayName,
        description: a.description,
        configuration: a.configuration,
        adminOnly: a.adminOnly
      }))
    });
    await invalidate();
  }
  const visibleTo = (user, agent) => !agent.adminOnly || user.role === "admin";
  async function hiredAgents(user) {
    const hired = await listHiredAgentIds({ db, userId: user.id });
    return (await all()).filter((a) => hired.has(a.id) && visibleTo(user, a));
  }
  async function listHired({ user, language }) {
    return (await hiredAgents(user)).map((a) => toAgent(a, language, true));
  }
  async function listAvailable({ user, language }) {
    if (await isSingleAgentUser(user.id)) return [];
    const hired = await listHiredAgentIds({ db, userId: user.id });
    return (await all()).filter((a) => a.isActive && !hired.has(a.id) && visibleTo(user, a)).map((a) => toAgent(a, language, false));
  }
  async function hire({ user, agentId, language }) {
    const agent = (await all()).find((a) => a.id === agentId || a.name === agentId);
    if (!agent) throw new AppError(404, "agents.notFound");
    if (!agent.isActive) throw new AppError(400, "agents.inactive");
    if (!visibleTo(user, agent)) throw new AppError(403, "agents.adminOnly");
    if (await isSingleAgentUser(user.id)) throw new AppError(403, "agents.singleAgent");
    await insertHire({ db, userId: user.id, agentId: agent.id });
    return { agent: toAgent(agent, language, true) };
  }
  async function hireDefault({ userId }) {
    const agent = (await all()).find((a) => a.name === DEFAULT_AGENT_NAME);
    if (agent) await insertHire({ db, userId, agentId: agent.id });
  }
  async function assertAccess({ user, agentName }) {
    const agent = (await all()).find((a) => a.name === agentName);
    if (!agent) throw new AppError(404, "agents.notFound");
    if (!agent.isActive) throw new AppError(400, "agents.inactive");
    if (!visibleTo(user, agent) || !await isHired({ db, userId: user.id, agentId: agent.id })) {
      throw new AppError(403, "agents.noAccess");
    }
    return agent;
  }
  async function assertVisible({ user, agentId }) {
    const agent = await findById({ id: agentId });
    if (agent && !visibleTo(user, agent)) throw new AppError(403, "agents.noAccess");
    return agent;
  }
  const isVisibleTo = ({ user, agent }) => visibleTo(user, agent);
  async function findById({ id }) {
    return (await all()).find((a) => a.id === id);
  }
  async function findByName({ name }) {
    return (await all()).find((a) => a.name === name);
  }
  const countHired = async ({ user }) => (await hiredAgents(user)).length;
  return {
    seed,
    listHired,
    listAvailable,
    hire,
    hireDefault,
    assertAccess,
    assertVisible,
    isVisibleTo,
    findById,
    findByName,
    countHired,
    invalidate
  };
}
function toAgent(row, language, isHired2) {
  return {
    id: row.id,
    name: row.name,
    displayName: row.displayName[language],
    description: row.description[language],
    isActive: row.isActive,
    createdAt: row.createdAt.toISOString(),
    configuration: { welcomeMessage: row.configuration.welcomeMessage[language] },
    isHired: isHired2
  };
}

// src/features/ai/ai.builtin.ts
import { setImmediate as nextTurn } from "node:timers/promises";

// src/features/ai/ai.search.ts
import MiniSearch from "minisearch";
function normalizeText(text) {
  return text.normalize("NFD").replace(new RegExp("\\p{M}+", "gu"), "").toLowerCase();
}
function words(text) {
  return normalizeText(text).split(/[^\p{L}\p{N}]+/u).filter((word) => word.length > 0);
}
var STOPWORDS = {
  "pt-BR": new Set(
    "a o as os um uma uns umas de da do das dos em no na nos nas num numa para pra pro por pelo pela com sem como que qual quais quem e ou mas se eu tu ele ela nos voce voces vc meu minha meus minhas seu sua seus suas teu tua me te lhe isso isto este esta esse essa aquele aquela ai ali aqui la onde quando porque ser sou e era sao estar estou esta estao ter tenho tem temos ha havia quiser quer queira posso pode podes podemos podem poderia consigo consegue fazer faco faz fazes fazem sabe sabes quero queria gostaria preciso precisa saber sei sabe explica explique explicar diga dizer fale falar mostre mostrar funciona funcionar ver vejo vemos encontro encontrar acho achar fica ficam ao aos entao tambem ja ainda so muito mais menos algum alguma algo coisa favor porfavor ola oi ok sim nao obrigado obrigada ajuda ajudar".split(" ")
  ),
  "en-US": new Set(
    "a an the i me my mine you your yours he she it its we our they their this that these those do does did doing done how what which who whom where when why is are am was were be been being to of in on at by for from with without into about as and or but if so than then there here can could would should will shall may might must please tell show explain know want wanted like let lets give make see find need get got some any anything something thing just also very much many more most work works hi hello hey thanks ok yes no not help".split(" ")
  ),
  "es-ES": new Set(
    "el la los las un una unos unas de del al en por para con sin como que cual cuales quien y o u pero si yo tu el ella nosotros usted ustedes mi mis tu tus su sus me te se le lo eso esto este esta ese esa aqui alli ahi donde cuando porque es son ser soy era estar estoy esta estan hay tengo tiene tenemos puedo puede puedes pueden podemos podrias hacer hago hace haces hacen quiero queria quisiera necesito necesita saber se sabe sabes ver veo vemos encuentro encontrar explica explicar dime decir muestra mostrar funciona funcionar tambien ya todavia solo muy mas menos algun alguna algo cosa favor hola ok no gracias ayuda ayudar".split(" ")
  )
};
var SUFFIXES = {
  "pt-BR": [
    "amentos",
    "imentos",
    "amento",
    "imento",
    "acoes",
    "icoes",
    "adoras",
    "adores",
    "mente",
    "acao",
    "icao",
    "ando",
    "endo",
    "indo",
    "ados",
    "idos",
    "adas",
    "idas",
    "coes",
    "oes",
    "cao",
    "ado",
    "ido",
    "ada",
    "ida",
    "ens",
    "ao",
    "ar",
    "er",
    "ir",
    "am",
    "em",
    "es",
    "os",
    "as",
    "a",
    "e",
    "o",
    "s",
    // Short infinitives ("sair", "ler") meet their forms ("saio", "sai") on the stem.
    "r"
  ],
  "en-US": ["ations", "ation", "ings", "ions", "ing", "ion", "ers", "ies", "er", "ed", "es", "ly", "s", "e"],
  "es-ES": [
    "amientos",
    "imientos",
    "amiento",
    "imiento",
    "aciones",
    "iciones",
    "acion",
    "icion",
    "iones",
    "mente",
    "arse",
    "erse",
    "irse",
    "ando",
    "iendo",
    "ados",
    "idos",
    "adas",
    "idas",
    "ion",
    "ado",
    "ido",
    "ada",
    "ida",
    "ar",
    "er",
    "ir",
    "an",
    "en",
    "es",
    "os",
    "as",
    "a",
    "e",
    "o",
    "s"
  ]
};
var MIN_STEM = 3;
function stem(word, language) {
  for (const suffix of SUFFIXES[language]) {
    if (word.endsWith(suffix) && word.length - suffix.length >= MIN_STEM) {
      return word.slice(0, -suffix.length);
    }
  }
  return word;
}
function processWord(word, language) {
  if (word.length < 2 || STOPWORDS[language].has(word)) return null;
  return stem(word, language);
}
function queryTerms(text, language) {
  const terms = words(text).map((word) => processWord(word, language)).filter((term) => term !== null);
  return [...new Set(terms)];
}
var MIN_COVERAGE = 0.6;
function compare(a, b) {
  return a.coverage - b.coverage || a.topicHits - b.topicHits || a.phrase - b.phrase || a.score - b.score;
}
var FUZZY_FROM = 5;
function phraseToken(word, language) {
  return processWord(word, language) ?? word;
}
function says(said, phrase) {
  for (let start = 0; start + phrase.length <= said.length; start++) {
    if (phrase.every((token, offset) => said[start + offset] === token)) return true;
  }
  return false;
}
var KnowledgeIndex = class {
  constructor(entries, language) {
    this.entries = entries;
    this.language = language;
    this.search = new MiniSearch({
      idField: "position",
      fields: ["title", "keywords", "content"],
      extractField: (document, field) => {
        if (field === "position") return String(document.position);
        const value = document.entry[field];
        return Array.isArray(value) ? value.join(" ") : String(value ?? "");
      },
      tokenize: words,
      processTerm: (term) => processWord(normalizeText(term), language)
    });
    this.search.addAll(entries.map((entry, position) => ({ position, entry })));
    for (const entry of entries) {
      for (const word of words([entry.title, ...entry.keywords, entry.content].join(" "))) {
        const term = processWord(word, language);
        if (term !== null) this.vocabulary.add(term);
      }
    }
    this.phrases = entries.map(
      (entry) => [entry.title, ...entry.keywords].map((text) => words(text)).filter(
        (said) => said.length > 1 && said.some((word) => processWord(word, language) !== null)
      ).map((said) => said.map((word) => phraseToken(word, language)))
    );
  }
  entries;
  language;
  search;
  /** Every term the entries are indexed under. */
  vocabulary = /* @__PURE__ */ new Set();
  /** Per entry, its title and multi-word keywords as phrase tokens (see phraseToken). */
  phrases;
  /**
   * `said` (normalized words) with each word the index does not know, but would with two
   * neighbouring letters swapped, written that way: "agnet" → "agent", "agnetes" → "agentes".
   * A swap is the commonest slip in typing, and MiniSearch's fuzzy matching counts it as two
   * edits, more than it allows on a short word. Only words whose term is as long as fuzzy
   * matching needs and matches nothing as it is (neither a term nor the start of one) are
   * corrected, and only into a term of this agent's own knowledge: a word that is no swap of one
   * stays as typed.
   */
  correctSwaps(said) {
    return said.map((word) => {
      const term = processWord(word, this.language);
      if (term === null || term.length < FUZZY_FROM || this.matches(term)) return word;
      for (let i = 0; i + 1 < word.length; i++) {
        if (word[i] === word[i + 1]) continue;
        const swapped = word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2);
        const corrected = processWord(swapped, this.language);
        if (corrected !== null && this.vocabulary.has(corrected)) return swapped;
      }
      return word;
    });
  }
  /** Whether a term finds an indexed one as it is: equal, or (as rank's prefix search) its start. */
  matches(term) {
    if (this.vocabulary.has(term)) return true;
    if (term.length < 4) return false;
    for (const known of this.vocabulary) if (known.startsWith(term)) return true;
    return false;
  }
  /**
   * Entries ranked by relevance to already processed terms (see queryTerms). `said`, the
   * question's normalized words, lets an entry whose title or keyword phrase it says in full
   * stand out among equals (see best).
   */
  rank(terms, said = []) {
    if (terms.length === 0) return [];
    const tokens = said.map((word) => phraseToken(word, this.language));
    const results = this.search.search(terms.join(" "), {
      // The terms are processed already: split them back and keep them as they are.
      tokenize: (query) => query.split(" "),
      processTerm: (term) => term,
      boost: { title: 3, keywords: 2 },
      // Fuzzy and prefix matching only on longer terms: on three letters they match noise
      // ("sea" → "search").
      fuzzy: (term) => term.length >= FUZZY_FROM ? 0.2 : false,
      prefix: (term) => term.length >= 4
    });
    return results.flatMap((result) => {
      const entry = this.entries[Number(result.id)];
      if (!entry) return [];
      const coverage = new Set(result.queryTerms).size / terms.length;
      const topical = Object.values(result.match).filter(
        (fields) => fields.includes("title") || fields.includes("keywords")
      ).length;
      const topicHits = Math.min(topical, result.queryTerms.length);
      const phrases = this.phrases[Number(result.id)] ?? [];
      const phrase = Math.max(0, ...phrases.filter((p) => says(tokens, p)).map((p) => p.length));
      return [{ entry, score: result.score, coverage, topicHits, phrase }];
    });
  }
  /**
   * The best entry for a question, or undefined when nothing answers it well enough. It must
   * cover half the question's terms, and one of them must be in its title or keywords: an entry
   * that only mentions a word in passing is not about it. Among those, the one covering most of
   * the question wins, then the one most about it (terms in title and keywords), then the one
   * whose title or keyword it says in the longest phrase (`said`: "which agents are there" is
   * about the agents, "how do I hire an agent" about hiring), then the score: a short title that
   * repeats one word must not beat an entry that matches every word.
   */
  best(terms, said = []) {
    let best;
    for (const match of this.rank(terms, said)) {
      if (match.topicHits === 0 || match.coverage < MIN_COVERAGE) continue;
      if (!best || compare(match, best) > 0) best = match;
    }
    return best;
  }
};
var PerConfiguration = class {
  values = /* @__PURE__ */ new WeakMap();
  get(configuration, language, build) {
    let byLanguage = this.values.get(configuration);
    if (!byLanguage) {
      byLanguage = /* @__PURE__ */ new Map();
      this.values.set(configuration, byLanguage);
    }
    let value = byLanguage.get(language);
    if (value === void 0) {
      value = build();
      byLanguage.set(language, value);
    }
    return value;
  }
};
function indexFor(knowledge, language) {
  return new KnowledgeIndex(
    knowledge.filter((entry) => entry.language === language),
    language
  );
}

// src/features/ai/ai.arithmetic.ts
var MAX_LENGTH = 200;
var MAX_DEPTH = 40;
var ArithmeticError = class extends Error {
  constructor(code) {
    super(code);
    this.code = code;
  }
  code;
};
function tokenize(source) {
  const tokens = [];
  const pattern = /\s*(?:(\d+(?:\.\d+)?|\.\d+)|([-+*/()]))/y;
  let position = 0;
  while (position < source.length) {
    if (/^\s*$/.test(source.slice(position))) break;
    pattern.lastIndex = position;
    const match = pattern.exec(source);
    if (!match) throw new ArithmeticError("invalid");
    position = pattern.lastIndex;
    if (match[1] !== void 0)
      tokens.push({ kind: "number", value: Number(match[1]), text: match[1] });
    else tokens.push({ kind: "op", value: match[2] });
  }
  return tokens;
}
var Parser = class {
  constructor(tokens) {
    this.tokens = tokens;
  }
  tokens;
  position = 0;
  /** Binary operators seen: a lone number is not a calculation. */
  binaryOperators = 0;
  parse() {
    const value = this.expression(0);
    if (this.position !== this.tokens.length) throw new ArithmeticError("invalid");
    return value;
  }
  peekOp() {
    const token = this.tokens[this.position];
    return token?.kind === "op" ? token.value : void 0;
  }
  expression(depth) {
    let value = this.term(depth);
    for (let op = this.peekOp(); op === "+" || op === "-"; op = this.peekOp()) {
      this.position += 1;
      this.binaryOperators += 1;
      const right = this.term(depth);
      value = op === "+" ? value + right : value - right;
    }
    return value;
  }
  term(depth) {
    let value = this.unary(depth);
    for (let op = this.peekOp(); op === "*" || op === "/"; op = this.peekOp()) {
      this.position += 1;
      this.binaryOperators += 1;
      const right = this.unary(depth);
      if (op === "/" && right === 0) throw new ArithmeticError("division-by-zero");
      value = op === "*" ? value * right : value / right;
    }
    return value;
  }
  unary(depth) {
    if (depth > MAX_DEPTH) throw new ArithmeticError("invalid");
    const op = this.peekOp();
    if (op === "+" || op === "-") {
      this.position += 1;
      const value = this.unary(depth + 1);
      return op === "-" ? -value : value;
    }
    return this.primary(depth);
  }
  primary(depth) {
    const token = this.tokens[this.position];
    if (!token) throw new ArithmeticError("invalid");
    this.position += 1;
    if (token.kind === "number") return token.value;
    if (token.value !== "(") throw new ArithmeticError("invalid");
    const value = this.expression(depth + 1);
    if (this.peekOp() !== ")") throw new ArithmeticError("invalid");
    this.position += 1;
    return value;
  }
};
function evaluate(source, decimalSeparator = ".") {
  if (source.length > MAX_LENGTH) return void 0;
  try {
    const tokens = tokenize(source);
    const parser = new Parser(tokens);
    const value = parser.parse();
    if (parser.binaryOperators === 0) return void 0;
    if (!Number.isFinite(value)) return { ok: false, error: "not-finite" };
    return { ok: true, value, shown: show(tokens, decimalSeparator) };
  } catch (error) {
    if (error instanceof ArithmeticError && error.code === "division-by-zero") {
      return { ok: false, error: "division-by-zero" };
    }
    return void 0;
  }
}
function show(tokens, decimalSeparator) {
  const parts = tokens.map(
    (t) => t.kind === "number" ? t.text.replace(".", decimalSeparator) : t.value === "*" ? "\xD7" : t.value === "/" ? "\xF7" : t.value
  );
  return parts.join(" ").replace(/\( /g, "(").replace(/ \)/g, ")");
}
var LEAD_INS = {
  "pt-BR": /^(quanto (e|da|sao)|qual (e )?o resultado de|calcul[ea]r?|resolva|conta:?)\s+/,
  "en-US": /^(what('s| is)|how much is|calculate|compute|solve|what does)\s+/,
  "es-ES": /^(cuanto (es|da|son)|cual es el resultado de|calcula(r)?|resuelve)\s+/
};
var TAIL = /(\s*(=|\?|!|\.|equals?|e igual a|es igual a))*\s*$/;
var WORD_OPERATORS = {
  "pt-BR": [
    [/\bdividido por\b/g, "/"],
    [/\bmultiplicado por\b/g, "*"],
    [/\bvezes\b/g, "*"],
    [/\bmais\b/g, "+"],
    [/\bmenos\b/g, "-"]
  ],
  "en-US": [
    [/\bdivided by\b/g, "/"],
    [/\bmultiplied by\b/g, "*"],
    [/\btimes\b/g, "*"],
    [/\bplus\b/g, "+"],
    [/\bminus\b/g, "-"]
  ],
  "es-ES": [
    [/\bdividido (por|entre)\b/g, "/"],
    [/\bmultiplicado por\b/g, "*"],
    [/\bpor\b/g, "*"],
    [/\bmas\b/g, "+"],
    [/\bmenos\b/g, "-"]
  ]
};
var NUMBER = "(\\d+(?:\\.\\d+)?)";
var PERCENT_OF = {
  "pt-BR": new RegExp(`${NUMBER}\\s*%\\s*(?:de|do|da|sobre)\\s+${NUMBER}`, "g"),
  "en-US": new RegExp(`${NUMBER}\\s*%\\s*of\\s+${NUMBER}`, "g"),
  "es-ES": new RegExp(`${NUMBER}\\s*%\\s*(?:de|del|sobre)\\s+${NUMBER}`, "g")
};
var fraction = (words2, divisor) => [
  new RegExp(`(?:^|\\b)(?:a |o |la |el |one |an? )?(?:${words2})\\s+(?:de|of|del)\\s+${NUMBER}`, "g"),
  divisor
];
var FRACTIONS_OF = {
  "pt-BR": [fraction("metade", 2), fraction("terca parte|terco", 3), fraction("quarta parte|quarto", 4), fraction("dobro", 0.5), fraction("triplo", 1 / 3)],
  "en-US": [fraction("half", 2), fraction("third", 3), fraction("quarter", 4), fraction("double", 0.5)],
  "es-ES": [fraction("mitad", 2), fraction("tercera parte|tercio", 3), fraction("cuarta parte|cuarto", 4), fraction("doble", 0.5), fraction("triple", 1 / 3)]
};
function calculationIn(message, language) {
  if (message.length > MAX_LENGTH * 2) return void 0;
  let text = normalizeText(message).replace(/^[\s¿¡]+/, "").replace(TAIL, "").replace(LEAD_INS[language], "").replace(/^(o|a|os|as|el|la|the)\s+/, "");
  if (!/\d/.test(text)) return void 0;
  for (const [pattern, op] of WORD_OPERATORS[language]) text = text.replace(pattern, op);
  const written = text;
  text = text.replace(/[×x]/g, "*").replace(/÷/g, "/");
  const english = language === "en-US";
  text = english ? text.replace(/(\d),(?=\d{3}\b)/g, "$1") : text.replace(/(\d)\.(?=\d{3}(?:\D|$))/g, "$1").replace(/(\d),(\d)/g, "$1.$2");
  text = text.replace(PERCENT_OF[language], "($1 / 100 * $2)").replace(/(\d+(?:\.\d+)?)\s*%/g, "($1 / 100)");
  for (const [pattern, divisor] of FRACTIONS_OF[language]) {
    text = text.replace(pattern, `($1 / ${divisor})`);
  }
  const result = evaluate(text, english ? "." : ",");
  if (result?.ok && /%|\d[.,]\d{3}\b|[a-z]{3,}/.test(written)) {
    return { ...result, shown: written.replace(/\s*\*\s*/g, " \xD7 ").replace(/\s*\/\s*/g, " \xF7 ") };
  }
  return result;
}

// src/features/ai/ai.catalogue.ts
function catalogueEntries(catalogue2, language, t) {
  if (!catalogue2) return [];
  return catalogue2.items.map((item) => ({
    // Prefixed so that an item never shares an id with a knowledge entry of the same agent.
    id: `catalogue.${item.id}.${language}`,
    language,
    title: item.name[language],
    content: `${item.description[language]}

${priceLine(item, catalogue2.currency, language, t)}`,
    keywords: item.keywords[language]
  }));
}
function priceLine(item, currency, language, t) {
  const amount = priceFormat(language, currency).format(item.price);
  return t("engine.catalogue.price", { amount, unit: t(`engine.catalogue.${item.unit}`) });
}
var priceFormats = /* @__PURE__ */ new Map();
function priceFormat(language, currency) {
  const key = `${language} ${currency}`;
  let format = priceFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(language, {
      style: "currency",
      currency,
      currencyDisplay: "narrowSymbol"
    });
    priceFormats.set(key, format);
  }
  return format;
}

// src/features/ai/ai.errors.ts
var EngineFailure = class extends Error {
  name = "EngineFailure";
  reason;
  /** HTTP status from the provider, when it answered with one. */
  status;
  /** A short excerpt of what the provider sent (error body, bad line), for the log. */
  detail;
  constructor(reason, message, options = {}) {
    super(message, { cause: options.cause });
    this.reason = reason;
    this.status = options.status;
    this.detail = options.detail;
  }
};
function throwIfAborted(signal) {
  if (signal?.aborted)
    throw new EngineFailure("aborted", "The request was aborted", { cause: signal.reason });
}

// src/features/ai/ai.vocabulary.ts
function perLanguage(make) {
  const made = /* @__PURE__ */ new Map();
  return (language) => {
    let value = made.get(language);
    if (value === void 0) {
      value = make(language);
      made.set(language, value);
    }
    return value;
  };
}
var set = (text) => new Set(text.split(" "));
var VOCABULARY = {
  "pt-BR": {
    greeting: /^(oi+|ola|opa|eai|e ai|hey|bom dia|boa tarde|boa noite|saudacoes|tudo bem|tudo bom|como vai( voce)?|beleza)\b/,
    thanks: /^(muito )?(obrigad[oa]|valeu|agradecid[oa]|brigad[oa])( (mesmo|demais))?\b/,
    askTime: /\b(que horas?|horas sao|hora (e|atual|certa)|horario atual)\b/,
    askDate: /\b(que dia|qual (e )?(o )?dia|qual (e )?a data|data de hoje|dia (e )?hoje|hoje e que|que data|dia da semana|em que (mes|ano))\b/,
    quantity: set("quantos quantas numero total quantidade contagem"),
    state: set(
      "status estado funciona funcionando ok online ativo ativa configurado configurada esta saude"
    ),
    overview: set("status estado saude resumo situacao sistema"),
    users: set("usuario usuarios conta contas cadastrados cadastros cadastro pessoas"),
    conversations: set("conversa conversas chats chat"),
    messages: set("mensagem mensagens"),
    database: set("banco bd database pglite postgres postgresql dados"),
    mail: set("email mail smtp correio"),
    price: set("quanto custa custam custo custos preco precos valor valores cobra cobram sai"),
    catalogue: set(
      "produto produtos servico servicos catalogo oferece oferecem vende vendem lista opcoes tem"
    ),
    today: set("hoje"),
    week: set("semana"),
    total: set("total todos todas ja sempre geral"),
    newest: set("novos novas ultimos ultimas recentes mais")
  },
  "en-US": {
    greeting: /^(hi+|hello|hey|hiya|greetings|good (morning|afternoon|evening)|how are you( doing)?|howdy)\b/,
    thanks: /^(thanks?|thank you|thx|ty|many thanks|cheers)( (a lot|so much|very much))?\b/,
    askTime: /\b(what time|time is it|current time|the time now|time now)\b/,
    askDate: /\b(what day|which day|what date|today s date|date today|the date|day of the week|what month|what year|is it today)\b/,
    quantity: set("many number total count amount"),
    state: set("status state working ok online up running healthy configured is"),
    overview: set("status health overview summary system state"),
    users: set("user users account accounts members people"),
    conversations: set("conversation conversations chats chat"),
    messages: set("message messages"),
    database: set("database db pglite postgres postgresql"),
    mail: set("email mail smtp"),
    price: set("much cost costs price prices pricing charge fee fees"),
    catalogue: set(
      "product products service services catalog catalogue offer offers sell list options have"
    ),
    today: set("today"),
    week: set("week"),
    total: set("total all ever overall"),
    newest: set("newest latest recent last new")
  },
  "es-ES": {
    greeting: /^(hola|buenas|buenos dias|buenas tardes|buenas noches|saludos|que tal|como estas|hey)\b/,
    thanks: /^(muchas )?(gracias|mil gracias|te lo agradezco)\b/,
    askTime: /\b(que hora|hora es|horas son|la hora|hora actual)\b/,
    askDate: /\b(que dia|que fecha|fecha de hoy|dia es hoy|hoy es que|dia de la semana|en que (mes|ano))\b/,
    quantity: set("cuantos cuantas numero total cantidad"),
    state: set(
      "estado funciona funcionando ok online activo activa configurado configurada esta salud"
    ),
    overview: set("estado salud resumen situacion sistema"),
    users: set("usuario usuarios cuenta cuentas registrados personas"),
    conversations: set("conversacion conversaciones chats chat"),
    messages: set("mensaje mensajes"),
    database: set("base datos bd database pglite postgres postgresql"),
    mail: set("correo email mail smtp"),
    price: set("cuanto cuesta cuestan costo coste costos precio precios valor cobran cobras"),
    catalogue: set(
      "producto productos servicio servicios catalogo ofrece ofrecen vende venden lista opciones tienen"
    ),
    today: set("hoy"),
    week: set("semana"),
    total: set("total todos todas siempre"),
    newest: set("nuevos nuevas ultimos ultimas recientes")
  }
};

// src/features/ai/ai.language.ts
import { detectAll } from "tinyld";

// src/features/ai/spelling/en-US.json
var en_US_default = {
  u: "you",
  ur: "your",
  r: "are",
  pls: "please",
  plz: "please",
  thx: "thanks",
  thnx: "thanks",
  tks: "thanks",
  ty: "thank you",
  tysm: "thank you",
  whats: "what is",
  wat: "what",
  wut: "what",
  hw: "how",
  cuz: "because",
  bc: "because",
  b4: "before",
  msg: "message",
  msgs: "messages",
  pw: "password",
  pwd: "password",
  acct: "account",
  info: "information",
  rn: "right now",
  im: "i am",
  dont: "do not",
  cant: "cannot",
  howto: "how to",
  wanna: "want to",
  gonna: "going to",
  gotta: "have to",
  ya: "you",
  yo: "hey",
  sup: "hey",
  tmrw: "tomorrow",
  "2day": "today",
  idk: "i do not know"
};

// src/features/ai/spelling/es-ES.json
var es_ES_default = {
  q: "que",
  xq: "porque",
  pq: "porque",
  porq: "porque",
  tmb: "tambien",
  tb: "tambien",
  tbn: "tambien",
  d: "de",
  k: "que",
  ke: "que",
  msj: "mensaje",
  msjs: "mensajes",
  xfa: "por favor",
  porfa: "por favor",
  pls: "por favor",
  grax: "gracias",
  grcs: "gracias",
  thx: "gracias",
  salu2: "saludos",
  tqm: "gracias",
  bn: "bien",
  toy: "estoy",
  ta: "esta",
  pa: "para",
  dnd: "donde",
  cdo: "cuando",
  qn: "quien",
  wasap: "whatsapp",
  guasap: "whatsapp",
  whats: "whatsapp",
  wsp: "whatsapp"
};

// src/features/ai/spelling/pt-BR.json
var pt_BR_default = {
  vc: "voce",
  vcs: "voces",
  hj: "hoje",
  q: "que",
  oq: "o que",
  pq: "porque",
  tb: "tambem",
  tbm: "tambem",
  obg: "obrigado",
  obgd: "obrigado",
  obgda: "obrigada",
  vlw: "valeu",
  blz: "beleza",
  cade: "onde esta",
  pra: "para",
  pro: "para o",
  ta: "esta",
  to: "estou",
  t\u00F4: "estou",
  td: "tudo",
  tds: "todos",
  msg: "mensagem",
  msgs: "mensagens",
  qto: "quanto",
  qtos: "quantos",
  qtas: "quantas",
  qnt: "quanto",
  qnto: "quanto",
  qdo: "quando",
  qnd: "quando",
  mt: "muito",
  mto: "muito",
  n: "nao",
  \u00F1: "nao",
  agr: "agora",
  aq: "aqui",
  cmg: "comigo",
  ngm: "ninguem",
  pfv: "por favor",
  pf: "por favor",
  plmdds: "por favor",
  tmj: "valeu",
  eh: "e",
  neh: "nao e",
  whats: "whatsapp",
  zap: "whatsapp",
  zapzap: "whatsapp",
  wpp: "whatsapp",
  dps: "depois",
  hrs: "horas",
  hr: "hora"
};

// src/features/ai/ai.spelling.ts
var LISTS = {
  "pt-BR": pt_BR_default,
  "en-US": en_US_default,
  "es-ES": es_ES_default
};
function expandChatSpelling(normalized, language) {
  const list = LISTS[language];
  return normalized.replace(
    /[\p{L}\p{N}]+/gu,
    (word) => Object.hasOwn(list, word) ? list[word] : word
  );
}
function ownChatWords(words2, language) {
  const others = Object.keys(LISTS).filter((other) => other !== language);
  return words2.filter(
    (word) => Object.hasOwn(LISTS[language], word) && others.every((other) => !Object.hasOwn(LISTS[other], word))
  ).length;
}

// src/features/ai/ai.language.ts
var CODES = { pt: "pt-BR", en: "en-US", es: "es-ES" };
var ONLY = Object.keys(CODES);
var MIN_LETTERS = 12;
var MIN_WORDS = 3;
var MIN_LEAD = 1.3;
function detectLanguage(text, fallback) {
  const letters = words(text).filter((word) => new RegExp("\\p{L}", "u").test(word));
  if (ownChatWords(letters, fallback) > 0) return fallback;
  if (letters.length < MIN_WORDS || letters.join("").length < MIN_LETTERS) return fallback;
  const ranked = detectAll(text, { only: ONLY });
  const [first, second] = ranked;
  if (!first || !CODES[first.lang]) return fallback;
  const detected = CODES[first.lang];
  if (detected === fallback) return fallback;
  const fallbackScore = ranked.find((r) => CODES[r.lang] === fallback)?.accuracy ?? 0;
  if (first.accuracy < MIN_LEAD * Math.max(fallbackScore, second?.accuracy ?? 0)) return fallback;
  return detected;
}

// src/features/ai/ai.builtin.ts
var SUGGESTIONS = 3;
function createBuiltinAnswerer(options = {}) {
  const prepared = new PerConfiguration();
  const now = options.now ?? (() => /* @__PURE__ */ new Date());
  const translate = options.translate ?? createTranslator();
  return async (request) => {
    const language = detectLanguage(request.message, request.language);
    const answer = await answerFor(request, language, prepared, translate(language), now());
    const text = limitLength(answer.text, request.agent.configuration.model.maxReplyLength);
    return { ...answer, text, language };
  };
}
function createBuiltinEngine(options = {}) {
  const answer = createBuiltinAnswerer(options);
  return {
    name: "builtin",
    async *reply(request) {
      throwIfAborted(request.signal);
      const { text } = await answer(request);
      for (const piece of pieces(text)) {
        throwIfAborted(request.signal);
        yield piece;
        await nextTurn();
      }
    }
  };
}
function topicOf(entry) {
  return entry.id.endsWith(`.${entry.language}`) ? entry.id.slice(0, -entry.language.length - 1) : entry.id;
}
async function answerFor(request, language, prepared, t, now) {
  const { agent } = request;
  const { configuration } = agent;
  const vocabulary = VOCABULARY[language];
  const { catalogue: catalogue2, index } = prepared.get(configuration, language, () => {
    const items = catalogueEntries(configuration.catalogue, language, t);
    return { catalogue: items, index: indexFor([...configuration.knowledge, ...items], language) };
  });
  const { capabilities } = configuration;
  const normalized = expandChatSpelling(normalizeText(request.message), language);
  const courtesy = stripCourtesy(normalized, vocabulary, agent.name);
  const ownName = processWord(agent.name, language);
  const plain = index.correctSwaps(words(courtesy.rest)).join(" ");
  const turn = {
    request,
    language,
    text: courtesy.rest,
    plain,
    terms: queryTerms(plain, language).filter((term) => term !== ownName),
    index,
    catalogue: catalogue2,
    t,
    vocabulary,
    now
  };
  const bare = turn.terms.length === 0 && !/\d/.test(turn.text);
  if (bare && courtesy.thanked) return { text: t("engine.thanks"), topic: "thanks" };
  if (bare && courtesy.greeted) {
    const text = withTopics(t("engine.greeting"), t("engine.forExample"), topics(turn, capabilities), t);
    return { text, topic: "greeting" };
  }
  for (const skill of capabilities.skills) {
    const reply = await SKILLS[skill].answer(turn);
    if (reply === void 0) continue;
    return typeof reply === "string" ? { text: reply, topic: skill } : reply;
  }
  if (bare) {
    return { text: withTopics("", t("engine.canHelpWith"), topics(turn, capabilities), t), topic: "topics" };
  }
  const match = index.best(turn.terms, words(plain));
  if (match) return { text: renderEntry(match.entry, t), topic: topicOf(match.entry) };
  return refusal(turn, capabilities, turn.plain);
}
function refusal(turn, capabilities, asked) {
  const { t } = turn;
  const said = userWords(turn.request.message, asked, turn.language);
  const lead = capabilities.fallback === "cannotYet" ? t("engine.cannotYet") : said ? t("engine.notFoundWords", { words: said }) : t("engine.notFound");
  const intro = capabilities.fallback === "cannotYet" ? t("engine.forNow") : t("engine.canHelpWith");
  return { text: withTopics(lead, intro, topics(turn, capabilities), t), topic: "refusal" };
}
function userWords(message, asked, language) {
  const original = /* @__PURE__ */ new Map();
  for (const word of message.match(/[\p{L}\p{N}]+/gu) ?? []) original.set(normalizeText(word), word);
  const kept = words(asked).filter((word) => processWord(word, language) !== null);
  return kept.slice(0, 6).map((word) => original.get(word) ?? word).join(" ");
}
function stripCourtesy(normalized, vocabulary, agentName) {
  let rest = normalized.trim();
  let greeted = false;
  let thanked = false;
  const name = new RegExp(`^${agentName.replace(/[^a-z0-9-]/g, "")}\\b`);
  for (; ; ) {
    rest = rest.replace(/^[^\p{L}\p{N}(+\-.]+/u, "");
    const greeting = vocabulary.greeting.exec(rest);
    const thanks = greeting ? null : vocabulary.thanks.exec(rest);
    const named = (greeted || thanked) && !greeting && !thanks ? name.exec(rest) : null;
    const match = greeting ?? thanks ?? named;
    if (!match || match[0].length === 0) break;
    greeted ||= greeting !== null;
    thanked ||= thanks !== null;
    rest = rest.slice(match[0].length);
  }
  const trailing = trailingThanks(vocabulary).exec(rest);
  if (trailing && trailing.index > 0) {
    rest = rest.slice(0, trailing.index);
    thanked = true;
  }
  return { rest, greeted, thanked };
}
var trailingThanksPatterns = /* @__PURE__ */ new WeakMap();
function trailingThanks(vocabulary) {
  let pattern = trailingThanksPatterns.get(vocabulary);
  if (!pattern) {
    pattern = new RegExp(
      `[^\\p{L}\\p{N}]+${vocabulary.thanks.source.replace(/^\^/, "")}[^\\p{L}\\p{N}]*$`,
      "u"
    );
    trailingThanksPatterns.set(vocabulary, pattern);
  }
  return pattern;
}
var resultFormat = perLanguage(
  (language) => new Intl.NumberFormat(language, { maximumFractionDigits: 10 })
);
var dateTimeFormats = /* @__PURE__ */ new Map();
function dateTimeFormat(language, timeZone) {
  const key = `${language} ${timeZone}`;
  let formats = dateTimeFormats.get(key);
  if (!formats) {
    formats = {
      date: new Intl.DateTimeFormat(language, { timeZone, dateStyle: "full" }),
      time: new Intl.DateTimeFormat(language, { timeZone, timeStyle: "short" }),
      zone: new Intl.DateTimeFormat(language, { timeZone, timeZoneName: "long" })
    };
    dateTimeFormats.set(key, formats);
  }
  return formats;
}
var zoneName = (format, now) => format.formatToParts(now).find((part) => part.type === "timeZoneName")?.value ?? "";
var calculation = ({ text, language, t }) => {
  const result = calculationIn(text, language);
  if (!result) return void 0;
  if (!result.ok) {
    return result.error === "division-by-zero" ? t("engine.calculation.divisionByZero") : t("engine.calculation.notFinite");
  }
  return `${result.shown} = **${resultFormat(language).format(result.value)}**`;
};
var dateTime = ({ plain, vocabulary, language, t, now, request }) => {
  const asksTime = vocabulary.askTime.test(plain);
  if (!asksTime && !vocabulary.askDate.test(plain)) return void 0;
  const timeZone = request.timeZone ?? DEFAULT_TIME_ZONES[request.language];
  const formats = dateTimeFormat(language, timeZone);
  const date = formats.date.format(now);
  const zone = zoneName(formats.zone, now);
  if (!asksTime) return t("engine.dateTime.today", { date, zone });
  return t("engine.dateTime.now", { time: formats.time.format(now), date, zone });
};
function factTopicsIn(plain, vocabulary, isTopicWord) {
  const said = new Set(plain.split(" "));
  const has = (vocabularySet) => [...said].some((word) => vocabularySet.has(word));
  const counting = has(vocabulary.quantity);
  const checking = has(vocabulary.state);
  const period = has(vocabulary.week) ? "week" : has(vocabulary.today) ? "today" : has(vocabulary.total) ? "total" : void 0;
  const topics2 = [];
  if (!counting && has(vocabulary.newest) && has(vocabulary.users)) topics2.push("newest");
  if (counting && has(vocabulary.users)) topics2.push("users");
  if (counting && has(vocabulary.conversations)) topics2.push("conversations");
  if (counting && has(vocabulary.messages)) topics2.push("messages");
  if ((checking || counting) && has(vocabulary.database)) topics2.push("database");
  if ((checking || counting) && has(vocabulary.mail)) topics2.push("mail");
  const aboutOverview = [...said].every(
    (word) => vocabulary.overview.has(word) || vocabulary.state.has(word) || !isTopicWord(word)
  );
  if (topics2.length === 0 && has(vocabulary.overview) && aboutOverview) {
    return { topics: ["users", "conversations", "messages", "database", "mail"], period };
  }
  return { topics: topics2, period };
}
var COUNT_KEYS = {
  users: { total: "users", today: "usersToday", week: "usersWeek" },
  conversations: {
    total: "conversationsTotal",
    today: "conversationsToday",
    week: "conversationsWeek"
  },
  messages: { total: "messagesTotal", today: "messagesToday", week: "messagesWeek" }
};
function factLines(topic, period, facts, language, t) {
  switch (topic) {
    case "users":
    case "conversations":
    case "messages": {
      const chosen = period ?? (topic === "users" ? "total" : "today");
      const count3 = facts.activity[chosen][topic];
      return [t(`engine.facts.${COUNT_KEYS[topic][chosen]}`, { count: count3 })];
    }
    case "newest": {
      if (facts.newestUsers.length === 0) return [t("engine.facts.newestNone")];
      const format = dateTimeFormat(language, facts.timeZone).date;
      const list = facts.newestUsers.map(
        (user) => `  - ${user.name} (${format.format(user.createdAt)})`
      );
      return [`${t("engine.facts.newest")}
${list.join("\n")}`];
    }
    case "database":
      return [
        t("engine.facts.database", {
          kind: t(`engine.facts.${facts.database.kind}`),
          state: t(facts.database.ok ? "engine.facts.working" : "engine.facts.notResponding")
        })
      ];
    case "mail":
      return [t(facts.mail === "smtp" ? "engine.facts.mailSmtp" : "engine.facts.mailLog")];
  }
}
var liveFacts = async ({ plain, vocabulary, language, t, request }) => {
  const { topics: topics2, period } = factTopicsIn(
    plain,
    vocabulary,
    (word) => processWord(word, language) !== null
  );
  if (topics2.length === 0) return void 0;
  if (!request.facts) return t("engine.facts.adminsOnly");
  let facts;
  try {
    facts = await request.facts();
  } catch {
    return t("engine.facts.unavailable");
  }
  const lines = topics2.flatMap((topic) => factLines(topic, period, facts, language, t));
  return lines.length === 1 ? lines[0] : lines.map((line) => `- ${line}`).join("\n");
};
var catalogue = (turn) => {
  const { plain, terms, vocabulary, language, index, catalogue: catalogue2, t } = turn;
  if (catalogue2.length === 0) return void 0;
  const said = plain.split(" ");
  const asksPrice = said.some((word) => vocabulary.price.has(word));
  const asksList = said.some((word) => vocabulary.catalogue.has(word));
  if (!asksPrice && !asksList) return void 0;
  const setAside = catalogueTerms(language);
  const product = terms.filter((term) => !setAside.has(term));
  if (product.length === 0) {
    const list = catalogue2.map((entry) => `- ${entry.title}`).join("\n");
    const text = `${t("engine.catalogue.intro")}

${list}

${t("engine.catalogue.outro")}`;
    return { text, topic: "catalogue" };
  }
  const match = index.best(product);
  const isItem = match?.entry.id.startsWith("catalogue.") ?? false;
  if (match && isItem && match.coverage === 1) {
    const tied = index.rank(product).filter(
      (other) => other.entry.id.startsWith("catalogue.") && other.coverage === 1 && other.topicHits === match.topicHits
    );
    if (tied.length > 1) {
      const text = tied.slice(0, SUGGESTIONS).map((other) => renderEntry(other.entry, t));
      return { text: text.join("\n\n"), topic: "catalogue" };
    }
  }
  if (match && (!isItem || match.coverage === 1)) {
    return { text: renderEntry(match.entry, t), topic: topicOf(match.entry) };
  }
  if (!asksPrice) return void 0;
  const asked = said.filter((word) => {
    const term = processWord(word, language);
    return term !== null && !setAside.has(term);
  });
  return refusal(turn, turn.request.agent.configuration.capabilities, asked.join(" "));
};
var catalogueTerms = perLanguage(
  (language) => new Set(
    [...VOCABULARY[language].price, ...VOCABULARY[language].catalogue].map(
      (word) => processWord(word, language)
    )
  )
);
var delivery = ({ request, t }) => /\+?\d[\d\s().-]{7,}\d/.test(request.message) ? t("engine.delivery.pending") : void 0;
var SKILLS = {
  liveFacts: { answer: liveFacts, abilities: ["counts", "status"] },
  calculation: { answer: calculation, abilities: ["calculation"] },
  dateTime: { answer: dateTime, abilities: ["dateTime"] },
  catalogue: { answer: catalogue, abilities: ["catalogue"] },
  delivery: { answer: delivery, abilities: [] }
};
function renderEntry(entry, t) {
  const parts = [`**${entry.title}**`, entry.content];
  if (entry.link) parts.push(`${t("engine.page")} [${entry.link}](${entry.link})`);
  return parts.join("\n\n");
}
function topics(turn, capabilities) {
  const abilities = capabilities.skills.flatMap(
    (skill) => SKILLS[skill].abilities.map((ability) => turn.t(`engine.abilities.${ability}`))
  );
  return [...abilities, ...turn.index.entries.map((entry) => entry.title)].slice(0, SUGGESTIONS);
}
function withTopics(lead, intro, list, t) {
  if (list.length === 0) return lead || t("engine.notFound");
  const heading = lead ? `${lead} ${intro}` : intro;
  return `${heading}
${list.map((topic) => `- ${topic}`).join("\n")}`;
}
function limitLength(text, max) {
  if (text.length <= max) return text;
  const cut = text.slice(0, max - 1);
  const space = cut.search(/\s\S*$/);
  return `${space > max / 2 ? cut.slice(0, space) : cut}\u2026`;
}
function pieces(text) {
  return text.match(/[\s\S]+?(?:[.!?:](?=\s)|\n|$)\s*/g) ?? [text];
}

// src/features/ai/ai.openai.ts
import { createParser } from "eventsource-parser";
var LANGUAGE_NAMES = {
  "pt-BR": "Brazilian Portuguese",
  "en-US": "English",
  "es-ES": "Spanish"
};
var KNOWLEDGE_BUDGET_CHARS = 12e3;
var EXCERPT_CHARS = 300;
function createOpenAIEngine(config) {
  const url = `${config.baseUrl.replace(/\/+$/, "")}/chat/completions`;
  const indexes = new PerConfiguration();
  const translate = config.translate ?? createTranslator();
  return {
    name: "openai",
    reply: (request) => streamReply({ config, url, indexes, translate, request })
  };
}
async function* streamReply({
  config,
  url,
  indexes,
  translate,
  request
}) {
  const settings = request.agent.configuration.model;
  const facts = request.facts ? await request.facts().catch(() => void 0) : void 0;
  const body = {
    model: settings.model ?? config.model,
    stream: true,
    temperature: settings.temperature,
    // About four characters a token; the character cap below is the exact bound.
    max_tokens: Math.ceil(settings.maxReplyLength / 4),
    messages: buildMessages(request, indexes, translate(request.language), facts)
  };
  const watchdog = new Watchdog(config.timeoutMs);
  const signal = request.signal ? AbortSignal.any([watchdog.signal, request.signal]) : watchdog.signal;
  const fail = (error) => failureOf(error, watchdog, request.signal);
  let response;
  try {
    throwIfAborted(request.signal);
    response = await fetch(url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        accept: "text/event-stream",
        ...config.apiKey ? { authorization: `Bearer ${config.apiKey}` } : {}
      },
      body: JSON.stringify(body),
      signal
    });
  } catch (error) {
    watchdog.stop();
    throw fail(error);
  }
  const reader = response.body?.getReader();
  try {
    watchdog.touch();
    if (!reader)
      throw new EngineFailure("malformed", "The provider sent no body", {
        status: response.status
      });
    if (!response.ok) throw await statusFailure(response.status, reader, config.apiKey, fail);
    const isJson = (response.headers.get("content-type") ?? "").includes("application/json");
    const texts = isJson ? readCompletion(reader, watchdog, fail) : readEvents(reader, watchdog, fail);
    let length = 0;
    for await (const text of texts) {
      const room = settings.maxReplyLength - length;
      const piece = text.slice(0, room);
      length += piece.length;
      if (piece) {
        watchdog.stop();
        yield piece;
        watchdog.touch();
      }
      if (length >= settings.maxReplyLength) break;
    }
    if (length === 0) throw new EngineFailure("empty", "The provider sent an empty reply");
  } finally {
    watchdog.stop();
    await reader?.cancel().catch(() => void 0);
  }
}
function buildMessages(request, indexes, t, facts) {
  const { agent, language } = request;
  const name = LANGUAGE_NAMES[language];
  const parts = [
    agent.configuration.instructions.trim(),
    `Always answer in ${name} (${language}), the user's language, even when these instructions or the reference knowledge are written in another language.`
  ];
  const knowledge = knowledgeFor(request, indexes, t);
  if (knowledge.length > 0) {
    parts.push(
      `Reference knowledge (answer from it when it applies):

${knowledge.map(renderEntry2).join("\n\n")}`
    );
  }
  if (facts) parts.push(`Live figures, read just now:
${renderFacts(facts)}`);
  return [
    { role: "system", content: parts.join("\n\n") },
    ...request.history.map((turn) => ({ role: turn.role, content: turn.text })),
    { role: "user", content: request.message }
  ];
}
function knowledgeFor(request, indexes, t) {
  const { agent, language } = request;
  const index = indexes.get(
    agent.configuration,
    language,
    () => indexFor([...agent.configuration.knowledge, ...catalogueEntries(agent.configuration.catalogue, language, t)], language)
  );
  const ranked = index.rank(queryTerms(request.message, request.language)).map((match) => match.entry);
  const ordered = [.../* @__PURE__ */ new Set([...ranked, ...index.entries])];
  const chosen = [];
  let used = 0;
  for (const entry of ordered) {
    const size = renderEntry2(entry).length;
    if (used + size > KNOWLEDGE_BUDGET_CHARS) break;
    chosen.push(entry);
    used += size;
  }
  return chosen;
}
function renderEntry2(entry) {
  return `### ${entry.title}
${entry.content}${entry.link ? `
Page: ${entry.link}` : ""}`;
}
function renderFacts(facts) {
  return [
    ...["total", "today", "week"].map((period) => {
      const { users: users2, conversations: conversations2, messages: messages2 } = facts.activity[period];
      const when = { total: "in all", today: "today", week: "this week" }[period];
      return `- ${when}: ${users2} accounts registered, ${conversations2} conversations started, ${messages2} messages exchanged`;
    }),
    `- newest accounts: ${facts.newestUsers.map((u) => `${u.name} (${u.createdAt.toISOString()})`).join(", ") || "none"}`,
    `- "today" and "this week" are counted in the time zone ${facts.timeZone}`,
    `- database: ${facts.database.kind === "pglite" ? "embedded PGlite" : "PostgreSQL"}, ${facts.database.ok ? "working" : "not responding"}`,
    `- mail: ${facts.mail === "smtp" ? "sent over SMTP" : "no SMTP configured; verification codes are written to the server log"}`
  ].join("\n");
}
async function* readEvents(reader, watchdog, fail) {
  const pending = [];
  const parser = createParser({ onEvent: (event) => pending.push(event.data) });
  const decoder = new TextDecoder();
  let sawFinish = false;
  for (; ; ) {
    const chunk = await read(reader, fail);
    if (chunk === void 0) break;
    watchdog.touch();
    parser.feed(decoder.decode(chunk, { stream: true }));
    for (const data of pending.splice(0)) {
      const event = parseEvent(data);
      if (event === "done") return;
      sawFinish ||= event.finished;
      if (event.text) yield event.text;
    }
  }
  if (!sawFinish) throw new EngineFailure("malformed", "The stream ended before [DONE]");
}
async function* readCompletion(reader, watchdog, fail) {
  const decoder = new TextDecoder();
  let text = "";
  for (let chunk = await read(reader, fail); chunk !== void 0; chunk = await read(reader, fail)) {
    watchdog.touch();
    text += decoder.decode(chunk, { stream: true });
  }
  text += decoder.decode();
  const json = parseJson(text);
  const choice = isRecord(json) && Array.isArray(json.choices) ? json.choices[0] : void 0;
  const content = isRecord(choice) && isRecord(choice.message) ? choice.message.content : void 0;
  if (typeof content !== "string") throw malformed("The completion has no message content", text);
  yield content;
}
async function read(reader, fail) {
  try {
    const { done, value } = await reader.read();
    return done ? void 0 : value;
  } catch (error) {
    throw fail(error);
  }
}
function parseEvent(data) {
  if (data.trim() === "[DONE]") return "done";
  const json = parseJson(data);
  if (isRecord(json) && json.error !== void 0) {
    throw new EngineFailure("provider-error", "The provider reported an error in the stream", {
      detail: excerpt(JSON.stringify(json.error))
    });
  }
  if (!isRecord(json) || !Array.isArray(json.choices))
    throw malformed("A stream event has no choices", data);
  const choice = json.choices[0];
  if (choice === void 0) return { text: "", finished: false };
  if (!isRecord(choice)) throw malformed("A stream choice is not an object", data);
  const content = isRecord(choice.delta) ? choice.delta.content : void 0;
  return {
    text: typeof content === "string" ? content : "",
    finished: typeof choice.finish_reason === "string"
  };
}
function parseJson(text) {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new EngineFailure("malformed", "The provider sent something that is not JSON", {
      cause: error,
      detail: excerpt(text)
    });
  }
}
function malformed(message, data) {
  return new EngineFailure("malformed", message, { detail: excerpt(data) });
}
async function statusFailure(status, reader, apiKey, fail) {
  const decoder = new TextDecoder();
  let body = "";
  while (body.length < 2 * EXCERPT_CHARS) {
    const chunk = await read(reader, fail).catch(() => void 0);
    if (chunk === void 0) break;
    body += decoder.decode(chunk, { stream: true });
  }
  const detail = excerpt(apiKey ? body.split(apiKey).join("[api key]") : body);
  const reason = status === 401 ? "status-401" : status === 429 ? "status-429" : status >= 500 ? "status-5xx" : "status-4xx";
  return new EngineFailure(reason, `The provider answered ${status}`, { status, detail });
}
function failureOf(error, watchdog, signal) {
  if (error instanceof EngineFailure) return error;
  if (watchdog.fired) {
    return new EngineFailure(
      "timeout",
      `No reply from the provider within ${watchdog.timeoutMs} ms`,
      { cause: error }
    );
  }
  if (signal?.aborted)
    return new EngineFailure("aborted", "The request was aborted", { cause: signal.reason });
  const code = errorCode(error);
  if (code === "UND_ERR_HEADERS_TIMEOUT" || code === "UND_ERR_BODY_TIMEOUT") {
    return new EngineFailure("timeout", `The provider timed out (${code})`, { cause: error });
  }
  return new EngineFailure(
    "connection",
    `Could not reach the provider${code ? ` (${code})` : ""}`,
    { cause: error }
  );
}
function errorCode(error) {
  for (let current = error, depth = 0; isRecord(current) && depth < 4; depth += 1) {
    if (typeof current.code === "string") return current.code;
    current = current.cause;
  }
  return void 0;
}
function excerpt(text) {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > EXCERPT_CHARS ? `${flat.slice(0, EXCERPT_CHARS)}\u2026` : flat;
}
function isRecord(value) {
  return typeof value === "object" && value !== null;
}
var Watchdog = class {
  constructor(timeoutMs) {
    this.timeoutMs = timeoutMs;
    this.touch();
  }
  timeoutMs;
  controller = new AbortController();
  timer;
  fired = false;
  get signal() {
    return this.controller.signal;
  }
  touch() {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.fired = true;
      this.controller.abort(new Error(`no byte from the provider within ${this.timeoutMs} ms`));
    }, this.timeoutMs);
  }
  stop() {
    clearTimeout(this.timer);
  }
};

// src/features/ai/ai.providers.ts
function createEngine(config, { translate } = {}) {
  if (config.provider === "builtin") return createBuiltinEngine({ translate });
  if (!config.baseUrl) throw new Error("AI_BASE_URL is required when AI_PROVIDER is openai");
  return createOpenAIEngine({
    baseUrl: config.baseUrl,
    apiKey: config.apiKey,
    model: config.model,
    timeoutMs: config.timeoutMs,
    translate
  });
}

// src/features/chat/chat.routes.ts
import { z } from "zod";

// src/features/chat/chat.service.ts
import { randomBytes, randomUUID as randomUUID2 } from "node:crypto";
import QRCode from "qrcode";

// src/features/ai/ai.service.ts
var DEFAULT_HISTORY_BUDGET_CHARS = 12e3;
function trimHistory(turns, budgetChars) {
  let used = 0;
  let start = turns.length;
  while (start > 0) {
    const turn = turns[start - 1];
    if (used + turn.text.length > budgetChars) break;
    used += turn.text.length;
    start -= 1;
  }
  return turns.slice(start);
}

// src/features/chat/chat.repository.ts
import { and as and3, asc, count, desc as desc2, eq as eq3, gte as gte2, ilike, isNull as isNull3, lte as lte2, or as or2, sql as sql3 } from "drizzle-orm";
async function findConversation({ db, id }) {
  const [row] = await db.select().from(conversations).where(eq3(conversations.id, id)).limit(1);
  return row;
}
var NEWEST_FIRST = [desc2(conversations.updatedAt), desc2(conversations.createdAt), desc2(conversations.id)];
async function findLatestConversation({ db, userId, agentId }) {
  const [row] = await db.select().from(conversations).where(and3(eq3(conversations.userId, userId), eq3(conversations.agentId, agentId))).orderBy(...NEWEST_FIRST).limit(1);
  return row;
}
function containing(text) {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
async function listConversations({ db, userId, agentId, search }) {
  const ownId = sql3`${conversations}."id"`;
  return db.select({
    id: conversations.id,
    agentId: conversations.agentId,
    title: conversations.title,
    createdAt: conversations.createdAt,
    updatedAt: conversations.updatedAt,
    messageCount: sql3`(select count(*)::int from ${messages} where ${messages.conversationId} = ${ownId})`,
    firstMessage: sql3`(select ${messages.text} from ${messages} where ${messages.conversationId} = ${ownId} and ${messages.sender} = 'user' order by ${messages.seq} limit 1)`
  }).from(conversations).where(
    and3(
      eq3(conversations.userId, userId),
      agentId ? eq3(conversations.agentId, agentId) : void 0,
      search ? or2(
        ilike(conversations.title, containing(search)),
        sql3`exists (select 1 from ${messages} where ${messages.conversationId} = ${ownId} and ${messages.text} ilike ${containing(search)})`
      ) : void 0
    )
  ).orderBy(...NEWEST_FIRST);
}
async function updateConversationTitle({ db, id, userId, title }) {
  const [row] = await db.update(conversations).set({ title }).where(and3(eq3(conversations.id, id), eq3(conversations.userId, userId))).returning();
  return row;
}
async function deleteConversation({ db, id, userId }) {
  const rows = await db.delete(conversations).where(and3(eq3(conversations.id, id), eq3(conversations.userId, userId))).returning({ id: conversations.id });
  return rows.length > 0;
}
async function listMessages({ db, conversationId }) {
  return db.select().from(messages).where(eq3(messages.conversationId, conversationId)).orderBy(messages.seq);
}
async function listRecentMessages({ db, conversationId, limit, budgetChars }) {
  const recent = db.select({
    seq: messages.seq,
    sender: messages.sender,
    text: messages.text,
    used: sql3`sum(char_length(${messages.text})) over (order by ${messages.seq} desc)`.as("used")
  }).from(messages).where(eq3(messages.conversationId, conversationId)).orderBy(desc2(messages.seq)).limit(limit).as("recent");
  return db.select({ sender: recent.sender, text: recent.text }).from(recent).where(lte2(recent.used, budgetChars)).orderBy(asc(recent.seq));
}
async function insertExchange({
  db,
  conversation,
  userText,
  botText,
  userAt,
  botAt,
  stopped = false
}) {
  const stored = db.$with("stored_conversation").as(
    db.insert(conversations).values({ ...conversation, createdAt: userAt, updatedAt: botAt }).onConflictDoUpdate({ target: conversations.id, set: { updatedAt: botAt }, setWhere: eq3(conversations.userId, conversation.userId) }).returning({ id: conversations.id })
  );
  const conversationId = sql3`(select ${stored.id} from ${stored})`;
  const rows = await db.with(stored).insert(messages).values([
    { conversationId, sender: "user", text: userText, createdAt: userAt },
    { conversationId, sender: "bot", text: botText, stopped, createdAt: botAt }
  ]).returning();
  const bot = rows.find((row) => row.sender === "bot");
  if (!bot) throw new Error("insert into messages returned no reply");
  return bot;
}
async function countUserActivity({ db, userId }) {
  const [row] = await db.select({
    conversations: sql3`count(distinct ${conversations.id})::int`,
    messages: count(messages.id)
  }).from(conversations).leftJoin(messages, eq3(messages.conversationId, conversations.id)).where(eq3(conversations.userId, userId));
  return { conversations: row?.conversations ?? 0, messages: Number(row?.messages ?? 0) };
}
async function countActivitySince({ db, since }) {
  const [c] = await db.select({ n: count() }).from(conversations).where(gte2(conversations.createdAt, since));
  const [m] = await db.select({ n: count() }).from(messages).where(gte2(messages.createdAt, since));
  return { conversations: Number(c?.n ?? 0), messages: Number(m?.n ?? 0) };
}
async function replacePairing({
  db,
  userId,
  conversationId,
  tokenHash,
  now,
  expiresAt
}) {
  await db.transaction(async (tx) => {
    await tx.update(pairings).set({ revokedAt: now }).where(and3(eq3(pairings.conversationId, conversationId), isNull3(pairings.revokedAt), isNull3(pairings.usedAt)));
    await tx.insert(pairings).values({ userId, conversationId, tokenHash, createdAt: now, expiresAt });
  });
}
async function consumePairing({ db, tokenHash, now }) {
  const [row] = await db.update(pairings).set({ usedAt: now }).where(
    and3(
      eq3(pairings.tokenHash, tokenHash),
      isNull3(pairings.usedAt),
      isNull3(pairings.revokedAt),
      gte2(pairings.expiresAt, now)
    )
  ).returning({ userId: pairings.userId, conversationId: pairings.conversationId });
  return row;
}

// src/features/chat/chat.service.ts
var PAIRING_TTL_MS = 10 * 6e4;
var STOP_SETTLE_MS = 5e3;
var STOP_POLL_MS = 20;
var DEFAULT_CHAT_LIMIT = { points: 30, durationSeconds: 60 };
function createChatService({
  db,
  clock,
  engine,
  agents: agents2,
  facts,
  logger,
  state,
  publicUrl,
  limit = DEFAULT_CHAT_LIMIT
}) {
  const limiter = state.counter({ name: "chat", points: limit.points, durationSeconds: limit.durationSeconds });
  const throttle = (userId) => takeOrRetryLater(limiter, userId, "errors.tooManyRequests");
  async function ownConversation({ user, agentId, id }) {
    const conversation = await findConversation({ db, id });
    if (!conversation || conversation.userId !== user.id || agentId && conversation.agentId !== agentId) {
      throw new AppError(404, "chat.conversationNotFound");
    }
    const agent = await agents2.assertVisible({ user, agentId: conversation.agentId });
    return { conversation, agent };
  }
  async function settleStoppedReply(conversationId) {
    await waitWhileLocked(`chat-stopping:${conversationId}`);
  }
  async function settleReply(conversationId) {
    await waitWhileLocked(`chat-reply:${conversationId}`);
  }
  async function waitWhileLocked(key) {
    const deadline = Date.now() + STOP_SETTLE_MS;
    while (await state.isLocked(key) && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, STOP_POLL_MS));
    }
  }
  async function startReply({
    user,
    agentName,
    conversationId,
    message,
    language,
    signal,
    timeZone
  }) {
    const agent = await agents2.assertAccess({ user, agentName });
    if (conversationId) await settleStoppedReply(conversationId);
    const existing = conversationId ? (await ownConversation({ user, agentId: agent.id, id: conversationId })).conversation : void 0;
    return begin({ user, agent, existingId: existing?.id, message, language, signal, timeZone });
  }
  async function begin({
    user,
    agent,
    existingId,
    message,
    language,
    signal,
    timeZone
  }) {
    const id = existingId ?? randomUUID2();
    const taken = await state.tryLock(`chat-reply:${id}`);
    if (!taken) throw new AppError(409, "chat.busy");
    const slot = taken;
    let history;
    try {
      await throttle(user.id);
      history = existingId ? await listRecentMessages({ db, conversationId: id, limit: 200, budgetChars: DEFAULT_HISTORY_BUDGET_CHARS }) : [];
    } catch (error) {
      await slot.release();
      throw error;
    }
    const userAt = clock.now();
    const request = {
      agent: { name: agent.name, configuration: agent.configuration },
      history: trimHistory(
        history.map((m) => ({ role: m.sender === "user" ? "user" : "assistant", text: m.text })),
        DEFAULT_HISTORY_BUDGET_CHARS
      ),
      message,
      language,
      timeZone,
      facts: agent.configuration.capabilities.skills.includes("liveFacts") && user.role === "admin" ? () => facts(timeZone ?? DEFAULT_TIME_ZONES[language]) : void 0,
      signal
    };
    let stopping;
    const markStopping = () => stopping = state.tryLock(`chat-stopping:${id}`, { ttlMs: STOP_SETTLE_MS });
    if (signal?.aborted) markStopping();
    else signal?.addEventListener("abort", markStopping, { once: true });
    async function* produce() {
      try {
        let text = "";
        let stopped = false;
        try {
          for await (const delta of engine.reply(request)) {
            text += delta;
            yield delta;
            if (signal?.aborted) {
              stopped = true;
              break;
            }
          }
        } catch (error) {
          if (signal?.aborted) {
            stopped = true;
          } else if (error instanceof EngineFailure) {
            logger.error({ err: error, reason: error.reason, agent: agent.name }, "agent engine failed");
            throw new AppError(502, "chat.providerFailed", { cause: error });
          } else {
            throw error;
          }
        }
        const botText = stopped ? text.trimEnd() : text.trim();
        if (!botText && !stopped) {
          logger.error({ agent: agent.name }, "agent engine returned an empty reply");
          throw new AppError(502, "chat.providerFailed");
        }
        const row = await insertExchange({
          db,
          conversation: { id, userId: user.id, agentId: agent.id },
          userText: message,
          botText,
          userAt,
          botAt: later(clock.now(), userAt),
          stopped
        });
        if (stopped) logger.info({ agent: agent.name, conversationId: id, chars: botText.length }, "reply stopped by the user");
        return { message: toMessage(row), conversationId: id };
      } finally {
        signal?.removeEventListener("abort", markStopping);
        await slot.release();
        await (await stopping)?.release();
      }
    }
    return Object.assign(produce(), { conversationId: id });
  }
  async function startShortReply({
    user,
    agentName,
    message,
    language,
    signal,
    timeZone
  }) {
    const agent = await agents2.assertAccess({ user, agentName });
    const latest = await findLatestConversation({ db, userId: user.id, agentId: agent.id });
    if (latest) await settleStoppedReply(latest.id);
    return begin({ user, agent, existingId: latest?.id, message, language, signal, timeZone });
  }
  async function listConversations3({
    user,
    agentName,
    search,
    settle: settle2
  }) {
    if (settle2) await settleReply(settle2);
    const agent = agentName === void 0 ? void 0 : await agents2.findByName({ name: agentName });
    if (agentName !== void 0 && !agent) return [];
    const rows = await listConversations({ db, userId: user.id, agentId: agent?.id, search: search || void 0 });
    const summaries = [];
    for (const row of rows) {
      const owner = await agents2.findById({ id: row.agentId });
      if (owner && agents2.isVisibleTo({ user, agent: owner })) {
        summaries.push({
          id: row.id,
          agentName: owner.name,
          title: titleOf(row.title, row.firstMessage),
          messageCount: row.messageCount,
          createdAt: row.createdAt.toISOString(),
          updatedAt: row.updatedAt.toISOString()
        });
      }
    }
    return summaries;
  }
  async function getConversation({ user, id }) {
    const { conversation, agent } = await ownConversation({ user, id });
    const rows = await listMessages({ db, conversationId: id });
    return {
      id,
      agentName: agent?.name ?? "",
      title: titleOf(conversation.title, rows.find((m) => m.sender === "user")?.text ?? null),
      createdAt: conversation.createdAt.toISOString(),
      messages: rows.map(toMessage)
    };
  }
  async function renameConversation({ user, id, title }) {
    await ownConversation({ user, id });
    const row = await updateConversationTitle({ db, id, userId: user.id, title });
    if (!row) throw new AppError(404, "chat.conversationNotFound");
    const [summary] = (await listConversations({ db, userId: user.id, agentId: row.agentId })).filter((c) => c.id === id);
    const agent = await agents2.findById({ id: row.agentId });
    return {
      id,
      agentName: agent?.name ?? "",
      title,
      messageCount: summary?.messageCount ?? 0,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString()
    };
  }
  async function deleteConversation3({ user, id }) {
    await ownConversation({ user, id });
    const slot = await state.tryLock(`chat-reply:${id}`);
    if (!slot) throw new AppError(409, "chat.busy");
    try {
      if (!await deleteConversation({ db, id, userId: user.id })) throw new AppError(404, "chat.conversationNotFound");
    } finally {
      await slot.release();
    }
  }
  async function stats({ user }) {
    const [hiredAgents, activity] = await Promise.all([
      agents2.countHired({ user }),
      countUserActivity({ db, userId: user.id })
    ]);
    return { hiredAgents, ...activity };
  }
  async function createPairing({ user, agentName, conversationId }) {
    const agent = await agents2.assertAccess({ user, agentName });
    await ownConversation({ user, agentId: agent.id, id: conversationId });
    const token = randomBytes(24).toString("base64url");
    const now = clock.now();
    const expiresAt = new Date(now.getTime() + PAIRING_TTL_MS);
    const link = `${publicUrl}/pair/${token}`;
    const qrCode = await QRCode.toDataURL(link, { errorCorrectionLevel: "M", margin: 2, width: 320 });
    await replacePairing({ db, userId: user.id, conversationId, tokenHash: hashToken(token), now, expiresAt });
    return { qrCode, expiresAt: expiresAt.toISOString(), link };
  }
  async function consumePairing2({ token }) {
    return consumePairing({ db, tokenHash: hashToken(token), now: clock.now() });
  }
  return { startReply, startShortReply, listConversations: listConversations3, getConversation, renameConversation, deleteConversation: deleteConversation3, stats, createPairing, consumePairing: consumePairing2, countActivitySince: (since) => countActivitySince({ db, since }) };
}
async function drain(stream) {
  for (; ; ) {
    const step = await stream.next();
    if (step.done) return step.value;
  }
}
function toMessage(row) {
  return { id: row.id, text: row.text, sender: row.sender, timestamp: row.createdAt.toISOString(), ...row.stopped ? { stopped: true } : {} };
}
function titleOf(stored, firstMessage) {
  if (stored) return stored;
  const line = (firstMessage ?? "").replace(/\s+/g, " ").trim();
  if (line.length <= DERIVED_TITLE_LENGTH) return line;
  const cut = line.slice(0, DERIVED_TITLE_LENGTH - 1);
  const space = cut.lastIndexOf(" ");
  return `${(space > DERIVED_TITLE_LENGTH / 2 ? cut.slice(0, space) : cut).trimEnd()}\u2026`;
}
function later(now, than) {
  return now.getTime() > than.getTime() ? now : new Date(than.getTime() + 1);
}

// src/features/chat/chat.routes.ts
var errors3 = {
  400: errorResponseSchema,
  401: errorResponseSchema,
  403: errorResponseSchema,
  404: errorResponseSchema,
  409: errorResponseSchema,
  429: errorResponseSchema,
  502: errorResponseSchema
};
var chatRoutes = async (app, { chat }) => {
  app.addHook("preHandler", app.authenticate);
  app.post(
    "/chat/message",
    { schema: { body: sendMessageSchema, response: { 200: sendMessageResponseSchema, ...errors3 } } },
    async (request, reply) => replyOrStream(
      request,
      reply,
      (signal) => chat.startReply({
        user: authOf(request).user,
        agentName: request.body.agentName,
        conversationId: request.body.conversationId,
        message: request.body.message,
        language: request.language,
        signal,
        timeZone: request.timeZone
      }),
      sent
    )
  );
  app.post(
    "/chat",
    { schema: { body: shortChatSchema, response: { 200: shortChatResponseSchema, ...errors3 } } },
    async (request, reply) => replyOrStream(
      request,
      reply,
      (signal) => chat.startShortReply({
        user: authOf(request).user,
        agentName: request.body.agentName,
        message: request.body.message,
        language: request.language,
        signal,
        timeZone: request.timeZone
      }),
      ({ message }) => ({ response: message.text })
    )
  );
  app.get(
    "/chat/conversations",
    { schema: { querystring: conversationsQuerySchema, response: { 200: conversationsResponseSchema, ...errors3 } } },
    async (request) => ({
      conversations: await chat.listConversations({
        user: authOf(request).user,
        agentName: request.query.agentName,
        search: request.query.q,
        settle: request.query.settle
      })
    })
  );
  app.get(
    "/chat/conversations/:id",
    { schema: { params: z.object({ id: z.string() }), response: { 200: conversationResponseSchema, ...errors3 } } },
    async (request) => ({ conversation: await chat.getConversation({ user: authOf(request).user, id: conversationIdOf(request.params) }) })
  );
  app.patch(
    "/chat/conversations/:id",
    { schema: { params: z.object({ id: z.string() }), body: renameConversationSchema, response: { 200: renameConversationResponseSchema, ...errors3 } } },
    async (request) => ({
      success: true,
      conversation: await chat.renameConversation({ user: authOf(request).user, id: conversationIdOf(request.params), title: request.body.title })
    })
  );
  app.delete(
    "/chat/conversations/:id",
    { schema: { params: z.object({ id: z.string() }), response: { 200: deleteConversationResponseSchema, ...errors3 } } },
    async (request) => {
      await chat.deleteConversation({ user: authOf(request).user, id: conversationIdOf(request.params) });
      return { success: true };
    }
  );
  app.post(
    "/auxtrat/qr-code",
    { schema: { body: pairingQrSchema, response: { 200: pairingQrResponseSchema, ...errors3 } } },
    async (request) => {
      const { qrCode, expiresAt } = await chat.createPairing({
        user: authOf(request).user,
        agentName: request.body.agentName,
        conversationId: request.body.sessionId
      });
      return { qrCode, expiresAt };
    }
  );
  app.get(
    "/stats",
    { schema: { response: { 200: userStatsResponseSchema, 401: errorResponseSchema } } },
    async (request) => chat.stats({ user: authOf(request).user })
  );
};
function conversationIdOf({ id }) {
  if (!z.uuid().safeParse(id).success) throw new AppError(404, "chat.conversationNotFound");
  return id;
}
function sent({ message, conversationId }) {
  return { success: true, message, conversation: { id: conversationId } };
}
function wantsEventStream(request) {
  return (request.headers.accept ?? "").includes("text/event-stream");
}
async function replyOrStream(request, reply, start, whole) {
  const streaming = wantsEventStream(request);
  const stop = new AbortController();
  const stream = await start(streaming ? stop.signal : void 0);
  if (streaming) return streamReply2(request, reply, stream, stop);
  return whole(await drain(stream));
}
async function streamReply2(request, reply, stream, stop) {
  reply.hijack();
  const raw = reply.raw;
  for (const [name, value] of Object.entries(reply.getHeaders())) if (value !== void 0) raw.setHeader(name, value);
  raw.writeHead(200, {
    "content-type": "text/event-stream; charset=utf-8",
    "cache-control": "no-store, no-transform",
    connection: "keep-alive",
    "x-accel-buffering": "no"
  });
  let open = true;
  let finished = false;
  raw.on("close", () => {
    open = false;
    if (!finished) stop.abort();
  });
  const send2 = (event) => {
    if (open) raw.write(`event: ${event.event}
data: ${JSON.stringify(event.data)}

`);
  };
  send2({ event: "start", data: { conversation: { id: stream.conversationId } } });
  try {
    for (; ; ) {
      const step = await stream.next();
      if (step.done) {
        finished = true;
        send2({ event: "done", data: sent(step.value) });
        break;
      }
      send2({ event: "delta", data: { text: step.value } });
    }
  } catch (error) {
    const known = error instanceof AppError;
    if (!known || error.statusCode >= 500) request.log.error({ err: known ? error.cause ?? error : error }, "streamed reply failed");
    send2({ event: "error", data: { success: false, message: known ? translateError(error, request.t) : request.t("errors.server") } });
  } finally {
    finished = true;
    if (open) raw.end();
  }
}

// src/features/whatsapp/whatsapp.routes.ts
import { z as z2 } from "zod";
var errors4 = {
  400: errorResponseSchema,
  401: errorResponseSchema,
  404: errorResponseSchema,
  409: errorResponseSchema,
  503: errorResponseSchema
};
var params = z2.object({ id: z2.string() });
var statusResponse = { 200: dataResponse(whatsappStatusSchema), ...errors4 };
var conversationResponse = { 200: dataResponse(whatsappConversationSchema), ...errors4 };
var whatsappRoutes = async (app, { whatsapp }) => {
  app.addHook("preHandler", app.authenticate);
  const userId = (request) => authOf(request).user.id;
  app.get("/whatsapp/status", { schema: { response: statusResponse } }, async (request) => ({
    success: true,
    data: await whatsapp.status({ userId: userId(request) })
  }));
  app.post("/whatsapp/connect", { schema: { response: statusResponse } }, async (request) => ({
    success: true,
    data: await whatsapp.connect({ userId: userId(request) })
  }));
  app.post("/whatsapp/disconnect", { schema: { response: statusResponse } }, async (request) => ({
    success: true,
    data: await whatsapp.disconnect({ userId: userId(request) })
  }));
  app.post("/whatsapp/settings", { schema: { body: whatsappSettingsSchema, response: statusResponse } }, async (request) => ({
    success: true,
    data: await whatsapp.updateSettings({ user: authOf(request).user, ...request.body })
  }));
  app.get("/whatsapp/agents/available", { schema: { response: { 200: dataResponse(z2.array(whatsappAgentSchema)), ...errors4 } } }, async (request) => ({
    success: true,
    data: await whatsapp.availableAgents({ user: authOf(request).user, language: request.language })
  }));
  app.get("/whatsapp/conversations", { schema: { response: { 200: dataResponse(z2.array(whatsappConversationSchema)), ...errors4 } } }, async (request) => ({
    success: true,
    data: await whatsapp.listConversations({ user: authOf(request).user, language: request.language })
  }));
  app.get(
    "/whatsapp/conversations/:id",
    { schema: { params, response: { 200: dataResponse(whatsappConversationDetailSchema), ...errors4 } } },
    async (request) => ({
      success: true,
      data: await whatsapp.getConversation({ user: authOf(request).user, id: conversationIdOf2(request.params), language: request.language })
    })
  );
  app.delete(
    "/whatsapp/conversations/:id",
    { schema: { params, response: { 200: z2.object({ success: z2.literal(true) }), ...errors4 } } },
    async (request) => {
      await whatsapp.deleteConversation({ user: authOf(request).user, id: conversationIdOf2(request.params) });
      return { success: true };
    }
  );
  app.post("/whatsapp/conversations/:id/ai", { schema: { params, body: toggleAiSchema, response: conversationResponse } }, async (request) => ({
    success: true,
    data: await whatsapp.setAi({
      user: authOf(request).user,
      id: conversationIdOf2(request.params),
      enabled: request.body.enabled,
      language: request.language
    })
  }));
  app.post("/whatsapp/conversations/:id/whitelist", { schema: { params, body: whitelistSchema, response: conversationResponse } }, async (request) => ({
    success: true,
    data: await whatsapp.setWhitelisted({
      user: authOf(request).user,
      id: conversationIdOf2(request.params),
      isWhitelisted: request.body.isWhitelisted,
      language: request.language
    })
  }));
  app.post("/whatsapp/conversations/:id/assign-agent", { schema: { params, body: assignAgentSchema, response: conversationResponse } }, async (request) => ({
    success: true,
    data: await whatsapp.assignAgent({
      user: authOf(request).user,
      id: conversationIdOf2(request.params),
      agentId: request.body.agentId,
      language: request.language
    })
  }));
  app.post(
    "/whatsapp/conversations/:id/messages",
    { schema: { params, body: sendWhatsAppMessageSchema, response: { 200: dataResponse(whatsappMessageSchema), ...errors4 } } },
    async (request) => ({
      success: true,
      data: await whatsapp.sendMessage({
        user: authOf(request).user,
        id: conversationIdOf2(request.params),
        text: request.body.text,
        language: request.language
      })
    })
  );
};
function conversationIdOf2({ id }) {
  if (!z2.uuid().safeParse(id).success) throw new AppError(404, "whatsappServer.conversationNotFound");
  return id;
}

// src/features/whatsapp/whatsapp.service.ts
import QRCode2 from "qrcode";
import { RateLimiterRes as RateLimiterRes3 } from "rate-limiter-flexible";

// src/features/whatsapp/whatsapp.repository.ts
import { and as and4, asc as asc2, count as count2, desc as desc3, eq as eq4, getTableColumns, inArray, isNotNull, or as or3, sql as sql4 } from "drizzle-orm";
async function ensureAccount({ db, userId, now }) {
  const [inserted] = await db.insert(whatsappAccounts).values({ userId, updatedAt: now }).onConflictDoNothing().returning();
  if (inserted) return inserted;
  const [row] = await db.select().from(whatsappAccounts).where(eq4(whatsappAccounts.userId, userId)).limit(1);
  return row;
}
async function findAccount({ db, userId }) {
  const [row] = await db.select().from(whatsappAccounts).where(eq4(whatsappAccounts.userId, userId)).limit(1);
  return row;
}
async function updateAccount({
  db,
  userId,
  set: set2,
  unlessReady = false
}) {
  const rows = await db.update(whatsappAccounts).set(set2).where(and4(eq4(whatsappAccounts.userId, userId), unlessReady ? sql4`${whatsappAccounts.state} <> 'ready'` : void 0)).returning({ userId: whatsappAccounts.userId });
  return rows.length > 0;
}
async function countConversations({ db, userId }) {
  const [row] = await db.select({
    total: count2(),
    aiEnabled: sql4`count(*) filter (where ${whatsappConversations.aiEnabled})::int`,
    whitelisted: sql4`count(*) filter (where ${whatsappConversations.isWhitelisted})::int`,
    agentAssigned: sql4`count(*) filter (where ${whatsappConversations.agentId} is not null)::int`
  }).from(whatsappConversations).where(eq4(whatsappConversations.userId, userId));
  return { total: row?.total ?? 0, aiEnabled: row?.aiEnabled ?? 0, whitelisted: row?.whitelisted ?? 0, agentAssigned: row?.agentAssigned ?? 0 };
}
async function findConversationByContact({ db, userId, jids }) {
  const [row] = await db.select().from(whatsappConversations).where(
    and4(
      eq4(whatsappConversations.userId, userId),
      or3(inArray(whatsappConversations.contactJid, jids), inArray(whatsappConversations.contactAltJid, jids))
    )
  ).orderBy(asc2(whatsappConversations.createdAt)).limit(1);
  return row;
}
async function insertConversation({
  db,
  values
}) {
  const [inserted] = await db.insert(whatsappConversations).values(values).onConflictDoNothing().returning();
  if (inserted) return inserted;
  const [row] = await db.select().from(whatsappConversations).where(and4(eq4(whatsappConversations.userId, values.userId), eq4(whatsappConversations.contactJid, values.contactJid))).limit(1);
  return row;
}
async function findConversationWithAccount({ db, id }) {
  const [row] = await db.select({ conversation: whatsappConversations, account: whatsappAccounts }).from(whatsappConversations).leftJoin(whatsappAccounts, eq4(whatsappAccounts.userId, whatsappConversations.userId)).where(eq4(whatsappConversations.id, id)).limit(1);
  return row && { conversation: row.conversation, account: row.account ?? void 0 };
}
async function findConversation2({ db, id }) {
  const [row] = await db.select().from(whatsappConversations).where(eq4(whatsappConversations.id, id)).limit(1);
  return row;
}
async function updateConversation({
  db,
  id,
  userId,
  set: set2
}) {
  const [row] = await db.update(whatsappConversations).set(set2).where(and4(eq4(whatsappConversations.id, id), eq4(whatsappConversations.userId, userId))).returning();
  return row;
}
async function deleteConversation2({ db, id, userId }) {
  const rows = await db.delete(whatsappConversations).where(and4(eq4(whatsappConversations.id, id), eq4(whatsappConversations.userId, userId))).returning({ id: whatsappConversations.id });
  return rows.length > 0;
}
var lastMessageText = sql4`(select ${whatsappMessages.text} from ${whatsappMessages} where ${whatsappMessages.conversationId} = ${sql4`${whatsappConversations}."id"`} order by ${whatsappMessages.seq} desc limit 1)`;
async function listConversations2({ db, userId, id }) {
  return db.select({ conversation: whatsappConversations, lastMessage: lastMessageText, whitelistMode: whatsappAccounts.whitelistMode }).from(whatsappConversations).leftJoin(whatsappAccounts, eq4(whatsappAccounts.userId, whatsappConversations.userId)).where(and4(eq4(whatsappConversations.userId, userId), id ? eq4(whatsappConversations.id, id) : void 0)).orderBy(desc3(whatsappConversations.updatedAt), desc3(whatsappConversations.id));
}
async function insertMessage({
  db,
  values,
  unread
}) {
  const m = whatsappMessages;
  const c = whatsappConversations;
  const inserted = db.$with("inserted", getTableColumns(m)).as(
    sql4`insert into ${m} (${sql4.identifier(m.conversationId.name)}, ${sql4.identifier(m.waId.name)}, ${sql4.identifier(m.sender.name)}, ${sql4.identifier(m.text.name)}, ${sql4.identifier(m.agentName.name)}, ${sql4.identifier(m.error.name)}, ${sql4.identifier(m.createdAt.name)})
        values (${values.conversationId}, ${values.waId}, ${values.sender}, ${values.text}, ${values.agentName}, ${values.error}, ${values.createdAt.toISOString()}::timestamptz)
        on conflict do nothing returning *`
  );
  const moved = db.$with("moved", {}).as(
    sql4`update ${c} set ${sql4.identifier(c.updatedAt.name)} = greatest(${c.updatedAt}, ${values.createdAt.toISOString()}::timestamptz),
        ${sql4.identifier(c.unreadCount.name)} = ${c.unreadCount} + ${unread ? 1 : 0}
        where ${c.id} = ${values.conversationId} and exists (select 1 from ${sql4.identifier("inserted")})`
  );
  const [row] = await db.with(inserted, moved).select().from(inserted);
  return row;
}
async function listMessages2({ db, conversationId }) {
  return db.select().from(whatsappMessages).where(eq4(whatsappMessages.conversationId, conversationId)).orderBy(asc2(whatsappMessages.seq));
}
async function listRecentMessages2({ db, conversationId, limit }) {
  const rows = await db.select().from(whatsappMessages).where(eq4(whatsappMessages.conversationId, conversationId)).orderBy(desc3(whatsappMessages.seq)).limit(limit);
  return rows.reverse();
}
async function recentContactIds({ db, conversationId, limit }) {
  const rows = await db.select({ waId: whatsappMessages.waId }).from(whatsappMessages).where(and4(eq4(whatsappMessages.conversationId, conversationId), eq4(whatsappMessages.sender, "contact"), isNotNull(whatsappMessages.waId))).orderBy(desc3(whatsappMessages.seq)).limit(limit);
  return rows.map((r) => r.waId).reverse();
}

// src/features/whatsapp/whatsapp.service.ts
var DEFAULT_LANGUAGE = "pt-BR";
var HISTORY_MESSAGES = 200;
var REPLY_WAIT_MS = 12e4;
var LOCK_POLL_MS = 25;
var READ_RECEIPTS = 50;
var DEFAULT_CONTACT_LIMIT = { points: 20, durationSeconds: 60, blockSeconds: 15 * 60 };
var DIRECT_CHAT = /@(s\.whatsapp\.net|lid|c\.us)$/;
var PHONE_JID = /^(\d+)(?::\d+)?@(s\.whatsapp\.net|c\.us)$/;
function createWhatsAppService({
  db,
  clock,
  engine,
  agents: agents2,
  state,
  events,
  transport,
  translate,
  logger,
  onReplyDone,
  contactLimit = DEFAULT_CONTACT_LIMIT
}) {
  const contactCounter = state.counter({ name: "whatsapp-contact", points: contactLimit.points, durationSeconds: contactLimit.durationSeconds });
  const inflight = /* @__PURE__ */ new Set();
  const queues = /* @__PURE__ */ new Map();
  async function status({ userId }) {
    const account = await findAccount({ db, userId }) ?? void 0;
    const counts = await countConversations({ db, userId });
    const defaultAgent = await defaultAgentOf(account);
    const state2 = account?.state ?? "disconnected";
    return {
      isReady: state2 === "ready",
      qrCode: state2 === "qr" ? account?.qrCode ?? null : null,
      conversationsCount: counts.total,
      aiEnabledCount: counts.aiEnabled,
      whitelistMode: account?.whitelistMode ?? false,
      whitelistedCount: counts.whitelisted,
      agentAssignedCount: counts.agentAssigned,
      state: state2,
      phone: state2 === "ready" ? account?.phone ?? null : null,
      defaultAgentId: defaultAgent?.id ?? null
    };
  }
  async function connect({ userId }) {
    await ensureAccount({ db, userId, now: clock.now() });
    await transport.connect(userId);
    return status({ userId });
  }
  async function disconnect({ userId }) {
    await ensureAccount({ db, userId, now: clock.now() });
    await transport.logout(userId);
    await updateAccount({ db, userId, set: { state: "disconnected", qrCode: null, phone: null, updatedAt: clock.now() } });
    return status({ userId });
  }
  async function resume() {
    for (const userId of await transport.linkedAccounts()) {
      try {
        await transport.connect(userId);
      } catch (error) {
        logger.error({ err: error, userId }, "whatsapp: could not resume a linked account");
      }
    }
  }
  async function close() {
    await Promise.allSettled([...queues.values(), ...inflight]);
  }
  function handleTransportEvent(accountId, event) {
    const key = event.type === "message" ? `${accountId}
${event.message.remoteJid}` : accountId;
    const previous = queues.get(key) ?? Promise.resolve();
    const next = previous.then(
      () => handle(accountId, event).catch((error) => logger.error({ err: error, accountId, event: event.type }, "whatsapp: event not handled"))
    );
    queues.set(key, next);
    void next.finally(() => {
      if (queues.get(key) === next) queues.delete(key);
    });
    return next;
  }
  async function handle(userId, event) {
    const now = clock.now();
    switch (event.type) {
      case "connecting":
        await updateAccount({ db, userId, set: { state: "connecting", qrCode: null, updatedAt: now }, unlessReady: true });
        return;
      case "qr": {
        const qrCode = await QRCode2.toDataURL(event.qr, { errorCorrectionLevel: "M", margin: 2, width: 300 });
        if (await updateAccount({ db, userId, set: { state: "qr", qrCode, updatedAt: now }, unlessReady: true })) {
          events.emit(userId, "whatsapp:qr", { qrCode });
        }
        return;
      }
      case "ready":
        await updateAccount({ db, userId, set: { state: "ready", qrCode: null, phone: event.phone, updatedAt: now } });
        events.emit(userId, "whatsapp:ready", { phone: event.phone });
        return;
      case "reconnecting":
        await updateAccount({ db, userId, set: { state: "reconnecting", qrCode: null, updatedAt: now } });
        return;
      case "closed": {
        const { reason } = event;
        if (reason.kind === "qr-limit") {
          if (await updateAccount({ db, userId, set: { state: "disconnected", qrCode: null, updatedAt: now }, unlessReady: true })) {
            events.emit(userId, "whatsapp:disconnected", { reason: reason.kind });
          }
        } else if (reason.kind === "logged-out" || reason.kind === "requested") {
          await updateAccount({ db, userId, set: { state: "disconnected", qrCode: null, phone: null, updatedAt: now } });
          events.emit(userId, "whatsapp:disconnected", { reason: reason.kind });
        } else {
          await updateAccount({ db, userId, set: { state: "failed", qrCode: null, updatedAt: now } });
          if (reason.kind === "banned") events.emit(userId, "whatsapp:auth_failure", { message: reason.kind });
          else events.emit(userId, "whatsapp:disconnected", { reason: reason.kind === "failed" ? reason.message : reason.kind });
        }
        return;
      }
      case "message":
        await receive(userId, event.message);
        return;
    }
  }
  async function receive(userId, message) {
    if (message.protocol || message.text === void 0 || !message.text.trim() || !DIRECT_CHAT.test(message.remoteJid)) return;
    if (message.remoteJidAlt && !DIRECT_CHAT.test(message.remoteJidAlt)) return;
    const conversation = await contactConversation(userId, message);
    const row = await insertMessage({
      db,
      values: {
        conversationId: conversation.id,
        waId: message.id,
        sender: message.fromMe ? "user" : "contact",
        text: message.text,
        agentName: null,
        error: null,
        createdAt: message.timestamp
      },
      unread: !message.fromMe
    });
    if (!row) return;
    const now = clock.now();
    const blocked = conversation.blockedUntil !== null && conversation.blockedUntil > now;
    if (!message.fromMe && !blocked && await wroteTooFast(conversation)) {
      await updateConversation({ db, id: conversation.id, userId, set: { blockedUntil: new Date(now.getTime() + contactLimit.blockSeconds * 1e3) } });
      await contactCounter.delete(conversation.id).catch(() => {
      });
      logger.warn({ conversationId: conversation.id }, "whatsapp: a contact wrote too fast and is blocked for a while");
    }
    await emitNewMessage(userId, conversation.id, row);
    if (!message.fromMe) scheduleReply(userId, conversation.id);
  }
  async function wroteTooFast(conversation) {
    try {
      await contactCounter.consume(conversation.id);
      return false;
    } catch (error) {
      if (error instanceof RateLimiterRes3) return true;
      logger.error({ err: error }, "whatsapp: could not count a contact's message");
      return false;
    }
  }
  async function contactConversation(userId, message) {
    const jids = [message.remoteJid, ...message.remoteJidAlt ? [message.remoteJidAlt] : []];
    const number = numberOf(message.remoteJid) || (message.remoteJidAlt ? numberOf(message.remoteJidAlt) : "");
    const found = await findConversationByContact({ db, userId, jids });
    if (!found) {
      const now = clock.now();
      return insertConversation({
        db,
        values: {
          userId,
          contactJid: message.remoteJid,
          contactAltJid: message.remoteJidAlt ?? null,
          contactName: !message.fromMe && message.pushName?.trim() || number || message.remoteJid.split("@")[0],
          contactNumber: number,
          createdAt: now,
          updatedAt: now
        }
      });
    }
    const set2 = {};
    const other = jids.find((jid) => jid !== found.contactJid);
    if (other && !found.contactAltJid) set2.contactAltJid = other;
    if (!found.contactNumber && number) set2.contactNumber = number;
    const pushName = message.pushName?.trim();
    if (!message.fromMe && pushName && pushName !== found.contactName) set2.contactName = pushName;
    if (Object.keys(set2).length === 0) return found;
    return await updateConversation({ db, id: found.id, userId, set: set2 }) ?? found;
  }
  function scheduleReply(userId, conversationId) {
    const task = autoReply(userId, conversationId).catch((error) => {
      logger.error({ err: error, conversationId }, "whatsapp: auto-reply failed");
      return "failed";
    }).then((outcome) => onReplyDone?.({ userId, conversationId, outcome })).finally(() => inflight.delete(task));
    inflight.add(task);
  }
  async function autoReply(userId, conversationId) {
    const lock = await waitForLock(`whatsapp-reply:${conversationId}`);
    if (!lock) {
      logger.warn({ conversationId }, "whatsapp: a reply waited too long for the one before it");
      return "failed";
    }
    try {
      const found = await findConversationWithAccount({ db, id: conversationId });
      const conversation = found?.conversation;
      if (!conversation || conversation.userId !== userId || !conversation.aiEnabled) return "skipped";
      const account = found.account;
      if (!account || statusOf(account, conversation, clock.now()) !== "active") return "skipped";
      const recent = await listRecentMessages2({ db, conversationId, limit: HISTORY_MESSAGES });
      let start = recent.length;
      const since = conversation.blockedUntil?.getTime() ?? -Infinity;
      while (start > 0 && recent[start - 1].sender === "contact" && recent[start - 1].createdAt.getTime() >= since) start -= 1;
      const asked = recent.slice(start);
      if (asked.length === 0) return "skipped";
      const message = asked.map((m) => m.text).join("\n");
      const history = recent.slice(0, start).filter((m) => !m.error).map((m) => ({ role: m.sender === "contact" ? "user" : "assistant", text: m.text }));
      const agent = await answeringAgent(account, conversation);
      if (!agent) {
        logger.warn({ conversationId }, "whatsapp: no agent to answer");
        return "failed";
      }
      const jid = conversation.contactJid;
      await transport.sendPresence(userId, jid, "composing").catch(() => {
      });
      let text = "";
      try {
        for await (const delta of engine.reply({
          agent: { name: agent.name, configuration: agent.configuration },
          history: trimHistory(history, DEFAULT_HISTORY_BUDGET_CHARS),
          message,
          language: detectLanguage(message, DEFAULT_LANGUAGE)
        })) {
          text += delta;
        }
        text = text.trim();
        if (!text) throw new EngineFailure("empty", "the agent engine returned an empty reply");
      } catch (error) {
        if (!(error instanceof EngineFailure)) throw error;
        logger.error({ err: error, reason: error.reason, agent: agent.name }, "whatsapp: agent engine failed");
        await transport.sendPresence(userId, jid, "paused").catch(() => {
        });
        await storeFailure(userId, conversationId, agent, "whatsappServer.replyFailed");
        return "failed";
      }
      await transport.sendPresence(userId, jid, "paused").catch(() => {
      });
      let sent2;
      try {
        sent2 = await transport.sendText(userId, jid, text);
      } catch (error) {
        logger.warn({ err: error, conversationId }, "whatsapp: reply not sent");
        await storeFailure(userId, conversationId, agent, "whatsappServer.sendFailed");
        return "failed";
      }
      const row = await insertMessage({
        db,
        values: { conversationId, waId: sent2.id, sender: "user", text, agentName: agent.name, error: null, createdAt: clock.now() },
        unread: false
      });
      if (row) events.emit(userId, "whatsapp:message_sent", { conversationId, message: toMessage2(row, DEFAULT_LANGUAGE) });
      return "sent";
    } finally {
      await lock.release();
    }
  }
  async function storeFailure(userId, conversationId, agent, key) {
    const row = await insertMessage({
      db,
      values: { conversationId, waId: null, sender: "user", text: "", agentName: agent.name, error: key, createdAt: clock.now() },
      unread: false
    });
    if (row) await emitNewMessage(userId, conversationId, row);
  }
  async function waitForLock(key) {
    const deadline = Date.now() + REPLY_WAIT_MS;
    for (; ; ) {
      const lock = await state.tryLock(key);
      if (lock || Date.now() >= deadline) return lock;
      await new Promise((resolve) => setTimeout(resolve, LOCK_POLL_MS));
    }
  }
  async function answeringAgent(account, conversation) {
    const assigned = conversation.agentId ? await agents2.findById({ id: conversation.agentId }) : void 0;
    if (assigned?.isActive) return assigned;
    return defaultAgentOf(account);
  }
  async function defaultAgentOf(account) {
    const chosen = account?.defaultAgentId ? await agents2.findById({ id: account.defaultAgentId }) : void 0;
    if (chosen?.isActive) return chosen;
    return agents2.findByName({ name: DEFAULT_AGENT_NAME });
  }
  async function emitNewMessage(userId, conversationId, row) {
    const [conversation] = await summaries({ userId, language: DEFAULT_LANGUAGE, id: conversationId });
    if (conversation) events.emit(userId, "whatsapp:new_message", { conversation, message: toMessage2(row, DEFAULT_LANGUAGE) });
  }
  async function summaries({ userId, language, id }) {
    const rows = await listConversations2({ db, userId, id });
    const list = [];
    for (const { conversation, lastMessage, whitelistMode } of rows) {
      const agent = conversation.agentId ? await agents2.findById({ id: conversation.agentId }) : void 0;
      list.push({
        id: conversation.id,
        contact_name: conversation.contactName,
        contact_number: conversation.contactNumber,
        updated_at: conversation.updatedAt.toISOString(),
        last_message: lastMessage === null ? null : { text: lastMessage },
        unread_count: conversation.unreadCount,
        ai_enabled: conversation.aiEnabled,
        is_whitelisted: conversation.isWhitelisted,
        status: statusOf({ whitelistMode: whitelistMode ?? false }, conversation, clock.now()),
        agent_id: conversation.agentId,
        agent_display_name: agent ? agent.displayName[language] : null
      });
    }
    return list;
  }
  function toMessage2(row, language) {
    return {
      id: row.id,
      sender: row.sender,
      text: row.error ? translate(language)(row.error) : row.text,
      timestamp: row.createdAt.toISOString(),
      ...row.agentName ? { agentName: row.agentName } : {}
    };
  }
  async function own({ user, id }) {
    const conversation = await findConversation2({ db, id });
    if (!conversation || conversation.userId !== user.id) throw new AppError(404, "whatsappServer.conversationNotFound");
    return conversation;
  }
  async function summaryOf({ user, id, language }) {
    const [conversation] = await summaries({ userId: user.id, language, id });
    if (!conversation) throw new AppError(404, "whatsappServer.conversationNotFound");
    return conversation;
  }
  async function listConversations3({ user, language }) {
    return summaries({ userId: user.id, language });
  }
  async function getConversation({ user, id, language }) {
    const conversation = await own({ user, id });
    if (conversation.unreadCount > 0) {
      await updateConversation({ db, id, userId: user.id, set: { unreadCount: 0 } });
      const ids = await recentContactIds({ db, conversationId: id, limit: READ_RECEIPTS });
      await transport.markRead(user.id, conversation.contactJid, ids).catch(() => {
      });
    }
    const summary = await summaryOf({ user, id, language });
    const messages2 = await listMessages2({ db, conversationId: id });
    return { ...summary, messages: messages2.map((m) => toMessage2(m, language)) };
  }
  async function deleteConversation3({ user, id }) {
    if (!await deleteConversation2({ db, id, userId: user.id })) throw new AppError(404, "whatsappServer.conversationNotFound");
  }
  async function setAi({ user, id, enabled, language }) {
    if (!await updateConversation({ db, id, userId: user.id, set: { aiEnabled: enabled } })) {
      throw new AppError(404, "whatsappServer.conversationNotFound");
    }
    events.emit(user.id, "whatsapp:ai_toggled", { conversationId: id, enabled });
    return summaryOf({ user, id, language });
  }
  async function setWhitelisted({ user, id, isWhitelisted, language }) {
    if (!await updateConversation({ db, id, userId: user.id, set: { isWhitelisted } })) {
      throw new AppError(404, "whatsappServer.conversationNotFound");
    }
    return summaryOf({ user, id, language });
  }
  async function assignAgent({ user, id, agentId, language }) {
    await own({ user, id });
    if (agentId !== null) await assertAnswering({ user, agentId });
    await updateConversation({ db, id, userId: user.id, set: { agentId } });
    return summaryOf({ user, id, language });
  }
  async function sendMessage({ user, id, text, language }) {
    const conversation = await own({ user, id });
    const account = await findAccount({ db, userId: user.id });
    if (account?.state !== "ready") throw new AppError(409, "whatsappServer.notConnected");
    let sent2;
    try {
      sent2 = await transport.sendText(user.id, conversation.contactJid, text);
    } catch (error) {
      logger.warn({ err: error, conversationId: id }, "whatsapp: message not sent");
      throw new AppError(409, "whatsappServer.notConnected");
    }
    const row = await insertMessage({
      db,
      values: { conversationId: id, waId: sent2.id, sender: "user", text, agentName: null, error: null, createdAt: clock.now() },
      unread: false
    });
    if (!row) throw new AppError(409, "whatsappServer.notConnected");
    const message = toMessage2(row, language);
    events.emit(user.id, "whatsapp:message_sent", { conversationId: id, message });
    return message;
  }
  async function availableAgents({ user, language }) {
    const hired = await agents2.listHired({ user, language });
    return hired.filter((a) => a.isActive).map((a) => ({ id: a.id, name: a.name, displayName: a.displayName, description: a.description }));
  }
  async function assertAnswering({ user, agentId }) {
    const available = await availableAgents({ user, language: DEFAULT_LANGUAGE });
    if (!available.some((a) => a.id === agentId)) throw new AppError(400, "whatsappServer.agentNotAvailable", { field: "agentId" });
  }
  async function updateSettings({ user, whitelistMode, defaultAgentId }) {
    if (defaultAgentId !== void 0) await assertAnswering({ user, agentId: defaultAgentId });
    await ensureAccount({ db, userId: user.id, now: clock.now() });
    await updateAccount({
      db,
      userId: user.id,
      set: {
        ...whitelistMode === void 0 ? {} : { whitelistMode },
        ...defaultAgentId === void 0 ? {} : { defaultAgentId },
        updatedAt: clock.now()
      }
    });
    return status({ userId: user.id });
  }
  return {
    status,
    connect,
    disconnect,
    resume,
    close,
    handleTransportEvent,
    listConversations: listConversations3,
    getConversation,
    deleteConversation: deleteConversation3,
    setAi,
    setWhitelisted,
    assignAgent,
    sendMessage,
    availableAgents,
    updateSettings
  };
}
function statusOf(account, conversation, now) {
  if (conversation.blockedUntil && conversation.blockedUntil > now) return "blocked";
  return account?.whitelistMode && !conversation.isWhitelisted ? "pending" : "active";
}
function numberOf(jid) {
  return PHONE_JID.exec(jid)?.[1] ?? "";
}

// src/features/whatsapp/transports/sandbox.ts
import { randomBytes as randomBytes2 } from "node:crypto";

// src/features/whatsapp/transports/sandbox.repository.ts
import { asc as asc3, eq as eq5, sql as sql5 } from "drizzle-orm";
async function findLink({ db, userId }) {
  const [row] = await db.select().from(whatsappSandboxLinks).where(eq5(whatsappSandboxLinks.userId, userId)).limit(1);
  return row;
}
async function findLinkByPhone({ db, phone }) {
  const [row] = await db.select().from(whatsappSandboxLinks).where(eq5(whatsappSandboxLinks.phone, phone)).limit(1);
  return row;
}
async function listLinkedUserIds({ db }) {
  const rows = await db.select({ userId: whatsappSandboxLinks.userId }).from(whatsappSandboxLinks).orderBy(asc3(whatsappSandboxLinks.linkedAt));
  return rows.map((r) => r.userId);
}
async function replacePairing2({ db, userId, tokenHash, now }) {
  await db.insert(whatsappSandboxPairings).values({ userId, tokenHash, createdAt: now }).onConflictDoUpdate({ target: whatsappSandboxPairings.userId, set: { tokenHash, createdAt: now } });
}
async function deletePairing({ db, userId }) {
  await db.delete(whatsappSandboxPairings).where(eq5(whatsappSandboxPairings.userId, userId));
}
async function pair({
  db,
  tokenHash,
  phone,
  now
}) {
  return db.transaction(async (tx) => {
    const [pairing] = await tx.select().from(whatsappSandboxPairings).where(eq5(whatsappSandboxPairings.tokenHash, tokenHash)).for("update").limit(1);
    if (!pairing) return "missing";
    const [holder] = await tx.select().from(whatsappSandboxLinks).where(eq5(whatsappSandboxLinks.phone, phone)).limit(1);
    if (holder && holder.userId !== pairing.userId) return "taken";
    await tx.delete(whatsappSandboxPairings).where(eq5(whatsappSandboxPairings.userId, pairing.userId));
    await tx.insert(whatsappSandboxLinks).values({ userId: pairing.userId, phone, linkedAt: now }).onConflictDoUpdate({ target: whatsappSandboxLinks.userId, set: { phone, linkedAt: now } });
    return { userId: pairing.userId };
  });
}
async function deleteLink({ db, userId }) {
  const rows = await db.delete(whatsappSandboxLinks).where(eq5(whatsappSandboxLinks.userId, userId)).returning({ userId: whatsappSandboxLinks.userId });
  return rows.length > 0;
}
async function insertEvent({ db, userId, phone, event }) {
  await db.insert(whatsappSandboxEvents).values({ userId, phone, event });
}
async function insertLinkedEvent({ db, userId, event }) {
  const { userId: user, phone } = whatsappSandboxLinks;
  const result = await db.execute(
    sql5`insert into ${whatsappSandboxEvents} (${sql5.identifier(whatsappSandboxEvents.userId.name)}, ${sql5.identifier(whatsappSandboxEvents.phone.name)}, ${sql5.identifier(whatsappSandboxEvents.event.name)})
        select ${user}, ${phone}, ${JSON.stringify(event)}::jsonb from ${whatsappSandboxLinks} where ${user} = ${userId}
        returning 1`
  );
  return result.rows.length > 0;
}
async function listEvents({ db, phone }) {
  const rows = await db.select({ event: whatsappSandboxEvents.event }).from(whatsappSandboxEvents).where(eq5(whatsappSandboxEvents.phone, phone)).orderBy(asc3(whatsappSandboxEvents.seq));
  return rows.map((r) => r.event);
}

// src/features/whatsapp/transports/sandbox.ts
var SANDBOX_QR_DEFAULTS = { refreshMs: 2e4, limit: 5 };
function createSandboxTransport({
  db,
  clock,
  state,
  publicUrl,
  onEvent,
  logger,
  qr = SANDBOX_QR_DEFAULTS
}) {
  const cycles = /* @__PURE__ */ new Map();
  const emit = onEvent;
  async function stopCycle(accountId) {
    const cycle = cycles.get(accountId);
    if (!cycle) return;
    cycles.delete(accountId);
    clearTimeout(cycle.timer);
    await cycle.lease.release();
  }
  async function nextQr(accountId, cycle) {
    if (cycles.get(accountId) !== cycle) return;
    if (await findLink({ db, userId: accountId })) {
      await stopCycle(accountId);
      return;
    }
    if (cycle.shown >= qr.limit) {
      await stopCycle(accountId);
      await deletePairing({ db, userId: accountId });
      await emit(accountId, { type: "closed", reason: { kind: "qr-limit" } });
      return;
    }
    cycle.shown += 1;
    const token = randomBytes2(24).toString("base64url");
    await replacePairing2({ db, userId: accountId, tokenHash: hashToken(token), now: clock.now() });
    await emit(accountId, { type: "qr", qr: `${publicUrl}/sandbox/phone?pair=${token}` });
    if (cycles.get(accountId) !== cycle) return;
    cycle.timer = setTimeout(() => {
      nextQr(accountId, cycle).catch((error) => logger.error({ err: error, accountId }, "whatsapp sandbox: QR refresh failed"));
    }, qr.refreshMs);
  }
  async function linkOf(phone) {
    const link = await findLinkByPhone({ db, phone });
    if (!link) throw new AppError(404, "whatsappServer.sandboxPhoneNotLinked");
    return link;
  }
  async function record(accountId, event) {
    if (!await insertLinkedEvent({ db, userId: accountId, event })) throw new Error("whatsapp sandbox: the account is not linked");
  }
  const transport = {
    name: "sandbox",
    async connect(accountId) {
      if (cycles.has(accountId)) return;
      const link = await findLink({ db, userId: accountId });
      if (link) {
        await emit(accountId, { type: "ready", phone: link.phone });
        return;
      }
      const lease = await state.tryLock(`whatsapp-sandbox-qr:${accountId}`, { ttlMs: 3e4 });
      if (!lease) return;
      const cycle = { lease, shown: 0 };
      cycles.set(accountId, cycle);
      await emit(accountId, { type: "connecting" });
      await nextQr(accountId, cycle);
    },
    async sendText(accountId, jid, text) {
      const id = messageId();
      await record(accountId, { type: "message", to: jid, id, text, at: clock.now().toISOString() });
      return { id };
    },
    async sendPresence(accountId, jid, presence) {
      await record(accountId, { type: "presence", to: jid, state: presence, at: clock.now().toISOString() });
    },
    async markRead(accountId, jid, ids) {
      if (ids.length === 0) return;
      await record(accountId, { type: "read", from: jid, ids, at: clock.now().toISOString() });
    },
    async logout(accountId) {
      await stopCycle(accountId);
      await deletePairing({ db, userId: accountId });
      await deleteLink({ db, userId: accountId });
      await emit(accountId, { type: "closed", reason: { kind: "requested" } });
    },
    async linkedAccounts() {
      return listLinkedUserIds({ db });
    },
    async close() {
      for (const accountId of [...cycles.keys()]) await stopCycle(accountId);
    },
    // ---- The control API: what the phones and the contacts do ----
    /** The phone scanned the QR whose code is `token`: the account is linked to `phone` and ready. */
    async pair({ token, phone }) {
      const result = await pair({ db, tokenHash: hashToken(token), phone, now: clock.now() });
      if (result === "missing") throw new AppError(404, "whatsappServer.sandboxPairNotFound");
      if (result === "taken") throw new AppError(409, "whatsappServer.sandboxPhoneTaken");
      await stopCycle(result.userId);
      await emit(result.userId, { type: "ready", phone });
      return { phone };
    },
    /** A contact writes to the linked number `to`. The same id again is the same message. */
    async inbound({ to, from, text, id, pushName, participant, fromAlt }) {
      const link = await linkOf(to);
      const messageIdOf = id ?? messageId();
      await emit(link.userId, {
        type: "message",
        message: { id: messageIdOf, remoteJid: from, remoteJidAlt: fromAlt, participant, fromMe: false, pushName, text, timestamp: clock.now() }
      });
      return { id: messageIdOf };
    },
    /** The owner writes to `to` from the phone itself. */
    async outbound({ from, to, text }) {
      const link = await linkOf(from);
      const id = messageId();
      await insertEvent({ db, userId: link.userId, phone: from, event: { type: "message", to, id, text, at: clock.now().toISOString() } });
      await emit(link.userId, { type: "message", message: { id, remoteJid: to, fromMe: true, text, timestamp: clock.now() } });
      return { id };
    },
    /** What the number sent out, oldest first. */
    async phoneEvents({ phone }) {
      return { events: await listEvents({ db, phone }) };
    },
    /** The phone unlinks the device (WhatsApp's 401): the auth state is gone. */
    async phoneLogout({ phone }) {
      const link = await linkOf(phone);
      await stopCycle(link.userId);
      await deleteLink({ db, userId: link.userId });
      await emit(link.userId, { type: "closed", reason: { kind: "logged-out" } });
    }
  };
  return transport;
}
function messageId() {
  return `3EB0${randomBytes2(10).toString("hex").toUpperCase()}`;
}

// src/features/whatsapp/transports/sandbox.routes.ts
import { z as z3 } from "zod";
var errors5 = { 400: errorResponseSchema, 404: errorResponseSchema, 409: errorResponseSchema };
var phoneParams = z3.object({ phone: phoneSchema });
var sandboxRoutes = async (app, { sandbox }) => {
  app.post("/whatsapp/sandbox/pair", { schema: { body: sandboxPairSchema, response: { 200: z3.object({ success: z3.literal(true), phone: z3.string() }), ...errors5 } } }, async (request) => ({
    success: true,
    ...await sandbox.pair(request.body)
  }));
  app.post("/whatsapp/sandbox/inbound", { schema: { body: sandboxInboundSchema, response: { 200: z3.object({ success: z3.literal(true), id: z3.string() }), ...errors5 } } }, async (request) => ({
    success: true,
    ...await sandbox.inbound(request.body)
  }));
  app.post("/whatsapp/sandbox/outbound", { schema: { body: sandboxOutboundSchema, response: { 200: z3.object({ success: z3.literal(true), id: z3.string() }), ...errors5 } } }, async (request) => ({
    success: true,
    ...await sandbox.outbound(request.body)
  }));
  app.get(
    "/whatsapp/sandbox/phones/:phone/events",
    { schema: { params: phoneParams, response: { 200: z3.object({ success: z3.literal(true), events: z3.array(sandboxPhoneEventSchema) }), ...errors5 } } },
    async (request) => ({ success: true, ...await sandbox.phoneEvents(request.params) })
  );
  app.post(
    "/whatsapp/sandbox/phones/:phone/logout",
    { schema: { params: phoneParams, response: { 200: z3.object({ success: z3.literal(true) }), ...errors5 } } },
    async (request) => {
      await sandbox.phoneLogout(request.params);
      return { success: true };
    }
  );
};
var pageQuery = z3.object({ pair: z3.string().max(256).optional() });
var pageForm = z3.object({ pair: z3.string().max(256).optional(), phone: z3.string().max(64).optional() });
var sandboxPhonePage = async (app, { sandbox }) => {
  app.addContentTypeParser("application/x-www-form-urlencoded", { parseAs: "string", bodyLimit: 4096 }, (_request, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body)));
  });
  app.get(
    "/sandbox/phone",
    { schema: { querystring: pageQuery } },
    async (request, reply) => page(request, reply, 200, form(request, request.query.pair ?? "", "", void 0))
  );
  app.post("/sandbox/phone", { schema: { body: pageForm } }, async (request, reply) => {
    const token = request.body.pair ?? "";
    const phone = (request.body.phone ?? "").replace(/[\s()+.-]/g, "");
    const t = request.t;
    if (!phoneSchema.safeParse(phone).success) {
      return page(request, reply, 400, form(request, token, phone, t("validation.phoneInvalid")));
    }
    try {
      await sandbox.pair({ token, phone });
    } catch (error) {
      if (!(error instanceof AppError) || error.statusCode >= 500) throw error;
      return page(request, reply, error.statusCode, form(request, token, phone, translateError(error, t)));
    }
    return page(request, reply, 200, `<p role="status">${escapeHtml(t("whatsappServer.sandboxPhone.linked", { phone }))}</p>`);
  });
};
function form(request, token, phone, error) {
  const t = request.t;
  return `<p>${escapeHtml(t("whatsappServer.sandboxPhone.intro"))}</p>
<form method="post" action="/sandbox/phone">
<input type="hidden" name="pair" value="${escapeHtml(token)}">
<label for="phone">${escapeHtml(t("whatsappServer.sandboxPhone.phoneLabel"))}</label>
<input id="phone" name="phone" inputmode="numeric" autocomplete="tel" required value="${escapeHtml(phone)}">
${error ? `<p role="alert">${escapeHtml(error)}</p>` : ""}
<button type="submit">${escapeHtml(t("whatsappServer.sandboxPhone.link"))}</button>
</form>`;
}
function page(request, reply, status, body) {
  const title = escapeHtml(request.t("whatsappServer.sandboxPhone.title"));
  return reply.code(status).header("content-type", "text/html; charset=utf-8").header("cache-control", "no-store").send(
    `<!doctype html><html lang="${request.language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="referrer" content="no-referrer"><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`
  );
}
var HTML_ESCAPES = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
function escapeHtml(text) {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
}

// src/features/whatsapp/transports/baileys-on-demand.ts
function createBaileysTransportOnDemand(options) {
  let loading;
  const loaded = () => loading ??= import("./baileys-5MIU2ZXI.js").then(({ createBaileysTransport }) => createBaileysTransport(options));
  return {
    name: "baileys",
    connect: async (accountId) => (await loaded()).connect(accountId),
    sendText: async (accountId, jid, text) => (await loaded()).sendText(accountId, jid, text),
    sendPresence: async (accountId, jid, state) => (await loaded()).sendPresence(accountId, jid, state),
    markRead: async (accountId, jid, ids) => (await loaded()).markRead(accountId, jid, ids),
    logout: async (accountId) => (await loaded()).logout(accountId),
    linkedAccounts: () => linkedAccountIds({ db: options.db }),
    // Never loaded, nothing to close.
    close: async () => loading ? (await loading).close() : void 0
  };
}

// src/lib/event-hub.ts
function createEventHub() {
  const listeners = /* @__PURE__ */ new Set();
  return {
    emit(userId, name, payload) {
      const event = { userId, name, payload };
      for (const listener of listeners) {
        try {
          listener(event);
        } catch {
        }
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    }
  };
}

// src/plugins/errors.ts
import { STATUS_CODES } from "node:http";
import fp3 from "fastify-plugin";
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from "fastify-type-provider-zod";

// src/plugins/security.ts
import fp2 from "fastify-plugin";
import helmet from "helmet";
var securityPlugin = fp2(
  async (app) => {
    const headers = recordHeaders(
      helmet({
        contentSecurityPolicy: {
          useDefaults: false,
          directives: {
            defaultSrc: ["'self'"],
            scriptSrc: ["'self'"],
            styleSrc: ["'self'", "'unsafe-inline'"],
            imgSrc: ["'self'", "data:", "blob:"],
            fontSrc: ["'self'", "data:"],
            connectSrc: ["'self'"],
            objectSrc: ["'none'"],
            baseUri: ["'self'"],
            formAction: ["'self'"],
            frameAncestors: ["'none'"]
          }
        },
        // helmet's default is SAMEORIGIN, looser than frame-ancestors 'none'.
        xFrameOptions: { action: "deny" },
        // Served over plain HTTP on localhost and behind TLS-terminating proxies alike; HSTS is
        // the proxy's to set for the real domains.
        strictTransportSecurity: false
      })
    );
    headers["permissions-policy"] = PERMISSIONS_POLICY;
    app.addHook("onRequest", (request, reply, done) => {
      reply.headers(request.url.startsWith("/api/") ? API_HEADERS : headers);
      done();
    });
  },
  { name: "security" }
);
var API_HEADERS = {
  "content-security-policy": "default-src 'none'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "referrer-policy": "no-referrer",
  "cross-origin-resource-policy": "same-origin",
  "cache-control": "no-store"
};
var PERMISSIONS_POLICY = [
  "accelerometer=()",
  "camera=()",
  "clipboard-read=()",
  "clipboard-write=(self)",
  "display-capture=()",
  "geolocation=()",
  "gyroscope=()",
  "hid=()",
  "idle-detection=()",
  "magnetometer=()",
  "microphone=()",
  "midi=()",
  "payment=()",
  "publickey-credentials-get=()",
  "screen-wake-lock=()",
  "serial=()",
  "usb=()",
  "xr-spatial-tracking=()"
].join(", ");
function recordHeaders(middleware) {
  const headers = {};
  const res = {
    setHeader: (name, value) => {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : String(value);
    },
    removeHeader: (name) => {
      delete headers[name.toLowerCase()];
    }
  };
  let failed;
  middleware({ headers: {} }, res, (error) => failed = error);
  if (failed) throw failed instanceof Error ? failed : new Error(String(failed));
  return headers;
}

// src/plugins/errors.ts
var FASTIFY_CLIENT_ERRORS = {
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, key: "errors.malformedJson" },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, key: "errors.malformedJson" },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, key: "errors.payloadTooLarge" },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, key: "errors.unsupportedMediaType" },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, key: "errors.malformedJson" }
};
var STATUS_KEYS = {
  401: "errors.unauthorized",
  403: "errors.forbidden",
  404: "errors.notFound",
  413: "errors.payloadTooLarge",
  429: "errors.tooManyRequests"
};
var errorsPlugin = fp3(
  async (app) => {
    app.setErrorHandler((error, request, reply) => {
      const t = request.t;
      if (error instanceof AppError) {
        if (error.statusCode >= 500) request.log.error({ err: error.cause ?? error }, error.key);
        const body = { success: false, message: translateError(error, t) };
        if (error.field) body.errors = { [error.field]: body.message };
        return reply.code(error.statusCode).headers(error.headers).send(body);
      }
      if (hasZodFastifySchemaValidationErrors(error)) {
        const errors6 = {};
        for (const issue of error.validation) {
          const field = issue.instancePath.replace(/^\//, "").replaceAll("/", ".") || "general";
          if (errors6[field]) continue;
          const message = issue.message ?? "";
          errors6[field] = message.startsWith("validation.") ? t(message) : t("validation.invalidValue");
        }
        return send(reply, 400, { success: false, message: t("errors.validation"), errors: errors6 });
      }
      if (isResponseSerializationError(error)) {
        request.log.error({ err: error }, "response does not match its schema");
        return send(reply, 500, { success: false, message: t("errors.server") });
      }
      const known = error.code ? FASTIFY_CLIENT_ERRORS[error.code] : void 0;
      if (known) return send(reply, known.status, { success: false, message: t(known.key) });
      const status = error.statusCode ?? 500;
      if (status >= 400 && status < 500) {
        const seconds = Number(reply.getHeader("retry-after")) || 60;
        return send(reply, status, { success: false, message: t(STATUS_KEYS[status] ?? "errors.validation", { count: seconds }) });
      }
      request.log.error({ err: error }, "request failed");
      return send(reply, 500, { success: false, message: t("errors.server") });
    });
    app.addHook("preValidation", (request, _reply, done) => {
      done(containsNul(request.body) || containsNul(request.query) ? new AppError(400, "errors.invalidCharacters") : void 0);
    });
  },
  { name: "errors", dependencies: ["i18n"] }
);
function frameworkErrorHandler(translate) {
  return (error, request, reply) => {
    const t = translate(languageOf(request.headers["accept-language"]));
    const [status, key] = error.code === "FST_ERR_MAX_PARAM_LENGTH" ? [414, "errors.uriTooLong"] : [400, "errors.badRequest"];
    reply.headers(API_HEADERS);
    send(reply, status, { success: false, message: t(key) });
  };
}
var CONNECTION_ERRORS = {
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, key: "errors.requestTimeout" },
  HPE_HEADER_OVERFLOW: { status: 431, key: "errors.headersTooLarge" }
};
function clientErrorHandler(translate, logger) {
  return (error, socket) => {
    if (error.code === "ECONNRESET" || socket.destroyed) return;
    logger.debug({ code: error.code }, "client error");
    const inFlight = socket._httpMessage;
    if (socket.writable && !inFlight?.headersSent) {
      const { status, key } = error.code && CONNECTION_ERRORS[error.code] || { status: 400, key: "errors.badRequest" };
      const language = languageOf(Buffer.isBuffer(error.rawPacket) ? acceptLanguageIn(error.rawPacket) : void 0);
      const body = JSON.stringify({ success: false, message: translate(language)(key) });
      const headers = {
        ...API_HEADERS,
        "content-type": "application/json; charset=utf-8",
        "content-length": String(Buffer.byteLength(body)),
        connection: "close"
      };
      const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r
`).join("");
      socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r
${head}\r
${body}`);
    }
    socket.destroy();
  };
}
function acceptLanguageIn(raw) {
  return /^accept-language:[ \t]*([^\r\n]{1,200})/im.exec(raw.toString("latin1"))?.[1];
}
function sendApiNotFound(request, reply) {
  return send(reply, 404, { success: false, message: request.t("errors.notFound") });
}
function send(reply, status, body) {
  return reply.code(status).type("application/json; charset=utf-8").send(body);
}
function containsNul(value, depth = 0) {
  if (typeof value === "string") return value.includes("\0");
  if (depth > 32 || value === null || typeof value !== "object") return false;
  for (const [key, item] of Object.entries(value)) {
    if (key.includes("\0") || containsNul(item, depth + 1)) return true;
  }
  return false;
}

// src/plugins/i18n.ts
import fp4 from "fastify-plugin";
var i18nPlugin = fp4(
  async (app, { translate }) => {
    const translatorFor = translate ?? createTranslator();
    app.decorateRequest("language", "pt-BR");
    app.decorateRequest("t", null);
    app.decorateRequest("timeZone", "");
    app.addHook("onRequest", (request, _reply, done) => {
      request.language = languageOf(request.headers["accept-language"]);
      request.t = translatorFor(request.language);
      request.timeZone = timeZoneOf(request.headers["x-time-zone"], request.language);
      done();
    });
  },
  { name: "i18n" }
);

// src/plugins/realtime.ts
import fp5 from "fastify-plugin";
import { createAdapter } from "@socket.io/redis-adapter";
import { Server } from "socket.io";
var REALTIME_PATH = "/socket.io";
var DEFAULT_RECHECK_MS = 6e4;
var CLOSE_GRACE_MS = 1e3;
var whatsAppRoom = (userId) => `whatsapp:${userId}`;
var sessionRoom = (sessionId) => `session:${sessionId}`;
var userRoom = (userId) => `user:${userId}`;
var realtimePlugin = fp5(
  async (app, { authenticator, state, translate = createTranslator(), recheckMs = DEFAULT_RECHECK_MS }) => {
    let closing = false;
    const io = new Server(app.server, {
      path: REALTIME_PATH,
      serveClient: false,
      transports: ["websocket"],
      // Clients send only a room request: nothing needs more than a few bytes.
      maxHttpBufferSize: 16 * 1024,
      // A connection that never sends its handshake is closed this soon (45 s by default).
      connectTimeout: 1e4,
      allowRequest: (_request, callback) => callback(null, !closing)
    });
    const upgraded = /* @__PURE__ */ new Set();
    app.server.on("upgrade", (_request, socket) => {
      upgraded.add(socket);
      socket.once("close", () => upgraded.delete(socket));
    });
    let subscriber;
    if (state.redis) {
      subscriber = state.redis.duplicate({ maxRetriesPerRequest: null, enableOfflineQueue: true });
      subscriber.on("error", () => {
      });
      io.adapter(
        createAdapter(
          failingQuietly(state.redis, ["publish"], app.log),
          failingQuietly(subscriber, ["subscribe", "psubscribe", "unsubscribe", "punsubscribe"], app.log),
          { key: `${state.keyPrefix}:socket.io` }
        )
      );
    }
    io.use((socket, next) => {
      const auth = socket.handshake.auth;
      const language = typeof auth.language === "string" && LANGUAGES.includes(auth.language) ? auth.language : languageOf(socket.handshake.headers["accept-language"]);
      const token = typeof auth.token === "string" ? auth.token : void 0;
      const refuse = () => {
        next(Object.assign(new Error(translate(language)("errors.unauthorized")), { data: { status: 401 } }));
      };
      settle(
        authenticator.authenticate(token, { touch: false }),
        (context) => {
          if (!context || !token) return refuse();
          socket.data = { token, userId: context.user.id, sessionId: context.sessionId };
          next();
        },
        (error) => {
          app.log.error({ err: error }, "socket handshake failed");
          next(Object.assign(new Error(translate(language)("errors.unavailable")), { data: { status: 503 } }));
        }
      );
    });
    io.on("connection", (socket) => {
      void socket.join([sessionRoom(socket.data.sessionId), userRoom(socket.data.userId)]);
      check(socket);
      socket.use((_packet, next) => {
        settle(
          authenticator.authenticate(socket.data.token, { touch: false }),
          (context) => isStill(socket, context) ? next() : socket.disconnect(true),
          () => next(new Error("unavailable"))
        );
      });
      socket.on("error", () => {
      });
      socket.on("join-whatsapp", (...args) => roomRequest(socket, args, (room) => socket.join(room)));
      socket.on("leave-whatsapp", (...args) => roomRequest(socket, args, (room) => socket.leave(room)));
    });
    function check(socket) {
      settle(
        authenticator.authenticate(socket.data.token, { touch: false }),
        (context) => {
          if (!isStill(socket, context)) socket.disconnect(true);
        },
        (error) => app.log.warn({ err: error }, "socket session check failed")
      );
    }
    function recheck(room) {
      const ids = room ? io.of("/").adapter.rooms.get(room) : io.of("/").sockets.keys();
      for (const id of [...ids ?? []]) {
        const socket = io.of("/").sockets.get(id);
        if (socket) check(socket);
      }
    }
    const stopWatching = authenticator.onChange((change) => {
      if (change === null) recheck();
      else if ("sessionId" in change) recheck(sessionRoom(change.sessionId));
      else recheck(userRoom(change.userId));
    });
    const timer = setInterval(() => recheck(), recheckMs);
    timer.unref();
    const realtime = {
      emitToUser(userId, event, payload) {
        io.to(whatsAppRoom(userId)).emit(event, payload);
      }
    };
    app.decorate("realtime", realtime);
    app.addHook("preClose", async () => {
      closing = true;
      clearInterval(timer);
      stopWatching();
      io.engine.close();
      if (upgraded.size > 0) {
        setTimeout(() => {
          for (const socket of upgraded) socket.destroy();
        }, CLOSE_GRACE_MS).unref();
      }
      await io.of("/").adapter.close();
      subscriber?.disconnect();
    });
  },
  { name: "realtime", dependencies: ["i18n"] }
);
function failingQuietly(redis, methods, log) {
  const wrapped = new Map(
    methods.map((name) => {
      const method = Reflect.get(redis, name, redis);
      const call = (...args) => method.apply(redis, args).catch((error) => {
        log.warn({ err: error, command: name }, "socket event adapter: Redis command failed");
        return 0;
      });
      return [name, call];
    })
  );
  return new Proxy(redis, {
    get(target, property) {
      const own = typeof property === "string" ? wrapped.get(property) : void 0;
      if (own) return own;
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    }
  });
}
function isStill(socket, context) {
  return context !== null && context.user.id === socket.data.userId && context.sessionId === socket.data.sessionId;
}
function roomRequest(socket, args, apply) {
  const ack = typeof args.at(-1) === "function" ? args.pop() : void 0;
  if (args.length > 0) return ack?.({ ok: false });
  void Promise.resolve(apply(whatsAppRoom(socket.data.userId))).then(
    () => ack?.({ ok: true }),
    () => ack?.({ ok: false })
  );
}

// src/plugins/web.ts
import fs from "node:fs";
import path from "node:path";
import zlib from "node:zlib";
import fp6 from "fastify-plugin";
import fastifyStatic from "@fastify/static";
var webPlugin = fp6(
  async (app, { distDir, brandDomains }) => {
    const indexFile = path.join(distDir, "index.html");
    if (!fs.existsSync(indexFile)) {
      app.log.warn(`No web build at ${distDir}; run \`npm run build\` to serve the web app.`);
      app.setNotFoundHandler((request, reply) => sendApiNotFound(request, reply));
      return;
    }
    const html = fs.readFileSync(indexFile, "utf8").replace("__BRAND_DOMAINS__", escapeAttribute(brandDomains));
    const index = {
      identity: Buffer.from(html),
      br: zlib.brotliCompressSync(html),
      gzip: zlib.gzipSync(html)
    };
    await app.register(fastifyStatic, {
      root: distDir,
      wildcard: false,
      index: false,
      preCompressed: true,
      serveDotFiles: false,
      // index.html is a template: only sendIndex may answer with it (brand domains filled in).
      globIgnore: ["index.html", "index.html.br", "index.html.gz"],
      setHeaders: (reply, filePath) => {
        const hashed = filePath.includes(`${path.sep}assets${path.sep}`);
        reply.header("cache-control", hashed ? "public, max-age=31536000, immutable" : "public, max-age=300");
      }
    });
    const sendIndex = (request, reply) => {
      const accepts = String(request.headers["accept-encoding"] ?? "");
      const encoding = /\bbr\b/.test(accepts) ? "br" : /\bgzip\b/.test(accepts) ? "gzip" : "identity";
      reply.code(200).type("text/html; charset=utf-8").header("cache-control", "no-store").header("vary", "accept-encoding");
      if (encoding !== "identity") reply.header("content-encoding", encoding);
      return reply.send(index[encoding]);
    };
    app.get("/", sendIndex);
    app.setNotFoundHandler((request, reply) => {
      const pathname = request.url.split("?")[0] ?? "";
      if (pathname === "/api" || pathname.startsWith("/api/") || request.method !== "GET" && request.method !== "HEAD") {
        return sendApiNotFound(request, reply);
      }
      if (pathname.startsWith("/assets/")) return sendApiNotFound(request, reply);
      return sendIndex(request, reply);
    });
  },
  { name: "web", dependencies: ["i18n"] }
);
function escapeAttribute(value) {
  return value.replace(/[&"<>]/g, (c) => `&#${c.charCodeAt(0)};`);
}

// src/app.ts
var BODY_LIMIT_BYTES = 1024 * 1024;
var DEFAULT_TIMEOUTS = { requestMs: 6e4, headersMs: 2e4 };
async function buildApp(deps) {
  const clock = deps.clock ?? systemClock;
  const timeouts = { ...DEFAULT_TIMEOUTS, ...deps.timeouts };
  const translate = createTranslator();
  const app = Fastify({
    loggerInstance: deps.logger,
    // Fastify's default (0) turns Node's request timeout off; the headers' timeout is Node's.
    requestTimeout: timeouts.requestMs,
    http: {
      requestTimeout: timeouts.requestMs,
      headersTimeout: timeouts.headersMs,
      // Node looks for overdue requests every 30 s by default, which would let one last up to
      // 30 s past its timeout: look a few times per timeout instead (a walk over the
      // connections still receiving a request).
      connectionsCheckingInterval: Math.min(3e4, Math.ceil(Math.min(timeouts.requestMs, timeouts.headersMs) / 4))
    },
    logController: new OneLinePerRequest(),
    childLoggerFactory: lazyChildLoggerFactory,
    bodyLimit: BODY_LIMIT_BYTES,
    trustProxy: deps.trustProxy ?? false,
    // Our own hook below answers requests that arrive while closing, in the API's error shape.
    return503OnClosing: false,
    routerOptions: { maxParamLength: 200 },
    // What fails before any route or hook runs is answered in the API's error shape too.
    frameworkErrors: frameworkErrorHandler(translate),
    clientErrorHandler: clientErrorHandler(translate, deps.logger)
  }).withTypeProvider();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  const mailer = deps.mailer ?? createMailer({ smtpUrl: deps.smtpUrl, from: deps.mailFrom ?? "ContrateIA <no-reply@localhost>", logger: deps.logger });
  app.addHook("onClose", async () => mailer.close());
  await app.register(i18nPlugin, { translate });
  await app.register(errorsPlugin);
  let closing = false;
  app.addHook("preClose", async () => {
    closing = true;
  });
  app.addHook("onSend", (_request, reply, payload, done) => {
    if (closing) reply.header("connection", "close");
    done(null, payload);
  });
  app.addHook("onRequest", (_request, _reply, done) => {
    done(closing ? new AppError(503, "errors.unavailable", { headers: { "retry-after": "5" } }) : void 0);
  });
  await app.register(securityPlugin);
  const state = deps.state ?? createSharedState({ redis: deps.redis, keyPrefix: deps.limits?.keyPrefix ?? "contrateia" });
  app.addHook("onReady", () => state.ready());
  if (!deps.state) app.addHook("onClose", () => state.close());
  await app.register(rateLimit, {
    global: false,
    ...state.redis ? { redis: state.redis, nameSpace: `${state.keyPrefix}:rl:` } : {},
    errorResponseBuilder: (_request, context) => retryLater("errors.tooManyRequests", context.ttl)
  });
  const sessions2 = createSessionStore({
    db: deps.database.db,
    secret: deps.secret,
    clock,
    timeoutMs: deps.sessionTimeoutMs ?? SESSION_TIMEOUT_MINUTES * 6e4,
    maxAgeMs: deps.sessionMaxAgeMs ?? SESSION_MAX_AGE_DAYS * 24 * 60 * 6e4,
    state,
    logger: deps.logger
  });
  const authenticator = createAuthenticator({ db: deps.database.db, sessions: sessions2, state, logger: deps.logger });
  const throttle = createLoginThrottle({ limits: { ...DEFAULT_LOGIN_LIMITS, ...deps.limits?.login }, state });
  const codes = createCodeLimiter({ limits: { ...DEFAULT_CODE_LIMITS, ...deps.limits?.codes }, state });
  let hireDefault = async () => {
  };
  const auth = createAuthService({
    db: deps.database.db,
    clock,
    mailer,
    sessions: sessions2,
    throttle,
    codes,
    codeKey: `email-code:${deps.secret}`,
    publicUrl: deps.publicUrl,
    authenticator,
    translate,
    onUserCreated: (userId) => hireDefault(userId),
    // Hires and conversations belong to agents and chat: read through their services. The export
    // is the account's, whatever mode it is in: an admin in user mode gets administrador's too.
    collectUserData: async (current, language) => {
      const user = { ...current, role: current.originalRole };
      const hired = await agents2.listHired({ user, language });
      const conversations2 = [];
      for (const { id } of await chat.listConversations({ user })) {
        conversations2.push(await chat.getConversation({ user, id }));
      }
      return { hires: hired.map((a) => ({ agentName: a.name, displayName: a.displayName })), conversations: conversations2 };
    },
    logger: deps.logger
  });
  const agents2 = createAgentsService({ db: deps.database.db, isSingleAgentUser: auth.isSingleAgentUser, state, logger: deps.logger });
  hireDefault = (userId) => agents2.hireDefault({ userId });
  app.addHook("onReady", () => agents2.seed());
  const engine = createEngine(deps.ai ?? { provider: "builtin", timeoutMs: 6e4 }, { translate });
  const chat = createChatService({
    db: deps.database.db,
    clock,
    engine,
    agents: agents2,
    logger: deps.logger,
    state,
    publicUrl: deps.publicUrl,
    limit: deps.limits?.chat,
    facts: async (timeZone) => {
      const now = new Date(clock.now());
      const dayStart = startOfDay(now, timeZone);
      const weekStart = startOfWeek(now, timeZone);
      const counts = async (since) => {
        const [users2, activity] = await Promise.all([auth.countUsers(since), chat.countActivitySince(since ?? /* @__PURE__ */ new Date(0))]);
        return { users: users2, ...activity };
      };
      const [total, today, week, newestUsers2, ok] = await Promise.all([
        counts(),
        counts(dayStart),
        counts(weekStart),
        auth.newestUsers(5),
        deps.database.ping()
      ]);
      return {
        activity: { total, today, week },
        newestUsers: newestUsers2,
        timeZone,
        database: { kind: deps.database.kind, ok },
        mail: mailer.kind
      };
    }
  });
  const events = deps.events ?? createEventHub();
  const sink = (accountId, event) => whatsapp.handleTransportEvent(accountId, event);
  let sandbox;
  let transport;
  if (deps.whatsapp?.transport === "sandbox") {
    deps.logger.warn("WHATSAPP_TRANSPORT=sandbox: WhatsApp is simulated inside this server; no real number is connected");
    sandbox = createSandboxTransport({
      db: deps.database.db,
      clock,
      state,
      publicUrl: deps.publicUrl,
      onEvent: sink,
      logger: deps.logger,
      qr: deps.whatsapp.qr ?? SANDBOX_QR_DEFAULTS
    });
    transport = sandbox;
  } else {
    transport = createBaileysTransportOnDemand({
      db: deps.database.db,
      // Fastify's logger is the pino logger main.ts made (or a test's): Baileys takes pino's type.
      logger: deps.logger,
      onEvent: sink,
      wsUrl: deps.whatsapp?.wsUrl,
      // One instance owns each account's socket at a time (a lease in Redis with several).
      shared: state
    });
  }
  const whatsapp = createWhatsAppService({
    db: deps.database.db,
    clock,
    engine,
    agents: agents2,
    state,
    events,
    transport,
    translate,
    logger: deps.logger,
    onReplyDone: deps.whatsapp?.onReplyDone,
    contactLimit: { ...DEFAULT_CONTACT_LIMIT, ...deps.limits?.whatsappContact }
  });
  app.addHook("onReady", () => whatsapp.resume());
  app.addHook("onClose", async () => {
    await transport.close();
    await whatsapp.close();
  });
  await app.register(authPlugin, { authenticator });
  await app.register(realtimePlugin, { authenticator, state, translate, recheckMs: deps.realtimeRecheckMs });
  const deliver = (event) => app.realtime.emitToUser(event.userId, event.name, event.payload);
  events.subscribe(deliver);
  await app.register(
    async (api) => {
      await api.register(systemRoutes, { database: deps.database, version: deps.version });
      await api.register(authRoutes, { auth, limits: { ...DEFAULT_AUTH_ROUTE_LIMITS, ...deps.limits?.routes } });
      await api.register(agentsRoutes, { agents: agents2 });
      await api.register(chatRoutes, { chat });
      await api.register(whatsappRoutes, { whatsapp });
      if (sandbox) await api.register(sandboxRoutes, { sandbox });
    },
    { prefix: "/api" }
  );
  if (sandbox) await app.register(sandboxPhonePage, { sandbox });
  await app.register(webPlugin, { distDir: deps.webDistDir ?? WEB_DIST_DIR, brandDomains: deps.brandDomains });
  return app;
}
var serializerCompiler = ({ schema, method, url }) => {
  return (data) => {
    const result = schema.safeParse(data);
    if (!result.success) throw new ResponseSerializationError(method, url, { cause: result.error });
    return JSON.stringify(result.data);
  };
};
var OneLinePerRequest = class extends LogController {
  /**
   * The completion line of a request that succeeded holds only the fields below: nothing
   * redaction could find, and redaction was a tenth of an authenticated request's time. So it goes
   * through a child logger without redaction; every other line, an errored request's included,
   * keeps it.
   */
  plain = /* @__PURE__ */ new WeakMap();
  // Kept at debug level, where it shows what is still in flight. Checked first: the line's fields
  // (the client address behind a proxy above all) cost something to gather even when unwritten.
  incomingRequest(request) {
    if (!isLevelEnabled(request.log, "debug")) return;
    request.log.debug({ method: request.method, url: loggedUrl(request.url), remoteAddress: request.ip }, "incoming request");
  }
  requestCompleted(error, request, reply) {
    if (error) {
      reply.log.error({ ...completion(request, reply), err: error }, "request errored");
      return;
    }
    const root = request.server.log;
    let plain = this.plain.get(root);
    if (!plain) {
      plain = root.child({}, { redact: { paths: [], censor: "[redacted]" } });
      this.plain.set(root, plain);
    }
    plain.info(completion(request, reply, request.id), "request completed");
  }
};
function loggedUrl(url) {
  const query = url.indexOf("?");
  return query === -1 ? url : url.slice(0, query);
}
function completion(request, reply, reqId) {
  return {
    // Left out when undefined (pino skips undefined fields): an errored line's logger has it bound.
    reqId,
    method: request.method,
    url: loggedUrl(request.url),
    statusCode: reply.statusCode,
    remoteAddress: request.ip,
    responseTime: Math.round(reply.elapsedTime * 1e3) / 1e3
  };
}
export {
  BODY_LIMIT_BYTES,
  DEFAULT_TIMEOUTS,
  buildApp
};
//# sourceMappingURL=app-CQEFQEJP.js.map
