import type { MonitorAction } from '@contrateia/shared';
import fp from 'fastify-plugin';
import type { CgroupPaths } from './monitor.cgroup';
import { createMetrics, metricsRoute } from './monitor.metrics';
import { monitorRoutes } from './monitor.routes';
import { createMonitorService, type MonitorService, type MonitorTiming } from './monitor.service';
import { createSystemSampler } from './monitor.system';

declare module 'fastify' {
  interface FastifyInstance {
    /** The live system monitor. */
    monitor: MonitorService;
  }
}

export type MonitorModuleOptions = {
  /** The sampler's rhythm (DEFAULT_MONITOR_TIMING); tests quicken it. */
  timing?: Partial<MonitorTiming>;
  /** Where the control groups are read (tests give a tree of their own). */
  cgroup?: CgroupPaths;
  /** DATA_DIR: the disk reported is its file system's (the working directory when absent). */
  dataDir?: string;
  /** METRICS_TOKEN: opens `GET /metrics`; without it, no such route and no per-request hook. */
  metricsToken?: string;
  actionsPerMinute?: Partial<Record<MonitorAction, number>>;
};

/**
 * The live monitor: each service checked through its own feature, in the background from ready
 * on (after every feature it checks, its dependencies, is ready), stopped on close before them.
 * It hears how each real reply through the provider ended (`ai.reply.finished`).
 */
export const monitorModule = fp<MonitorModuleOptions>(
  async (app, options) => {
    const { clock, state, logger, database, mailer, translate, events } = app.platform;
    // Read only once ready, from the real-time plugin.
    const sockets = () => app.realtime.localConnections();
    const monitor = createMonitorService({
      clock,
      state,
      logger,
      database,
      mailer,
      ai: { config: app.ai.settings.engineConfig, probe: app.ai.probe },
      whatsapp: app.whatsapp,
      auth: app.auth,
      jobs: app.platform.jobs,
      sockets,
      system: createSystemSampler({
        dataDir: options.dataDir ?? process.cwd(),
        cgroup: options.cgroup,
      }),
      translate,
      timing: options.timing,
    });
    app.decorate('monitor', monitor);
    events.on('ai.reply.finished', monitor.observeReply);
    app.addHook('onReady', async () => monitor.start());
    app.addHook('onClose', () => monitor.stop());
    // Prometheus metrics only with a token: without one, neither the route nor the per-request
    // hook exists, so requests pay nothing for them.
    if (options.metricsToken) {
      const metrics = createMetrics({ monitor, sockets });
      app.addHook('onResponse', metrics.observeResponse);
      app.addHook('onClose', async () => metrics.close());
      await app.register(metricsRoute, { metrics, token: options.metricsToken });
    }
    await app.register(monitorRoutes, {
      prefix: '/api',
      monitor,
      actionsPerMinute: options.actionsPerMinute,
    });
  },
  {
    name: 'monitor',
    dependencies: ['platform', 'logs', 'auth', 'ai', 'whatsapp', 'realtime', '@fastify/rate-limit'],
  },
);
