import type { AdminUser, CreateSingleAgentUserInput, Language, Role } from '@contrateia/shared';
import type { AgentsService } from '@/features/agents/agents.service';
import type { Account, AuthService } from '@/features/auth/auth.service';
import type { AuditActor } from '@/features/audit/audit.service';
import { agentUnavailable, singleAgentInactive } from './admin.errors';

export type AdminUsersService = ReturnType<typeof createAdminUsersService>;

/**
 * The accounts as the admin manages them: single-agent accounts, the list, and
 * activation and role changes. The accounts are the auth feature's, reached through its service;
 * each change is recorded in the admin audit inside the transaction that makes it.
 */
export function createAdminUsersService({
  auth,
  agents,
}: {
  auth: AuthService;
  agents: AgentsService;
}) {
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
    actor,
  }: CreateSingleAgentUserInput & { actor: AuditActor; language: Language }): Promise<{
    user: AdminUser;
  }> {
    // Checked first from the catalogue, so a wrong choice costs no password hash; again, locked,
    // in the transaction, in case the agent was deactivated meanwhile.
    const agent = await agents.findHireable({ agent: agentId });
    if (!agent) throw agentUnavailable();
    const { account } = await auth.createSingleAgentAccount({
      name,
      email,
      password,
      agentName: agent.name,
      hire: async (tx, userId) => {
        if (!(await agents.hireForSingleAgentAccount({ userId, agentId: agent.id, tx })))
          throw agentUnavailable();
      },
      actor,
    });
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
    actor,
  }: {
    userId: string;
    isActive: boolean;
    language: Language;
    actor: AuditActor;
  }) {
    // A single-agent account comes back only with its agent: otherwise it would have nothing to
    // open. (Its agent cannot go while the account is active: admin.agents.ts checks the other way.)
    const agentName = isActive ? await auth.singleAgentOf(userId) : null;
    if (agentName && !(await agents.findHireable({ agent: agentName }))) {
      throw singleAgentInactive(agentName);
    }
    const { account } = await auth.setAccountActive({ actor, userId, isActive });
    return { user: await toAdminUser(account, language) };
  }

  async function setRole({
    userId,
    role,
    language,
    actor,
  }: {
    userId: string;
    role: Role;
    language: Language;
    actor: AuditActor;
  }) {
    const { account } = await auth.setAccountRole({ actor, userId, role });
    return { user: await toAdminUser(account, language) };
  }

  return { createSingleAgent, list, setStatus, setRole };
}
