import type { Server } from 'node:http';
import type { Agent } from 'node:https';
import path from 'node:path';
import type { FastifyBaseLogger, FastifyHttpOptions } from 'fastify';
import type { Redis } from 'ioredis';
import type { Language, MonitorAction } from '@contrateia/shared';
import type { Database } from '@/db/client';
import type { Clock } from '@/lib/clock';
import type { EventHub } from '@/lib/event-hub';
import type { Translate } from '@/lib/i18n';
import { lazyChildLoggerFactory } from '@/lib/logger';
import type { Mailer } from '@/lib/mail';
import { OneLinePerRequest } from '@/lib/request-log';
import type { SharedState } from '@/lib/shared-state';
import type { WorkGate } from '@/lib/work-gate';
import type { AuthRouteLimits } from '@/features/auth/auth.routes';
import type { CodeLimits, LoginLimits } from '@/features/auth/auth.throttle';
import type { EngineConfig } from '@/features/ai/ai.service';
import type { RetentionOptions } from '@/features/logs/logs.service';
import type { WriterLimits } from '@/features/logs/logs.writer';
import type { CgroupPaths } from '@/features/monitor/monitor.cgroup';
import type { MonitorTiming } from '@/features/monitor/monitor.service';
import type { DEFAULT_CONTACT_LIMIT, Pacing } from '@/features/whatsapp/whatsapp.service';
import { clientErrorHandler, frameworkErrorHandler } from '@/plugins/errors';

export const BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * How long a client may take to send a whole request, and its headers. A client that sends
 * slowly (by accident or to hold sockets open) is answered 408 and its connection closed. They
 * bound receiving the request only: a response may take as long as it needs (a streamed reply).
 */
export const DEFAULT_TIMEOUTS = { requestMs: 60_000, headersMs: 20_000 };

/**
 * What buildApp is given: the parsed configuration (main.ts), and what tests put in its place
 * (a database of their own, a movable clock, quicker rhythms, an event hub to watch).
 */
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
  /**
   * Where WhatsApp's received files are kept (DATA_DIR/media), shared by every instance like the
   * images; needed with the WhatsApp module.
   */
  mediaDir?: string;
  /** The image library's decoding gate (tests hold its slots); IMAGE_DECODING's otherwise. */
  imageDecoding?: WorkGate;
  /** How long one own agent's document may take to read (DOCUMENT_READ_TIMEOUT_MS); tests shorten it. */
  documentReadTimeoutMs?: number;
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
    /** WHATSAPP_PLATFORM_ACCOUNT: whose number is the platform's (the first admin when absent). */
    platformAccount?: string;
    /** How Baileys reaches the media hosts it uploads sent files to (tests: their fake WhatsApp's). */
    mediaUploadAgent?: Agent;
    /** How Baileys fetches received files from the media hosts (tests: their fake WhatsApp's). */
    mediaDownloadDispatcher?: RequestInit['dispatcher'];
    qr?: { refreshMs: number; limit: number };
    /** The most waiting messages the sandbox hands over in one event on connect (tests make it small). */
    sandboxOfflineBatch?: number;
    /** SANDBOX_SECRET: opens every sandbox phone's routes (`X-Sandbox-Secret`); without it only the linked account's session does. */
    sandboxSecret?: string;
    /** WHATSAPP_CATCHUP_MINUTES: how old a message delivered on connect may be and still be answered. */
    catchupMinutes?: number;
    /** WHATSAPP_TAKEOVER_MINUTES: how long a message of the owner to a contact pauses its agent (0: never). */
    takeoverMinutes?: number;
    /** WHATSAPP_DEBOUNCE_MS, WHATSAPP_TYPING_MS_PER_CHAR and WHATSAPP_SENDS_PER_MINUTE (production's defaults when absent). */
    pacing?: Partial<Pacing>;
    /** WHATSAPP_MEDIA_MAX_MB (in bytes) and WHATSAPP_MEDIA_RETENTION_DAYS (their defaults when absent). */
    media?: { maxBytes?: number; retentionDays?: number; downloadTimeoutMs?: number };
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
  /**
   * Feature modules a test does without (a chat suite needs no monitor sampling in a thread of its
   * own). Fastify refuses to start when a module left in depends on one left out (the monitor
   * checks WhatsApp; the admin panel names images).
   */
  without?: readonly OptionalModule[];
};

/** The feature modules nothing else needs to start. */
export type OptionalModule = 'whatsapp' | 'images' | 'monitor' | 'admin';

/** The most a module's start may take before the app gives up starting. */
const PLUGIN_TIMEOUT_MS = 60_000;

/** WhatsApp's files: DATA_DIR/media beside DATA_DIR/images, when not given. */
export function mediaDirOf(deps: Pick<AppDeps, 'mediaDir' | 'imagesDir'>): string {
  return deps.mediaDir ?? path.join(path.dirname(deps.imagesDir), 'media');
}

/** The Fastify server's own options: timeouts, body limit, logging, and errors before any route. */
export function serverOptions(
  deps: AppDeps,
  translate: (language: Language) => Translate,
): FastifyHttpOptions<Server, FastifyBaseLogger> {
  const timeouts = { ...DEFAULT_TIMEOUTS, ...deps.timeouts };
  return {
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
    // The closing plugin answers requests that arrive while closing, in the API's error shape.
    return503OnClosing: false,
    // How long a module's start may take (its ready hook: the jobs' start, the monitor's thread,
    // the WhatsApp accounts' reconnect). Fastify's 10 s was once too short for the embedded
    // database on a machine whose cores two test runs shared: a slow start is still a start.
    pluginTimeout: PLUGIN_TIMEOUT_MS,
    routerOptions: { maxParamLength: 200 },
    // What fails before any route or hook runs is answered in the API's error shape too.
    frameworkErrors: frameworkErrorHandler(translate),
    clientErrorHandler: clientErrorHandler(translate, deps.logger),
  };
}
