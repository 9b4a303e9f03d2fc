import { count, desc } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { adminAudit } from './audit.table';

/** One admin change as its audit row keeps it. */
export type AuditRow = Omit<typeof adminAudit.$inferInsert, 'id' | 'at'>;

/** Inserts one audit row; given the transaction that makes the change, it is kept with it or not at all. */
export async function insertAudit({ db, row }: { db: Db; row: AuditRow }): Promise<void> {
  await db.insert(adminAudit).values(row);
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
