import fp from 'fastify-plugin';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import type { ErrorResponse } from '@contrateia/shared';
import { AppError, translateError } from '@/lib/errors';

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
 * Turns every error into `{success: false, message, errors?}` in the caller's language, with the
 * right status. A 5xx never carries its cause to the client; it goes to the log instead.
 */
export const errorsPlugin = fp(
  async (app) => {
    app.setErrorHandler((error: FastifyError, request, reply) => {
      const t = request.t;
      if (error instanceof AppError) {
        if (error.statusCode >= 500) request.log.error({ err: error.cause ?? error }, error.key);
        const body: ErrorResponse = { success: false, message: translateError(error, t) };
        if (error.field) body.errors = { [error.field]: body.message };
        return reply.code(error.statusCode).headers(error.headers).send(body);
      }
      if (hasZodFastifySchemaValidationErrors(error)) {
        const errors: Record<string, string> = {};
        for (const issue of error.validation) {
          const field = issue.instancePath.replace(/^\//, '').replaceAll('/', '.') || 'general';
          if (errors[field]) continue;
          const message = issue.message ?? '';
          errors[field] = message.startsWith('validation.') ? t(message) : t('validation.invalidValue');
        }
        return send(reply, 400, { success: false, message: t('errors.validation'), errors });
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
        return send(reply, status, { success: false, message: t(STATUS_KEYS[status] ?? 'errors.validation', { count: seconds }) });
      }
      request.log.error({ err: error }, 'request failed');
      return send(reply, 500, { success: false, message: t('errors.server') });
    });

    // NUL cannot be stored in PostgreSQL text and has no place in any field we take: refuse it
    // up front instead of failing deep in a query.
    // Hooks on every request are callback-style: an async one costs a promise and a turn each.
    app.addHook('preValidation', (request, _reply, done) => {
      done(containsNul(request.body) || containsNul(request.query) ? new AppError(400, 'errors.invalidCharacters') : undefined);
    });
  },
  { name: 'errors', dependencies: ['i18n'] },
);

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
