import { z } from 'zod';

/**
 * The live system monitor (GET /api/monitor/status). Admins only. Figures are sampled in the
 * background: the call never waits on the sampling.
 */

export const SYSTEM_STATUSES = ['healthy', 'degraded', 'down'] as const;
export type SystemStatus = (typeof SYSTEM_STATUSES)[number];

/** Our services, each checked for real; `redis` only when configured. */
export const MONITOR_SERVICES = ['database', 'redis', 'mail', 'ai', 'whatsapp', 'sockets'] as const;
export type MonitorServiceName = (typeof MONITOR_SERVICES)[number];

/**
 * up: works as configured (mail in "log" mode is up: it is the default install's configuration,
 * shown by its `kind`); degraded: works in part or in a fallback mode; down: fails.
 */
export const SERVICE_STATUSES = ['up', 'degraded', 'down'] as const;
export type ServiceStatus = (typeof SERVICE_STATUSES)[number];

export const monitorServiceSchema = z.object({
  name: z.enum(MONITOR_SERVICES),
  status: z.enum(SERVICE_STATUSES),
  /** Seconds since the service was last seen come up (null while down). */
  uptime: z.number().nonnegative().nullable(),
  /**
   * What the check found, as figures and codes the page words in the user's language:
   * - kind: database `pglite` | `postgres`; mail `smtp` | `log`; ai `builtin` | `openai`;
   * - latencyMs: the check's round trip (database, redis, mail, ai);
   * - linked / connected: WhatsApp accounts with a linked number / with an open connection;
   * - connections: open real-time sockets, on every instance together;
   * - error: a short code of why it is down or degraded, never a provider's text: `timeout`,
   *   `refused`, `dns`, `auth` (credentials or key refused), `unreachable`, `rate-limited`,
   *   `http-4xx`, `http-5xx`, `redirect` (the AI provider's answer; a redirect is never
   *   followed), `replies-failing` (the AI provider
   *   answers its check but real replies fail).
   */
  details: z.object({
    kind: z.string().optional(),
    latencyMs: z.number().nonnegative().optional(),
    linked: z.number().int().nonnegative().optional(),
    connected: z.number().int().nonnegative().optional(),
    connections: z.number().int().nonnegative().optional(),
    error: z.string().optional(),
  }),
});
export type MonitorService = z.infer<typeof monitorServiceSchema>;

const percent = z.number().min(0).max(100);

const count = z.number().int().nonnegative();

/**
 * One queue of the server's durable jobs (WhatsApp replies, the stored log's retention, the
 * clean-up of sessions and codes), on every instance together: its jobs waiting (due or not),
 * running now, and failed for good in the last hour.
 */
export const monitorQueueSchema = z.object({
  name: z.string(),
  waiting: count,
  active: count,
  failedLastHour: count,
});
export type MonitorQueue = z.infer<typeof monitorQueueSchema>;

/**
 * The WhatsApp files kept under DATA_DIR/media, every instance's together (they share one
 * database and one DATA_DIR): how many and their bytes, as their messages recorded them. Counted
 * in the database less often than the samples (once a minute).
 */
export const monitorStorageSchema = z.object({
  mediaFiles: count,
  mediaBytes: z.number().nonnegative(),
});
export type MonitorStorage = z.infer<typeof monitorStorageSchema>;

export const monitorStatusSchema = z.object({
  systemStatus: z.enum(SYSTEM_STATUSES),
  services: z.array(monitorServiceSchema),
  /** Percents (0–100); network null when the link's speed is unknown. */
  performance: z.object({
    cpu: percent,
    memory: percent,
    disk: percent,
    network: percent.nullable(),
  }),
  /** The figures behind the percents. */
  figures: z.object({
    cpuCores: z.number().int().positive(),
    /** 1-minute load average (0 where the OS has none). */
    loadAverage: z.number().nonnegative(),
    memoryUsedBytes: z.number().nonnegative(),
    memoryTotalBytes: z.number().nonnegative(),
    /** True when memory and CPU are the container's cgroup limits rather than the machine's. */
    containerLimits: z.boolean(),
    diskUsedBytes: z.number().nonnegative(),
    diskTotalBytes: z.number().nonnegative(),
    networkRxBytesPerSecond: z.number().nonnegative(),
    networkTxBytesPerSecond: z.number().nonnegative(),
    /** Link speed in bits per second, when known. */
    networkLinkBitsPerSecond: z.number().positive().nullable(),
    processUptimeSeconds: z.number().nonnegative(),
  }),
  /** The job queues, by name. */
  queues: z.array(monitorQueueSchema),
  /** The media kept; null until first counted (or while the database cannot count it). */
  storage: monitorStorageSchema.nullable(),
  /** ISO time of the sample. */
  lastUpdate: z.string(),
});
export type MonitorStatus = z.infer<typeof monitorStatusSchema>;

/** The refresh options in seconds; 30 s by default. */
export const MONITOR_REFRESH_SECONDS = [10, 30, 60, 300] as const;
export const MONITOR_REFRESH_DEFAULT_SECONDS = 30;

/** The quick actions: POST /api/monitor/actions/{action}, each confirmed on the page first. */
export const MONITOR_ACTIONS = ['cleanup-sessions', 'test-email', 'reconnect-whatsapp'] as const;
export type MonitorAction = (typeof MONITOR_ACTIONS)[number];

export const monitorActionResponseSchema = z.discriminatedUnion('action', [
  /** Expired sessions and used or expired e-mail codes removed. */
  z.object({
    success: z.literal(true),
    action: z.literal('cleanup-sessions'),
    removed: z.object({ sessions: z.number().int(), codes: z.number().int() }),
  }),
  /** A test e-mail sent to the calling admin's address (or written to the log in "log" mode). */
  z.object({
    success: z.literal(true),
    action: z.literal('test-email'),
    to: z.string(),
    mode: z.enum(['smtp', 'log']),
  }),
  /** Linked WhatsApp accounts whose connection had failed or closed, asked to connect again. */
  z.object({
    success: z.literal(true),
    action: z.literal('reconnect-whatsapp'),
    reconnected: z.number().int(),
  }),
]);
export type MonitorActionResponse = z.infer<typeof monitorActionResponseSchema>;
