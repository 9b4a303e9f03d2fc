import type { MonitorStatus } from '@contrateia/shared';

const GB = 1_000_000_000;

/**
 * What the monitor shows when the status cannot be fetched, beside the error: an example of every
 * kind of figure, marked as a sample wherever it appears, never taken for this system's. It has no
 * time: the page shows when the last real figures came.
 */
export const SAMPLE_STATUS: MonitorStatus = {
  systemStatus: 'degraded',
  services: [
    {
      name: 'database',
      status: 'up',
      uptime: 3 * 86_400 + 4 * 3_600,
      details: { kind: 'postgres', latencyMs: 2 },
    },
    { name: 'redis', status: 'up', uptime: 3 * 86_400 + 4 * 3_600, details: { latencyMs: 1 } },
    { name: 'mail', status: 'up', uptime: 3 * 86_400 + 4 * 3_600, details: { kind: 'log' } },
    {
      name: 'ai',
      status: 'up',
      uptime: 3 * 86_400 + 4 * 3_600,
      details: { kind: 'builtin', latencyMs: 12 },
    },
    {
      name: 'whatsapp',
      status: 'degraded',
      uptime: 5 * 3_600 + 20 * 60,
      details: { linked: 3, connected: 2 },
    },
    { name: 'sockets', status: 'up', uptime: 3 * 86_400 + 4 * 3_600, details: { connections: 5 } },
  ],
  performance: { cpu: 23, memory: 58, disk: 41, network: null },
  figures: {
    cpuCores: 4,
    loadAverage: 0.92,
    memoryUsedBytes: 4.6 * GB,
    memoryTotalBytes: 8 * GB,
    containerLimits: false,
    diskUsedBytes: 41 * GB,
    diskTotalBytes: 100 * GB,
    networkRxBytesPerSecond: 250_000,
    networkTxBytesPerSecond: 90_000,
    networkLinkBitsPerSecond: null,
    processUptimeSeconds: 3 * 86_400 + 4 * 3_600,
  },
  queues: [
    { name: 'logs-retention', waiting: 0, active: 0, failedLastHour: 0 },
    { name: 'sessions-cleanup', waiting: 0, active: 0, failedLastHour: 0 },
    { name: 'whatsapp-reply', waiting: 3, active: 2, failedLastHour: 1 },
  ],
  storage: { mediaFiles: 1_240, mediaBytes: 2.3 * GB },
  lastUpdate: '',
};
