import { defineError } from '@/lib/errors';

/**
 * Why an engine gave up, short enough for a log field and stable enough to count in alerts.
 * `status-4xx` covers the client errors without a reason of their own (400, 403, 404…);
 * `redirect` is a 3xx, which is never followed (the key and the prompt stay with the admin's address).
 */
export type EngineFailureReason =
  | 'connection'
  | 'timeout'
  | 'aborted'
  | 'redirect'
  | 'status-401'
  | 'status-429'
  | 'status-4xx'
  | 'status-5xx'
  | 'malformed'
  | 'too-large'
  | 'provider-error'
  | 'empty';

/**
 * A provider failed to produce a reply. The chat feature answers 502 (or an error event) and
 * stores nothing; the message and `detail` go to the log only, never to the user, because they
 * may quote the provider's body.
 */
export class EngineFailure extends Error {
  override readonly name = 'EngineFailure';
  readonly reason: EngineFailureReason;
  /** HTTP status from the provider, when it answered with one. */
  readonly status: number | undefined;
  /** A short excerpt of what the provider sent (error body, bad line), for the log. */
  readonly detail: string | undefined;

  constructor(
    reason: EngineFailureReason,
    message: string,
    options: { cause?: unknown; status?: number; detail?: string } = {},
  ) {
    super(message, { cause: options.cause });
    this.reason = reason;
    this.status = options.status;
    this.detail = options.detail;
  }
}

/** Throws the `aborted` failure once the caller has given up on the request. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted)
    throw new EngineFailure('aborted', 'The request was aborted', { cause: signal.reason });
}

/** The stored key was given for another address: typed again, it never goes where it was not meant to. */
export const apiKeyRetype = defineError(400, 'adminValidation.apiKeyRetype', { field: 'apiKey' });
