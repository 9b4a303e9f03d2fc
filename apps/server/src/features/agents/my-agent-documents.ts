import {
  MY_AGENT_DOCUMENT_NAME_MAX,
  MY_AGENT_DOCUMENTS_MAX,
  type MyAgentDocument,
  type MyAgentExport,
  type SystemSettings,
  type User,
} from '@contrateia/shared';
import type { Db } from '@/db/client';
import { cleanFilename } from '@/features/images/images.service';
import type { Clock } from '@/lib/clock';
import type { MaybePromise } from '@/lib/maybe-promise';
import { isUuid } from '@/lib/uuid';
import * as repo from './my-agent-documents.repository';
import type { DocumentSummary } from './my-agent-documents.repository';
import { kindOf, type DocumentReader } from './my-agent-documents.reader';
import { getMyAgent, recomputeConfiguration, toMyAgent } from './my-agents';
import * as agentsRepo from './agents.repository';
import {
  agentNotFound,
  myAgentDocumentEmpty,
  myAgentDocumentLimit,
  myAgentDocumentNotFound,
} from './agents.errors';

/**
 * The documents an account gives its own agents (a price table, a policy): the text of each is
 * read on the documents' thread, split into passages and stored; the agent's knowledge is made
 * again with them at each addition or removal, so that it answers from them naming the document.
 * Nobody but the owner reaches them (404), as the agent itself.
 */

/** A file as the upload form gave it. */
export type ReceivedDocument = { filename: string; bytes: Uint8Array };

/** The upload size the admin's settings allow now, as the images' limit is read. */
export type DocumentUploadLimit = { maxBytes: number; maxFileSizeMb: number };

export type MyAgentDocumentsService = ReturnType<typeof createMyAgentDocumentsService>;

/** A document as its owner reads it. */
export function toMyAgentDocument(row: DocumentSummary): MyAgentDocument {
  return {
    id: row.id,
    filename: row.filename,
    pages: row.pages,
    characters: row.characters,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * A document's name as it is kept: the file's own name without folders or control characters
 * (cleanFilename, as images' names), at most MY_AGENT_DOCUMENT_NAME_MAX characters with its
 * extension kept past the cut.
 */
export function documentName(sent: string): string {
  const name = cleanFilename(sent);
  const characters = [...name];
  if (characters.length <= MY_AGENT_DOCUMENT_NAME_MAX) return name;
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 ? [...name.slice(dot)].slice(0, 8).join('') : '';
  return characters.slice(0, MY_AGENT_DOCUMENT_NAME_MAX - extension.length).join('') + extension;
}

export function createMyAgentDocumentsService({
  db,
  clock,
  reader,
  systemSettings,
}: {
  db: Db;
  clock: Clock;
  /** Reads a document's text off the event loop. */
  reader: DocumentReader;
  /** The admin's system settings in force: their upload size limit is the documents' too. */
  systemSettings: () => MaybePromise<SystemSettings>;
}) {
  const deps = { db, now: () => clock.now() };

  /** One of the caller's own agents, or 404: before any of an upload's body is read. */
  const ownAgent = (user: User, agentId: string) => getMyAgent(deps, user.id, agentId);

  /** The account is at MY_AGENT_DOCUMENTS_MAX: 400, naming it. */
  const assertRoom = (count: number) => {
    if (count >= MY_AGENT_DOCUMENTS_MAX) throw myAgentDocumentLimit(MY_AGENT_DOCUMENTS_MAX);
  };

  async function list({
    user,
    agentId,
  }: {
    user: User;
    agentId: string;
  }): Promise<MyAgentDocument[]> {
    const agent = await ownAgent(user, agentId);
    return (await repo.listDocuments({ db, agentId: agent.id })).map(toMyAgentDocument);
  }

  /**
   * Adds a document to one of the caller's agents: 404 for no agent of theirs and 400 past the
   * account's limit, both before the file is read (`receive`, given the admin's size limit); then
   * its real type from its bytes, its text off the event loop, and, in one transaction, the
   * document and the agent's knowledge made again with it. Anything refused stores nothing.
   */
  async function add({
    user,
    agentId,
    receive,
  }: {
    user: User;
    agentId: string;
    receive: (limit: DocumentUploadLimit) => Promise<ReceivedDocument>;
  }): Promise<MyAgentDocument> {
    const agent = await ownAgent(user, agentId);
    assertRoom(await repo.countDocuments({ db, ownerId: user.id }));
    const { maxFileSize } = await systemSettings();
    const file = await receive({ maxBytes: maxFileSize * 1024 * 1024, maxFileSizeMb: maxFileSize });
    if (file.bytes.length === 0) throw myAgentDocumentEmpty();
    const filename = documentName(file.filename);
    const kind = await kindOf({ filename, bytes: file.bytes });
    const { pages, characters, passages } = await reader.read({ kind, bytes: file.bytes });
    return db.transaction(async (tx) => {
      // Counted again under the account's lock: two uploads at once cannot both be the 20th.
      assertRoom(await repo.lockDocumentCount({ db: tx, ownerId: user.id }));
      const locked = await repo.lockOwnAgent({ db: tx, ownerId: user.id, id: agent.id });
      if (!locked) throw agentNotFound();
      const at = clock.now();
      const row = await repo.insertDocument({
        db: tx,
        values: {
          agentId: agent.id,
          ownerId: user.id,
          filename,
          pages,
          characters,
          passages,
          createdAt: at,
        },
      });
      await recomputeConfiguration(tx, { ownerId: user.id, agent: locked, at });
      return toMyAgentDocument(row);
    });
  }

  /** Removes a document of one of the caller's agents (404 for none of that agent's), and what it taught it. */
  async function remove({
    user,
    agentId,
    documentId,
  }: {
    user: User;
    agentId: string;
    documentId: string;
  }): Promise<void> {
    const agent = await ownAgent(user, agentId);
    if (!isUuid(documentId)) throw myAgentDocumentNotFound();
    await db.transaction(async (tx) => {
      const locked = await repo.lockOwnAgent({ db: tx, ownerId: user.id, id: agent.id });
      if (!locked) throw agentNotFound();
      const removed = await repo.deleteDocument({
        db: tx,
        ownerId: user.id,
        agentId: agent.id,
        id: documentId,
      });
      if (!removed) throw myAgentDocumentNotFound();
      await recomputeConfiguration(tx, { ownerId: user.id, agent: locked, at: clock.now() });
    });
  }

  /** The account's own agents for its data export, each with its documents (not their text). */
  async function exportMine({ user }: { user: User }): Promise<MyAgentExport[]> {
    const [agents, documents] = await Promise.all([
      agentsRepo.listOwnAgents({ db, ownerId: user.id }),
      repo.listOwnerDocuments({ db, ownerId: user.id }),
    ]);
    return agents.map((agent) => ({
      ...toMyAgent(agent),
      documents: documents
        .filter((document) => document.agentId === agent.id)
        .map(({ filename, pages, characters, createdAt }) => ({
          filename,
          pages,
          characters,
          createdAt: createdAt.toISOString(),
        })),
    }));
  }

  return { list, add, remove, exportMine };
}
