// @vitest-environment happy-dom
import type { Language, User } from '@contrateia/shared';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import DashboardRoute from '@/app/routes/dashboard';
import { startFakeServer } from '@/test/fake-server';
import { agentFixture, userFixture } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render-with-providers';

// The dashboard's agent lists for everyone and for an account an admin made for one agent, which
// can hire nothing and is offered nothing, against a stand-in server.

async function openDashboard(account: User, language: Language = 'en-US') {
  const server = startFakeServer();
  window.localStorage.setItem('token', 'token-da-ana');
  server.on('GET /api/user', () => ({ user: account }));
  server.on('GET /api/stats', () => ({ hiredAgents: 1, conversations: 0, messages: 0 }));
  server.on('GET /api/agents/user', () => ({
    agents: [agentFixture('auxtrat', { language: 'en-US', isHired: true })],
  }));
  server.on('GET /api/agents/available', () => ({
    agents: [agentFixture('guia', { language: 'en-US', isHired: false })],
  }));
  await renderWithProviders(<DashboardRoute />, {
    language,
    route: '/dashboard',
    texts: ['app'],
  });
  const hired = await screen.findByRole('region', {
    name: {
      'en-US': 'Your Hired Agents',
      'pt-BR': 'Seus agentes contratados',
      'es-ES': 'Tus agentes contratados',
    }[language],
  });
  await within(hired).findByText('Auxtrat');
  return { server, hired };
}

describe('the dashboard', () => {
  it('offers everyone the agents they may hire, and the way to agents of their own', async () => {
    const { server } = await openDashboard(userFixture());
    const available = await screen.findByRole('region', { name: 'Available Agents' });
    expect(await within(available).findByRole('button', { name: /Hire/ })).toBeVisible();
    expect(server.calls()).toContain('GET /api/agents/available');
    const own = screen.getByRole('region', { name: 'My agents' });
    expect(within(own).getByRole('link', { name: 'Open My agents' })).toHaveAttribute(
      'href',
      '/my-agents',
    );
  });

  it('offers a single-agent account nothing to hire, and does not ask for it', async () => {
    const { server, hired } = await openDashboard(userFixture({ singleAgentName: 'auxtrat' }));
    expect(within(hired).getByRole('link', { name: /Chat/ })).toHaveAttribute('href', '/auxtrat');
    expect(screen.queryByRole('region', { name: 'Available Agents' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Hire/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'My agents' })).not.toBeInTheDocument();
    expect(server.calls()).not.toContain('GET /api/agents/available');
  });

  // A greeting that does not assume the reader's gender.
  it.each([
    ['pt-BR', 'Boas-vindas, Ana Souza'],
    ['es-ES', 'Te damos la bienvenida, Ana Souza'],
    ['en-US', 'Welcome, Ana Souza'],
  ] as const)('greets in %s without a gender: "%s"', async (language, greeting) => {
    await openDashboard(userFixture(), language);
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent(greeting);
  });
});
