import { count, desc, eq, inArray } from 'drizzle-orm';
import { SETTINGS_SECTIONS, type SettingsSection } from '@contrateia/shared';
import type { Db } from '@/db/client';
import {
  adminAudit,
  appSettings,
  type AuditChanges,
  type AuditTargetName,
  type StoredSection,
} from './admin.table';

/** The settings' sections (never the AI provider's row, which is read on its own). */
export async function readSettings({
  db,
}: {
  db: Db;
}): Promise<Partial<Record<SettingsSection, unknown>>> {
  const rows = await db
    .select({ section: appSettings.section, value: appSettings.value })
    .from(appSettings)
    .where(inArray(appSettings.section, [...SETTINGS_SECTIONS]));
  return Object.fromEntries(rows.map((row) => [row.section, row.value]));
}

/** A section's stored value; in a transaction, its row stays locked until the transaction ends. */
export async function readSection({
  db,
  section,
}: {
  db: Db;
  section: StoredSection;
}): Promise<unknown> {
  const [row] = await db
    .select({ value: appSettings.value })
    .from(appSettings)
    .where(eq(appSettings.section, section))
    .for('update');
  return row?.value;
}

export async function writeSection({
  db,
  section,
  value,
  by,
}: {
  db: Db;
  section: StoredSection;
  value: unknown;
  by: string;
}): Promise<void> {
  const updatedAt = new Date();
  await db
    .insert(appSettings)
    .values({ section, value, updatedBy: by, updatedAt })
    .onConflictDoUpdate({ target: appSettings.section, set: { value, updatedBy: by, updatedAt } });
}

export type AuditEntry = {
  actorId: string;
  action: string;
  target: string;
  targetName?: AuditTargetName | null;
  changes: AuditChanges;
  ip?: string;
};

/** Records one admin change; given the transaction that makes the change, it is kept with it or not at all. */
export async function recordAudit({ db, entry }: { db: Db; entry: AuditEntry }): Promise<void> {
  await db
    .insert(adminAudit)
    .values({ ...entry, targetName: entry.targetName ?? null, ip: entry.ip ?? null });
}

export async function listAudit({ db, limit, offset }: { db: Db; limit: number; offset: number }) {
  return db
    .select()
    .from(adminAudit)
    .orderBy(desc(adminAudit.at), desc(adminAudit.id))
    .limit(limit)
    .offset(offset);
}

export async function countAudit({ db }: { db: Db }): Promise<number> {
  const [row] = await db.select({ n: count() }).from(adminAudit);
  return row?.n ?? 0;
}

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
