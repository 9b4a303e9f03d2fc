import type { Page } from '@playwright/test';
import {
  Api,
  expect,
  newAccount,
  seedSession,
  seedStorage,
  stored,
  test,
  type Account,
} from './fixtures';

// Route guards and session end: signed-out visitors go to /login, and a 401 anywhere ends the
// session there.

let account: Account;

test.beforeAll(async ({ server }) => {
  account = newAccount('guarda');
  await new Api(server).register(account);
});

async function expectOnLogin(page: Page) {
  await expect(page).toHaveURL(/\/login$/);
  await expect(
    page.getByRole('heading', { level: 1, name: 'Que bom ver você de novo' }),
  ).toBeVisible();
}

test('signed out: /dashboard and / end on /login', async ({ page }) => {
  for (const path of ['/dashboard', '/']) {
    await page.goto(path);
    await expectOnLogin(page);
  }
});

// An unknown address says so, with the way back, rather than sending the reader to /login (and a
// signed-in user on to the dashboard) with no word of what happened.
test('signed out: an unknown path shows "Página não encontrada" with a way to the login', async ({
  page,
}) => {
  await page.goto('/no/such/page');
  await expect(
    page.getByRole('heading', { level: 1, name: 'Página não encontrada' }),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/no\/such\/page$/);
  await page.getByRole('link', { name: 'Ir para o login' }).click();
  await expectOnLogin(page);
});

test('signed in: / goes to /guia; an unknown path shows the not-found page in the app, with a way back', async ({
  page,
  api,
}) => {
  await seedSession(page, await api.login(account));
  await page.goto('/');
  await expect(page).toHaveURL(/\/guia$/);
  await expect(page.getByRole('banner')).toContainText(account.email);

  await page.goto('/no/such/page');
  await expect(
    page.getByRole('heading', { level: 1, name: 'Página não encontrada' }),
  ).toBeVisible();
  await expect(page.getByRole('banner')).toContainText(account.email);
  await page.getByRole('main').getByRole('link', { name: 'Voltar ao início' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(
    page.getByRole('heading', { level: 1, name: new RegExp(account.name) }),
  ).toBeVisible();
});

test('a session revoked elsewhere: the next call answers 401, storage is cleared and the page is /login', async ({
  page,
  api,
}) => {
  const session = await api.login(account);
  await seedSession(page, session);
  await page.goto('/dashboard');
  await expect(page.getByRole('banner')).toContainText(account.email);

  const token = await stored(page, 'token');
  expect(token).toBe(session.token);
  expect((await api.post('/api/logout', {}, session.token)).status).toBe(200);

  await page.reload();
  await expectOnLogin(page);
  expect(await stored(page, 'token')).toBeNull();
  expect(await stored(page, 'user')).toBeNull();
  // And it stays signed out.
  await page.goto('/dashboard');
  await expectOnLogin(page);
});

test('a 401 on an in-page call (role switch) clears storage and goes to /login without a reload', async ({
  page,
  api,
  admin,
}) => {
  await api.ensureAdminMode(admin);
  await seedSession(page, await api.login(admin));
  // Without its live connection: with it, the page would learn of the revocation below by
  // itself (the server drops the socket of an ended session) and go to /login before any call.
  await page.routeWebSocket(/\/socket\.io\//, (socket) => socket.close());
  await page.goto('/dashboard');
  const userMode = page.getByRole('button', { name: 'Modo usuário' });
  await expect(userMode).toBeVisible();
  // The header shows while the dashboard's own chunk downloads: its calls, made after the logout
  // below, would end the session before the switch does. So the page is whole first.
  await expect(page.getByRole('heading', { level: 1, name: new RegExp(admin.name) })).toBeVisible();
  await expect(page.getByRole('main').getByText('Carregando...')).toHaveCount(0);

  const token = await stored(page, 'token');
  expect((await api.post('/api/logout', {}, token ?? '')).status).toBe(200);

  // Marks this document: still set afterwards means the app navigated without reloading.
  await page.evaluate(
    () => ((window as unknown as { e2eSameDocument: boolean }).e2eSameDocument = true),
  );
  await userMode.click();
  await expectOnLogin(page);
  expect(await stored(page, 'token')).toBeNull();
  expect(await stored(page, 'user')).toBeNull();
  expect(
    await page.evaluate(() => (window as unknown as { e2eSameDocument?: boolean }).e2eSameDocument),
  ).toBe(true);
  // The switch did not happen.
  const { user } = await api.login(admin);
  expect(user.role).toBe('admin');
});

test('a tampered or made-up stored token is removed on start and the page is /login', async ({
  page,
  api,
}) => {
  const session = await api.login(account);
  // One character changed well inside the signature (the last one may only carry padding bits).
  const at = session.token.length - 10;
  const tampered =
    session.token.slice(0, at) +
    (session.token[at] === 'A' ? 'B' : 'A') +
    session.token.slice(at + 1);
  expect(await api.userStatus(tampered)).toBe(401);
  await seedStorage(page, { token: tampered, user: JSON.stringify(session.user) });
  await page.goto('/dashboard');
  await expectOnLogin(page);
  expect(await stored(page, 'token')).toBeNull();
  expect(await stored(page, 'user')).toBeNull();

  await page.evaluate(() => {
    window.localStorage.setItem('token', 'garbage');
    window.localStorage.setItem('user', '{"name":"Nobody"}');
  });
  await page.goto('/');
  await expectOnLogin(page);
  expect(await stored(page, 'token')).toBeNull();
  expect(await stored(page, 'user')).toBeNull();
});
