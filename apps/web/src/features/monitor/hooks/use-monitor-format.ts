import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

/** Decimal steps (1 kB = 1000 B), so the unit names Intl gives are exact. */
const BYTE_UNITS = ['byte', 'kilobyte', 'megabyte', 'gigabyte', 'terabyte', 'petabyte'] as const;
const BIT_UNITS = ['bit', 'kilobit', 'megabit', 'gigabit', 'terabit'] as const;
const DURATION_UNITS = [
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
  ['second', 1],
] as const;

/** `value` in the largest unit of `units` (steps of 1000) that keeps it at 1 or more. */
function scaled<U extends string>(value: number, units: readonly U[]): { amount: number; unit: U } {
  let amount = Math.max(0, value);
  let index = 0;
  while (amount >= 1000 && index < units.length - 1) {
    amount /= 1000;
    index += 1;
  }
  return { amount, unit: units[index] as U };
}

/**
 * The monitor's figures in the interface language, with Intl: percents, sizes, throughputs,
 * latencies, durations ("3 hours and 12 minutes") and the sample's time.
 */
export function useMonitorFormat() {
  const { i18n } = useTranslation();
  const language = i18n.language;
  return useMemo(() => {
    const percent = new Intl.NumberFormat(language, { style: 'percent', maximumFractionDigits: 0 });
    const decimal = new Intl.NumberFormat(language, { maximumFractionDigits: 2 });
    const list = new Intl.ListFormat(language, { type: 'unit', style: 'long' });
    const time = new Intl.DateTimeFormat(language, { timeStyle: 'medium' });
    const dateTime = new Intl.DateTimeFormat(language, { dateStyle: 'short', timeStyle: 'medium' });
    const unit = (amount: number, name: string, display: 'short' | 'long' = 'short') =>
      new Intl.NumberFormat(language, {
        style: 'unit',
        unit: name,
        unitDisplay: display,
        maximumFractionDigits: amount < 10 ? 1 : 0,
      }).format(amount);

    return {
      /** 42.4 → "42%". */
      percent: (value: number) => percent.format(value / 100),
      decimal: (value: number) => decimal.format(value),
      /** 6_400_000_000 → "6.4 GB". */
      bytes: (bytes: number) => {
        const { amount, unit: name } = scaled(bytes, BYTE_UNITS);
        return unit(amount, name);
      },
      /** 1_500_000 → "1.5 MB/s". */
      bytesPerSecond: (bytes: number) => {
        const { amount, unit: name } = scaled(bytes, BYTE_UNITS);
        return unit(amount, `${name}-per-second`);
      },
      /** 1e9 → "1 Gb/s". */
      bitsPerSecond: (bits: number) => {
        const { amount, unit: name } = scaled(bits, BIT_UNITS);
        return unit(amount, `${name}-per-second`);
      },
      /** 0.4 → "0.4 ms"; 812 → "812 ms". */
      latency: (ms: number) => unit(ms, 'millisecond'),
      /** The two largest units: 3725 → "1 hour and 2 minutes"; under a minute, the seconds. */
      duration: (totalSeconds: number) => {
        const seconds = Math.max(0, Math.floor(totalSeconds));
        const first = DURATION_UNITS.findIndex(([, size]) => seconds >= size);
        const [name, size] = DURATION_UNITS[first] ?? ['second', 1];
        const amount = Math.floor(seconds / size);
        const parts = [unit(amount, name, 'long')];
        // The next unit down only ("1 day and 5 seconds" says no more than "1 day").
        const next = first >= 0 ? DURATION_UNITS[first + 1] : undefined;
        const rest = next ? Math.floor((seconds - amount * size) / next[1]) : 0;
        if (next && rest > 0) parts.push(unit(rest, next[0], 'long'));
        return list.format(parts);
      },
      /** The time of a sample, with seconds; with the date when it is not today's. */
      time: (iso: string) => {
        const date = new Date(iso);
        if (Number.isNaN(date.getTime())) return '';
        const today = date.toDateString() === new Date().toDateString();
        return (today ? time : dateTime).format(date);
      },
    };
  }, [language]);
}
