import fp from 'fastify-plugin';
import { tapWarnings } from '@/lib/logger';
import { logsRoutes } from './logs.routes';
import { createLogsService, type LogsService, type RetentionOptions } from './logs.service';
import type { WriterLimits } from './logs.writer';

declare module 'fastify' {
  interface FastifyInstance {
    /** The stored log: `events` is the EventLog every feature records through. */
    logs: LogsService;
  }
}

/**
 * The stored log (the Logs page): features record their events through `app.logs.events`, and the
 * logger hands it every warning and error of the server, whoever logs it. Every feature module
 * depends on it, so its close, which writes what is left, runs after theirs (Fastify closes in
 * the reverse order of registration). Written from ready on: the embedded database may still be
 * migrating while the app is built.
 */
export const logsModule = fp<{
  writer?: Partial<WriterLimits>;
  retention?: Partial<RetentionOptions>;
}>(
  async (app, { writer, retention }) => {
    const { db, clock, state, logger, secret, translate, jobs } = app.platform;
    const logs = createLogsService({
      db,
      clock,
      state,
      logger,
      secret,
      translate,
      writer,
      retention,
      jobs,
    });
    const untapLogger = tapWarnings(logger, logs.capture);
    app.decorate('logs', logs);
    app.addHook('onReady', () => logs.start());
    app.addHook('onClose', async () => {
      await logs.close();
      untapLogger();
    });
  },
  { name: 'logs', dependencies: ['platform'] },
);

/**
 * `GET /api/logs`, registered apart from the service: its admin guard is the auth feature's,
 * which records through the stored log and so is registered after it.
 */
export const logsRoutesModule = fp(
  async (app) => {
    await app.register(logsRoutes, { prefix: '/api', logs: app.logs });
  },
  { name: 'logs-routes', dependencies: ['logs', 'auth-guard'] },
);
