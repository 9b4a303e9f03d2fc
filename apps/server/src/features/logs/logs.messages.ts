import { LANGUAGES, type Language, type LogEntry } from '@contrateia/shared';
import type { EventContextValue } from '@/lib/event-log';
import type { Translate } from '@/lib/i18n';

// An event's words: stored as a key (its name, `auth.sign_in`) and parameters (its context), and
// put into words in the reader's language when read. Server lines and events this version has no
// words for keep the text they were stored with.

type Described = {
  event: string | null;
  message: string;
  context: Record<string, EventContextValue>;
};
type Change = NonNullable<LogEntry['changes']>[number];

/** Context fields whose values are words of their own (`admin`, `invalid_credentials`). */
const WORDED = new Set(['role', 'from', 'to', 'reason']);
/** An admin change's field value: `change.<field>.from` / `change.<field>.to`. */
const CHANGE = /^change\.(.+)\.(from|to)$/;

/** Said by no text of the catalogue: what a key the catalogue lacks comes back as. */
const MISSING = '\u0000';

/** The catalogue's text for `key`, or undefined when it has none. */
function lookup(
  t: Translate,
  key: string,
  params: Record<string, unknown> = {},
): string | undefined {
  const text = t(key, { ...params, defaultValue: MISSING });
  return text === MISSING ? undefined : text;
}

/** The value's words when the catalogue has them (`admin` → "administrador"). */
function worded(t: Translate, value: EventContextValue | undefined): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' && typeof value !== 'boolean') return String(value);
  if (!/^[\w-]+$/.test(String(value))) return String(value);
  return lookup(t, `logMessages.values.${value}`) ?? String(value);
}

/** The message of an event in `t`'s language, or undefined when the catalogue has no words for it. */
function translated(
  t: Translate,
  { event, context }: Described,
  language: Language,
): string | undefined {
  if (!event || !/^[\w.-]+$/.test(event)) return undefined;
  const params: Record<string, unknown> = { ...context };
  for (const name of WORDED) if (name in context) params[name] = worded(t, context[name]);
  // A target by the name it had, in the reader's language when it has one per language; else its id.
  params.name = context[`targetName.${language}`] ?? context.targetName ?? context.target ?? '';
  const count =
    typeof context.count === 'number'
      ? context.count
      : typeof context.dropped === 'number'
        ? context.dropped
        : undefined;
  if (count !== undefined) params.count = count;
  return (
    lookup(t, `logMessages.${event}`, params) ??
    (event.startsWith('admin.') ? lookup(t, 'logMessages.admin.change', params) : undefined)
  );
}

/** What the reader sees of an event's message: in words of their language, or as stored. */
export function messageOf(t: Translate, row: Described, language: Language): string {
  return translated(t, row, language) ?? row.message;
}

/** An admin change's fields with their names in `t`'s language (`configuration.model` as `configuration_model`) and their values, old → new. */
export function changesOf(t: Translate, context: Record<string, EventContextValue>): Change[] {
  const changes = new Map<string, Change>();
  for (const [name, value] of Object.entries(context)) {
    const match = CHANGE.exec(name);
    if (!match) continue;
    const [, field, side] = match as unknown as [string, string, 'from' | 'to'];
    const change = changes.get(field) ?? {
      field,
      name: lookup(t, `logMessages.fields.${field.replaceAll('.', '_')}`) ?? field,
      from: null,
      to: null,
    };
    change[side] = worded(t, value) ?? null;
    changes.set(field, change);
  }
  return [...changes.values()];
}

/**
 * The event's words in every language, for the search (the stored row's `translations`): an
 * admin finds it by what the page shows them, whichever language they read it in.
 */
export function wordsOf(translators: (language: Language) => Translate, row: Described): string {
  return LANGUAGES.flatMap((language) => {
    const t = translators(language);
    const message = translated(t, row, language);
    return message === undefined
      ? []
      : [message, ...changesOf(t, row.context).map((change) => change.name)];
  }).join(' ');
}
