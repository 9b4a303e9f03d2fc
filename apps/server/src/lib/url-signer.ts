import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

/** How long a signed address lasts, at most. */
export const SIGNED_URL_TTL_SECONDS = 60 * 60;
/**
 * Expiries are rounded down to this step, so a list hands out the same addresses for a quarter of
 * an hour (browsers keep using their cached copies) and each lasts 45 to 60 minutes.
 */
const EXPIRY_STEP_SECONDS = 15 * 60;

/** The query of a signed address: when it ends (Unix seconds) and its signature. */
export type Signed = { expires: string; signature: string };

/**
 * Signed, expiring addresses of files a page shows without a bearer token (an `<img>` or
 * `<audio>` cannot send one): an HMAC-SHA256 of what the address names (`subject`) and its
 * expiry, with a key derived from the app's secret for `purpose` alone, so a signature is worth
 * nothing as anything else. Every instance with the same secret checks the others' addresses.
 * `lifetime` shortens them (a download started at once needs minutes, not an hour).
 */
export function createUrlSigner(
  appSecret: string,
  purpose: string,
  lifetime: { ttlSeconds: number; stepSeconds: number } = {
    ttlSeconds: SIGNED_URL_TTL_SECONDS,
    stepSeconds: EXPIRY_STEP_SECONDS,
  },
) {
  const key = Buffer.from(hkdfSync('sha256', appSecret, 'contrateia', purpose, 32));
  const sign = (subject: string, expires: number): string =>
    createHmac('sha256', key).update(`${subject}\n${expires}`).digest('base64url');

  return {
    /**
     * A signed address's query for `subject`, valid from `now` for 45 to 60 minutes (by default:
     * the lifetime less up to a step).
     */
    sign(subject: string, now: Date): Signed {
      const seconds = Math.floor(now.getTime() / 1000);
      const expires = seconds - (seconds % lifetime.stepSeconds) + lifetime.ttlSeconds;
      return { expires: String(expires), signature: sign(subject, expires) };
    },

    /**
     * How many seconds the signed address has left, or null when its signature is not ours for
     * `subject`, or it has expired.
     */
    check(subject: string, { expires, signature }: Partial<Signed>, now: Date): number | null {
      if (!expires || !signature || !/^\d{1,12}$/.test(expires)) return null;
      const until = Number(expires);
      const left = until - Math.floor(now.getTime() / 1000);
      if (left <= 0) return null;
      const expected = Buffer.from(sign(subject, until));
      const given = Buffer.from(signature);
      return given.length === expected.length && timingSafeEqual(given, expected) ? left : null;
    },
  };
}
