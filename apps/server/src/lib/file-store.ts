import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';

/** Uploads being received: files older than this were left by a process that stopped mid-upload. */
const ABANDONED_AFTER_MS = 60 * 60_000;

export type FileStore = ReturnType<typeof createFileStore>;

/**
 * Stored files of one kind (the image library's DATA_DIR/images, WhatsApp's DATA_DIR/media): one
 * directory shared by every instance, holding only names the server made, and `.incoming/`
 * beneath it for uploads being received. Nothing here knows about rows; the feature keeps the two
 * in step.
 */
export function createFileStore({ dir, logger }: { dir: string; logger: FastifyBaseLogger }) {
  const incoming = path.join(dir, '.incoming');

  /** The path of a stored file; its name is the server's (`<uuid>.<ext>`), never a client's. */
  const pathOf = (name: string): string => {
    if (path.basename(name) !== name || name.startsWith('.'))
      throw new Error(`not a stored file name: ${name}`);
    return path.join(dir, name);
  };

  return {
    /** Makes the directories, and removes what an upload interrupted by a stop left behind. */
    async prepare(): Promise<void> {
      await fs.mkdir(incoming, { recursive: true });
      const cutoff = Date.now() - ABANDONED_AFTER_MS;
      for (const name of await fs.readdir(incoming)) {
        const file = path.join(incoming, name);
        const stat = await fs.stat(file).catch(() => undefined);
        if (stat && stat.mtimeMs < cutoff) await fs.rm(file, { force: true });
      }
    },

    /** A new path to receive an upload in; whoever asks removes it (`discard`). */
    incomingPath: (): string => path.join(incoming, randomUUID()),

    /** Removes a received upload, whether or not it was ever written. */
    discard: (file: string): Promise<void> => fs.rm(file, { force: true }),

    /** The path a stored file is read from (by a transport that streams it). */
    pathOf,

    /**
     * Makes a received upload (`incomingPath`, on the same disk) the stored file `name`, a new
     * name the server made (a random UUID: no file has it yet).
     */
    async adopt(file: string, name: string): Promise<void> {
      await fs.rename(file, pathOf(name));
    },

    /** Writes a new stored file; never replaces one. */
    async write(name: string, data: Buffer): Promise<void> {
      await fs.mkdir(dir, { recursive: true });
      await fs.writeFile(pathOf(name), data, { flag: 'wx' });
    },

    /**
     * Removes stored files; a failure is logged, not thrown (the row is gone already, and a file
     * nobody names is only space).
     */
    async remove(names: string[]): Promise<void> {
      await Promise.all(
        names.map((name) =>
          fs
            .rm(pathOf(name), { force: true })
            .catch((error: unknown) =>
              logger.error({ err: error, file: name }, 'stored file could not be removed'),
            ),
        ),
      );
    },

    /**
     * Opens a stored file for reading, with its size; undefined when it is gone (deleted on
     * another instance since its row was read). Opened first, then read through the handle, so
     * a deletion in between cannot make the answer fail half way.
     */
    async open(name: string): Promise<{ handle: fs.FileHandle; size: number } | undefined> {
      let handle: fs.FileHandle;
      try {
        handle = await fs.open(pathOf(name), 'r');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
        throw error;
      }
      try {
        return { handle, size: (await handle.stat()).size };
      } catch (error) {
        await handle.close();
        throw error;
      }
    },
  };
}
