import { AGENT_PAGE_NAMES } from '@/features/agents/agent-pages';

/**
 * The chat page of an agent, by its name: a seeded agent's own page (`/guia`), else the generic
 * page of the agents an admin adds (`/agent/{name}`).
 */
export function agentPageOf(name: string): string {
  return (AGENT_PAGE_NAMES as readonly string[]).includes(name)
    ? `/${name}`
    : `/agent/${encodeURIComponent(name)}`;
}
