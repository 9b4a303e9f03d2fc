import { LANGUAGES, type Language } from '@contrateia/shared';
import type { Db } from '@/db/client';
import type { EventContextValue, EventLog } from '@/lib/event-log';
import * as repo from './audit.repository';
import type { AuditChanges, AuditTargetName } from './audit.table';

export type { AuditEntry } from './audit.repository';
export type { AuditChanges, AuditTargetName } from './audit.table';
/** The audit as the admin panel reads it, newest first. */
export { countAudit, listAudit } from './audit.repository';

/**
 * The fields of `after` that differ from `before`, each with both values: what an audit record
 * says was changed. Compared as JSON, so nested objects (a text per language) count as one field.
 */
export function changedFields(
  before: Record<string, unknown>,
  after: Record<string, unknown>,
): AuditChanges {
  const changes: AuditChanges = {};
  for (const field of new Set([...Object.keys(before), ...Object.keys(after)])) {
    if (JSON.stringify(before[field]) !== JSON.stringify(after[field]))
      changes[field] = { before: before[field], after: after[field] };
  }
  return changes;
}

/** Writes an audit record in the transaction of the change it records. */
export type AuditRecorder = (tx: Db, entry: repo.AuditEntry) => Promise<void>;

/** The fields that name a target, in the order looked for: an image's title, an agent's display name, a name. */
const NAME_FIELDS = ['title', 'displayName', 'name', 'originalFilename'];
/** The most fields whose values an admin change's log event shows (the others are still listed in `fields`). */
const LOGGED_VALUES_MAX = 8;
/** Fields whose values are never shown, even as the audit masks them (the AI provider's key). */
const SECRET_FIELD = /key|password|secret|token/i;

/** What the change says the target was called (after the change, or before a deletion), if it says. */
function nameInChanges(changes: AuditChanges): AuditTargetName | null {
  for (const field of NAME_FIELDS) {
    const { before, after } = changes[field] ?? {};
    const value = after ?? before;
    if (typeof value === 'string' && value.trim()) return value;
    if (isPerLanguage(value)) return value;
  }
  return null;
}

function isPerLanguage(value: unknown): value is Partial<Record<Language, string>> {
  return (
    value !== null &&
    typeof value === 'object' &&
    LANGUAGES.some((language) => typeof (value as Record<string, unknown>)[language] === 'string')
  );
}

/** A field's value as the stored log shows it: plain, a text per language as one line. */
function shown(value: unknown): EventContextValue {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
    return value;
  if (isPerLanguage(value))
    return LANGUAGES.flatMap((language) => (value[language] ? [value[language]] : [])).join(' / ');
  return JSON.stringify(value);
}

/** The target's name as log context fields: `targetName`, or one per language (`targetName.pt-BR`). */
function nameFields(name: AuditTargetName | null | undefined): Record<string, EventContextValue> {
  if (!name) return {};
  if (typeof name === 'string') return { targetName: name };
  return Object.fromEntries(
    LANGUAGES.flatMap((language) =>
      name[language] ? [[`targetName.${language}`, name[language]]] : [],
    ),
  );
}

/**
 * An update's fields, old → new (`change.<field>.from`, `.to`), for the log page to show; a
 * secret's (a key) with no values, and none of a creation's or deletion's, whose record is the
 * whole row.
 */
function changeFields(entry: repo.AuditEntry): Record<string, EventContextValue> {
  if (/\.(create|delete|upload)$|^monitor\./.test(entry.action)) return {};
  return Object.fromEntries(
    Object.entries(entry.changes)
      .slice(0, LOGGED_VALUES_MAX)
      .flatMap(([field, { before, after }]) => {
        // A secret's field says only that it changed.
        const secret = SECRET_FIELD.test(field);
        return [
          [`change.${field}.from`, secret ? null : shown(before)],
          [`change.${field}.to`, secret ? null : shown(after)],
        ];
      }),
  );
}

/**
 * Admin changes as both the audit and the stored log keep them. `change` runs the change, which
 * writes its audit records in its own transaction through the recorder it is given; once it has
 * succeeded (the transaction committed), each record goes to the stored log as `admin.<action>`:
 * who, what (named as it was called), which fields and, for an update, their values old → new
 * (never a secret's), in which request. A record keeps its target's name (given, or read from
 * the change), so that a target since deleted is still named. A change that fails, or rolls
 * back, leaves nothing in either.
 */
export function createAuditTrail({ eventLog }: { eventLog: EventLog }) {
  /** An audit record in the stored log: who, what, which fields, in which request. */
  function logged(entry: repo.AuditEntry, requestId?: string): void {
    eventLog.record({
      category: 'admin',
      event: `admin.${entry.action}`,
      message: `Admin change ${entry.action} of ${entry.target}`,
      userId: entry.actorId,
      requestId,
      context: {
        action: entry.action,
        target: entry.target,
        ...nameFields(entry.targetName),
        fields: Object.keys(entry.changes).join(', '),
        ip: entry.ip ?? null,
        ...changeFields(entry),
      },
    });
  }
  return {
    async change<T>(
      requestId: string | undefined,
      change: (record: AuditRecorder) => Promise<T>,
    ): Promise<T> {
      const written: repo.AuditEntry[] = [];
      const result = await change(async (tx, given) => {
        const entry = { ...given, targetName: given.targetName ?? nameInChanges(given.changes) };
        await repo.recordAudit({ db: tx, entry });
        written.push(entry);
      });
      for (const entry of written) logged(entry, requestId);
      return result;
    },
  };
}

export type AuditTrail = ReturnType<typeof createAuditTrail>;
