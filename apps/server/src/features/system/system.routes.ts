import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponseSchema, healthResponseSchema } from '@contrateia/shared';
import type { Database } from '@/db/client';
import { databaseUnavailable } from './system.errors';

export const systemRoutes: FastifyPluginAsyncZod<{ database: Database; version: string }> = async (
  app,
  { database, version },
) => {
  app.get(
    '/health',
    { schema: { response: { 200: healthResponseSchema, 503: errorResponseSchema } } },
    async () => {
      if (!(await database.ping())) throw databaseUnavailable();
      return { status: 'ok' as const, database: database.kind, version };
    },
  );
};
