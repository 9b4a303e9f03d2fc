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
