import { z } from 'zod';
import { textInput } from '../text/text.schemas';

/**
 * The stored log events (GET /api/logs). Admins only. Warnings and errors of the server and the
 * events below are kept LOG_RETENTION_DAYS.
 */

export const LOG_LEVELS = ['info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/**
 * What an event is about: server (warnings and errors of any part), auth (sign-ins, failed
 * sign-ins, registrations, role switches), admin (the audit's changes), whatsapp (connection
 * changes), ai (provider failures).
 */
export const LOG_CATEGORIES = ['server', 'auth', 'admin', 'whatsapp', 'ai'] as const;
export type LogCategory = (typeof LOG_CATEGORIES)[number];

/** Figures and codes that tell the event apart; never a password, code or token. */
const contextValue = z.union([z.string(), z.number(), z.boolean(), z.null()]);

export const logEntrySchema = z.object({
  id: z.string(),
  /** ISO time. */
  timestamp: z.string(),
  level: z.enum(LOG_LEVELS),
  /**
   * One line (CR/LF of user text neutralised) in the caller's language: an event's message is
   * translated from its name (`context.event`, the key) and its context (the parameters); a server
   * line, or an event this version has no words for, as the server wrote it.
   */
  message: z.string(),
  /** An admin change's fields: the field, its name in the caller's language, and its values (none for a secret). */
  changes: z
    .array(
      z.object({
        field: z.string(),
        name: z.string(),
        from: z.string().nullable(),
        to: z.string().nullable(),
      }),
    )
    .optional(),
  context: z
    .object({
      category: z.enum(LOG_CATEGORIES),
      /** e.g. `auth.sign_in`, `auth.sign_in_failed`, `whatsapp.connection`, `ai.provider_failed`. */
      event: z.string().optional(),
      userId: z.string().nullable().optional(),
      requestId: z.string().nullable().optional(),
    })
    .catchall(contextValue),
});
export type LogEntry = z.infer<typeof logEntrySchema>;

export const LOG_PAGE_LIMIT = { default: 50, max: 200 };
export const LOG_SEARCH_MAX = 200;

const isoTime = z.iso.datetime({ offset: true, error: 'adminValidation.logDateInvalid' });

/** GET /api/logs?level=&from=&to=&search=&category=&limit=&cursor=, newest first. */
export const listLogsQuerySchema = z
  .object({
    level: z.enum(LOG_LEVELS, { error: 'validation.invalidValue' }).optional(),
    category: z.enum(LOG_CATEGORIES, { error: 'validation.invalidValue' }).optional(),
    from: isoTime.optional(),
    to: isoTime.optional(),
    /** Full-text, accent- and case-insensitive, in the three languages. */
    search: textInput().trim().max(LOG_SEARCH_MAX, 'validation.searchTooLong').default(''),
    limit: z.coerce
      .number({ error: 'validation.invalidValue' })
      .int('validation.invalidValue')
      .min(1, 'validation.invalidValue')
      .max(LOG_PAGE_LIMIT.max, 'validation.invalidValue')
      .default(LOG_PAGE_LIMIT.default),
    /** The previous page's nextCursor (opaque). */
    cursor: textInput().max(200, 'validation.invalidValue').optional(),
  })
  .refine((query) => !query.from || !query.to || Date.parse(query.from) <= Date.parse(query.to), {
    message: 'adminValidation.logRangeInvalid',
    path: ['to'],
  });
export type ListLogsQuery = z.input<typeof listLogsQuerySchema>;

export const listLogsResponseSchema = z.object({
  logs: z.array(logEntrySchema),
  /** Null on the last page. */
  nextCursor: z.string().nullable(),
});
export type ListLogsResponse = z.infer<typeof listLogsResponseSchema>;
