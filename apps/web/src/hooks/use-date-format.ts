import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';

function isSameDay(a: Date, b: Date): boolean {
  return a.toDateString() === b.toDateString();
}

/** Dates and times in the interface language; an unreadable date formats as ''. */
export function useDateFormat() {
  const { i18n } = useTranslation();
  const language = i18n.language;
  return useMemo(() => {
    const time = new Intl.DateTimeFormat(language, { hour: '2-digit', minute: '2-digit' });
    const dateTime = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' });
    const parse = (iso: string) => {
      const date = new Date(iso);
      return Number.isNaN(date.getTime()) ? null : date;
    };
    return {
      time: (iso: string) => {
        const date = parse(iso);
        return date ? time.format(date) : '';
      },
      dateTime: (iso: string) => {
        const date = parse(iso);
        return date ? dateTime.format(date) : '';
      },
      /** Today: the time alone; other days: date and time. */
      messageTime: (iso: string) => {
        const date = parse(iso);
        if (!date) return '';
        return (isSameDay(date, new Date()) ? time : dateTime).format(date);
      },
    };
  }, [language]);
}
