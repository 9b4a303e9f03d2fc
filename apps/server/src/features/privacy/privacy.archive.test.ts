import { once } from 'node:events';
import { Readable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import yauzl from 'yauzl';
import { streamArchive, type ArchiveFile } from './privacy.archive';

// The ZIP of "Download my data" is written as it is read: one file open at a time, a file gone by
// its turn left out (and the listing told), the reading stopped when the caller goes away.

const logger = pino({ level: 'silent' });

/** A file of `chunks` chunks of 64 KiB, recording when it is opened and when it is read through. */
function fileOf(name: string, chunks: number, events: string[]): ArchiveFile & { bytes: Buffer } {
  const bytes = Buffer.alloc(chunks * 65_536, name);
  return {
    bytes,
    path: `media/c/${name}.bin`,
    modifiedAt: new Date('2025-01-07T12:00:00Z'),
    onGone: () => events.push(`gone ${name}`),
    open: async () => {
      events.push(`open ${name}`);
      const stream = Readable.from(
        Array.from({ length: chunks }, (_, i) => bytes.subarray(i * 65_536, (i + 1) * 65_536)),
        { objectMode: false },
      );
      stream.once('end', () => events.push(`end ${name}`));
      return { stream, size: bytes.length };
    },
  };
}

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function entriesOf(zip: Buffer): Promise<Map<string, Buffer>> {
  return new Promise((resolve, reject) => {
    yauzl.fromBuffer(zip, { lazyEntries: true }, (error, file) => {
      if (error) return reject(error);
      const entries = new Map<string, Buffer>();
      file.on('end', () => resolve(entries));
      file.on('entry', (entry: yauzl.Entry) =>
        file.openReadStream(entry, (openError, stream) => {
          if (openError) return reject(openError);
          void collect(stream).then((data) => {
            entries.set(entry.fileName, data);
            file.readEntry();
          }, reject);
        }),
      );
      file.readEntry();
    });
  });
}

describe('the account archive', () => {
  it('opens each file once the one before is read through, leaves out a gone one, and writes the JSON last as it then stands', async () => {
    const events: string[] = [];
    const a = fileOf('a', 4, events);
    const b = fileOf('b', 2, events);
    const gone: ArchiveFile = {
      ...fileOf('gone', 1, events),
      open: async () => {
        events.push('open gone');
        return undefined;
      },
    };
    const data = { listing: ['a', 'gone', 'b'] };
    const listed = [a, { ...gone, onGone: () => (data.listing = ['a', 'b']) }, b];

    const entries = await entriesOf(await collect(streamArchive({ files: listed, data, logger })));
    expect([...entries.keys()]).toEqual(['media/c/a.bin', 'media/c/b.bin', 'data.json']);
    expect(entries.get('media/c/a.bin')!.equals(a.bytes)).toBe(true);
    expect(entries.get('media/c/b.bin')!.equals(b.bytes)).toBe(true);
    expect(JSON.parse(entries.get('data.json')!.toString())).toEqual({ listing: ['a', 'b'] });
    expect(events).toEqual(['open a', 'end a', 'open gone', 'open b', 'end b']);
  });

  it('stops reading, and closes the file being read, once the caller goes away', async () => {
    const events: string[] = [];
    let reading: Readable | undefined;
    const endless: ArchiveFile = {
      path: 'media/c/endless.bin',
      modifiedAt: new Date(),
      onGone: () => {},
      open: async () => {
        events.push('open endless');
        reading = new Readable({ read: () => void reading!.push(Buffer.alloc(65_536, 1)) });
        return { stream: reading, size: 1 << 40 };
      },
    };
    const output = streamArchive({
      files: [endless, fileOf('next', 1, events)],
      data: {},
      logger,
    });
    output.resume();
    await once(output, 'data');
    output.destroy();
    await once(reading!, 'close');
    expect(reading!.destroyed).toBe(true);
    expect(events).toEqual(['open endless']);
  });

  it('fails the download, rather than ending it short, when a file cannot be read', async () => {
    const broken: ArchiveFile = {
      path: 'media/c/broken.bin',
      modifiedAt: new Date(),
      onGone: () => {},
      open: async () => {
        const stream = new Readable({
          read() {
            this.destroy(Object.assign(new Error('EIO: i/o error, read'), { code: 'EIO' }));
          },
        });
        return { stream, size: 10 };
      },
    };
    await expect(collect(streamArchive({ files: [broken], data: {}, logger }))).rejects.toThrow(
      'EIO',
    );
  });
});
