import { fileTypeFromFile } from 'file-type';
import sharp, { type Metadata, type Sharp, type SharpOptions } from 'sharp';
import { IMAGE_MAX_PIXELS, type ImageFormat } from '@contrateia/shared';
import { imageDamaged, imageInvalid, imageTooManyPixels } from './images.errors';

/** Each format an upload may be: its media type, the extensions a file of it may have, its name. */
export const FORMATS: Record<ImageFormat, { mime: string; extensions: string[]; label: string }> = {
  jpeg: { mime: 'image/jpeg', extensions: ['jpg', 'jpeg'], label: 'JPEG' },
  png: { mime: 'image/png', extensions: ['png'], label: 'PNG' },
  gif: { mime: 'image/gif', extensions: ['gif'], label: 'GIF' },
  webp: { mime: 'image/webp', extensions: ['webp'], label: 'WebP' },
  avif: { mime: 'image/avif', extensions: ['avif'], label: 'AVIF' },
};

const FORMAT_OF_MIME = new Map(
  Object.entries(FORMATS).map(([format, { mime }]) => [mime, format as ImageFormat]),
);

/** The longest side of a thumbnail, in pixels. */
export const THUMBNAIL_SIZE = 320;
export const THUMBNAIL_MIME = 'image/webp';

/**
 * Decoding stops at the first sign of damaged data, a decoder's warning included (sharp's advice
 * for untrusted input: a truncated file, a JPEG with garbage in its middle), and after
 * TIMEOUT_SECONDS: a crafted file must not hold a libvips thread.
 */
const DECODE: SharpOptions = { failOn: 'warning', limitInputPixels: IMAGE_MAX_PIXELS };
const TIMEOUT_SECONDS = 30;

export type Inspection = { format: ImageFormat; animated: boolean };

/**
 * What an uploaded file really is, from its bytes alone (its name and the client's media type
 * are not asked): one of the raster formats, its frames, and its size in pixels within
 * IMAGE_MAX_PIXELS. Two readers must agree: file-type's signatures first, so that only the
 * decoders of these five formats ever see the file (never libvips' SVG, PDF, TIFF… loaders), then
 * sharp's header. Throws a 400 otherwise (images.errors.ts).
 */
export async function inspectImage(file: string): Promise<Inspection> {
  const sniffed = await fileTypeFromFile(file).catch(() => undefined);
  const format = sniffed && FORMAT_OF_MIME.get(sniffed.mime);
  if (!format) throw imageInvalid();
  let metadata: Metadata;
  try {
    // The pixel limit is checked below, with a message of its own.
    metadata = await sharp(file, { ...DECODE, limitInputPixels: false }).metadata();
  } catch (error) {
    throw imageDamaged({ cause: error });
  }
  const read =
    metadata.format === 'heif'
      ? metadata.compression === 'av1'
        ? 'avif'
        : undefined
      : metadata.format;
  if (read !== format) throw imageInvalid();
  const animated = (format === 'gif' || format === 'webp') && (metadata.pages ?? 1) > 1;
  const pixels = metadata.width * metadata.height * (animated ? (metadata.pages ?? 1) : 1);
  if (!(pixels > 0)) throw imageDamaged();
  if (pixels > IMAGE_MAX_PIXELS) throw imageTooManyPixels(IMAGE_MAX_PIXELS / 1_000_000);
  return { format, animated };
}

export type Encoded = {
  image: { data: Buffer; width: number; height: number };
  thumbnail: { data: Buffer };
};

/**
 * The file re-encoded in its own format, and a thumbnail (WebP, THUMBNAIL_SIZE at most on its
 * longer side, from the first frame). Re-encoding keeps only the pixels: EXIF, ICC, XMP, comments
 * and whatever follows the image data (a script appended to a JPEG) are gone, the colours are
 * converted to sRGB, and the EXIF orientation is applied. An animated GIF or WebP stays animated
 * (every frame re-encoded); its orientation is left as it is (sharp rotates no multi-frame image,
 * and neither format's animations carry one in practice). A file that fails to decode is a 400.
 */
export async function encodeImage(
  file: string,
  { format, animated }: Inspection,
): Promise<Encoded> {
  // Every frame, or the first one oriented as its EXIF says.
  const frames = (which: 'all' | 'first'): Sharp => {
    const pipeline = sharp(file, { ...DECODE, animated: which === 'all' }).timeout({
      seconds: TIMEOUT_SECONDS,
    });
    return which === 'all' ? pipeline : pipeline.autoOrient();
  };
  try {
    const [image, thumbnail] = await Promise.all([
      reencode(frames(animated ? 'all' : 'first'), format).toBuffer({ resolveWithObject: true }),
      frames('first')
        .resize({
          width: THUMBNAIL_SIZE,
          height: THUMBNAIL_SIZE,
          fit: 'inside',
          withoutEnlargement: true,
        })
        .webp({ quality: 75 })
        .toBuffer(),
    ]);
    // An animation's height is its frames' together; the image's is one frame's.
    const height = image.info.pageHeight ?? image.info.height;
    return {
      image: { data: image.data, width: image.info.width, height },
      thumbnail: { data: thumbnail },
    };
  } catch (error) {
    throw imageDamaged({ cause: error });
  }
}

function reencode(pipeline: Sharp, format: ImageFormat): Sharp {
  switch (format) {
    case 'jpeg':
      return pipeline.jpeg({ quality: 85 });
    case 'png':
      return pipeline.png();
    case 'gif':
      return pipeline.gif();
    case 'webp':
      return pipeline.webp({ quality: 85 });
    case 'avif':
      return pipeline.avif({ quality: 60 });
  }
}
