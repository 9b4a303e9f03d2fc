// @vitest-environment happy-dom
import { defaultSettings } from '@contrateia/shared/settings/settings.schemas';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import AdminRoute from '@/app/routes/admin';
import { ADMIN, serveSettings, signIn } from '@/test/admin-settings';
import { startFakeServer, type FakeServer } from '@/test/fake-server';
import { userFixture } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render-with-providers';
import { auditEntryFixture, guiaFixture } from '@/test/admin-manage-fixtures';

// /admin: who sees the panel, its tabs and their place in the address. Each tab's form is tested
// beside it (features/admin/components/*-tab.test.tsx); the journeys against the real server are
// e2e/admin-settings.spec.ts.

async function openAdmin(
  route = '/admin',
  user = ADMIN,
  language: 'pt-BR' | 'en-US' = 'en-US',
  arrange: (server: FakeServer) => void = () => {},
) {
  const server = startFakeServer();
  signIn(server, user);
  serveSettings(server);
  server.on('GET /api/admin/audit', () => ({ entries: [auditEntryFixture()], total: 1 }));
  // What the other tabs read when opened.
  server.on('GET /api/admin/agents', () => ({ agents: [guiaFixture()] }));
  server.on('GET /api/admin/users', () => ({ users: [], total: 0 }));
  server.on('GET /api/admin/ai', () => ({
    provider: 'builtin' as const,
    baseUrl: '',
    model: '',
    apiKeySet: false,
    timeoutMs: 60_000,
    transcriptionModel: '',
    vision: false,
  }));
  arrange(server);
  const view = await renderWithProviders(<AdminRoute />, {
    language,
    route,
    texts: ['app', 'admin'],
  });
  // Settled: the stored session was checked, and the page chose what to show.
  await screen.findByRole('heading', { level: 1 });
  return { server, ...view };
}

describe('/admin', () => {
  it('says Access denied to a user, with a way back, and asks the server nothing', async () => {
    const { server } = await openAdmin('/admin', userFixture());
    expect(await screen.findByRole('heading', { level: 1, name: 'Access denied' })).toBeVisible();
    expect(
      screen.getByText('Only administrators in admin mode can open the admin panel.'),
    ).toBeVisible();
    expect(screen.getByRole('link', { name: 'Back to the dashboard' })).toHaveAttribute(
      'href',
      '/dashboard',
    );
    expect(screen.queryByRole('tablist')).not.toBeInTheDocument();
    expect(server.calls().filter((call) => call.includes('/admin/'))).toEqual([]);
    expect(document.title).toBe('Access denied · ContrateIA');
  });

  it('tells an admin in user mode to switch to admin mode (pt-BR)', async () => {
    await openAdmin('/admin', { ...ADMIN, role: 'user' }, 'pt-BR');
    expect(await screen.findByRole('heading', { level: 1, name: 'Acesso negado' })).toBeVisible();
    expect(
      screen.getByText(
        'Você está no modo usuário. Passe para o modo administrador no topo da página para abrir o painel de administração.',
      ),
    ).toBeVisible();
    expect(screen.getByRole('link', { name: 'Voltar ao Painel' })).toBeVisible();
  });

  it("shows an admin the panel's tabs, the first one open, named in the tab's title", async () => {
    await openAdmin();
    expect(screen.getByRole('heading', { level: 1, name: 'Admin panel' })).toBeVisible();
    const tabs = within(screen.getByRole('tablist', { name: 'Admin panel sections' }));
    expect(tabs.getAllByRole('tab').map((tab) => tab.textContent)).toEqual([
      'Content Management',
      'Theme Settings',
      'System Settings',
      'Agent Management',
      'Users',
      'AI',
    ]);
    const content = tabs.getByRole('tab', { name: 'Content Management' });
    expect(content).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByRole('tabpanel', { name: 'Content Management' })).toBeVisible();
    expect(await screen.findByRole('button', { name: 'Save content' })).toBeVisible();
    expect(document.title).toBe('Admin · ContrateIA');
    // The recent changes follow the tabs.
    const recent = screen.getByRole('region', { name: 'Recent changes' });
    expect(await within(recent).findAllByRole('listitem')).toHaveLength(1);
  });

  it('opens the tab the address names, and moves between tabs with the arrow keys, Home and End, keeping the address', async () => {
    const { user, location } = await openAdmin('/admin?tab=theme');
    const tab = (name: string) => screen.getByRole('tab', { name });
    expect(tab('Theme Settings')).toHaveAttribute('aria-selected', 'true');
    expect(await screen.findByRole('button', { name: 'Save theme' })).toBeVisible();
    // Only the chosen tab is in the Tab order (WAI-ARIA tabs).
    expect(tab('Content Management')).toHaveAttribute('tabindex', '-1');

    await user.click(tab('Theme Settings'));
    await user.keyboard('{ArrowRight}');
    expect(tab('System Settings')).toHaveFocus();
    expect(tab('System Settings')).toHaveAttribute('aria-selected', 'true');
    expect(location().search).toBe('?tab=system');
    expect(await screen.findByRole('button', { name: 'Save system settings' })).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Save theme' })).not.toBeInTheDocument();

    await user.keyboard('{ArrowRight}');
    expect(tab('Agent Management')).toHaveFocus();
    expect(location().search).toBe('?tab=agents');
    await user.keyboard('{ArrowLeft}');
    expect(tab('System Settings')).toHaveFocus();
    await user.keyboard('{End}');
    expect(tab('AI')).toHaveFocus();
    expect(location().search).toBe('?tab=ai');
    // The arrows go round: past the last tab is the first, before the first the last.
    await user.keyboard('{ArrowRight}');
    expect(tab('Content Management')).toHaveFocus();
    expect(location().search).toBe('?tab=content');
    await user.keyboard('{ArrowLeft}');
    expect(tab('AI')).toHaveFocus();
    await user.keyboard('{Home}');
    expect(tab('Content Management')).toHaveFocus();
    await user.keyboard('{ArrowRight}{ArrowRight}');
    expect(tab('System Settings')).toHaveFocus();
    expect(location().search).toBe('?tab=system');
  });

  it('keeps what was typed in a tab while another one is looked at', async () => {
    const { user } = await openAdmin('/admin?tab=system');
    const timeout = await screen.findByLabelText('Session timeout (minutes)');
    await user.clear(timeout);
    await user.type(timeout, '45');
    await user.click(screen.getByRole('tab', { name: 'Theme Settings' }));
    await user.click(screen.getByRole('tab', { name: 'System Settings' }));
    expect(screen.getByLabelText('Session timeout (minutes)')).toHaveValue(45);
  });

  it('opens the first tab for an unknown one in the address', async () => {
    await openAdmin('/admin?tab=nonsense');
    expect(screen.getByRole('tab', { name: 'Content Management' })).toHaveAttribute(
      'aria-selected',
      'true',
    );
    await waitFor(() => expect(screen.getByRole('button', { name: 'Save content' })).toBeVisible());
  });

  it("shows 'Something went wrong with the admin panel', with a reload, when the panel breaks", async () => {
    // An answer the panel cannot read (a server of another version, say) breaks its render.
    await openAdmin('/admin?tab=system', ADMIN, 'en-US', (server) =>
      server.on('GET /api/admin/settings', () => {
        const { content, theme, system } = defaultSettings();
        return {
          contentSettings: content,
          themeSettings: theme,
          systemSettings: { ...system, allowedFileTypes: null as unknown as string[] },
        };
      }),
    );
    expect(
      await screen.findByRole('heading', { name: 'Something went wrong with the admin panel' }),
    ).toBeVisible();
    expect(screen.getByRole('button', { name: 'Reload page' })).toBeVisible();
    expect(screen.queryByRole('tablist')).not.toBeInTheDocument();
    // React and the boundary report the error, as they should; it is this test's own.
    expect(vi.mocked(console.error)).toHaveBeenCalled();
    vi.mocked(console.error).mockClear();
  });
});
