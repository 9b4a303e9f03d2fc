// @vitest-environment happy-dom
import type { Agent, User } from '@contrateia/shared';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import AppLayout from '@/app/app-layout';
import { ADMIN } from '@/test/admin-settings';
import { startFakeRealtime } from '@/test/fake-realtime';
import { startFakeServer } from '@/test/fake-server';
import { agentFixture, userFixture, type FixtureAgentName } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render-with-providers';

// The signed-in shell's navigation against a stand-in server: everyone's, and that of an account
// an admin made for one agent (issue 11), which sees that agent alone.

/** An agent an admin added (not one of the seeded ones), as GET /api/agents/user answers it. */
const customAgent: Agent = {
  id: '9b0f3f0e-1c1e-4c52-8b0e-1a2b3c4d5e99',
  name: 'loja-centro',
  displayName: 'Loja Centro',
  description: 'Atende a loja do centro.',
  isActive: true,
  createdAt: '2025-01-06T12:00:00.000Z',
  configuration: { welcomeMessage: 'Olá!' },
  isHired: true,
};

/** The shell at `route` for `account`, the server answering `hired` as its hired agents. */
async function openShell(account: User, hired: (FixtureAgentName | Agent)[], route: string) {
  const server = startFakeServer();
  window.localStorage.setItem('token', 'token-da-ana');
  server.on('GET /api/user', () => ({ user: account }));
  server.on('GET /api/agents/user', () => ({
    agents: hired.map((agent) =>
      typeof agent === 'string' ? agentFixture(agent, { language: 'en-US', isHired: true }) : agent,
    ),
  }));
  const realtime = await startFakeRealtime({ token: 'token-da-ana' });
  await renderWithProviders(<AppLayout />, {
    language: 'en-US',
    route,
    texts: ['app'],
    realtime: realtime.client,
  });
  const navigation = await screen.findByRole('navigation', { name: 'Main navigation' });
  return { server, navigation };
}

/** The navigation's links once the hired agents are in, as [name, address]. */
async function linksOf(navigation: HTMLElement, agentName: string) {
  await within(navigation).findByRole('link', { name: agentName });
  return within(navigation)
    .getAllByRole('link')
    .map((link) => [link.textContent, link.getAttribute('href')]);
}

describe('the navigation', () => {
  it("lists the dashboard and every hired agent's page, and the brand leads to the dashboard", async () => {
    const { navigation } = await openShell(userFixture(), ['guia', 'auxtrat'], '/dashboard');
    expect(await linksOf(navigation, 'Auxtrat')).toEqual([
      ['Dashboard', '/dashboard'],
      ['Guide', '/guia'],
      ['Auxtrat', '/auxtrat'],
      ['WhatsApp', '/whatsapp'],
      ['Enhanced WhatsApp', '/whatsapp-enhanced'],
      ['Profile', '/profile'],
    ]);
    expect(screen.getByRole('link', { name: /^ContrateIA/ })).toHaveAttribute('href', '/dashboard');
  });

  it('links hired agents an admin created to the generic page, after the seeded ones', async () => {
    const { navigation } = await openShell(
      userFixture(),
      [customAgent, 'auxtrat', 'guia'],
      '/dashboard',
    );
    expect(await linksOf(navigation, 'Loja Centro')).toEqual([
      ['Dashboard', '/dashboard'],
      ['Guide', '/guia'],
      ['Auxtrat', '/auxtrat'],
      ['Loja Centro', '/agent/loja-centro'],
      ['WhatsApp', '/whatsapp'],
      ['Enhanced WhatsApp', '/whatsapp-enhanced'],
      ['Profile', '/profile'],
    ]);
  });

  it('shows a single-agent account its agent alone: no dashboard, no other agent, the brand leads to the agent', async () => {
    // Even were other hires left from before, only its agent is shown.
    const { navigation } = await openShell(
      userFixture({ singleAgentName: 'auxtrat' }),
      ['guia', 'auxtrat'],
      '/auxtrat',
    );
    expect(await linksOf(navigation, 'Auxtrat')).toEqual([
      ['Auxtrat', '/auxtrat'],
      ['WhatsApp', '/whatsapp'],
      ['Enhanced WhatsApp', '/whatsapp-enhanced'],
      ['Profile', '/profile'],
    ]);
    expect(within(navigation).getByRole('link', { name: 'Auxtrat' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    expect(screen.queryByRole('link', { name: 'Dashboard' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: /^ContrateIA/ })).toHaveAttribute('href', '/auxtrat');
  });

  it("links a single-agent account's agent that an admin added to its generic page", async () => {
    const { navigation } = await openShell(
      userFixture({ singleAgentName: 'loja-centro' }),
      [customAgent],
      '/agent/loja-centro',
    );
    expect(await linksOf(navigation, 'Loja Centro')).toEqual([
      ['Loja Centro', '/agent/loja-centro'],
      ['WhatsApp', '/whatsapp'],
      ['Enhanced WhatsApp', '/whatsapp-enhanced'],
      ['Profile', '/profile'],
    ]);
    expect(screen.getByRole('link', { name: /^ContrateIA/ })).toHaveAttribute(
      'href',
      '/agent/loja-centro',
    );
  });

  it('adds the admin pages for an admin in admin mode', async () => {
    const admin = await openShell(ADMIN, ['guia'], '/logs');
    expect(await linksOf(admin.navigation, 'Guide')).toEqual([
      ['Dashboard', '/dashboard'],
      ['Guide', '/guia'],
      ['WhatsApp', '/whatsapp'],
      ['Enhanced WhatsApp', '/whatsapp-enhanced'],
      ['Profile', '/profile'],
      ['Admin', '/admin'],
      ['Images', '/images'],
      ['Monitor', '/monitor'],
      ['Logs', '/logs'],
    ]);
    expect(within(admin.navigation).getByRole('link', { name: 'Logs' })).toHaveAttribute(
      'aria-current',
      'page',
    );
  });

  it('shows an admin in user mode none of the admin pages', async () => {
    const userMode = await openShell({ ...ADMIN, role: 'user' }, ['guia'], '/dashboard');
    expect(await linksOf(userMode.navigation, 'Guide')).toEqual([
      ['Dashboard', '/dashboard'],
      ['Guide', '/guia'],
      ['WhatsApp', '/whatsapp'],
      ['Enhanced WhatsApp', '/whatsapp-enhanced'],
      ['Profile', '/profile'],
    ]);
  });
});
