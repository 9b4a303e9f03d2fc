import { and, count, eq, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { agentHires, agents, type AgentRow } from './agents.table';

/** The catalogue's unique name (agents_name_key): an own agent's name is unique within its account only. */
const CATALOGUE_NAME = { target: agents.name, where: sql.raw('owner_id is null') };

/** The catalogue: every agent that is no account's own (seeded or an admin's), deleted ones too. */
export async function listAgents({ db }: { db: Db }): Promise<AgentRow[]> {
  return db
    .select()
    .from(agents)
    .where(isNull(agents.ownerId))
    .orderBy(agents.createdAt, agents.name);
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
        .where(isNull(agents.ownerId))
    ).map((r) => [r.name, r]),
  );
  const missing = rows.filter((r) => !stored.has(r.name));
  if (missing.length > 0)
    await db.insert(agents).values(missing).onConflictDoNothing(CATALOGUE_NAME);
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
          isNull(agents.ownerId),
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
    .where(
      and(
        eq(agents.id, agentId),
        isNull(agents.ownerId),
        eq(agents.isActive, true),
        eq(agents.adminOnly, false),
      ),
    )
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
    .onConflictDoNothing(CATALOGUE_NAME)
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

// ---- An account's own agents ----

/** An account's own agents, not deleted, oldest first. */
export async function listOwnAgents({
  db,
  ownerId,
}: {
  db: Db;
  ownerId: string;
}): Promise<AgentRow[]> {
  return db
    .select()
    .from(agents)
    .where(and(eq(agents.ownerId, ownerId), isNull(agents.deletedAt)))
    .orderBy(agents.createdAt, agents.name);
}

/**
 * Every account's own agents, not deleted, whose configuration was made by another revision of
 * configurationOf than `revision`: their knowledge is made again at start.
 */
export async function staleOwnAgents({
  db,
  revision,
}: {
  db: Db;
  revision: number;
}): Promise<Pick<AgentRow, 'id' | 'ownerId'>[]> {
  return db
    .select({ id: agents.id, ownerId: agents.ownerId })
    .from(agents)
    .where(
      and(
        isNotNull(agents.ownerId),
        isNull(agents.deletedAt),
        sql`(${agents.configuration}->>'ownRevision') is distinct from ${String(revision)}`,
      ),
    );
}

/** One of the account's own agents, not deleted, by id or by name. */
export async function findOwnAgent({
  db,
  ownerId,
  id,
  name,
}: {
  db: Db;
  ownerId: string;
  id?: string;
  name?: string;
}): Promise<AgentRow | undefined> {
  const [row] = await db
    .select()
    .from(agents)
    .where(
      and(
        eq(agents.ownerId, ownerId),
        isNull(agents.deletedAt),
        id === undefined ? undefined : eq(agents.id, id),
        name === undefined ? undefined : eq(agents.name, name),
      ),
    )
    .limit(1);
  return row;
}

/** An account's own agent by id, whosever it is, a deleted one too (its conversations name it). */
export async function findOwnedAgentById({
  db,
  id,
}: {
  db: Db;
  id: string;
}): Promise<AgentRow | undefined> {
  const [row] = await db
    .select()
    .from(agents)
    .where(and(eq(agents.id, id), isNotNull(agents.ownerId)))
    .limit(1);
  return row;
}

/** Every agent the account made, deleted ones too (their conversations still name them). */
export async function listOwnedAgents({
  db,
  ownerId,
}: {
  db: Db;
  ownerId: string;
}): Promise<AgentRow[]> {
  return db.select().from(agents).where(eq(agents.ownerId, ownerId));
}

/** The names the account's own agents hold, deleted ones too (their conversations name them). */
export async function ownAgentNames({
  db,
  ownerId,
}: {
  db: Db;
  ownerId: string;
}): Promise<Set<string>> {
  const rows = await db
    .select({ name: agents.name })
    .from(agents)
    .where(eq(agents.ownerId, ownerId));
  return new Set(rows.map((r) => r.name));
}

/**
 * Inside a transaction: locks the owner's account row, so that what the account adds (its own
 * agents, their documents) is counted and added one request at a time.
 */
export async function lockAccount({ db, ownerId }: { db: Db; ownerId: string }): Promise<void> {
  // The account's row (auth's table, named here rather than imported: features import no other's tables).
  await db.execute(sql`select 1 from users where id = ${ownerId} for update`);
}

/**
 * Inside a transaction: locks the owner's account row (lockAccount) and answers how many agents
 * of its own it has (not deleted).
 */
export async function lockOwnAgentCount({
  db,
  ownerId,
}: {
  db: Db;
  ownerId: string;
}): Promise<number> {
  await lockAccount({ db, ownerId });
  const [row] = await db
    .select({ agents: count() })
    .from(agents)
    .where(and(eq(agents.ownerId, ownerId), isNull(agents.deletedAt)));
  return Number(row?.agents ?? 0);
}

/** A new own agent of the account: undefined when the account already has one by that name. */
export async function insertOwnAgent({
  db,
  ownerId,
  name,
  content,
  at,
}: {
  db: Db;
  ownerId: string;
  name: string;
  content: Required<
    Pick<typeof agents.$inferInsert, 'displayName' | 'description' | 'configuration' | 'profile'>
  >;
  at: Date;
}): Promise<AgentRow | undefined> {
  const [row] = await db
    .insert(agents)
    .values({
      name,
      ...content,
      ownerId,
      adminOnly: false,
      seedVersion: null,
      createdAt: at,
      updatedAt: at,
    })
    .onConflictDoNothing({
      target: [agents.ownerId, agents.name],
      where: sql.raw('owner_id is not null'),
    })
    .returning();
  return row;
}

/** Saves the owner's edit of one of its agents (not deleted); undefined when there is none. */
export async function updateOwnAgent({
  db,
  ownerId,
  id,
  set,
}: {
  db: Db;
  ownerId: string;
  id: string;
  set: Pick<
    typeof agents.$inferInsert,
    'displayName' | 'description' | 'configuration' | 'profile' | 'updatedAt'
  >;
}): Promise<AgentRow | undefined> {
  const [row] = await db
    .update(agents)
    .set(set)
    .where(and(eq(agents.id, id), eq(agents.ownerId, ownerId), isNull(agents.deletedAt)))
    .returning();
  return row;
}

/** Deletes one of the account's own agents as softDeleteAgent does; undefined when there is none. */
export async function softDeleteOwnAgent({
  db,
  ownerId,
  id,
  at,
}: {
  db: Db;
  ownerId: string;
  id: string;
  at: Date;
}): Promise<AgentRow | undefined> {
  const [row] = await db
    .update(agents)
    .set({ isActive: false, deletedAt: at, updatedAt: at })
    .where(and(eq(agents.id, id), eq(agents.ownerId, ownerId), isNull(agents.deletedAt)))
    .returning();
  if (row) await db.delete(agentHires).where(eq(agentHires.agentId, id));
  return row;
}
