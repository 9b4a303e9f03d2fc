import fs from 'node:fs/promises';
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import type { MonitorStatus } from '@contrateia/shared';
import { SYSTEM_WORKER } from '@/paths';
import { DEFAULT_CGROUP_PATHS, readCgroup, type CgroupPaths } from './monitor.cgroup';

/** What the machine's thread (monitor.system-worker.mjs) reads with systeminformation. */
export type MachineFigures = {
  /** CPU busy over every core since the previous reading, in percent. */
  cpuPercent: number;
  cpuCount: number;
  memoryTotalBytes: number;
  memoryUsedBytes: number;
  rxBytesPerSecond: number;
  txBytesPerSecond: number;
  /** The default interface's link speed in Mbit/s; null when unknown. */
  linkMbps: number | null;
};
export type WorkerRequest = { id: number };
export type WorkerReply = { id: number; figures: MachineFigures } | { id: number; error: string };

/** One reading of the machine, as the status answers it. */
export type SystemSample = Pick<MonitorStatus, 'performance'> & {
  figures: Omit<MonitorStatus['figures'], 'processUptimeSeconds'>;
};

export type SystemSampler = {
  sample(): Promise<SystemSample>;
  close(): Promise<void>;
};

/**
 * The machine's figures: CPU, memory and network from systeminformation on a thread of its own
 * (its readings block the thread that makes them), the container's limits from its control group
 * when it has any (then CPU and memory are the container's), and the disk of `dataDir`'s file
 * system (statfs: the file system that holds that very directory, wherever it is mounted).
 */
export function createSystemSampler({
  dataDir,
  cgroup = DEFAULT_CGROUP_PATHS,
}: {
  dataDir: string;
  cgroup?: CgroupPaths;
}): SystemSampler {
  let worker: Worker | undefined;
  let nextId = 1;
  const pending = new Map<
    number,
    { resolve: (figures: MachineFigures) => void; reject: (error: Error) => void }
  >();
  // The container's CPU time at the previous reading, for the share used since.
  let previousCpu: { usageMicros: number; at: number } | undefined;
  // Taken now, so that the first sample has an interval to measure the container's CPU over.
  const baseline = readCgroup(cgroup).then((reading) => {
    if (reading.cpu?.usageMicros !== undefined)
      previousCpu = { usageMicros: reading.cpu.usageMicros, at: performance.now() };
  });

  function failAll(error: Error) {
    for (const { reject } of pending.values()) reject(error);
    pending.clear();
    worker = undefined;
  }

  function started(): Worker {
    if (worker) return worker;
    const thread = new Worker(SYSTEM_WORKER);
    // Nothing to wait for at exit: a sample in flight is of no use to a process that is ending.
    thread.unref();
    thread.on('message', (reply: WorkerReply) => {
      const waiting = pending.get(reply.id);
      if (!waiting) return;
      pending.delete(reply.id);
      if ('error' in reply) waiting.reject(new Error(reply.error));
      else waiting.resolve(reply.figures);
    });
    thread.on('error', (error) => failAll(error));
    thread.on('exit', (code) =>
      failAll(new Error(`the system figures' thread stopped (exit code ${code})`)),
    );
    worker = thread;
    return thread;
  }

  function machine(): Promise<MachineFigures> {
    const thread = started();
    const id = nextId++;
    return new Promise((resolve, reject) => {
      pending.set(id, { resolve, reject });
      thread.postMessage({ id } satisfies WorkerRequest);
    });
  }

  async function disk(): Promise<{ usedBytes: number; totalBytes: number; percent: number }> {
    try {
      const stats = await fs.statfs(dataDir);
      const totalBytes = stats.blocks * stats.bsize;
      const usedBytes = (stats.blocks - stats.bfree) * stats.bsize;
      // As df counts it: the blocks kept for root are neither used nor available to us.
      const usable = usedBytes + stats.bavail * stats.bsize;
      return { usedBytes, totalBytes, percent: usable > 0 ? (usedBytes / usable) * 100 : 0 };
    } catch {
      return { usedBytes: 0, totalBytes: 0, percent: 0 };
    }
  }

  async function sample(): Promise<SystemSample> {
    await baseline;
    const [host, limits, storage] = await Promise.all([machine(), readCgroup(cgroup), disk()]);
    const now = performance.now();

    let cpuPercent = host.cpuPercent;
    let cpuCores = Math.max(1, host.cpuCount || os.availableParallelism());
    let memoryTotalBytes = host.memoryTotalBytes;
    let memoryUsedBytes = host.memoryUsedBytes;
    let containerLimits = false;
    // A limit counts only where it is tighter than the machine: an unlimited group says nothing.
    if (limits.memory && limits.memory.limitBytes < host.memoryTotalBytes) {
      memoryTotalBytes = limits.memory.limitBytes;
      memoryUsedBytes = Math.min(limits.memory.usedBytes, limits.memory.limitBytes);
      containerLimits = true;
    }
    if (limits.cpu && limits.cpu.cores < cpuCores) {
      const usage = limits.cpu.usageMicros;
      if (usage !== undefined) {
        if (previousCpu && now > previousCpu.at) {
          const elapsedMicros = (now - previousCpu.at) * 1000;
          cpuPercent =
            ((usage - previousCpu.usageMicros) / (elapsedMicros * limits.cpu.cores)) * 100;
        }
        previousCpu = { usageMicros: usage, at: now };
      }
      cpuCores = Math.max(1, Math.ceil(limits.cpu.cores));
      containerLimits = true;
    }

    const linkBits = host.linkMbps === null ? null : host.linkMbps * 1_000_000;
    const rx = Math.max(0, host.rxBytesPerSecond);
    const tx = Math.max(0, host.txBytesPerSecond);
    return {
      performance: {
        cpu: percent(cpuPercent),
        memory: percent(memoryTotalBytes > 0 ? (memoryUsedBytes / memoryTotalBytes) * 100 : 0),
        disk: percent(storage.percent),
        // A full-duplex link carries its speed each way: the busier direction is its use.
        network: linkBits === null ? null : percent((Math.max(rx, tx) * 8 * 100) / linkBits),
      },
      figures: {
        cpuCores,
        loadAverage: os.loadavg()[0] ?? 0,
        memoryUsedBytes,
        memoryTotalBytes,
        containerLimits,
        diskUsedBytes: storage.usedBytes,
        diskTotalBytes: storage.totalBytes,
        networkRxBytesPerSecond: rx,
        networkTxBytesPerSecond: tx,
        networkLinkBitsPerSecond: linkBits,
      },
    };
  }

  return {
    sample,
    async close() {
      const thread = worker;
      worker = undefined;
      failAll(new Error('the monitor is closed'));
      await thread?.terminate();
    },
  };
}

/** A share in percent, kept within 0–100 (clocks and counters read a moment apart can overshoot). */
function percent(value: number): number {
  if (!Number.isFinite(value)) return 0;
  return Math.round(Math.min(100, Math.max(0, value)) * 10) / 10;
}
