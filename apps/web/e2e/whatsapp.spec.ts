import fs from 'node:fs';
import path from 'node:path';
import type { Locator, Page } from '@playwright/test';
import type { MyAgentInput } from '@contrateia/shared';
import { chatReady, chatThroughApi, entries, messagesRegion, signedInUser } from './chat-helpers';
import { qrText } from '../../server/test/qr';
import {
  expect,
  seedSession,
  startServer,
  test as base,
  type Api,
  type TestServer,
} from './fixtures';
import {
  asShown,
  chatMessages,
  connectByQr,
  contactWrites,
  conversationItem,
  linkPlatform,
  newNumber,
  openButton,
  sentByPhone,
  shot,
} from './whatsapp-helpers';

// The WhatsApp pages against the sandbox transport. The QR code the page shows is read from its
// image, as a phone's camera would, and opened in a second tab (the sandbox's phone page); contacts
// write through the sandbox's control API, and what the contact's phone got is read back from the
// sandbox's record of it.

/** The example business (a dental clinic in Curitiba), as a POST /api/my-agents body. */
const CLINIC = JSON.parse(
  fs.readFileSync(
    path.resolve(import.meta.dirname, '../../server/test/examples/clinica-sorriso.json'),
    'utf8',
  ),
) as MyAgentInput;

/** A number as the pages show it: +55 11 98765-4321. */
const formatted = (digits: string) =>
  `+${digits.slice(0, 2)} ${digits.slice(2, 4)} ${digits.slice(4, -4)}-${digits.slice(-4)}`;

type Started = Awaited<ReturnType<typeof startServer>>;
const test = base.extend<
  object,
  { started: Started; server: TestServer; restartServer: () => Promise<void> }
>({
  started: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      // Replies at once: the wait for a burst's end and the typing time are the server suites'
      // (whatsapp.pacing.int.test.ts); here they would only slow each journey by seconds.
      const started = await startServer({
        WHATSAPP_TRANSPORT: 'sandbox',
        WHATSAPP_DEBOUNCE_MS: '0',
        WHATSAPP_TYPING_MS_PER_CHAR: '0',
      });
      await use(started);
      await started.stop();
    },
    { scope: 'worker', timeout: 90_000 },
  ],
  server: [async ({ started }, use) => use(started.server), { scope: 'worker' }],
  restartServer: [async ({ started }, use) => use(started.restart), { scope: 'worker' }],
});

test('connect by the QR, a message arrives live with the agent’s reply, AI off then a manual reply, delete', async ({
  page,
  context,
  api,
}, testInfo) => {
  const { session } = await signedInUser(page, api, { prefix: 'zap' });
  await page.goto('/whatsapp');
  await expect(page.getByRole('heading', { level: 1, name: 'WhatsApp' })).toBeVisible();
  await expect(
    page.getByText(
      'Nenhuma conversa ainda. Elas aparecem aqui quando alguém escreve para o seu número.',
    ),
  ).toBeVisible();
  const phone = newNumber();
  await connectByQr(page, context, phone, testInfo);

  // A contact writes: the conversation and the message appear without a reload, then the reply.
  const carla = newNumber();
  await contactWrites(api, phone, carla, 'Olá! Como conecto meu WhatsApp?', 'Carla');
  const item = conversationItem(page, 'Carla');
  // Its last message is the contact's or, already, the agent's reply.
  await expect(item).toBeVisible();
  await expect(page.getByText('1 conversa', { exact: true })).toBeVisible();
  await openButton(item, 'Carla').click();
  await expect(page.getByRole('heading', { level: 2, name: 'Carla' })).toBeVisible();
  await expect(page.getByText('Assistente de IA ativo')).toBeVisible();
  const messages = chatMessages(page);
  await expect(messages.first()).toContainText('Olá! Como conecto meu WhatsApp?');
  // The agent's reply, shown as the phone shows what it sent: WhatsApp's *marks* as bold.
  await expect.poll(() => sentByPhone(api, phone, session.token)).toHaveLength(1);
  const [reply] = await sentByPhone(api, phone, session.token);
  expect(reply!.to).toBe(carla);
  expect(reply!.text.trim()).not.toBe('');
  const bold = [...reply!.text.matchAll(/\*([^*\n]+)\*/g)].map((match) => match[1]!);
  expect(bold.length).toBeGreaterThan(0);
  await expect(messages).toHaveCount(2);
  await expect(messages.nth(1)).toContainText('Guia (IA)');
  const shown = messages.nth(1).locator('.wa-message__text');
  await expect(shown).toHaveText(asShown(reply!.text));
  await expect(shown.locator('strong')).toHaveText(bold);
  await shot(page, testInfo, 'agent-reply');

  // AI off: the contact's next message is shown, unanswered; the owner replies by hand.
  await item.getByRole('button', { name: 'IA LIGADA' }).click();
  await expect(item.getByRole('button', { name: 'IA DESLIGADA' })).toHaveAttribute(
    'aria-pressed',
    'false',
  );
  await expect(page.getByText('Modo manual')).toBeVisible();
  await contactWrites(api, phone, carla, 'E até que horas?', 'Carla');
  await expect(messages).toHaveCount(3);
  await expect(messages.nth(2)).toContainText('E até que horas?');
  const box = page.getByRole('textbox', { name: 'Mensagem para Carla' });
  await box.fill('Até as 18h, Carla!');
  await box.press('Enter');
  await expect(messages).toHaveCount(4);
  await expect(messages.nth(3)).toContainText('Você');
  await expect(messages.nth(3)).toContainText('Até as 18h, Carla!');
  await expect(box).toHaveValue('');
  // The phone sent the manual reply and nothing for the message that came while AI was off.
  await expect
    .poll(() => sentByPhone(api, phone, session.token))
    .toEqual([reply, { to: carla, text: 'Até as 18h, Carla!' }]);
  await shot(page, testInfo, 'manual-reply');

  // The list and the chat say the same after a reload (the server kept it all).
  await page.reload();
  await expect(
    conversationItem(page, 'Carla').getByRole('button', { name: 'IA DESLIGADA' }),
  ).toBeVisible();

  // Delete, after the confirmation.
  await conversationItem(page, 'Carla')
    .getByRole('button', { name: 'Excluir a conversa com Carla' })
    .click();
  const confirm = page.getByRole('dialog', { name: 'Excluir conversa' });
  await expect(confirm).toContainText('Tem certeza de que deseja excluir esta conversa?');
  await shot(page, testInfo, 'delete-confirm');
  await confirm.getByRole('button', { name: 'Excluir' }).click();
  await expect(confirm).toHaveCount(0);
  await expect(conversationItem(page, 'Carla')).toHaveCount(0);
  await expect(page.getByText('0 conversas', { exact: true })).toBeVisible();
});

test('enhanced page: whitelist mode leaves a new contact pending and unanswered; whitelisted and given an agent, it is answered', async ({
  page,
  context,
  api,
}, testInfo) => {
  const { session } = await signedInUser(page, api, { prefix: 'zapmais', hire: ['auxtrat'] });
  await page.goto('/whatsapp-enhanced');
  await expect(page.getByRole('heading', { level: 1, name: 'WhatsApp avançado' })).toBeVisible();
  const phone = newNumber();
  await connectByQr(page, context, phone, testInfo);

  const mode = page.getByRole('switch', { name: 'Modo lista de permissões' });
  await expect(mode).not.toBeChecked();
  // Switched once the server took it.
  await mode.click();
  await expect(mode).toBeChecked();

  const dora = newNumber();
  await contactWrites(api, phone, dora, 'Bom dia! Quero um orçamento.', 'Dora');
  const item = conversationItem(page, 'Dora');
  await expect(item.getByRole('img', { name: 'Pendente' })).toBeVisible();
  const whitelist = item.getByRole('button', { name: 'Lista de permissões' });
  await expect(whitelist).toHaveAttribute('aria-pressed', 'false');
  await expect(page.getByLabel('Resumo')).toContainText('Conversas1');
  await openButton(item, 'Dora').click();
  await expect(chatMessages(page)).toHaveCount(1);
  await shot(page, testInfo, 'enhanced-pending');

  await whitelist.click();
  await expect(whitelist).toHaveAttribute('aria-pressed', 'true');
  await expect(item.getByRole('img', { name: 'Ativa' })).toBeVisible();
  await expect(page.getByLabel('Resumo')).toContainText('Na lista de permissões1');

  await item.getByRole('button', { name: 'Atribuir agente' }).click();
  const assign = page.getByRole('dialog', { name: 'Atribuir agente' });
  await expect(assign.getByRole('group', { name: 'Qual agente responde Dora?' })).toBeVisible();
  await assign.getByRole('radio', { name: /Auxtrat/ }).check();
  await shot(page, testInfo, 'assign-dialog');
  await assign.getByRole('button', { name: 'Atribuir' }).click();
  await expect(assign).toHaveCount(0);
  await expect(item.getByRole('button', { name: 'Agente: Auxtrat' })).toBeVisible();
  await expect(page.getByLabel('Resumo')).toContainText('Com agente1');

  // Nothing went to Dora while she was pending; now Auxtrat answers her.
  expect(await sentByPhone(api, phone, session.token)).toEqual([]);
  await contactWrites(api, phone, dora, 'Ainda estão aí?', 'Dora');
  const messages = chatMessages(page);
  await expect(messages).toHaveCount(3);
  await expect(messages.nth(2)).toContainText('Auxtrat (IA)');
  const sent = await sentByPhone(api, phone, session.token);
  expect(sent).toEqual([{ to: dora, text: expect.any(String) }]);
  await expect(messages.nth(2).locator('.wa-message__text')).toHaveText(asShown(sent[0]!.text));
  await expect(
    page.getByRole('tablist', { name: 'Conversas ativas' }).getByRole('tab', { name: /Dora/ }),
  ).toBeVisible();
  await shot(page, testInfo, 'enhanced-answered');
});

test('on a 375 px phone: the list, then the conversation full screen, a manual reply, back, delete', async ({
  page,
  context,
  api,
}, testInfo) => {
  await page.setViewportSize({ width: 375, height: 740 });
  const { session } = await signedInUser(page, api, { prefix: 'zapcel', hire: ['auxtrat'] });
  await page.goto('/whatsapp-enhanced');
  const phone = newNumber();
  await connectByQr(page, context, phone, testInfo);
  // Nothing wider than the screen.
  const overflow = () =>
    page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
  expect(await overflow()).toBeLessThanOrEqual(0);

  const eva = newNumber();
  await contactWrites(api, phone, eva, 'Oi! Vocês entregam no centro?', 'Eva');
  const item = conversationItem(page, 'Eva');
  await expect(item).toBeVisible();
  await expect.poll(() => sentByPhone(api, phone, session.token)).toHaveLength(1);
  await shot(page, testInfo, 'phone-list');
  expect(await overflow()).toBeLessThanOrEqual(0);

  await item.getByRole('button', { name: 'IA LIGADA' }).click();
  await expect(item.getByRole('button', { name: 'IA DESLIGADA' })).toBeVisible();
  await openButton(item, 'Eva').click();
  const title = page.getByRole('heading', { level: 2, name: 'Eva' });
  await expect(title).toBeFocused();
  await expect(page.getByRole('region', { name: 'Conversas', exact: true })).toBeHidden();
  await expect(chatMessages(page)).toHaveCount(2);
  await expect(chatMessages(page).first()).toContainText('Oi! Vocês entregam no centro?');
  const box = page.getByRole('textbox', { name: 'Mensagem para Eva' });
  await box.fill('Entregamos sim!');
  await page.getByRole('button', { name: 'Enviar' }).click();
  await expect(chatMessages(page)).toHaveCount(3);
  await expect(chatMessages(page).nth(2)).toContainText('Entregamos sim!');
  await expect
    .poll(async () => (await sentByPhone(api, phone, session.token)).at(-1))
    .toEqual({ to: eva, text: 'Entregamos sim!' });
  await shot(page, testInfo, 'phone-chat');
  expect(await overflow()).toBeLessThanOrEqual(0);

  await page.getByRole('button', { name: 'Voltar às conversas' }).click();
  await expect(openButton(item, 'Eva')).toBeFocused();
  await item.getByRole('button', { name: 'Excluir a conversa com Eva' }).click();
  const confirm = page.getByRole('dialog', { name: 'Excluir conversa' });
  await shot(page, testInfo, 'phone-delete');
  await confirm.getByRole('button', { name: 'Excluir' }).press('Enter');
  await expect(item).toHaveCount(0);
  // Its Delete button is gone with it: focus goes to the list (none left), not the page's body.
  await expect(page.getByRole('heading', { level: 2, name: 'Conversas' })).toBeFocused();
});

test('on a 390×844 phone, an open conversation fills the screen: the message box in view, the messages scroll inside', async ({
  page,
  context,
  api,
}, testInfo) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const { session } = await signedInUser(page, api, { prefix: 'zapalto', hire: ['auxtrat'] });
  await page.goto('/whatsapp-enhanced');
  const phone = newNumber();
  await connectByQr(page, context, phone, testInfo);

  // A conversation longer than the screen, left to the owner (AI off after the first reply).
  const gil = newNumber();
  const paragraph = 'Uma mensagem comprida, para a conversa passar da altura da tela. '.repeat(6);
  await contactWrites(api, phone, gil, paragraph, 'Gil');
  // Answered (in one message or in parts: how long the answer is does not matter here).
  await expect
    .poll(async () => (await sentByPhone(api, phone, session.token)).length)
    .toBeGreaterThan(0);
  const item = conversationItem(page, 'Gil');
  await item.getByRole('button', { name: 'IA LIGADA' }).click();
  await expect(item.getByRole('button', { name: 'IA DESLIGADA' })).toBeVisible();
  for (let i = 0; i < 2; i += 1) await contactWrites(api, phone, gil, paragraph, 'Gil');

  await openButton(item, 'Gil').click();
  await expect(page.getByRole('heading', { level: 2, name: 'Gil' })).toBeFocused();
  const long = chatMessages(page).filter({ hasText: 'Uma mensagem comprida' });
  await expect(long).toHaveCount(3);
  await shot(page, testInfo, 'phone-390-chat', { fullPage: false });
  // No scrolling the page to reach the box: the conversation fills the screen, and its messages
  // scroll inside it, the newest in view.
  const box = page.getByRole('textbox', { name: 'Mensagem para Gil' });
  await expectInView(page, box);
  await expectInView(page, page.getByRole('button', { name: 'Voltar às conversas' }));
  expect(await pageScroll(page)).toBeLessThanOrEqual(0);
  const messages = page.getByRole('list', { name: 'Mensagens', exact: true });
  expect(await messages.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);
  await expect(long.last()).toBeInViewport();

  await box.fill('Já respondo, Gil!');
  await box.press('Enter');
  const mine = chatMessages(page).filter({ hasText: 'Já respondo, Gil!' });
  await expect(mine).toBeInViewport();
  await expectInView(page, box);
  expect(await pageScroll(page)).toBeLessThanOrEqual(0);
  await shot(page, testInfo, 'phone-390-reply', { fullPage: false });

  // Back: the list, with the connection and the settings, as before.
  await page.getByRole('button', { name: 'Voltar às conversas' }).click();
  await expect(openButton(item, 'Gil')).toBeFocused();
  await expect(page.getByRole('region', { name: 'Conexão' })).toBeVisible();
  await expect(page.getByRole('switch', { name: 'Modo lista de permissões' })).toBeVisible();
});

// A long conversation opens on its newest page, and scrolling up loads the older ones without
// moving what is in view.
for (const width of [1366, 375]) {
  test(`at ${width} px a conversation of 120 messages opens on its newest; scrolling up loads the older ones in place`, async ({
    page,
    context,
    api,
  }, testInfo) => {
    // Its setup is 118 sends from the phone, one after the other so that their order is known:
    // on a machine shared with other work they alone can take the default 45 s.
    test.setTimeout(120_000);
    await page.setViewportSize({ width, height: width > 500 ? 800 : 740 });
    const { session } = await signedInUser(page, api, { prefix: `zaplonga${width}` });
    await page.goto('/whatsapp');
    const phone = newNumber();
    await connectByQr(page, context, phone, testInfo);
    // Lia writes and guia answers; the owner then writes 118 times from the phone (never answered).
    const lia = newNumber();
    await contactWrites(api, phone, lia, 'Oi! Vocês entregam no sábado?', 'Lia');
    await expect.poll(() => sentByPhone(api, phone, session.token)).toHaveLength(1);
    for (let n = 1; n <= 118; n += 1) {
      const res = await api.post(
        '/api/whatsapp/sandbox/outbound',
        { from: phone, to: `${lia}@s.whatsapp.net`, text: `Mensagem ${n} do celular` },
        session.token,
      );
      expect(res.status).toBe(200);
    }
    const item = conversationItem(page, 'Lia');
    await expect(item).toContainText('Mensagem 118 do celular');
    await openButton(item, 'Lia').click();

    const messages = chatMessages(page);
    await expect(messages).toHaveCount(50);
    await expect(messages.last()).toContainText('Mensagem 118 do celular');
    await expect(messages.last()).toBeInViewport();
    await shot(page, testInfo, `long-${width}-newest`, { fullPage: false });

    // To the top: the 50 before them load above, and the message that was first stays in view.
    const list = page.getByRole('list', { name: 'Mensagens', exact: true });
    const firstShown = messages.filter({ hasText: 'Mensagem 69 do celular' });
    await list.evaluate((el) => el.scrollTo({ top: 0 }));
    await expect(messages).toHaveCount(100);
    await expect(firstShown).toBeInViewport();
    await shot(page, testInfo, `long-${width}-older`, { fullPage: false });

    await list.evaluate((el) => el.scrollTo({ top: 0 }));
    await expect(messages).toHaveCount(120);
    await expect(messages.first()).toContainText('Oi! Vocês entregam no sábado?');
    await expect(page.getByRole('button', { name: 'Mostrar mensagens anteriores' })).toHaveCount(0);
  });
}

test('the server restarts mid-conversation: the page says it is reconnecting, then is live again, and a new message still appears', async ({
  page,
  context,
  api,
  restartServer,
  consoleErrors,
}, testInfo) => {
  const { session } = await signedInUser(page, api, { prefix: 'zapreinicio' });
  await page.goto('/whatsapp');
  const phone = newNumber();
  await connectByQr(page, context, phone, testInfo);
  const fabio = newNumber();
  await contactWrites(api, phone, fabio, 'Olá, tudo bem?', 'Fábio');
  const item = conversationItem(page, 'Fábio');
  await openButton(item, 'Fábio').click();
  const messages = chatMessages(page);
  await expect(messages).toHaveCount(2);

  const connection = page.getByRole('region', { name: 'Conexão' });
  const restarted = restartServer();
  await expect(
    connection.getByText('Atualizações ao vivo interrompidas: reconectando…'),
  ).toBeVisible();
  // The page hears nothing meanwhile: the indicator does not claim the number is still linked.
  await expect(connection.getByRole('status').first()).toHaveText('Status da conexão desconhecido');
  await shot(page, testInfo, 'restart-reconnecting');
  await restarted;
  await expect(connection.getByText(/atualizações ao vivo/i)).toHaveCount(0);
  await expect(connection.getByRole('status').first()).toHaveText(`Conectado como +${phone}`);

  await contactWrites(api, phone, fabio, 'Como conecto meu WhatsApp?', 'Fábio');
  await expect(messages.nth(2)).toContainText('Como conecto meu WhatsApp?');
  await expect(messages).toHaveCount(4);
  await expect(item).toBeVisible();
  await expect.poll(async () => (await sentByPhone(api, phone, session.token)).length).toBe(2);
  await shot(page, testInfo, 'restart-live-again');
  // Chromium logs each refused reconnection attempt while the server is down: provoked here on
  // purpose, not an app error.
  const refused = /^WebSocket connection to '.*\/socket\.io\/.*' failed: .*ERR_CONNECTION_REFUSED$/;
  consoleErrors.splice(
    0,
    consoleErrors.length,
    ...consoleErrors.filter((error) => !refused.test(error)),
  );
});

test('a session ended elsewhere ends the WhatsApp page too: the live connection is dropped and the page goes to sign-in', async ({
  page,
  api,
}) => {
  const { session } = await signedInUser(page, api, { prefix: 'zapsaida' });
  await page.goto('/whatsapp');
  const connection = page.getByRole('region', { name: 'Conexão' });
  await expect(connection.getByRole('status').first()).toHaveText('Não conectado');
  await expect(connection.getByText(/atualizações ao vivo/i)).toHaveCount(0);

  // Signed out from another device: nothing on this page asks the API by itself.
  expect((await api.post('/api/logout', {}, session.token)).status).toBe(200);
  await expect(page).toHaveURL(/\/login$/);
  expect(await page.evaluate(() => window.localStorage.getItem('token'))).toBeNull();
});

/** How far the page scrolls down: 0 when it fits the screen. */
function pageScroll(page: Page): Promise<number> {
  return page.evaluate(() => document.documentElement.scrollHeight - window.innerHeight);
}

/** `locator`'s box lies inside the screen (the page scrolled to its top). */
async function expectInView(page: Page, locator: Locator): Promise<void> {
  const box = await locator.boundingBox();
  const viewport = page.viewportSize()!;
  expect(box).not.toBeNull();
  expect(box!.y).toBeGreaterThanOrEqual(0);
  expect(box!.y + box!.height).toBeLessThanOrEqual(viewport.height);
}

test('at 1280×800 both pages fit the screen: no scroll from hidden text, the message box and a send error in view', async ({
  page,
  context,
  api,
}, testInfo) => {
  test.setTimeout(90_000);
  const { session } = await signedInUser(page, api, { prefix: 'zaptela' });
  await page.goto('/whatsapp-enhanced');
  const phone = newNumber();
  await connectByQr(page, context, phone, testInfo);

  // Enough conversations, each with an unread count (its words hidden from sight), for the list
  // to scroll; and one long conversation for the messages to scroll.
  const contacts = Array.from({ length: 8 }, (_, i) => ({
    name: `Pessoa ${i + 1}`,
    number: newNumber(),
  }));
  for (const contact of contacts) {
    await contactWrites(api, phone, contact.number, 'Olá, tudo bem?', contact.name);
  }
  const long = contacts[0]!;
  // Questions guia answers: nothing here is handed over (which would pause the conversation).
  const paragraph = 'Como conecto meu WhatsApp pelo QR code no celular? '.repeat(6);
  for (let i = 0; i < 3; i += 1) await contactWrites(api, phone, long.number, paragraph, long.name);
  await expect(page.getByText('8 conversas', { exact: true })).toBeVisible();
  await expect(conversationItem(page, contacts.at(-1)!.name)).toBeVisible();

  for (const path of ['/whatsapp-enhanced', '/whatsapp']) {
    await page.goto(path);
    await expect(conversationItem(page, contacts.at(-1)!.name)).toBeVisible();
    // Its unread count, said in words hidden from sight.
    await expect(
      conversationItem(page, contacts.at(-1)!.name).getByRole('button', {
        name: /1 mensagem não lida$/,
      }),
    ).toBeVisible();
    // The list scrolls inside its column; the page itself does not scroll at all.
    expect(await pageScroll(page)).toBeLessThanOrEqual(0);

    await openButton(conversationItem(page, long.name), long.name).click();
    const box = page.getByRole('textbox', { name: `Mensagem para ${long.name}` });
    await expect(
      chatMessages(page).filter({ hasText: 'Como conecto meu WhatsApp pelo QR code no celular?' }),
    ).toHaveCount(3);
    await expectInView(page, box);
    expect(await pageScroll(page)).toBeLessThanOrEqual(0);
    const list = page.getByRole('list', { name: 'Mensagens', exact: true });
    expect(await list.evaluate((el) => el.scrollHeight > el.clientHeight)).toBe(true);
    await shot(page, testInfo, `fit${path.replace('/', '-')}-1280`, { fullPage: false });
  }

  // Active Conversations: the focus ring of the first tab is not cut by the strip.
  await page.goto('/whatsapp-enhanced');
  const tablist = page.getByRole('tablist', { name: 'Conversas ativas' });
  await tablist.getByRole('tab').first().focus();
  await page.keyboard.press('End');
  await page.keyboard.press('Home');
  const clipped = await tablist.evaluate((strip) => {
    const tab = strip.querySelector<HTMLElement>('[role="tab"]')!;
    const style = getComputedStyle(tab);
    const ring = parseFloat(style.outlineWidth) + parseFloat(style.outlineOffset);
    const t = tab.getBoundingClientRect();
    const s = strip.getBoundingClientRect();
    return {
      focused: document.activeElement === tab && tab.matches(':focus-visible'),
      left: t.left - ring - s.left,
      top: t.top - ring - s.top,
      bottom: s.bottom - (t.bottom + ring),
    };
  });
  expect(clipped.focused).toBe(true);
  expect(clipped.left).toBeGreaterThanOrEqual(0);
  expect(clipped.top).toBeGreaterThanOrEqual(0);
  expect(clipped.bottom).toBeGreaterThanOrEqual(0);
  await shot(page, testInfo, 'tab-focus-1280', { fullPage: false });

  // The phone logs out: the panel says why, and a send fails with its reason in view.
  expect(
    (await api.post(`/api/whatsapp/sandbox/phones/${phone}/logout`, {}, session.token)).status,
  ).toBe(200);
  const connection = page.getByRole('region', { name: 'Conexão' });
  await expect(connection.getByRole('status').first()).toHaveText('Não conectado');
  await expect(connection.getByText(/O celular desvinculou este dispositivo/)).toBeVisible();
  await openButton(conversationItem(page, long.name), long.name).click();
  const box = page.getByRole('textbox', { name: `Mensagem para ${long.name}` });
  await box.fill('Ainda está aí?');
  await box.press('Enter');
  const error = page.getByRole('region', { name: long.name }).getByRole('alert');
  await expect(error).not.toBeEmpty();
  await expectInView(page, error);
  await expectInView(page, box);
  expect(await pageScroll(page)).toBeLessThanOrEqual(0);
  await shot(page, testInfo, 'send-failed-1280', { fullPage: false });

  // Opened again later, the page still says why the number was disconnected.
  await page.reload();
  await expect(connection.getByRole('status').first()).toHaveText('Não conectado');
  await expect(connection.getByText(/O celular desvinculou este dispositivo/)).toBeVisible();
});

test('on a 375 px phone the menu’s links fit their boxes in every language', async ({
  page,
  api,
}, testInfo) => {
  await page.setViewportSize({ width: 375, height: 812 });
  await signedInUser(page, api, { prefix: 'zapmenu' });
  await page.goto('/whatsapp-enhanced');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  const menu = page.getByRole('button', { name: /^Men[uú]$/ });
  for (const language of ['pt-BR', 'en-US', 'es-ES'] as const) {
    if (language !== 'pt-BR') {
      await menu.click();
      await page.getByRole('combobox', { name: /^(Idioma|Language)$/ }).selectOption(language);
      await expect(page.locator('html')).toHaveAttribute('lang', language);
    }
    await menu.click();
    const links = page.getByRole('navigation').getByRole('link');
    await expect(links.last()).toBeVisible();
    const overflowing = await links.evaluateAll((all) =>
      all
        .filter((link) => {
          const box = link.getBoundingClientRect();
          return link.scrollWidth > link.clientWidth || box.right > window.innerWidth;
        })
        .map((link) => link.textContent),
    );
    expect(overflowing).toEqual([]);
    await shot(page, testInfo, `menu-375-${language}`, { fullPage: false });
    await menu.click();
  }
});

test('on a 375 px phone: link with the phone number by its pairing code, then block and unblock a contact', async ({
  page,
  api,
}, testInfo) => {
  await page.setViewportSize({ width: 375, height: 740 });
  const { session } = await signedInUser(page, api, { prefix: 'zapcode' });
  await page.goto('/whatsapp');
  await page.getByRole('combobox', { name: 'Quem atende seus clientes?' }).selectOption('Guia');
  await expect(page.getByText(/Ninguém responde seus clientes por enquanto/)).toHaveCount(0);
  const overflow = () =>
    page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    );
  const connection = page.getByRole('region', { name: 'Conexão' });
  await connection.getByRole('button', { name: 'Conectar' }).click();
  const dialog = page.getByRole('dialog', { name: 'Conectar WhatsApp' });
  await dialog.getByRole('button', { name: 'Conectar com número de telefone' }).click();
  const phone = newNumber();
  const field = dialog.getByRole('textbox', { name: 'Número do WhatsApp' });
  await field.fill('41 9999');
  await dialog.getByRole('button', { name: 'Gerar código' }).click();
  await expect(dialog.getByText(/só números \(10 a 15 dígitos\)/)).toBeVisible();
  await field.fill(`+${phone}`);
  await dialog.getByRole('button', { name: 'Gerar código' }).click();
  const shown = dialog.locator('.wa-pairing__code');
  await expect(shown).toContainText(/[0-9A-Z]{4}\s*-\s*[0-9A-Z]{4}/);
  await expect(
    dialog.getByText(
      'No celular, abra o WhatsApp > Aparelhos conectados > Conectar aparelho > Conectar com número de telefone e digite este código:',
    ),
  ).toBeVisible();
  expect(await overflow()).toBeLessThanOrEqual(0);
  await shot(page, testInfo, 'pairing-code-375');
  const [, first, second] = /([0-9A-Z]{4})\s*-\s*([0-9A-Z]{4})/.exec(await shown.innerText())!;

  // The phone types the code (the sandbox's stand-in for WhatsApp on the phone).
  const typed = await api.post(
    '/api/whatsapp/sandbox/pairing-code',
    { code: `${first}${second}`, phone },
    session.token,
  );
  expect(typed.status).toBe(200);
  await expect(connection.getByRole('status').first()).toHaveText(`Conectado como +${phone}`);
  await expect(dialog).toHaveCount(0);

  const rui = newNumber();
  await contactWrites(api, phone, rui, 'Oi, tudo bem?', 'Rui');
  await expect.poll(() => sentByPhone(api, phone, session.token)).toHaveLength(1);
  const item = conversationItem(page, 'Rui');
  await openButton(item, 'Rui').click();
  const pane = page.getByRole('region', { name: 'Rui' });
  await pane.getByRole('button', { name: 'Bloquear Rui' }).click();
  const confirm = page.getByRole('dialog', { name: 'Bloquear contato' });
  await confirm.getByRole('button', { name: 'Bloquear' }).click();
  await expect(confirm).toHaveCount(0);
  await expect(pane.getByText(/Você bloqueou este contato/)).toBeVisible();
  await contactWrites(api, phone, rui, 'Alguém aí?');
  await expect(chatMessages(page).last()).toContainText('Alguém aí?');
  expect(await overflow()).toBeLessThanOrEqual(0);
  await shot(page, testInfo, 'blocked-375');
  // Shown, never answered.
  expect(await sentByPhone(api, phone, session.token)).toHaveLength(1);

  await pane.getByRole('button', { name: 'Voltar às conversas' }).click();
  // The list says it too, in the conversation's name.
  await expect(item.getByText('Bloqueado', { exact: true })).toBeVisible();
  await item.getByRole('button', { name: /^Rui Bloqueado \+\d/ }).click();
  await pane.getByRole('button', { name: 'Desbloquear Rui' }).click();
  await expect(pane.getByText(/Você bloqueou este contato/)).toHaveCount(0);
  await expect(pane.getByRole('button', { name: 'Bloquear Rui' })).toBeVisible();
});

test("a contact's edit, deletion for everyone and reaction show in place: editada, mensagem apagada, the badge (1280 and 375 px)", async ({
  page,
  context,
  api,
}, testInfo) => {
  const { session } = await signedInUser(page, api, { prefix: 'zapedit', hire: ['auxtrat'] });
  await page.goto('/whatsapp');
  const phone = newNumber();
  await connectByQr(page, context, phone, testInfo);
  const ivo = newNumber();
  const from = `${ivo}@s.whatsapp.net`;
  const write = async (id: string, text: string) => {
    const res = await api.post('/api/whatsapp/sandbox/inbound', {
      to: phone,
      from,
      id,
      text,
      pushName: 'Ivo',
    });
    expect(res.status).toBe(200);
  };
  await write('IVO-1', 'Como eu contrato um agente?');
  await expect.poll(() => sentByPhone(api, phone, session.token)).toHaveLength(1);
  await write('IVO-2', 'Meu CPF é 123.456.789-00. Como conecto meu WhatsApp?');
  await expect.poll(() => sentByPhone(api, phone, session.token)).toHaveLength(2);
  const item = conversationItem(page, 'Ivo');
  await openButton(item, 'Ivo').click();
  await expect(chatMessages(page)).toHaveCount(4);

  const events = await api.get<{ events: { type: string; id: string }[] }>(
    `/api/whatsapp/sandbox/phones/${phone}/events`,
    session.token,
  );
  const firstReply = events.body.events.find((e) => e.type === 'message')!.id;
  const change = async (path: string, body: Record<string, string>) => {
    const res = await api.post(`/api/whatsapp/sandbox/${path}`, { to: phone, from, ...body });
    expect(res.status).toBe(200);
  };
  await change('edit', { id: 'IVO-1', text: 'Como eu contrato dois agentes?' });
  await change('react', { id: firstReply, emoji: '👍' });
  await change('revoke', { id: 'IVO-2' });

  // The bubbles themselves (a reaction badge is a list of its own inside one).
  const messages = page
    .getByRole('list', { name: 'Mensagens', exact: true })
    .locator(':scope > li');
  await expect(messages.nth(0)).toContainText('Como eu contrato dois agentes?');
  await expect(messages.nth(0)).toContainText('editada');
  await expect(
    messages.nth(1).getByRole('list', { name: 'Reações' }).getByRole('listitem'),
  ).toHaveText('👍');
  await expect(messages.nth(2)).toContainText('mensagem apagada');
  await expect(messages.nth(2)).not.toContainText('CPF');
  // The list's preview, if the deleted one is last, says so; here the agent's answer is last.
  await expect(messages).toHaveCount(4);
  await shot(page, testInfo, 'edits-desktop', { fullPage: false });
  await messages.nth(0).scrollIntoViewIfNeeded();
  await shot(page, testInfo, 'edits-desktop-top', { fullPage: false });

  await page.setViewportSize({ width: 375, height: 740 });
  await expect(messages.nth(2)).toContainText('mensagem apagada');
  await shot(page, testInfo, 'edits-phone', { fullPage: false });
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
});

test('a manual reply pauses the agent: the pane says until when, and Resume lifts it (also at 375 px)', async ({
  page,
  context,
  api,
}, testInfo) => {
  const { session } = await signedInUser(page, api, { prefix: 'zappause' });
  await page.goto('/whatsapp');
  const phone = newNumber();
  await connectByQr(page, context, phone, testInfo);

  const lia = newNumber();
  await contactWrites(api, phone, lia, 'Oi! Como eu contrato um agente?', 'Lia');
  await expect.poll(() => sentByPhone(api, phone, session.token)).toHaveLength(1);
  const item = conversationItem(page, 'Lia');
  await openButton(item, 'Lia').click();
  const pane = page.getByRole('region', { name: 'Lia' });
  const messages = chatMessages(page);
  await expect(messages).toHaveCount(2);
  // Until a time today, or a date and time when the pause ends after midnight.
  const paused = pane.getByText(
    /^Agente pausado até (\d{1,2} de [^:]+, )?\d{2}:\d{2}: você respondeu a este contato/,
  );
  await expect(paused).toHaveCount(0);

  // The owner answers by hand: the agent pauses in this conversation, and the pane says so.
  const box = page.getByRole('textbox', { name: 'Mensagem para Lia' });
  await box.fill('Oi Lia, aqui é a dona. Te mando já.');
  await box.press('Enter');
  await expect(messages).toHaveCount(3);
  await expect(paused).toBeVisible();
  await shot(page, testInfo, 'paused');
  // The contact's next message is shown, and not answered.
  await contactWrites(api, phone, lia, 'Obrigada!', 'Lia');
  await expect(messages).toHaveCount(4);
  await expect(messages.nth(3)).toContainText('Obrigada!');
  await page.setViewportSize({ width: 375, height: 740 });
  await expect(paused).toBeVisible();
  const resume = pane.getByRole('button', { name: 'Retomar o agente nesta conversa' });
  await expect(resume).toBeVisible();
  expect(
    await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    ),
  ).toBeLessThanOrEqual(0);
  await shot(page, testInfo, 'paused-375');
  expect(await sentByPhone(api, phone, session.token)).toHaveLength(2);

  // Resume: the note goes, and the next message is answered.
  await resume.click();
  await expect(paused).toHaveCount(0);
  await contactWrites(api, phone, lia, 'E o prazo?', 'Lia');
  await expect.poll(() => sentByPhone(api, phone, session.token)).toHaveLength(3);
  await expect(messages).toHaveCount(6);
});

test('a contact known by its LID and by its number: "Contato (número oculto)", then one conversation once WhatsApp tells they are one (1280 and 375 px)', async ({
  page,
  context,
  api,
}, testInfo) => {
  const { session } = await signedInUser(page, api, { prefix: 'zaplid' });
  await page.goto('/whatsapp');
  const phone = newNumber();
  await connectByQr(page, context, phone, testInfo);
  const pn = newNumber();
  const lid = `7${pn}`;
  const shown = pn.replace(/^55(\d{2})(\d{5})(\d{4})$/, '+55 $1 $2-$3');

  const fromLid = await api.post('/api/whatsapp/sandbox/inbound', {
    to: phone,
    from: `${lid}@lid`,
    text: 'Oi, quero um orçamento',
  });
  expect(fromLid.status).toBe(200);
  // Only its LID is known: a neutral name, never the LID's digits.
  const hidden = conversationItem(page, 'Contato (número oculto)');
  await expect(hidden).toBeVisible();
  await expect(page.getByText(lid)).toHaveCount(0);
  await contactWrites(api, phone, pn, 'Pode ser para amanhã?');
  const byNumber = conversationItem(page, shown);
  await expect(byNumber).toBeVisible();
  await shot(page, testInfo, 'lid-two-conversations-1280');

  // The newer one is open when WhatsApp tells that the LID is the number: the page shows the
  // merged conversation, with both messages in the order they were sent.
  await byNumber
    .getByRole('button', { name: new RegExp(`^${shown.replace(/\+/g, '\\+')}`) })
    .click();
  await expect(chatMessages(page).filter({ hasText: 'Pode ser para amanhã?' })).toHaveCount(1);
  const mapping = await api.post(
    '/api/whatsapp/sandbox/lid-mapping',
    { to: phone, lid: `${lid}@lid`, pn: `${pn}@s.whatsapp.net` },
    session.token,
  );
  expect(mapping.status).toBe(200);
  await expect(hidden).toHaveCount(0);
  const list = page.getByRole('region', { name: 'Conversas', exact: true });
  await expect(list.getByRole('listitem')).toHaveCount(1);
  await expect(page.getByRole('heading', { level: 2, name: shown })).toBeVisible();
  // The contact's two messages and the agent's two replies, in the order they were sent.
  await expect(chatMessages(page)).toHaveCount(4);
  const texts = await chatMessages(page).allTextContents();
  const at = (text: string) => texts.findIndex((t) => t.includes(text));
  expect(at('Oi, quero um orçamento')).toBe(0);
  expect(at('Pode ser para amanhã?')).toBeGreaterThan(0);
  await shot(page, testInfo, 'lid-merged-1280');

  await page.setViewportSize({ width: 375, height: 740 });
  await shot(page, testInfo, 'lid-merged-375');
  expect(
    await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    ),
  ).toBeLessThanOrEqual(0);
});

test('ticks: the agent’s reply moves live from sent to delivered to read, beside its time', async ({
  page,
  context,
  api,
}, testInfo) => {
  const { session } = await signedInUser(page, api, { prefix: 'zapticks' });
  await page.goto('/whatsapp');
  const phone = newNumber();
  await connectByQr(page, context, phone, testInfo);
  const bia = newNumber();
  await contactWrites(api, phone, bia, 'Oi, tudo bem?', 'Bia');
  await expect.poll(() => sentByPhone(api, phone, session.token)).toHaveLength(1);
  await openButton(conversationItem(page, 'Bia'), 'Bia').click();
  const messages = chatMessages(page);
  await expect(messages).toHaveCount(2);
  const reply = messages.nth(1);
  await expect(reply.getByRole('img', { name: 'Enviada' })).toBeVisible();

  // The contact's phone says it got the reply, then that it was read: the ticks follow live.
  const events = await api.get<{ events: { type: string; id: string }[] }>(
    `/api/whatsapp/sandbox/phones/${phone}/events`,
    session.token,
  );
  const replyId = events.body.events.find((e) => e.type === 'message')!.id;
  for (const [status, label] of [
    ['delivered', 'Entregue'],
    ['read', 'Lida'],
  ] as const) {
    const res = await api.post(
      `/api/whatsapp/sandbox/phones/${phone}/receipts`,
      { ids: [replyId], status },
      session.token,
    );
    expect(res.status).toBe(200);
    await expect(reply.getByRole('img', { name: label })).toBeVisible();
  }
  // On the time's line, as WhatsApp shows them.
  const time = await reply.locator('time').boundingBox();
  const ticks = await reply.getByRole('img', { name: 'Lida' }).boundingBox();
  expect(Math.abs(time!.y + time!.height / 2 - (ticks!.y + ticks!.height / 2))).toBeLessThan(
    time!.height / 2,
  );
  await shot(page, testInfo, 'ticks-read', { fullPage: false });
});

test('a send WhatsApp refuses at every try shows "Não enviada" and why; Tentar novamente sends it, once', async ({
  page,
  context,
  api,
}, testInfo) => {
  // Five tries, a few seconds apart and doubling, before the message shows as failed.
  test.setTimeout(120_000);
  const { session } = await signedInUser(page, api, { prefix: 'zapfalha' });
  await page.goto('/whatsapp');
  const phone = newNumber();
  await connectByQr(page, context, phone, testInfo);
  const caio = newNumber();
  await contactWrites(api, phone, caio, 'Oi, tudo bem?', 'Caio');
  await expect.poll(() => sentByPhone(api, phone, session.token)).toHaveLength(1);
  await openButton(conversationItem(page, 'Caio'), 'Caio').click();

  const refused = await api.post(
    `/api/whatsapp/sandbox/phones/${phone}/fail-sends`,
    { count: 5, code: '463' },
    session.token,
  );
  expect(refused.status).toBe(200);
  const box = page.getByRole('textbox', { name: 'Mensagem para Caio' });
  await box.fill('Seu pedido sai hoje à tarde.');
  await box.press('Enter');
  const mine = chatMessages(page).filter({ hasText: 'Seu pedido sai hoje à tarde.' });
  await expect(mine.getByRole('img', { name: 'Enviando' })).toBeVisible();
  await expect(mine.getByRole('img', { name: 'Não enviada' })).toBeVisible({ timeout: 90_000 });
  await expect(mine).toContainText(
    'O WhatsApp recusou a mensagem (erro 463): o contato precisa escrever primeiro ou o número está sendo limitado.',
  );
  await shot(page, testInfo, 'send-failed-retry', { fullPage: false });
  // Not one of those tries reached the contact.
  expect(
    (await sentByPhone(api, phone, session.token)).filter((m) => m.text.startsWith('Seu pedido')),
  ).toEqual([]);

  await mine.getByRole('button', { name: 'Tentar novamente' }).click();
  await expect(mine.getByRole('img', { name: 'Enviada' })).toBeVisible();
  await expect(mine.getByRole('button', { name: 'Tentar novamente' })).toHaveCount(0);
  await expect(mine).not.toContainText('erro 463');
  expect(
    (await sentByPhone(api, phone, session.token)).filter((m) => m.text.startsWith('Seu pedido')),
  ).toEqual([{ to: caio, text: 'Seu pedido sai hoje à tarde.' }]);
  await shot(page, testInfo, 'send-retried', { fullPage: false });
});

test('the business’s own agent answers its contacts: its hours, a price from its catalogue, a policy from its PDF; asked for a person, it hands over and the conversation needs the owner', async ({
  page,
  context,
  api,
}, testInfo) => {
  const { session } = await signedInUser(page, api, { prefix: 'clinica' });
  const created = await api.post<{ agent: { id: string } }>(
    '/api/my-agents',
    CLINIC,
    session.token,
  );
  expect(created.status).toBe(200);
  const { agent } = created.body;

  // The clinic's price and policy table, added on its agent's page.
  await page.goto(`/my-agents/${agent.id}`);
  await page
    .getByLabel('Adicionar documento')
    .setInputFiles(path.resolve(import.meta.dirname, '../../server/test/examples/Tabela 2026.pdf'));
  await expect(
    page.getByRole('status').filter({ hasText: 'Documento Tabela 2026.pdf adicionado' }),
  ).toBeVisible();
  const documents = page.getByRole('list', { name: 'Documentos do agente' });
  await expect(documents.getByRole('listitem')).toHaveCount(1);
  await expect(documents).toContainText('Tabela 2026.pdf');
  await expect(documents).toContainText('2 páginas');
  await documents.scrollIntoViewIfNeeded();
  await shot(page, testInfo, 'clinic-document', { fullPage: false });

  await page.goto('/whatsapp');
  const picker = page.getByRole('combobox', { name: 'Quem atende seus clientes?' });
  await expect(picker.locator('optgroup[label="Seus agentes"] option')).toHaveText([
    'Clínica Sorriso',
  ]);
  await shot(page, testInfo, 'answering-nobody');
  const phone = newNumber();
  await connectByQr(page, context, phone, testInfo, 'Clínica Sorriso');
  await shot(page, testInfo, 'answering-clinic');

  const bia = newNumber();
  const lastSent = async () =>
    (await sentByPhone(api, phone, session.token)).map((m) => m.text).at(-1);
  await contactWrites(api, phone, bia, 'qto ta a limpeza?', 'Bia');
  await expect.poll(() => sentByPhone(api, phone, session.token)).toHaveLength(1);
  expect((await sentByPhone(api, phone, session.token))[0]!.text).toContain('180');
  // Its hours, from what the clinic entered: closed on Sundays, whatever day this runs.
  await contactWrites(api, phone, bia, 'vcs abrem domingo?', 'Bia');
  await expect.poll(lastSent).toMatch(/^Domingo: fechado\./);
  // A policy from the PDF, naming it.
  await contactWrites(api, phone, bia, 'qual a tolerância para atraso?', 'Bia');
  await expect
    .poll(lastSent)
    .toContain('Segundo o documento “Tabela 2026.pdf”: A tolerância é de 15 minutos.');

  // A tourist asking in English: answered in English from the clinic's Portuguese texts.
  const tom = newNumber();
  await contactWrites(api, phone, tom, 'Hi! Is there any parking near the clinic?', 'Tom');
  await expect
    .poll(lastSent)
    .toMatch(/^The details are in Portuguese:\n\n\*Tem estacionamento\?\*/);
  await openButton(conversationItem(page, 'Tom'), 'Tom').click();
  await expect(chatMessages(page).last()).toContainText('The details are in Portuguese:');
  await shot(page, testInfo, 'tourist-answered', { fullPage: false });

  await contactWrites(api, phone, bia, 'quero falar com uma atendente', 'Bia');
  await expect
    .poll(async () => (await sentByPhone(api, phone, session.token)).map((m) => m.text).at(-1))
    .toBe(CLINIC.business.handoffMessage);
  const item = conversationItem(page, 'Bia');
  await expect(item.getByText('Precisa de você')).toBeVisible();
  await shot(page, testInfo, 'needs-you');

  // The owner answers: the badge goes.
  // Its button reads the badge too: "Bia Precisa de você +55 …".
  await item.getByRole('button', { name: /^Bia Precisa de você \+\d/ }).click();
  const box = page.getByRole('textbox', { name: 'Mensagem para Bia' });
  await box.fill('Oi Bia, aqui é a recepção. Como posso ajudar?');
  await box.press('Enter');
  await expect(item.getByText('Precisa de você')).toHaveCount(0);
});

test('Sync Agent shows a QR code; Generate New Code replaces it; Close and Esc close it (en-US)', async ({
  page,
  api,
  admin,
}) => {
  const platform = await linkPlatform(api, admin);
  try {
    await qrJourney(page, api);
  } finally {
    await platform.unlink();
  }
});

async function qrJourney(page: Page, api: Api) {
  const { session } = await signedInUser(page, api, {
    prefix: 'qr',
    hire: ['auxtrat'],
    language: 'en-US',
  });
  await chatThroughApi(api, session.token, 'auxtrat', 'how much is the consulting?');
  await page.goto('/auxtrat');
  await chatReady(messagesRegion(page, 'Messages with Auxtrat'));
  const sync = page.getByRole('button', { name: 'Sync Agent' });
  const dialog = page.getByRole('dialog', { name: 'Sync Agent' });
  const qr = dialog.getByRole('img', { name: 'QR code to sync this conversation' });

  await sync.click();
  await expect(dialog).toBeVisible();
  await expect(qr).toHaveAttribute('src', /^data:image\/png;base64,[A-Za-z0-9+/]+=*$/);
  await expect(dialog).toContainText(/Valid until/);
  const first = await qr.getAttribute('src');

  await dialog.getByRole('button', { name: 'Generate New Code' }).click();
  await expect(qr).toHaveAttribute('src', /^data:image\/png;base64,/);
  await expect.poll(() => qr.getAttribute('src')).not.toBe(first);
  // It is a real image the browser decodes: the server draws the code 320 px square.
  expect(
    await qr.evaluate((img: HTMLImageElement) => ({
      complete: img.complete,
      width: img.naturalWidth,
      height: img.naturalHeight,
    })),
  ).toEqual({ complete: true, width: 320, height: 320 });

  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(sync).toBeFocused();

  await sync.click();
  await expect(qr).toHaveAttribute('src', /^data:image\/png;base64,/);
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(sync).toBeFocused();
}

test('um QR do Sincronizar agente, lido pela câmera, continua a conversa no WhatsApp, e a página mostra as mensagens na hora (pt-BR)', async ({
  page,
  context,
  api,
  admin,
}, testInfo) => {
  const platform = await linkPlatform(api, admin);
  try {
    const { session } = await signedInUser(page, api, { prefix: 'sync', hire: ['auxtrat'] });
    await chatThroughApi(api, session.token, 'auxtrat', 'quanto custa a consultoria?');
    await page.goto('/auxtrat');
    const region = messagesRegion(page, 'Mensagens com Auxtrat');
    await chatReady(region);
    const before = await entries(region).count();

    await page.getByRole('button', { name: 'Sincronizar agente' }).click();
    const dialog = page.getByRole('dialog', { name: 'Sincronizar agente' });
    const qr = dialog.getByRole('img', { name: 'Código QR para sincronizar esta conversa' });
    await expect(qr).toHaveAttribute('src', /^data:image\/png;base64,/);
    // What a phone's camera reads: a chat with the platform's number, the code written.
    const link = qrText((await qr.getAttribute('src'))!);
    const url = new URL(link);
    expect(`${url.origin}${url.pathname}`).toBe(`https://wa.me/${platform.phone}`);
    const text = url.searchParams.get('text')!;
    expect(text).toMatch(/^Quero continuar minha conversa com Auxtrat no WhatsApp\. Código: CTIA-/);
    await expect(dialog.getByRole('link', { name: 'Abrir no WhatsApp' })).toHaveAttribute(
      'href',
      link,
    );
    await shot(page, testInfo, 'sync-agent-qr', { fullPage: false });
    await dialog.getByRole('button', { name: 'Fechar' }).click();

    // The person sends the written message from their WhatsApp: paired, and told so.
    const contact = newNumber();
    await contactWrites(api, platform.phone, contact, text);
    const toContact = async () =>
      (await sentByPhone(api, platform.phone, platform.token))
        .filter((m) => m.to === contact)
        .map((m) => m.text);
    await expect
      .poll(toContact)
      .toEqual([
        'Pronto! Esta conversa continua a sua conversa com Auxtrat. Pode escrever aqui que eu respondo.',
      ]);

    // What they write there is auxtrat's to answer, and the open page shows both turns at once.
    await contactWrites(api, platform.phone, contact, 'e quanto custa o registro de marca?');
    await expect.poll(async () => (await toContact()).length).toBe(2);
    await expect(entries(region)).toHaveCount(before + 2);
    await expect(entries(region).nth(before)).toContainText('e quanto custa o registro de marca?');
    await expect(entries(region).nth(before + 1)).not.toHaveText('');
    await shot(page, testInfo, 'sync-agent-continued');

    // The admin panel shows which number that is, connected.
    const adminPage = await context.newPage();
    await seedSession(adminPage, await api.login(admin));
    await adminPage.goto('/admin?tab=system');
    const card = adminPage.getByRole('region', { name: 'Número da plataforma no WhatsApp' });
    await expect(card).toContainText(admin.email);
    await expect(card).toContainText(formatted(platform.phone));
    await expect(card.getByText('Conectado', { exact: true })).toBeVisible();
    await shot(adminPage, testInfo, 'platform-number-admin', { fullPage: false });
    await adminPage.close();

    // The same code again, from another phone: already used.
    const other = newNumber();
    await contactWrites(api, platform.phone, other, text);
    await expect
      .poll(async () =>
        (await sentByPhone(api, platform.phone, platform.token))
          .filter((m) => m.to === other)
          .map((m) => m.text),
      )
      .toEqual([
        'Este código já foi usado. Para continuar aqui, gere um novo código em "Sincronizar agente" na conversa.',
      ]);
  } finally {
    await platform.unlink();
  }
});

test('o Indirect envia uma mensagem anônima pelo número da plataforma, mostra a resposta na hora e respeita o PARE (pt-BR)', async ({
  page,
  api,
  admin,
}, testInfo) => {
  const platform = await linkPlatform(api, admin);
  try {
    await signedInUser(page, api, { prefix: 'relay', hire: ['indirect'] });
    await page.goto('/indirect');
    const region = messagesRegion(page, 'Mensagens com Indirect');
    await chatReady(region);
    const box = page.getByRole('textbox', { name: 'Mensagem para Indirect' });
    const recipient = newNumber();
    const written = `(11) ${recipient.slice(4, 9)}-${recipient.slice(9)}`;
    const shown = `+55 11 ${recipient.slice(4, 9)} ${recipient.slice(9)}`;
    const notice =
      '— Mensagem anônima enviada pela ContrateIA. Você pode responder aqui. Para não receber mais mensagens assim, responda PARE.';
    const toRecipient = async () =>
      (await sentByPhone(api, platform.phone, platform.token))
        .filter((m) => m.to === recipient)
        .map((m) => m.text);

    // Shown exactly, to whom, before anything goes.
    await box.fill(`envie para ${written}: Oi! Lembrei de você hoje.`);
    await box.press('Enter');
    const proposal = entries(region).last();
    await expect(proposal).toContainText(`Vou enviar para ${shown}, sem revelar quem você é`);
    await expect(proposal.locator('blockquote')).toContainText('Oi! Lembrei de você hoje.');
    await expect(proposal.locator('blockquote')).toContainText(notice);
    await expect(
      page
        .getByRole('group', { name: 'Confirmar o envio' })
        .getByRole('button', { name: 'Não enviar' }),
    ).toBeVisible();
    await shot(page, testInfo, 'indirect-proposal', { fullPage: false });
    expect(await toRecipient()).toEqual([]);

    // Sent by the Send the page offers (the same as answering "sim").
    const confirm = page.getByRole('group', { name: 'Confirmar o envio' });
    await confirm.getByRole('button', { name: 'Sim, enviar' }).click();
    await expect(entries(region).last()).toContainText(`Enviada para ${shown}.`);
    await expect(confirm).toHaveCount(0);
    await expect.poll(toRecipient).toEqual([`Oi! Lembrei de você hoje.\n\n${notice}`]);

    // The recipient's reply shows up in the open conversation, live.
    await contactWrites(api, platform.phone, recipient, 'Que surpresa! Quem é?');
    await expect(entries(region).last()).toContainText(`${shown} respondeu:`);
    await expect(entries(region).last().locator('blockquote')).toHaveText('Que surpresa! Quem é?');
    await shot(page, testInfo, 'indirect-reply');

    // PARE: told once, and nothing more goes to that number.
    await contactWrites(api, platform.phone, recipient, 'PARE');
    await expect
      .poll(toRecipient)
      .toEqual([
        `Oi! Lembrei de você hoje.\n\n${notice}`,
        'Pronto: você não vai mais receber mensagens anônimas pela ContrateIA.',
      ]);
    await box.fill('Tudo bem com você?');
    await box.press('Enter');
    await expect(entries(region).last()).toContainText(
      'Esse número pediu para não receber mensagens anônimas pela ContrateIA. Nada foi enviado.',
    );
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, testInfo, 'indirect-opted-out-phone', { fullPage: false });
    expect(await toRecipient()).toHaveLength(2);
  } finally {
    await platform.unlink();
  }
});
