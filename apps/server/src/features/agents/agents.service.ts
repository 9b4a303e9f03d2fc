import { randomUUID } from 'node:crypto';
import {
  CUSTOM_AGENT_PAGE_PREFIX,
  DEFAULT_AGENT_NAME,
  DEFAULT_LANGUAGE,
  RESERVED_AGENT_NAMES,
  isSeededAgentName,
  WEB_PAGES,
  type Agent,
  type AgentConfiguration,
  type createAgentSchema,
  type KnowledgeEntry,
  type Language,
  type MyAgentContent,
  type updateAgentSchema,
  type User,
} from '@contrateia/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { Db } from '@/db/client';
import type { AuditActor } from '@/features/audit/audit.service';
import { createSharedCache } from '@/lib/shared-cache';
import type { SharedState } from '@/lib/shared-state';
import type { Clock } from '@/lib/clock';
import type { DomainEventBus } from '@/lib/domain-events';
import { isUuid } from '@/lib/uuid';
import * as repo from './agents.repository';
import * as myAgents from './my-agents';
import { recordAgentChange } from './agents.audit';
import { loadSeededAgents } from './agents.seed';
import type { AgentRow } from './agents.table';
import {
  agentAdminOnly,
  agentInactive,
  agentNameTaken,
  agentNoAccess,
  agentNotFound,
  defaultAgentAlwaysActive,
  knowledgeLinkInvalid,
  seededAgentNotDeletable,
  singleAgentAccount,
} from './agents.errors';

export type { AgentRow };

/** A new agent as its schema gives it (validated, defaults applied). */
export type NewAgent = z.output<typeof createAgentSchema>;
/** An admin's edit of an agent, as its schema gives it. */
export type AgentEdit = z.output<typeof updateAgentSchema>;

/**
 * The admin who makes a change to an agent and when: recorded in the admin audit in the
 * transaction that makes it, so the record is kept with the change or not at all.
 */
type AuditedBy = { actor: AuditActor; at: Date };

export type AgentsService = ReturnType<typeof createAgentsService>;

/** How stale an instance's copy of the catalogue can be if an invalidation is ever lost. */
const CATALOGUE_TTL_MS = 60_000;

/**
 * The agent catalogue and who hired what. Agents change only when an admin edits them, so each
 * instance caches the catalogue and every instance drops its copy after a change (`invalidate`,
 * through the shared state).
 */
export function createAgentsService({
  db,
  isSingleAgentUser,
  state,
  logger,
  events,
  clock,
}: {
  db: Db;
  /** Whether an account was made for one agent only (those cannot hire). */
  isSingleAgentUser: (userId: string) => Promise<boolean>;
  state: SharedState;
  logger: FastifyBaseLogger;
  /** Where an own agent's deletion is announced (`agent.deleted`): WhatsApp lets go of it. */
  events: Pick<DomainEventBus, 'emit'>;
  /** The time of an own agent's changes. */
  clock: Clock;
}) {
  const catalogue = createSharedCache<AgentRow[]>({
    state,
    name: 'agents',
    max: 1,
    ttlMs: CATALOGUE_TTL_MS,
    logger,
  });
  /** Every agent row, deleted ones too (their conversations still name them). */
  const all = async (): Promise<AgentRow[]> =>
    (await catalogue.load('all', () => repo.listAgents({ db }))) ?? [];
  /** The agents that exist for everyone: not deleted. */
  const live = async (): Promise<AgentRow[]> => (await all()).filter((a) => a.deletedAt === null);
  /** Call after any change to the agents table: every instance re-reads the catalogue. */
  const invalidate = () => catalogue.invalidate('all');

  /**
   * Run at every start: adds the seeded agents that are missing (first start, or a new seeded
   * agent) and updates those whose seed file has a newer version, unless an admin edited them.
   */
  async function seed(): Promise<void> {
    await repo.syncSeededAgents({
      db,
      rows: loadSeededAgents().map((a) => ({
        name: a.name,
        seedVersion: a.seedVersion,
        displayName: a.displayName,
        description: a.description,
        configuration: a.configuration,
        adminOnly: a.adminOnly,
      })),
    });
    await invalidate();
  }

  /**
   * Whether the caller, in the mode they are in now, may see the agent at all: an admin-only agent
   * is for admin mode (an admin in user mode is a user until they switch back, even for an agent
   * they hired as admin). Hired or not, an agent a caller may not see is neither listed nor used.
   */
  const visibleTo = (user: User, agent: AgentRow) =>
    (agent.ownerId === null || agent.ownerId === user.id) &&
    (!agent.adminOnly || user.role === 'admin');

  /**
   * The caller's hired agents they may see in their mode; an inactive one only when asked for
   * (`includeInactive`): deactivated, an agent leaves its users' lists until an admin turns it on.
   */
  async function hiredAgents(user: User, includeInactive = false): Promise<AgentRow[]> {
    const [hired, own] = await Promise.all([
      repo.listHiredAgentIds({ db, userId: user.id }),
      repo.listOwnAgents({ db, ownerId: user.id }),
    ]);
    return [...(await live()), ...own].filter(
      (a) => hired.has(a.id) && visibleTo(user, a) && (includeInactive || a.isActive),
    );
  }

  /**
   * The caller's hired agents (their navigation, the dashboard). `includeInactive` adds those an
   * admin deactivated (the account's data export lists every hire).
   */
  async function listHired({
    user,
    language,
    includeInactive,
  }: {
    user: User;
    language: Language;
    includeInactive?: boolean;
  }): Promise<Agent[]> {
    return (await hiredAgents(user, includeInactive)).map((a) => toAgent(a, language, true));
  }

  /**
   * The agents that may answer the caller's WhatsApp contacts: their own agents first, then the
   * other hired, active agents. An admin-only agent is never one, whoever asks: it is for admins.
   */
  async function listForContacts({
    user,
    language,
  }: {
    user: User;
    language: Language;
  }): Promise<(Agent & { own: boolean })[]> {
    const answering = (await hiredAgents(user)).filter((a) => !a.adminOnly);
    const own = (a: AgentRow) => a.ownerId !== null;
    return [...answering.filter(own), ...answering.filter((a) => !own(a))].map((a) => ({
      ...toAgent(a, language, true),
      own: own(a),
    }));
  }

  async function listAvailable({
    user,
    language,
  }: {
    user: User;
    language: Language;
  }): Promise<Agent[]> {
    if (await isSingleAgentUser(user.id)) return [];
    const hired = await repo.listHiredAgentIds({ db, userId: user.id });
    return (await live())
      .filter((a) => a.isActive && !hired.has(a.id) && visibleTo(user, a))
      .map((a) => toAgent(a, language, false));
  }

  async function hire({
    user,
    agentId,
    language,
  }: {
    user: User;
    agentId: string;
    language: Language;
  }): Promise<{ agent: Agent }> {
    const agent = (await live()).find((a) => a.id === agentId || a.name === agentId);
    if (!agent) throw agentNotFound();
    if (!agent.isActive) throw agentInactive();
    if (!visibleTo(user, agent)) throw agentAdminOnly();
    if (await isSingleAgentUser(user.id)) throw singleAgentAccount();
    await repo.insertHire({ db, userId: user.id, agentId: agent.id });
    return { agent: toAgent(agent, language, true) };
  }

  /**
   * The agent a single-agent account may be made for: active and for everyone, by id
   * or name, from the catalogue; undefined otherwise.
   */
  async function findHireable({ agent }: { agent: string }): Promise<AgentRow | undefined> {
    const found = (await all()).find((a) => a.id === agent || a.name === agent);
    return found && found.isActive && !found.adminOnly ? found : undefined;
  }

  /**
   * Inside `tx` (the one that makes a single-agent account): hires the agent for the account, if
   * it is still active and for everyone; its row stays locked until `tx` ends, so a deactivation
   * or deletion waits rather than leaving an account with a dead agent. False when it is not.
   */
  async function hireForSingleAgentAccount({
    userId,
    agentId,
    tx,
  }: {
    userId: string;
    agentId: string;
    tx: Db;
  }): Promise<boolean> {
    if (!(await repo.lockActiveAgent({ db: tx, agentId }))) return false;
    await repo.insertHire({ db: tx, userId, agentId });
    return true;
  }

  async function hireDefault({ userId }: { userId: string }): Promise<void> {
    const agent = (await live()).find((a) => a.name === DEFAULT_AGENT_NAME);
    if (agent) await repo.insertHire({ db, userId, agentId: agent.id });
  }

  /**
   * The agent a chat call may use: it exists (404), is active (400) and is hired by the caller and
   * theirs to see in their mode (403). Every chat endpoint goes through here.
   */
  async function assertAccess({
    user,
    agentName,
  }: {
    user: User;
    agentName: string;
  }): Promise<AgentRow> {
    const listed = (await live()).find((a) => a.name === agentName);
    const hired =
      listed !== undefined &&
      visibleTo(user, listed) &&
      (await repo.isHired({ db, userId: user.id, agentId: listed.id }));
    if (listed?.isActive && hired) return listed;
    // Not a catalogue agent the caller has: one of the caller's own by that name, looked up only
    // then (a chat with a catalogue agent costs no query more). An own agent's name is never a
    // catalogue agent's when it is made; should the catalogue take it later, the hired one wins.
    const agent = (await repo.findOwnAgent({ db, ownerId: user.id, name: agentName })) ?? listed;
    if (!agent) throw agentNotFound();
    if (!agent.isActive) throw agentInactive();
    if (agent === listed && !hired) throw agentNoAccess();
    return agent;
  }

  /**
   * For something of the caller's that belongs to an agent (a conversation): the agent, or 403, as
   * for an agent not hired, when the caller may not see that agent in their mode.
   */
  async function assertVisible({
    user,
    agentId,
  }: {
    user: User;
    agentId: string;
  }): Promise<AgentRow | undefined> {
    const agent = await findById({ id: agentId });
    if (agent && !visibleTo(user, agent)) throw agentNoAccess();
    return agent;
  }

  /** Whether the caller may see the agent in their mode (see assertAccess). */
  const isVisibleTo = ({ user, agent }: { user: User; agent: AgentRow }) => visibleTo(user, agent);

  /**
   * The agent with this id, a deleted one too (its past conversations still name it): from the
   * catalogue, else an account's own (whose owner alone may see it: see isVisibleTo).
   */
  async function findById({ id }: { id: string }): Promise<AgentRow | undefined> {
    const listed = (await all()).find((a) => a.id === id);
    if (listed || !isUuid(id)) return listed;
    return repo.findOwnedAgentById({ db, id });
  }

  /**
   * Finds agents by id for a list of one account's conversations: the catalogue's and the
   * account's own (deleted ones too, as findById), read once for the whole list.
   */
  async function lookupFor({
    ownerId,
  }: {
    ownerId: string;
  }): Promise<(id: string) => AgentRow | undefined> {
    const [catalogueRows, own] = await Promise.all([all(), repo.listOwnedAgents({ db, ownerId })]);
    const byId = new Map([...catalogueRows, ...own].map((a) => [a.id, a]));
    return (id) => byId.get(id);
  }

  /**
   * The catalogue's agent with this name, a deleted one too (a deleted agent's name stays taken);
   * with `ownerId`, that account's own agent by the name first.
   */
  async function findByName({
    name,
    ownerId,
  }: {
    name: string;
    ownerId?: string;
  }): Promise<AgentRow | undefined> {
    const own = ownerId === undefined ? undefined : await repo.findOwnAgent({ db, ownerId, name });
    return own ?? (await all()).find((a) => a.name === name);
  }

  // ---- The account's own agents (my-agents.ts) ----

  const mine = { db, now: () => clock.now() };
  const listMine = ({ user }: { user: User }) => myAgents.listMyAgents(mine, user.id);
  const getMine = async ({ user, id }: { user: User; id: string }) =>
    myAgents.toMyAgent(await myAgents.getMyAgent(mine, user.id, id));
  async function createMine({
    user,
    content,
    language,
  }: {
    user: User;
    content: MyAgentContent;
    language: Language;
  }) {
    const catalogueNames = new Set((await all()).map((a) => a.name));
    const row = await myAgents.createMyAgent(mine, {
      ownerId: user.id,
      content,
      language,
      catalogueNames,
    });
    return myAgents.toMyAgent(row);
  }
  const updateMine = async ({
    user,
    id,
    content,
  }: {
    user: User;
    id: string;
    content: MyAgentContent;
  }) => myAgents.toMyAgent(await myAgents.updateMyAgent(mine, { ownerId: user.id, id, content }));
  async function deleteMine({ user, id }: { user: User; id: string }) {
    const row = await myAgents.deleteMyAgent(mine, { ownerId: user.id, id });
    await events.emit('agent.deleted', { agentId: row.id });
    return myAgents.toMyAgent(row);
  }

  // ---- The admin's agent management ----

  /** Every agent that is not deleted, active or not, with how many accounts hired it. */
  async function listAll(): Promise<Array<{ agent: AgentRow; hires: number }>> {
    const [agents, hires] = await Promise.all([live(), repo.countHiresByAgent({ db })]);
    return agents.map((agent) => ({ agent, hires: hires.get(agent.id) ?? 0 }));
  }

  /** A live agent by id, or 404: checked against the catalogue, so a malformed id never reaches a query. */
  async function liveAgent(id: string): Promise<AgentRow> {
    const agent = (await live()).find((a) => a.id === id);
    if (!agent) throw agentNotFound();
    return agent;
  }

  /**
   * A configuration as stored from an admin's: each knowledge entry with an id (a new one gets a
   * generated one) and its link, if any, a page of the app: one of WEB_PAGES, or the page of an
   * agent that exists (`agentNames`); anything else is refused on its field.
   */
  function configurationOf(
    input: NewAgent['configuration'],
    agentNames: ReadonlySet<string>,
  ): AgentConfiguration {
    const knowledge = input.knowledge.map((entry, index): KnowledgeEntry => {
      const link = entry.link?.trim() || undefined;
      if (link !== undefined && !isAppPage(link, agentNames)) {
        throw knowledgeLinkInvalid(`configuration.knowledge.${index}.link`);
      }
      return {
        // Suffixed by the language, as the seeded entries are: the engine takes the rest as the topic.
        id: entry.id?.trim() || `${randomUUID()}.${entry.language}`,
        language: entry.language,
        title: entry.title,
        content: entry.content,
        keywords: entry.keywords,
        ...(link === undefined ? {} : { link }),
      };
    });
    return {
      instructions: input.instructions,
      welcomeMessage: input.welcomeMessage,
      model: input.model,
      knowledge,
      capabilities: input.capabilities,
      ...(input.catalogue ? { catalogue: input.catalogue } : {}),
    };
  }

  /** The names whose pages a knowledge link may point to: every agent not deleted, and `also`. */
  async function linkableNames(also?: string): Promise<Set<string>> {
    const names = new Set((await live()).map((a) => a.name));
    if (also) names.add(also);
    return names;
  }

  /**
   * Creates an agent an admin wrote (already validated by createAgentSchema): 400 on `name` when
   * the name is taken (a deleted agent's too), on a knowledge entry's `link` when it is not a page
   * of the app. Hireable at once when active.
   */
  async function createAgent({
    input,
    actor,
    at,
  }: { input: NewAgent } & AuditedBy): Promise<{ agent: AgentRow }> {
    const name = input.name ?? (await freeName(input.displayName[DEFAULT_LANGUAGE]));
    // The agent's own page is a page too, once it exists.
    const configuration = configurationOf(input.configuration, await linkableNames(name));
    const agent = await db.transaction(async (tx) => {
      const row = await repo.insertAgent({
        db: tx,
        name,
        content: {
          displayName: input.displayName,
          description: input.description,
          configuration,
          isActive: input.isActive,
        },
      });
      if (!row) throw agentNameTaken();
      await recordAgentChange(tx, {
        actor,
        at,
        action: 'agent.create',
        before: undefined,
        after: row,
      });
      return row;
    });
    await invalidate();
    return { agent };
  }

  /**
   * A catalogue agent's name made from its display name, as an own agent's ("Loja Central" →
   * `loja-central`, then `-2`, `-3`…): no other catalogue agent's, deleted ones' included, and no
   * route of the app.
   */
  async function freeName(displayName: string): Promise<string> {
    const taken = new Set((await all()).map((agent) => agent.name));
    const base = myAgents.slugOf(displayName);
    let name = base;
    for (let suffix = 2; taken.has(name) || RESERVED_AGENT_NAMES.includes(name); suffix += 1)
      name = `${base}-${suffix}`;
    return name;
  }

  /**
   * Saves an admin's edit of any agent, the seeded ones too (404 for none or a deleted one), and
   * marks it edited so that newer seed files leave it alone. `isActive`, when given, changes as
   * setActive would.
   */
  async function updateAgent({
    id,
    input,
    actor,
    at,
  }: { id: string; input: AgentEdit } & AuditedBy): Promise<{ agent: AgentRow }> {
    const current = await liveAgent(id);
    if (input.isActive === false) assertMayDeactivate(current);
    const configuration = configurationOf(input.configuration, await linkableNames());
    const agent = await db.transaction(async (tx) => {
      const before = await repo.lockAgent({ db: tx, id });
      if (!before) throw agentNotFound();
      const after = await repo.updateAgent({
        db: tx,
        id,
        set: {
          displayName: input.displayName,
          description: input.description,
          configuration,
          ...(input.isActive === undefined ? {} : { isActive: input.isActive }),
          editedAt: at,
        },
      });
      if (!after) throw agentNotFound();
      await recordAgentChange(tx, { actor, at, action: 'agent.update', before, after });
      return after;
    });
    await invalidate();
    return { agent };
  }

  /** The default agent (every account has it, and `/` leads to it) stays active. */
  function assertMayDeactivate(agent: AgentRow) {
    if (agent.name === DEFAULT_AGENT_NAME) throw defaultAgentAlwaysActive();
  }

  /**
   * Turns an agent on or off. Off, it leaves the catalogue and its users' lists, and stops
   * answering everywhere (chat 400; WhatsApp falls back to the account's default agent); its
   * hires and conversations stay for when it is turned on again.
   */
  async function setActive({
    id,
    isActive,
    actor,
    at,
  }: { id: string; isActive: boolean } & AuditedBy): Promise<{ agent: AgentRow }> {
    const current = await liveAgent(id);
    if (!isActive) assertMayDeactivate(current);
    const agent = await db.transaction(async (tx) => {
      const before = await repo.lockAgent({ db: tx, id });
      if (!before) throw agentNotFound();
      const after = await repo.updateAgent({ db: tx, id, set: { isActive } });
      if (!after) throw agentNotFound();
      await recordAgentChange(tx, { actor, at, action: 'agent.status', before, after });
      return after;
    });
    await invalidate();
    return { agent };
  }

  /**
   * Deletes an agent an admin created: it leaves the catalogue and every hire, and stops answering;
   * its users' past conversations stay readable (the row stays, marked deleted). The seeded
   * agents can only be deactivated (400).
   */
  async function deleteAgent({
    id,
    actor,
    at,
  }: { id: string } & AuditedBy): Promise<{ agent: AgentRow }> {
    const current = await liveAgent(id);
    if (isSeededAgentName(current.name)) throw seededAgentNotDeletable();
    const agent = await db.transaction(async (tx) => {
      const before = await repo.lockAgent({ db: tx, id });
      if (!before) throw agentNotFound();
      await repo.softDeleteAgent({ db: tx, id, at });
      await recordAgentChange(tx, { actor, at, action: 'agent.delete', before, after: undefined });
      return before;
    });
    await invalidate();
    return { agent };
  }

  /** An agent an admin may talk to in a test chat: any that is not deleted, active or not (404 otherwise). */
  async function findForTest({ name }: { name: string }): Promise<AgentRow> {
    const agent = (await live()).find((a) => a.name === name);
    if (!agent) throw agentNotFound();
    return agent;
  }

  /** The hired agents the caller sees in their mode, as listHired lists them. */
  const countHired = async ({ user }: { user: User }) => (await hiredAgents(user)).length;

  return {
    seed,
    listHired,
    listForContacts,
    listAvailable,
    hire,
    hireDefault,
    findHireable,
    hireForSingleAgentAccount,
    assertAccess,
    assertVisible,
    isVisibleTo,
    findById,
    lookupFor,
    findByName,
    countHired,
    listMine,
    getMine,
    createMine,
    updateMine,
    deleteMine,
    invalidate,
    listAll,
    createAgent,
    updateAgent,
    setActive,
    deleteAgent,
    findForTest,
  };
}

/**
 * Whether a knowledge link is a page of the app: one of WEB_PAGES, or the chat page of one of
 * `agentNames` (`/agent/{name}`, or a seeded agent's own route). The path alone: no query, no
 * fragment, no other host.
 */
export function isAppPage(link: string, agentNames: ReadonlySet<string>): boolean {
  if (WEB_PAGES.includes(link)) return true;
  return (
    link.startsWith(CUSTOM_AGENT_PAGE_PREFIX) &&
    agentNames.has(link.slice(CUSTOM_AGENT_PAGE_PREFIX.length))
  );
}

function toAgent(row: AgentRow, language: Language, isHired: boolean): Agent {
  return {
    id: row.id,
    name: row.name,
    displayName: row.displayName[language],
    description: row.description[language],
    isActive: row.isActive,
    createdAt: row.createdAt.toISOString(),
    configuration: { welcomeMessage: row.configuration.welcomeMessage[language] },
    isHired,
  };
}

/**
 * What an account's own agent says when it hands a conversation over to a person (if its owner
 * wrote it), and the language its business writes in; undefined for a catalogue agent.
 */
export function handoffOf(agent: AgentRow): { message?: string; language: Language } | undefined {
  const profile = agent.profile as myAgents.MyAgentProfile | null;
  return profile
    ? { message: profile.business.handoffMessage, language: profile.language }
    : undefined;
}

/**
 * An agent as an engine reads it. An account's own agent is read anew from the database for each
 * question: the stamp its configuration gets at each change names it, so that an engine builds
 * its search index once per change, not once per question.
 */
export function engineAgentOf(agent: AgentRow): {
  name: string;
  configuration: AgentRow['configuration'];
  version?: string;
} {
  const { name, configuration } = agent;
  return configuration.stamp
    ? { name, configuration, version: configuration.stamp }
    : { name, configuration };
}
