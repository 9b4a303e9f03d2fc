// @vitest-environment happy-dom
import type { User } from '@contrateia/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AppRoutes } from '@/app/router';
import { startFakeServer } from '@/test/fake-server';
import { agentFixture, userFixture } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render-with-providers';

// An address the app has no page for: a not-found page with the way back, rather than a redirect to
// /login (and a signed-in user on to the dashboard, unannounced), which left the reader guessing
// what happened.

async function openUnknown({ account }: { account?: User } = {}) {
  const server = startFakeServer();
  if (account) {
    window.localStorage.setItem('token', 'token-da-ana');
    server.on('GET /api/user', () => ({ user: account }));
    server.on('GET /api/agents/user', () => ({
      agents: [agentFixture('guia', { language: 'pt-BR', isHired: true })],
    }));
  }
  const view = await renderWithProviders(<AppRoutes />, {
    route: '/no/such/page',
    path: '/*',
  });
  const heading = await screen.findByRole('heading', { level: 1, name: 'Página não encontrada' });
  return { ...view, heading };
}

describe('an unknown address', () => {
  it('signed out: says the page was not found, with a way to the login, and stays put', async () => {
    const { location } = await openUnknown();
    expect(screen.getByText(/não existe ou não está disponível/)).toBeVisible();
    expect(screen.getByRole('link', { name: 'Ir para o login' })).toHaveAttribute('href', '/login');
    expect(location().pathname).toBe('/no/such/page');
    // The title is set once the page's texts are in (an effect after the heading's render).
    await waitFor(() => expect(document.title).toMatch(/^Página não encontrada · /));
  });

  it('signed in: the page is in the app, with a way back to the dashboard', async () => {
    const { location } = await openUnknown({ account: userFixture() });
    expect(await screen.findByRole('navigation', { name: 'Navegação principal' })).toBeVisible();
    const main = screen.getByRole('main');
    expect(within(main).getByRole('link', { name: 'Voltar ao início' })).toHaveAttribute(
      'href',
      '/dashboard',
    );
    expect(location().pathname).toBe('/no/such/page');
  });

  it("signed in with an account made for one agent: the way back is that agent's page", async () => {
    await openUnknown({ account: userFixture({ singleAgentName: 'auxtrat' }) });
    expect(screen.getByRole('link', { name: 'Voltar ao início' })).toHaveAttribute(
      'href',
      '/auxtrat',
    );
  });
});
