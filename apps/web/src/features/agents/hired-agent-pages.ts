import type { Agent } from '@contrateia/shared';
import { AGENT_PAGE_NAMES, agentPagePath, isSeededAgentName } from '@/features/agents/agent-pages';

export { agentPagePath };

/**
 * Hired agents in navigation order: the seeded ones in their fixed order (SEEDED_AGENT_NAMES), then
 * those an admin created, in the order the server lists them (oldest first).
 */
export function agentsWithPages(agents: readonly Agent[]): Agent[] {
  const seeded = AGENT_PAGE_NAMES.flatMap((name) => agents.filter((agent) => agent.name === name));
  return [...seeded, ...agents.filter((agent) => !isSeededAgentName(agent.name))];
}
