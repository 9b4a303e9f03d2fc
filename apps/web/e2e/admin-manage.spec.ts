import type { Browser, Locator, Page } from '@playwright/test';
import { chatReady, entries, messagesRegion, signedInUser } from './chat-helpers';
import { expectNoSeriousViolations, expectNoSidewaysScroll, screenshot } from './page-checks';
import { expect, newAccount, seedSession, signIn, test, type Account, type Api } from './fixtures';

// The admin panel's Agent Management, Users and AI tabs, as the admin uses them and as everyone
// else then sees it. The worker's server is shared with the other journeys: every test deletes the
// agents it made and puts the AI settings back as they were.

type AgentRow = { id: string; name: string };
type AiSettings = { provider: string; baseUrl: string; model: string; timeoutMs: number };

let serial = 0;
/** A new agent name (the agent's address), unique on the worker's server. */
function agentName(prefix: string): string {
  serial += 1;
  return `${prefix}-${Date.now().toString(36)}${serial}`;
}

/** The admin's token, the account in admin mode. */
async function adminToken(api: Api, admin: Account): Promise<string> {
  await api.ensureAdminMode(admin);
  return (await api.login(admin)).token;
}

/** Deletes the custom agents whose names start with one of the prefixes this file uses. */
async function deleteOurAgents(api: Api, admin: Account) {
  const token = await adminToken(api, admin);
  const res = await api.get<{ agents: (AgentRow & { seeded: boolean })[] }>(
    '/api/admin/agents',
    token,
  );
  for (const agent of res.body.agents) {
    if (agent.seeded || !/^(plantao|sumir|visual)-/.test(agent.name)) continue;
    const deleted = await api.request('DELETE', `/api/admin/agents/${agent.id}`, undefined, token);
    if (deleted.status !== 200) throw new Error(`deleting ${agent.name}: ${deleted.status}`);
  }
}

test.afterEach(async ({ api, admin }) => {
  await deleteOurAgents(api, admin);
});

/** The admin, signed in on `page` in admin mode, at /admin?tab=<tab>. */
async function openAdmin(page: Page, api: Api, admin: Account, tab: string) {
  await api.ensureAdminMode(admin);
  await seedSession(page, await api.login(admin));
  await page.goto(`/admin?tab=${tab}`);
  await expect(
    page.getByRole('heading', { level: 1, name: 'Painel de administração' }),
  ).toBeVisible();
}

/** A second browser context: someone else using the app meanwhile. */
async function otherContext(browser: Browser) {
  const context = await browser.newContext();
  return { context, page: await context.newPage() };
}

/** One agent's card in Agent Management, by its display name. */
function agentCard(page: Page, displayName: string): Locator {
  return page
    .getByRole('list', { name: 'Agentes' })
    .getByRole('listitem')
    .filter({ has: page.getByRole('heading', { level: 3, name: displayName, exact: true }) });
}

/** A custom agent made through the API (set-up, when making it is not what is tested). */
async function createAgentThroughApi(
  api: Api,
  admin: Account,
  name: string,
  displayName: string,
): Promise<AgentRow> {
  const token = await adminToken(api, admin);
  const text = { 'pt-BR': displayName, 'en-US': displayName, 'es-ES': displayName };
  const res = await api.post<{ agent: AgentRow }>(
    '/api/admin/agents',
    {
      name,
      displayName: text,
      description: {
        'pt-BR': 'Um agente de teste',
        'en-US': 'A test agent',
        'es-ES': 'Un agente de prueba',
      },
      isActive: true,
      configuration: {
        instructions: '',
        welcomeMessage: { 'pt-BR': '', 'en-US': '', 'es-ES': '' },
        model: { model: null, temperature: 0.3, maxReplyLength: 2000 },
        knowledge: [
          {
            language: 'pt-BR',
            title: 'Entrega',
            content: 'Entregamos em dois dias úteis.',
            keywords: ['entrega', 'chega', 'prazo'],
          },
        ],
        capabilities: { skills: [], fallback: 'notFound' },
      },
    },
    token,
  );
  if (res.status !== 200)
    throw new Error(`create agent ${name}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.agent;
}

const KNOWLEDGE = {
  title: 'Horário do plantão',
  content: 'O plantão de suporte atende das 7h às 19h, de segunda a sábado, pelo ramal 4321.',
  keywords: 'plantão, horário, suporte',
  question: 'qual é o horário do plantão?',
};

test('an agent made in Agent Management with a knowledge entry answers from it in the test chat, and on its page for a user who hires it', async ({
  page,
  api,
  admin,
  browser,
}) => {
  const name = agentName('plantao');
  const displayName = 'Plantão';
  await openAdmin(page, api, admin, 'agents');
  await page.getByRole('button', { name: 'Novo agente' }).click();
  const form = page.getByRole('form', { name: 'Novo agente' });
  await form.getByLabel('Nome', { exact: true }).fill(name);
  for (const [language, description] of [
    ['Português (Brasil)', 'Tira dúvidas sobre o plantão de suporte'],
    ['English (US)', 'Answers questions about the support desk'],
    ['Español', 'Responde dudas sobre la guardia de soporte'],
  ] as const) {
    const group = form.getByRole('group', { name: language });
    await group.getByLabel('Nome de exibição').fill(displayName);
    await group.getByLabel('Descrição').fill(description);
  }
  await form
    .getByLabel('Instruções')
    .fill('Responda sobre o plantão de suporte, com poucas palavras.');
  await form.getByRole('button', { name: 'Adicionar entrada' }).click();
  const knowledge = form.getByRole('group', { name: 'Base de conhecimento' });
  await expect(knowledge.getByLabel('Título')).toBeFocused();
  await expect(knowledge.getByLabel('Idioma')).toHaveValue('pt-BR');
  await knowledge.getByLabel('Título').fill(KNOWLEDGE.title);
  await knowledge.getByLabel('Conteúdo').fill(KNOWLEDGE.content);
  await knowledge.getByLabel('Palavras-chave').fill(KNOWLEDGE.keywords);
  await form.getByRole('button', { name: 'Salvar agente' }).click();

  const card = agentCard(page, displayName);
  await expect(card).toBeVisible();
  await expect(card.getByRole('code')).toHaveText(name);
  await expect(card.getByRole('switch', { name: `Ativo: ${displayName}` })).toBeChecked();

  // The test chat, in the panel.
  await card.getByRole('button', { name: `Testar chat com ${displayName}` }).click();
  const testChat = card.getByRole('region', { name: `Chat de teste: ${displayName}` });
  const box = testChat.getByRole('textbox', { name: `Mensagem de teste para ${displayName}` });
  await expect(box).toBeFocused();
  await box.fill(KNOWLEDGE.question);
  await box.press('Enter');
  const log = testChat.getByRole('log', { name: `Conversa de teste com ${displayName}` });
  await expect(log.getByRole('listitem').filter({ hasText: KNOWLEDGE.question })).toBeVisible();
  await expect(log).toContainText(KNOWLEDGE.content);
  await expect(log).toContainText(KNOWLEDGE.title);

  // A user hires it from the dashboard and asks on its page.
  const user = await otherContext(browser);
  try {
    await signedInUser(user.page, api, { prefix: 'cliente' });
    await user.page.goto('/dashboard');
    const available = user.page.getByRole('region', { name: 'Agentes disponíveis' });
    await available.getByRole('button', { name: `Contratar · ${displayName}` }).click();
    const hired = user.page.getByRole('region', { name: 'Seus agentes contratados' });
    await hired.getByRole('link', { name: `Conversar · ${displayName}` }).click();
    await expect(user.page).toHaveURL(new RegExp(`/agent/${name}$`));
    await expect(user.page.getByRole('heading', { level: 1, name: displayName })).toBeVisible();
    const messages = messagesRegion(user.page, `Mensagens com ${displayName}`);
    await chatReady(messages);
    await user.page
      .getByRole('textbox', { name: `Mensagem para ${displayName}` })
      .fill(KNOWLEDGE.question);
    await user.page.getByRole('button', { name: 'Enviar' }).click();
    const reply = entries(messages).last();
    await expect(reply).toContainText(KNOWLEDGE.content);
    await expect(reply.getByRole('strong').first()).toHaveText(KNOWLEDGE.title);
  } finally {
    await user.context.close();
  }
});

test('a single-agent user made in the Users tab lands on their agent, sees only it and is offered no hiring', async ({
  page,
  api,
  admin,
  browser,
}) => {
  const account = newAccount('loja');
  await openAdmin(page, api, admin, 'users');
  await page.getByRole('button', { name: 'Novo usuário de agente único' }).click();
  const dialog = page.getByRole('dialog', { name: 'Criar usuário de agente único' });
  await dialog.getByLabel('Nome completo').fill(account.name);
  await dialog.getByLabel('Endereço de e-mail').fill(account.email);
  await dialog.getByLabel('Senha').fill(account.password);
  await dialog.getByLabel('Agente').selectOption({ label: 'Auxtrat' });
  await dialog.getByRole('button', { name: 'Criar usuário' }).click();
  await expect(dialog).toBeHidden();
  await page.getByRole('searchbox', { name: 'Buscar usuários' }).fill(account.email);
  const row = page.getByRole('row', { name: account.name });
  await expect(row).toContainText(account.email);
  await expect(row).toContainText('Auxtrat');

  const user = await otherContext(browser);
  try {
    await signIn(user.page, account.email, account.password);
    await expect(user.page).toHaveURL(/\/auxtrat$/);
    await expect(user.page.getByRole('heading', { level: 1, name: 'Auxtrat' })).toBeVisible();
    const nav = user.page.getByRole('navigation', { name: 'Navegação principal' });
    await expect(nav.getByRole('link', { name: 'Auxtrat' })).toBeVisible();
    for (const other of ['Painel', 'Guia', 'Assistente', 'Indirect', 'Painel de administração'])
      await expect(nav.getByRole('link', { name: other, exact: true })).toHaveCount(0);
    await expect(nav.getByRole('button', { name: 'Administração' })).toHaveCount(0);
    // Their dashboard shows their one agent and offers nothing to hire.
    await user.page.goto('/dashboard');
    const hired = user.page.getByRole('region', { name: 'Seus agentes contratados' });
    await expect(hired.getByRole('heading', { level: 3 })).toHaveText(['Auxtrat']);
    await expect(user.page.getByRole('region', { name: 'Agentes disponíveis' })).toHaveCount(0);
    await expect(user.page.getByRole('button', { name: /^Contratar/ })).toHaveCount(0);
  } finally {
    await user.context.close();
  }
});

test('a user deactivated in the Users tab is sent to /login at once, and their sign-in is refused', async ({
  page,
  api,
  admin,
  browser,
}) => {
  const user = await otherContext(browser);
  try {
    const { account } = await signedInUser(user.page, api, { prefix: 'saida' });
    await user.page.goto('/dashboard');
    const nav = user.page.getByRole('navigation', { name: 'Navegação principal' });
    await expect(nav).toBeVisible();

    await openAdmin(page, api, admin, 'users');
    await page.getByRole('searchbox', { name: 'Buscar usuários' }).fill(account.email);
    const row = page.getByRole('row', { name: account.name });
    await expect(row).toContainText(account.email);
    await row.getByRole('button', { name: `Desativar ${account.name}` }).click();
    const confirm = page.getByRole('dialog', { name: `Desativar ${account.name}?` });
    await expect(confirm).toContainText(account.email);
    await confirm.getByRole('button', { name: 'Desativar' }).click();
    await expect(confirm).toBeHidden();
    await expect(row).toContainText('Inativo');

    // The open page goes to /login by itself, without a step of the user's: the server drops the
    // live connection of an account that may no longer sign in, and the page's check is refused.
    await expect(user.page).toHaveURL(/\/login$/);
    await signIn(user.page, account.email, account.password);
    await expect(
      user.page.getByText('Esta conta foi desativada. Entre em contato com um administrador.'),
    ).toBeVisible();
    await expect(user.page).toHaveURL(/\/login$/);
  } finally {
    await user.context.close();
  }
});

test('an agent deactivated in Agent Management leaves the available agents, and comes back when activated', async ({
  page,
  api,
  admin,
  browser,
}) => {
  const name = agentName('sumir');
  const displayName = `Sumiço ${serial}`;
  await createAgentThroughApi(api, admin, name, displayName);
  const user = await otherContext(browser);
  try {
    await signedInUser(user.page, api, { prefix: 'catalogo' });
    await user.page.goto('/dashboard');
    const available = user.page.getByRole('region', { name: 'Agentes disponíveis' });
    const offered = available.getByRole('heading', { level: 3, name: displayName });
    await expect(offered).toBeVisible();

    await openAdmin(page, api, admin, 'agents');
    const card = agentCard(page, displayName);
    // A controlled switch: clicking asks first, and it turns off once confirmed.
    await card.getByRole('switch', { name: `Ativo: ${displayName}` }).click();
    const confirm = page.getByRole('dialog', { name: `Desativar ${displayName}?` });
    await confirm.getByRole('button', { name: 'Desativar' }).click();
    await expect(confirm).toBeHidden();
    await expect(card.getByRole('switch', { name: `Ativo: ${displayName}` })).not.toBeChecked();

    await user.page.reload();
    await expect(available.getByRole('heading', { level: 3 }).first()).toBeVisible();
    await expect(offered).toHaveCount(0);

    await card.getByRole('switch', { name: `Ativo: ${displayName}` }).click();
    await expect(card.getByRole('switch', { name: `Ativo: ${displayName}` })).toBeChecked();
    await user.page.reload();
    await expect(offered).toBeVisible();
  } finally {
    await user.context.close();
  }
});

test('the AI tab saves the builtin settings and Test connection succeeds, with its latency', async ({
  page,
  api,
  admin,
}) => {
  const token = await adminToken(api, admin);
  const before = (await api.get<AiSettings>('/api/admin/ai', token)).body;
  try {
    await openAdmin(page, api, admin, 'ai');
    const provider = page.getByLabel('Provedor');
    await provider.selectOption('builtin');
    await page.getByLabel('Tempo limite (milissegundos)').fill('20000');
    await page.getByRole('button', { name: 'Salvar', exact: true }).click();
    await expect(
      page.getByRole('status').filter({ hasText: 'Configurações de IA salvas.' }),
    ).toBeVisible();
    const saved = (await api.get<AiSettings>('/api/admin/ai', token)).body;
    expect(saved).toMatchObject({ provider: 'builtin', timeoutMs: 20000 });

    await page.getByRole('button', { name: 'Testar conexão' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: /Conectado em \d+ ms\./ }),
    ).toBeVisible();
  } finally {
    const { provider, baseUrl, model, timeoutMs } = before;
    const restored = await api.post(
      '/api/admin/ai',
      { provider, baseUrl, model, timeoutMs },
      token,
    );
    expect(restored.status).toBe(200);
  }
});

test('the AI tab asks for the saved key again for another base URL, and shows the refusal on the key field', async ({
  page,
  api,
  admin,
}, testInfo) => {
  const token = await adminToken(api, admin);
  const before = (await api.get<AiSettings>('/api/admin/ai', token)).body;
  // Nothing listens there: the key is saved for it, and no test below reaches any server.
  const savedFor = 'http://127.0.0.1:9/v1';
  const saved = await api.post(
    '/api/admin/ai',
    {
      provider: 'openai',
      baseUrl: savedFor,
      model: 'modelo-e2e',
      apiKey: 'sk-e2e-key',
      timeoutMs: 5000,
    },
    token,
  );
  expect(saved.status).toBe(200);
  try {
    await openAdmin(page, api, admin, 'ai');
    const baseUrl = page.getByLabel('URL base');
    const key = page.getByLabel('Chave de API');
    await expect(key).toHaveAccessibleDescription(/Há uma chave definida/);
    await baseUrl.fill('http://127.0.0.2:9/v1');
    const retype =
      'A chave salva só é enviada ao endereço para o qual foi salva. Para usar este endereço, digite a chave novamente.';
    await expect(key).toHaveAccessibleDescription(retype);
    // The same address written another way keeps the key.
    await baseUrl.fill('HTTP://127.0.0.1:9/v1/');
    await expect(key).toHaveAccessibleDescription(/Há uma chave definida/);
    await baseUrl.fill('http://127.0.0.2:9/v1');
    await expect(key).toHaveAccessibleDescription(retype);
    await screenshot(page, testInfo, 'admin-ai-key-hint-1280');

    await page.getByRole('button', { name: 'Testar conexão' }).click();
    await expect(key).toHaveAccessibleDescription(
      /A chave de API salva só é enviada à URL base para a qual foi salva\./,
    );
    await expect(key).toBeFocused();
    for (const size of [
      { width: 1366, height: 900 },
      { width: 375, height: 812 },
    ]) {
      await page.setViewportSize(size);
      await expectNoSidewaysScroll(page, `the AI tab's key refusal at ${size.width}px`);
      await screenshot(page, testInfo, `admin-ai-key-retype-${size.width}`);
    }
  } finally {
    const { provider, baseUrl, model, timeoutMs } = before;
    // The key saved above goes too ('' removes it), whatever the address was.
    const restored = await api.post(
      '/api/admin/ai',
      { provider, baseUrl, model, timeoutMs, apiKey: '' },
      token,
    );
    expect(restored.status).toBe(200);
  }
});

test('Agent Management, Users and AI: no serious axe violations on a desktop and a phone, no sideways scroll; screenshots', async ({
  page,
  api,
  admin,
}, testInfo) => {
  const displayName = 'Visual';
  await createAgentThroughApi(api, admin, agentName('visual'), displayName);
  // A user's row (its actions, "Tornar administrador", are the widest) in the users tab.
  const someone = newAccount('visualuser');
  await api.register(someone);
  await openAdmin(page, api, admin, 'agents');
  for (const size of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(size);
    const at = `${size.width}px`;

    await page.getByRole('tab', { name: 'Gerenciamento de agentes' }).click();
    const card = agentCard(page, displayName);
    await expect(card).toBeVisible();
    await expectNoSeriousViolations(page, `the agents list at ${at}`);
    await expectNoSidewaysScroll(page, `the agents list at ${at}`);
    await screenshot(page, testInfo, `admin-agents-${size.width}`);

    // The test chat, with an answer.
    await card.getByRole('button', { name: `Testar chat com ${displayName}` }).click();
    const testChat = card.getByRole('region', { name: `Chat de teste: ${displayName}` });
    await testChat.getByRole('textbox').fill('quando chega a entrega?');
    await testChat.getByRole('textbox').press('Enter');
    await expect(testChat.getByRole('log')).toContainText('Entregamos em dois dias úteis.');
    await expectNoSeriousViolations(page, `the test chat at ${at}`);
    await expectNoSidewaysScroll(page, `the test chat at ${at}`);
    await screenshot(page, testInfo, `admin-test-chat-${size.width}`);
    await testChat.getByRole('button', { name: 'Fechar' }).click();

    // The create form, with a knowledge entry open.
    await page.getByRole('button', { name: 'Novo agente' }).click();
    await page.getByRole('button', { name: 'Adicionar entrada' }).click();
    await expectNoSeriousViolations(page, `the agent form at ${at}`);
    await expectNoSidewaysScroll(page, `the agent form at ${at}`);
    await screenshot(page, testInfo, `admin-agent-form-${size.width}`);
    await page.getByRole('button', { name: 'Cancelar' }).click();

    await page.getByRole('tab', { name: 'Usuários' }).click();
    await page.getByRole('searchbox', { name: 'Buscar usuários' }).fill(someone.email);
    const table = page.getByRole('table', { name: 'Contas de usuário' });
    await expect(table.getByRole('row', { name: someone.name })).toContainText(someone.email);
    await expect(table.getByRole('row')).toHaveCount(2);
    // Every tab in sight (no tab row scrolled sideways), and every column of the table too.
    for (const tab of await page.getByRole('tab').all()) await expect(tab).toBeInViewport();
    const tableScroll = await table.evaluate((element) => {
      const wrap = element.parentElement!;
      return { scrollWidth: wrap.scrollWidth, clientWidth: wrap.clientWidth };
    });
    expect(
      tableScroll.scrollWidth,
      `the users table scrolls sideways at ${at}`,
    ).toBeLessThanOrEqual(tableScroll.clientWidth);
    await expectNoSeriousViolations(page, `the users tab at ${at}`);
    await expectNoSidewaysScroll(page, `the users tab at ${at}`);
    await screenshot(page, testInfo, `admin-users-${size.width}`);

    await page.getByRole('tab', { name: 'IA', exact: true }).click();
    await expect(page.getByRole('button', { name: 'Testar conexão' })).toBeVisible();
    await expectNoSeriousViolations(page, `the AI tab at ${at}`);
    await expectNoSidewaysScroll(page, `the AI tab at ${at}`);
    await screenshot(page, testInfo, `admin-ai-${size.width}`);
  }
});
