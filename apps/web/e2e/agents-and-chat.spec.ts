import type { Locator, Page } from '@playwright/test';
import {
  chatReady,
  entries,
  hireAgents,
  holdReplies,
  messagesRegion,
  signedInUser,
} from './chat-helpers';
import { expect, seedSession, test } from './fixtures';

// Hiring from the dashboard and chatting on the agent pages: the dashboard, the generic agent chat
// page, the chat itself, and who may open an agent's page.

const TYPING = 'O agente está digitando…';

/** The value of one of the dashboard's stat cards. */
function statCard(page: Page, label: string): Locator {
  return page
    .getByRole('region', { name: 'Your figures' })
    .locator('div')
    .filter({ has: page.getByRole('term').getByText(label, { exact: true }) })
    .getByRole('definition');
}

test('hiring from the dashboard moves the agent to Your Hired Agents without a reload; Chat opens its page (en-US)', async ({
  page,
  api,
}) => {
  await signedInUser(page, api, { prefix: 'contrata', language: 'en-US' });
  await page.goto('/dashboard');
  const hiredSection = page.getByRole('region', { name: 'Your Hired Agents' });
  const availableSection = page.getByRole('region', { name: 'Available Agents' });
  const hiredCount = statCard(page, 'Hired agents');

  // A new account has guia only; administrador is not offered to a user.
  await expect(hiredSection.getByRole('heading', { level: 3 })).toHaveText(['Guide']);
  await expect(availableSection.getByRole('heading', { level: 3 })).toHaveText([
    'Assistant',
    'Auxtrat',
    'Indirect',
  ]);
  await expect(hiredCount).toHaveText('1');
  await page.evaluate(() => Object.assign(window, { e2eNoReload: true }));

  await availableSection.getByRole('button', { name: 'Hire · Assistant' }).click();
  await expect(hiredSection.getByRole('heading', { level: 3 })).toHaveText(['Guide', 'Assistant']);
  await expect(availableSection.getByRole('heading', { level: 3 })).toHaveText([
    'Auxtrat',
    'Indirect',
  ]);
  await expect(availableSection.getByRole('button', { name: /^Hire/ })).toHaveCount(2);
  await expect(hiredCount).toHaveText('2');
  expect(await page.evaluate(() => 'e2eNoReload' in window)).toBe(true);

  await hiredSection.getByRole('link', { name: 'Chat · Assistant' }).click();
  await expect(page).toHaveURL(/\/assistente$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Assistant' })).toBeVisible();
  await expect(messagesRegion(page, 'Messages with Assistant')).toContainText(
    "Hello! I'm the Assistant. How can I help you today?",
  );
});

type Journey = {
  path: string;
  displayName: string;
  welcome: string;
  question: string;
  /** Checks the finished reply, within the messages region. */
  reply: (reply: Locator) => Promise<void>;
};

const JOURNEYS: Journey[] = [
  {
    path: 'guia',
    displayName: 'Guia',
    welcome: 'Olá! Eu sou o Guia.',
    question: 'como contrato um agente?',
    reply: async (reply) => {
      await expect(reply.getByRole('strong').first()).toHaveText('Contratar um agente');
      await expect(reply).toContainText('Agentes disponíveis');
      await expect(reply.getByRole('link', { name: '/dashboard' })).toHaveAttribute(
        'href',
        '/dashboard',
      );
    },
  },
  {
    path: 'assistente',
    displayName: 'Assistente',
    welcome: 'Olá! Eu sou o Assistente. Em que posso ajudar hoje?',
    question: 'quanto é 2 + 3 * 4?',
    reply: async (reply) => {
      await expect(reply).toContainText(/=\s*14/);
      await expect(reply.getByRole('strong')).toHaveText('14');
    },
  },
  {
    path: 'auxtrat',
    displayName: 'Auxtrat',
    welcome: 'Olá! Eu sou o Auxtrat.',
    question: 'quanto custa a consultoria?',
    reply: async (reply) => {
      await expect(reply.getByRole('strong').first()).toHaveText('Consultoria de gestão');
      await expect(reply).toContainText(/R\$\s?1\.800,00/);
    },
  },
  {
    path: 'indirect',
    displayName: 'Indirect',
    welcome: 'Olá! Eu sou o Indirect.',
    question: 'a mensagem é anônima?',
    reply: async (reply) => {
      await expect(reply.getByRole('strong').first()).toHaveText(
        'Como funcionam as mensagens anônimas',
      );
    },
  },
  {
    path: 'administrador',
    displayName: 'Administrador',
    welcome: 'Olá! Eu sou o Administrador.',
    question: 'quantos usuários?',
    // The worker's database has the admin and every account the tests made so far.
    reply: async (reply) => {
      await expect(reply).toContainText(/Há \d+ usuários? cadastrados?\./);
    },
  },
];

test.describe('each agent page answers with a streamed reply from the builtin engine', () => {
  for (const journey of JOURNEYS) {
    test(`/${journey.path}: ${journey.question}`, async ({ page, api, admin }) => {
      if (journey.path === 'administrador') {
        await api.ensureAdminMode(admin);
        const session = await api.login(admin);
        await hireAgents(api, session.token, ['administrador']);
        await seedSession(page, session);
      } else {
        const hire = journey.path === 'guia' ? [] : [journey.path];
        await signedInUser(page, api, { prefix: journey.path, hire });
      }
      const held = await holdReplies(page);
      await page.goto(`/${journey.path}`);
      await expect(
        page.getByRole('heading', { level: 1, name: journey.displayName }),
      ).toBeVisible();
      const messages = messagesRegion(page, `Mensagens com ${journey.displayName}`);
      await chatReady(messages);
      // The shared admin may have talked to this agent before (a repeated run): start afresh.
      await page.getByRole('button', { name: 'Limpar conversa' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Limpar conversa' }).click();
      await expect(entries(messages)).toHaveCount(1);
      await expect(entries(messages)).toContainText(journey.welcome);

      const streamed = page.waitForResponse('**/api/chat/message');
      await page
        .getByRole('textbox', { name: `Mensagem para ${journey.displayName}` })
        .fill(journey.question);
      await page.getByRole('button', { name: 'Enviar' }).click();

      // Held: the question is shown and the typing indicator stands in for the reply.
      await expect(entries(messages)).toHaveCount(3);
      await expect(entries(messages).nth(1)).toContainText(journey.question);
      const typing = messages.getByRole('status').filter({ hasText: TYPING });
      await expect(typing).toBeVisible();
      await expect(entries(messages).nth(2)).toHaveText(TYPING);
      expect(held.requests).toHaveLength(1);
      expect(held.requests[0]?.headers()['accept']).toContain('text/event-stream');

      held.release();
      // The reply comes as server-sent events (the body is read by the page as a stream).
      expect((await streamed).headers()['content-type']).toContain('text/event-stream');

      await expect(typing).toHaveCount(0);
      const reply = entries(messages).nth(2);
      await journey.reply(reply);
      await expect(reply.getByRole('time')).toBeVisible();
    });
  }
});

test('Enter sends, Shift+Enter adds a line, blank messages are not sent, and nothing is sent while a reply is pending', async ({
  page,
  api,
}) => {
  await signedInUser(page, api, { prefix: 'teclado' });
  const held = await holdReplies(page);
  await page.goto('/guia');
  const messages = messagesRegion(page, 'Mensagens com Guia');
  await chatReady(messages);
  const box = page.getByRole('textbox', { name: 'Mensagem para Guia' });
  const send = page.getByRole('button', { name: 'Enviar' });

  // Blank: neither the button nor Enter sends it.
  await expect(send).toBeDisabled();
  await box.fill('   \n   ');
  await expect(send).toBeDisabled();
  await box.press('Enter');
  await expect(box).toHaveValue('   \n   ');
  await expect(entries(messages)).toHaveCount(1);

  // Shift+Enter: a new line, nothing sent.
  await box.fill('');
  await box.pressSequentially('como contrato');
  await box.press('Shift+Enter');
  await box.pressSequentially('um agente?');
  await expect(box).toHaveValue('como contrato\num agente?');
  await expect(entries(messages)).toHaveCount(1);
  expect(held.requests).toHaveLength(0);

  // Enter: sent, both lines kept in the bubble; the box empties.
  await box.press('Enter');
  await expect(box).toHaveValue('');
  await expect(entries(messages)).toHaveCount(3);
  await expect
    .poll(() => entries(messages).nth(1).getByRole('paragraph').innerText())
    .toBe('como contrato\num agente?');
  // The bubble shows before the request reaches the network: wait for it to arrive.
  await expect.poll(() => held.requests.length).toBe(1);
  expect(held.requests.map((request) => request.postDataJSON() as { message: string })).toEqual([
    expect.objectContaining({ message: 'como contrato\num agente?', agentName: 'guia' }),
  ]);

  // Pending: the box stays editable, Enter does not send, and Stop stands in for Send.
  await expect(messages.getByRole('status').filter({ hasText: TYPING })).toBeVisible();
  await box.fill('e como troco o idioma?');
  await expect(send).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Parar' })).toBeVisible();
  await box.press('Enter');
  await expect(box).toHaveValue('e como troco o idioma?');
  await expect(entries(messages)).toHaveCount(3);
  expect(held.requests).toHaveLength(1);

  held.release();
  await expect(entries(messages).nth(2).getByRole('strong').first()).toHaveText(
    'Contratar um agente',
  );
  await expect(send).toBeEnabled();
  await box.press('Enter');
  await expect(entries(messages)).toHaveCount(5);
  await expect(entries(messages).nth(4).getByRole('strong').first()).toHaveText('Trocar o idioma');
  expect(held.requests).toHaveLength(2);
});

test('Clear Chat shows only the welcome again; a revisit or reload shows the latest conversation (en-US)', async ({
  page,
  api,
}) => {
  const { session } = await signedInUser(page, api, { prefix: 'limpa', language: 'en-US' });
  await page.goto('/guia');
  const messages = messagesRegion(page, 'Messages with Guide');
  await chatReady(messages);
  const box = page.getByRole('textbox', { name: 'Message to Guide' });
  const nav = page.getByRole('navigation', { name: 'Main navigation' });

  await box.fill('how do I hire an agent');
  await box.press('Enter');
  await expect(entries(messages).nth(2).getByRole('strong').first()).toHaveText('Hire an agent');

  // Away and back (client-side), then a reload: the conversation is there each time.
  await nav.getByRole('link', { name: 'Dashboard' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await nav.getByRole('link', { name: 'Guide' }).click();
  await chatReady(messages);
  await expect(entries(messages)).toHaveCount(3);
  await expect(entries(messages).nth(1)).toContainText('how do I hire an agent');
  await expect(entries(messages).nth(2).getByRole('strong').first()).toHaveText('Hire an agent');
  await page.reload();
  await chatReady(messages);
  await expect(entries(messages)).toHaveCount(3);
  await expect(entries(messages).nth(1)).toContainText('how do I hire an agent');

  // Clear Chat asks first.
  await page.getByRole('button', { name: 'Clear Chat' }).click();
  await page
    .getByRole('dialog', { name: 'Clear the chat?' })
    .getByRole('button', { name: 'Clear Chat' })
    .click();
  await expect(entries(messages)).toHaveCount(1);
  await expect(entries(messages)).toContainText("Hello! I'm the Guide.");
  await expect(box).toBeFocused();

  await box.fill('change language');
  await box.press('Enter');
  await expect(entries(messages).nth(2).getByRole('strong').first()).toHaveText(
    'Change the language',
  );
  await page.reload();
  await chatReady(messages);
  await expect(entries(messages)).toHaveCount(3);
  await expect(entries(messages).nth(1)).toContainText('change language');
  await expect(messages).not.toContainText('how do I hire an agent');

  // The first conversation was kept.
  const listed = await api.get<{ conversations: { messageCount: number }[] }>(
    '/api/chat/conversations?agentName=guia',
    session.token,
  );
  expect(listed.body.conversations.map((c) => c.messageCount)).toEqual([2, 2]);
});

// Rather than a silent redirect to /guia, the page says the agent is not hired yet and hires it on
// the spot; an agent not there for the account is not found.
test("an unhired agent's page offers to hire it, then opens its chat", async ({ page, api }) => {
  const { session } = await signedInUser(page, api, { prefix: 'semacesso' });
  await page.goto('/assistente');
  await expect(page.getByText('Você ainda não contratou este agente.')).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Assistente' })).toBeVisible();
  await page.getByRole('button', { name: 'Contratar Assistente' }).click();
  await expect(page.getByRole('textbox', { name: 'Mensagem para Assistente' })).toBeVisible();
  await expect(page).toHaveURL(/\/assistente$/);
  const hired = await api.get<{ agents: { name: string }[] }>('/api/agents/user', session.token);
  expect(hired.body.agents.map((agent) => agent.name)).toContain('assistente');
});

test("an agent's page that is not there for the account is not found, with a way back", async ({
  page,
  api,
}) => {
  await signedInUser(page, api, { prefix: 'semacesso' });
  for (const path of ['/administrador', '/agent/nao-existe']) {
    await page.goto(path);
    await expect(
      page.getByRole('heading', { level: 1, name: 'Página não encontrada' }),
    ).toBeVisible();
    await expect(page.getByRole('button', { name: /^Contratar/ })).toHaveCount(0);
  }
  await page.getByRole('main').getByRole('link', { name: 'Voltar ao início' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('a hostile message is shown as text: nothing runs and no element is added', async ({
  page,
  api,
}) => {
  const hostile = '<img src=x onerror=alert(1)><script>alert(2)</script>**bold**';
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  await signedInUser(page, api, { prefix: 'hostil' });
  await page.goto('/guia');
  const messages = messagesRegion(page, 'Mensagens com Guia');
  await chatReady(messages);
  const box = page.getByRole('textbox', { name: 'Mensagem para Guia' });
  await box.fill(hostile);
  await box.press('Enter');
  await expect(entries(messages)).toHaveCount(3);
  await expect(messages.getByRole('status').filter({ hasText: TYPING })).toHaveCount(0);
  // Guia answers it as any message it has no answer for, without quoting it back.
  const reply = entries(messages).nth(2);
  await expect(reply.getByRole('paragraph')).toHaveText(
    'Não encontrei uma resposta para isso no que eu sei. Posso ajudar com:',
  );
  await expect(reply.getByRole('listitem')).toHaveText([
    'Trocar o idioma',
    'Conversar com um agente',
    'Limpar a conversa',
  ]);

  const check = async () => {
    const bubble = entries(messages).nth(1).getByRole('paragraph');
    await expect(bubble).toHaveText(hostile);
    await expect(messages.locator('script')).toHaveCount(0);
    await expect(messages.locator('img[src="x"], img[src$="/x"]')).toHaveCount(0);
    await expect(entries(messages).nth(1).getByRole('strong')).toHaveCount(0);
  };
  await check();
  // From the stored history too.
  await page.reload();
  await chatReady(messages);
  await expect(entries(messages)).toHaveCount(3);
  await check();
  expect(dialogs).toEqual([]);
});
