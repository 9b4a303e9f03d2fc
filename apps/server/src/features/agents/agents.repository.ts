import { and, count, eq, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { agentHires, agents, type AgentRow } from './agents.table';

export async function listAgents({ db }: { db: Db }): Promise<AgentRow[]> {
  return db.select().from(agents).orderBy(agents.createdAt, agents.name);
}

type SeededRow = Required<
  Pick<
    typeof agents.$inferInsert,
    'name' | 'displayName' | 'description' | 'adminOnly' | 'configuration'
  >
> & {
  seedVersion: number;
};

/**
 * Brings the seeded agents up to their files: inserts those that do not exist yet (by name), and
 * rewrites those whose stored seed version is lower than their file's, unless an admin has edited
 * them (edited_at). Whether an agent is active is the admin's and is never touched.
 */
export async function syncSeededAgents({ db, rows }: { db: Db; rows: SeededRow[] }): Promise<void> {
  // Checked first so a restart, where all are current, sends one small query instead of every
  // agent's whole configuration.
  const stored = new Map(
    (
      await db
        .select({ name: agents.name, seedVersion: agents.seedVersion, editedAt: agents.editedAt })
        .from(agents)
    ).map((r) => [r.name, r]),
  );
  const missing = rows.filter((r) => !stored.has(r.name));
  if (missing.length > 0)
    await db.insert(agents).values(missing).onConflictDoNothing({ target: agents.name });
  for (const row of rows) {
    const current = stored.get(row.name);
    if (!current || current.editedAt !== null || (current.seedVersion ?? 0) >= row.seedVersion)
      continue;
    const { name, ...content } = row;
    // The conditions are repeated in the update: another instance starting at the same time, or
    // an admin's edit since the read above, must not be overwritten.
    await db
      .update(agents)
      .set(content)
      .where(
        and(
          eq(agents.name, name),
          isNull(agents.editedAt),
          or(isNull(agents.seedVersion), lt(agents.seedVersion, row.seedVersion)),
        ),
      );
  }
}

/**
 * Records that an admin edited an agent, so that newer seed files no longer overwrite it. For the
 * admin's agent editor: call it with the edit, in the same transaction.
 */
export async function markAgentEdited({
  db,
  agentId,
  at,
}: {
  db: Db;
  agentId: string;
  at: Date;
}): Promise<void> {
  await db.update(agents).set({ editedAt: at }).where(eq(agents.id, agentId));
}

export async function listHiredAgentIds({
  db,
  userId,
}: {
  db: Db;
  userId: string;
}): Promise<Set<string>> {
  const rows = await db
    .select({ agentId: agentHires.agentId })
    .from(agentHires)
    .where(eq(agentHires.userId, userId));
  return new Set(rows.map((r) => r.agentId));
}

export async function isHired({
  db,
  userId,
  agentId,
}: {
  db: Db;
  userId: string;
  agentId: string;
}): Promise<boolean> {
  const [row] = await db
    .select({ one: sql<number>`1` })
    .from(agentHires)
    .where(and(eq(agentHires.userId, userId), eq(agentHires.agentId, agentId)))
    .limit(1);
  return row !== undefined;
}

/**
 * Inside a transaction: the agent, locked against changes (deactivation, deletion) until it ends,
 * if it exists, is active and is for everyone (not admin-only).
 */
export async function lockActiveAgent({
  db,
  agentId,
}: {
  db: Db;
  agentId: string;
}): Promise<AgentRow | undefined> {
  const [row] = await db
    .select()
    .from(agents)
    .where(and(eq(agents.id, agentId), eq(agents.isActive, true), eq(agents.adminOnly, false)))
    .for('share');
  return row;
}

/** Idempotent: hiring an agent twice keeps one hire. */
export async function insertHire({
  db,
  userId,
  agentId,
}: {
  db: Db;
  userId: string;
  agentId: string;
}): Promise<void> {
  await db.insert(agentHires).values({ userId, agentId }).onConflictDoNothing();
}

/** The fields of an agent an admin writes (create and edit). */
export type AgentContent = Pick<
  typeof agents.$inferInsert,
  'displayName' | 'description' | 'configuration' | 'isActive'
>;

/**
 * A new agent (an admin's): undefined when its name is taken, by a live agent or a deleted one
 * (whose past conversations still name it).
 */
export async function insertAgent({
  db,
  name,
  content,
}: {
  db: Db;
  name: string;
  content: AgentContent;
}): Promise<AgentRow | undefined> {
  const [row] = await db
    .insert(agents)
    .values({ name, ...content, adminOnly: false, seedVersion: null })
    .onConflictDoNothing({ target: agents.name })
    .returning();
  return row;
}

/** The agent's row, locked until the transaction ends: the state an edit starts from. */
export async function lockAgent({ db, id }: { db: Db; id: string }): Promise<AgentRow | undefined> {
  const [row] = await db
    .select()
    .from(agents)
    .where(and(eq(agents.id, id), isNull(agents.deletedAt)))
    .for('update');
  return row;
}

/** Writes an admin's edit of an agent (not deleted), and when it was made (see markAgentEdited). */
export async function updateAgent({
  db,
  id,
  set,
}: {
  db: Db;
  id: string;
  set: Partial<AgentContent> & { editedAt?: Date };
}): Promise<AgentRow | undefined> {
  const [row] = await db
    .update(agents)
    .set(set)
    .where(and(eq(agents.id, id), isNull(agents.deletedAt)))
    .returning();
  return row;
}

/**
 * Deletes an agent as far as anyone can see: inactive, marked deleted, and hired by nobody. The
 * row stays for the conversations that reference it.
 */
export async function softDeleteAgent({
  db,
  id,
  at,
}: {
  db: Db;
  id: string;
  at: Date;
}): Promise<AgentRow | undefined> {
  const [row] = await db
    .update(agents)
    .set({ isActive: false, deletedAt: at })
    .where(and(eq(agents.id, id), isNull(agents.deletedAt)))
    .returning();
  if (row) await db.delete(agentHires).where(eq(agentHires.agentId, id));
  return row;
}

/** How many accounts have hired each agent (agents nobody hired are absent). */
export async function countHiresByAgent({ db }: { db: Db }): Promise<Map<string, number>> {
  const rows = await db
    .select({ agentId: agentHires.agentId, hires: count() })
    .from(agentHires)
    .groupBy(agentHires.agentId);
  return new Map(rows.map((r) => [r.agentId, Number(r.hires)]));
}
