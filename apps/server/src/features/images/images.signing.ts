import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

export type ImageSize = 'full' | 'thumb';

/** How long a signed address lasts, at most. */
export const SIGNED_URL_TTL_SECONDS = 60 * 60;
/**
 * Expiries are rounded down to this step, so the list hands out the same addresses for a quarter of
 * an hour (browsers keep using their cached copies) and each lasts 45 to 60 minutes.
 */
const EXPIRY_STEP_SECONDS = 15 * 60;

/** The query of a signed address: when it ends (Unix seconds) and its signature. */
export type Signed = { expires: string; signature: string };

/**
 * Signed, expiring addresses of private images (an `<img>` cannot send a bearer token): an
 * HMAC-SHA256 of the image's id, size and expiry, with a key derived from the app's secret for
 * this use alone, so a signature is worth nothing as anything else. Every instance with the same
 * secret checks the others' addresses.
 */
export function createUrlSigner(appSecret: string) {
  const key = Buffer.from(hkdfSync('sha256', appSecret, 'contrateia', 'image urls v1', 32));
  const sign = (id: string, size: ImageSize, expires: number): string =>
    createHmac('sha256', key).update(`${id}\n${size}\n${expires}`).digest('base64url');

  return {
    /** A signed address's query for `id` at `size`, valid from `now` for 45 to 60 minutes. */
    sign(id: string, size: ImageSize, now: Date): Signed {
      const seconds = Math.floor(now.getTime() / 1000);
      const expires = seconds - (seconds % EXPIRY_STEP_SECONDS) + SIGNED_URL_TTL_SECONDS;
      return { expires: String(expires), signature: sign(id, size, expires) };
    },

    /**
     * How many seconds the signed address has left, or null when its signature is not ours for
     * this image and size, or it has expired.
     */
    check(
      id: string,
      size: ImageSize,
      { expires, signature }: Partial<Signed>,
      now: Date,
    ): number | null {
      if (!expires || !signature || !/^\d{1,12}$/.test(expires)) return null;
      const until = Number(expires);
      const left = until - Math.floor(now.getTime() / 1000);
      if (left <= 0) return null;
      const expected = Buffer.from(sign(id, size, until));
      const given = Buffer.from(signature);
      return given.length === expected.length && timingSafeEqual(given, expected) ? left : null;
    },
  };
}
