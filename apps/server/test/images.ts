import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { LightMyRequestResponse } from 'fastify';
import sharp from 'sharp';
import type { Language } from '@contrateia/shared';
import type { TestContext } from './helpers';

// Real image files made with sharp, hostile files made by hand, and uploads as a browser's
// FormData sends them, for the image library's tests.

export type TestFormat = 'jpeg' | 'png' | 'gif' | 'webp' | 'avif';

/**
 * An image of `width` × `height` in `format`, with pixels that vary (a flat colour compresses to
 * nothing and hides encoding mistakes). `exif` and `orientation` are written into its metadata.
 */
export async function makeImage(
  format: TestFormat,
  {
    width = 64,
    height = 48,
    exif,
    orientation,
  }: { width?: number; height?: number; exif?: Record<string, string>; orientation?: number } = {},
): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let i = 0; i < pixels.length; i++) pixels[i] = (i * 7919 + (i % width) * 31) % 251;
  let image = sharp(pixels, { raw: { width, height, channels: 3 } });
  if (exif) image = image.withExif({ IFD0: exif });
  if (orientation) image = image.withMetadata({ orientation });
  switch (format) {
    case 'jpeg':
      return image.jpeg().toBuffer();
    case 'png':
      return image.png().toBuffer();
    case 'gif':
      return image.gif().toBuffer();
    case 'webp':
      return image.webp().toBuffer();
    case 'avif':
      return image.avif({ effort: 0 }).toBuffer();
  }
}

/** An animated GIF of `frames` 20×20 frames, each a colour of its own. */
export async function makeAnimatedGif(frames = 3): Promise<Buffer> {
  const colours = ['#ff0000', '#00ff00', '#0000ff', '#ffff00', '#00ffff'];
  const pages = await Promise.all(
    Array.from({ length: frames }, (_, i) =>
      sharp({
        create: { width: 20, height: 20, channels: 4, background: colours[i % colours.length]! },
      })
        .png()
        .toBuffer(),
    ),
  );
  return sharp(pages, { join: { animated: true } })
    .gif({ loop: 0, delay: 100 })
    .toBuffer();
}

/** A PNG chunk: length, type, data and CRC, as the format has them. */
function pngChunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(body));
  return Buffer.concat([length, body, crc]);
}

/**
 * A PNG whose header says `width` × `height` pixels but that holds a few bytes of data: a
 * decompression bomb's header, made without the gigabytes.
 */
export function pngHeaderOnly(width: number, height: number): Buffer {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    pngChunk('IHDR', header),
    pngChunk('IDAT', zlib.deflateSync(Buffer.alloc(64))),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/** What a browser would run if it ever took one of these files for a page or a script. */
export const PAYLOAD = '<script>alert(document.cookie)</script>';

export const HOSTILE = {
  svg: Buffer.from(
    `<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">${PAYLOAD}<rect width="10" height="10"/></svg>`,
  ),
  html: Buffer.from(`<!doctype html><html><body>${PAYLOAD}</body></html>`),
  pdf: Buffer.from(
    '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
  ),
};

/** A GIF that is also JavaScript: `GIF89a` followed by a script after the image's end. */
export async function gifScriptPolyglot(): Promise<Buffer> {
  return Buffer.concat([
    await makeImage('gif', { width: 16, height: 16 }),
    Buffer.from(`\n*/=1;${PAYLOAD}//`),
  ]);
}

export type UploadInput = {
  /** The file, or null for a form without one. */
  file: Buffer | null;
  name?: string;
  /** The media type the client claims (never believed). */
  type?: string;
  fields?: Record<string, string>;
  /** Text fields sent before the file (the default) or after it. */
  fieldsFirst?: boolean;
  token?: string;
  language?: Language;
};

/** The FormData a browser sends for an upload. */
export function uploadForm({
  file,
  name = 'photo.jpg',
  type = 'image/jpeg',
  fields = {},
  fieldsFirst = true,
}: UploadInput): FormData {
  const form = new FormData();
  const addFields = () => {
    for (const [field, value] of Object.entries(fields)) form.append(field, value);
  };
  if (fieldsFirst) addFields();
  if (file) form.append('image', new File([file], name, { type }));
  if (!fieldsFirst) addFields();
  return form;
}

/** POST /api/images/upload as the web app sends it (multipart, bearer token, language). */
export function upload(ctx: TestContext, input: UploadInput): Promise<LightMyRequestResponse> {
  return ctx.app.inject({
    method: 'POST',
    url: '/api/images/upload',
    payload: uploadForm(input),
    headers: {
      ...(input.token ? { authorization: `Bearer ${input.token}` } : {}),
      ...(input.language ? { 'accept-language': input.language } : {}),
    },
  });
}

/** An upload that must succeed: the new image's id. */
export async function uploaded(ctx: TestContext, input: UploadInput): Promise<string> {
  const res = await upload(ctx, input);
  if (res.statusCode !== 200)
    throw new Error(`upload of ${input.name}: ${res.statusCode} ${res.body}`);
  return res.json<{ imageId: string }>().imageId;
}

/** The files in an images directory (uploads being received apart), by name. */
export function storedFiles(dir: string): string[] {
  return fs
    .readdirSync(dir)
    .filter((name) => name !== '.incoming')
    .sort();
}

/** Uploads being received or left behind in an images directory. */
export function incomingFiles(dir: string): string[] {
  const incoming = path.join(dir, '.incoming');
  return fs.existsSync(incoming) ? fs.readdirSync(incoming) : [];
}
