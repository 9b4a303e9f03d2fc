// @vitest-environment happy-dom
import {
  updateAgentSchema,
  type AdminAgent,
  type AdminAgentResponse,
  type CreateAgentInput,
  type UpdateAgentInput,
} from '@contrateia/shared/admin/admin.schemas';
import type { Language } from '@contrateia/shared/i18n/languages';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AgentManagementTab } from '@/features/admin/components/agent-management-tab';
import { adminAgentFixture, auxtratFixture, guiaFixture, uuid } from '@/test/admin-manage-fixtures';
import { emulateDialogCloseRequests } from '@/test/browser';
import { errorResponse, startFakeServer, type FakeServer } from '@/test/fake-server';
import { renderWithProviders } from '@/test/render-with-providers';

// The Agent Management tab (with the panel's failure texts) against a stand-in API that keeps the
// agents as the server does and checks every body against the shared schemas.

const supportBot = () =>
  adminAgentFixture({
    id: uuid(10),
    name: 'support-bot',
    displayName: { 'pt-BR': 'Suporte', 'en-US': 'Support', 'es-ES': 'Soporte' },
    isActive: false,
    hires: 2,
    conversations: 7,
  });

function fakeAgentsApi(server: FakeServer, agents: AdminAgent[]) {
  /** `refuseCreate`: the answer to the next creation, instead of creating. */
  const state = { agents: [...agents], refuseCreate: null as Response | null };
  const find = (url: string) => state.agents.find((a) => a.id === url.split('/')[4]);
  const answer = (agent: AdminAgent, message: string): AdminAgentResponse => ({
    success: true,
    message,
    agent,
  });
  server.on('GET /api/admin/agents', () => ({ agents: state.agents.map((a) => ({ ...a })) }));
  server.on('POST /api/admin/agents', ({ body }) => {
    const refusal = state.refuseCreate;
    state.refuseCreate = null;
    if (refusal) return refusal;
    // Sent without one, the name is made from the display name (as the server does).
    const name = body.name || 'made-from-display-name';
    const agent = saved(adminAgentFixture({ id: uuid(50), name }), body);
    state.agents.push(agent);
    return answer(agent, 'Agent created');
  });
  server.on('PUT /api/admin/agents/:id', ({ url, body }) => {
    const found = find(url);
    if (!found) return errorResponse(404, { message: 'Agent not found' });
    Object.assign(found, saved(found, body));
    return answer(found, 'Agent saved');
  });
  server.on('PATCH /api/admin/agents/:id/status', ({ url, body }) => {
    const found = find(url);
    if (!found) return errorResponse(404, { message: 'Agent not found' });
    found.isActive = body.isActive;
    return answer(found, body.isActive ? 'Agent activated' : 'Agent deactivated');
  });
  server.on('DELETE /api/admin/agents/:id', ({ url }) => {
    const found = find(url);
    if (!found) return errorResponse(404, { message: 'Agent not found' });
    if (found.seeded)
      return errorResponse(400, { message: 'Seeded agents can only be deactivated' });
    state.agents = state.agents.filter((a) => a !== found);
    return { success: true, message: 'Agent deleted' };
  });
  return state;
}

/** The agent as the server stores what the form sent: a text left empty is the default language's. */
function saved(agent: AdminAgent, sent: CreateAgentInput | UpdateAgentInput): AdminAgent {
  const { name: _name, ...edit } = sent as CreateAgentInput;
  const body = updateAgentSchema.parse(edit);
  return {
    ...agent,
    displayName: body.displayName,
    description: body.description,
    isActive: body.isActive ?? true,
    configuration: {
      ...body.configuration,
      knowledge: body.configuration.knowledge.map((entry, i) => ({
        ...entry,
        id: entry.id ?? `new-${i}`,
      })),
    },
    editedAt: '2025-06-02T10:00:00.000Z',
  };
}

async function openTab({
  language = 'en-US',
  agents = [guiaFixture(), auxtratFixture(), supportBot()],
}: { language?: Language; agents?: AdminAgent[] } = {}) {
  const server = startFakeServer();
  const state = fakeAgentsApi(server, agents);
  const view = await renderWithProviders(<AgentManagementTab />, {
    language,
    route: '/admin',
    texts: ['app', 'admin'],
  });
  if (agents.length > 0) await screen.findByRole('list', { name: /^(Agents|Agentes)$/ });
  return { server, state, ...view };
}

const card = (name: string) => screen.getByRole('listitem', { name });
const sent = <T,>(server: FakeServer, call: string) =>
  server.requests.filter((r) => `${r.method} ${r.url}` === call).map((r) => r.body as T);

describe('the agent list', () => {
  it('shows every agent: display name in the interface language, name, kind, status and use', async () => {
    await openTab();
    const guide = card('Guide');
    expect(within(guide).getByText('guia')).toBeInTheDocument();
    expect(within(guide).getByText('Seeded')).toBeInTheDocument();
    expect(within(guide).getByRole('switch', { name: 'Active: Guide' })).toBeChecked();
    expect(within(guide).getByText('Hires').nextSibling).toHaveTextContent('12');
    expect(within(guide).getByText('Conversations').nextSibling).toHaveTextContent('34');
    // Seeded agents can be deactivated, not deleted.
    expect(within(guide).queryByRole('button', { name: /^Delete/ })).not.toBeInTheDocument();

    const support = card('Support');
    expect(within(support).getByText('support-bot')).toBeInTheDocument();
    expect(within(support).getByText('Custom')).toBeInTheDocument();
    expect(within(support).getByRole('switch', { name: 'Active: Support' })).not.toBeChecked();
    expect(within(support).getByRole('button', { name: 'Delete Support' })).toBeInTheDocument();
  });

  // A screen reader going from switch to switch hears whose each one is.
  it('names each switch with its agent, for screen readers', async () => {
    await openTab();
    expect(
      screen.getAllByRole('switch').map((item) => item.getAttribute('aria-label') ?? ''),
    ).toEqual(expect.arrayContaining(['Active: Guide', 'Active: Support']));
    expect(screen.getByRole('switch', { name: 'Active: Guide' })).toBeChecked();
  });

  it('names the agents in Portuguese in a Portuguese interface', async () => {
    await openTab({ language: 'pt-BR' });
    expect(screen.getByRole('heading', { level: 2 })).toHaveTextContent('Gerenciamento de agentes');
    expect(within(card('Guia')).getByText('Padrão')).toBeInTheDocument();
    expect(
      within(card('Suporte')).getByRole('switch', { name: 'Ativo: Suporte' }),
    ).not.toBeChecked();
  });

  it('says it is loading, then shows the list', async () => {
    const server = startFakeServer();
    const held = server.hold('GET /api/admin/agents');
    await renderWithProviders(<AgentManagementTab />, {
      language: 'en-US',
      texts: ['app', 'admin'],
    });
    expect(await screen.findByText('Loading agents...')).toBeInTheDocument();
    (await held.next()).respond({ agents: [guiaFixture()] });
    expect(await screen.findByRole('listitem', { name: 'Guide' })).toBeInTheDocument();
    expect(screen.queryByText('Loading agents...')).not.toBeInTheDocument();
  });

  it("says 'Failed to load agents' when the server refuses, and reads again on Try again", async () => {
    const server = startFakeServer();
    server.on('GET /api/admin/agents', () =>
      errorResponse(503, { message: 'The service is unavailable' }),
    );
    const { user } = await renderWithProviders(<AgentManagementTab />, {
      language: 'en-US',
      texts: ['app', 'admin'],
    });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to load agents: The service is unavailable',
    );
    server.on('GET /api/admin/agents', () => ({ agents: [guiaFixture()] }));
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('listitem', { name: 'Guide' })).toBeInTheDocument();
  });

  it("says 'Error loading agents' when the server cannot be reached", async () => {
    const server = startFakeServer();
    server.on('GET /api/admin/agents', () => {
      throw new TypeError('Failed to fetch');
    });
    await renderWithProviders(<AgentManagementTab />, {
      language: 'en-US',
      texts: ['app', 'admin'],
    });
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Error loading agents$/);
  });

  it('says when there are no agents', async () => {
    await openTab({ agents: [] });
    expect(await screen.findByText('No agents yet.')).toBeInTheDocument();
  });
});

describe('creating an agent', () => {
  it("shows the server's refusal on its field, then creates the agent with what was typed", async () => {
    const { server, state, user } = await openTab();
    state.refuseCreate = errorResponse(400, {
      message: 'Failed to create agent',
      errors: { name: 'An agent with this name already exists' },
    });
    await user.click(screen.getByRole('button', { name: 'New agent' }));
    const form = screen.getByRole('form', { name: 'New agent' });
    expect(within(form).getByRole('heading', { name: 'New agent' })).toHaveFocus();

    // Pasted rather than typed key by key: the same events for the form, in a fraction of the time.
    const fill = async (field: HTMLElement, text: string) => {
      await user.click(field);
      await user.paste(text);
    };
    await fill(within(form).getByLabelText('Name'), 'guia');
    for (const [language, name] of [
      ['Português (Brasil)', 'Vendas'],
      ['English (US)', 'Sales'],
      ['Español (España)', 'Ventas'],
    ] as const) {
      const group = within(form).getByRole('group', { name: language });
      await fill(within(group).getByLabelText('Display name'), name);
      await fill(within(group).getByLabelText('Description'), `${name}: prices and plans.`);
    }
    await fill(
      within(within(form).getByRole('group', { name: 'English (US)' })).getByLabelText(
        'Welcome message',
      ),
      'Hi! Ask me about prices.',
    );
    await fill(within(form).getByLabelText('Instructions'), 'Answer about prices.');
    await user.click(within(form).getByRole('button', { name: 'Add entry' }));
    const title = within(form).getByLabelText('Title');
    expect(title).toHaveFocus();
    await user.type(title, 'Opening hours');
    await user.selectOptions(within(form).getByLabelText('Language'), 'en-US');
    await fill(within(form).getByLabelText('Content'), 'We open at 9 a.m.');
    await user.type(within(form).getByLabelText('Keywords'), 'hours, open , ,schedule');
    await user.click(within(form).getByRole('button', { name: 'Save agent' }));

    const name = within(form).getByLabelText('Name');
    await waitFor(() =>
      expect(name).toHaveAccessibleDescription(/An agent with this name already exists/),
    );
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(name).toHaveFocus();
    expect(within(form).getAllByRole('alert')[0]).toHaveTextContent(/^Failed to create agent$/);

    // Editing the field clears its error; the next save goes through.
    await user.clear(name);
    expect(name).not.toHaveAttribute('aria-invalid');
    await user.type(name, 'sales');
    await user.click(within(form).getByRole('button', { name: 'Save agent' }));

    expect(await screen.findByRole('status')).toHaveTextContent('Agent created');
    const created = await screen.findByRole('listitem', { name: 'Sales' });
    expect(within(created).getByRole('button', { name: 'Edit Sales' })).toHaveFocus();
    const bodies = sent<CreateAgentInput>(server, 'POST /api/admin/agents');
    expect(bodies).toHaveLength(2);
    expect(bodies[1]).toEqual({
      name: 'sales',
      displayName: { 'pt-BR': 'Vendas', 'en-US': 'Sales', 'es-ES': 'Ventas' },
      description: {
        'pt-BR': 'Vendas: prices and plans.',
        'en-US': 'Sales: prices and plans.',
        'es-ES': 'Ventas: prices and plans.',
      },
      isActive: true,
      configuration: {
        instructions: 'Answer about prices.',
        welcomeMessage: { 'pt-BR': '', 'en-US': 'Hi! Ask me about prices.', 'es-ES': '' },
        model: { model: null, temperature: 0.3, maxReplyLength: 2000 },
        // Keywords typed as one text, sent as a list; an empty link is left out.
        knowledge: [
          {
            language: 'en-US',
            title: 'Opening hours',
            content: 'We open at 9 a.m.',
            keywords: ['hours', 'open', 'schedule'],
          },
        ],
        capabilities: { skills: [], fallback: 'notFound' },
      },
    });
  });

  it('checks the form with the shared schema before sending anything', async () => {
    const { server, user } = await openTab();
    await user.click(screen.getByRole('button', { name: 'New agent' }));
    const form = screen.getByRole('form', { name: 'New agent' });
    await user.type(within(form).getByLabelText('Name'), 'Login');
    const temperature = within(form).getByLabelText('Temperature');
    await user.clear(temperature);
    await user.type(temperature, '5');
    await user.click(within(form).getByRole('button', { name: 'Save agent' }));

    const name = within(form).getByLabelText('Name');
    await waitFor(() => expect(name).toHaveAccessibleDescription(/Invalid agent name/));
    expect(name).toHaveFocus();
    // Only the default language's is required: the others, left blank, use it.
    const [portuguese, ...others] = within(form).getAllByLabelText('Display name');
    expect(portuguese).toHaveAccessibleDescription(
      'Display name in Portuguese is required; the other languages use it when left blank',
    );
    for (const field of others) expect(field).not.toHaveAccessibleDescription(/required/);
    // A rule the schema words with no message key reads as the server words it.
    expect(temperature).toHaveAccessibleDescription(/Invalid value/);
    expect(server.calls().filter((call) => call.startsWith('POST'))).toEqual([]);
  });

  // Decimals use the language's separator, shown and typed.
  it("shows and reads the temperature with the language's decimal separator (0,3 in pt-BR)", async () => {
    const { user } = await openTab({ language: 'pt-BR' });
    await user.click(screen.getByRole('button', { name: 'Novo agente' }));
    const form = screen.getByRole('form', { name: 'Novo agente' });
    const temperature = within(form).getByLabelText('Temperatura');
    expect(temperature).toHaveValue('0,3');
    await user.clear(temperature);
    await user.type(temperature, '0,7');
    await user.click(within(form).getByRole('button', { name: 'Salvar agente' }));
    // The other fields are empty and refused; the temperature is read as 0.7 and accepted.
    await waitFor(() => expect(within(form).getAllByRole('alert').length).toBeGreaterThan(0));
    expect(temperature).not.toHaveAttribute('aria-invalid');
    expect(temperature).toHaveValue('0,7');
  });

  it('shows the temperature as 0.3 in English', async () => {
    const { user } = await openTab();
    await user.click(screen.getByRole('button', { name: 'New agent' }));
    const form = screen.getByRole('form', { name: 'New agent' });
    expect(within(form).getByLabelText('Temperature')).toHaveValue('0.3');
  });

  it('Cancel leaves the list as it was and gives focus back to New agent', async () => {
    const { server, user } = await openTab();
    await user.click(screen.getByRole('button', { name: 'New agent' }));
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('form')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'New agent' })).toHaveFocus();
    expect(server.calls().filter((call) => !call.startsWith('GET'))).toEqual([]);
  });
});

describe('editing an agent', () => {
  it('edits a seeded agent without its name, keeping its capabilities and catalogue', async () => {
    const { server, user } = await openTab();
    await user.click(screen.getByRole('button', { name: 'Edit Auxtrat' }));
    const form = screen.getByRole('form', { name: 'Edit Auxtrat' });
    expect(within(form).queryByLabelText('Name')).not.toBeInTheDocument();
    expect(form).toHaveTextContent('auxtrat');
    const instructions = within(form).getByLabelText('Instructions');
    await user.type(instructions, 'Quote prices from the catalogue.');
    await user.click(within(form).getByRole('button', { name: 'Save agent' }));

    expect(await screen.findByRole('status')).toHaveTextContent('Agent saved');
    expect(within(card('Auxtrat')).getByRole('button', { name: 'Edit Auxtrat' })).toHaveFocus();
    const [body] = sent<UpdateAgentInput>(server, `PUT /api/admin/agents/${uuid(3)}`);
    expect(body).not.toHaveProperty('name');
    expect(body?.configuration.instructions).toBe('Quote prices from the catalogue.');
    expect(body?.configuration.capabilities).toEqual(auxtratFixture().configuration.capabilities);
    expect(body?.configuration.catalogue).toEqual(auxtratFixture().configuration.catalogue);
  });

  it("edits auxtrat's catalogue and skills: a price, a new item, and the skills in the order turned on", async () => {
    const { server, user } = await openTab();
    await user.click(screen.getByRole('button', { name: 'Edit Auxtrat' }));
    const form = screen.getByRole('form', { name: 'Edit Auxtrat' });
    const catalogue = within(form).getByRole('group', { name: 'Catalogue' });
    const [basic] = within(catalogue).getAllByRole('listitem');
    // Folded to its name and price, in the interface's language and number format.
    expect(basic!.querySelector('summary')).toHaveTextContent('Basic PlanR$49.90 per month');
    await user.click(within(basic!).getByText('Basic Plan'));
    const price = within(basic!).getByLabelText('Price');
    await user.clear(price);
    await user.type(price, '59.9');

    await user.click(within(catalogue).getByRole('button', { name: 'Add item' }));
    const added = within(catalogue).getAllByRole('listitem')[1]!;
    // The new item opens with focus on its first name.
    expect(within(added).getAllByLabelText('Item name')[0]).toHaveFocus();
    for (const [index, name] of ['Plano Pro', 'Pro Plan', 'Plan Pro'].entries()) {
      await user.type(within(added).getAllByLabelText('Item name')[index]!, name);
    }
    await user.type(within(added).getAllByLabelText('Keywords')[1]!, 'pro, premium');
    await user.type(within(added).getByLabelText('Price'), '1800');
    await user.selectOptions(within(added).getByLabelText('Charged'), 'Per employee per month');

    const skills = within(form).getByRole('group', { name: 'Skills' });
    await user.click(within(skills).getByRole('checkbox', { name: /^Calculations/ }));
    await user.click(
      within(skills).getByRole('radio', {
        name: 'Say it cannot answer that yet, and what it can do for now',
      }),
    );
    await user.click(within(form).getByRole('button', { name: 'Save agent' }));

    expect(await screen.findByRole('status')).toHaveTextContent('Agent saved');
    const [body] = sent<UpdateAgentInput>(server, `PUT /api/admin/agents/${uuid(3)}`);
    expect(body?.configuration.capabilities).toEqual({
      skills: ['catalogue', 'calculation'],
      fallback: 'cannotYet',
    });
    const [first, second] = body!.configuration.catalogue!.items;
    expect(first).toEqual({ ...auxtratFixture().configuration.catalogue!.items[0], price: 59.9 });
    expect(second).toEqual({
      id: expect.stringMatching(/^item-[0-9a-f]{8}$/),
      name: { 'pt-BR': 'Plano Pro', 'en-US': 'Pro Plan', 'es-ES': 'Plan Pro' },
      description: { 'pt-BR': '', 'en-US': '', 'es-ES': '' },
      keywords: { 'pt-BR': [], 'en-US': ['pro', 'premium'], 'es-ES': [] },
      price: 1800,
      unit: 'employeeMonth',
    });
  });

  it('shows what is wrong in the catalogue on its field, and sends nothing', async () => {
    const auxtrat = auxtratFixture();
    const broken = adminAgentFixture({
      ...auxtrat,
      configuration: {
        ...auxtrat.configuration,
        catalogue: { currency: 'real', items: auxtrat.configuration.catalogue!.items },
      },
    });
    const { server, user } = await openTab({ agents: [broken] });
    await user.click(screen.getByRole('button', { name: 'Edit Auxtrat' }));
    const form = screen.getByRole('form', { name: 'Edit Auxtrat' });
    const [item] = within(within(form).getByRole('group', { name: 'Catalogue' })).getAllByRole(
      'listitem',
    );
    await user.click(within(item!).getByText('Basic Plan'));
    // The Portuguese name: the others may be left blank.
    await user.clear(within(item!).getAllByLabelText('Item name')[0]!);
    await user.click(within(form).getByRole('button', { name: 'Save agent' }));
    const currency = within(form).getByLabelText('Currency');
    await waitFor(() => expect(currency).toHaveFocus());
    expect(currency).toHaveAccessibleDescription(/three-letter code/);
    expect(currency).toHaveAttribute('aria-invalid', 'true');
    expect(within(item!).getAllByLabelText('Item name')[0]).toHaveAttribute('aria-invalid', 'true');
    expect(server.calls().filter((call) => call.startsWith('PUT'))).toEqual([]);
  });

  it('edits, removes and adds knowledge entries; stored entries keep their ids', async () => {
    const { server, user } = await openTab();
    await user.click(screen.getByRole('button', { name: 'Edit Guide' }));
    const form = screen.getByRole('form', { name: 'Edit Guide' });
    const entries = within(
      within(form).getByRole('group', { name: 'Knowledge entries' }),
    ).getAllByRole('listitem');
    expect(entries.map((entry) => entry.querySelector('summary')?.textContent)).toEqual([
      'en-US Change the language',
      'en-US The dashboard',
    ]);
    // Stored entries start folded; opening one shows its fields.
    await user.click(within(entries[0]!).getByText('Change the language'));
    const title = within(entries[0]!).getByLabelText('Title');
    await user.clear(title);
    await user.type(title, 'Switch the language');
    expect(within(entries[0]!).getByLabelText('Keywords')).toHaveValue('language, idiom');
    await user.click(within(entries[1]!).getByText('The dashboard'));
    await user.click(
      within(entries[1]!).getByRole('button', { name: 'Remove the entry “The dashboard”' }),
    );
    await user.click(within(form).getByRole('button', { name: 'Add entry' }));
    await user.type(within(form).getAllByLabelText('Title')[1]!, 'Profile');
    await user.type(within(form).getAllByLabelText('Content')[1]!, 'Your name and password.');
    await user.click(within(form).getByRole('button', { name: 'Save agent' }));

    await screen.findByRole('status');
    const [body] = sent<UpdateAgentInput>(server, `PUT /api/admin/agents/${uuid(1)}`);
    expect(body?.configuration.knowledge).toEqual([
      {
        id: 'guia.language.en-US',
        language: 'en-US',
        title: 'Switch the language',
        content: 'Use the **Language** selector at the top of any page.',
        keywords: ['language', 'idiom'],
      },
      { language: 'en-US', title: 'Profile', content: 'Your name and password.', keywords: [] },
    ]);
  });

  it('opens the folded entry the server refused and puts focus on the field in error', async () => {
    const { server, user } = await openTab();
    server.on('PUT /api/admin/agents/:id', () =>
      errorResponse(400, {
        message: 'Validation error',
        errors: { 'configuration.knowledge.1.link': 'Links can only point to a page of the app' },
      }),
    );
    await user.click(screen.getByRole('button', { name: 'Edit Guide' }));
    const form = screen.getByRole('form', { name: 'Edit Guide' });
    await user.click(within(form).getByRole('button', { name: 'Save agent' }));

    const link = await within(form).findByDisplayValue('/dashboard');
    expect(link.closest('details')).toHaveAttribute('open');
    await waitFor(() => expect(link).toHaveFocus());
    expect(link).toHaveAccessibleDescription(/Links can only point to a page of the app/);
    expect(within(form).getAllByRole('alert')[0]).toHaveTextContent(/^Failed to update agent$/);
  });
});

describe('activating and deactivating', () => {
  it('asks before deactivating; Cancel and Escape change nothing', async () => {
    emulateDialogCloseRequests();
    const { server, user } = await openTab();
    const status = () => within(card('Guide')).getByRole('switch', { name: 'Active: Guide' });
    await user.click(status());
    let dialog = await screen.findByRole('dialog', { name: 'Deactivate Guide?' });
    expect(dialog).toHaveTextContent('stops answering everywhere');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await user.click(status());
    await screen.findByRole('dialog');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(status()).toBeChecked();
    expect(server.calls().filter((call) => call.startsWith('PATCH'))).toEqual([]);

    await user.click(status());
    dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Deactivate' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(status()).not.toBeChecked());
    expect(sent(server, `PATCH /api/admin/agents/${uuid(1)}/status`)).toEqual([
      { isActive: false },
    ]);
  });

  it('works from the keyboard: Space on the switch asks, Enter confirms, focus comes back', async () => {
    const { server, user } = await openTab();
    const status = () => within(card('Guide')).getByRole('switch', { name: 'Active: Guide' });
    status().focus();
    await user.keyboard(' ');
    const dialog = await screen.findByRole('dialog', { name: 'Deactivate Guide?' });
    within(dialog).getByRole('button', { name: 'Deactivate' }).focus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    await waitFor(() => expect(status()).not.toBeChecked());
    expect(status()).toHaveFocus();
    expect(sent(server, `PATCH /api/admin/agents/${uuid(1)}/status`)).toEqual([
      { isActive: false },
    ]);
  });

  it('activates at once', async () => {
    const { server, user } = await openTab();
    const status = within(card('Support')).getByRole('switch', { name: 'Active: Support' });
    await user.click(status);
    await waitFor(() => expect(status).toBeChecked());
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(sent(server, `PATCH /api/admin/agents/${uuid(10)}/status`)).toEqual([
      { isActive: true },
    ]);
  });

  it("says 'Failed to update agent status', with the server's reason", async () => {
    const { server, user } = await openTab();
    server.on('PATCH /api/admin/agents/:id/status', () =>
      errorResponse(404, { message: 'Agent not found' }),
    );
    await user.click(within(card('Support')).getByRole('switch', { name: 'Active: Support' }));
    expect(await within(card('Support')).findByRole('alert')).toHaveTextContent(
      'Failed to update agent status: Agent not found',
    );
    expect(
      within(card('Support')).getByRole('switch', { name: 'Active: Support' }),
    ).not.toBeChecked();
  });

  it('gives the reason the server put on the field it refused', async () => {
    const { server, user } = await openTab();
    const reason =
      '1 active account made for this agent alone would have no agent left: deactivate that account first in Users';
    server.on('PATCH /api/admin/agents/:id/status', () =>
      errorResponse(400, {
        message: 'Failed to update agent status',
        errors: { isActive: reason },
      }),
    );
    await user.click(within(card('Guide')).getByRole('switch', { name: 'Active: Guide' }));
    const dialog = await screen.findByRole('dialog', { name: 'Deactivate Guide?' });
    await user.click(within(dialog).getByRole('button', { name: 'Deactivate' }));
    expect(await screen.findByText(`Failed to update agent status: ${reason}`)).toBeVisible();
    expect(within(card('Guide')).getByRole('switch', { name: 'Active: Guide' })).toBeChecked();
  });

  it('in Portuguese too', async () => {
    const { server, user } = await openTab({ language: 'pt-BR' });
    server.on('PATCH /api/admin/agents/:id/status', () => {
      throw new TypeError('Failed to fetch');
    });
    await user.click(within(card('Suporte')).getByRole('switch', { name: 'Ativo: Suporte' }));
    expect(await within(card('Suporte')).findByRole('alert')).toHaveTextContent(
      /^Falha ao atualizar o status do agente$/,
    );
  });
});

describe('deleting a custom agent', () => {
  it('deletes only after the confirmation', async () => {
    const { server, user } = await openTab();
    await user.click(screen.getByRole('button', { name: 'Delete Support' }));
    let dialog = await screen.findByRole('dialog', { name: 'Delete Support?' });
    expect(dialog).toHaveTextContent('past conversations stay readable');
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(server.calls().filter((call) => call.startsWith('DELETE'))).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Delete Support' }));
    dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.queryByRole('listitem', { name: 'Support' })).not.toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Agent deleted');
    expect(server.calls()).toContain(`DELETE /api/admin/agents/${uuid(10)}`);
    expect(screen.getByRole('heading', { level: 2, name: 'Agent Management' })).toHaveFocus();
  });

  it("says 'Failed to delete agent' in the dialog when refused", async () => {
    const { server, user } = await openTab();
    server.on('DELETE /api/admin/agents/:id', () =>
      errorResponse(409, { message: 'The agent is in use' }),
    );
    await user.click(screen.getByRole('button', { name: 'Delete Support' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent(
      'Failed to delete agent: The agent is in use',
    );
    expect(card('Support')).toBeInTheDocument();
  });
});

describe('the test chat', () => {
  async function openChat(name = 'Guide') {
    const view = await openTab();
    await view.user.click(screen.getByRole('button', { name: `Test chat with ${name}` }));
    const panel = screen.getByRole('region', { name: `Test chat: ${name}` });
    const box = within(panel).getByRole('textbox', { name: `Test message to ${name}` });
    return { ...view, panel, box };
  }

  it('sends with Enter, shows the reply, and continues the same conversation', async () => {
    const { server, user, panel, box } = await openChat();
    expect(box).toHaveFocus();
    expect(within(panel).getByRole('log')).toHaveTextContent("Hello! I'm the Guide.");
    const conversationId = uuid(700);
    const replies = ['Use the **Language** selector.', 'Open your profile.'];
    server.on('POST /api/admin/chat/test', ({ body }) => ({
      message: replies[body.conversationId ? 1 : 0] ?? '',
      conversation: { id: conversationId },
    }));

    await user.type(box, 'How do I change the language?{Enter}');
    const log = within(panel).getByRole('log');
    expect(await within(log).findByText('Language')).toBeInTheDocument();
    expect(log).toHaveTextContent('How do I change the language?');
    expect(box).toHaveValue('');
    await user.type(box, 'And my name?{Enter}');
    expect(await within(log).findByText('Open your profile.')).toBeInTheDocument();
    expect(sent(server, 'POST /api/admin/chat/test')).toEqual([
      { message: 'How do I change the language?', agentName: 'guia' },
      { message: 'And my name?', agentName: 'guia', conversationId },
    ]);

    // A new conversation starts without the old id.
    await user.click(within(panel).getByRole('button', { name: 'New conversation' }));
    expect(log).not.toHaveTextContent('And my name?');
    await user.type(box, 'Hi{Enter}');
    await waitFor(() => expect(sent(server, 'POST /api/admin/chat/test')).toHaveLength(3));
    expect(sent(server, 'POST /api/admin/chat/test')[2]).toEqual({
      message: 'Hi',
      agentName: 'guia',
    });
  });

  it('tests an inactive agent too, and says so', async () => {
    const { server, user, panel, box } = await openChat('Support');
    expect(panel).toHaveTextContent('This agent is inactive');
    server.on('POST /api/admin/chat/test', () => ({
      message: 'Support here.',
      conversation: { id: uuid(701) },
    }));
    await user.type(box, 'Hello{Enter}');
    expect(await within(panel).findByText('Support here.')).toBeInTheDocument();
    expect(sent(server, 'POST /api/admin/chat/test')).toEqual([
      { message: 'Hello', agentName: 'support-bot' },
    ]);
  });

  it("shows 'Error: Failed to get response from agent' when the server answers with an error", async () => {
    const { server, user, panel, box } = await openChat();
    server.on('POST /api/admin/chat/test', () =>
      errorResponse(502, { message: 'The language model did not answer in time' }),
    );
    await user.type(box, 'Hello{Enter}');
    const log = within(panel).getByRole('log');
    expect(
      await within(log).findByText('Error: Failed to get response from agent'),
    ).toBeInTheDocument();
    expect(log).toHaveTextContent('The language model did not answer in time');
  });

  it("shows 'Error: Failed to send message' when the server cannot be reached", async () => {
    const { server, user, panel, box } = await openChat();
    server.on('POST /api/admin/chat/test', () => {
      throw new TypeError('Failed to fetch');
    });
    await user.type(box, 'Hello{Enter}');
    expect(
      await within(within(panel).getByRole('log')).findByText('Error: Failed to send message'),
    ).toBeInTheDocument();
  });

  it('does not send a blank message, nor a second one while a reply is pending', async () => {
    const { server, user, panel, box } = await openChat();
    const held = server.hold('POST /api/admin/chat/test');
    await user.type(box, '   {Enter}');
    expect(server.calls().filter((call) => call.startsWith('POST'))).toEqual([]);
    await user.clear(box);
    await user.type(box, 'First{Enter}');
    const first = await held.next();
    expect(within(panel).getByRole('log')).toHaveTextContent('Guide is typing…');
    await user.type(box, 'Second{Enter}');
    expect(box).toHaveValue('Second');
    first.respond({ message: 'Reply.', conversation: { id: uuid(702) } });
    expect(await within(panel).findByText('Reply.')).toBeInTheDocument();
    expect(sent(server, 'POST /api/admin/chat/test')).toHaveLength(1);
  });

  it('Close gives focus back to its button', async () => {
    const { user, panel } = await openChat();
    await user.click(within(panel).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('region', { name: 'Test chat: Guide' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Test chat with Guide' })).toHaveFocus();
  });
});
