import type { AdminUser, CreateSingleAgentUserInput, Language, Role } from '@contrateia/shared';
import type { Db } from '@/db/client';
import type { EventLog } from '@/lib/event-log';
import type { AgentsService } from '@/features/agents/agents.service';
import type { Account, AccountChange, AuthService } from '@/features/auth/auth.service';
import {
  changedFields,
  createAuditTrail,
  type AuditChanges,
  type AuditRecorder,
} from '@/features/audit/audit.service';
import { agentUnavailable, singleAgentInactive } from './admin.errors';

export type AdminUsersService = ReturnType<typeof createAdminUsersService>;

/** Who makes a change, from where and in which request: the audit record's actor and IP. */
type Actor = { actorId: string; ip?: string; requestId?: string };

/** The fields of an account an audit record may name: never its password or hash. */
function auditedFields(account: Account) {
  return {
    name: account.name,
    email: account.email,
    username: account.username,
    role: account.role,
    originalRole: account.originalRole,
    singleAgent: account.singleAgentName,
    isActive: account.isActive,
  };
}

/**
 * The accounts as the admin manages them: single-agent accounts, the list, and
 * activation and role changes. The accounts are the auth feature's, reached through its service;
 * each change is recorded in the admin audit inside the transaction that makes it.
 */
export function createAdminUsersService({
  auth,
  agents,
  eventLog,
}: {
  auth: AuthService;
  agents: AgentsService;
  eventLog: EventLog;
}) {
  const audit = createAuditTrail({ eventLog });
  /** Records a change of an account in `tx` through `write`, naming only the fields that changed. */
  const record =
    (write: AuditRecorder, { actorId, ip }: Actor, action: string) =>
    async (tx: Db, { before, after }: AccountChange): Promise<void> => {
      const now = auditedFields(after);
      const changes: AuditChanges = before
        ? changedFields(auditedFields(before), now)
        : Object.fromEntries(
            Object.entries(now).map(([field, value]) => [field, { before: null, after: value }]),
          );
      await write(tx, { actorId, action, target: after.id, targetName: after.name, changes, ip });
    };

  /** An account as the admin panel shows it, its agent named in `language`. */
  async function toAdminUser(account: Account, language: Language): Promise<AdminUser> {
    return {
      id: account.id,
      name: account.name,
      email: account.email,
      username: account.username,
      role: account.role,
      originalRole: account.originalRole,
      singleAgent: account.singleAgentName
        ? await singleAgentOf(account.singleAgentName, language)
        : null,
      createdAt: account.createdAt.toISOString(),
      lastSeenAt: account.lastSeenAt?.toISOString() ?? null,
      isActive: account.isActive,
    };
  }

  /** The agent of a single-agent account; an agent since deleted keeps its name (and no id). */
  async function singleAgentOf(
    name: string,
    language: Language,
  ): Promise<NonNullable<AdminUser['singleAgent']>> {
    const agent = await agents.findByName({ name });
    return agent
      ? { id: agent.id, name, displayName: agent.displayName[language] }
      : { id: '', name, displayName: name };
  }

  /**
   * A verified account limited to one active agent, which is its one hire (not even guia): the
   * account, the hire and the audit record are made in one transaction.
   */
  async function createSingleAgent({
    name,
    email,
    password,
    agentId,
    language,
    ...actor
  }: CreateSingleAgentUserInput & Actor & { language: Language }): Promise<{ user: AdminUser }> {
    // Checked first from the catalogue, so a wrong choice costs no password hash; again, locked,
    // in the transaction, in case the agent was deactivated meanwhile.
    const agent = await agents.findHireable({ agent: agentId });
    if (!agent) throw agentUnavailable();
    const { account } = await audit.change(actor.requestId, (write) =>
      auth.createSingleAgentAccount({
        name,
        email,
        password,
        agentName: agent.name,
        inTransaction: async (tx, change) => {
          if (
            !(await agents.hireForSingleAgentAccount({
              userId: change.after.id,
              agentId: agent.id,
              tx,
            }))
          )
            throw agentUnavailable();
          await record(write, actor, 'user.create')(tx, change);
        },
      }),
    );
    return { user: await toAdminUser(account, language) };
  }

  async function list({
    search,
    limit,
    offset,
    language,
  }: {
    search: string;
    limit: number;
    offset: number;
    language: Language;
  }) {
    const { accounts, total } = await auth.listAccounts({ search, limit, offset });
    return {
      users: await Promise.all(accounts.map((account) => toAdminUser(account, language))),
      total,
    };
  }

  async function setStatus({
    userId,
    isActive,
    language,
    ...actor
  }: Actor & { userId: string; isActive: boolean; language: Language }) {
    // A single-agent account comes back only with its agent: otherwise it would have nothing to
    // open. (Its agent cannot go while the account is active: admin.agents.ts checks the other way.)
    const agentName = isActive ? await auth.singleAgentOf(userId) : null;
    if (agentName && !(await agents.findHireable({ agent: agentName }))) {
      throw singleAgentInactive(agentName);
    }
    const { account } = await audit.change(actor.requestId, (write) =>
      auth.setAccountActive({
        actorId: actor.actorId,
        userId,
        isActive,
        inTransaction: record(write, actor, 'user.status'),
      }),
    );
    return { user: await toAdminUser(account, language) };
  }

  async function setRole({
    userId,
    role,
    language,
    ...actor
  }: Actor & { userId: string; role: Role; language: Language }) {
    const { account } = await audit.change(actor.requestId, (write) =>
      auth.setAccountRole({
        actorId: actor.actorId,
        userId,
        role,
        inTransaction: record(write, actor, 'user.role'),
      }),
    );
    return { user: await toAdminUser(account, language) };
  }

  return { createSingleAgent, list, setStatus, setRole };
}
