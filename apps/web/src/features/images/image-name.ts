import type { Image } from '@contrateia/shared/images/images.schemas';

/** What the page calls an image: its title, else the name of the file it was uploaded as. */
export function imageName(image: Pick<Image, 'title' | 'originalFilename'>): string {
  return image.title.trim() || image.originalFilename;
}
