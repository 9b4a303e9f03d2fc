import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  errorResponseSchema,
  MONITOR_ACTIONS,
  monitorActionResponseSchema,
  monitorStatusSchema,
  type MonitorAction,
  type MonitorActionResponse,
} from '@contrateia/shared';
import { actorOf, authOf } from '@/plugins/auth';
import type { MonitorService } from './monitor.service';

const errors = { 401: errorResponseSchema, 403: errorResponseSchema };

/**
 * How often one admin may run each quick action per minute: each does real work (a sweep of two
 * tables, an e-mail sent, every broken WhatsApp connection opened again).
 */
export const DEFAULT_MONITOR_ACTIONS_PER_MINUTE: Record<MonitorAction, number> = {
  'cleanup-sessions': 10,
  'test-email': 5,
  'reconnect-whatsapp': 10,
};

/**
 * `/api/monitor/*` (admins in admin mode only): the latest sample, and the quick actions, one route
 * each (an unknown action is a path that does not exist: 404).
 */
export const monitorRoutes: FastifyPluginAsyncZod<{
  monitor: MonitorService;
  actionsPerMinute?: Partial<Record<MonitorAction, number>>;
}> = async (app, { monitor, actionsPerMinute }) => {
  // On the request, as on every admin-only route: before any input is read.
  app.addHook('onRequest', app.requireAdmin);

  app.get(
    '/monitor/status',
    { schema: { response: { 200: monitorStatusSchema, ...errors } } },
    async () => monitor.status(),
  );

  for (const action of MONITOR_ACTIONS) {
    app.post(
      `/monitor/actions/${action}`,
      {
        // Counted per admin and action, after the admin check (route hooks run after the plugin's).
        config: {
          rateLimit: {
            max: actionsPerMinute?.[action] ?? DEFAULT_MONITOR_ACTIONS_PER_MINUTE[action],
            timeWindow: 60_000,
            hook: 'preHandler',
            keyGenerator: (request) => `monitor-${action}:${request.auth?.user.id ?? request.ip}`,
          },
        },
        schema: {
          response: {
            200: monitorActionResponseSchema,
            ...errors,
            429: errorResponseSchema,
            503: errorResponseSchema,
          },
        },
      },
      async (request): Promise<MonitorActionResponse> => {
        const caller = { user: authOf(request).user, actor: actorOf(request) };
        switch (action) {
          case 'cleanup-sessions':
            return monitor.cleanupSessions(caller);
          case 'test-email':
            return monitor.testEmail({
              ...caller,
              language: request.language,
              timeZone: request.timeZone,
            });
          case 'reconnect-whatsapp':
            return monitor.reconnectWhatsApp(caller);
        }
      },
    );
  }
};
