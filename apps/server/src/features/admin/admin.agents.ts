import { isSeededAgentName, type AdminAgent, type Language, type User } from '@contrateia/shared';
import type { Db } from '@/db/client';
import type { Clock } from '@/lib/clock';
import type { AuthService } from '@/features/auth/auth.service';
import type { EventLog } from '@/lib/event-log';
import type {
  AgentChangeRecorder,
  AgentEdit,
  AgentRow,
  AgentsService,
  NewAgent,
} from '@/features/agents/agents.service';
import type { ChatService } from '@/features/chat/chat.service';
import type { DomainEventBus } from '@/lib/domain-events';
import {
  changedFields,
  createAuditTrail,
  type AuditChanges,
  type AuditRecorder,
} from '@/features/audit/audit.service';
import { onlyAgentOfAccounts } from './admin.errors';

export type AdminAgentsService = ReturnType<typeof createAdminAgentsService>;

/** Who makes a change, from where and in which request: what the audit records beside it. */
type Actor = { actorId: string; ip?: string; requestId?: string };

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
  eventLog,
}: {
  agents: AgentsService;
  auth: Pick<AuthService, 'countSingleAgentAccounts'>;
  chat: ChatService;
  /** Where a deletion is announced (`agent.deleted`): WhatsApp lets go of the agent. */
  events: Pick<DomainEventBus, 'emit'>;
  clock: Clock;
  /** The stored log: each change, as the audit has it. */
  eventLog: EventLog;
}) {
  const audit = createAuditTrail({ eventLog });
  /** Records a change with `action` through `write` (only the fields it changed; nothing when it changed none). */
  const recorder =
    (write: AuditRecorder, { actorId, ip }: Actor, action: string): AgentChangeRecorder =>
    async (tx: Db, { before, after }) => {
      const changes =
        before && after
          ? changedFields(audited(before), audited(after))
          : after
            ? wholeRecord(after, 'after')
            : wholeRecord(before!, 'before');
      if (Object.keys(changes).length === 0) return;
      const { id, displayName } = (after ?? before)!;
      await write(tx, { actorId, action, target: id, targetName: displayName, changes, ip });
    };

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

    async create({ input, ...actor }: { input: NewAgent } & Actor): Promise<AdminAgent> {
      const { agent } = await audit.change(actor.requestId, (write) =>
        agents.createAgent({ input, record: recorder(write, actor, 'agent.create') }),
      );
      return withUse(agent);
    },

    async update({
      id,
      input,
      ...actor
    }: { id: string; input: AgentEdit } & Actor): Promise<AdminAgent> {
      if (input.isActive === false) await assertNotSomeonesOnlyAgent(id, 'isActive');
      const { agent } = await audit.change(actor.requestId, (write) =>
        agents.updateAgent({
          id,
          input,
          at: clock.now(),
          record: recorder(write, actor, 'agent.update'),
        }),
      );
      return withUse(agent);
    },

    async setStatus({
      id,
      isActive,
      ...actor
    }: { id: string; isActive: boolean } & Actor): Promise<AdminAgent> {
      if (!isActive) await assertNotSomeonesOnlyAgent(id, 'isActive');
      const { agent } = await audit.change(actor.requestId, (write) =>
        agents.setActive({ id, isActive, record: recorder(write, actor, 'agent.status') }),
      );
      return withUse(agent);
    },

    /** Deletes a custom agent; WhatsApp conversations and accounts that used it fall back to their defaults. */
    async remove({ id, ...actor }: { id: string } & Actor): Promise<AgentRow> {
      await assertNotSomeonesOnlyAgent(id);
      const { agent } = await audit.change(actor.requestId, (write) =>
        agents.deleteAgent({ id, at: clock.now(), record: recorder(write, actor, 'agent.delete') }),
      );
      await events.emit('agent.deleted', { agentId: agent.id });
      return agent;
    },

    /** A message in a test conversation with any agent not deleted: its reply, and the conversation to continue. */
    testChat: (input: {
      user: User;
      agentName: string;
      conversationId?: string;
      message: string;
      language: Language;
      timeZone?: string;
    }) => chat.testReply(input),
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
