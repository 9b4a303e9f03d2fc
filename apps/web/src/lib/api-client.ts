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
   * A 401 normally means the session is over (spec §4). Login sets this to false: there a 401
   * means wrong credentials.
   */
  endSessionOnUnauthorized?: boolean;
  signal?: AbortSignal;
}

let handleUnauthorized: () => void = () => {};

/** Called after a 401 has cleared the stored session; the app resets its state and routes to /login. */
export function setUnauthorizedHandler(handler: () => void): void {
  handleUnauthorized = handler;
}

async function readBody(response: Response): Promise<unknown> {
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
function appHeaders(accept: string): Headers {
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

/** Turns a non-2xx answer into an ApiError, ending the session first on a 401 when asked to. */
async function failure(
  path: string,
  response: Response,
  endSessionOnUnauthorized: boolean,
): Promise<ApiError> {
  const data = await readBody(response);
  if (response.status === 401 && endSessionOnUnauthorized) {
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
 * Calls `/api{path}` with JSON, the stored bearer token and the interface language. No timeout
 * (spec §9). Throws ApiError for non-2xx answers and NetworkError when there is no answer.
 *
 * `T` is a response type from `@contrateia/shared`. The body is not re-validated here: the
 * server validates its responses against the same schemas, and keeping zod out of this module
 * keeps it out of the code every page downloads first.
 */
export async function apiRequest<T>(
  path: string,
  { endSessionOnUnauthorized = true, ...options }: ApiRequestOptions = {},
): Promise<T> {
  const response = await send(path, options, 'application/json');
  if (!response.ok) throw await failure(path, response, endSessionOnUnauthorized);
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
  const response = await send(path, options, 'text/event-stream');
  if (!response.ok) throw await failure(path, response, endSessionOnUnauthorized);
  return response;
}

export interface UploadProgress {
  /** Bytes of the request body sent so far. */
  loaded: number;
  /** Bytes of the whole body. */
  total: number;
}

export interface ApiUploadOptions {
  /** The multipart form; the browser writes its Content-Type with the boundary. */
  body: FormData;
  /** Called as the body goes out (only when the browser knows its length). */
  onProgress?: (progress: UploadProgress) => void;
  /** Aborting stops the upload; the promise rejects with the signal's reason. */
  signal?: AbortSignal;
}

/** The headers of an XMLHttpRequest's answer (`getAllResponseHeaders()`: "name: value" lines). */
function responseHeaders(xhr: XMLHttpRequest): Headers {
  const headers = new Headers();
  for (const line of xhr.getAllResponseHeaders().split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    try {
      headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
    } catch {
      // A header the Headers class refuses is not one this client reads.
    }
  }
  return headers;
}

/**
 * POSTs a multipart form to `/api{path}` with the app's headers, reporting how much of the body
 * has been sent: fetch cannot tell (a streamed request body needs HTTP/2 in Chromium and is absent
 * elsewhere), XMLHttpRequest's upload events can. Answers like apiRequest: ApiError for a non-2xx
 * answer (a 401 ends the session), NetworkError when there is none.
 */
export function apiUpload<T>(
  path: string,
  { body, onProgress, signal }: ApiUploadOptions,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const xhr = new XMLHttpRequest();
    const handleAbort = () => xhr.abort();
    const settle = () => signal?.removeEventListener('abort', handleAbort);
    xhr.open('POST', `/api${path}`);
    appHeaders('application/json').forEach((value, name) => xhr.setRequestHeader(name, value));
    xhr.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable) onProgress?.({ loaded: event.loaded, total: event.total });
    });
    xhr.addEventListener('load', () => {
      settle();
      // The answer as a Response, read the way apiRequest reads fetch's. No body for a 204.
      const response = new Response(xhr.status === 204 ? null : xhr.responseText, {
        status: xhr.status,
        headers: responseHeaders(xhr),
      });
      const read = async () => {
        if (!response.ok) throw await failure(path, response, true);
        return (await readBody(response)) as T;
      };
      read().then(resolve, reject);
    });
    xhr.addEventListener('error', () => {
      settle();
      reject(new NetworkError('The server could not be reached'));
    });
    xhr.addEventListener('abort', () => {
      settle();
      reject(signal?.reason ?? new DOMException('The upload was aborted', 'AbortError'));
    });
    signal?.addEventListener('abort', handleAbort, { once: true });
    xhr.send(body);
  });
}

/**
 * The text to show for a failed call (spec §8): the server's message when it sent one, else the
 * caller's fallback for that kind of failure.
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
