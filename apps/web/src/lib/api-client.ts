import type { ErrorResponse } from '@contrateia/shared';
import { TIME_ZONE_HEADER } from '@contrateia/shared/i18n/time-zones';
import { getCurrentLanguage } from '@/lib/i18n';
import { clearSession, getToken } from '@/lib/session';

/** The server answered with a non-2xx status. `message` is the server's (already translated), or ''. */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  readonly status: number;
  readonly errors: Record<string, string> | undefined;
  /** Seconds the server asked to wait before trying again (a 429's Retry-After), if it said. */
  readonly retryAfterSeconds: number | undefined;

  constructor({
    status,
    message,
    errors,
    retryAfterSeconds,
  }: {
    status: number;
    message: string;
    errors?: Record<string, string>;
    retryAfterSeconds?: number;
  }) {
    super(message);
    this.status = status;
    this.errors = errors;
    this.retryAfterSeconds = retryAfterSeconds;
  }
}

/** The request never got an answer: offline, DNS, connection reset, CORS. */
export class NetworkError extends Error {
  override readonly name = 'NetworkError';
}

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface ApiRequestOptions {
  method?: Method;
  body?: unknown;
  /**
   * A 401 normally means the session is over. Login sets this to false: there a 401 means wrong
   * credentials.
   */
  endSessionOnUnauthorized?: boolean;
  signal?: AbortSignal;
}

let handleUnauthorized: () => void = () => {};

/** Called after a 401 has cleared the stored session; the app resets its state and routes to /login. */
export function setUnauthorizedHandler(handler: () => void): void {
  handleUnauthorized = handler;
}

/** An answer's JSON body (lib/api-upload.ts reads an upload's answer with it too). */
export async function readBody(response: Response): Promise<unknown> {
  let text: string;
  try {
    text = await response.text();
  } catch (cause) {
    throw new NetworkError('The response was interrupted', { cause });
  }
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    // Not our JSON (a proxy's HTML error page, say): callers fall back to their own message.
    return undefined;
  }
}

/** The error body's fields, when it is the API's error shape (not, say, a proxy's HTML page). */
function readError(data: unknown): Pick<ErrorResponse, 'message' | 'errors'> {
  if (typeof data !== 'object' || data === null) return { message: '' };
  const { message, errors } = data as Partial<Record<keyof ErrorResponse, unknown>>;
  const fieldErrors =
    typeof errors === 'object' && errors !== null
      ? Object.fromEntries(
          Object.entries(errors).filter(
            (entry): entry is [string, string] => typeof entry[1] === 'string',
          ),
        )
      : undefined;
  return { message: typeof message === 'string' ? message : '', errors: fieldErrors };
}

/** The app's headers on every call: what it accepts, the language, the time zone and the token. */
export function appHeaders(accept: string): Headers {
  const headers = new Headers({
    Accept: accept,
    'Accept-Language': getCurrentLanguage(),
  });
  // The browser's zone, so that agents tell the user's time and count the user's "today".
  const timeZone = browserTimeZone();
  if (timeZone) headers.set(TIME_ZONE_HEADER, timeZone);
  const token = getToken();
  if (token) headers.set('Authorization', `Bearer ${token}`);
  return headers;
}

/** Sends the request with the app's headers; a failure to get any answer is a NetworkError. */
async function send(
  path: string,
  { method = 'GET', body, signal }: Pick<ApiRequestOptions, 'method' | 'body' | 'signal'>,
  accept: string,
): Promise<Response> {
  const headers = appHeaders(accept);
  // Only with a body: Fastify rejects an empty body declared as JSON.
  if (body !== undefined) headers.set('Content-Type', 'application/json');

  try {
    return await fetch(`/api${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
      signal,
    });
  } catch (cause) {
    if (signal?.aborted) throw cause;
    throw new NetworkError('The server could not be reached', { cause });
  }
}

let handleUnavailable: (path: string) => void = () => {};

/**
 * Called with the path of every call the server answers 503 (maintenance, or a part of it down):
 * the signed-in shell reads the public settings again to learn whether it is maintenance.
 */
export function setUnavailableHandler(handler: (path: string) => void): void {
  handleUnavailable = handler;
}

/**
 * Turns a non-2xx answer into an ApiError, ending the session first on a 401 when asked to, and
 * only while the stored token is still `sentWith`, the one the request carried: a 401 to a token
 * since replaced (a role switch answered meanwhile, say) says nothing of the new session.
 */
export async function failure(
  path: string,
  response: Response,
  endSessionOnUnauthorized: boolean,
  sentWith: string | null = getToken(),
): Promise<ApiError> {
  const data = await readBody(response);
  if (response.status === 401 && endSessionOnUnauthorized && getToken() === sentWith) {
    clearSession();
    handleUnauthorized();
  }
  if (response.status === 503) handleUnavailable(path);
  const retryAfter = Number(response.headers.get('Retry-After') ?? '');
  return new ApiError({
    status: response.status,
    ...readError(data),
    ...(retryAfter > 0 ? { retryAfterSeconds: Math.ceil(retryAfter) } : {}),
  });
}

/**
 * Calls `/api{path}` with JSON, the stored bearer token and the interface language. No timeout of
 * its own. Throws ApiError for non-2xx answers and NetworkError when there is no answer.
 *
 * `T` is a response type from `@contrateia/shared`. The body is not re-validated here: the
 * server validates its responses against the same schemas, and keeping zod out of this module
 * keeps it out of the code every page downloads first.
 */
export async function apiRequest<T>(
  path: string,
  { endSessionOnUnauthorized = true, ...options }: ApiRequestOptions = {},
): Promise<T> {
  const token = getToken();
  const response = await send(path, options, 'application/json');
  if (!response.ok) throw await failure(path, response, endSessionOnUnauthorized, token);
  return (await readBody(response)) as T;
}

/**
 * Like apiRequest, but asks for server-sent events and hands back the successful Response
 * unread, for the caller to consume `body` as it streams. Errors raised before the stream starts
 * arrive as ordinary JSON answers and throw ApiError the same way (401 included).
 */
export async function apiStream(
  path: string,
  { endSessionOnUnauthorized = true, ...options }: ApiRequestOptions = {},
): Promise<Response> {
  const token = getToken();
  const response = await send(path, options, 'text/event-stream');
  if (!response.ok) throw await failure(path, response, endSessionOnUnauthorized, token);
  return response;
}

/**
 * The text to show for a failed call: the server's message when it sent one, else the caller's
 * fallback for that kind of failure.
 */
export function errorMessage(
  error: unknown,
  fallbacks: { failed: string; network?: string; unexpected?: string },
): string {
  if (error instanceof ApiError) return error.message || fallbacks.failed;
  if (error instanceof NetworkError) {
    return fallbacks.network ?? fallbacks.unexpected ?? fallbacks.failed;
  }
  return fallbacks.unexpected ?? fallbacks.failed;
}

/** The browser's IANA time zone (`America/Sao_Paulo`), or undefined where Intl cannot say. */
function browserTimeZone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || undefined;
  } catch {
    return undefined;
  }
}
