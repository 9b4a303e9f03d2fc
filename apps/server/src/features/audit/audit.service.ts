import { LANGUAGES, type Language } from '@contrateia/shared';
import type { Db } from '@/db/client';
import type { EventContextValue } from '@/lib/event-log';
import { storeEvent } from '@/features/logs/logs.service';
import { insertAudit } from './audit.repository';
import type { AuditChanges, AuditTargetName } from './audit.table';

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

/** Who makes an admin change, from where and in which request: given by the admin route. */
export type AuditActor = { actorId: string; ip?: string; requestId?: string };

/** One admin change, as the feature that makes it records it (recordAudit). */
export type AuditEntry = {
  actor: AuditActor;
  /** When, as the app's clock says: the stored log's time (the audit row takes the database's). */
  at: Date;
  /** e.g. `settings.theme`, `agent.create`, `user.role`, `monitor.cleanup-sessions`. */
  action: string;
  /** What was changed: a settings section, an agent's, an account's or an image's id. */
  target: string;
  /** What the target is called; read from the changes when not given. */
  targetName?: AuditTargetName | null;
  changes: AuditChanges;
};

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
function changeFields(action: string, changes: AuditChanges): Record<string, EventContextValue> {
  if (/\.(create|delete|upload)$|^monitor\./.test(action)) return {};
  return Object.fromEntries(
    Object.entries(changes)
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
 * Records one admin change in `tx`, the transaction that makes it: the audit's row and the stored
 * log's `admin.<action>` event, so a change that rolls back leaves neither and one that commits
 * has both at once. The event says who, what (named as it was called), which fields and, for an
 * update, their values old → new (never a secret's), in which request. A record keeps its
 * target's name (given, or read from the change), so that a target since deleted is still named.
 * The one way an admin change is audited: each feature calls it inside its own transaction.
 */
export async function recordAudit(tx: Db, entry: AuditEntry): Promise<void> {
  const { actor, at, action, target, changes } = entry;
  const targetName = entry.targetName ?? nameInChanges(changes);
  const ip = actor.ip ?? null;
  await insertAudit({
    db: tx,
    row: { actorId: actor.actorId, action, target, targetName, changes, ip },
  });
  await storeEvent({
    db: tx,
    at,
    event: {
      category: 'admin',
      event: `admin.${action}`,
      message: `Admin change ${action} of ${target}`,
      userId: actor.actorId,
      requestId: actor.requestId,
      context: {
        action,
        target,
        ...nameFields(targetName),
        fields: Object.keys(changes).join(', '),
        ip,
        ...changeFields(action, changes),
      },
    },
  });
}
