import type { Locator, Page, Request } from '@playwright/test';
import {
  expect,
  newAccount,
  seedLanguage,
  seedSession,
  type Account,
  type Api,
  type Session,
} from './fixtures';

// Set-up and page helpers shared by the agent and chat journeys; signedInUser serves any journey
// that starts signed in as a new user.

type AgentSummary = { id: string; name: string };

/** Hires agents by name through the API (already hired ones are left as they are). */
export async function hireAgents(api: Api, token: string, names: readonly string[]): Promise<void> {
  if (names.length === 0) return;
  const available = await api.get<{ agents: AgentSummary[] }>('/api/agents/available', token);
  const hired = await api.get<{ agents: AgentSummary[] }>('/api/agents/user', token);
  for (const name of names) {
    if (hired.body.agents.some((agent) => agent.name === name)) continue;
    const agent = available.body.agents.find((candidate) => candidate.name === name);
    if (!agent) throw new Error(`agent ${name} is neither hired nor available`);
    const res = await api.post('/api/agents/hire', { agentId: agent.id }, token);
    if (res.status !== 200) throw new Error(`hire ${name}: ${res.status}`);
  }
}

/**
 * A new account, signed in on `page` (through a seeded session), with `hire` hired on top of
 * guia, and the page in `language` when given.
 */
export async function signedInUser(
  page: Page,
  api: Api,
  options: { prefix?: string; hire?: readonly string[]; language?: 'en-US' } = {},
): Promise<{ account: Account; session: Session }> {
  const account = newAccount(options.prefix ?? 'chat');
  await api.register(account);
  const session = await api.login(account);
  await hireAgents(api, session.token, options.hire ?? []);
  if (options.language) await seedLanguage(page, options.language);
  await seedSession(page, session);
  return { account, session };
}

/** A message sent through the API (JSON form): its conversation id. */
export async function chatThroughApi(
  api: Api,
  token: string,
  agentName: string,
  message: string,
  conversationId?: string,
): Promise<string> {
  const res = await api.post<{ conversation: { id: string } }>(
    '/api/chat/message',
    { message, agentName, ...(conversationId ? { conversationId } : {}) },
    token,
  );
  if (res.status !== 200)
    throw new Error(`chat ${agentName}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.conversation.id;
}

/** The chat's messages region ('Mensagens com Guia', 'Messages with Guide'…). */
export function messagesRegion(page: Page, label: string): Locator {
  return page.getByRole('region', { name: label, exact: true });
}

/** The chat's entries (welcome, user messages, replies), not the lists inside a Markdown reply. */
export function entries(region: Locator): Locator {
  return region.locator(':scope > ol > li');
}

/** Waits until the chat has settled on its conversation (the history is loaded, sending is possible). */
export async function chatReady(region: Locator): Promise<void> {
  await expect(region).toBeVisible();
  await expect(region).not.toHaveAttribute('aria-busy', 'true');
}

/**
 * Holds every POST /api/chat/message until `release()`: the typing indicator and the pending
 * state stay on screen as long as a test needs them. Records the requests that arrived.
 */
export async function holdReplies(page: Page) {
  let release: () => void = () => {};
  const gate = new Promise<void>((resolve) => (release = resolve));
  const requests: Request[] = [];
  await page.route('**/api/chat/message', async (route) => {
    requests.push(route.request());
    await gate;
    // The page may be gone by the time a held request is let through (end of a failed test).
    await route.continue().catch(() => {});
  });
  return { requests, release: () => release() };
}
