import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import rateLimit from '@fastify/rate-limit';
import type { Redis } from 'ioredis';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { SESSION_MAX_AGE_DAYS } from '@contrateia/shared';
import type { Database } from '@/db/client';
import { systemClock, type Clock } from '@/lib/clock';
import { AppError, retryLater } from '@/lib/errors';
import { createTranslator } from '@/lib/i18n';
import { startOfDay, startOfWeek } from '@/lib/time-zone';
import type { Logger as PinoLogger } from 'pino';
import type { MonitorAction, ServerEventName, ServerEventPayload } from '@contrateia/shared';
import { isLevelEnabled, lazyChildLoggerFactory, tapWarnings } from '@/lib/logger';
import { createJobs, type Jobs } from '@/lib/jobs';
import { createMailer, type Mailer } from '@/lib/mail';
import { serializerCompiler } from '@/lib/response-serializer';
import { createSharedState, type SharedState } from '@/lib/shared-state';
import { createAuthenticator } from '@/features/auth/auth.authenticator';
import {
  authRoutes,
  DEFAULT_AUTH_ROUTE_LIMITS,
  type AuthRouteLimits,
} from '@/features/auth/auth.routes';
import { createAuthService } from '@/features/auth/auth.service';
import { scheduleSessionsCleanup } from '@/features/auth/auth.cleanup';
import { createSessionStore } from '@/features/auth/auth.sessions';
import {
  createCodeLimiter,
  createLoginThrottle,
  DEFAULT_CODE_LIMITS,
  DEFAULT_LOGIN_LIMITS,
  type CodeLimits,
  type LoginLimits,
} from '@/features/auth/auth.throttle';
import { systemRoutes } from '@/features/system/system.routes';
import { agentsRoutes } from '@/features/agents/agents.routes';
import { createAgentsService } from '@/features/agents/agents.service';
import { checkProvider, createConfiguredEngine, probeProvider } from '@/features/ai/ai.providers';
import type { EngineConfig, ReplyOutcome } from '@/features/ai/ai.service';
import { chatRoutes } from '@/features/chat/chat.routes';
import { createChatService } from '@/features/chat/chat.service';
import {
  adminRoutes,
  publicSettingsRoutes,
  themeStylesheetRoute,
} from '@/features/admin/admin.routes';
import { createAiSettingsService } from '@/features/admin/admin.ai';
import { adminAiRoutes } from '@/features/admin/admin.ai.routes';
import { createAdminAgentsService } from '@/features/admin/admin.agents';
import { adminAgentsRoutes } from '@/features/admin/admin.agents.routes';
import { createSettingsService } from '@/features/admin/admin.settings';
import { createAuditService, createAuditTrail } from '@/features/admin/admin.audit';
import { createAdminUsersService } from '@/features/admin/admin.users';
import { adminUsersRoutes } from '@/features/admin/admin.users.routes';
import { imagesRoutes } from '@/features/images/images.routes';
import { createImagesService } from '@/features/images/images.service';
import type { WorkGate } from '@/lib/work-gate';
import { logsRoutes } from '@/features/logs/logs.routes';
import { createLogsService, type RetentionOptions } from '@/features/logs/logs.service';
import type { WriterLimits } from '@/features/logs/logs.writer';
import { whatsappRoutes } from '@/features/whatsapp/whatsapp.routes';
import {
  createWhatsAppService,
  type DEFAULT_CONTACT_LIMIT,
  type WhatsAppService,
} from '@/features/whatsapp/whatsapp.service';
import {
  createSandboxTransport,
  SANDBOX_QR_DEFAULTS,
  type SandboxTransport,
} from '@/features/whatsapp/transports/sandbox';
import { sandboxPhonePage, sandboxRoutes } from '@/features/whatsapp/transports/sandbox.routes';
import type {
  TransportEventSink,
  WhatsAppTransport,
} from '@/features/whatsapp/transports/transport';
import { createBaileysTransportOnDemand } from '@/features/whatsapp/transports/baileys-on-demand';
import { createMonitorService, type MonitorTiming } from '@/features/monitor/monitor.service';
import { monitorRoutes } from '@/features/monitor/monitor.routes';
import { createMetrics, metricsRoute } from '@/features/monitor/monitor.metrics';
import { createSystemSampler } from '@/features/monitor/monitor.system';
import type { CgroupPaths } from '@/features/monitor/monitor.cgroup';
import { createEventHub, type EventHub } from '@/lib/event-hub';
import { createSecretBox } from '@/lib/secrets';
import { authPlugin } from '@/plugins/auth';
import { clientErrorHandler, errorsPlugin, frameworkErrorHandler } from '@/plugins/errors';
import { i18nPlugin } from '@/plugins/i18n';
import { realtimePlugin } from '@/plugins/realtime';
import { securityPlugin } from '@/plugins/security';
import { webPlugin } from '@/plugins/web';
import { WEB_DIST_DIR } from '@/paths';

export const BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * How long a client may take to send a whole request, and its headers. A client that sends
 * slowly (by accident or to hold sockets open) is answered 408 and its connection closed. They
 * bound receiving the request only: a response may take as long as it needs (a streamed reply).
 */
export const DEFAULT_TIMEOUTS = { requestMs: 60_000, headersMs: 20_000 };

declare module 'fastify' {
  interface FastifyInstance {
    /** The durable jobs (lib/jobs.ts): tests follow the jobs their requests send. */
    jobs: Jobs;
  }
}

export type App = FastifyInstance<
  Server,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  ZodTypeProvider
>;

export type AppDeps = {
  database: Database;
  /** Signs session tokens, keys e-mail code hashes, and seals secrets kept in the database (the AI key). */
  secret: string;
  logger: FastifyBaseLogger;
  version: string;
  /**
   * Where the image library's files are kept (DATA_DIR/images): one directory every instance
   * shares, as they share the database.
   */
  imagesDir: string;
  /** The image library's decoding gate (tests hold its slots); IMAGE_DECODING's otherwise. */
  imageDecoding?: WorkGate;
  brandDomains: string;
  /** The origin of every link the server hands out (PUBLIC_URL): QR pairing links, links in mails. */
  publicUrl: string;
  /** Outgoing mail; without it, built from smtpUrl (or logging when that is absent too). */
  mailer?: Mailer;
  smtpUrl?: string;
  mailFrom?: string;
  /** Shared state for several instances (REDIS_URL); without it, this process's memory. */
  redis?: Redis;
  /**
   * A shared state made by the caller, instead of one made here from `redis`: instances built in
   * one process share it as instances on several machines share Redis (the two-instance tests).
   * The caller closes it.
   */
  state?: SharedState;
  clock?: Clock;
  trustProxy?: boolean;
  webDistDir?: string;
  /** A fixed idle lifetime for sessions (tests); without it, the admin's session timeout. */
  sessionTimeoutMs?: number;
  /** How long after its sign-in a session ends, however much it is used. */
  sessionMaxAgeMs?: number;
  limits?: {
    login?: Partial<LoginLimits>;
    /** E-mail codes per address and purpose over a window (a day). */
    codes?: Partial<CodeLimits>;
    routes?: Partial<AuthRouteLimits>;
    chat?: { points: number; durationSeconds: number };
    /** Messages one WhatsApp contact may write per window before it is blocked, and for how long. */
    whatsappContact?: Partial<typeof DEFAULT_CONTACT_LIMIT>;
    /** Messages one owner may send by hand per minute (WHATSAPP_SEND_LIMIT_PER_MINUTE). */
    whatsappSendPerMinute?: number;
    /** Sandbox contacts' messages one IP may post per minute (SANDBOX_INBOUND_PER_MINUTE). */
    sandboxInboundPerMinute?: number;
    /** AI connection tests one admin may run per minute (DEFAULT_AI_TESTS_PER_MINUTE). */
    aiTestsPerMinute?: number;
    /** Each monitor quick action one admin may run per minute (DEFAULT_MONITOR_ACTIONS_PER_MINUTE). */
    monitorActions?: Partial<Record<MonitorAction, number>>;
    keyPrefix?: string;
  };
  /**
   * The agent engine's provider as the AI_* variables give it (builtin when absent): in force until
   * an admin saves another in the panel.
   */
  ai?: EngineConfig;
  /** WHATSAPP_TRANSPORT and WHATSAPP_WS_URL; the sandbox's QR rhythm (tests quicken it). */
  whatsapp?: {
    transport: 'baileys' | 'sandbox';
    wsUrl?: string;
    qr?: { refreshMs: number; limit: number };
    /** SANDBOX_SECRET: opens every sandbox phone's routes (`X-Sandbox-Secret`); without it only the linked account's session does. */
    sandboxSecret?: string;
  };
  /**
   * Where real-time events for accounts go (the Socket.IO layer subscribes); made here when
   * absent. Tests pass their own to see what was emitted.
   */
  events?: EventHub;
  /** How often each open socket's session is checked again (DEFAULT_RECHECK_MS); tests shorten it. */
  realtimeRecheckMs?: number;
  /** Slow-client bounds (DEFAULT_TIMEOUTS); tests shorten them. */
  timeouts?: Partial<typeof DEFAULT_TIMEOUTS>;
  /** DATA_DIR: the monitor reports the disk of its file system (the working directory when absent). */
  dataDir?: string;
  /** METRICS_TOKEN: the bearer token that opens `GET /metrics`; without it there is no such route. */
  metricsToken?: string;
  /** The monitor's rhythm (DEFAULT_MONITOR_TIMING), and where it reads the control groups (tests give a tree of their own). */
  monitor?: Partial<MonitorTiming> & { cgroup?: CgroupPaths };
  /**
   * The stored log: how long events are kept (`retention.days`, LOG_RETENTION_DAYS) and how they
   * are written; tests quicken both.
   */
  logs?: { writer?: Partial<WriterLimits>; retention?: Partial<RetentionOptions> };
};

/**
 * Builds the whole application without listening, so tests drive it through `app.inject` with a
 * database of their own. Plugins first, then features, then the web app behind them.
 */
export async function buildApp(deps: AppDeps): Promise<App> {
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
      connectionsCheckingInterval: Math.min(
        30_000,
        Math.ceil(Math.min(timeouts.requestMs, timeouts.headersMs) / 4),
      ),
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
    clientErrorHandler: clientErrorHandler(translate, deps.logger),
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const mailer =
    deps.mailer ??
    createMailer({
      smtpUrl: deps.smtpUrl,
      from: deps.mailFrom ?? 'ContrateIA <no-reply@localhost>',
      logger: deps.logger,
    });
  app.addHook('onClose', async () => mailer.close());

  await app.register(i18nPlugin, { translate });

  // While closing, requests already in flight end their keep-alive connection with the response;
  // otherwise close() waits for each client to hang up (keepAliveTimeout, 72 s).
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  // Hooks on every request are callback-style: an async one costs a promise and a turn each.
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });
  app.addHook('onRequest', (_request, _reply, done) => {
    done(
      closing
        ? new AppError(503, 'errors.unavailable', { headers: { 'retry-after': '5' } })
        : undefined,
    );
  });

  await app.register(securityPlugin);

  // The one place that decides where state shared between requests lives: Redis when configured
  // (every instance sees the same counters, locks and messages), else this process's memory.
  // Every key is named under one prefix, so apps sharing a Redis keep theirs apart.
  const state =
    deps.state ??
    createSharedState({ redis: deps.redis, keyPrefix: deps.limits?.keyPrefix ?? 'contrateia' });
  app.addHook('onReady', () => state.ready());
  if (!deps.state) app.addHook('onClose', () => state.close());
  // Durable jobs, in the app's database: features work their queues and send or schedule jobs
  // while the app is built; the work starts once the app is ready (the last onReady hook, below)
  // and stops first on close.
  const jobs = createJobs({ database: deps.database, logger: deps.logger });
  app.decorate('jobs', jobs);
  // The stored log (the Logs page): features record their events through `logs.events`, and the
  // logger hands it every warning and error of the server, whoever logs it. Made before the other
  // features so that its onClose hook, which writes what is left, runs after theirs (Fastify runs
  // them last registered, first run).
  const logs = createLogsService({
    db: deps.database.db,
    clock,
    state,
    logger: deps.logger,
    secret: deps.secret,
    translate,
    writer: deps.logs?.writer,
    retention: deps.logs?.retention,
    jobs,
  });
  const untapLogger = tapWarnings(deps.logger, logs.capture);
  // Written from ready on: the embedded database may still be migrating while the app is built.
  app.addHook('onReady', () => logs.start());
  app.addHook('onClose', async () => {
    await logs.close();
    untapLogger();
  });
  const eventLog = logs.events;
  await app.register(errorsPlugin, { onMaintenanceRefusal: logs.maintenanceRefused });

  await app.register(rateLimit, {
    global: false,
    ...(state.redis ? { redis: state.redis, nameSpace: `${state.keyPrefix}:rl:` } : {}),
    errorResponseBuilder: (_request, context) => retryLater('errors.tooManyRequests', context.ttl),
  });

  // The admin's settings: read by the features that enforce them (sessions, registration, maintenance).
  const settings = createSettingsService({
    db: deps.database.db,
    state,
    logger: deps.logger,
    eventLog,
  });
  app.addHook('onReady', () => settings.preload());
  const sessions = createSessionStore({
    db: deps.database.db,
    secret: deps.secret,
    clock,
    // A test's fixed timeout, else the admin's setting.
    timeoutMs:
      deps.sessionTimeoutMs === undefined
        ? settings.sessionTimeoutMs
        : () => deps.sessionTimeoutMs!,
    maxAgeMs: deps.sessionMaxAgeMs ?? SESSION_MAX_AGE_DAYS * 24 * 60 * 60_000,
    state,
    logger: deps.logger,
  });
  const authenticator = createAuthenticator({
    db: deps.database.db,
    sessions,
    state,
    logger: deps.logger,
  });
  const throttle = createLoginThrottle({
    limits: { ...DEFAULT_LOGIN_LIMITS, ...deps.limits?.login },
    state,
  });
  const codes = createCodeLimiter({
    limits: { ...DEFAULT_CODE_LIMITS, ...deps.limits?.codes },
    state,
  });
  // Wired both ways through a callback: a new account gets its default agent, and agents ask
  // accounts whether they may hire.
  let hireDefault: (userId: string) => Promise<void> = async () => {};
  const auth = createAuthService({
    db: deps.database.db,
    clock,
    mailer,
    sessions,
    throttle,
    codes,
    codeKey: `email-code:${deps.secret}`,
    publicUrl: deps.publicUrl,
    authenticator,
    translate,
    onUserCreated: (userId) => hireDefault(userId),
    systemSettings: settings.system,
    eventLog,
    // Hires, conversations and WhatsApp belong to agents, chat and whatsapp: read through their
    // services. The export is the account's, whatever mode it is in: an admin in user mode gets
    // administrador's too.
    collectUserData: async (current, language) => {
      const user = { ...current, role: current.originalRole };
      const hired = await agents.listHired({ user, language, includeInactive: true });
      const conversations = [];
      for (const { id } of await chat.listConversations({ user })) {
        conversations.push(await chat.getConversation({ user, id }));
      }
      return {
        hires: hired.map((a) => ({ agentName: a.name, displayName: a.displayName })),
        conversations,
        whatsapp: await whatsapp.exportData({ userId: user.id, language }),
      };
    },
    logger: deps.logger,
  });
  scheduleSessionsCleanup({ jobs, auth, logger: deps.logger });
  const agents = createAgentsService({
    db: deps.database.db,
    isSingleAgentUser: auth.isSingleAgentUser,
    state,
    logger: deps.logger,
  });
  hireDefault = (userId) => agents.hireDefault({ userId });
  // On ready rather than now: the build needs no database, so at start it runs while the
  // database opens and migrates (see main.ts).
  app.addHook('onReady', () => agents.seed());
  // The language model's provider: the AI_* variables until an admin saves one in the panel. One
  // engine for every feature that answers with agents (chat, WhatsApp), each reply going to the
  // provider in force at that moment.
  const aiSettings = createAiSettingsService({
    db: deps.database.db,
    state,
    logger: deps.logger,
    box: createSecretBox(deps.secret),
    initial: deps.ai ?? { provider: 'builtin', timeoutMs: 60_000 },
    check: (config, language) => checkProvider(config, { language, translate }),
    eventLog,
  });
  app.addHook('onReady', () => aiSettings.preload());
  // Real replies' outcomes reach the monitor, made further down; provider failures the stored log.
  let observeReply: (outcome: ReplyOutcome) => void = () => {};
  const engine = createConfiguredEngine({
    config: aiSettings.engineConfig,
    translate,
    eventLog,
    onReply: (outcome) => observeReply(outcome),
  });
  const chat = createChatService({
    db: deps.database.db,
    clock,
    engine,
    agents,
    logger: deps.logger,
    state,
    publicUrl: deps.publicUrl,
    limit: deps.limits?.chat,
    facts: async (timeZone) => {
      const now = new Date(clock.now());
      const dayStart = startOfDay(now, timeZone);
      const weekStart = startOfWeek(now, timeZone);
      const counts = async (since?: Date) => {
        const [users, activity] = await Promise.all([
          auth.countUsers(since),
          chat.countActivitySince(since ?? new Date(0)),
        ]);
        return { users, ...activity };
      };
      const [total, today, week, newestUsers, ok] = await Promise.all([
        counts(),
        counts(dayStart),
        counts(weekStart),
        auth.newestUsers(5),
        deps.database.ping(),
      ]);
      return {
        activity: { total, today, week },
        newestUsers,
        timeZone,
        database: { kind: deps.database.kind, ok },
        mail: mailer.kind,
      };
    },
  });
  const events = deps.events ?? createEventHub();
  // The one place the WhatsApp transport is chosen; the service never knows which it has. Its
  // events reach the service through a sink bound once both exist.
  const sink: TransportEventSink = (accountId, event) =>
    whatsapp.handleTransportEvent(accountId, event);
  let sandbox: SandboxTransport | undefined;
  let transport: WhatsAppTransport;
  if (deps.whatsapp?.transport === 'sandbox') {
    deps.logger.warn(
      'WHATSAPP_TRANSPORT=sandbox: WhatsApp is simulated inside this server; no real number is connected',
    );
    sandbox = createSandboxTransport({
      db: deps.database.db,
      clock,
      state,
      publicUrl: deps.publicUrl,
      onEvent: sink,
      logger: deps.logger,
      qr: deps.whatsapp.qr ?? SANDBOX_QR_DEFAULTS,
    });
    transport = sandbox;
  } else {
    transport = createBaileysTransportOnDemand({
      db: deps.database.db,
      // Fastify's logger is the pino logger main.ts made (or a test's): Baileys takes pino's type.
      logger: deps.logger as unknown as PinoLogger,
      onEvent: sink,
      wsUrl: deps.whatsapp?.wsUrl,
      // One instance owns each account's socket at a time (a lease in Redis with several).
      shared: state,
    });
  }
  const whatsapp: WhatsAppService = createWhatsAppService({
    db: deps.database.db,
    clock,
    engine,
    agents,
    state,
    events,
    transport,
    translate,
    logger: deps.logger,
    jobs,
    replyTimeoutMs: async () => (await aiSettings.engineConfig()).timeoutMs,
    contactLimit: deps.limits?.whatsappContact,
    sendLimitPerMinute: deps.limits?.whatsappSendPerMinute,
    isAccountActive: (userId) => auth.isAccountActive(userId),
    eventLog,
    publicUrl: deps.publicUrl,
  });
  // The image library: the upload limits are the admin's settings, read at each upload; its
  // changes go into the admin audit.
  const auditTrail = createAuditTrail({ eventLog });
  const images = createImagesService({
    db: deps.database.db,
    dir: deps.imagesDir,
    secret: deps.secret,
    clock,
    systemSettings: settings.system,
    // Its changes go to the admin audit, and once committed to the stored log, as the panel's do.
    audit: auditTrail.change,
    logger: deps.logger,
    decoding: deps.imageDecoding,
  });
  app.addHook('onReady', () => images.prepare());
  // The admin's agent management: agents' data through their service, their use through chat's.
  const adminAgents = createAdminAgentsService({ agents, auth, chat, whatsapp, clock, eventLog });
  // After the agents' seed (the default agent must exist): every linked account connects again.
  app.addHook('onReady', () => whatsapp.resume());
  const audit = createAuditService({ db: deps.database.db, auth, agents, images });
  // The live monitor: each service checked through its feature, in the background from ready on.
  // Sockets are counted through the real-time layer, registered below (read only once ready).
  const monitor = createMonitorService({
    clock,
    state,
    logger: deps.logger,
    database: deps.database,
    mailer,
    ai: { config: aiSettings.engineConfig, probe: probeProvider },
    whatsapp,
    auth,
    jobs,
    sockets: () => app.realtime.localConnections(),
    system: createSystemSampler({
      dataDir: deps.dataDir ?? process.cwd(),
      cgroup: deps.monitor?.cgroup,
    }),
    audit: auditTrail.change,
    translate,
    timing: deps.monitor,
  });
  observeReply = monitor.observeReply;
  app.addHook('onReady', async () => monitor.start());
  app.addHook('onClose', () => monitor.stop());
  // Prometheus metrics only with a token: without one, neither the route nor the per-request
  // hook exists, so requests pay nothing for them.
  const metrics = deps.metricsToken
    ? createMetrics({ monitor, sockets: () => app.realtime.localConnections() })
    : undefined;
  if (metrics) {
    app.addHook('onResponse', metrics.observeResponse);
    app.addHook('onClose', async () => metrics.close());
  }
  // QR timers stop, and the events being handled finish before the database closes.
  app.addHook('onClose', async () => {
    await transport.close();
    await whatsapp.close();
  });
  // Last on ready: a job may need any of the above (a reply, the linked accounts resumed). First
  // on close (Fastify runs onClose hooks last registered, first run): the jobs running end while
  // what they use is still open.
  app.addHook('onReady', () => jobs.start());
  app.addHook('onClose', () => jobs.stop());
  await app.register(authPlugin, {
    authenticator,
    maintenance: settings.maintenanceMode,
  });
  await app.register(realtimePlugin, {
    authenticator,
    state,
    settings,
    translate,
    recheckMs: deps.realtimeRecheckMs,
  });
  // What features emit for an account reaches its sockets, on whichever instance they are.
  const deliver = <E extends ServerEventName>(event: {
    userId: string;
    name: E;
    payload: ServerEventPayload<E>;
  }) => app.realtime.emitToUser(event.userId, event.name, event.payload);
  events.subscribe(deliver);

  await app.register(
    async (api) => {
      await api.register(systemRoutes, { database: deps.database, version: deps.version });
      await api.register(authRoutes, {
        auth,
        limits: { ...DEFAULT_AUTH_ROUTE_LIMITS, ...deps.limits?.routes },
      });
      await api.register(agentsRoutes, { agents });
      await api.register(chatRoutes, { chat });
      await api.register(whatsappRoutes, { whatsapp });
      await api.register(publicSettingsRoutes, { settings });
      await api.register(adminRoutes, { settings });
      await api.register(adminAiRoutes, {
        ai: aiSettings,
        testsPerMinute: deps.limits?.aiTestsPerMinute,
      });
      await api.register(adminAgentsRoutes, { adminAgents });
      await api.register(adminUsersRoutes, {
        users: createAdminUsersService({ auth, agents, eventLog }),
        audit,
      });
      await api.register(imagesRoutes, { images });
      await api.register(monitorRoutes, { monitor, actionsPerMinute: deps.limits?.monitorActions });
      await api.register(logsRoutes, { logs });
      if (sandbox) {
        await api.register(sandboxRoutes, {
          sandbox,
          state,
          secret: deps.whatsapp?.sandboxSecret,
          inboundPerMinute: deps.limits?.sandboxInboundPerMinute,
        });
      }
    },
    { prefix: '/api' },
  );

  await app.register(themeStylesheetRoute, { settings });
  if (metrics && deps.metricsToken)
    await app.register(metricsRoute, { metrics, token: deps.metricsToken });
  if (sandbox) await app.register(sandboxPhonePage, { sandbox });
  await app.register(webPlugin, {
    distDir: deps.webDistDir ?? WEB_DIST_DIR,
    brandDomains: deps.brandDomains,
  });
  return app;
}

/**
 * One log line per request, when it completes, with what it was and how it ended (not two). Its
 * fields are flat values (reqId, method, url, statusCode, remoteAddress, responseTime) rather than
 * pino's nested `req`/`res` serializer objects: building and stringifying those nested objects was
 * the largest cost an authenticated request had of its own (about 13 µs of 92 per GET /api/user,
 * measured A/B on the built server; see scripts/bench.mjs).
 */
class OneLinePerRequest extends LogController {
  /**
   * The completion line of a request that succeeded holds only the fields below: nothing
   * redaction could find, and redaction was a tenth of an authenticated request's time. So it goes
   * through a child logger without redaction; every other line, an errored request's included,
   * keeps it.
   */
  private readonly plain = new WeakMap<FastifyBaseLogger, FastifyBaseLogger>();

  // Kept at debug level, where it shows what is still in flight. Checked first: the line's fields
  // (the client address behind a proxy above all) cost something to gather even when unwritten.
  override incomingRequest(request: FastifyRequest): void {
    if (!isLevelEnabled(request.log, 'debug')) return;
    request.log.debug(
      { method: request.method, url: loggedUrl(request.url), remoteAddress: request.ip },
      'incoming request',
    );
  }

  override requestCompleted(
    error: Error | null,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    if (error) {
      reply.log.error({ ...completion(request, reply), err: error }, 'request errored');
      return;
    }
    const root = request.server.log;
    let plain = this.plain.get(root);
    if (!plain) {
      plain = root.child({}, { redact: { paths: [], censor: '[redacted]' } });
      this.plain.set(root, plain);
    }
    plain.info(completion(request, reply, request.id), 'request completed');
  }
}

/**
 * A URL as logged: its path, without the query, which can hold what a person typed (a search)
 * and has no place in a log.
 */
function loggedUrl(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}

/**
 * A completion line's fields, made as one object (the line is written for every request). The
 * response time is in milliseconds to the microsecond: a double's full digits cost more to
 * print than the rest of the line's numbers together, and say nothing more.
 */
function completion(request: FastifyRequest, reply: FastifyReply, reqId?: string) {
  return {
    // Left out when undefined (pino skips undefined fields): an errored line's logger has it bound.
    reqId,
    method: request.method,
    url: loggedUrl(request.url),
    statusCode: reply.statusCode,
    remoteAddress: request.ip,
    responseTime: Math.round(reply.elapsedTime * 1000) / 1000,
  };
}
