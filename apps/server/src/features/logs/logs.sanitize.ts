import type { LogLevel } from '@contrateia/shared';
import type { EventContextValue, LogEvent } from '@/lib/event-log';
import { LOCAL_ONLY, REDACT_PATHS, WARN_LEVEL } from '@/lib/logger';
import type { NewLogEventRow } from './logs.table';

// What an event becomes as a row: one line of text, plain fields, nothing secret, bounded sizes.
// Everything here runs when a batch is written, off the request that recorded the event; only an
// admin change's event is made on its request, to be stored with the change (storeEvent).

/** The longest message kept (characters); longer ones end with an ellipsis. */
export const MESSAGE_MAX = 1000;
/** The longest text value kept in the context. */
export const VALUE_MAX = 300;
/** The most fields a context keeps (the rest are left out, and `truncated` says so). */
export const FIELDS_MAX = 24;
/** How deep a logged object's fields are followed (`err.database.code` is three deep). */
const DEPTH_MAX = 3;

const REDACTED = '[redacted]';

/**
 * Field names whose value is never kept, whatever it holds: the last part of each of pino's
 * redaction paths (lib/logger.ts), and what else carries a secret.
 */
const SECRET_NAMES = new Set([
  ...REDACT_PATHS.map((path) => path.split('.').at(-1)!.toLowerCase()),
  'authorization',
  'cookie',
  'set-cookie',
  'secret',
  'key',
  'otp',
]);
/** Names that end like these are secret too (`newPassword`, `accessToken`, `jwtSecret`). */
const SECRET_ENDINGS = [
  'password',
  'token',
  'secret',
  'apikey',
  'cookie',
  'authorization',
  'passwordhash',
];

export function isSecretName(name: string): boolean {
  const last = (name.split('.').at(-1) ?? name).toLowerCase();
  // An error's code says which kind of failure it was (a SQLSTATE, ECONNREFUSED), and its key
  // names the text it was answered with (`errors.maintenance`): neither is a secret.
  if ((last === 'code' || last === 'key') && name.startsWith('err.')) return false;
  return SECRET_NAMES.has(last) || SECRET_ENDINGS.some((ending) => last.endsWith(ending));
}

/**
 * Control characters, and the invisible ones that move or reorder text (line and paragraph
 * separators, bidirectional overrides): shown as escapes, so a person's text can neither start a
 * line of its own in a log nor disguise what follows it.
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;
/** Half of a surrogate pair without the other: PostgreSQL refuses it in JSON. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
/** What a secret looks like wherever it appears: a JWT, a bearer credential, an argon2 hash. */
const SECRET_SHAPES = [
  [/\beyJ[\w-]{4,}\.[\w-]{4,}\.[\w-]{4,}/g, REDACTED],
  [/\b(bearer|basic)\s+[\w.~+/=-]{8,}/gi, `$1 ${REDACTED}`],
  [/\$argon2[\w$=,+/.-]*/g, REDACTED],
] as const;

function escapeControl(c: string): string {
  if (c === '\n') return '\\n';
  if (c === '\r') return '\\r';
  if (c === '\t') return '\\t';
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/**
 * `text` as one safe line of at most `max` characters: controls escaped (`\n`, `\r`, `\u0007`…),
 * anything shaped like a token or a password hash blanked, and cut with an ellipsis.
 */
export function neutralise(text: string, max: number): string {
  // Cut first (with room for escapes) so that a huge text costs no more than a short one.
  let line = text.length > max * 2 ? text.slice(0, max * 2) : text;
  line = line.replace(LONE_SURROGATE, '\ufffd').replace(CONTROLS, escapeControl);
  for (const [shape, replacement] of SECRET_SHAPES) line = line.replace(shape, replacement);
  if (line.length <= max) return line;
  let end = max - 1;
  // Never half of a surrogate pair.
  if (/[\ud800-\udbff]/.test(line.charAt(end - 1))) end -= 1;
  return `${line.slice(0, end)}…`;
}

/** A field name as kept: letters, digits and `_ . -` only, at most 64 characters. */
function fieldName(name: string): string | undefined {
  const cleaned = name.replace(/[^\w.-]/g, '_').slice(0, 64);
  return cleaned ? cleaned : undefined;
}

/** Names the row holds in columns of their own (a context field of that name would shadow them). */
const COLUMN_NAMES = new Set(['category', 'event', 'userId', 'requestId']);

/** Collects plain fields into a context, within FIELDS_MAX, secrets blanked. */
class ContextBuilder {
  readonly fields: Record<string, EventContextValue> = {};
  private count = 0;

  add(name: string, value: unknown): void {
    const key = fieldName(name);
    if (!key || COLUMN_NAMES.has(key) || key in this.fields) return;
    const kept = plain(value);
    if (kept === undefined) return;
    if (this.count >= FIELDS_MAX) {
      this.fields.truncated = true;
      return;
    }
    this.count += 1;
    this.fields[key] = isSecretName(key) ? REDACTED : kept;
  }

  /** Every plain field of `value`, following objects DEPTH_MAX deep (`err.database.code`). */
  addAll(value: Record<string, unknown>, prefix = '', depth = 1): void {
    for (const [name, inner] of Object.entries(value)) {
      const key = prefix ? `${prefix}.${name}` : name;
      if (inner !== null && typeof inner === 'object' && !Array.isArray(inner)) {
        if (isSecretName(key)) this.add(key, REDACTED);
        else if (depth < DEPTH_MAX) this.addAll(inner as Record<string, unknown>, key, depth + 1);
      } else {
        this.add(key, inner);
      }
    }
  }
}

/** A plain value as kept: text neutralised, numbers that JSON can hold, lists of plain values joined. */
function plain(value: unknown): EventContextValue | undefined {
  if (value === null) return null;
  switch (typeof value) {
    case 'string':
      return neutralise(value, VALUE_MAX);
    case 'number':
      return Number.isFinite(value) ? value : String(value);
    case 'boolean':
      return value;
    case 'bigint':
      return value.toString();
    default:
      if (
        Array.isArray(value) &&
        value.every(
          (item) => item === null || ['string', 'number', 'boolean'].includes(typeof item),
        )
      ) {
        return neutralise(value.map(String).join(', '), VALUE_MAX);
      }
      return undefined;
  }
}

const optionalId = (value: unknown): string | null =>
  typeof value === 'string' && value ? neutralise(value, 100) : null;

/** The row of an event a feature recorded at `at`. */
export function rowOfEvent(event: LogEvent, at: Date): NewLogEventRow {
  const context = new ContextBuilder();
  for (const [name, value] of Object.entries(event.context ?? {})) context.add(name, value);
  return {
    at,
    level: event.level ?? 'info',
    category: event.category,
    event: neutralise(event.event, 100),
    message: neutralise(event.message, MESSAGE_MAX),
    userId: optionalId(event.userId),
    requestId: optionalId(event.requestId),
    context: context.fields,
  };
}

/** pino's own fields of a line, which say nothing of the event (its time is the row's). */
const LINE_FIELDS = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'reqId', 'v']);

/**
 * The row of a line the server's logger wrote at warning level or above (`server` category): its
 * message, request id and plain fields, the error's kind, message and codes (never its stack);
 * undefined for a line marked LOCAL_ONLY. The line was redacted by pino as it was written; the
 * fields are checked again all the same.
 */
export function rowOfLine(line: string, level: number, at: Date): NewLogEventRow | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    parsed = undefined;
  }
  const context = new ContextBuilder();
  if (level > 50) context.add('fatal', true);
  const stored: LogLevel = level >= 50 ? 'error' : level >= WARN_LEVEL ? 'warn' : 'info';
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
    return {
      at,
      level: stored,
      category: 'server',
      event: null,
      message: neutralise(line.trim(), MESSAGE_MAX),
      userId: null,
      requestId: null,
      context: context.fields,
    };
  }
  const fields = parsed as Record<string, unknown>;
  if (fields.localOnly === LOCAL_ONLY.localOnly) return undefined;
  const err =
    fields.err !== null && typeof fields.err === 'object'
      ? (fields.err as Record<string, unknown>)
      : undefined;
  const message =
    typeof fields.msg === 'string' && fields.msg
      ? fields.msg
      : typeof err?.message === 'string'
        ? err.message
        : 'log line';
  if (err) {
    const { stack: _stack, ...rest } = err;
    context.addAll(rest, 'err');
  }
  const others = Object.fromEntries(
    Object.entries(fields).filter(
      ([name]) => !LINE_FIELDS.has(name) && name !== 'err' && name !== 'userId',
    ),
  );
  context.addAll(others);
  return {
    at,
    level: stored,
    category: 'server',
    event: null,
    message: neutralise(message, MESSAGE_MAX),
    userId: optionalId(fields.userId),
    requestId: optionalId(fields.reqId),
    context: context.fields,
  };
}
