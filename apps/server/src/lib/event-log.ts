import type { LogCategory, LogLevel } from '@contrateia/shared';

/** A figure or a code that tells an event apart (never a password, code, token, key or cookie). */
export type EventContextValue = string | number | boolean | null;

/** One event worth keeping for the Logs page: what happened, to whom, in which request. */
export type LogEvent = {
  /** `info` unless said otherwise (a failed sign-in is a warning, a provider failure an error). */
  level?: LogLevel;
  category: LogCategory;
  /** e.g. `auth.sign_in`, `admin.settings.theme`, `whatsapp.connected`, `ai.provider_failed`. */
  event: string;
  /** One line in English; user text in it is neutralised (CR/LF and other controls escaped) and cut. */
  message: string;
  userId?: string | null;
  requestId?: string | null;
  /** Plain fields; a field named like a secret (password, token, code…) is stored as `[redacted]`. */
  context?: Record<string, EventContextValue | undefined>;
};

/**
 * Where features record their events (sign-ins, admin changes, WhatsApp connections, provider
 * failures). `record` returns at once and never throws: the logs feature buffers the event and
 * writes it with others, off the request's path. Features receive it as a dependency, so they
 * need not know the logs feature.
 */
export interface EventLog {
  record(event: LogEvent): void;
}
