import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_BRAND_DOMAINS } from '@contrateia/shared';

/**
 * The only reader of process.env. Parsed once at start; a bad value stops the process with one
 * line naming the variable (see main.ts).
 */
const urlWithProtocols = (protocols: string[], example: string) =>
  z
    .string()
    .trim()
    .refine((value) => {
      try {
        return protocols.includes(new URL(value).protocol);
      } catch {
        return false;
      }
    }, `must be a URL like ${example}`);

/**
 * The public origin of every link the server hands out: scheme, host and port, nothing else (a
 * path or a query would be glued to every link). Given with or without a trailing slash.
 */
const publicOrigin = z
  .string()
  .trim()
  .refine((value) => {
    try {
      const url = new URL(value);
      return (
        ['http:', 'https:'].includes(url.protocol) &&
        !url.username &&
        !url.password &&
        url.pathname === '/' &&
        !url.search &&
        !url.hash &&
        !/[?#]/.test(value)
      );
    } catch {
      return false;
    }
  }, 'must be an origin like https://contrateia.com.br, with no path, query or credentials')
  .transform((value) => new URL(value).origin);

/** A whole number in [min, max]; `error` names what it must be, `rangeError` (when given) its range. */
const wholeNumber = (min: number, max: number, error: string, rangeError?: string) =>
  z.coerce
    .number({ error })
    .int(error)
    .min(min, rangeError ?? `must be at least ${min}`)
    .max(max, rangeError ?? `must be at most ${max}`);

const PORT_ERROR = 'must be a port number (0-65535)';

const envSchema = z.object({
  PORT: wholeNumber(0, 65535, PORT_ERROR, PORT_ERROR).default(3000),
  HOST: z.string().trim().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().trim().min(1).default('./data'),
  DATABASE_URL: urlWithProtocols(
    ['postgres:', 'postgresql:'],
    'postgres://user@host:5432/db',
  ).optional(),
  REDIS_URL: urlWithProtocols(['redis:', 'rediss:'], 'redis://127.0.0.1:6379').optional(),
  SMTP_URL: urlWithProtocols(['smtp:', 'smtps:'], 'smtp://user:pass@host:587').optional(),
  MAIL_FROM: z.string().trim().min(3).default('ContrateIA <no-reply@contrateia.com.br>'),
  JWT_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
  BRAND_DOMAINS: z
    .string()
    .trim()
    .regex(
      /^(pt-BR|en-US|es-ES)=[a-z0-9.-]+(,(pt-BR|en-US|es-ES)=[a-z0-9.-]+)*$/i,
      'must look like pt-BR=contrateia.com.br,en-US=hireyourai.com,es-ES=hireyourai.com',
    )
    .default(DEFAULT_BRAND_DOMAINS),
  PUBLIC_URL: publicOrigin.optional(),
  AI_PROVIDER: z
    .enum(['builtin', 'openai'], { error: 'must be builtin or openai' })
    .default('builtin'),
  AI_BASE_URL: urlWithProtocols(['http:', 'https:'], 'http://127.0.0.1:11434/v1').optional(),
  AI_API_KEY: z.string().optional(),
  AI_MODEL: z.string().trim().min(1).optional(),
  AI_TIMEOUT_MS: wholeNumber(1000, 600_000, 'must be a number of milliseconds').default(60_000),
  // The provider's speech-to-text model for voice notes; without it they are not transcribed.
  AI_TRANSCRIPTION_MODEL: z
    .string()
    .trim()
    .max(200, 'must be at most 200 characters')
    .regex(/^[A-Za-z0-9._\-/:@+]+$/, 'must be a model name such as whisper-1, without spaces')
    .optional(),
  // Whether AI_MODEL can see images (contacts' photos go to it).
  AI_VISION: z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .default('false')
    .transform((v) => v === 'true'),
  WHATSAPP_TRANSPORT: z
    .enum(['baileys', 'sandbox'], { error: 'must be baileys or sandbox' })
    .default('baileys'),
  WHATSAPP_WS_URL: urlWithProtocols(['ws:', 'wss:'], 'wss://web.whatsapp.com/ws/chat').optional(),
  // The account whose number carries what the platform itself sends (auxtrat's Sync Agent).
  WHATSAPP_PLATFORM_ACCOUNT: z
    .email({ error: 'must be the e-mail address of an account' })
    .max(254, 'must be at most 254 characters')
    .optional(),
  CHAT_LIMIT_PER_MINUTE: wholeNumber(1, 100_000, 'must be a whole number').default(30),
  WHATSAPP_CONTACT_LIMIT_PER_MINUTE: wholeNumber(1, 100_000, 'must be a whole number').default(20),
  WHATSAPP_SEND_LIMIT_PER_MINUTE: wholeNumber(1, 100_000, 'must be a whole number').default(30),
  // A week at most: past that an answer is no answer.
  WHATSAPP_CATCHUP_MINUTES: wholeNumber(0, 10_080, 'must be a whole number of minutes').default(10),
  // How long the owner's own message pauses the agent in that conversation; 0: never. A week at most.
  WHATSAPP_TAKEOVER_MINUTES: wholeNumber(0, 10_080, 'must be a whole number of minutes').default(
    30,
  ),
  // A minute at most: a contact waits that long for an answer to their last message.
  WHATSAPP_DEBOUNCE_MS: wholeNumber(0, 60_000, 'must be a number of milliseconds').default(2500),
  WHATSAPP_TYPING_MS_PER_CHAR: wholeNumber(0, 1000, 'must be a number of milliseconds').default(30),
  WHATSAPP_SENDS_PER_MINUTE: wholeNumber(1, 10_000, 'must be a whole number').default(40),
  // Files are read whole into memory to check them, two at a time: kept within what that allows.
  WHATSAPP_MEDIA_MAX_MB: wholeNumber(
    1,
    100,
    'must be a whole number of megabytes',
    'must be from 1 to 100 MB',
  ).default(16),
  WHATSAPP_MEDIA_RETENTION_DAYS: wholeNumber(
    1,
    3650,
    'must be a whole number of days',
    'must be from 1 to 3650 days',
  ).default(90),
  SANDBOX_INBOUND_PER_MINUTE: wholeNumber(1, 1_000_000, 'must be a whole number').default(600),
  // Opens every sandbox phone's control routes: long enough that guessing it is out of the question.
  SANDBOX_SECRET: z.string().trim().min(16, 'must be at least 16 characters').optional(),
  // A scraper's secret: long enough that guessing it is out of the question.
  METRICS_TOKEN: z
    .string()
    .trim()
    .min(16, 'must be at least 16 characters')
    .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces')
    .optional(),
  LOG_RETENTION_DAYS: wholeNumber(
    1,
    3650,
    'must be a whole number of days',
    'must be from 1 to 3650 days',
  ).default(30),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: z
    .enum(['true', 'false'], { error: 'must be true or false' })
    .default('false')
    .transform((v) => v === 'true'),
});

/** Every variable loadConfig reads. */
export const CONFIG_VARIABLES = Object.keys(envSchema.shape) as (keyof typeof envSchema.shape)[];

export type Config = {
  port: number;
  host: string;
  dataDir: string;
  /** The image library's files: DATA_DIR/images (shared by every instance, like the database). */
  imagesDir: string;
  /** WhatsApp's received files: DATA_DIR/media (shared by every instance, like the images). */
  mediaDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  jwtSecret: string | undefined;
  brandDomains: string;
  /** The origin every link the server hands out starts with (PUBLIC_URL); never a request's Host. */
  publicUrl: string;
  ai: {
    provider: 'builtin' | 'openai';
    baseUrl?: string;
    apiKey?: string;
    model?: string;
    timeoutMs: number;
    /** AI_TRANSCRIPTION_MODEL: the provider's speech-to-text model; none when absent. */
    transcriptionModel?: string;
    /** AI_VISION: the chat model sees images. */
    vision: boolean;
  };
  /** Chat messages one user may send per minute. */
  chatLimitPerMinute: number;
  /** What carries WhatsApp: the real protocol, or the sandbox that simulates it; and Baileys' WebSocket server, when not WhatsApp's own. */
  whatsapp: { transport: 'baileys' | 'sandbox'; wsUrl?: string; platformAccount?: string };
  /** Messages one WhatsApp contact may write to an account per minute before it is blocked for a while. */
  whatsappContactLimitPerMinute: number;
  /** Messages one owner may send by hand from the WhatsApp page per minute. */
  whatsappSendLimitPerMinute: number;
  /** How old, in minutes, a WhatsApp message delivered on connect may be and still be answered. */
  whatsappCatchupMinutes: number;
  /** WHATSAPP_TAKEOVER_MINUTES: how long a message of the owner to a contact pauses its agent (0: never). */
  whatsappTakeoverMinutes: number;
  /**
   * How a WhatsApp number answers like a person: a contact's burst answered once after this many
   * ms of quiet (0: each message at once); the typing wait per character of a reply (0: none);
   * the sends of one number per minute (agent's and owner's).
   */
  whatsappPacing: { debounceMs: number; typingMsPerChar: number; sendsPerMinute: number };
  /**
   * WhatsApp's files: the largest kept (WHATSAPP_MEDIA_MAX_MB; a larger one is kept as a
   * placeholder with its size), and how many days a file is kept (WHATSAPP_MEDIA_RETENTION_DAYS).
   */
  whatsappMedia: { maxBytes: number; retentionDays: number };
  /** The sandbox's control API: contacts' messages one IP may post per minute, and the secret that opens every phone's routes. */
  sandbox: { inboundPerMinute: number; secret: string | undefined };
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  /** How many days stored log events are kept (the Logs page). */
  logRetentionDays: number;
  trustProxy: boolean;
  /** The bearer token that opens `GET /metrics` (METRICS_TOKEN); without it there is no such route. */
  metricsToken: string | undefined;
};

const SHOWABLE = new Set([
  'PORT',
  'HOST',
  'LOG_LEVEL',
  'TRUST_PROXY',
  'BRAND_DOMAINS',
  'AI_PROVIDER',
  'AI_TIMEOUT_MS',
  'AI_MODEL',
  'AI_TRANSCRIPTION_MODEL',
  'AI_VISION',
  'CHAT_LIMIT_PER_MINUTE',
  'WHATSAPP_CONTACT_LIMIT_PER_MINUTE',
  'WHATSAPP_SEND_LIMIT_PER_MINUTE',
  'WHATSAPP_CATCHUP_MINUTES',
  'WHATSAPP_TAKEOVER_MINUTES',
  'WHATSAPP_DEBOUNCE_MS',
  'WHATSAPP_TYPING_MS_PER_CHAR',
  'WHATSAPP_SENDS_PER_MINUTE',
  'WHATSAPP_MEDIA_MAX_MB',
  'WHATSAPP_MEDIA_RETENTION_DAYS',
  'SANDBOX_INBOUND_PER_MINUTE',
  'WHATSAPP_TRANSPORT',
  'WHATSAPP_PLATFORM_ACCOUNT',
  'LOG_RETENTION_DAYS',
]);

export class ConfigError extends Error {}

/** Reads the configuration from an environment; throws ConfigError with one readable line. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable means "not set", as in most shells' `VAR= cmd`.
  const present = Object.fromEntries(
    Object.entries(env).filter(([, v]) => v !== undefined && v !== ''),
  );
  const result = envSchema.safeParse(present);
  if (!result.success) {
    const issue = result.error.issues[0];
    const name = String(issue?.path[0] ?? 'environment');
    // Never echo values that may hold credentials (URLs, the secret).
    const shown =
      SHOWABLE.has(name) && present[name] !== undefined
        ? ` (got ${JSON.stringify(String(present[name]).slice(0, 60))})`
        : '';
    throw new ConfigError(
      `Invalid configuration: ${name} ${issue?.message ?? 'is invalid'}${shown}`,
    );
  }
  const e = result.data;
  // Each instance would otherwise sign with a key of its own, and sign out every user whose next
  // request reaches another instance.
  if (e.DATABASE_URL && !e.JWT_SECRET) {
    throw new ConfigError(
      'Invalid configuration: JWT_SECRET is required when DATABASE_URL is set (every instance sharing the database must sign tokens with the same key)',
    );
  }
  for (const name of ['AI_BASE_URL', 'AI_MODEL'] as const) {
    if (e.AI_PROVIDER === 'openai' && !e[name]) {
      throw new ConfigError(`Invalid configuration: ${name} is required when AI_PROVIDER=openai`);
    }
  }
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: path.resolve(e.DATA_DIR),
    imagesDir: path.join(path.resolve(e.DATA_DIR), 'images'),
    mediaDir: path.join(path.resolve(e.DATA_DIR), 'media'),
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    jwtSecret: e.JWT_SECRET,
    brandDomains: e.BRAND_DOMAINS,
    publicUrl: e.PUBLIC_URL ?? `http://localhost:${e.PORT}`,
    ai: {
      provider: e.AI_PROVIDER,
      baseUrl: e.AI_BASE_URL,
      apiKey: e.AI_API_KEY,
      model: e.AI_MODEL,
      timeoutMs: e.AI_TIMEOUT_MS,
      transcriptionModel: e.AI_TRANSCRIPTION_MODEL,
      vision: e.AI_VISION,
    },
    chatLimitPerMinute: e.CHAT_LIMIT_PER_MINUTE,
    whatsapp: {
      transport: e.WHATSAPP_TRANSPORT,
      wsUrl: e.WHATSAPP_WS_URL,
      platformAccount: e.WHATSAPP_PLATFORM_ACCOUNT,
    },
    whatsappContactLimitPerMinute: e.WHATSAPP_CONTACT_LIMIT_PER_MINUTE,
    whatsappSendLimitPerMinute: e.WHATSAPP_SEND_LIMIT_PER_MINUTE,
    whatsappCatchupMinutes: e.WHATSAPP_CATCHUP_MINUTES,
    whatsappTakeoverMinutes: e.WHATSAPP_TAKEOVER_MINUTES,
    whatsappPacing: {
      debounceMs: e.WHATSAPP_DEBOUNCE_MS,
      typingMsPerChar: e.WHATSAPP_TYPING_MS_PER_CHAR,
      sendsPerMinute: e.WHATSAPP_SENDS_PER_MINUTE,
    },
    whatsappMedia: {
      maxBytes: e.WHATSAPP_MEDIA_MAX_MB * 1024 * 1024,
      retentionDays: e.WHATSAPP_MEDIA_RETENTION_DAYS,
    },
    sandbox: { inboundPerMinute: e.SANDBOX_INBOUND_PER_MINUTE, secret: e.SANDBOX_SECRET },
    logLevel: e.LOG_LEVEL,
    logRetentionDays: e.LOG_RETENTION_DAYS,
    trustProxy: e.TRUST_PROXY,
    metricsToken: e.METRICS_TOKEN,
  };
}
