// @vitest-environment happy-dom
import type { Agent } from '@contrateia/shared';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import AppLayout from '@/app/app-layout';
import { startFakeServer } from '@/test/fake-server';
import { agentFixture, userFixture } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render-with-providers';

// The signed-in shell's navigation: the dashboard, each hired agent's page, the rest.

/** An agent an admin created, as GET /api/agents/user answers in en-US. */
const sales: Agent = {
  ...agentFixture('guia', { language: 'en-US', isHired: true }),
  id: 'b7d51a0e-2f7c-4c8e-9d3a-5e6f7a8b9c0d',
  name: 'vendas',
  displayName: 'Sales',
};

describe('the signed-in navigation', () => {
  it('links each hired agent to its page, those an admin created to the generic one, after the seeded ones', async () => {
    const server = startFakeServer();
    const user = userFixture();
    window.localStorage.setItem('token', 'token-da-ana');
    window.localStorage.setItem('user', JSON.stringify(user));
    server.on('GET /api/user', () => ({ user }));
    server.on('GET /api/agents/user', () => ({
      agents: [
        sales,
        agentFixture('auxtrat', { language: 'en-US', isHired: true }),
        agentFixture('guia', { language: 'en-US', isHired: true }),
      ],
    }));
    await renderWithProviders(<AppLayout />, {
      language: 'en-US',
      route: '/dashboard',
      texts: ['app'],
    });

    const nav = await screen.findByRole('navigation', { name: 'Main navigation' });
    await within(nav).findByRole('link', { name: 'Sales' });
    expect(
      within(nav)
        .getAllByRole('link')
        .map((link) => [link.textContent, link.getAttribute('href')]),
    ).toEqual([
      ['Dashboard', '/dashboard'],
      ['Guide', '/guia'],
      ['Auxtrat', '/auxtrat'],
      ['Sales', '/agent/vendas'],
      ['WhatsApp', '/whatsapp'],
      ['Enhanced WhatsApp', '/whatsapp-enhanced'],
      ['Profile', '/profile'],
    ]);
  });
});
