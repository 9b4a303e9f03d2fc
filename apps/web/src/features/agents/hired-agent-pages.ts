import type { Agent } from '@contrateia/shared';
import { AGENT_PAGE_NAMES, HOME_AGENT } from '@/features/agents/agent-pages';

/** The chat page of an agent, or null when it has none. */
export function agentPagePath(name: string): string | null {
  return (AGENT_PAGE_NAMES as readonly string[]).includes(name) ? `/${name}` : null;
}

/** Hired agents that have a page, in navigation order. */
export function agentsWithPages(agents: readonly Agent[]): Agent[] {
  return AGENT_PAGE_NAMES.flatMap((name) => agents.filter((agent) => agent.name === name));
}

/**
 * Where to go from the page of an agent the user has not hired: /guia (spec §2); but when guia
 * itself is the one missing (a single-agent account, DESIGN), the first hired agent's page, else
 * the dashboard, so the redirect never loops.
 */
export function noAccessRedirect(name: string, hired: readonly Agent[]): string {
  if (name !== HOME_AGENT) return `/${HOME_AGENT}`;
  const first = agentsWithPages(hired)[0];
  return first ? `/${first.name}` : '/dashboard';
}
