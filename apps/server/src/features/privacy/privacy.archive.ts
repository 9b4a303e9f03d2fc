import type { PassThrough, Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { FastifyBaseLogger } from 'fastify';
import { ZipFile } from 'yazl';

/** The export's JSON inside the archive, beside the files. */
export const ARCHIVE_DATA_FILE = 'data.json';

/** A stored file of the account's, as the ZIP variant of "Download my data" holds it. */
export type ArchiveFile = {
  /** Where it goes in the archive: made of the server's names only, never a contact's. */
  path: string;
  /** The entry's date (when it was received). */
  modifiedAt: Date;
  /** Opens it for reading; undefined when it is gone (the retention removed it since it was listed). */
  open: () => Promise<{ stream: Readable; size: number } | undefined>;
  /** Told when it was gone by its turn, before the JSON is written: the listing says so. */
  onGone: () => void;
};

/**
 * The account's ZIP: every file under its path, then `data.json` (last, so it says which files
 * the archive really holds). Streamed as it is read, with bounded memory: one file is open at a
 * time and read only as fast as the response is sent (an account may hold gigabytes); files are
 * stored as they are (photos, audio and video are compressed already), the JSON is deflated, and
 * ZIP64 comes in by itself past 4 GB. A file gone by its turn is left out; a file that cannot be
 * read ends the stream with the error, so the download fails instead of handing over an archive
 * that silently lacks it. The caller gone, the file being read is closed and nothing more is read.
 */
export function streamArchive({
  files,
  data,
  logger,
}: {
  files: readonly ArchiveFile[];
  /** Serialized once every file is in (an `onGone` may have changed it). */
  data: unknown;
  logger: FastifyBaseLogger;
}): Readable {
  const zip = new ZipFile();
  // yazl's output is a PassThrough; its types say only "a readable stream".
  const output = zip.outputStream as PassThrough;
  let reading: Readable | undefined;
  let stopped = false;
  output.once('close', () => {
    stopped = true;
    reading?.destroy();
  });
  zip.on('error', (error: Error) => output.destroy(error));

  const fill = async () => {
    for (const file of files) {
      if (stopped) return;
      const opened = await file.open();
      if (!opened) {
        file.onGone();
        continue;
      }
      if (stopped) {
        opened.stream.destroy();
        return;
      }
      reading = opened.stream;
      zip.addReadStream(opened.stream, file.path, {
        compress: false,
        size: opened.size,
        mtime: file.modifiedAt,
      });
      // The next one is opened only once this one is read through.
      await finished(opened.stream);
      reading = undefined;
    }
    if (stopped) return;
    zip.addBuffer(Buffer.from(JSON.stringify(data, null, 2)), ARCHIVE_DATA_FILE);
    zip.end();
  };
  fill().catch((error: unknown) => {
    if (stopped) return;
    logger.error({ err: error }, 'privacy: the account archive could not be completed');
    output.destroy(error instanceof Error ? error : new Error(String(error)));
  });
  return output;
}
