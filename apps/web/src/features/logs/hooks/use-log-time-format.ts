import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * An event's time in the interface language and the browser's time zone: `short` to the second
 * for the list, `full` (weekday, zone) for its tooltip and details. An unreadable time is ''.
 */
export function useLogTimeFormat() {
  const { i18n } = useTranslation();
  const language = i18n.language;
  return useMemo(() => {
    const short = new Intl.DateTimeFormat(language, { dateStyle: 'short', timeStyle: 'medium' });
    const full = new Intl.DateTimeFormat(language, { dateStyle: 'full', timeStyle: 'long' });
    const format = (formatter: Intl.DateTimeFormat) => (iso: string) => {
      const date = new Date(iso);
      return Number.isNaN(date.getTime()) ? '' : formatter.format(date);
    };
    return { short: format(short), full: format(full) };
  }, [language]);
}

/** The browser's time zone in words ("Brasilia Standard Time"), else its IANA name. */
export function useTimeZoneName(): string {
  const { i18n } = useTranslation();
  const language = i18n.language;
  return useMemo(() => {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    const name = new Intl.DateTimeFormat(language, { timeZoneName: 'long' })
      .formatToParts(new Date())
      .find((part) => part.type === 'timeZoneName')?.value;
    return name ?? zone;
  }, [language]);
}
