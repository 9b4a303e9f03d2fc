import type { AuditEntry } from '@contrateia/shared';
import type { Db } from '@/db/client';
import type { AuthService } from '@/features/auth/auth.service';
import * as repo from './admin.repository';

export type AuditService = ReturnType<typeof createAuditService>;

/**
 * The admin audit as the panel reads it: newest first, a page at a time, each entry with its
 * actor's name and e-mail, fetched through the auth service (the accounts are its data), or
 * null once the account is gone.
 */
export function createAuditService({ db, auth }: { db: Db; auth: Pick<AuthService, 'findAccountNames'> }) {
  async function list({ limit, offset }: { limit: number; offset: number }): Promise<{ entries: AuditEntry[]; total: number }> {
    const [rows, total] = await Promise.all([repo.listAudit({ db, limit, offset }), repo.countAudit({ db })]);
    const actors = await auth.findAccountNames({ ids: rows.flatMap((row) => (row.actorId ? [row.actorId] : [])) });
    const entries = rows.map((row) => ({
      id: row.id,
      at: row.at.toISOString(),
      actor: (row.actorId && actors.get(row.actorId)) || null,
      action: row.action,
      target: row.target,
      changes: row.changes,
      ip: row.ip,
    }));
    return { entries, total };
  }

  return { list };
}
