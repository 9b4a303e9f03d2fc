import { and, asc, count, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '@/db/client';
import { agentDocuments, agents, type AgentDocumentRow, type AgentRow } from './agents.table';
import { lockAccount } from './agents.repository';

/** A document as its owner lists it: everything but its passages. */
export type DocumentSummary = Omit<AgentDocumentRow, 'passages' | 'ownerId'>;

const summary = {
  id: agentDocuments.id,
  agentId: agentDocuments.agentId,
  filename: agentDocuments.filename,
  pages: agentDocuments.pages,
  characters: agentDocuments.characters,
  createdAt: agentDocuments.createdAt,
};

/**
 * Inside a transaction: locks the owner's account row, so that its documents are counted and
 * added one request at a time, and answers how many it has.
 */
export async function lockDocumentCount({
  db,
  ownerId,
}: {
  db: Db;
  ownerId: string;
}): Promise<number> {
  await lockAccount({ db, ownerId });
  return countDocuments({ db, ownerId });
}

/** How many documents the account has. */
export async function countDocuments({ db, ownerId }: { db: Db; ownerId: string }) {
  const [row] = await db
    .select({ documents: count() })
    .from(agentDocuments)
    .where(eq(agentDocuments.ownerId, ownerId));
  return Number(row?.documents ?? 0);
}

/**
 * Inside a transaction: one of the account's own agents (not deleted), its row locked until the
 * transaction ends, so that its configuration is made from one state of its documents and
 * profile at a time. Undefined when there is none.
 */
export async function lockOwnAgent({
  db,
  ownerId,
  id,
}: {
  db: Db;
  ownerId: string;
  id: string;
}): Promise<AgentRow | undefined> {
  const [row] = await db
    .select()
    .from(agents)
    .where(and(eq(agents.id, id), eq(agents.ownerId, ownerId), sql`${agents.deletedAt} is null`))
    .for('update');
  return row;
}

export async function insertDocument({
  db,
  values,
}: {
  db: Db;
  values: Omit<typeof agentDocuments.$inferInsert, 'id'>;
}): Promise<AgentDocumentRow> {
  const [row] = await db.insert(agentDocuments).values(values).returning();
  if (!row) throw new Error('the document was not inserted');
  return row;
}

/** An agent's documents, newest first, without their passages. */
export async function listDocuments({
  db,
  agentId,
}: {
  db: Db;
  agentId: string;
}): Promise<DocumentSummary[]> {
  return db
    .select(summary)
    .from(agentDocuments)
    .where(eq(agentDocuments.agentId, agentId))
    .orderBy(desc(agentDocuments.createdAt), desc(agentDocuments.id));
}

/** Every document of the account's agents, oldest first, without their passages (its data export). */
export async function listOwnerDocuments({
  db,
  ownerId,
}: {
  db: Db;
  ownerId: string;
}): Promise<DocumentSummary[]> {
  return db
    .select(summary)
    .from(agentDocuments)
    .where(eq(agentDocuments.ownerId, ownerId))
    .orderBy(asc(agentDocuments.createdAt), asc(agentDocuments.id));
}

/** An agent's documents' passages, oldest document first: what its knowledge is made from. */
export async function listPassages({
  db,
  agentId,
}: {
  db: Db;
  agentId: string;
}): Promise<Pick<AgentDocumentRow, 'id' | 'filename' | 'passages'>[]> {
  return db
    .select({
      id: agentDocuments.id,
      filename: agentDocuments.filename,
      passages: agentDocuments.passages,
    })
    .from(agentDocuments)
    .where(eq(agentDocuments.agentId, agentId))
    .orderBy(asc(agentDocuments.createdAt), asc(agentDocuments.id));
}

/** Removes one document of one agent of the account's; undefined when there is none. */
export async function deleteDocument({
  db,
  ownerId,
  agentId,
  id,
}: {
  db: Db;
  ownerId: string;
  agentId: string;
  id: string;
}): Promise<{ id: string } | undefined> {
  const [row] = await db
    .delete(agentDocuments)
    .where(
      and(
        eq(agentDocuments.id, id),
        eq(agentDocuments.agentId, agentId),
        eq(agentDocuments.ownerId, ownerId),
      ),
    )
    .returning({ id: agentDocuments.id });
  return row;
}

/** Removes every document of an agent (when it is deleted). */
export async function deleteAgentDocuments({ db, agentId }: { db: Db; agentId: string }) {
  await db.delete(agentDocuments).where(eq(agentDocuments.agentId, agentId));
}
