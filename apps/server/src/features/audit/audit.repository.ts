import { count, desc } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { adminAudit, type AuditChanges, type AuditTargetName } from './audit.table';

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
