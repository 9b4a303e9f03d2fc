// src/lib/logger.ts
import { DrizzleQueryError } from "drizzle-orm";
import pino, { stdSerializers } from "pino";
var REDACT_PATHS = [
  "req.headers.authorization",
  "req.headers.cookie",
  "headers.authorization",
  "*.password",
  "*.confirmPassword",
  "*.otp",
  "*.code",
  "*.token",
  "*.passwordHash",
  "password",
  "otp",
  "token"
];
function loggerOptions(level) {
  return {
    level,
    redact: { paths: REDACT_PATHS, censor: "[redacted]" },
    serializers: { err: serializeError }
  };
}
function batchedDestination({ dest, minLength, periodicFlush }) {
  const boom = pino.destination({ dest, sync: true, minLength, periodicFlush, contentMode: "buffer" });
  const writeBuffer = boom.write.bind(boom);
  return {
    write: (line) => writeBuffer(Buffer.from(line)),
    flush: (callback) => boom.flush(callback),
    flushSync: () => boom.flushSync()
  };
}
var DATABASE_ERROR_FIELDS = ["code", "severity", "constraint", "table", "column", "schema", "dataType", "routine"];
function serializeError(error) {
  const serialized = stdSerializers.err(withoutQueryValues(error, 0));
  const database = firstDatabaseError(error);
  if (database && serialized && typeof serialized === "object") {
    serialized.database = Object.fromEntries(
      DATABASE_ERROR_FIELDS.flatMap((field) => database[field] === void 0 ? [] : [[field, database[field]]])
    );
  }
  return serialized;
}
function isErrorLike(value) {
  return typeof value === "object" && value !== null && typeof value.message === "string";
}
function isDatabaseError(value) {
  const { code, severity } = value;
  return typeof code === "string" && /^[0-9A-Z]{5}$/.test(code) && typeof severity === "string";
}
function firstDatabaseError(error, depth = 0) {
  if (!isErrorLike(error) || depth > 10) return void 0;
  if (isDatabaseError(error)) return error;
  return firstDatabaseError(error.cause, depth + 1);
}
function withoutQueryValues(error, depth) {
  if (!isErrorLike(error) || depth > 10) return error;
  const cause = withoutQueryValues(error.cause, depth + 1);
  const errors = Array.isArray(error.errors) ? error.errors.map((inner) => withoutQueryValues(inner, depth + 1)) : error.errors;
  if (error instanceof DrizzleQueryError) return stripped(error, `Failed query: ${error.query}`, cause);
  if (isDatabaseError(error)) {
    const message = error.code.startsWith("22") ? `data exception ${error.code} (its message, which quotes the value, is not logged)` : error.message;
    return stripped(error, message, cause);
  }
  if (cause === error.cause && errors === error.errors) return error;
  const copy = Object.create(Object.getPrototypeOf(error), Object.getOwnPropertyDescriptors(error));
  Object.defineProperty(copy, "cause", { value: cause, configurable: true, writable: true });
  if (errors !== error.errors) Object.defineProperty(copy, "errors", { value: errors, configurable: true, writable: true });
  return copy;
}
function stripped(error, message, cause) {
  const frames = (error.stack ?? "").split("\n").filter((line) => /^\s+at /.test(line));
  const name = error instanceof Error ? error.constructor.name : "Error";
  return Object.create(Object.getPrototypeOf(error), {
    message: { value: message, enumerable: false },
    stack: { value: [`${name}: ${message}`, ...frames].join("\n"), enumerable: false },
    cause: { value: cause, enumerable: false }
  });
}
var LEVELS = ["fatal", "error", "warn", "info", "debug", "trace"];
var LazyChildLogger = class {
  constructor(parent, bindings, options) {
    this.parent = parent;
    this.bindings = bindings;
    this.options = options;
  }
  parent;
  bindings;
  options;
  #child;
  real() {
    return this.#child ??= this.parent.child(this.bindings, this.options);
  }
  /** Whether a line at this level would be written; asks the parent while there is no child. */
  isLevelEnabled(level) {
    return this.#child ? isLevelEnabled(this.#child, level) : this.parent.isLevelEnabled(level);
  }
  get level() {
    return this.#child?.level ?? this.parent.level;
  }
  set level(level) {
    this.real().level = level;
  }
  child(bindings, options) {
    return this.real().child(bindings, options);
  }
  silent() {
  }
};
for (const level of LEVELS) {
  LazyChildLogger.prototype[level] = function(...args) {
    if (this.isLevelEnabled(level)) this.real()[level](...args);
  };
}
var lazyChildLoggerFactory = (parent, bindings, options) => {
  if (options.level !== void 0 || !isLevelAware(parent)) return parent.child(bindings, options);
  return new LazyChildLogger(parent, bindings, options);
};
function isLevelEnabled(logger, level) {
  return isLevelAware(logger) ? logger.isLevelEnabled(level) : true;
}
function isLevelAware(logger) {
  return typeof logger.isLevelEnabled === "function";
}

export {
  REDACT_PATHS,
  loggerOptions,
  batchedDestination,
  serializeError,
  lazyChildLoggerFactory,
  isLevelEnabled
};
//# sourceMappingURL=chunk-RB7PO6FM.js.map
