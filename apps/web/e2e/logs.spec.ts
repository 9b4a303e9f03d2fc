import type { Page } from '@playwright/test';
import { signedInUser } from './chat-helpers';
import { expectNoSeriousViolations, expectNoSidewaysScroll, screenshot } from './page-checks';
import { expect, newAccount, seedSession, signIn, test, type Account, type Api } from './fixtures';

// The logs page (issue 12 points 8–10) against the real server: an event the server records
// (a failed sign-in) is found by the admin by level, category and words, and its context opens.
// The page in every state is tested beside it (features/logs/components/logs-page.test.tsx).
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

/** The table's rows of failed sign-ins (their message: "Sign-in failed: invalid credentials"). */
function failedSignIns(page: Page) {
  return page
    .getByRole('table', { name: 'Eventos do log, os mais recentes primeiro' })
    .getByRole('row')
    .filter({ has: page.getByRole('button', { name: /Sign-in failed: invalid credentials/ }) });
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
  await expect(async () => {
    await page.getByRole('button', { name: 'Atualizar' }).click();
    await expect(row).toHaveCount(1, { timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
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
  await expect(async () => {
    await page.getByRole('button', { name: 'Atualizar' }).click();
    await expect(row).toHaveCount(1, { timeout: 1_000 });
  }).toPass({ timeout: 15_000 });
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
