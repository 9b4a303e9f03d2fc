// @vitest-environment happy-dom
import type { User } from '@contrateia/shared';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import LogsRoute from '@/app/routes/logs';
import { ADMIN, signIn } from '@/test/admin-settings';
import { startFakeServer } from '@/test/fake-server';
import { userFixture } from '@/test/fixtures';
import { logEntryFixture, serveLogs } from '@/test/logs-fixtures';
import { renderWithProviders } from '@/test/render-with-providers';

// /logs: who sees the events. The page itself is tested in
// features/logs/components/logs-page.test.tsx.

async function openLogs(user: User, language: 'pt-BR' | 'en-US' | 'es-ES' = 'en-US') {
  const server = startFakeServer();
  signIn(server, user);
  serveLogs(server, [logEntryFixture()]);
  await renderWithProviders(<LogsRoute />, { language, route: '/logs', texts: ['app', 'logs'] });
  await screen.findByRole('heading', { level: 1 });
  return { server };
}

describe('/logs', () => {
  it('shows an admin in admin mode the events, in the tab title too', async () => {
    const { server } = await openLogs(ADMIN);
    expect(screen.getByRole('heading', { level: 1, name: 'Logs' })).toBeVisible();
    const table = await screen.findByRole('table', { name: 'Log events, newest first' });
    expect(
      within(table).getByRole('button', {
        name: 'Failed sign-in for ana@exemplo.com: wrong password',
      }),
    ).toBeVisible();
    expect(document.title).toBe('Logs · ContrateIA');
    expect(server.calls()).toEqual(['GET /api/user', 'GET /api/logs']);
  });

  it('says Access denied to a user, with a way back, and asks the server for no logs', async () => {
    const { server } = await openLogs(userFixture());
    expect(screen.getByRole('heading', { level: 1, name: 'Access denied' })).toBeVisible();
    expect(screen.getByText('Only administrators in admin mode can see the logs.')).toBeVisible();
    expect(screen.getByRole('link', { name: 'Back to the dashboard' })).toHaveAttribute(
      'href',
      '/dashboard',
    );
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(server.calls().filter((call) => call.includes('/logs'))).toEqual([]);
    expect(document.title).toBe('Access denied · ContrateIA');
  });

  it('tells an admin in user mode to switch to admin mode (pt-BR)', async () => {
    const { server } = await openLogs({ ...ADMIN, role: 'user' }, 'pt-BR');
    expect(screen.getByRole('heading', { level: 1, name: 'Acesso negado' })).toBeVisible();
    expect(
      screen.getByText(
        'Você está no modo usuário. Passe para o modo administrador no topo da página para ver os logs.',
      ),
    ).toBeVisible();
    expect(screen.getByRole('link', { name: 'Voltar ao Painel' })).toBeVisible();
    expect(server.calls().filter((call) => call.includes('/logs'))).toEqual([]);
  });

  it('says Access denied in es-ES', async () => {
    await openLogs(userFixture(), 'es-ES');
    expect(screen.getByRole('heading', { level: 1, name: 'Acceso denegado' })).toBeVisible();
    expect(
      screen.getByText('Solo los administradores en modo administrador pueden ver los registros.'),
    ).toBeVisible();
  });
});
