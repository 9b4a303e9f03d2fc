import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type {
  Language,
  MonitorActionResponse,
  MonitorQueue,
  MonitorService as MonitorServiceEntry,
  MonitorServiceName,
  MonitorStatus,
  MonitorStorage,
  ServiceStatus,
  SystemStatus,
  User,
} from '@contrateia/shared';
import type { Database } from '@/db/client';
import type { Clock } from '@/lib/clock';
import { mailUnavailable } from '@/lib/errors';
import type { Translate } from '@/lib/i18n';
import type { Jobs } from '@/lib/jobs';
import type { Mailer } from '@/lib/mail';
import type { SharedState } from '@/lib/shared-state';
import type {
  EngineConfig,
  EngineFailureReason,
  ProviderProbe,
  ReplyOutcome,
} from '@/features/ai/ai.service';
import type { AuthService } from '@/features/auth/auth.service';
import { recordAudit, type AuditActor, type AuditChanges } from '@/features/audit/audit.service';
import type { WhatsAppService } from '@/features/whatsapp/whatsapp.service';
import type { SystemSample, SystemSampler } from './monitor.system';

export type MonitorService = ReturnType<typeof createMonitorService>;

/** The sampler's rhythm; tests quicken it. */
export type MonitorTiming = {
  /** How often figures and services are sampled. */
  intervalMs: number;
  /** The longest any one check may take; a check that takes longer is `timeout`. */
  checkTimeoutMs: number;
  /** How often the SMTP server is asked (a connection, a greeting and a sign-in each time). */
  mailEveryMs: number;
  /** How often an OpenAI-compatible provider is asked for its models. */
  aiEveryMs: number;
  /** How often the media kept is counted (a sum over the database's rows that hold a file). */
  storageEveryMs: number;
};

export const DEFAULT_MONITOR_TIMING: MonitorTiming = {
  intervalMs: 5_000,
  checkTimeoutMs: 3_000,
  mailEveryMs: 60_000,
  aiEveryMs: 60_000,
  storageEveryMs: 60_000,
};

/**
 * The longest a reading of the machine may take: its thread's first one waits half a second for a
 * CPU baseline, after the thread starts, on a machine that may be busy.
 */
const MACHINE_TIMEOUT_MS = 15_000;

/** A real reply that failed makes the provider `degraded` for this long, unless one succeeds since. */
const REPLY_FAILURE_WINDOW_MS = 5 * 60_000;

type Check = { status: ServiceStatus; details: MonitorServiceEntry['details'] };
type SampledService = Check & { name: MonitorServiceName; upSince: number | null };
type Sample = {
  at: Date;
  system: SystemSample;
  services: SampledService[];
  queues: MonitorQueue[];
  storage: MonitorStorage | null;
};

/** The machine's figures before any could be read. */
const NO_FIGURES: SystemSample = {
  performance: { cpu: 0, memory: 0, disk: 0, network: null },
  figures: {
    cpuCores: 1,
    loadAverage: 0,
    memoryUsedBytes: 0,
    memoryTotalBytes: 0,
    containerLimits: false,
    diskUsedBytes: 0,
    diskTotalBytes: 0,
    networkRxBytesPerSecond: 0,
    networkTxBytesPerSecond: 0,
    networkLinkBitsPerSecond: null,
  },
};

class CheckTimeout extends Error {
  override readonly name = 'CheckTimeout';
}

/**
 * The live system monitor: the machine's figures and each of our services, checked for real in the
 * background every `intervalMs` (started on ready, stopped on close), so that the status answers
 * from the latest sample and never waits on one (but the very first, taken at ready). Each check is
 * bounded by `checkTimeoutMs`; a check still running from before is waited for again rather than
 * started twice. How long each service has been up is kept in the shared state
 * (`monitor:up-since:<name>`), so every instance answers the same uptime.
 *
 * The quick actions do their work through the features that own it (auth, mail, WhatsApp) and
 * are recorded in the admin audit as `monitor.<action>`.
 */
export function createMonitorService({
  clock,
  state,
  logger,
  database,
  mailer,
  ai,
  whatsapp,
  auth,
  jobs,
  sockets,
  system,
  translate,
  timing: timingGiven,
}: {
  clock: Clock;
  state: SharedState;
  logger: FastifyBaseLogger;
  database: Pick<Database, 'kind' | 'ping' | 'db'>;
  mailer: Mailer;
  /** The provider in force now, and the cheap check of it (ai.providers.ts's probeProvider). */
  ai: {
    config: () => Promise<EngineConfig>;
    probe: (config: EngineConfig, options: { timeoutMs: number }) => Promise<ProviderProbe>;
  };
  whatsapp: Pick<WhatsAppService, 'connectionCounts' | 'reconnectBroken' | 'mediaUsage'>;
  auth: Pick<AuthService, 'removeExpiredSessionsAndCodes' | 'getProfile'>;
  /** The durable jobs' queues, counted in the database (every instance's). */
  jobs: Pick<Jobs, 'figures'>;
  /** The real-time sockets open on this instance. */
  sockets: () => number;
  system: SystemSampler;
  translate: (language: Language) => Translate;
  timing?: Partial<MonitorTiming>;
}) {
  const timing = { ...DEFAULT_MONITOR_TIMING, ...timingGiven };
  // An up-since mark outlives a few missed samples, and lapses once no instance samples any more.
  const upSinceTtlMs = Math.max(60_000, timing.intervalMs * 3);
  const instanceId = randomUUID();
  const inflight = new Map<string, Promise<unknown>>();
  let latest: Sample | undefined;
  let first: Promise<Sample> | undefined;
  let running: Promise<Sample> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  // The checks made less often than the samples: their latest result and when it was made.
  let mailCheck: { at: number; check: Check } | undefined;
  let aiCheck: { at: number; key: string; check: Check } | undefined;
  let lastReply: { at: number; key: string; outcome: ReplyOutcome } | undefined;
  let storageCount: { at: number; storage: MonitorStorage } | undefined;
  let aiKey = '';

  /**
   * `run`, bounded by the check timeout; while the previous run of `name` is still going (a
   * database that hangs), that one is waited for again instead of piling up another.
   */
  function bounded<T>(
    name: string,
    run: () => Promise<T>,
    timeoutMs = timing.checkTimeoutMs,
  ): Promise<T> {
    let pending = inflight.get(name) as Promise<T> | undefined;
    if (!pending) {
      const started = run();
      pending = started;
      const clear = () => {
        if (inflight.get(name) === started) inflight.delete(name);
      };
      started.then(clear, clear);
      inflight.set(name, started);
    }
    let deadline: NodeJS.Timeout | undefined;
    return Promise.race([
      pending,
      new Promise<never>((_resolve, reject) => {
        deadline = setTimeout(
          () => reject(new CheckTimeout(`${name}: no answer within ${timeoutMs} ms`)),
          timeoutMs,
        );
      }),
    ]).finally(() => clearTimeout(deadline));
  }

  /** `run`'s round trip in milliseconds, bounded. */
  async function timed(
    name: string,
    run: () => Promise<unknown>,
  ): Promise<{ value: unknown; latencyMs: number }> {
    const started = performance.now();
    const value = await bounded(name, run);
    return { value, latencyMs: Math.round((performance.now() - started) * 10) / 10 };
  }

  async function checkDatabase(): Promise<Check> {
    const kind = database.kind;
    try {
      const { value: answered, latencyMs } = await timed('database', () => database.ping());
      return answered
        ? { status: 'up', details: { kind, latencyMs } }
        : { status: 'down', details: { kind, error: 'unreachable' } };
    } catch (error) {
      return { status: 'down', details: { kind, error: errorCode(error) } };
    }
  }

  async function checkRedis(): Promise<Check> {
    const redis = state.redis!;
    try {
      const { latencyMs } = await timed('redis', () => redis.ping());
      return { status: 'up', details: { latencyMs } };
    } catch (error) {
      return { status: 'down', details: { error: errorCode(error) } };
    }
  }

  async function checkMail(): Promise<Check> {
    // Log mode is the default install's configuration (no SMTP_URL), not a fault: up, with its kind.
    if (mailer.kind === 'log') return { status: 'up', details: { kind: 'log' } };
    if (mailCheck && Date.now() - mailCheck.at < timing.mailEveryMs) return mailCheck.check;
    let check: Check;
    try {
      const { latencyMs } = await timed('mail', () => mailer.verify());
      check = { status: 'up', details: { kind: 'smtp', latencyMs } };
    } catch (error) {
      check = { status: 'down', details: { kind: 'smtp', error: errorCode(error) } };
    }
    mailCheck = { at: Date.now(), check };
    return check;
  }

  async function checkAi(): Promise<Check> {
    const config = await ai.config();
    if (config.provider === 'builtin') {
      aiKey = 'builtin';
      return { status: 'up', details: { kind: 'builtin' } };
    }
    // A new provider (or key) is asked at once: the previous one's answer says nothing of it.
    const key = JSON.stringify([config.baseUrl, config.apiKey ?? null]);
    aiKey = key;
    if (!aiCheck || aiCheck.key !== key || Date.now() - aiCheck.at >= timing.aiEveryMs) {
      let check: Check;
      try {
        const probe = await bounded('ai', () =>
          ai.probe(config, { timeoutMs: timing.checkTimeoutMs }),
        );
        check = probe.ok
          ? { status: 'up', details: { kind: 'openai', latencyMs: probe.latencyMs } }
          : { status: 'down', details: { kind: 'openai', error: providerErrorCode(probe.reason) } };
      } catch (error) {
        check = { status: 'down', details: { kind: 'openai', error: errorCode(error) } };
      }
      aiCheck = { at: Date.now(), key, check };
    }
    // It answers, but the replies people ask for fail: that is what they see.
    const reply = lastReply;
    if (
      aiCheck.check.status === 'up' &&
      reply &&
      reply.key === key &&
      !reply.outcome.ok &&
      Date.now() - reply.at < REPLY_FAILURE_WINDOW_MS
    ) {
      return {
        status: 'degraded',
        details: { ...aiCheck.check.details, error: 'replies-failing' },
      };
    }
    return aiCheck.check;
  }

  async function checkWhatsApp(): Promise<Check> {
    try {
      const { linked, connected } = await bounded('whatsapp', () => whatsapp.connectionCounts());
      return { status: connected < linked ? 'degraded' : 'up', details: { linked, connected } };
    } catch (error) {
      return { status: 'down', details: { error: errorCode(error) } };
    }
  }

  /**
   * The media kept, counted again once `storageEveryMs` has passed; as last counted (or null)
   * while the database cannot count it: the database's own check says why.
   */
  async function countStorage(): Promise<MonitorStorage | null> {
    if (storageCount && Date.now() - storageCount.at < timing.storageEveryMs)
      return storageCount.storage;
    try {
      const { files, bytes } = await bounded('storage', () => whatsapp.mediaUsage());
      storageCount = { at: Date.now(), storage: { mediaFiles: files, mediaBytes: bytes } };
      return storageCount.storage;
    } catch (error) {
      if (!stopped) logger.warn({ err: error }, 'monitor: the media kept could not be counted');
      return latest?.storage ?? null;
    }
  }

  /** Open sockets on every instance: each keeps its own count in the shared state, and reads them all. */
  async function checkSockets(): Promise<Check> {
    const local = sockets();
    try {
      const counts = await bounded('sockets', async () => {
        // Once stopped, this instance's entry is gone for good: not written back.
        if (!stopped)
          await state.setEntry('monitor:sockets', instanceId, String(local), upSinceTtlMs);
        return state.entries('monitor:sockets');
      });
      let connections = 0;
      for (const value of counts.values()) connections += Number(value) || 0;
      return { status: 'up', details: { connections } };
    } catch (error) {
      // Each instance still serves its own sockets; what the others hold is unknown.
      return { status: 'degraded', details: { connections: local, error: errorCode(error) } };
    }
  }

  /** When the service was first seen up in its current run, as every instance keeps it; null while down. */
  async function upSince(name: MonitorServiceName, status: ServiceStatus): Promise<number | null> {
    const key = `monitor:up-since:${name}`;
    const previous = latest?.services.find((service) => service.name === name)?.upSince ?? null;
    try {
      if (status === 'down') {
        await bounded(`up-since:${name}`, () => state.deleteValue(key));
        return null;
      }
      const kept = await bounded(`up-since:${name}`, () =>
        state.keepValue(key, String(clock.now().getTime()), upSinceTtlMs),
      );
      return Number(kept);
    } catch {
      // The shared state is away (Redis down): this instance's own view until it is back.
      return status === 'down' ? null : (previous ?? clock.now().getTime());
    }
  }

  async function takeSample(): Promise<Sample> {
    const checks: [MonitorServiceName, Promise<Check>][] = [
      ['database', checkDatabase()],
      ...(state.redis ? [['redis', checkRedis()] as [MonitorServiceName, Promise<Check>]] : []),
      ['mail', checkMail()],
      [
        'ai',
        checkAi().catch((error: unknown) => ({
          status: 'down' as const,
          details: { error: errorCode(error) },
        })),
      ],
      ['whatsapp', checkWhatsApp()],
      ['sockets', checkSockets()],
    ];
    const machine = bounded('system', () => system.sample(), MACHINE_TIMEOUT_MS).catch(
      (error: unknown) => {
        // The figures stay as last read (or none) rather than the whole sample failing. Once
        // stopped, the machine's thread is gone on purpose.
        if (!stopped) logger.warn({ err: error }, 'monitor: the machine figures could not be read');
        return latest?.system ?? NO_FIGURES;
      },
    );
    const queues = bounded('jobs', () => jobs.figures()).then(
      (figures) =>
        figures.map(({ queue, waiting, active, failedLastHour }) => ({
          name: queue,
          waiting,
          active,
          failedLastHour,
        })),
      (error: unknown) => {
        // As last counted (or none): the database's own check says why.
        if (!stopped) logger.warn({ err: error }, 'monitor: the job queues could not be counted');
        return latest?.queues ?? [];
      },
    );
    const [systemFigures, queueFigures, storage, ...results] = await Promise.all([
      machine,
      queues,
      countStorage(),
      ...checks.map(([, check]) => check),
    ]);
    const services: SampledService[] = await Promise.all(
      checks.map(async ([name], index) => {
        const check = results[index]!;
        return { name, ...check, upSince: await upSince(name, check.status) };
      }),
    );
    const sample: Sample = {
      at: clock.now(),
      system: systemFigures,
      services,
      queues: queueFigures,
      storage,
    };
    if (!stopped) latest = sample;
    return sample;
  }

  /** A sample now, unless one is being taken: then that one. */
  function sampleNow(): Promise<Sample> {
    running ??= takeSample().finally(() => (running = undefined));
    return running;
  }

  /** Starts sampling: the first sample at once, then every `intervalMs`. Called on ready. */
  function start(): void {
    if (first || stopped) return;
    first = sampleNow();
    first.catch((error: unknown) =>
      logger.error({ err: error }, 'monitor: the first sample failed'),
    );
    timer = setInterval(() => {
      if (running) return;
      sampleNow().catch((error: unknown) =>
        logger.warn({ err: error }, 'monitor: a sample failed'),
      );
    }, timing.intervalMs);
    timer.unref();
  }

  /**
   * Stops sampling and the machine's thread; this instance's sockets leave the shared count. A
   * sample under way is not waited for (its checks may take seconds to time out, and a closing
   * app has no use for it): it settles by itself, every check's failure caught, and is dropped.
   */
  async function stop(): Promise<void> {
    stopped = true;
    clearInterval(timer);
    await system.close();
    await state.deleteEntry('monitor:sockets', instanceId).catch(() => {});
  }

  /** The latest sample as the status call answers it; uptimes as of now. */
  async function status(): Promise<MonitorStatus> {
    const sample = latest ?? (await (first ?? sampleNow()));
    const now = clock.now().getTime();
    return {
      systemStatus: overall(sample.services),
      services: sample.services.map(({ name, status: serviceStatus, details, upSince: since }) => ({
        name,
        status: serviceStatus,
        uptime: since === null ? null : Math.max(0, Math.floor((now - since) / 1000)),
        details,
      })),
      performance: sample.system.performance,
      figures: { ...sample.system.figures, processUptimeSeconds: Math.floor(process.uptime()) },
      queues: sample.queues,
      storage: sample.storage,
      lastUpdate: sample.at.toISOString(),
    };
  }

  /** The latest sample's figures for the Prometheus gauges; undefined before the first. */
  function latestServices(): readonly SampledService[] | undefined {
    return latest?.services;
  }

  /** The media kept, as the latest sample counted it; undefined before it was first counted. */
  function latestStorage(): MonitorStorage | undefined {
    return latest?.storage ?? undefined;
  }

  /** Told how each real reply through the provider ended (createConfiguredEngine's onReply). */
  function observeReply(outcome: ReplyOutcome): void {
    if (outcome.provider !== 'openai') return;
    lastReply = { at: Date.now(), key: aiKey, outcome };
  }

  // ---- Quick actions ----

  /** The admin who asks, and how the audit names them (who, from where, in which request). */
  type Caller = { user: User; actor: AuditActor };

  /** Records a quick action that changed nothing in the database but its audit record. */
  const recordAction = (actor: AuditActor, action: string, target: string, changes: AuditChanges) =>
    database.db.transaction((tx) =>
      recordAudit(tx, { actor, at: clock.now(), action, target, changes }),
    );

  /** Removes the sessions and e-mail codes nobody can use any more; recorded in the same transaction. */
  async function cleanupSessions({ actor }: Caller): Promise<MonitorActionResponse> {
    const removed = await auth.removeExpiredSessionsAndCodes({ actor });
    return { success: true, action: 'cleanup-sessions', removed };
  }

  /** Mails the calling admin a test message in their language (or writes it to the log in "log" mode). */
  async function testEmail({
    user,
    actor,
    language,
    timeZone,
  }: Caller & { language: Language; timeZone: string }): Promise<MonitorActionResponse> {
    const profile = await auth.getProfile({ user, language });
    const t = translate(profile.language);
    const time = new Intl.DateTimeFormat(profile.language, {
      dateStyle: 'long',
      timeStyle: 'medium',
      timeZone,
    }).format(clock.now());
    try {
      await mailer.send({
        to: user.email,
        subject: t('mail.testSubject'),
        text: t('mail.testText', { name: profile.user.name, time }),
      });
    } catch (error) {
      throw mailUnavailable({ cause: error });
    }
    await recordAction(actor, 'monitor.test-email', user.email, {
      mode: { before: null, after: mailer.kind },
    });
    // The mail check has news: the next sample asks again.
    mailCheck = undefined;
    return { success: true, action: 'test-email', to: user.email, mode: mailer.kind };
  }

  /** Asks every linked WhatsApp account whose connection failed or closed to connect again. */
  async function reconnectWhatsApp({ actor }: Caller): Promise<MonitorActionResponse> {
    const { reconnected } = await whatsapp.reconnectBroken();
    await recordAction(actor, 'monitor.reconnect-whatsapp', 'whatsapp', {
      reconnected: { before: null, after: reconnected },
    });
    return { success: true, action: 'reconnect-whatsapp', reconnected };
  }

  return {
    start,
    stop,
    status,
    latestServices,
    latestStorage,
    observeReply,
    cleanupSessions,
    testEmail,
    reconnectWhatsApp,
  };
}

/** down when the database is down (nothing works without it); degraded when anything else is not up. */
function overall(
  services: readonly { name: MonitorServiceName; status: ServiceStatus }[],
): SystemStatus {
  if (services.some((service) => service.name === 'database' && service.status === 'down'))
    return 'down';
  return services.every((service) => service.status === 'up') ? 'healthy' : 'degraded';
}

/**
 * A short code of why a check failed, for the page to word: `timeout`, `refused`, `dns`, `auth`,
 * `unreachable`. Never the error's own text (a server's answer may quote anything).
 */
function errorCode(error: unknown): string {
  if (error instanceof CheckTimeout) return 'timeout';
  for (
    let current: unknown = error, depth = 0;
    current && typeof current === 'object' && depth < 4;
    depth += 1
  ) {
    const code = (current as { code?: unknown }).code;
    if (code === 'ECONNREFUSED') return 'refused';
    if (code === 'ENOTFOUND' || code === 'EAI_AGAIN' || code === 'EDNS') return 'dns';
    if (code === 'EAUTH' || code === 'NOAUTH' || code === 'WRONGPASS') return 'auth';
    if (code === 'ETIMEDOUT' || code === 'ETIME') return 'timeout';
    current = (current as { cause?: unknown }).cause;
  }
  const message = error instanceof Error ? error.message : '';
  if (/ECONNREFUSED/.test(message)) return 'refused';
  if (/NOAUTH|WRONGPASS/.test(message)) return 'auth';
  return 'unreachable';
}

/** A provider's failure as the monitor's codes. */
function providerErrorCode(reason: EngineFailureReason): string {
  switch (reason) {
    case 'timeout':
      return 'timeout';
    case 'redirect':
      return 'redirect';
    case 'status-401':
      return 'auth';
    case 'status-429':
      return 'rate-limited';
    case 'status-4xx':
      return 'http-4xx';
    case 'status-5xx':
      return 'http-5xx';
    default:
      return 'unreachable';
  }
}
