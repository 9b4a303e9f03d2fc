import { DEFAULT_AGENT_NAME, type Agent, type Language, type User } from '@contrateia/shared';
import type { FastifyBaseLogger } from 'fastify';
import type { Db } from '@/db/client';
import { AppError } from '@/lib/errors';
import { createSharedCache } from '@/lib/shared-cache';
import type { SharedState } from '@/lib/shared-state';
import * as repo from './agents.repository';
import { loadSeededAgents } from './agents.seed';
import type { AgentRow } from './agents.table';

export type { AgentRow };

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
}: {
  db: Db;
  /** Whether an account was made for one agent only (those cannot hire). */
  isSingleAgentUser: (userId: string) => Promise<boolean>;
  state: SharedState;
  logger: FastifyBaseLogger;
}) {
  const catalogue = createSharedCache<AgentRow[]>({ state, name: 'agents', max: 1, ttlMs: CATALOGUE_TTL_MS, logger });
  const all = async (): Promise<AgentRow[]> => (await catalogue.load('all', () => repo.listAgents({ db }))) ?? [];
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
  const visibleTo = (user: User, agent: AgentRow) => !agent.adminOnly || user.role === 'admin';

  async function hiredAgents(user: User): Promise<AgentRow[]> {
    const hired = await repo.listHiredAgentIds({ db, userId: user.id });
    return (await all()).filter((a) => hired.has(a.id) && visibleTo(user, a));
  }

  async function listHired({ user, language }: { user: User; language: Language }): Promise<Agent[]> {
    return (await hiredAgents(user)).map((a) => toAgent(a, language, true));
  }

  async function listAvailable({ user, language }: { user: User; language: Language }): Promise<Agent[]> {
    if (await isSingleAgentUser(user.id)) return [];
    const hired = await repo.listHiredAgentIds({ db, userId: user.id });
    return (await all())
      .filter((a) => a.isActive && !hired.has(a.id) && visibleTo(user, a))
      .map((a) => toAgent(a, language, false));
  }

  async function hire({ user, agentId, language }: { user: User; agentId: string; language: Language }): Promise<{ agent: Agent }> {
    const agent = (await all()).find((a) => a.id === agentId || a.name === agentId);
    if (!agent) throw new AppError(404, 'agents.notFound');
    if (!agent.isActive) throw new AppError(400, 'agents.inactive');
    if (!visibleTo(user, agent)) throw new AppError(403, 'agents.adminOnly');
    if (await isSingleAgentUser(user.id)) throw new AppError(403, 'agents.singleAgent');
    await repo.insertHire({ db, userId: user.id, agentId: agent.id });
    return { agent: toAgent(agent, language, true) };
  }

  /**
   * The agent a single-agent account may be made for (spec §5): active and for everyone, by id
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
  async function hireForSingleAgentAccount({ userId, agentId, tx }: { userId: string; agentId: string; tx: Db }): Promise<boolean> {
    if (!(await repo.lockActiveAgent({ db: tx, agentId }))) return false;
    await repo.insertHire({ db: tx, userId, agentId });
    return true;
  }

  async function hireDefault({ userId }: { userId: string }): Promise<void> {
    const agent = (await all()).find((a) => a.name === DEFAULT_AGENT_NAME);
    if (agent) await repo.insertHire({ db, userId, agentId: agent.id });
  }

  /**
   * The agent a chat call may use: it exists (404), is active (400) and is hired by the caller and
   * theirs to see in their mode (403). Every chat endpoint goes through here.
   */
  async function assertAccess({ user, agentName }: { user: User; agentName: string }): Promise<AgentRow> {
    const agent = (await all()).find((a) => a.name === agentName);
    if (!agent) throw new AppError(404, 'agents.notFound');
    if (!agent.isActive) throw new AppError(400, 'agents.inactive');
    if (!visibleTo(user, agent) || !(await repo.isHired({ db, userId: user.id, agentId: agent.id }))) {
      throw new AppError(403, 'agents.noAccess');
    }
    return agent;
  }

  /**
   * For something of the caller's that belongs to an agent (a conversation): the agent, or 403, as
   * for an agent not hired, when the caller may not see that agent in their mode.
   */
  async function assertVisible({ user, agentId }: { user: User; agentId: string }): Promise<AgentRow | undefined> {
    const agent = await findById({ id: agentId });
    if (agent && !visibleTo(user, agent)) throw new AppError(403, 'agents.noAccess');
    return agent;
  }

  /** Whether the caller may see the agent in their mode (see assertAccess). */
  const isVisibleTo = ({ user, agent }: { user: User; agent: AgentRow }) => visibleTo(user, agent);

  async function findById({ id }: { id: string }): Promise<AgentRow | undefined> {
    return (await all()).find((a) => a.id === id);
  }

  async function findByName({ name }: { name: string }): Promise<AgentRow | undefined> {
    return (await all()).find((a) => a.name === name);
  }

  /** The hired agents the caller sees in their mode, as listHired lists them. */
  const countHired = async ({ user }: { user: User }) => (await hiredAgents(user)).length;

  return {
    seed,
    listHired,
    listAvailable,
    hire,
    hireDefault,
    findHireable,
    hireForSingleAgentAccount,
    assertAccess,
    assertVisible,
    isVisibleTo,
    findById,
    findByName,
    countHired,
    invalidate,
  };
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
