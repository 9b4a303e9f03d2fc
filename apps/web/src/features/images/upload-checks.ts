import type { PublicSettings } from '@contrateia/shared/settings/settings.schemas';
import { MEGABYTE } from '@/lib/byte-format';

/** The file extensions of the raster formats the server stores (images.schemas IMAGE_FORMATS). */
const IMAGE_EXTENSIONS = ['jpg', 'jpeg', 'png', 'gif', 'webp', 'avif'];

export type UploadLimits = PublicSettings['uploads'];

export type FileProblem =
  | { kind: 'noFile' }
  | { kind: 'notImage' }
  | { kind: 'typeNotAllowed'; types: string[] }
  | { kind: 'tooLarge'; maxBytes: number };

/** The lower-case extension of a file name, without the dot ('' when it has none). */
export function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

/**
 * The types an admin's allowed list lets through as images: the raster ones in it (a `pdf` in
 * the list is allowed for other uploads, not here), or the whole list if it names none.
 */
export function acceptedTypes(limits: UploadLimits): string[] {
  const images = limits.allowedFileTypes.filter((type) => IMAGE_EXTENSIONS.includes(type));
  return images.length > 0 ? images : limits.allowedFileTypes;
}

/**
 * What is wrong with a file before it is sent, or null: none chosen, not an image by its type, an
 * extension the admin's settings do not allow, larger than their limit. Without the settings (not
 * loaded) only the first two are checked. The server checks all of it again, from the bytes.
 */
export function checkImageFile(file: File | null, limits?: UploadLimits): FileProblem | null {
  if (!file) return { kind: 'noFile' };
  if (!file.type.startsWith('image/')) return { kind: 'notImage' };
  if (!limits) return null;
  if (!limits.allowedFileTypes.includes(extensionOf(file.name))) {
    return { kind: 'typeNotAllowed', types: acceptedTypes(limits) };
  }
  const maxBytes = limits.maxFileSize * MEGABYTE;
  if (file.size > maxBytes) return { kind: 'tooLarge', maxBytes };
  return null;
}
