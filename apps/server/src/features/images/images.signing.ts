import { createUrlSigner as createSigner, type Signed } from '@/lib/url-signer';

export type ImageSize = 'full' | 'thumb';
export { SIGNED_URL_TTL_SECONDS, type Signed } from '@/lib/url-signer';

/**
 * Signed, expiring addresses of private images (lib/url-signer.ts): an image's id and size are
 * what an address names, under a key of the images' own.
 */
export function createUrlSigner(appSecret: string) {
  const signer = createSigner(appSecret, 'image urls v1');
  return {
    /** A signed address's query for `id` at `size`, valid from `now` for 45 to 60 minutes. */
    sign: (id: string, size: ImageSize, now: Date): Signed => signer.sign(`${id}\n${size}`, now),
    /** Seconds the signed address has left, or null when it is not ours for this image and size, or expired. */
    check: (id: string, size: ImageSize, signed: Partial<Signed>, now: Date): number | null =>
      signer.check(`${id}\n${size}`, signed, now),
  };
}
