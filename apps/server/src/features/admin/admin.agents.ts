import { isSeededAgentName, type AdminAgent } from '@contrateia/shared';
import type { Clock } from '@/lib/clock';
import type { AuthService } from '@/features/auth/auth.service';
import type {
  AgentEdit,
  AgentRow,
  AgentsService,
  NewAgent,
} from '@/features/agents/agents.service';
import type { ChatService, TestChatInput } from '@/features/chat/chat.service';
import type { DomainEventBus } from '@/lib/domain-events';
import type { AuditActor } from '@/features/audit/audit.service';
import { onlyAgentOfAccounts } from './admin.errors';

export type AdminAgentsService = ReturnType<typeof createAdminAgentsService>;

/**
 * The admin's agent management: every agent with its use, creation, edits,
 * activation and deletion, each recorded in the audit in the transaction that makes it, and the
 * test chat. The agents' data is the agents feature's; conversations are the chat feature's.
 */
export function createAdminAgentsService({
  agents,
  auth,
  chat,
  events,
  clock,
}: {
  agents: AgentsService;
  auth: Pick<AuthService, 'countSingleAgentAccounts'>;
  chat: ChatService;
  /** Where a deletion is announced (`agent.deleted`): WhatsApp lets go of the agent. */
  events: Pick<DomainEventBus, 'emit'>;
  /** The time of each change: an edit's or a deletion's mark, and its audit record's. */
  clock: Clock;
}) {
  async function list(): Promise<AdminAgent[]> {
    const [rows, conversations] = await Promise.all([
      agents.listAll(),
      chat.countConversationsByAgent(),
    ]);
    return rows.map(({ agent, hires }) =>
      toAdminAgent(agent, { hires, conversations: conversations.get(agent.id) ?? 0 }),
    );
  }

  /** The agent as the panel shows it after a change, with its counts read afresh. */
  async function withUse(agent: AgentRow): Promise<AdminAgent> {
    const listed = (await list()).find((a) => a.id === agent.id);
    return listed ?? toAdminAgent(agent, { hires: 0, conversations: 0 });
  }

  /**
   * An agent that is the one agent of active single-agent accounts stays on: without it those
   * accounts would have nothing to open. The admin deactivates the accounts first (400 says how many).
   */
  async function assertNotSomeonesOnlyAgent(id: string, field?: 'isActive'): Promise<void> {
    // The catalogue is cached: no query but the count below.
    const agent = await agents.findById({ id });
    if (!agent || agent.deletedAt) return;
    const count = await auth.countSingleAgentAccounts({ agentName: agent.name });
    if (count > 0) throw onlyAgentOfAccounts({ count, field });
  }

  return {
    list,

    async create({ input, actor }: { input: NewAgent; actor: AuditActor }): Promise<AdminAgent> {
      const { agent } = await agents.createAgent({ input, actor, at: clock.now() });
      return withUse(agent);
    },

    async update({
      id,
      input,
      actor,
    }: {
      id: string;
      input: AgentEdit;
      actor: AuditActor;
    }): Promise<AdminAgent> {
      if (input.isActive === false) await assertNotSomeonesOnlyAgent(id, 'isActive');
      const { agent } = await agents.updateAgent({ id, input, actor, at: clock.now() });
      return withUse(agent);
    },

    async setStatus({
      id,
      isActive,
      actor,
    }: {
      id: string;
      isActive: boolean;
      actor: AuditActor;
    }): Promise<AdminAgent> {
      if (!isActive) await assertNotSomeonesOnlyAgent(id, 'isActive');
      const { agent } = await agents.setActive({ id, isActive, actor, at: clock.now() });
      return withUse(agent);
    },

    /** Deletes a custom agent; WhatsApp conversations and accounts that used it fall back to their defaults. */
    async remove({ id, actor }: { id: string; actor: AuditActor }): Promise<AgentRow> {
      await assertNotSomeonesOnlyAgent(id);
      const { agent } = await agents.deleteAgent({ id, actor, at: clock.now() });
      await events.emit('agent.deleted', { agentId: agent.id });
      return agent;
    },

    /** A message in a test conversation with any agent not deleted: its reply, and the conversation to continue. */
    testChat: (input: TestChatInput) => chat.testReply(input),
  };
}

function toAdminAgent(row: AgentRow, use: { hires: number; conversations: number }): AdminAgent {
  const { catalogue, ...configuration } = row.configuration;
  return {
    id: row.id,
    name: row.name,
    displayName: row.displayName,
    description: row.description,
    isActive: row.isActive,
    adminOnly: row.adminOnly,
    seeded: isSeededAgentName(row.name),
    configuration: { ...configuration, ...(catalogue ? { catalogue } : {}) },
    createdAt: row.createdAt.toISOString(),
    editedAt: row.editedAt?.toISOString() ?? null,
    ...use,
  };
}
