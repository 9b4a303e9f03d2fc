import { eq, inArray } from 'drizzle-orm';
import { SETTINGS_SECTIONS, type SettingsSection } from '@contrateia/shared';
import type { Db } from '@/db/client';
import { appSettings, type StoredSection } from './settings.table';

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
