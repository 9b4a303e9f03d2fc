import type { Agent } from '@contrateia/shared';
import {
  AGENT_PAGE_NAMES,
  HOME_AGENT,
  agentPagePath,
  isSeededAgentName,
} from '@/features/agents/agent-pages';

export { agentPagePath };

/**
 * Hired agents in navigation order: the seeded ones as spec §2 lists them, then those an admin
 * created, in the order the server lists them (oldest first).
 */
export function agentsWithPages(agents: readonly Agent[]): Agent[] {
  const seeded = AGENT_PAGE_NAMES.flatMap((name) => agents.filter((agent) => agent.name === name));
  return [...seeded, ...agents.filter((agent) => !isSeededAgentName(agent.name))];
}

/**
 * Where to go from the page of an agent the user has not hired: /guia (spec §2); but when guia
 * itself is the one missing (a single-agent account, DESIGN), the first hired agent's page, else
 * the dashboard, so the redirect never loops.
 */
export function noAccessRedirect(name: string, hired: readonly Agent[]): string {
  if (name !== HOME_AGENT) return agentPagePath(HOME_AGENT);
  const first = agentsWithPages(hired)[0];
  return first ? agentPagePath(first.name) : '/dashboard';
}
