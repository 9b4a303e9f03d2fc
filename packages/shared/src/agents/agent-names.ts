// No zod here: the web's router imports these names into the code every page downloads first,
// and the schemas (agents.schemas.ts, which re-exports this file) would bring zod with them.

/** The agents seeded on first start, in navigation order; admins may add more later. */
export const SEEDED_AGENT_NAMES = [
  'guia',
  'assistente',
  'auxtrat',
  'administrador',
  'indirect',
] as const;
export type SeededAgentName = (typeof SEEDED_AGENT_NAMES)[number];

/** The agent whose conversations can be paired with a WhatsApp chat (Sync Agent). */
export const PAIRING_AGENT_NAME = 'auxtrat' satisfies SeededAgentName;

/** Every new account has this agent hired, so `/` always lands on a page the user may open. */
export const DEFAULT_AGENT_NAME: SeededAgentName = 'guia';

/** Where an agent an admin created has its chat page: the generic one, `/agent/{name}`. */
export const CUSTOM_AGENT_PAGE_PREFIX = '/agent/';

/** Whether `name` is one of the seeded agents, which keep their own routes and cannot be deleted. */
export function isSeededAgentName(name: string): name is SeededAgentName {
  return (SEEDED_AGENT_NAMES as readonly string[]).includes(name);
}

/**
 * The chat page of an agent, by its name: a seeded agent's own route (`/guia`), else the generic
 * chat page of the agents an admin created (`/agent/{name}`). The one mapping of a name to a page.
 */
export function agentPagePath(name: string): string {
  return isSeededAgentName(name) ? `/${name}` : `${CUSTOM_AGENT_PAGE_PREFIX}${name}`;
}
