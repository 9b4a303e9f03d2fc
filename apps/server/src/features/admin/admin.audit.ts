import type { AuditEntry } from '@contrateia/shared';
import type { Db } from '@/db/client';
import type { Language } from '@contrateia/shared';
import type { EventLog } from '@/lib/event-log';
import type { AgentsService } from '@/features/agents/agents.service';
import type { AuthService } from '@/features/auth/auth.service';
import type { ImagesService } from '@/features/images/images.service';
import * as repo from './admin.repository';
import { isUuid } from '@/lib/uuid';

/** Writes an audit record in the transaction of the change it records. */
export type AuditRecorder = (tx: Db, entry: repo.AuditEntry) => Promise<void>;

/**
 * Admin changes as both the audit and the stored log keep them. `change` runs the change, which
 * writes its audit records in its own transaction through the recorder it is given; once it has
 * succeeded (the transaction committed), each record goes to the stored log as `admin.<action>`:
 * who, what, which fields (never their values: the audit has those), in which request. A change
 * that fails, or rolls back, leaves nothing in either.
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
      context: { action: entry.action, target: entry.target, fields: Object.keys(entry.changes).join(', '), ip: entry.ip ?? null },
    });
  }
  return {
    async change<T>(requestId: string | undefined, change: (record: AuditRecorder) => Promise<T>): Promise<T> {
      const written: repo.AuditEntry[] = [];
      const result = await change(async (tx, entry) => {
        await repo.recordAudit({ db: tx, entry });
        written.push(entry);
      });
      for (const entry of written) logged(entry, requestId);
      return result;
    },
  };
}

export type AuditTrail = ReturnType<typeof createAuditTrail>;


export type AuditService = ReturnType<typeof createAuditService>;

/**
 * The admin audit as the panel reads it: newest first, a page at a time, each entry with its
 * actor's name and e-mail, fetched through the auth service (the accounts are its data), or
 * null once the account is gone. Each target is named as it is called now (an agent's display name
 * in the admin's language, an account's name and e-mail, an image's title or file name), so the
 * panel never shows a bare id of what still exists.
 */
export function createAuditService({
  db,
  auth,
  agents,
  images,
}: {
  db: Db;
  auth: Pick<AuthService, 'findAccountNames'>;
  agents: Pick<AgentsService, 'findById'>;
  images: Pick<ImagesService, 'namesOf'>;
}) {
  async function list({ limit, offset, language }: { limit: number; offset: number; language: Language }): Promise<{ entries: AuditEntry[]; total: number }> {
    const [rows, total] = await Promise.all([repo.listAudit({ db, limit, offset }), repo.countAudit({ db })]);
    const idsOf = (kind: string) => rows.flatMap((row) => (row.action.startsWith(kind) && isUuid(row.target) ? [row.target] : []));
    const userTargets = idsOf('user.');
    const actors = await auth.findAccountNames({ ids: [...rows.flatMap((row) => (row.actorId ? [row.actorId] : [])), ...userTargets] });
    const agentNames = new Map<string, string>();
    for (const id of new Set(idsOf('agent.'))) {
      const agent = await agents.findById({ id });
      if (agent) agentNames.set(id, agent.displayName[language] || agent.name);
    }
    const imageNames = await images.namesOf([...new Set(idsOf('image.'))]);
    const targetName = (action: string, target: string): string | null => {
      if (action.startsWith('agent.')) return agentNames.get(target) ?? null;
      if (action.startsWith('image.')) return imageNames.get(target) ?? null;
      const account = action.startsWith('user.') ? actors.get(target) : undefined;
      return account ? `${account.name} (${account.email})` : null;
    };
    const entries = rows.map((row) => ({
      id: row.id,
      at: row.at.toISOString(),
      actor: (row.actorId && actors.get(row.actorId)) || null,
      action: row.action,
      target: row.target,
      targetName: targetName(row.action, row.target),
      changes: row.changes,
      ip: row.ip,
    }));
    return { entries, total };
  }

  return { list };
}
