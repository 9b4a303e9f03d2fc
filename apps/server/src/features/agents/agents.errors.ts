import { AppError, defineError } from '@/lib/errors';

/** No such agent, or a deleted one. */
export const agentNotFound = defineError(404, 'agents.notFound');

/** An agent an admin turned off: out of every list, and it answers nobody. */
export const agentInactive = defineError(400, 'agents.inactive');

/** An admin-only agent, asked for by someone not in admin mode. */
export const agentAdminOnly = defineError(403, 'agents.adminOnly');

/** An account made for one agent hires no other. */
export const singleAgentAccount = defineError(403, 'agents.singleAgent');

/** An agent the caller has not hired, or may not see in their mode. */
export const agentNoAccess = defineError(403, 'agents.noAccess');

/** A knowledge entry's link that is no page of the app, on the entry's own field. */
export const knowledgeLinkInvalid = (field: string) =>
  new AppError(400, 'validation.knowledgeLinkInvalid', { field });

export const agentNameTaken = defineError(400, 'validation.agentNameTaken', { field: 'name' });

/** The default agent (every account has it, and `/` leads to it) stays active. */
export const defaultAgentAlwaysActive = defineError(400, 'agents.defaultAlwaysActive', {
  field: 'isActive',
});

/** The seeded agents can only be deactivated. */
export const seededAgentNotDeletable = defineError(400, 'agents.seededNotDeletable');

/** An account has as many agents of its own as it may (MY_AGENTS_MAX). */
export const myAgentLimit = defineError(400, 'myAgents.limit');
