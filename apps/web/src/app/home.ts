import type { User } from '@contrateia/shared';
import { agentPagePath, HOME_AGENT } from '@/features/agents/agent-pages';

/**
 * Where a sign-in (and /login or /register while signed in) leads: the dashboard, but an account
 * made for one agent goes to that agent's page, its only place.
 */
export function signedInHome(user: User): string {
  return user.singleAgentName ? agentPagePath(user.singleAgentName) : '/dashboard';
}

/** Where `/` leads a signed-in account: /guia, or a single-agent account's agent page. */
export function rootHome(user: User): string {
  return user.singleAgentName ? agentPagePath(user.singleAgentName) : agentPagePath(HOME_AGENT);
}
