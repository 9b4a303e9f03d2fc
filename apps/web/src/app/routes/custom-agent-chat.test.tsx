// @vitest-environment happy-dom
import type { Agent } from '@contrateia/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import CustomAgentChatRoute from '@/app/routes/custom-agent-chat';
import { errorResponse, startFakeServer } from '@/test/fake-server';
import { agentFixture, userFixture } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render-with-providers';

// /agent/{name}: the generic chat page of the agents an admin creates, against a stand-in server.
// The server side (creating one, hiring it, its answers) is
// apps/server/src/features/admin/admin.agents.int.test.ts.

/** An agent an admin created, as GET /api/agents/user answers in pt-BR. */
const vendas: Agent = {
  id: 'b7d51a0e-2f7c-4c8e-9d3a-5e6f7a8b9c0d',
  name: 'vendas',
  displayName: 'Vendas <b>já</b>',
  description: 'Responde sobre preços e prazos.',
  isActive: true,
  createdAt: '2025-01-06T12:00:00.000Z',
  configuration: { welcomeMessage: 'Olá! Eu cuido das vendas. Pergunte sobre preços.' },
  isHired: true,
};

const guia = agentFixture('guia', { language: 'pt-BR', isHired: true });

const notHired: Agent = { ...vendas, isHired: false };

/** The page at `route` for a signed-in user who hired `hired` and may hire `available`. */
async function openPage(route: string, hired: Agent[], available: Agent[] = []) {
  const server = startFakeServer();
  window.localStorage.setItem('token', 'token-da-ana');
  server.on('GET /api/agents/user', () => ({ agents: hired }));
  server.on('GET /api/agents/available', () => ({ agents: available }));
  // The not-found page's way back depends on who is signed in.
  server.on('GET /api/user', () => ({ user: userFixture() }));
  server.on('GET /api/chat/conversations', () => ({ conversations: [] }));
  const view = await renderWithProviders(<CustomAgentChatRoute />, {
    route,
    path: '/agent/:name',
    texts: ['app'],
  });
  return { server, ...view };
}

/**
 * The welcome shown as the agent's messages are, through the Markdown chunk (loaded when the first
 * is shown): waited for, so that it does not finish loading during a later test.
 */
async function markdownShown(region: HTMLElement) {
  await waitFor(() => expect(region.querySelector('.chat-md')).toHaveTextContent('Olá!'));
}

describe('the page of an agent an admin created', () => {
  it('opens its chat for those who hired it: its welcome, and messages sent to it by name', async () => {
    const { server, user } = await openPage('/agent/vendas', [guia, vendas]);
    // Its name is text, whatever it holds.
    const region = await screen.findByRole('region', { name: 'Mensagens com Vendas <b>já</b>' });
    expect(region).toHaveTextContent('Olá! Eu cuido das vendas. Pergunte sobre preços.');
    await markdownShown(region);
    expect(region.querySelector('b')).toBeNull();
    expect(server.calls()).toContain('GET /api/chat/conversations?agentName=vendas');
    // The history has been looked up: it can send.
    await waitFor(() => expect(region).not.toHaveAttribute('aria-busy'));

    const sent = server.hold('POST /api/chat/message');
    await user.type(
      screen.getByRole('textbox', { name: 'Mensagem para Vendas <b>já</b>' }),
      'Quanto custa?{Enter}',
    );
    expect((await sent.next()).request.body).toMatchObject({
      message: 'Quanto custa?',
      agentName: 'vendas',
    });
  });

  // An agent the account may hire but has not says so, with a Hire button, rather than sending the
  // reader to /guia.
  it('says "Você ainda não contratou este agente" with a Hire button, and opens the chat once hired', async () => {
    const { server, user, location } = await openPage('/agent/vendas', [guia], [notHired]);
    const page = await screen.findByRole('region', { name: 'Vendas <b>já</b>' });
    expect(page).toHaveTextContent('Você ainda não contratou este agente.');
    expect(page).toHaveTextContent('Responde sobre preços e prazos.');
    const hired = server.hold('POST /api/agents/hire');
    await user.click(within(page).getByRole('button', { name: 'Contratar Vendas <b>já</b>' }));
    const pending = await hired.next();
    expect(pending.request.body).toEqual({ agentId: vendas.id });
    pending.respond({ success: true, message: 'Agente contratado', agent: vendas });
    const chat = await screen.findByRole('region', { name: 'Mensagens com Vendas <b>já</b>' });
    expect(chat).toHaveTextContent('Olá! Eu cuido das vendas.');
    expect(location().pathname).toBe('/agent/vendas');
    await markdownShown(chat);
  });

  it('shows the server refusing the hire, and stays on the page', async () => {
    const { server, user } = await openPage('/agent/vendas', [guia], [notHired]);
    server.on('POST /api/agents/hire', () =>
      errorResponse(400, { message: 'Este agente não está disponível' }),
    );
    const page = await screen.findByRole('region', { name: 'Vendas <b>já</b>' });
    await user.click(within(page).getByRole('button', { name: 'Contratar Vendas <b>já</b>' }));
    expect(await within(page).findByText('Este agente não está disponível')).toBeVisible();
  });

  it('an agent that is not there for this account (unknown, inactive, or none to hire) is not found, with a way back', async () => {
    const { server, location } = await openPage('/agent/vendas', [guia], []);
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Página não encontrada' }),
    ).toBeVisible();
    expect(screen.queryByRole('button', { name: /Contratar/ })).not.toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'Voltar ao início' })).toHaveAttribute(
      'href',
      '/dashboard',
    );
    expect(server.calls()).not.toContain('POST /api/agents/hire');
    expect(location().pathname).toBe('/agent/vendas');
  });

  it("sends a seeded agent's name to that agent's own page", async () => {
    const { location } = await openPage('/agent/auxtrat', [guia]);
    expect(
      await screen.findByRole('heading', { name: 'Stand-in page at /auxtrat' }),
    ).toBeInTheDocument();
    expect(location().pathname).toBe('/auxtrat');
  });
});
