import type { Locator, Page } from '@playwright/test';
import sharp from 'sharp';
import { signedInUser } from './chat-helpers';
import { expectNoSeriousViolations, expectNoSidewaysScroll, screenshot } from './page-checks';
import {
  expect,
  newAccount,
  seedSession,
  signIn,
  test,
  type Account,
  type Api,
  type TestServer,
} from './fixtures';

// The logs page against the real server: an event the server records (a failed sign-in) is found by
// the admin by level, category and words, and its context opens. The page in every state is tested
// beside it (features/logs/components/logs-page.int.test.tsx).
//
// The server writes a failed sign-in at level warn, category auth, event `auth.sign_in_failed`,
// with the account's id when the identifier names one (never the identifier itself: someone may
// have typed a password there), and the request's id. The admin finds it by the account's id.

/** The admin, signed in on `page` in admin mode, at `path`. */
async function openAsAdmin(page: Page, api: Api, admin: Account, path: string) {
  await api.ensureAdminMode(admin);
  await seedSession(page, await api.login(admin));
  await page.goto(path);
  await expect(page.getByRole('heading', { level: 1, name: 'Logs' })).toBeVisible();
}

/** Someone (another browser) types a wrong password for `account` on the login page. */
async function failSignIn(page: Page, account: Account) {
  await signIn(page, account.email, 'senha-errada-123');
  await expect(
    page.getByRole('alert').filter({ hasText: 'Usuário/e-mail ou senha inválidos' }),
  ).toBeVisible();
}

/** The table's rows whose message matches `message`. */
function rowsSaying(page: Page, message: RegExp) {
  return page
    .getByRole('table', { name: 'Eventos do log, os mais recentes primeiro' })
    .getByRole('row')
    .filter({ has: page.getByRole('button', { name: message }) });
}

/** The table's rows of failed sign-ins, in the admin's language (pt-BR). */
function failedSignIns(page: Page) {
  return rowsSaying(page, /Falha ao entrar: credenciais inválidas/);
}

/** Clicks Refresh until `rows` holds `count` rows: events are written in batches, off the request path. */
async function refreshUntil(page: Page, rows: Locator, count = 1) {
  await expect(async () => {
    await page.getByRole('button', { name: 'Atualizar' }).click();
    await expect(rows).toHaveCount(count, { timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
}

test('a failed sign-in appears in /logs: found by level, category and search, with its context', async ({
  page,
  api,
  admin,
  browser,
}) => {
  const account = newAccount('logsalvo');
  await api.register(account);
  const { user } = await api.login(account);
  const other = await browser.newContext();
  try {
    await failSignIn(await other.newPage(), account);
  } finally {
    await other.close();
  }

  await openAsAdmin(page, api, admin, '/logs');
  // Written in batches off the request path: it may take a moment to be stored.
  const search = page.getByRole('searchbox', { name: 'Buscar' });
  await page.getByLabel('Nível').selectOption({ label: 'Aviso' });
  await page.getByLabel('Categoria').selectOption({ label: 'Entradas e contas' });
  await search.fill(user.id);
  await expect(page).toHaveURL(/[?&]level=warn/);
  await expect(page).toHaveURL(/[?&]category=auth/);
  await expect(page).toHaveURL(new RegExp(`[?&]search=${user.id}`));
  const row = failedSignIns(page);
  await refreshUntil(page, row);
  await expect(row.getByRole('cell').nth(1)).toHaveText('Aviso');
  await expect(row.getByRole('cell').nth(2)).toHaveText('Entradas e contas');

  // Its context, from the keyboard.
  const toggle = row.getByRole('button');
  await toggle.focus();
  await page.keyboard.press('Enter');
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  const details = page.getByRole('region', { name: /^Detalhes do evento de / });
  await expect(details).toBeVisible();
  await expect(details.getByText('auth.sign_in_failed', { exact: true })).toBeVisible();
  const json = details.getByLabel('Contexto');
  await expect(json).toContainText('"category": "auth"');
  await expect(json).toContainText('"requestId":');
  await expect(json).toContainText(`"userId": "${user.id}"`);
  // Nothing secret: neither the password typed nor the identifier is in it.
  await expect(details).not.toContainText('senha-errada-123');
  await expect(details).not.toContainText(account.email);

  // The level error leaves it out; a reload keeps the filters.
  await page.getByLabel('Nível').selectOption({ label: 'Erro' });
  await expect(page.getByText('Nenhum log corresponde a estes filtros')).toBeVisible();
  await page.getByLabel('Nível').selectOption({ label: 'Aviso' });
  await expect(row).toHaveCount(1);
  await page.reload();
  await expect(page.getByLabel('Nível')).toHaveValue('warn');
  await expect(search).toHaveValue(user.id);
  await expect(failedSignIns(page)).toHaveCount(1);
});

test('a user gets Access denied on /logs, and no Logs link', async ({ page, api }) => {
  await signedInUser(page, api, { prefix: 'semlogs' });
  await page.goto('/logs');
  await expect(page.getByRole('heading', { level: 1, name: 'Acesso negado' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Logs', exact: true })).toHaveCount(0);
  await page.getByRole('link', { name: 'Voltar ao Painel' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('/logs: no serious axe violations on a desktop and a phone, no sideways scroll; screenshots', async ({
  page,
  api,
  admin,
}, testInfo) => {
  // At least one event to show: a failed sign-in through the API.
  const account = newAccount('logsvisual');
  await api.register(account);
  const { user } = await api.login(account);
  await api.post('/api/login', { email: account.email, password: 'senha-errada-123' });

  await openAsAdmin(page, api, admin, `/logs?search=${user.id}`);
  const row = failedSignIns(page);
  await refreshUntil(page, row);
  await row.getByRole('button').click();
  await expect(page.getByRole('region', { name: /^Detalhes do evento de / })).toBeVisible();
  for (const size of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(size);
    const at = `${size.width}px`;
    await expectNoSeriousViolations(page, `/logs with an event open at ${at}`);
    await expectNoSidewaysScroll(page, `/logs at ${at}`);
    await screenshot(page, testInfo, `logs-${size.width}`);
  }

  await page.getByRole('searchbox', { name: 'Buscar' }).fill('nada-disso-aconteceu');
  await expect(page.getByText('Nenhum log corresponde a estes filtros')).toBeVisible();
  await expectNoSeriousViolations(page, '/logs with no match');
  await screenshot(page, testInfo, 'logs-no-match-390');
});

/** An image uploaded through the API, then edited or deleted as `then` says: the audit's and the log's set-up. */
async function imageChange(
  server: TestServer,
  token: string,
  title: string,
  then: { title: string } | 'delete',
): Promise<string> {
  const form = new FormData();
  form.set('title', title);
  form.set('altText', title);
  form.set('category', 'production');
  form.set('isPublic', 'false');
  const png = await sharp({ create: { width: 32, height: 24, channels: 4, background: '#3a7' } })
    .png()
    .toBuffer();
  form.set('image', new File([new Uint8Array(png)], `${title}.png`, { type: 'image/png' }));
  const headers = { authorization: `Bearer ${token}` };
  const uploaded = await fetch(`${server.baseURL}/api/images/upload`, {
    method: 'POST',
    body: form,
    headers,
  });
  if (uploaded.status !== 200)
    throw new Error(`upload ${title}: ${uploaded.status} ${await uploaded.text()}`);
  const { imageId } = (await uploaded.json()) as { imageId: string };
  const res =
    then === 'delete'
      ? await fetch(`${server.baseURL}/api/images/${imageId}`, { method: 'DELETE', headers })
      : await fetch(`${server.baseURL}/api/images/${imageId}`, {
          method: 'PUT',
          body: JSON.stringify(then),
          headers: { ...headers, 'content-type': 'application/json' },
        });
  if (res.status !== 200)
    throw new Error(`${then === 'delete' ? 'delete' : 'edit'} ${title}: ${res.status}`);
  return imageId;
}

test("the Logs page and the recent changes speak the admin's language: sign-ins, an image edited old → new, one deleted named", async ({
  page,
  api,
  admin,
  server,
}) => {
  await api.ensureAdminMode(admin);
  const { token } = await api.login(admin);
  await imageChange(server, token, 'Praia velha', { title: 'Praia' });
  await imageChange(server, token, 'Farol', 'delete');

  await openAsAdmin(page, api, admin, '/logs');
  const edited = rowsSaying(page, /^Administrador alterou a imagem “Praia”$/);
  await refreshUntil(page, edited);
  await expect(edited.getByRole('list', { name: 'O que mudou' })).toContainText(
    'título: “Praia velha” → “Praia”',
  );
  await expect(rowsSaying(page, /^Administrador excluiu a imagem “Farol”$/)).toHaveCount(1);
  await expect(rowsSaying(page, /^Entrou$/).first()).toBeVisible();
  // Never a raw key.
  await expect(page.getByRole('table')).not.toContainText(/errors\.|logMessages|admin\.image/);

  // Found by its Portuguese words, accents aside.
  await page.getByRole('searchbox', { name: 'Buscar' }).fill('imagem titulo');
  await expect(page).toHaveURL(/[?&]search=imagem/);
  await expect(edited).toHaveCount(1);

  await page.goto('/logs');
  await refreshUntil(page, edited);
  for (const size of [
    { width: 1366, height: 800 },
    { width: 375, height: 812 },
  ]) {
    await page.setViewportSize(size);
    await expectNoSideWaysScrollAndShoot(page, `logs-pt-BR-${size.width}`);
  }

  await page.setViewportSize({ width: 1366, height: 800 });
  await page.goto('/admin');
  const recent = page.getByRole('region', { name: 'Alterações recentes' });
  // The journeys before this one on the same server changed images too: this one's are found by name.
  await expect(
    recent
      .getByRole('listitem')
      .filter({ hasText: 'excluiu a imagem' })
      .filter({ hasText: 'Farol' })
      .first(),
  ).toBeVisible();
  await expect(
    recent
      .getByRole('listitem')
      .filter({ hasText: 'editou a imagem' })
      .filter({ hasText: 'Praia' })
      .first(),
  ).toContainText('Alterado: título');
  // Every field in words: no name as the server spells it.
  await expect(recent).not.toContainText(/width|fileSize|mimeType|originalFilename/);
  for (const size of [
    { width: 1366, height: 800 },
    { width: 375, height: 812 },
  ]) {
    await page.setViewportSize(size);
    await recent.scrollIntoViewIfNeeded();
    await expectNoSidewaysScroll(page, `/admin at ${size.width}px`);
    await saveShot(recent, `admin-recent-changes-pt-BR-${size.width}`);
  }
});

/** Where this journey's screenshots go, for a person to see (SHOTS_DIR, else the test results). */
const SHOTS_DIR = process.env.SHOTS_DIR ?? 'test-results/screenshots';

async function saveShot(target: Page | Locator, name: string) {
  await target.screenshot({
    path: `${SHOTS_DIR}/${name}.png`,
    ...('goto' in target ? { fullPage: true } : {}),
  });
}

async function expectNoSideWaysScrollAndShoot(page: Page, name: string) {
  await expectNoSidewaysScroll(page, name);
  await page.evaluate(() => window.scrollTo(0, 0));
  await saveShot(page, name);
}
