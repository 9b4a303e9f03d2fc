import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  errorResponseSchema,
  listLogsQuerySchema,
  listLogsResponseSchema,
} from '@contrateia/shared';
import type { LogsService } from './logs.service';

const errors = { 400: errorResponseSchema, 401: errorResponseSchema, 403: errorResponseSchema };

/** `GET /api/logs`: admins in admin mode only (401 without a session, 403 to anyone else). */
export const logsRoutes: FastifyPluginAsyncZod<{ logs: LogsService }> = async (app, { logs }) => {
  // On the request, as on every admin-only route: a caller who may not read the log learns
  // nothing of its rules (nor meets the app's own checks of the input first).
  app.addHook('onRequest', app.requireAdmin);

  app.get(
    '/logs',
    {
      schema: {
        querystring: listLogsQuerySchema,
        response: { 200: listLogsResponseSchema, ...errors },
      },
    },
    async (request) => logs.list(request.query, request.language),
  );
};
