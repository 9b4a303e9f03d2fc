import fs from 'node:fs';
import path from 'node:path';
import lockfile from 'proper-lockfile';

export class DataDirLockedError extends Error {}

/** How the lock ages. */
export const LOCK_TIMINGS = {
  /** A lock not refreshed for this long belongs to a dead process and is taken over. */
  staleMs: 5_000,
  /** How often the holder refreshes it. */
  updateMs: 1_000,
};

/**
 * Holds an exclusive lock on the data directory for the life of the process, so a second server
 * never opens the same embedded database (PGlite silently loses data when two processes share
 * one).
 *
 * The lock lives in the directory itself (`.server.lock`, proper-lockfile: an atomic mkdir whose
 * mtime the holder refreshes every second), so it holds between any two processes that see the
 * directory: containers mounting one volume, processes in other network namespaces. A process
 * killed with SIGKILL leaves the lock behind, but it goes stale within 5 s; a new start waits
 * that long before giving up, so a restart after a crash is never refused.
 *
 * `onLost` runs if the lock is ever taken from this process (its refreshes stopped for longer than
 * the stale time): the caller must stop using the directory at once.
 */
export async function lockDataDir(
  dataDir: string,
  { onLost }: { onLost: (error: Error) => void },
): Promise<{ release: () => Promise<void> }> {
  const real = fs.realpathSync(dataDir);
  const { staleMs, updateMs } = LOCK_TIMINGS;
  try {
    const release = await lockfile.lock(real, {
      lockfilePath: path.join(real, '.server.lock'),
      stale: staleMs,
      update: updateMs,
      // Long enough for a dead holder's lock to go stale, so only a live holder refuses the start.
      retries: {
        retries: Math.ceil((staleMs + 2 * updateMs) / updateMs),
        factor: 1,
        minTimeout: updateMs,
        maxTimeout: updateMs,
      },
      realpath: false,
      onCompromised: onLost,
    });
    return { release: () => release().catch(() => {}) };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ELOCKED') {
      throw new DataDirLockedError(
        `Another ContrateIA server is already using DATA_DIR ${real}; stop it or give this one another DATA_DIR.`,
      );
    }
    throw error;
  }
}
