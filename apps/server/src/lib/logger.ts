import type { FastifyBaseLogger } from 'fastify';
import type { FastifyChildLoggerFactory } from 'fastify/types/logger';
import type { Bindings, ChildLoggerOptions, LogFn, Logger, LoggerOptions } from 'pino';

/**
 * Paths pino blanks in every log line. Requests are logged by method and URL only, but a handler
 * or an error may log an object holding one of these; none may ever reach a log.
 */
export const REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'headers.authorization',
  '*.password',
  '*.confirmPassword',
  '*.otp',
  '*.code',
  '*.token',
  '*.passwordHash',
  'password',
  'otp',
  'token',
];

export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
  };
}

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
const LEVELS: readonly Level[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'];
/** A Fastify logger that can say which levels it writes, as pino's can. */
type LevelAware = FastifyBaseLogger & Pick<Logger, 'isLevelEnabled'>;

/**
 * Fastify gives every request a child logger bound to its id. Most requests never log through it
 * (their one completion line has a logger of its own, see app.ts), yet making the child (pino
 * copying its parent and serializing the binding) was a few per cent of a simple request. This
 * one is made only when a line at an enabled level is logged, or a child or level is asked for,
 * and then logs exactly as the eager child would.
 */
class LazyChildLogger implements FastifyBaseLogger {
  // One shared function per level, set on the prototype below.
  declare fatal: LogFn;
  declare error: LogFn;
  declare warn: LogFn;
  declare info: LogFn;
  declare debug: LogFn;
  declare trace: LogFn;
  #child: FastifyBaseLogger | undefined;

  constructor(
    private readonly parent: LevelAware,
    private readonly bindings: Bindings,
    private readonly options: ChildLoggerOptions,
  ) {}

  real(): FastifyBaseLogger {
    return (this.#child ??= this.parent.child(this.bindings, this.options));
  }

  /** Whether a line at this level would be written; asks the parent while there is no child. */
  isLevelEnabled(level: Level): boolean {
    return this.#child ? isLevelEnabled(this.#child, level) : this.parent.isLevelEnabled(level);
  }

  get level(): string {
    return this.#child?.level ?? this.parent.level;
  }

  set level(level: string) {
    this.real().level = level;
  }

  child(bindings: Bindings, options?: ChildLoggerOptions): FastifyBaseLogger {
    return this.real().child(bindings, options);
  }

  silent(): void {}
}

for (const level of LEVELS) {
  LazyChildLogger.prototype[level] = function (this: LazyChildLogger, ...args: Parameters<LogFn>) {
    if (this.isLevelEnabled(level)) this.real()[level](...args);
  } as LogFn;
}

/**
 * Fastify's `childLoggerFactory`: a lazy child when the parent can say which levels are enabled
 * (pino can) and the route sets no level of its own; otherwise the usual eager child.
 */
export const lazyChildLoggerFactory: FastifyChildLoggerFactory = (parent, bindings, options) => {
  if (options.level !== undefined || !isLevelAware(parent)) return parent.child(bindings, options);
  return new LazyChildLogger(parent, bindings, options);
};

/** Whether a line at this level would be written (true for a logger that cannot say). */
export function isLevelEnabled(logger: FastifyBaseLogger, level: Level): boolean {
  return isLevelAware(logger) ? logger.isLevelEnabled(level) : true;
}

function isLevelAware(logger: FastifyBaseLogger): logger is LevelAware {
  return typeof (logger as Partial<LevelAware>).isLevelEnabled === 'function';
}
