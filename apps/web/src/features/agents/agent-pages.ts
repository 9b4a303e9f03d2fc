// From the names module, not the package index or the schemas: this file is in the code every
// page downloads first, and the schemas would bring zod with them. Re-exported rather than
// assigned, so the bundle holds the names once, with no aliases.

/**
 * AGENT_PAGE_NAMES: the agents with a route of their own, by name, in navigation order: the seeded
 * ones. An agent an admin adds has the generic chat page, `/agent/{name}`. agentPagePath: the page
 * of any agent, by its name (the one place that maps one to the other). HOME_AGENT: the agent every
 * account has (hired at registration), and where an agent page sends those without access.
 */
export {
  SEEDED_AGENT_NAMES as AGENT_PAGE_NAMES,
  DEFAULT_AGENT_NAME as HOME_AGENT,
  agentPagePath,
  isSeededAgentName,
  type SeededAgentName as AgentPageName,
} from '@contrateia/shared/agents/agent-names';
