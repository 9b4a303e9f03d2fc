import sharp from 'sharp';

/** A small real JPEG, as a phone's camera sends one. */
export const photo = () =>
  sharp({ create: { width: 40, height: 30, channels: 3, background: '#c83' } })
    .jpeg()
    .toBuffer();

/**
 * The first page of a voice note as WhatsApp records it: an Ogg stream whose first packet is an
 * Opus header, and some of its audio.
 */
export function voiceNote(): Buffer {
  const head = Buffer.concat([
    Buffer.from('OpusHead'),
    Buffer.from([1, 1, 0x38, 0x01, 0x80, 0xbb, 0, 0, 0, 0, 0]),
  ]);
  const page = Buffer.alloc(27);
  page.write('OggS', 0);
  page[5] = 2; // the stream's first page
  page.writeUInt32LE(0x4f505553, 14); // the stream's serial number
  page[26] = 1; // one segment
  return Buffer.concat([page, Buffer.from([head.length]), head, Buffer.alloc(64, 7)]);
}

/** The start of an MP4 file as a phone records one: its `ftyp` box, then some of its data. */
export const VIDEO = Buffer.concat([
  Buffer.from([0, 0, 0, 0x18]),
  Buffer.from('ftypmp42'),
  Buffer.from([0, 0, 0, 0]),
  Buffer.from('mp42isom'),
  Buffer.alloc(256, 1),
]);

/** A video's still as WhatsApp attaches one (`jpegThumbnail`): a small JPEG, with its EXIF. */
export const videoStill = () =>
  sharp({ create: { width: 96, height: 54, channels: 3, background: '#2a6' } })
    .withMetadata({ exif: { IFD0: { Copyright: 'the sender' } } })
    .jpeg()
    .toBuffer();

/** What a kept still (`media.poster`) shows: its type, size and whether metadata was kept. */
export async function posterShown(poster: string | undefined) {
  const match = /^data:image\/jpeg;base64,([A-Za-z0-9+/]+={0,2})$/.exec(poster ?? '');
  if (!match) return undefined;
  const { format, width, height, exif } = await sharp(Buffer.from(match[1]!, 'base64')).metadata();
  return { format, width, height, exif: exif !== undefined };
}
