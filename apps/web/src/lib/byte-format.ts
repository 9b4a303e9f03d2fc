const UNITS = ['kilobyte', 'megabyte', 'gigabyte', 'terabyte'] as const;

/**
 * A size in the language's way of writing it ("1.5 MB", "1,5 MB"), in steps of 1024 as the
 * upload limit counts megabytes. From kilobytes up: Intl's short unit for a byte reads "byte"
 * ("0 byte"), and a file of a few bytes reads well enough as "0.1 kB".
 */
export function formatBytes(bytes: number, language: string): string {
  let value = Math.max(0, bytes) / 1024;
  let unit = 0;
  while (value >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return new Intl.NumberFormat(language, {
    style: 'unit',
    unit: UNITS[unit],
    unitDisplay: 'short',
    maximumFractionDigits: 1,
  }).format(value);
}

/** Megabytes as the upload limit counts them. */
export const MEGABYTE = 1024 * 1024;
