import { AppError, defineError } from '@/lib/errors';

/** The agent chosen for a single-agent account is not one it may have (gone, off, admin-only). */
export const agentUnavailable = defineError(400, 'adminUsers.agentUnavailable', {
  field: 'agentId',
});

/** A single-agent account comes back only with its agent: otherwise it would have nothing to open. */
export const singleAgentInactive = (agent: string) =>
  new AppError(400, 'adminUsers.singleAgentInactive', { params: { agent } });

/**
 * An agent that is the one agent of `count` active single-agent accounts stays: the admin
 * deactivates those accounts first. On `field` when the form has one for it.
 */
export const onlyAgentOfAccounts = ({ count, field }: { count: number; field?: string }) =>
  new AppError(400, 'agents.onlyAgentOfAccounts', { params: { count }, field });
