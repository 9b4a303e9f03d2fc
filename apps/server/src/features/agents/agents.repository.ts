import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { agentHires, agents, type AgentRow } from './agents.table';

export async function listAgents({ db }: { db: Db }): Promise<AgentRow[]> {
  return db.select().from(agents).orderBy(agents.createdAt, agents.name);
}

/** Inserts the agents that do not exist yet (by name); existing ones are left as admins edited them. */
export async function insertMissingAgents({ db, rows }: { db: Db; rows: (typeof agents.$inferInsert)[] }): Promise<void> {
  // Checked first so a restart, where all exist, sends one small query instead of every
  // agent's whole configuration.
  const existing = new Set((await db.select({ name: agents.name }).from(agents)).map((r) => r.name));
  const missing = rows.filter((r) => !existing.has(r.name));
  if (missing.length === 0) return;
  await db.insert(agents).values(missing).onConflictDoNothing({ target: agents.name });
}

export async function listHiredAgentIds({ db, userId }: { db: Db; userId: string }): Promise<Set<string>> {
  const rows = await db.select({ agentId: agentHires.agentId }).from(agentHires).where(eq(agentHires.userId, userId));
  return new Set(rows.map((r) => r.agentId));
}

export async function isHired({ db, userId, agentId }: { db: Db; userId: string; agentId: string }): Promise<boolean> {
  const [row] = await db
    .select({ one: sql<number>`1` })
    .from(agentHires)
    .where(and(eq(agentHires.userId, userId), eq(agentHires.agentId, agentId)))
    .limit(1);
  return row !== undefined;
}

/** Idempotent: hiring an agent twice keeps one hire. */
export async function insertHire({ db, userId, agentId }: { db: Db; userId: string; agentId: string }): Promise<void> {
  await db.insert(agentHires).values({ userId, agentId }).onConflictDoNothing();
}

export async function countHires({ db, userId }: { db: Db; userId: string }): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(agentHires).where(eq(agentHires.userId, userId));
  return row?.n ?? 0;
}
