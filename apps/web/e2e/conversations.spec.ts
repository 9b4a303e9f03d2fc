import type { Locator, Page, TestInfo } from '@playwright/test';
import {
  chatReady,
  chatThroughApi,
  entries,
  hireAgents,
  messagesRegion,
  signedInUser,
} from './chat-helpers';
import { expect, seedLanguage, seedSession, test } from './fixtures';

// Every agent page's conversation list (rename, search, delete; a drawer on phones), by mouse and
// keyboard, and the chat page's fixes (no page scroll into blank space, the phone menu, the Spanish
// header, each agent's avatar).

const DESKTOP = { width: 1366, height: 900 };
const PHONE = { width: 375, height: 800 };

function titles(list: Locator): Locator {
  return list.getByRole('listitem').locator('.conversation-item__title');
}

/** The page's own scroll height, and how far it is scrolled. */
function pageScroll(page: Page) {
  return page.evaluate(() => ({
    scrollHeight: document.documentElement.scrollHeight,
    innerHeight: window.innerHeight,
    scrollY: window.scrollY,
  }));
}

/** A screenshot beside the test's results, to look at what was built. */
async function shoot(page: Page, testInfo: TestInfo, name: string) {
  const path = testInfo.outputPath(`${name}.png`);
  await page.screenshot({ path });
  await testInfo.attach(name, { path, contentType: 'image/png' });
}

test('the list on /guia: titles from the first message, search, rename and delete, by keyboard (en-US, 1366×900)', async ({
  page,
  api,
}, testInfo) => {
  await page.setViewportSize(DESKTOP);
  const { session } = await signedInUser(page, api, { prefix: 'lista', language: 'en-US' });
  const hire = await chatThroughApi(api, session.token, 'guia', 'how do I hire an agent?');
  await chatThroughApi(api, session.token, 'guia', 'how do I change the language?');
  await chatThroughApi(api, session.token, 'guia', 'how do I sign out?');

  await page.goto('/guia');
  const messages = messagesRegion(page, 'Messages with Guide');
  await chatReady(messages);
  await expect(entries(messages).nth(1)).toContainText('how do I sign out?');
  const list = page.getByRole('region', { name: 'Conversations', exact: true });
  // Newest first; the one on screen is listed too, marked as such.
  await expect(titles(list)).toHaveText([
    'how do I sign out?',
    'how do I change the language?',
    'how do I hire an agent?',
  ]);
  await expect(list.locator('[aria-current="true"]')).toContainText('how do I sign out?');
  await expect(list.locator('[aria-current="true"]')).toContainText('Open now');
  await expect(list.getByText('Open now')).toHaveCount(1);
  await shoot(page, testInfo, 'guia-list-desktop-en');

  // Search covers titles and messages (the replies too), on the server.
  const search = list.getByRole('searchbox', { name: 'Search conversations' });
  await search.fill('LANGUAGE');
  await expect(titles(list)).toHaveText(['how do I change the language?']);
  await search.fill('no such words anywhere');
  await expect(list).toContainText('No conversation matches your search');
  await search.fill('');
  await expect(titles(list)).toHaveCount(3);

  // Rename by keyboard: Enter on Rename, type, Enter saves; focus comes back to Rename.
  await list.getByRole('button', { name: 'Rename “how do I hire an agent?”' }).focus();
  await page.keyboard.press('Enter');
  const field = list.getByRole('textbox', { name: 'Conversation title' });
  await expect(field).toBeFocused();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('Hiring notes');
  await page.keyboard.press('Enter');
  // Renamed in place: a rename is not activity, so the order stays.
  await expect(titles(list)).toHaveText([
    'how do I sign out?',
    'how do I change the language?',
    'Hiring notes',
  ]);
  await expect(list.getByRole('button', { name: 'Rename “Hiring notes”' })).toBeFocused();

  // A hostile title is refused with the shared message; Escape leaves the title as it was.
  await page.keyboard.press('Enter');
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.type('<img src=x onerror=alert(1)>');
  await page.keyboard.press('Enter');
  await expect(list.getByRole('alert')).toHaveText(
    'Titles can only hold plain text: no line breaks, hidden characters or HTML tags',
  );
  await page.keyboard.press('Escape');
  await expect(titles(list).nth(2)).toHaveText('Hiring notes');
  await expect(list.getByRole('button', { name: 'Rename “Hiring notes”' })).toBeFocused();

  // Stored on the server: a reload shows the new title.
  await page.reload();
  await chatReady(messages);
  await expect(titles(list).nth(2)).toHaveText('Hiring notes');

  // Delete asks first; Escape closes the question and gives focus back; Delete deletes.
  const remove = list.getByRole('button', { name: 'Delete “Hiring notes”' });
  await remove.click();
  const dialog = page.getByRole('dialog', { name: 'Delete conversation?' });
  await expect(dialog).toContainText('“Hiring notes” and all its messages will be deleted.');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(remove).toBeFocused();
  await remove.click();
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(titles(list)).toHaveText(['how do I sign out?', 'how do I change the language?']);
  await expect(search).toBeFocused();
  const gone = await api.get(`/api/chat/conversations/${hire}`, session.token);
  expect(gone.status).toBe(404);

  // Choosing one opens it, and the mark moves to it.
  await list.getByRole('button', { name: /^how do I change the language\?/ }).click();
  await chatReady(messages);
  await expect(entries(messages).nth(1)).toContainText('how do I change the language?');
  await expect(titles(list)).toHaveText(['how do I sign out?', 'how do I change the language?']);
  await expect(list.locator('[aria-current="true"]')).toContainText(
    'how do I change the language?',
  );

  // The one on screen can be deleted from the list too: the page starts afresh.
  await list.getByRole('button', { name: 'Delete “how do I change the language?”' }).click();
  await dialog.getByRole('button', { name: 'Delete' }).click();
  await expect(titles(list)).toHaveText(['how do I sign out?']);
  await expect(entries(messages)).toHaveCount(1);
  await expect(list.locator('[aria-current="true"]')).toHaveCount(0);
});

test('on a phone the list is a drawer: opened from the chat, Escape closes it, a choice opens the conversation (es-ES, 375×800)', async ({
  page,
  api,
}, testInfo) => {
  await page.setViewportSize(PHONE);
  const { session } = await signedInUser(page, api, { prefix: 'cajon' });
  await seedLanguage(page, 'es-ES');
  await chatThroughApi(api, session.token, 'guia', '¿cómo contrato un agente?');
  await chatThroughApi(api, session.token, 'guia', '¿cómo cambio el idioma?');

  await page.goto('/guia');
  const messages = messagesRegion(page, 'Mensajes con Guía');
  await chatReady(messages);
  // No side panel on a phone: the list waits behind its button.
  await expect(page.getByRole('region', { name: 'Conversaciones', exact: true })).toHaveCount(0);
  const open = page.getByRole('button', { name: 'Conversaciones' });
  await open.click();
  const drawer = page.getByRole('dialog', { name: 'Conversaciones' });
  await expect(titles(drawer)).toHaveText(['¿cómo cambio el idioma?', '¿cómo contrato un agente?']);
  await expect(drawer.locator('[aria-current="true"]')).toContainText('Abierta ahora');
  await shoot(page, testInfo, 'guia-drawer-phone-es');
  await page.keyboard.press('Escape');
  await expect(drawer).toHaveCount(0);
  await expect(open).toBeFocused();

  // By keyboard: Enter opens it, Tab reaches the conversation, Enter opens that and closes the drawer.
  await page.keyboard.press('Enter');
  await expect(drawer).toBeVisible();
  const item = drawer.getByRole('button', { name: /^¿cómo contrato un agente\?/ });
  for (let i = 0; i < 12 && !(await item.evaluate((el) => el === document.activeElement)); i += 1) {
    await page.keyboard.press('Tab');
  }
  await expect(item).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(drawer).toHaveCount(0);
  await chatReady(messages);
  await expect(entries(messages).nth(1)).toContainText('¿cómo contrato un agente?');
});

test('Clear Chat asks first, by keyboard: Escape keeps the conversation and gives focus back; confirming starts afresh (pt-BR)', async ({
  page,
  api,
}) => {
  const { session } = await signedInUser(page, api, { prefix: 'limpar' });
  await chatThroughApi(api, session.token, 'guia', 'como troco o idioma?');
  await page.goto('/guia');
  const messages = messagesRegion(page, 'Mensagens com Guia');
  await chatReady(messages);
  await expect(entries(messages)).toHaveCount(3);

  const clear = page.getByRole('button', { name: 'Limpar conversa' });
  await clear.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog', { name: 'Limpar a conversa?' });
  await expect(dialog).toContainText('Esta conversa continua na sua lista');
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(clear).toBeFocused();
  await expect(entries(messages)).toHaveCount(3);

  await page.keyboard.press('Enter');
  await dialog.getByRole('button', { name: 'Limpar conversa' }).focus();
  await page.keyboard.press('Enter');
  await expect(dialog).toHaveCount(0);
  await expect(entries(messages)).toHaveCount(1);
  await expect(page.getByRole('textbox', { name: 'Mensagem para Guia' })).toBeFocused();
  // The old conversation is now in the list.
  await expect(titles(page.getByRole('region', { name: 'Conversas', exact: true }))).toHaveText([
    'como troco o idioma?',
  ]);
});

test('the phone menu closes on Escape, on a choice and on a tap outside (375×800)', async ({
  page,
  api,
}) => {
  await page.setViewportSize(PHONE);
  await signedInUser(page, api, { prefix: 'menu' });
  await page.goto('/guia');
  await chatReady(messagesRegion(page, 'Mensagens com Guia'));
  const menu = page.getByRole('button', { name: 'Menu' });
  const nav = page.getByRole('navigation', { name: 'Navegação principal' });

  await menu.click();
  await expect(nav).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(nav).toBeHidden();
  await expect(menu).toBeFocused();

  await menu.click();
  await expect(nav).toBeVisible();
  // A tap on the chat, outside the menu.
  await page.mouse.click(PHONE.width / 2, PHONE.height - 150);
  await expect(nav).toBeHidden();

  // Choosing the page already shown closes it too.
  await menu.click();
  await nav.getByRole('link', { name: 'Guia' }).click();
  await expect(nav).toBeHidden();
  await menu.click();
  await nav.getByRole('link', { name: 'Painel' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(nav).toBeHidden();
});

for (const size of [DESKTOP, PHONE]) {
  test(`a chat page never scrolls as a whole: its scroll height is the viewport's, also after a wheel over the header (${size.width}×${size.height})`, async ({
    page,
    api,
  }, testInfo) => {
    await page.setViewportSize(size);
    const { session } = await signedInUser(page, api, { prefix: 'rolagem', hire: ['auxtrat'] });
    // A long history: the hidden sender labels of every message once stretched the page.
    let id: string | undefined;
    for (const question of [
      'como contrato um agente?',
      'como troco o idioma?',
      'como saio?',
      'como conecto o whatsapp?',
      'o que é o painel?',
      'como contrato um agente?',
    ]) {
      id = await chatThroughApi(api, session.token, 'guia', question, id);
    }
    for (const path of ['/guia', '/auxtrat']) {
      await page.goto(path);
      const messages = messagesRegion(
        page,
        path === '/guia' ? 'Mensagens com Guia' : 'Mensagens com Auxtrat',
      );
      await chatReady(messages);
      if (path === '/guia') await expect(entries(messages)).toHaveCount(13);
      await shoot(page, testInfo, `${path.slice(1)}-${size.width}`);
      expect(await pageScroll(page)).toEqual({
        scrollHeight: size.height,
        innerHeight: size.height,
        scrollY: 0,
      });
      const header = page.locator('.app-header');
      const box = await header.boundingBox();
      if (!box) throw new Error('no header');
      await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
      await page.mouse.wheel(0, 1500);
      // The wheel is handled (or not) in the next frames: wait for two of them, not a fixed time.
      await page.evaluate(
        () => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))),
      );
      expect(await pageScroll(page)).toEqual({
        scrollHeight: size.height,
        innerHeight: size.height,
        scrollY: 0,
      });
    }
  });
}

test("the Spanish header stays on one row at 1366 px (an admin's, the widest), and each agent has its own avatar", async ({
  page,
  api,
  admin,
}, testInfo) => {
  await page.setViewportSize(DESKTOP);
  await api.ensureAdminMode(admin);
  const session = await api.login(admin);
  await hireAgents(api, session.token, ['assistente', 'auxtrat', 'administrador', 'indirect']);
  await seedLanguage(page, 'es-ES');
  await seedSession(page, session);
  await page.goto('/guia');
  await chatReady(messagesRegion(page, 'Mensajes con Guía'));
  await shoot(page, testInfo, 'guia-desktop-es');

  // Brand, account and actions share one row (the navigation is the second).
  const rows = await page.evaluate(() => {
    const header = document.querySelector('.app-header__inner');
    const parts = [
      '.app-header__brand',
      '.app-header__account',
      '.app-header__actions',
      '.app-header__actions > *:last-child',
    ];
    return parts.map((selector) => {
      const rect = header?.querySelector(selector)?.getBoundingClientRect();
      return rect ? Math.round(rect.top + rect.height / 2) : -1;
    });
  });
  const [brand] = rows;
  for (const middle of rows) expect(Math.abs(middle - (brand ?? 0))).toBeLessThanOrEqual(6);

  const avatars: Record<string, string> = {};
  for (const name of ['guia', 'assistente', 'auxtrat', 'administrador', 'indirect']) {
    await page.goto(`/${name}`);
    const avatar = page.locator('.chat__header [data-agent-avatar]');
    await expect(avatar).toHaveAttribute('data-agent-avatar', name);
    await expect(avatar.locator('svg')).toBeVisible();
    avatars[name] = await avatar.evaluate((el) => getComputedStyle(el).backgroundColor);
  }
  expect(new Set(Object.values(avatars)).size).toBe(5);
});
