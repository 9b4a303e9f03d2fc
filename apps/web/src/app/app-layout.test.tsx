// @vitest-environment happy-dom
import type { Agent, User } from '@contrateia/shared';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import AppLayout from '@/app/app-layout';
import { ADMIN } from '@/test/admin-settings';
import { startFakeRealtime } from '@/test/fake-realtime';
import { startFakeServer } from '@/test/fake-server';
import { agentFixture, userFixture, type FixtureAgentName } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render-with-providers';

// The signed-in shell's navigation against a stand-in server: everyone's, and that of an account an
// admin made for one agent, which sees that agent alone.

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
  const view = await renderWithProviders(<AppLayout />, {
    language: 'en-US',
    route,
    texts: ['app'],
    realtime: realtime.client,
  });
  const navigation = await screen.findByRole('navigation', { name: 'Main navigation' });
  return { server, navigation, user: view.user };
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
      ['My agents', '/my-agents'],
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
      ['My agents', '/my-agents'],
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

  it('groups the admin pages in an Administration menu for an admin in admin mode', async () => {
    const admin = await openShell(ADMIN, ['guia'], '/logs');
    // Closed, the row holds everyone's pages and the menu's button, marked for the page shown.
    expect(await linksOf(admin.navigation, 'Guide')).toEqual([
      ['Dashboard', '/dashboard'],
      ['Guide', '/guia'],
      ['My agents', '/my-agents'],
      ['WhatsApp', '/whatsapp'],
      ['Enhanced WhatsApp', '/whatsapp-enhanced'],
      ['Profile', '/profile'],
    ]);
    const menu = within(admin.navigation).getByRole('button', { name: 'Administration' });
    expect(menu).toHaveAttribute('aria-expanded', 'false');
    expect(menu).toHaveClass('app-nav__link--active');

    await admin.user.click(menu);
    expect(menu).toHaveAttribute('aria-expanded', 'true');
    const list = document.getElementById(menu.getAttribute('aria-controls')!)!;
    expect(
      within(list)
        .getAllByRole('link')
        .map((link) => [link.textContent, link.getAttribute('href')]),
    ).toEqual([
      ['Admin panel', '/admin'],
      ['Images', '/images'],
      ['Monitor', '/monitor'],
      ['Logs', '/logs'],
    ]);
    expect(within(list).getByRole('link', { name: 'Logs' })).toHaveAttribute(
      'aria-current',
      'page',
    );
    await admin.user.click(menu);
    expect(menu).toHaveAttribute('aria-expanded', 'false');
    expect(within(admin.navigation).queryByRole('link', { name: 'Logs' })).not.toBeInTheDocument();
  });

  it('opens the Administration menu from the keyboard: arrows move, Escape closes back on the button', async () => {
    const { navigation, user } = await openShell(ADMIN, ['guia'], '/dashboard');
    const menu = within(navigation).getByRole('button', { name: 'Administration' });
    menu.focus();
    await user.keyboard('{Enter}');
    expect(menu).toHaveAttribute('aria-expanded', 'true');
    const link = (name: string) => within(navigation).getByRole('link', { name });
    await waitFor(() => expect(link('Admin panel')).toHaveFocus());
    await user.keyboard('{ArrowDown}');
    expect(link('Images')).toHaveFocus();
    await user.keyboard('{ArrowUp}{ArrowUp}');
    expect(link('Logs')).toHaveFocus();
    await user.keyboard('{Home}');
    expect(link('Admin panel')).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(menu).toHaveAttribute('aria-expanded', 'false');
    expect(menu).toHaveFocus();
    await user.keyboard('{ArrowUp}');
    await waitFor(() => expect(link('Logs')).toHaveFocus());
    await user.click(link('Monitor'));
    expect(menu).toHaveAttribute('aria-expanded', 'false');
  });

  it('closes the Administration menu on Escape wherever the focus is, back on the button', async () => {
    const { navigation, user } = await openShell(ADMIN, ['guia'], '/dashboard');
    const menu = within(navigation).getByRole('button', { name: 'Administration' });
    await user.click(menu);
    expect(menu).toHaveAttribute('aria-expanded', 'true');
    // An Escape the page's body gets (the focus outside the menu, as a click may leave it).
    fireEvent.keyDown(document.body, { key: 'Escape' });
    await waitFor(() => expect(menu).toHaveAttribute('aria-expanded', 'false'));
    expect(menu).toHaveFocus();
  });

  it('shows an admin in user mode none of the admin pages', async () => {
    const userMode = await openShell({ ...ADMIN, role: 'user' }, ['guia'], '/dashboard');
    expect(await linksOf(userMode.navigation, 'Guide')).toEqual([
      ['Dashboard', '/dashboard'],
      ['Guide', '/guia'],
      ['My agents', '/my-agents'],
      ['WhatsApp', '/whatsapp'],
      ['Enhanced WhatsApp', '/whatsapp-enhanced'],
      ['Profile', '/profile'],
    ]);
  });
});
