import { expect } from 'vitest';
import {
  monitorStatusSchema,
  type MonitorService,
  type MonitorServiceName,
  type MonitorStatus,
} from '@contrateia/shared';
import { eventually } from './eventually';
import { get } from './factories';
import type { TestContext } from './helpers';

/**
 * The monitor sampling every 200 ms and asking the SMTP server and the AI provider (and counting
 * the media kept) each time: tests see a change within a second.
 */
export const QUICK_MONITOR = {
  intervalMs: 200,
  checkTimeoutMs: 3_000,
  mailEveryMs: 0,
  aiEveryMs: 0,
  storageEveryMs: 0,
};

/**
 * How long the first sample may take on a loaded machine: the machine's thread starts, then waits
 * half a second for a CPU baseline.
 */
export const FIRST_SAMPLE_MS = 20_000;

/** GET /api/monitor/status as `admin`, checked against the contract. */
export async function monitorStatus(
  ctx: TestContext,
  admin: { token: string },
): Promise<MonitorStatus> {
  const res = await get(ctx, '/api/monitor/status', { token: admin.token });
  expect(res.statusCode).toBe(200);
  return monitorStatusSchema.parse(res.json());
}

/** One service of a status. */
export function serviceOf(status: MonitorStatus, name: MonitorServiceName): MonitorService {
  const found = status.services.find((service) => service.name === name);
  if (!found) throw new Error(`no ${name} in ${JSON.stringify(status.services)}`);
  return found;
}

/** Reads the status again and again until `check` holds (the next samples); that status. */
export async function statusWhen(
  ctx: TestContext,
  admin: { token: string },
  check: (status: MonitorStatus) => boolean,
  what: string,
  deadlineMs = 10_000,
): Promise<MonitorStatus> {
  let current!: MonitorStatus;
  await eventually(
    async () => {
      current = await monitorStatus(ctx, admin);
      return check(current);
    },
    what,
    deadlineMs,
  );
  return current;
}
