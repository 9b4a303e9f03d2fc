import { STATUS_CODES, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import fp from 'fastify-plugin';
import type { FastifyBaseLogger, FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  isResponseSerializationError,
} from 'fastify-type-provider-zod';
import type { ErrorResponse, Language } from '@contrateia/shared';
import { AppError, invalidCharacters, isValidationKey, translateError } from '@/lib/errors';
import { languageOf, type Translate } from '@/lib/i18n';
import { API_HEADERS } from './security';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * The message of this route's answer when a field is refused (a 400 with `errors`), instead of
     * 'Validation error': the operation that failed, as the spec words it ('Failed to create
     * agent'). Each field keeps its own message in `errors`.
     */
    failureMessage?: string;
  }
}

/** Fastify's own client errors, by code, and the message each gets. */
const FASTIFY_CLIENT_ERRORS: Record<string, { status: number; key: string }> = {
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, key: 'errors.malformedJson' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, key: 'errors.malformedJson' },
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, key: 'errors.payloadTooLarge' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, key: 'errors.unsupportedMediaType' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, key: 'errors.malformedJson' },
};

const STATUS_KEYS: Record<number, string> = {
  401: 'errors.unauthorized',
  403: 'errors.forbidden',
  404: 'errors.notFound',
  413: 'errors.payloadTooLarge',
  429: 'errors.tooManyRequests',
};

/**
 * Refusals that are the system working as meant, not failing: never logged as errors. The
 * maintenance 503 is counted (`onMaintenanceRefusal`, one summary a minute in the stored log); a
 * request refused while the server closes is the server's own business.
 */
const EXPECTED_REFUSALS = new Set(['errors.maintenance', 'errors.unavailable']);

/**
 * Turns every error into `{success: false, message, errors?}` in the caller's language, with the
 * right status. A 5xx never carries its cause to the client; it goes to the log instead, save
 * the expected refusals above.
 */
export const errorsPlugin = fp<{ onMaintenanceRefusal?: () => void }>(
  async (app, { onMaintenanceRefusal }) => {
    app.setErrorHandler((error: FastifyError, request, reply) => {
      const t = request.t;
      const failureMessage = request.routeOptions.config.failureMessage;
      if (error instanceof AppError) {
        if (EXPECTED_REFUSALS.has(error.key)) {
          if (error.key === 'errors.maintenance') onMaintenanceRefusal?.();
        } else if (error.statusCode >= 500) {
          request.log.error({ err: error.cause ?? error }, error.key);
        }
        const body: ErrorResponse = { success: false, message: translateError(error, t) };
        if (error.field) {
          body.errors = { [error.field]: body.message };
          if (failureMessage) body.message = t(failureMessage);
        }
        return reply.code(error.statusCode).headers(error.headers).send(body);
      }
      if (hasZodFastifySchemaValidationErrors(error)) {
        const errors: Record<string, string> = {};
        for (const issue of error.validation) {
          const field = issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || 'general';
          if (errors[field]) continue;
          const message = issue.message ?? '';
          errors[field] = isValidationKey(message) ? t(message) : t('validation.invalidValue');
        }
        return send(reply, 400, {
          success: false,
          message: t(failureMessage ?? 'errors.validation'),
          errors,
        });
      }
      if (isResponseSerializationError(error)) {
        request.log.error({ err: error }, 'response does not match its schema');
        return send(reply, 500, { success: false, message: t('errors.server') });
      }
      const known = error.code ? FASTIFY_CLIENT_ERRORS[error.code] : undefined;
      if (known) return send(reply, known.status, { success: false, message: t(known.key) });

      const status = error.statusCode ?? 500;
      if (status >= 400 && status < 500) {
        const seconds = Number(reply.getHeader('retry-after')) || 60;
        return send(reply, status, {
          success: false,
          message: t(STATUS_KEYS[status] ?? 'errors.validation', { count: seconds }),
        });
      }
      request.log.error({ err: error }, 'request failed');
      return send(reply, 500, { success: false, message: t('errors.server') });
    });

    // NUL cannot be stored in PostgreSQL text and has no place in any field we take: refuse it
    // up front instead of failing deep in a query.
    // Hooks on every request are callback-style: an async one costs a promise and a turn each.
    app.addHook('preValidation', (request, _reply, done) => {
      done(
        containsNul(request.body) || containsNul(request.query) ? invalidCharacters() : undefined,
      );
    });
  },
  { name: 'errors', dependencies: ['i18n'] },
);

type Translator = (language: Language) => Translate;

/**
 * Fastify's `frameworkErrors`: what the router refuses before any route or hook runs (a URL
 * whose percent-encoding does not decode, a path parameter over `maxParamLength`). Answered as
 * every other error is, JSON in the caller's language with the API's headers, whatever the path
 * (no page has such an address), and without the URL that Fastify's own answer repeats.
 */
export function frameworkErrorHandler(translate: Translator) {
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    const t = translate(languageOf(request.headers['accept-language']));
    const [status, key] =
      error.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? [414, 'errors.uriTooLong']
        : [400, 'errors.badRequest'];
    reply.headers(API_HEADERS);
    send(reply, status, { success: false, message: t(key) });
  };
}

/** Node's connection errors, by code: the status and message each gets (else 400 errors.badRequest). */
const CONNECTION_ERRORS: Record<string, { status: number; key: string }> = {
  ERR_HTTP_REQUEST_TIMEOUT: { status: 408, key: 'errors.requestTimeout' },
  HPE_HEADER_OVERFLOW: { status: 431, key: 'errors.headersTooLarge' },
};

/**
 * Fastify's `clientErrorHandler`: errors of the connection, where there is no request to answer
 * through (malformed HTTP, headers over the size limit, a request that did not arrive in time).
 * The answer is written on the socket as Node's own would be, but in the API's shape and headers:
 * there is no path to tell an API call from a page, and browsers send no such request. The
 * language comes from an Accept-Language header among the bytes received, if any. Nothing the
 * client sent is repeated or logged.
 */
export function clientErrorHandler(translate: Translator, logger: FastifyBaseLogger) {
  return (error: Error & { code?: string; rawPacket?: unknown }, socket: Socket) => {
    if (error.code === 'ECONNRESET' || socket.destroyed) return;
    logger.debug({ code: error.code }, 'client error');
    // A response already under way on this connection (a keep-alive client sending a bad second
    // request mid-answer) is not cut into: the connection just ends, as Node's default does.
    const inFlight = (socket as Socket & { _httpMessage?: ServerResponse })._httpMessage;
    if (socket.writable && !inFlight?.headersSent) {
      const raw = Buffer.isBuffer(error.rawPacket) ? error.rawPacket : undefined;
      const { status, key } =
        error.code === 'HPE_HEADER_OVERFLOW' && raw && addressOverflows(raw)
          ? URI_TOO_LONG
          : (error.code && CONNECTION_ERRORS[error.code]) || {
              status: 400,
              key: 'errors.badRequest',
            };
      const language = languageOf(raw ? acceptLanguageIn(raw) : undefined);
      const body = JSON.stringify({
        success: false,
        message: translate(language)(key),
      } satisfies ErrorResponse);
      const headers = {
        ...API_HEADERS,
        'content-type': 'application/json; charset=utf-8',
        'content-length': String(Buffer.byteLength(body)),
        connection: 'close',
      };
      const head = Object.entries(headers)
        .map(([name, value]) => `${name}: ${value}\r\n`)
        .join('');
      socket.write(`HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\n${head}\r\n${body}`);
      return closeGracefully(socket);
    }
    socket.destroy();
  };
}

const URI_TOO_LONG = { status: 414, key: 'errors.uriTooLong' };

/** Past this, a request line is an address nobody types (browsers stop near 2 MB; servers at 8 KB). */
const LONGEST_REQUEST_LINE = 8 * 1024;

/**
 * Whether the header section overflowed in its request line (`GET /very-long…`): the bytes start
 * with a method and a space, and the line goes on past LONGEST_REQUEST_LINE or to their end.
 */
function addressOverflows(raw: Buffer): boolean {
  if (!/^[A-Z]{3,10} \S/.test(raw.toString('latin1', 0, 12))) return false;
  const end = raw.indexOf('\r\n');
  return end === -1 || end > LONGEST_REQUEST_LINE;
}

/** What a refused connection still reads, and for how long, before it is cut. */
export const CLOSING_DRAIN = { bytes: 16 * 1024 * 1024, ms: 2000 };

/**
 * Ends a connection whose answer is written, without a reset: a client still sending (a long
 * address, a large body) would otherwise get an RST for the bytes left unread, and many drop the
 * answer they had already received with it. The rest is read and discarded, up to CLOSING_DRAIN,
 * then the socket is destroyed.
 */
export function closeGracefully(socket: Socket): void {
  let drained = 0;
  const cut = () => socket.destroy();
  // The HTTP parser is done with this connection: fed more, it would fail again and end up here
  // once more, and the second time the socket is destroyed at once.
  socket.removeAllListeners('data');
  socket.on('data', (chunk: Buffer) => {
    drained += chunk.length;
    if (drained > CLOSING_DRAIN.bytes) cut();
  });
  socket.setTimeout(CLOSING_DRAIN.ms, cut);
  socket.once('end', cut);
  socket.end();
  socket.resume();
}

/**
 * Reads the rest of a refused upload's body and discards it, so the answer goes out on a
 * connection that stays usable: closed with bytes unread, a connection is reset, and a client
 * may lose the answer with it ("connection closed without an answer"). Up to CLOSING_DRAIN's
 * bytes: a body announced or found larger ends its connection with the answer, closed
 * gracefully (closeGracefully: the client's writes still meet a reader for a while).
 */
export async function readRestOrClose(request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const raw = request.raw;
  const whole =
    !(Number(request.headers['content-length']) > CLOSING_DRAIN.bytes) &&
    (raw.readableEnded ||
      (await new Promise<boolean>((resolve) => {
        let read = 0;
        const stop = (ended: boolean) => {
          raw.off('data', count).off('end', finished).off('close', closed);
          resolve(ended);
        };
        const count = (chunk: Buffer) => {
          read += chunk.length;
          if (read > CLOSING_DRAIN.bytes) stop(false);
        };
        const finished = () => stop(true);
        const closed = () => stop(false);
        raw.unpipe();
        raw.on('data', count).once('end', finished).once('close', closed);
        raw.resume();
      })));
  if (whole) return;
  reply.header('connection', 'close');
  // Node ends a `connection: close` answer's socket with destroySoon, which destroys it as soon
  // as the answer is written, unread bytes or not.
  const socket = raw.socket as Socket & { destroySoon?: () => void };
  socket.destroySoon = () => closeGracefully(socket);
}

/** The Accept-Language value among the raw bytes of a request's head, if they hold one. */
function acceptLanguageIn(raw: Buffer): string | undefined {
  return /^accept-language:[ \t]*([^\r\n]{1,200})/im.exec(raw.toString('latin1'))?.[1];
}

/** The JSON 404 for unknown `/api` routes (the web app answers every other path). */
export function sendApiNotFound(request: FastifyRequest, reply: FastifyReply) {
  return send(reply, 404, { success: false, message: request.t('errors.notFound') });
}

function send(reply: FastifyReply, status: number, body: ErrorResponse) {
  return reply.code(status).type('application/json; charset=utf-8').send(body);
}

function containsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\0');
  if (depth > 32 || value === null || typeof value !== 'object') return false;
  for (const [key, item] of Object.entries(value)) {
    if (key.includes('\0') || containsNul(item, depth + 1)) return true;
  }
  return false;
}
