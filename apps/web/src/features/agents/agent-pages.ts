/**
 * The agents that have a chat page, by name, in navigation order (spec §2). An agent an admin
 * adds later has no page of its own until one is built for it. Kept tiny: the router needs it
 * in the code every page downloads first.
 */
export const AGENT_PAGE_NAMES = [
  'guia',
  'assistente',
  'auxtrat',
  'administrador',
  'indirect',
] as const;
export type AgentPageName = (typeof AGENT_PAGE_NAMES)[number];

/** The agent every account has (DESIGN), and where an agent page sends those without access. */
export const HOME_AGENT: AgentPageName = 'guia';
