// @ts-check
// The machine's figures, read on a thread of their own (see monitor.system.ts). systeminformation
// runs some of its readings synchronously on whichever thread calls it (it starts `cat` and `ip`
// with execSync: 3–60 ms here, more on a loaded machine): here they hold up nobody, whereas on the
// event loop every request arriving meanwhile would wait.
//
// Plain JavaScript, type-checked through the JSDoc below, so that a worker thread runs it as it is
// from source (tsx, Vitest) as well as from the build (dist/monitor.system-worker.js): loaders do
// not reach worker threads on Node 20. It imports nothing of the application's.
import { parentPort } from 'node:worker_threads';
import si from 'systeminformation';

/** @typedef {import('./monitor.system').MachineFigures} MachineFigures */
/** @typedef {import('./monitor.system').WorkerRequest} WorkerRequest */
/** @typedef {import('./monitor.system').WorkerReply} WorkerReply */

const port = /** @type {import('node:worker_threads').MessagePort} */ (parentPort);

/** The link's speed is read again this often: it rarely changes, and reading it costs most. */
const LINK_SPEED_EVERY_MS = 10 * 60_000;

/** @type {{ iface: string, mbps: number | null, at: number } | undefined} */
let link;

// The first CPU reading waits half a second for a baseline: taken now, while the app starts.
const primed = si.currentLoad().catch(() => undefined);

/**
 * The default interface and its speed in Mbit/s (null when the system does not say, as on most
 * virtual machines).
 * @returns {Promise<{ iface: string, mbps: number | null }>}
 */
async function defaultLink() {
  if (link && Date.now() - link.at < LINK_SPEED_EVERY_MS) return link;
  const found = await si.networkInterfaces('default');
  const speed = typeof found?.speed === 'number' && found.speed > 0 ? found.speed : null;
  link = { iface: found?.iface ?? '', mbps: speed, at: Date.now() };
  return link;
}

/** @returns {Promise<MachineFigures>} */
async function sample() {
  await primed;
  const [load, memory, { iface, mbps }] = await Promise.all([
    si.currentLoad(),
    si.mem(),
    defaultLink(),
  ]);
  const [stats] = iface ? await si.networkStats(iface) : [];
  return {
    cpuPercent: Number.isFinite(load.currentLoad) ? load.currentLoad : 0,
    cpuCount: load.cpus.length,
    memoryTotalBytes: memory.total,
    // What programs hold: the page cache the kernel gives back on demand is not "used".
    memoryUsedBytes: memory.total - memory.available,
    // Null on the first reading of an interface: nothing to compare with yet.
    rxBytesPerSecond: stats?.rx_sec ?? 0,
    txBytesPerSecond: stats?.tx_sec ?? 0,
    linkMbps: mbps,
  };
}

port.on('message', (/** @type {WorkerRequest} */ request) => {
  sample().then(
    (figures) => port.postMessage(/** @type {WorkerReply} */ ({ id: request.id, figures })),
    (/** @type {unknown} */ error) =>
      port.postMessage(
        /** @type {WorkerReply} */ ({
          id: request.id,
          error: error instanceof Error ? error.message : String(error),
        }),
      ),
  );
});
