// @vitest-environment happy-dom
import type {
  AdminAgent,
  AdminUser,
  AdminUserResponse,
  CreateSingleAgentUserInput,
} from '@contrateia/shared/admin/admin.schemas';
import type { Language } from '@contrateia/shared/i18n/languages';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { UsersTab } from '@/features/admin/components/users-tab';
import {
  adminAgentFixture,
  adminUserFixture,
  auxtratFixture,
  guiaFixture,
  uuid,
} from '@/test/admin-manage-fixtures';
import { errorResponse, startFakeServer, type FakeServer } from '@/test/fake-server';
import { renderWithProviders } from '@/test/render-with-providers';

// The Users tab against a stand-in API that searches and pages the accounts as the server does, and
// refuses what the server refuses.

const ME = uuid(501);

const people = (): AdminUser[] => [
  adminUserFixture({
    id: ME,
    name: 'Ana Admin',
    email: 'ana@exemplo.com',
    username: 'ana',
    role: 'admin',
    originalRole: 'admin',
  }),
  adminUserFixture({
    id: uuid(502),
    name: 'Bruno Lima',
    lastSeenAt: null,
  }),
  adminUserFixture({
    id: uuid(503),
    name: 'Carla Dias',
    singleAgent: { id: uuid(3), name: 'auxtrat', displayName: 'Auxtrat' },
    isActive: false,
  }),
  // An admin in user mode: still an admin.
  adminUserFixture({ id: uuid(504), name: 'Davi Rocha', role: 'user', originalRole: 'admin' }),
];

/** `count` accounts named User 01, User 02…, for the pages. */
const many = (count: number) =>
  Array.from({ length: count }, (_, i) =>
    adminUserFixture({ id: uuid(600 + i), name: `User ${String(i + 1).padStart(2, '0')}` }),
  );

const inactiveAgent = () =>
  adminAgentFixture({
    id: uuid(11),
    name: 'old-bot',
    displayName: sameText('Old bot'),
    isActive: false,
  });

function sameText(text: string) {
  return { 'pt-BR': text, 'en-US': text, 'es-ES': text };
}

function fakeUsersApi(server: FakeServer, users: AdminUser[], agents: AdminAgent[]) {
  const state = { users: [...users] };
  const find = (url: string) => state.users.find((u) => u.id === url.split('/')[4]);
  const answer = (user: AdminUser, message: string): AdminUserResponse => ({
    success: true,
    message,
    user: { ...user },
  });
  server.on('GET /api/admin/users', ({ url }) => {
    const query = new URL(url, 'http://localhost').searchParams;
    const search = (query.get('search') ?? '').toLowerCase();
    const limit = Number(query.get('limit') ?? 20);
    const offset = Number(query.get('offset') ?? 0);
    const found = state.users.filter((u) =>
      [u.name, u.email, u.username].some((text) => text.toLowerCase().includes(search)),
    );
    return { users: found.slice(offset, offset + limit), total: found.length };
  });
  server.on('POST /api/admin/users/:id/status', ({ url, body }) => {
    const user = find(url);
    if (!user) return errorResponse(404, { message: 'User not found' });
    if (user.id === ME) return errorResponse(400, { message: 'You cannot deactivate yourself' });
    user.isActive = body.isActive;
    return answer(user, body.isActive ? 'Account activated' : 'Account deactivated');
  });
  server.on('POST /api/admin/users/:id/role', ({ url, body }) => {
    const user = find(url);
    if (!user) return errorResponse(404, { message: 'User not found' });
    if (user.id === ME) return errorResponse(400, { message: 'You cannot change your own role' });
    user.role = body.role;
    user.originalRole = body.role;
    return answer(user, body.role === 'admin' ? 'Now an admin' : 'Now a user');
  });
  server.on('POST /api/admin/users/single-agent', ({ body }) => {
    if (state.users.some((u) => u.email === body.email)) {
      return errorResponse(400, {
        message: 'Failed to create single-agent user',
        errors: { email: 'This e-mail is already registered' },
      });
    }
    const agent = agents.find((a) => a.id === body.agentId);
    if (!agent?.isActive) return errorResponse(400, { message: 'Agent not available' });
    const user = adminUserFixture({
      id: uuid(700 + state.users.length),
      name: body.name,
      email: body.email,
      singleAgent: { id: agent.id, name: agent.name, displayName: agent.displayName['en-US'] },
      lastSeenAt: null,
    });
    state.users.push(user);
    return answer(user, `Account created for ${body.email}`);
  });
  server.on('GET /api/admin/agents', () => ({ agents }));
  return state;
}

async function openTab({
  language = 'en-US',
  users = people(),
  agents = [guiaFixture(), auxtratFixture(), inactiveAgent()],
}: { language?: Language; users?: AdminUser[]; agents?: AdminAgent[] } = {}) {
  const server = startFakeServer();
  const state = fakeUsersApi(server, users, agents);
  const view = await renderWithProviders(<UsersTab userId={ME} />, {
    language,
    route: '/admin',
    texts: ['app', 'admin'],
  });
  if (users.length > 0) await screen.findByRole('table');
  return { server, state, ...view };
}

const row = (name: string) => screen.getByRole('row', { name });
const cell = (name: string, column: string) =>
  within(row(name))
    .getAllByRole('cell')
    .find((c) => c.dataset.label === column);
const userCalls = (server: FakeServer) =>
  server.calls().filter((call) => call.startsWith('GET /api/admin/users'));

describe('the user list', () => {
  it('shows each account: name, e-mail, username, role, single agent, dates and status', async () => {
    await openTab();
    const headers = screen.getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers).toEqual([
      'Name',
      'E-mail',
      'Username',
      'Role',
      'Single agent',
      'Created',
      'Last seen',
      'Status',
      'Actions',
    ]);
    const format = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });
    expect(cell('Ana Admin', 'E-mail')).toHaveTextContent('ana@exemplo.com');
    expect(cell('Ana Admin', 'Username')).toHaveTextContent('ana');
    expect(cell('Ana Admin', 'Role')).toHaveTextContent(/^Admin$/);
    expect(cell('Ana Admin', 'Created')).toHaveTextContent(
      format.format(new Date('2025-03-10T14:30:00.000Z')),
    );
    expect(cell('Ana Admin', 'Last seen')).toHaveTextContent(
      format.format(new Date('2025-06-01T09:15:00.000Z')),
    );
    expect(cell('Bruno Lima', 'Last seen')).toHaveTextContent('Never');
    expect(cell('Bruno Lima', 'Single agent')).toHaveTextContent('None');
    expect(cell('Carla Dias', 'Single agent')).toHaveTextContent('Auxtrat');
    expect(cell('Carla Dias', 'Status')).toHaveTextContent('Inactive');
    expect(cell('Bruno Lima', 'Status')).toHaveTextContent('Active');
    expect(cell('Davi Rocha', 'Role')).toHaveTextContent('Admin (in user mode)');
    expect(
      within(row('Davi Rocha')).getByRole('button', { name: 'Make user: Davi Rocha' }),
    ).toBeInTheDocument();
    expect(
      within(row('Carla Dias')).getByRole('button', { name: 'Activate Carla Dias' }),
    ).toBeInTheDocument();
    expect(screen.getByText('Showing 1–4 of 4')).toBeInTheDocument();
  });

  it('formats dates the Brazilian way in Portuguese', async () => {
    await openTab({ language: 'pt-BR' });
    const format = new Intl.DateTimeFormat('pt-BR', { dateStyle: 'medium', timeStyle: 'short' });
    expect(cell('Ana Admin', 'Criado em')).toHaveTextContent(
      format.format(new Date('2025-03-10T14:30:00.000Z')),
    );
    expect(cell('Bruno Lima', 'Último acesso')).toHaveTextContent('Nunca');
  });

  it('searches once typing pauses, not at every key, from the first page', async () => {
    const { server, user } = await openTab({ users: [...people(), ...many(30)] });
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await screen.findByText('Showing 21–34 of 34');
    await user.type(screen.getByRole('searchbox', { name: 'Search users' }), 'carla');
    await waitFor(() => expect(screen.getAllByRole('row')).toHaveLength(2));
    expect(row('Carla Dias')).toBeInTheDocument();
    expect(screen.getByText('Showing 1–1 of 1')).toBeInTheDocument();
    expect(userCalls(server)).toEqual([
      'GET /api/admin/users?limit=20&offset=0',
      'GET /api/admin/users?limit=20&offset=20',
      'GET /api/admin/users?limit=20&offset=0&search=carla',
    ]);
  });

  it('says when no account matches', async () => {
    const { user } = await openTab();
    await user.type(screen.getByRole('searchbox', { name: 'Search users' }), 'zzz');
    expect(await screen.findByText('No users match “zzz”.')).toBeInTheDocument();
  });

  it('pages through the accounts with Previous and Next', async () => {
    const { server, user } = await openTab({ users: many(45) });
    expect(screen.getByText('Showing 1–20 of 45')).toBeInTheDocument();
    const previous = screen.getByRole('button', { name: 'Previous' });
    const next = screen.getByRole('button', { name: 'Next' });
    expect(previous).toBeDisabled();
    await user.click(next);
    expect(await screen.findByText('Showing 21–40 of 45')).toBeInTheDocument();
    expect(row('User 21')).toBeInTheDocument();
    await waitFor(() => expect(next).toBeEnabled());
    await user.click(next);
    expect(await screen.findByText('Showing 41–45 of 45')).toBeInTheDocument();
    expect(screen.getAllByRole('row')).toHaveLength(6);
    expect(next).toBeDisabled();
    await waitFor(() => expect(previous).toBeEnabled());
    await user.click(previous);
    expect(await screen.findByText('Showing 21–40 of 45')).toBeInTheDocument();
    // A page seen before shows at once, and is read again in case it changed.
    await waitFor(() =>
      expect(userCalls(server)).toEqual([
        'GET /api/admin/users?limit=20&offset=0',
        'GET /api/admin/users?limit=20&offset=20',
        'GET /api/admin/users?limit=20&offset=40',
        'GET /api/admin/users?limit=20&offset=20',
      ]),
    );
  });

  it("says 'Failed to load users' with the server's reason", async () => {
    const server = startFakeServer();
    server.on('GET /api/admin/users', () => errorResponse(403, { message: 'Access denied' }));
    await renderWithProviders(<UsersTab userId={ME} />, {
      language: 'en-US',
      texts: ['app', 'admin'],
    });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to load users: Access denied',
    );
  });
});

describe('changing an account', () => {
  it('deactivates only after the confirmation', async () => {
    const { server, user } = await openTab();
    const deactivate = () =>
      within(row('Bruno Lima')).getByRole('button', { name: 'Deactivate Bruno Lima' });
    await user.click(deactivate());
    let dialog = await screen.findByRole('dialog', { name: 'Deactivate Bruno Lima?' });
    expect(dialog).toHaveTextContent('is signed out everywhere at once');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(server.calls().filter((call) => call.startsWith('POST'))).toEqual([]);

    await user.click(deactivate());
    dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Deactivate' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByText('Account deactivated')).toBeInTheDocument();
    await waitFor(() => expect(cell('Bruno Lima', 'Status')).toHaveTextContent('Inactive'));
    expect(
      within(row('Bruno Lima')).getByRole('button', { name: 'Activate Bruno Lima' }),
    ).toBeInTheDocument();
    expect(
      server.requests
        .filter((r) => r.url === `/api/admin/users/${uuid(502)}/status`)
        .map((r) => r.body),
    ).toEqual([{ isActive: false }]);
  });

  it('makes a user an admin after the confirmation', async () => {
    const { server, user } = await openTab();
    await user.click(
      within(row('Bruno Lima')).getByRole('button', { name: 'Make admin: Bruno Lima' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Make Bruno Lima an admin?' });
    await user.click(within(dialog).getByRole('button', { name: 'Make admin' }));
    await waitFor(() => expect(cell('Bruno Lima', 'Role')).toHaveTextContent(/^Admin$/));
    expect(
      server.requests
        .filter((r) => r.url === `/api/admin/users/${uuid(502)}/role`)
        .map((r) => r.body),
    ).toEqual([{ role: 'admin' }]);
  });

  it('offers no admin role to an account made for one agent', async () => {
    await openTab();
    expect(
      within(row('Carla Dias')).queryByRole('button', { name: /Make admin/ }),
    ).not.toBeInTheDocument();
    expect(
      within(row('Carla Dias')).getByRole('button', { name: 'Activate Carla Dias' }),
    ).toBeVisible();
  });

  // The server refuses to deactivate or demote oneself, so the own row offers neither (it would
  // only end in a refusal).
  it('offers no action the server refuses on your own row, and says it is yours', async () => {
    await openTab();
    expect(await within(row('Ana Admin')).findByText('Your account')).toBeVisible();
    expect(within(row('Ana Admin')).queryAllByRole('button')).toEqual([]);
    // Another admin's row still has both.
    expect(
      within(row('Davi Rocha')).getByRole('button', { name: 'Deactivate Davi Rocha' }),
    ).toBeVisible();
    expect(
      within(row('Davi Rocha')).getByRole('button', { name: 'Make user: Davi Rocha' }),
    ).toBeVisible();
  });

  it('says "Sua conta" on your own row in Portuguese', async () => {
    await openTab({ language: 'pt-BR' });
    expect(await within(row('Ana Admin')).findByText('Sua conta')).toBeVisible();
    expect(within(row('Ana Admin')).queryAllByRole('button')).toEqual([]);
  });

  it("shows the server's refusal in the dialog (an account removed meanwhile), and changes nothing", async () => {
    const { user, state } = await openTab();
    state.users = state.users.filter((u) => u.name !== 'Bruno Lima');
    await user.click(
      within(row('Bruno Lima')).getByRole('button', { name: 'Deactivate Bruno Lima' }),
    );
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Deactivate' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('User not found');
    expect(cell('Bruno Lima', 'Status')).toHaveTextContent('Active');
  });
});

describe('creating a single-agent user', () => {
  async function openForm(options: Parameters<typeof openTab>[0] = {}) {
    const view = await openTab(options);
    await view.user.click(screen.getByRole('button', { name: 'New single-agent user' }));
    const dialog = await screen.findByRole('dialog', { name: 'Create single-agent user' });
    const agent = within(dialog).getByRole('combobox', { name: 'Agent' });
    await waitFor(() => expect(agent).toBeEnabled());
    return { ...view, dialog, agent };
  }

  it('offers only the active agents a user can have', async () => {
    const admins = adminAgentFixture({
      id: uuid(4),
      name: 'administrador',
      displayName: sameText('Administrador'),
      adminOnly: true,
      seeded: true,
    });
    const { agent } = await openForm({
      agents: [guiaFixture(), auxtratFixture(), inactiveAgent(), admins],
    });
    expect(
      within(agent)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Choose an active agent', 'Guide', 'Auxtrat']);
  });

  it("shows the server's refusal on its field, then creates the account", async () => {
    const { server, user, dialog, agent } = await openForm();
    await user.type(within(dialog).getByLabelText('Full Name'), 'Eva Nunes');
    await user.type(within(dialog).getByLabelText('Email Address'), 'ana@exemplo.com');
    await user.type(within(dialog).getByLabelText('Password'), 'segredo123');
    await user.selectOptions(agent, 'Auxtrat');
    await user.click(within(dialog).getByRole('button', { name: 'Create user' }));

    const email = within(dialog).getByLabelText('Email Address');
    await waitFor(() =>
      expect(email).toHaveAccessibleDescription('This e-mail is already registered'),
    );
    expect(email).toHaveFocus();
    await user.clear(email);
    expect(email).not.toHaveAttribute('aria-invalid');
    await user.type(email, 'eva@exemplo.com');
    await user.click(within(dialog).getByRole('button', { name: 'Create user' }));

    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.getByText('Account created for eva@exemplo.com')).toBeInTheDocument();
    expect(await screen.findByRole('row', { name: 'Eva Nunes' })).toBeInTheDocument();
    expect(cell('Eva Nunes', 'Single agent')).toHaveTextContent('Auxtrat');
    expect(screen.getByRole('button', { name: 'New single-agent user' })).toHaveFocus();
    expect(
      server.requests
        .filter((r) => r.url === '/api/admin/users/single-agent')
        .map((r) => r.body as CreateSingleAgentUserInput),
    ).toEqual([
      { name: 'Eva Nunes', email: 'ana@exemplo.com', password: 'segredo123', agentId: uuid(3) },
      { name: 'Eva Nunes', email: 'eva@exemplo.com', password: 'segredo123', agentId: uuid(3) },
    ]);
  });

  it('checks the form with the shared schema before sending anything', async () => {
    const { server, user, dialog, agent } = await openForm();
    await user.type(within(dialog).getByLabelText('Email Address'), 'not-an-email');
    await user.type(within(dialog).getByLabelText('Password'), '123');
    await user.click(within(dialog).getByRole('button', { name: 'Create user' }));
    expect(await within(dialog).findByText('First name is required')).toBeInTheDocument();
    expect(within(dialog).getByLabelText('Email Address')).toHaveAccessibleDescription(
      'Please enter a valid email address',
    );
    expect(within(dialog).getByLabelText('Password')).toHaveAccessibleDescription(
      'Password must be at least 6 characters',
    );
    expect(agent).toHaveAccessibleDescription('Agent is required');
    expect(server.calls().filter((call) => call.startsWith('POST'))).toEqual([]);
  });

  it("says 'Failed to create single-agent user' with the server's reason when no field is to blame", async () => {
    const { server, user, dialog, agent } = await openForm();
    server.on('POST /api/admin/users/single-agent', () =>
      errorResponse(400, { message: 'Agent not available' }),
    );
    await user.type(within(dialog).getByLabelText('Full Name'), 'Eva Nunes');
    await user.type(within(dialog).getByLabelText('Email Address'), 'eva@exemplo.com');
    await user.type(within(dialog).getByLabelText('Password'), 'segredo123');
    await user.selectOptions(agent, 'Guide');
    await user.click(within(dialog).getByRole('button', { name: 'Create user' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Failed to create single-agent user: Agent not available',
    );
  });
});
