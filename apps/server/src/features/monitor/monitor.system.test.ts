import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readCgroup, type CgroupPaths } from './monitor.cgroup';
import { createSystemSampler } from './monitor.system';

const GiB = 1024 ** 3;
const temporary = fs.mkdtempSync(path.join(os.tmpdir(), 'contrateia-cgroup-'));
afterAll(() => fs.rmSync(temporary, { recursive: true, force: true }));

let trees = 0;
/** A control-group tree as the kernel shows it (its files, with the values given), and this process's membership. */
function cgroupTree(self: string, files: Record<string, string>): CgroupPaths {
  trees += 1;
  const root = path.join(temporary, `tree-${trees}`, 'sys/fs/cgroup');
  for (const [file, content] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), content);
  }
  fs.mkdirSync(root, { recursive: true });
  const selfFile = path.join(temporary, `tree-${trees}`, 'proc-self-cgroup');
  fs.writeFileSync(selfFile, self);
  return { root, self: selfFile };
}

const write = (paths: CgroupPaths, file: string, content: string) =>
  fs.writeFileSync(path.join(paths.root, file), content);

describe('the control group of the process', () => {
  it('v2 with limits: memory.max and cpu.max, the tightest on the way up, and the usage without reclaimable cache', async () => {
    const paths = cgroupTree('0::/kubepods/pod1/app\n', {
      'cgroup.controllers': 'cpu memory io\n',
      'kubepods/memory.max': `${4 * GiB}\n`,
      'kubepods/cpu.max': 'max 100000\n',
      'kubepods/pod1/memory.max': `${GiB}\n`,
      'kubepods/pod1/cpu.max': '150000 100000\n',
      'kubepods/pod1/app/memory.max': 'max\n',
      'kubepods/pod1/app/cpu.max': 'max 100000\n',
      'kubepods/pod1/app/memory.current': `${600 * 1024 * 1024}\n`,
      'kubepods/pod1/app/memory.stat': `anon 400000000\nfile 200000000\ninactive_file ${100 * 1024 * 1024}\nactive_file 1000\n`,
      'kubepods/pod1/app/cpu.stat':
        'usage_usec 123456789\nuser_usec 100000000\nsystem_usec 23456789\n',
    });
    expect(await readCgroup(paths)).toEqual({
      memory: { limitBytes: GiB, usedBytes: 500 * 1024 * 1024 },
      cpu: { cores: 1.5, usageMicros: 123456789 },
    });
  });

  it('v2 in its own namespace (the path names a group the container cannot see): the mount is its group', async () => {
    const paths = cgroupTree('0::/../../system.slice/docker-abc.scope\n', {
      'cgroup.controllers': 'cpu memory\n',
      'memory.max': `${2 * GiB}\n`,
      'cpu.max': '200000 100000\n',
      'memory.current': `${GiB}\n`,
      'memory.stat': 'inactive_file 0\n',
      'cpu.stat': 'usage_usec 42\n',
    });
    expect(await readCgroup(paths)).toEqual({
      memory: { limitBytes: 2 * GiB, usedBytes: GiB },
      cpu: { cores: 2, usageMicros: 42 },
    });
  });

  it('v2 without limits: nothing', async () => {
    const paths = cgroupTree('0::/\n', {
      'cgroup.controllers': 'cpu memory\n',
      'memory.max': 'max\n',
      'cpu.max': 'max 100000\n',
      'memory.current': '1000\n',
    });
    expect(await readCgroup(paths)).toEqual({});
  });

  it('v1 with limits: memory.limit_in_bytes, cpu.cfs_quota_us over cpu.cfs_period_us, cpuacct.usage', async () => {
    const paths = cgroupTree(
      '12:memory:/docker/abc\n4:cpu,cpuacct:/docker/abc\n1:name=systemd:/docker/abc\n0::/\n',
      {
        'memory/memory.limit_in_bytes': '9223372036854771712\n',
        'memory/docker/abc/memory.limit_in_bytes': `${512 * 1024 * 1024}\n`,
        'memory/docker/abc/memory.usage_in_bytes': `${300 * 1024 * 1024}\n`,
        'memory/docker/abc/memory.stat': `cache 1000\ntotal_inactive_file ${44 * 1024 * 1024}\n`,
        'cpu,cpuacct/cpu.cfs_quota_us': '-1\n',
        'cpu,cpuacct/cpu.cfs_period_us': '100000\n',
        'cpu,cpuacct/docker/abc/cpu.cfs_quota_us': '50000\n',
        'cpu,cpuacct/docker/abc/cpu.cfs_period_us': '100000\n',
        'cpu,cpuacct/docker/abc/cpuacct.usage': '7000000\n',
      },
    );
    expect(await readCgroup(paths)).toEqual({
      memory: { limitBytes: 512 * 1024 * 1024, usedBytes: 256 * 1024 * 1024 },
      cpu: { cores: 0.5, usageMicros: 7000 },
    });
  });

  it('v1 without limits (the largest number for "none", a quota of -1), as on these machines: nothing', async () => {
    const paths = cgroupTree('4:memory:/process_api/460949\n2:cpuacct:/\n1:cpu:/\n0::/\n', {
      'memory/memory.limit_in_bytes': '9223372036854771712\n',
      'memory/process_api/460949/memory.limit_in_bytes': '9223372036854771712\n',
      'memory/process_api/460949/memory.usage_in_bytes': '814178304\n',
      'cpu/cpu.cfs_quota_us': '-1\n',
      'cpu/cpu.cfs_period_us': '100000\n',
    });
    expect(await readCgroup(paths)).toEqual({});
  });

  it('no control groups at all (another system): nothing', async () => {
    expect(
      await readCgroup({
        root: path.join(temporary, 'none'),
        self: path.join(temporary, 'none', 'cgroup'),
      }),
    ).toEqual({});
  });
});

describe("the machine's figures", () => {
  it("are the container's when it has limits: its memory, its CPU quota and the CPU time it used since the last reading", async () => {
    const paths = cgroupTree('0::/\n', {
      'cgroup.controllers': 'cpu memory\n',
      'memory.max': `${256 * 1024 * 1024}\n`,
      'cpu.max': '150000 100000\n',
      'memory.current': `${64 * 1024 * 1024}\n`,
      'memory.stat': 'inactive_file 0\n',
      'cpu.stat': 'usage_usec 1000\n',
    });
    const sampler = createSystemSampler({ dataDir: temporary, cgroup: paths });
    try {
      const first = await sampler.sample();
      expect(first.figures).toMatchObject({
        containerLimits: true,
        cpuCores: 2,
        memoryTotalBytes: 256 * 1024 * 1024,
        memoryUsedBytes: 64 * 1024 * 1024,
      });
      expect(first.performance.memory).toBe(25);
      // Not a microsecond of CPU since the sampler started: none of it.
      expect(first.performance.cpu).toBe(0);
      // Far more CPU time than 1.5 cores could use since the last reading: all of it.
      write(paths, 'cpu.stat', `usage_usec ${1000 + 3_600_000_000}\n`);
      expect((await sampler.sample()).performance.cpu).toBe(100);
      // Nothing more since: none again.
      const idle = await sampler.sample();
      expect(idle.performance.cpu).toBe(0);
    } finally {
      await sampler.close();
    }
  });

  it("are the machine's without limits, with the disk of the data directory's file system", async () => {
    const paths = cgroupTree('0::/\n', {
      'cgroup.controllers': 'cpu memory\n',
      'memory.max': 'max\n',
      'cpu.max': 'max 100000\n',
    });
    const sampler = createSystemSampler({ dataDir: temporary, cgroup: paths });
    try {
      const { performance, figures } = await sampler.sample();
      expect(figures.containerLimits).toBe(false);
      expect(figures.memoryTotalBytes).toBe(os.totalmem());
      expect(figures.cpuCores).toBe(os.cpus().length);
      const disk = fs.statfsSync(temporary);
      expect(figures.diskTotalBytes).toBe(disk.blocks * disk.bsize);
      expect(figures.diskUsedBytes).toBeGreaterThan(0);
      for (const share of [performance.cpu, performance.memory, performance.disk]) {
        expect(share).toBeGreaterThanOrEqual(0);
        expect(share).toBeLessThanOrEqual(100);
      }
      expect(performance.network === null).toBe(figures.networkLinkBitsPerSecond === null);
    } finally {
      await sampler.close();
    }
  });

  it('reports an empty disk rather than failing when the data directory cannot be read', async () => {
    const sampler = createSystemSampler({
      dataDir: path.join(temporary, 'does-not-exist'),
      cgroup: cgroupTree('', {}),
    });
    try {
      const { performance, figures } = await sampler.sample();
      expect(figures).toMatchObject({ diskUsedBytes: 0, diskTotalBytes: 0 });
      expect(performance.disk).toBe(0);
    } finally {
      await sampler.close();
    }
  });
});
