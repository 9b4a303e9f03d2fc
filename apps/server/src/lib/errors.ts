export type AppErrorOptions = {
  /** Interpolation values for the message. */
  params?: Record<string, string | number>;
  headers?: Record<string, string>;
  /** Also puts the message on this form field (`errors[field]`). */
  field?: string;
  cause?: unknown;
};

/**
 * A 429 saying when to try again: Retry-After in whole seconds (at least one) and the message's
 * `count`, which is those seconds unless `count` says otherwise (minutes, say).
 */
export function retryLater(key: string, waitMs: number, count: (seconds: number) => number = (seconds) => seconds): AppError {
  const seconds = Math.max(1, Math.ceil(waitMs / 1000));
  return new AppError(429, key, { params: { count: count(seconds) }, headers: { 'retry-after': String(seconds) } });
}

/**
 * An error a client can be told about: an HTTP status and a translation key. The error handler
 * translates it into the caller's language; anything that is not an AppError becomes a bare 500.
 */
export class AppError extends Error {
  readonly params: Record<string, string | number>;
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
