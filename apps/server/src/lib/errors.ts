export type AppErrorOptions = {
  /** Interpolation values for the message. */
  params?: Record<string, string | number>;
  headers?: Record<string, string>;
  /** Also puts the message on this form field (`errors[field]`). */
  field?: string;
  cause?: unknown;
};

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
