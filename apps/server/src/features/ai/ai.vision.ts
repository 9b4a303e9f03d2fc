import sharp from 'sharp';
import { IMAGE_MAX_PIXELS } from '@contrateia/shared';
import { MAX_IMAGES_PER_TURN, type EngineImage } from './ai.service';

/**
 * Pictures as a model that sees takes them: at most MAX_IMAGES_PER_TURN (the last ones sent),
 * each a data URL. A JPEG or PNG already within VISION_MAX_SIDE goes as it came; anything else
 * (larger, WebP stickers, GIF, AVIF) is decoded, its first frame scaled to fit and re-encoded,
 * as PNG when it has transparency and JPEG otherwise, which every vision model reads. A picture
 * that cannot be decoded is left out.
 */

/** The longest side a picture keeps: what vision models scale down to anyway. */
export const VISION_MAX_SIDE = 1024;
/** A JPEG or PNG over this many bytes is re-encoded even when its sides fit. */
const AS_IS_MAX_BYTES = 1024 * 1024;

export async function visionDataUrls(images: EngineImage[]): Promise<string[]> {
  const urls: string[] = [];
  for (const image of images.slice(-MAX_IMAGES_PER_TURN)) {
    const url = await dataUrlOf(image).catch(() => undefined);
    if (url) urls.push(url);
  }
  return urls;
}

async function dataUrlOf({ mimetype, data }: EngineImage): Promise<string> {
  const type = mimetype.split(';')[0]!.trim().toLowerCase();
  const decoded = sharp(data, { limitInputPixels: IMAGE_MAX_PIXELS });
  const { width, height, hasAlpha } = await decoded.metadata();
  const fits = Math.max(width, height) <= VISION_MAX_SIDE;
  if (fits && data.length <= AS_IS_MAX_BYTES && (type === 'image/jpeg' || type === 'image/png'))
    return `data:${type};base64,${data.toString('base64')}`;
  const resized = decoded.rotate().resize({
    width: VISION_MAX_SIDE,
    height: VISION_MAX_SIDE,
    fit: 'inside',
    withoutEnlargement: true,
  });
  const [format, bytes] = hasAlpha
    ? (['image/png', await resized.png().toBuffer()] as const)
    : (['image/jpeg', await resized.jpeg({ quality: 85 }).toBuffer()] as const);
  return `data:${format};base64,${bytes.toString('base64')}`;
}
