import type { Db } from '@/db/client';
import {
  changedFields,
  recordAudit,
  type AuditActor,
  type AuditChanges,
} from '@/features/audit/audit.service';
import type { AgentRow } from './agents.table';

/**
 * What the audit compares of an agent: its texts, whether it is active, and each part of its
 * configuration as a field of its own (an edit of the welcome message does not record the whole
 * knowledge twice).
 */
function audited(row: AgentRow): Record<string, unknown> {
  const { instructions, welcomeMessage, model, knowledge, capabilities, catalogue } =
    row.configuration;
  return {
    name: row.name,
    displayName: row.displayName,
    description: row.description,
    isActive: row.isActive,
    'configuration.instructions': instructions,
    'configuration.welcomeMessage': welcomeMessage,
    'configuration.model': model,
    'configuration.knowledge': knowledge,
    'configuration.capabilities': capabilities,
    'configuration.catalogue': catalogue ?? null,
  };
}

/** Every field of a row that appeared (`after`) or went (`before`): a creation's or a deletion's record. */
function wholeRecord(row: AgentRow, side: 'before' | 'after'): AuditChanges {
  return Object.fromEntries(
    Object.entries(audited(row)).map(([field, value]) => [
      field,
      side === 'after' ? { before: null, after: value } : { before: value, after: null },
    ]),
  );
}

/**
 * Records an admin's change of an agent in `tx`, the transaction that makes it: the row before
 * (none for a new agent) and after (none once deleted). Only the fields it changed; nothing when
 * it changed none.
 */
export async function recordAgentChange(
  tx: Db,
  {
    actor,
    at,
    action,
    before,
    after,
  }: {
    actor: AuditActor;
    at: Date;
    action: 'agent.create' | 'agent.update' | 'agent.status' | 'agent.delete';
    before: AgentRow | undefined;
    after: AgentRow | undefined;
  },
): Promise<void> {
  const changes =
    before && after
      ? changedFields(audited(before), audited(after))
      : after
        ? wholeRecord(after, 'after')
        : wholeRecord(before!, 'before');
  if (Object.keys(changes).length === 0) return;
  const { id, displayName } = (after ?? before)!;
  await recordAudit(tx, { actor, at, action, target: id, targetName: displayName, changes });
}
