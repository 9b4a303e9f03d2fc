import { DrizzleQueryError } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { FastifyChildLoggerFactory } from 'fastify/types/logger';
import pino, {
  stdSerializers,
  type Bindings,
  type ChildLoggerOptions,
  type DestinationStream,
  type LogFn,
  type Logger,
  type LoggerOptions,
} from 'pino';

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
  '*.apiKey',
  'password',
  'apiKey',
  'otp',
  'token',
];

export function loggerOptions(level: string): LoggerOptions {
  return {
    level,
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    serializers: { err: serializeError },
  };
}

/** Where the log goes (main.ts): pino writes each line, and is flushed through it. */
export type LogDestination = DestinationStream & {
  flush: (callback: (error?: Error) => void) => void;
  flushSync: () => void;
};

/**
 * pino's own destination (SonicBoom, flushed when the process exits) gathering lines and writing
 * them together: once `minLength` bytes have gathered, and every `periodicFlush` ms all the same.
 * Lines are handed to it as buffers. Given text, SonicBoom measures the UTF-8 length of all the
 * text gathered so far (up to 16 KB) again for every line it is given, which a CPU profile of
 * GET /api/user under load showed as its largest single cost (Utf8Length, with the string
 * flattening it forces); given buffers, each line is measured once, as it is encoded.
 */
export function batchedDestination({
  dest,
  minLength,
  periodicFlush,
}: {
  dest: number | string;
  minLength: number;
  periodicFlush: number;
}): LogDestination {
  const boom = pino.destination({
    dest,
    sync: false,
    minLength,
    periodicFlush,
    contentMode: 'buffer',
  });
  // In buffer mode SonicBoom takes buffers; its type still says strings.
  const writeBuffer = boom.write.bind(boom) as unknown as (data: Buffer) => boolean;
  return {
    write: (line: string) => writeBuffer(Buffer.from(line)),
    flush: (callback) => boom.flush(callback),
    flushSync: () => boom.flushSync(),
  };
}

/** The fields of a PostgreSQL error that say what failed, never with which values. */
const DATABASE_ERROR_FIELDS = [
  'code',
  'severity',
  'constraint',
  'table',
  'column',
  'schema',
  'dataType',
  'routine',
] as const;

type ErrorLike = { message: string; stack?: string; cause?: unknown; errors?: unknown };

/**
 * pino's `err` serializer, without what a database error carries of the data it was given.
 * Drizzle wraps a driver's error as "Failed query: <sql>\nparams: <values>" (in its message, its
 * stack and a `params` field), the driver's `detail` and `where` quote rows and keys ("Key
 * (email)=(…) already exists"), and a data exception's message quotes the value refused
 * (`invalid input syntax for type uuid: "…"`): the user's own words, e-mail addresses, hashes.
 * Each database error along the `cause` chain keeps its kind, its statement (placeholders only),
 * its message (save a data exception's) and its stack frames; the fields that say what failed
 * (SQLSTATE code, constraint, table, column…) of the first one are put beside as `database`.
 */
export function serializeError(error: unknown): unknown {
  const serialized = stdSerializers.err(withoutQueryValues(error, 0) as Error);
  const database = firstDatabaseError(error);
  if (database && serialized && typeof serialized === 'object') {
    (serialized as unknown as Record<string, unknown>).database = Object.fromEntries(
      DATABASE_ERROR_FIELDS.flatMap((field) =>
        database[field] === undefined ? [] : [[field, database[field]]],
      ),
    );
  }
  return serialized;
}

function isErrorLike(value: unknown): value is ErrorLike {
  return (
    typeof value === 'object' && value !== null && typeof (value as ErrorLike).message === 'string'
  );
}

/** A PostgreSQL server's error (pg's or PGlite's): a five-character SQLSTATE and a severity. */
function isDatabaseError(
  value: ErrorLike,
): value is ErrorLike & Record<(typeof DATABASE_ERROR_FIELDS)[number], unknown> & { code: string } {
  const { code, severity } = value as { code?: unknown; severity?: unknown };
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && typeof severity === 'string';
}

/** The first database error (one with a SQLSTATE) along `error`'s causes. */
export function firstDatabaseError(
  error: unknown,
  depth = 0,
): (ErrorLike & Record<string, unknown>) | undefined {
  if (!isErrorLike(error) || depth > 10) return undefined;
  if (isDatabaseError(error)) return error;
  return firstDatabaseError(error.cause, depth + 1);
}

/** `error` with every database error along its causes replaced by one without the values. */
function withoutQueryValues(error: unknown, depth: number): unknown {
  if (!isErrorLike(error) || depth > 10) return error;
  const cause = withoutQueryValues(error.cause, depth + 1);
  const errors = Array.isArray(error.errors)
    ? error.errors.map((inner) => withoutQueryValues(inner, depth + 1))
    : error.errors;
  if (error instanceof DrizzleQueryError)
    return stripped(error, `Failed query: ${error.query}`, cause);
  if (isDatabaseError(error)) {
    // Class 22, data exceptions: the message quotes the value the database refused.
    const message = error.code.startsWith('22')
      ? `data exception ${error.code} (its message, which quotes the value, is not logged)`
      : error.message;
    return stripped(error, message, cause);
  }
  if (cause === error.cause && errors === error.errors) return error;
  const copy = Object.create(
    Object.getPrototypeOf(error) as object,
    Object.getOwnPropertyDescriptors(error),
  ) as ErrorLike;
  Object.defineProperty(copy, 'cause', { value: cause, configurable: true, writable: true });
  if (errors !== error.errors)
    Object.defineProperty(copy, 'errors', { value: errors, configurable: true, writable: true });
  return copy;
}

/**
 * An error of the same kind (pino names it by its constructor) saying only `message`, with the
 * stack's frames but not its first lines (the original message), and no field of its own.
 */
function stripped(error: ErrorLike, message: string, cause: unknown): ErrorLike {
  const frames = (error.stack ?? '').split('\n').filter((line) => /^\s+at /.test(line));
  const name = error instanceof Error ? error.constructor.name : 'Error';
  return Object.create(Object.getPrototypeOf(error) as object, {
    message: { value: message, enumerable: false },
    stack: { value: [`${name}: ${message}`, ...frames].join('\n'), enumerable: false },
    cause: { value: cause, enumerable: false },
  }) as ErrorLike;
}

type Level = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
const LEVELS: readonly Level[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace'];
/** A Fastify logger that can say which levels it writes, as pino's can. */
type LevelAware = FastifyBaseLogger & Pick<Logger, 'isLevelEnabled'>;

/**
 * Fastify gives every request a child logger bound to its id. Most requests never log through it
 * (their completion line has a logger of its own, see request-log.ts), yet making the child (pino
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

/**
 * Fields that keep a warning on the server's own log (stdout) and out of the stored log an admin
 * reads: for what only the operator may see, such as a mail written to the log instead of sent,
 * with its code.
 */
export const LOCAL_ONLY = Object.freeze({ localOnly: true as const });

/** pino's numeric level of warnings; errors (50) and fatal lines (60) are above it. */
export const WARN_LEVEL = 40;

/** A line pino wrote at warning level or above, as written (redacted), and its numeric level. */
export type WarningSink = (line: string, level: number) => void;

const { streamSym } = pino.symbols;
// `Symbol.for('pino.metadata')`: a stream that has it true is told each line's level before it is
// written (pino sets `lastLevel` and its siblings on it), as pino's own multistream is.
const needsMetadata = pino.symbols.needsMetadataGsym;

type TeeStream = DestinationStream & {
  [needsMetadata]: true;
  lastLevel: number;
  lastObj?: unknown;
  lastMsg?: unknown;
  lastTime?: unknown;
  lastLogger?: unknown;
  flush?: (callback: (error?: Error) => void) => void;
  flushSync?: () => void;
  end?: () => void;
};

/**
 * Hands every line `logger` (and each of its children, made before or after) writes at warning
 * level or above to `sink` as well as to its destination, until the returned function is called.
 * Works with any pino logger, whatever its destination: the logger's stream is swapped for one
 * that passes every line on and looks at its level, which pino gives it as a number (through
 * `pino.symbols`, pino's interface for this), so an info line costs one comparison more. The line
 * the sink gets is the one written: redacted. A logger that is not pino's is left alone.
 */
export function tapWarnings(logger: FastifyBaseLogger, sink: WarningSink): () => void {
  const holder = logger as unknown as Record<symbol, DestinationStream | undefined>;
  const inner = holder[streamSym] as
    (DestinationStream & Partial<Omit<TeeStream, 'write'>>) | undefined;
  if (!inner || typeof inner.write !== 'function') return () => {};
  const innerNeedsMetadata = inner[needsMetadata] === true;
  let tapping = true;
  const tee: TeeStream = {
    [needsMetadata]: true,
    lastLevel: 0,
    write(line: string) {
      if (innerNeedsMetadata) {
        inner.lastLevel = this.lastLevel;
        inner.lastObj = this.lastObj;
        inner.lastMsg = this.lastMsg;
        inner.lastTime = this.lastTime;
        inner.lastLogger = this.lastLogger;
      }
      inner.write(line);
      if (tapping && this.lastLevel >= WARN_LEVEL) sink(line, this.lastLevel);
    },
  };
  // pino's flush goes to its stream's (main.ts flushes the log at shutdown).
  if (typeof inner.flush === 'function') tee.flush = (callback) => inner.flush!(callback);
  if (typeof inner.flushSync === 'function') tee.flushSync = () => inner.flushSync!();
  if (typeof inner.end === 'function') tee.end = () => inner.end!();
  holder[streamSym] = tee;
  return () => {
    tapping = false;
    // Put back unless something tapped it after us: then our tee stays, passing lines through.
    if (holder[streamSym] === tee) holder[streamSym] = inner;
  };
}
