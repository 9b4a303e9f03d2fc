import { createHash } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

export class DataDirLockedError extends Error {}

/**
 * Holds an exclusive lock on the data directory for the life of the process, so a second server
 * never opens the same embedded database (PGlite silently loses data when two processes share
 * one).
 *
 * The lock is a listening Unix socket rather than a lock file with a heartbeat: the kernel frees
 * it the moment the process dies, even by kill -9, and a process busy for seconds (PGlite's first
 * start blocks the event loop) still holds it. On Linux it lives in the abstract namespace (no file
 * at all); elsewhere it is a socket file, which a live owner answers and a dead one does not.
 */
export async function lockDataDir(dataDir: string): Promise<{ release: () => Promise<void> }> {
  const real = fs.realpathSync(dataDir);
  const address =
    process.platform === 'linux'
      ? `\0contrateia-data-${createHash('sha256').update(real).digest('hex').slice(0, 40)}`
      : path.join(real, '.server.lock');
  const server = net.createServer((socket) => socket.destroy());
  try {
    await listen(server, address);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    if (process.platform === 'linux' || (await isAnswered(address))) {
      throw new DataDirLockedError(
        `Another ContrateIA server is already using DATA_DIR ${real}; stop it or give this one another DATA_DIR.`,
      );
    }
    fs.rmSync(address, { force: true }); // left by a process that died
    await listen(server, address);
  }
  server.unref();
  return { release: () => new Promise((resolve) => server.close(() => resolve())) };
}

function listen(server: net.Server, address: string): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(address, () => {
      server.off('error', reject);
      resolve();
    });
  });
}

function isAnswered(address: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(address);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
