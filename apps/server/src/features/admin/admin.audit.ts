import type { AuditEntry, Language } from '@contrateia/shared';
import type { Db } from '@/db/client';
import type { AgentsService } from '@/features/agents/agents.service';
import type { AuthService } from '@/features/auth/auth.service';
import type { ImagesService } from '@/features/images/images.service';
import { countAudit, listAudit, type AuditTargetName } from '@/features/audit/audit.service';
import { isUuid } from '@/lib/uuid';

export type AuditService = ReturnType<typeof createAuditService>;

/** A stored target name in `language` (a text per language), or as it is. */
function storedName(name: AuditTargetName | null, language: Language): string | null {
  if (!name) return null;
  return typeof name === 'string'
    ? name
    : (name[language] ?? Object.values(name).find(Boolean) ?? null);
}

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
  async function list({
    limit,
    offset,
    language,
  }: {
    limit: number;
    offset: number;
    language: Language;
  }): Promise<{ entries: AuditEntry[]; total: number }> {
    const [rows, total] = await Promise.all([listAudit({ db, limit, offset }), countAudit({ db })]);
    const idsOf = (kind: string) =>
      rows.flatMap((row) =>
        row.action.startsWith(kind) && isUuid(row.target) ? [row.target] : [],
      );
    const userTargets = idsOf('user.');
    const actors = await auth.findAccountNames({
      ids: [...rows.flatMap((row) => (row.actorId ? [row.actorId] : [])), ...userTargets],
    });
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
      // As it is called now; else (deleted) as it was called when changed.
      targetName: targetName(row.action, row.target) ?? storedName(row.targetName, language),
      changes: row.changes,
      ip: row.ip,
    }));
    return { entries, total };
  }

  return { list };
}
