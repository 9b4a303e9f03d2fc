// @vitest-environment happy-dom
import type { User } from '@contrateia/shared';
import { defaultSettings, publicSettingsOf } from '@contrateia/shared/settings/settings.schemas';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import AppLayout from '@/app/app-layout';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { ADMIN, serveSettings, signIn, type StoredSettings } from '@/test/admin-settings';
import { startFakeRealtime } from '@/test/fake-realtime';
import { errorResponse, startFakeServer } from '@/test/fake-server';
import { agentFixture, userFixture } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render-with-providers';

// The signed-in shell and the admin's settings: the Admin link, the admin's texts in the header and
// the tab title, and maintenance (a page for users, a banner for admins). Against the real server:
// e2e/admin-settings.spec.ts.

const MAINTENANCE = 'The system is under maintenance. Please try again in a few minutes.';

/** A page inside the shell, as the dashboard is: it names the tab. */
function Page() {
  useDocumentTitle('Dashboard');
  return <h1>Dashboard page</h1>;
}

async function openShell(
  user: User,
  {
    settings,
    language = 'en-US',
  }: { settings?: Partial<StoredSettings>; language?: 'en-US' | 'pt-BR' } = {},
) {
  const server = startFakeServer();
  signIn(server, user);
  const stored = serveSettings(server, settings);
  server.on('GET /api/agents/user', () => ({
    agents: [agentFixture('guia', { language, isHired: true })],
  }));
  server.on('POST /api/logout', () => ({ success: true, message: 'Signed out' }));
  const realtime = await startFakeRealtime({ token: `token-de-${user.username}` });
  const view = await renderWithProviders(
    <>
      <AppLayout />
      <Page />
    </>,
    { language, route: '/dashboard', texts: ['app'], realtime: realtime.client },
  );
  return { server, stored, realtime, ...view };
}

const navigation = (name = 'Main navigation') => screen.findByRole('navigation', { name });

describe("the admin pages' links", () => {
  it('are there for an admin in admin mode, in the Administration menu at the end: Admin panel, Images, Monitor, Logs', async () => {
    const { user } = await openShell(ADMIN);
    const nav = within(await navigation());
    await nav.findByRole('link', { name: 'Guide' });
    await user.click(nav.getByRole('button', { name: 'Administration' }));
    expect(nav.getByRole('link', { name: 'Admin panel' })).toHaveAttribute('href', '/admin');
    expect(nav.getByRole('link', { name: 'Images' })).toHaveAttribute('href', '/images');
    expect(nav.getByRole('link', { name: 'Monitor' })).toHaveAttribute('href', '/monitor');
    expect(
      nav
        .getAllByRole('link')
        .slice(-4)
        .map((link) => link.textContent),
    ).toEqual(['Admin panel', 'Images', 'Monitor', 'Logs']);
  });

  it('name the menu and the image library in Portuguese', async () => {
    const { user } = await openShell(ADMIN, { language: 'pt-BR' });
    const nav = within(await navigation('Navegação principal'));
    await user.click(nav.getByRole('button', { name: 'Administração' }));
    expect(nav.getByRole('link', { name: 'Imagens' })).toHaveAttribute('href', '/images');
    expect(nav.getByRole('link', { name: 'Painel de administração' })).toHaveAttribute(
      'href',
      '/admin',
    );
  });

  it.each([
    ['an admin in user mode', { ...ADMIN, role: 'user' as const }],
    ['a user', userFixture()],
  ])('are not there for %s', async (_, user) => {
    await openShell(user);
    const nav = within(await navigation());
    await nav.findByRole('link', { name: 'Guide' });
    expect(nav.queryByRole('button', { name: 'Administration' })).not.toBeInTheDocument();
    for (const name of ['Admin panel', 'Images', 'Monitor', 'Logs']) {
      expect(nav.queryByRole('link', { name })).not.toBeInTheDocument();
    }
  });
});

describe("the admin's texts in the shell", () => {
  it('show the logo text, subtitle and title in the page language, and the built-in ones where a language has none', async () => {
    const content = {
      ...defaultSettings().content,
      logoText: { 'pt-BR': 'Minha IA', 'en-US': 'My AI', 'es-ES': '' },
      appSubtitle: { 'pt-BR': '', 'en-US': 'Your own team', 'es-ES': '' },
      appTitle: { 'pt-BR': 'IA da Empresa', 'en-US': 'Company AI', 'es-ES': '' },
    };
    await openShell(userFixture(), { settings: { content } });
    const banner = await screen.findByRole('banner');
    await waitFor(() => expect(within(banner).getByRole('link', { name: /^My AI/ })).toBeVisible());
    expect(banner).toHaveTextContent('Your own team');
    await waitFor(() => expect(document.title).toBe('Dashboard · Company AI'));
  });

  it('are the built-in ones when the admin wrote none', async () => {
    await openShell(userFixture(), { language: 'pt-BR' });
    const banner = await screen.findByRole('banner');
    await waitFor(() =>
      expect(
        within(banner).getByRole('link', { name: 'ContrateIA Contrate sua própria IA' }),
      ).toBeVisible(),
    );
    await waitFor(() => expect(document.title).toBe('Dashboard · ContrateIA'));
  });
});

describe('maintenance', () => {
  const inMaintenance = () => ({
    system: { ...defaultSettings().system, maintenanceMode: true },
  });

  it('shows a signed-in user the maintenance page instead of the app, with sign-out', async () => {
    const { server, user, location } = await openShell(userFixture(), {
      settings: inMaintenance(),
    });
    expect(
      await screen.findByRole('heading', { level: 1, name: "We'll be right back" }),
    ).toBeVisible();
    expect(
      screen.getByText(
        'The system is under maintenance, and only administrators can use it for now. Please come back in a few minutes: this page also checks by itself.',
      ),
    ).toBeVisible();
    expect(screen.queryByRole('navigation', { name: 'Main navigation' })).not.toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('Under maintenance · ContrateIA'));

    await user.click(screen.getByRole('button', { name: 'Logout' }));
    await waitFor(() => expect(location().pathname).toBe('/login'));
    expect(server.calls()).toContain('POST /api/logout');
    expect(window.localStorage.getItem('token')).toBeNull();
  });

  it('keeps a user signed in through a reload during maintenance (GET /api/user answers 503), and lets them back in once it is over', async () => {
    const server = startFakeServer();
    const ana = userFixture();
    signIn(server, ana);
    const stored = serveSettings(server, inMaintenance());
    server.on('GET /api/user', () => errorResponse(503, { message: MAINTENANCE }));
    server.on('GET /api/agents/user', () => errorResponse(503, { message: MAINTENANCE }));
    const realtime = await startFakeRealtime({ token: `token-de-${ana.username}` });
    const { user } = await renderWithProviders(<AppLayout />, {
      language: 'en-US',
      route: '/dashboard',
      texts: ['app'],
      realtime: realtime.client,
    });
    expect(await screen.findByRole('heading', { name: "We'll be right back" })).toBeVisible();
    expect(window.localStorage.getItem('token')).toBe('token-de-ana');

    stored.system = { ...stored.system, maintenanceMode: false };
    server.on('GET /api/agents/user', () => ({
      agents: [agentFixture('guia', { language: 'en-US', isHired: true })],
    }));
    await user.click(screen.getByRole('button', { name: 'Check again' }));
    const nav = within(await navigation());
    expect(await nav.findByRole('link', { name: 'Guide' })).toBeVisible();
    expect(screen.getByRole('banner')).toHaveTextContent(ana.email);
  });

  it('follows a 503 from any call: the settings are read again at once and the maintenance page shows', async () => {
    const server = startFakeServer();
    const bia = userFixture();
    signIn(server, bia);
    const stored = serveSettings(server);
    const agents = server.hold('GET /api/agents/user');
    const realtime = await startFakeRealtime({ token: `token-de-${bia.username}` });
    await renderWithProviders(<AppLayout />, {
      language: 'en-US',
      route: '/dashboard',
      texts: ['app'],
      realtime: realtime.client,
    });
    await navigation();
    const publicReads = () =>
      server.requests.filter((r) => r.url === '/api/settings/public').length;
    const before = publicReads();

    // The admin turns maintenance on while the page waits for an answer.
    stored.system = { ...stored.system, maintenanceMode: true };
    (await agents.next()).respond(errorResponse(503, { message: MAINTENANCE }));
    expect(await screen.findByRole('heading', { name: "We'll be right back" })).toBeVisible();
    expect(publicReads()).toBe(before + 1);
  });

  it('shows an open page the maintenance page the moment the server says so over the realtime connection, and the app again when it says it is over', async () => {
    const { realtime, stored, server } = await openShell(userFixture());
    await navigation();
    await waitFor(() => expect(realtime.joins).toBeGreaterThan(0));
    const reads = server.requests.length;

    stored.system = { ...stored.system, maintenanceMode: true };
    realtime.emit('settings:changed', publicSettingsOf(stored));
    expect(
      await screen.findByRole('heading', { level: 1, name: "We'll be right back" }),
    ).toBeVisible();
    // The event said it all: nothing was asked of the server to show it.
    expect(server.requests.slice(reads).map((r) => r.url)).not.toContain('/api/settings/public');

    stored.system = { ...stored.system, maintenanceMode: false };
    realtime.emit('settings:changed', publicSettingsOf(stored));
    expect(await navigation()).toBeVisible();
  });

  it("reads the settings again when the connection comes back after a loss (maintenance over: a user's connection is let in again), and shows the app", async () => {
    const { realtime, stored, server } = await openShell(userFixture(), {
      settings: inMaintenance(),
    });
    expect(
      await screen.findByRole('heading', { level: 1, name: "We'll be right back" }),
    ).toBeVisible();
    await waitFor(() => expect(realtime.joins).toBe(1));
    const publicReads = () =>
      server.requests.filter((r) => r.url === '/api/settings/public').length;
    const before = publicReads();

    await realtime.restart(async () => {
      // Lost: a reason to ask again (still maintenance, here). Then it ends.
      await waitFor(() => expect(publicReads()).toBe(before + 1));
      stored.system = { ...stored.system, maintenanceMode: false };
    });
    expect(await navigation()).toBeVisible();
    // The app shows once the settings say maintenance is over; the connection's second join may
    // land just after that, on a loaded machine.
    await waitFor(() => expect(realtime.joins).toBe(2));
  });

  it('shows admins a banner instead, with a link to the System tab in admin mode', async () => {
    await openShell(ADMIN, { settings: inMaintenance() });
    const notice = await screen.findByText('Maintenance mode is on: only admins can use the app');
    expect(
      within(notice.parentElement!).getByRole('link', { name: 'Open System Settings' }),
    ).toHaveAttribute('href', '/admin?tab=system');
    expect(
      within(await navigation()).getByRole('button', { name: 'Administration' }),
    ).toBeVisible();
    expect(screen.queryByRole('heading', { name: "We'll be right back" })).not.toBeInTheDocument();
  });

  it('shows the banner without the link to an admin in user mode, who keeps working too', async () => {
    await openShell({ ...ADMIN, role: 'user' }, { settings: inMaintenance(), language: 'pt-BR' });
    const notice = await screen.findByText(
      'O modo de manutenção está ligado: só administradores podem usar o aplicativo',
    );
    expect(within(notice.parentElement!).queryByRole('link')).not.toBeInTheDocument();
    expect(await navigation('Navegação principal')).toBeVisible();
  });
});
