import {
  LOG_CATEGORIES,
  LOG_LEVELS,
  listLogsQuerySchema,
  type LogCategory,
  type LogLevel,
} from '@contrateia/shared/logs/logs.schemas';

/**
 * The logs page's filters, as the address holds them and the API takes them: times are ISO with an
 * offset. Only what is set is there.
 */
export interface LogFilters {
  level?: LogLevel;
  category?: LogCategory;
  from?: string;
  to?: string;
  search?: string;
}

/** The filters as the form holds them: times as the datetime-local inputs write them, '' for unset. */
export interface LogFilterDraft {
  level: LogLevel | '';
  category: LogCategory | '';
  from: string;
  to: string;
  search: string;
}

/** The fields, in the order the address and the API query list them. */
const FIELDS = ['level', 'category', 'from', 'to', 'search'] as const;

export const EMPTY_DRAFT: LogFilterDraft = {
  level: '',
  category: '',
  from: '',
  to: '',
  search: '',
};

const isLevel = (value: string | null): value is LogLevel =>
  (LOG_LEVELS as readonly (string | null)[]).includes(value);
const isCategory = (value: string | null): value is LogCategory =>
  (LOG_CATEGORIES as readonly (string | null)[]).includes(value);
const isTime = (value: string | null): value is string =>
  value !== null && !Number.isNaN(Date.parse(value));

/**
 * The filters an address's query names (`?level=warn&search=…`). What no filter could hold (an
 * unknown level, a date that is none) is left out, so an edited or old link still opens the page.
 */
export function filtersFromSearch(search: string): LogFilters {
  const params = new URLSearchParams(search);
  const level = params.get('level');
  const category = params.get('category');
  const from = params.get('from');
  const to = params.get('to');
  const text = params.get('search')?.trim();
  return {
    ...(isLevel(level) && { level }),
    ...(isCategory(category) && { category }),
    ...(isTime(from) && { from }),
    ...(isTime(to) && { to }),
    ...(text && { search: text }),
  };
}

/** The query string of the filters, with `extra` after them (the API's cursor): '' or `?…`. */
export function searchOfFilters(filters: LogFilters, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  for (const field of FIELDS) {
    const value = filters[field];
    if (value) params.set(field, value);
  }
  for (const [name, value] of Object.entries(extra)) params.set(name, value);
  const query = params.toString();
  return query ? `?${query}` : '';
}

export function hasFilters(filters: LogFilters): boolean {
  return FIELDS.some((field) => Boolean(filters[field]));
}

const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/** `2025-03-10T14:30:00.000-03:00`: the moment in this browser's zone, with its offset. */
export function isoWithOffset(date: Date): string {
  const offset = -date.getTimezoneOffset();
  const sign = offset < 0 ? '-' : '+';
  const zone = `${sign}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`;
  return (
    `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}` +
    `.${pad(date.getMilliseconds(), 3)}${zone}`
  );
}

const LOCAL_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

/**
 * A datetime-local value (`2025-03-10T14:30`, the browser's zone) as an ISO time with offset.
 * The start of a range is the start of its minute; its end (`end`) is the last millisecond of
 * it, so "to 14:30" keeps what happened during 14:30. A value that is no such time comes back
 * as it is, for the shared schema to refuse.
 */
export function localToIso(value: string, { end = false } = {}): string {
  const match = LOCAL_TIME.exec(value);
  if (!match) return value;
  const [year, month, day, hours, minutes, seconds] = match.slice(1).map(Number) as number[];
  const date = new Date(2000, 0, 1);
  date.setFullYear(year!, month! - 1, day!);
  date.setHours(hours!, minutes!, end ? 59 : 0, end ? 999 : 0);
  if (seconds !== undefined && !Number.isNaN(seconds)) date.setSeconds(seconds);
  // 2025-02-30 would roll over to March: that is no date.
  if (date.getMonth() !== month! - 1 || date.getDate() !== day!) return value;
  return isoWithOffset(date);
}

/** An ISO time as a datetime-local input shows it, in this browser's zone ('' if none). */
export function isoToLocal(iso: string | undefined): string {
  if (!iso) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return (
    `${pad(date.getFullYear(), 4)}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}`
  );
}

/** The form's values for the filters. */
export function draftOf(filters: LogFilters): LogFilterDraft {
  return {
    level: filters.level ?? '',
    category: filters.category ?? '',
    from: isoToLocal(filters.from),
    to: isoToLocal(filters.to),
    search: filters.search ?? '',
  };
}

export type LogFilterErrors = Partial<Record<keyof LogFilterDraft, string>>;

/**
 * The filters the form's values ask for, checked by the shared schema the server checks them
 * with: `errors` holds its message keys by field (a date that is none, an end before the start,
 * a search too long), and is empty when the server would take them.
 */
export function checkDraft(draft: LogFilterDraft): {
  filters: LogFilters;
  errors: LogFilterErrors;
} {
  const search = draft.search.trim();
  const filters: LogFilters = {
    ...(draft.level && { level: draft.level }),
    ...(draft.category && { category: draft.category }),
    ...(draft.from && { from: localToIso(draft.from) }),
    ...(draft.to && { to: localToIso(draft.to, { end: true }) }),
    ...(search && { search }),
  };
  const parsed = listLogsQuerySchema.safeParse(filters);
  const errors: LogFilterErrors = {};
  if (!parsed.success) {
    for (const issue of parsed.error.issues) {
      const field = FIELDS.find((name) => name === issue.path[0]);
      if (field && !errors[field]) errors[field] = issue.message;
    }
  }
  return { filters, errors };
}
