import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * The limits a container runtime set on this process through its control group, and what the
 * group uses of them: systeminformation reads the host, which a container's limits make
 * meaningless (a container given 1 GB on a 64 GB host is full long before the host is).
 * cgroup v2 (`memory.max`, `cpu.max`, `memory.current`, `cpu.stat`) or v1 (`memory.limit_in_bytes`,
 * `cpu.cfs_quota_us`, `cpuacct.usage`…), found from `/proc/self/cgroup`.
 */
export type CgroupReading = {
  /** The memory limit and the memory in use (without the file cache the kernel reclaims first). */
  memory?: { limitBytes: number; usedBytes: number };
  /** The CPU quota in cores (1.5 = one and a half cores' time) and the group's CPU time so far. */
  cpu?: { cores: number; usageMicros: number | undefined };
};

export type CgroupPaths = {
  /** Where the cgroup file systems are mounted. */
  root: string;
  /** This process's membership: `/proc/self/cgroup`. */
  self: string;
};

export const DEFAULT_CGROUP_PATHS: CgroupPaths = {
  root: '/sys/fs/cgroup',
  self: '/proc/self/cgroup',
};

/** v1 writes "no limit" as the largest page-aligned 64-bit number; anything this large is none. */
const NO_LIMIT = 2 ** 60;

/** Reads this process's control-group limits and usage; `{}` where there are none (or no cgroups). */
export async function readCgroup(
  paths: CgroupPaths = DEFAULT_CGROUP_PATHS,
): Promise<CgroupReading> {
  const membership = await readText(paths.self);
  if (membership === undefined) return {};
  const groups = membership
    .split('\n')
    .map((line) => /^(\d+):([^:]*):(.*)$/.exec(line.trim()))
    .flatMap((match) => (match ? [{ controllers: match[2]!.split(','), path: match[3]! }] : []));
  // A v1 controller's own hierarchy wins: on a hybrid host the v2 mount holds no controllers.
  const v1 = (name: string) => groups.find((group) => group.controllers.includes(name));
  if (v1('memory') || v1('cpu')) return readV1(paths.root, v1);
  const unified = groups.find(
    (group) => group.controllers.length === 1 && group.controllers[0] === '',
  );
  if (unified && (await readText(path.join(paths.root, 'cgroup.controllers'))) !== undefined)
    return readV2(paths.root, unified.path);
  return {};
}

async function readV2(root: string, groupPath: string): Promise<CgroupReading> {
  const own = await groupDir(root, groupPath);
  const reading: CgroupReading = {};
  // The tightest limit on the way up is the one in force.
  let limitBytes: number | undefined;
  let cores: number | undefined;
  for (const dir of upTo(root, own)) {
    const memory = numberOf(await readText(path.join(dir, 'memory.max')));
    if (memory !== undefined) limitBytes = Math.min(limitBytes ?? Infinity, memory);
    const [quota, period] = (await readText(path.join(dir, 'cpu.max')))?.trim().split(/\s+/) ?? [];
    const quotaMicros = numberOf(quota);
    const periodMicros = numberOf(period);
    if (quotaMicros !== undefined && periodMicros)
      cores = Math.min(cores ?? Infinity, quotaMicros / periodMicros);
  }
  if (limitBytes !== undefined) {
    const current = numberOf(await readText(path.join(own, 'memory.current'))) ?? 0;
    const inactiveFile =
      statField(await readText(path.join(own, 'memory.stat')), 'inactive_file') ?? 0;
    reading.memory = { limitBytes, usedBytes: Math.max(0, current - inactiveFile) };
  }
  if (cores !== undefined) {
    reading.cpu = {
      cores,
      usageMicros: statField(await readText(path.join(own, 'cpu.stat')), 'usage_usec'),
    };
  }
  return reading;
}

async function readV1(
  root: string,
  find: (controller: string) => { controllers: string[]; path: string } | undefined,
): Promise<CgroupReading> {
  const reading: CgroupReading = {};
  const memoryGroup = find('memory');
  if (memoryGroup) {
    const mount = path.join(root, 'memory');
    const own = await groupDir(mount, memoryGroup.path);
    let limitBytes: number | undefined;
    for (const dir of upTo(mount, own)) {
      const limit = numberOf(await readText(path.join(dir, 'memory.limit_in_bytes')));
      if (limit !== undefined && limit < NO_LIMIT)
        limitBytes = Math.min(limitBytes ?? Infinity, limit);
    }
    if (limitBytes !== undefined) {
      const usage = numberOf(await readText(path.join(own, 'memory.usage_in_bytes'))) ?? 0;
      const inactiveFile =
        statField(await readText(path.join(own, 'memory.stat')), 'total_inactive_file') ?? 0;
      reading.memory = { limitBytes, usedBytes: Math.max(0, usage - inactiveFile) };
    }
  }
  const cpuGroup = find('cpu');
  if (cpuGroup) {
    // Mounted under the controllers' joined names (`cpu,cpuacct`), often with `cpu` linked to it.
    const mount = path.join(root, cpuGroup.controllers.join(','));
    const own = await groupDir(mount, cpuGroup.path);
    let cores: number | undefined;
    for (const dir of upTo(mount, own)) {
      const quota = numberOf(await readText(path.join(dir, 'cpu.cfs_quota_us')));
      const period = numberOf(await readText(path.join(dir, 'cpu.cfs_period_us')));
      if (quota !== undefined && quota > 0 && period)
        cores = Math.min(cores ?? Infinity, quota / period);
    }
    if (cores !== undefined) {
      const acctGroup = find('cpuacct');
      const acctOwn = acctGroup
        ? await groupDir(path.join(root, acctGroup.controllers.join(',')), acctGroup.path)
        : own;
      const nanos = numberOf(await readText(path.join(acctOwn, 'cpuacct.usage')));
      reading.cpu = { cores, usageMicros: nanos === undefined ? undefined : nanos / 1000 };
    }
  }
  return reading;
}

/**
 * The process's group directory: its path under the mount, or the mount itself when the runtime
 * gave the container a cgroup namespace (the path then names a group the container cannot see).
 */
async function groupDir(mount: string, groupPath: string): Promise<string> {
  const own = path.join(mount, groupPath);
  const inside = own === mount || own.startsWith(`${mount}${path.sep}`);
  if (
    inside &&
    (await fs.stat(own).then(
      (stat) => stat.isDirectory(),
      () => false,
    ))
  )
    return own;
  return mount;
}

/** `dir` and each of its parents up to `mount`, nearest first. */
function upTo(mount: string, dir: string): string[] {
  const dirs = [dir];
  for (let current = dir; current !== mount && current.startsWith(mount);) {
    current = path.dirname(current);
    dirs.push(current);
  }
  return dirs;
}

async function readText(file: string): Promise<string | undefined> {
  try {
    return await fs.readFile(file, 'utf8');
  } catch {
    return undefined;
  }
}

/** A number written alone in a file; undefined for `max`, nothing or anything else. */
function numberOf(text: string | undefined): number | undefined {
  const value = text?.trim();
  if (!value || !/^-?\d+$/.test(value)) return undefined;
  return Number(value);
}

/** A `name value` line of a stat file. */
function statField(text: string | undefined, name: string): number | undefined {
  const match = text && new RegExp(`^${name} (\\d+)$`, 'm').exec(text);
  return match ? Number(match[1]) : undefined;
}
