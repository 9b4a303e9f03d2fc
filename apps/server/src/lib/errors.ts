/** A value for a message's placeholder: as it is, or (`{ key }`) itself translated first. */
export type MessageParam = string | number | { key: string };

export type AppErrorOptions = {
  /** Interpolation values for the message. */
  params?: Record<string, MessageParam>;
  headers?: Record<string, string>;
  /** Also puts the message on this form field (`errors[field]`). */
  field?: string;
  cause?: unknown;
};

/**
 * An error of a feature, defined once in its `<feature>.errors.ts` so that a throw cannot get the
 * status or the message key wrong. Each call makes a new AppError (with the stack of its throw);
 * `defaults` are what every throw of it has (the form field it belongs to), and a throw may add
 * its cause or name another field.
 */
export function defineError(
  statusCode: number,
  key: string,
  defaults: Pick<AppErrorOptions, 'field'> = {},
): (options?: Pick<AppErrorOptions, 'field' | 'cause'>) => AppError {
  return (options = {}) => new AppError(statusCode, key, { ...defaults, ...options });
}

/**
 * A 429 saying when to try again: Retry-After in whole seconds (at least one) and the message's
 * `count`, which is those seconds unless `count` says otherwise (minutes, say).
 */
export function retryLater(
  key: string,
  waitMs: number,
  count: (seconds: number) => number = (seconds) => seconds,
): AppError {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return new AppError(429, key, {
    params: { count: count(seconds) },
    headers: { 'retry-after': String(seconds) },
  });
}

/** How long a client is told to wait (Retry-After) while the system is in maintenance. */
export const MAINTENANCE_RETRY_AFTER_SECONDS = 300;

/** A 503 for anyone but an admin while the admin has the system in maintenance. */
export function underMaintenance(): AppError {
  return new AppError(503, 'errors.maintenance', {
    headers: { 'retry-after': String(MAINTENANCE_RETRY_AFTER_SECONDS) },
  });
}

/** A 503 when a mail the person asked for could not be handed to the mail server. */
export const mailUnavailable = defineError(503, 'errors.mailUnavailable');

/** A NUL character in a request's body or query: PostgreSQL text cannot hold it, and no field takes it. */
export const invalidCharacters = defineError(400, 'errors.invalidCharacters');

/** How long a client is told to wait (Retry-After) for a request that came while the server closes. */
const CLOSING_RETRY_AFTER_SECONDS = 5;

/** A 503 for a request that arrives while the server closes: it is to be sent again shortly. */
export function closingUnavailable(): AppError {
  return new AppError(503, 'errors.unavailable', {
    headers: { 'retry-after': String(CLOSING_RETRY_AFTER_SECONDS) },
  });
}

/**
 * An error a client can be told about: an HTTP status and a translation key. Services throw it
 * with no language in hand (they also run outside requests); the edge that has the caller's
 * language translates it (`translateError`): the error handler for HTTP, and so on.
 */
export class AppError extends Error {
  readonly params: Record<string, MessageParam>;
  readonly headers: Record<string, string>;
  readonly field: string | undefined;

  constructor(
    readonly statusCode: number,
    readonly key: string,
    options: AppErrorOptions = {},
  ) {
    super(key, { cause: options.cause });
    this.name = 'AppError';
    this.params = options.params ?? {};
    this.headers = options.headers ?? {};
    this.field = options.field;
  }
}

/** An AppError's message in one language. */
export function translateError(
  error: AppError,
  t: (key: string, params?: Record<string, string | number>) => string,
): string {
  const params = Object.fromEntries(
    Object.entries(error.params).map(([name, value]) => [
      name,
      typeof value === 'object' ? t(value.key) : value,
    ]),
  );
  return t(error.key, params);
}

/**
 * Whether a schema's message is one of the validation texts (`validation.*`,
 * `adminValidation.*`, `myAgentValidation.*`, `sandboxValidation.*`), said to the user as it is;
 * any other message (a library's own words) becomes the general "invalid value".
 */
export const isValidationKey = (message: string) =>
  /^(admin|myAgent|sandbox)?[vV]alidation\./.test(message);
