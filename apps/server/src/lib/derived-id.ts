import { createHash } from 'node:crypto';

/**
 * A UUID made from `seed`, the same every time: the id of a record that a job tried again must
 * store once (its insert conflicts with the first try's). Shaped as a version-4 UUID, as the
 * columns' own ids are.
 */
export function derivedUuid(seed: string): string {
  const hex = createHash('sha256').update(seed).digest('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}
