import type { MonitorService, MonitorStatus } from '@contrateia/shared/monitor/monitor.schemas';

// GET /api/monitor/status as the server answers it (monitor.schemas.ts), for the fake server.

const GB = 1_000_000_000;

/** Every service up, as a server on PostgreSQL with Redis, SMTP and an OpenAI-compatible AI. */
export function servicesFixture(): MonitorService[] {
  return [
    { name: 'database', status: 'up', uptime: 93_784, details: { kind: 'postgres', latencyMs: 3 } },
    { name: 'redis', status: 'up', uptime: 93_784, details: { latencyMs: 1 } },
    { name: 'mail', status: 'up', uptime: 7_320, details: { kind: 'smtp', latencyMs: 48 } },
    { name: 'ai', status: 'up', uptime: 45, details: { kind: 'openai', latencyMs: 812 } },
    { name: 'whatsapp', status: 'up', uptime: 3_600, details: { linked: 3, connected: 2 } },
    { name: 'sockets', status: 'up', uptime: 93_784, details: { connections: 7 } },
  ];
}

/** A healthy system sampled at `lastUpdate`; `overrides` replace whole fields. */
export function monitorStatusFixture(overrides: Partial<MonitorStatus> = {}): MonitorStatus {
  return {
    systemStatus: 'healthy',
    services: servicesFixture(),
    performance: { cpu: 37, memory: 42, disk: 91, network: 15 },
    figures: {
      cpuCores: 8,
      loadAverage: 2.96,
      memoryUsedBytes: 6.7 * GB,
      memoryTotalBytes: 16 * GB,
      containerLimits: false,
      diskUsedBytes: 455 * GB,
      diskTotalBytes: 500 * GB,
      networkRxBytesPerSecond: 15_000_000,
      networkTxBytesPerSecond: 3_750_000,
      networkLinkBitsPerSecond: 1_000_000_000,
      processUptimeSeconds: 93_784,
    },
    queues: [
      { name: 'logs-retention', waiting: 0, active: 0, failedLastHour: 0 },
      { name: 'sessions-cleanup', waiting: 0, active: 0, failedLastHour: 0 },
      { name: 'whatsapp-reply', waiting: 4, active: 2, failedLastHour: 1 },
    ],
    storage: { mediaFiles: 1_234, mediaBytes: 5_600_000_000 },
    lastUpdate: new Date().toISOString(),
    ...overrides,
  };
}
