import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsync, onResponseHookHandler } from 'fastify';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { SERVICE_STATUSES } from '@contrateia/shared';
import type { MonitorService } from './monitor.service';
import { metricsUnauthorized } from './monitor.errors';

export type Metrics = ReturnType<typeof createMetrics>;

/** Scrapes one client may make per minute (Prometheus scrapes every 15–60 s). */
const SCRAPES_PER_MINUTE = 120;

/**
 * The Prometheus metrics of one app (`/metrics`, only with METRICS_TOKEN): Node's process and
 * event-loop figures, every HTTP request by method, route pattern and status, and what the
 * monitor's latest sample found (the database's ping, WhatsApp accounts, each service's status),
 * with this instance's open sockets. A registry of its own per app: tests build many apps in one
 * process, and each scrape must see only its own.
 */
export function createMetrics({
  monitor,
  sockets,
}: {
  monitor: Pick<MonitorService, 'latestServices' | 'latestStorage'>;
  sockets: () => number;
}) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const labelNames = ['method', 'route', 'status_code'] as const;
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests answered',
    labelNames,
    registers: [registry],
  });
  const durations = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from receiving an HTTP request to the end of its response',
    labelNames,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });

  const service = (name: string) => monitor.latestServices()?.find((entry) => entry.name === name);
  new Gauge({
    name: 'contrateia_database_ping_seconds',
    help: "The database's answer time to the monitor's latest ping",
    registers: [registry],
    collect() {
      const latency = service('database')?.details.latencyMs;
      if (latency !== undefined) this.set(latency / 1000);
    },
  });
  new Gauge({
    name: 'contrateia_whatsapp_accounts',
    help: 'WhatsApp accounts with a linked number, and of them those connected (every instance)',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const details = service('whatsapp')?.details;
      if (details?.linked !== undefined) this.set({ state: 'linked' }, details.linked);
      if (details?.connected !== undefined) this.set({ state: 'connected' }, details.connected);
    },
  });
  // One metric per unit, as Prometheus would have it.
  new Gauge({
    name: 'contrateia_media_files',
    help: "WhatsApp files kept under DATA_DIR/media (every instance's), as last counted",
    registers: [registry],
    collect() {
      const storage = monitor.latestStorage();
      if (storage) this.set(storage.mediaFiles);
    },
  });
  new Gauge({
    name: 'contrateia_media_bytes',
    help: "The bytes of the WhatsApp files kept under DATA_DIR/media (every instance's), as last counted",
    registers: [registry],
    collect() {
      const storage = monitor.latestStorage();
      if (storage) this.set(storage.mediaBytes);
    },
  });
  new Gauge({
    name: 'contrateia_realtime_sockets',
    help: 'Real-time (Socket.IO) connections open on this instance',
    registers: [registry],
    collect() {
      this.set(sockets());
    },
  });
  new Gauge({
    name: 'contrateia_service_status',
    help: "Each service's status in the monitor's latest sample: 1 for the status it has, 0 for the others",
    labelNames: ['service', 'status'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const entry of monitor.latestServices() ?? []) {
        for (const status of SERVICE_STATUSES)
          this.set({ service: entry.name, status }, entry.status === status ? 1 : 0);
      }
    },
  });

  /**
   * onResponse: counts the request under its route's pattern (`/api/agents/:name`), never its
   * path, so that the series stay few; a path no route has is `unmatched`.
   */
  const observeResponse: onResponseHookHandler = (request, reply, done) => {
    const labels = {
      method: request.method,
      route: request.routeOptions.url ?? 'unmatched',
      status_code: reply.statusCode,
    };
    requests.inc(labels);
    durations.observe(labels, reply.elapsedTime / 1000);
    done();
  };

  return { registry, observeResponse, close: () => registry.clear() };
}

/**
 * `GET /metrics` (not under /api): the metrics in Prometheus's text format to a scraper that
 * sends `Authorization: Bearer <METRICS_TOKEN>`; anything else gets 401. Registered only when the
 * token is configured.
 */
export const metricsRoute: FastifyPluginAsync<{ metrics: Metrics; token: string }> = async (
  app,
  { metrics, token },
) => {
  const expected = digest(token);
  app.get(
    '/metrics',
    {
      config: {
        rateLimit: {
          max: SCRAPES_PER_MINUTE,
          timeWindow: 60_000,
          keyGenerator: (request) => `metrics:${request.ip}`,
        },
      },
    },
    async (request, reply) => {
      const given = /^bearer (.+)$/i.exec(request.headers.authorization?.trim() ?? '')?.[1]?.trim();
      // Compared as digests: equal lengths, and the time taken says nothing of the token.
      if (!given || !timingSafeEqual(digest(given), expected)) {
        throw metricsUnauthorized();
      }
      reply.header('cache-control', 'no-store').type(metrics.registry.contentType);
      return metrics.registry.metrics();
    },
  );
};

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}
