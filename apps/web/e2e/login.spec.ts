import {
  Api,
  expect,
  newAccount,
  seedLanguage,
  seedSession,
  signIn,
  stored,
  test,
  type Account,
} from './fixtures';

// Sign-in: by username or e-mail, the stored session, the busy button and the server's refusal.

let account: Account;

test.beforeAll(async ({ server }) => {
  account = newAccount('entrar');
  await new Api(server).register(account);
});

test('signs in by username (pt-BR): the dashboard shows the name and e-mail; token and user are stored', async ({
  page,
  api,
}) => {
  await page.goto('/login');
  await expect(
    page.getByRole('heading', { level: 1, name: 'Que bom ver você de novo' }),
  ).toBeVisible();
  await page.getByLabel('Usuário ou e-mail').fill(account.username);
  await page.getByLabel('Senha').fill(account.password);
  await page.getByRole('button', { name: 'Entrar', exact: true }).click();

  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(
    page.getByRole('heading', { level: 1, name: `Boas-vindas, ${account.name}` }),
  ).toBeVisible();
  const header = page.getByRole('banner');
  await expect(header).toContainText(account.name);
  await expect(header).toContainText(account.email);

  // A signed token of a live session.
  const token = await stored(page, 'token');
  expect(token).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
  expect(await api.userStatus(token ?? '')).toBe(200);
  const user = JSON.parse((await stored(page, 'user')) ?? 'null') as Record<string, unknown> | null;
  expect(user).toMatchObject({
    name: account.name,
    email: account.email,
    username: account.username,
    role: 'user',
  });
});

test('signs in by e-mail in any letter case (en-US)', async ({ page, api }) => {
  await seedLanguage(page, 'en-US');
  await page.goto('/login');
  await page.getByLabel('Username or Email').fill(account.email.toUpperCase());
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();

  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(
    page.getByRole('heading', { level: 1, name: `Welcome, ${account.name}` }),
  ).toBeVisible();
  await expect(page.getByRole('banner')).toContainText(account.email);
  // The stored token is a live session.
  const token = await stored(page, 'token');
  expect(await api.userStatus(token ?? '')).toBe(200);
});

test('a wrong password shows the server message and stays on /login (pt-BR, en-US)', async ({
  page,
}) => {
  await signIn(page, account.email, 'senha-errada');
  await expect(
    page.getByRole('alert').filter({ hasText: 'Usuário/e-mail ou senha inválidos' }),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);

  await page.getByRole('button', { name: 'English (US)' }).click();
  await page.getByLabel('Username or Email').fill(account.username);
  await page.getByLabel('Password').fill('not-the-password');
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expect(
    page.getByRole('alert').filter({ hasText: 'Invalid username/email or password' }),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/login$/);
  expect(await stored(page, 'token')).toBeNull();
  expect(await stored(page, 'user')).toBeNull();
  // The form keeps what was typed, ready for another try.
  await expect(page.getByLabel('Username or Email')).toHaveValue(account.username);
});

test('the button reads "Signing In..." and is disabled while the request is under way', async ({
  page,
}) => {
  await seedLanguage(page, 'en-US');
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  let arrived: () => void = () => {};
  const requested = new Promise<void>((resolve) => (arrived = resolve));
  await page.route('**/api/login', async (route) => {
    arrived();
    await held;
    await route.continue();
  });

  await page.goto('/login');
  await page.getByLabel('Username or Email').fill(account.username);
  await page.getByLabel('Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await requested;

  const busy = page.getByRole('button', { name: 'Signing In...' });
  await expect(busy).toBeVisible();
  await expect(busy).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Sign In', exact: true })).toHaveCount(0);

  release();
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('signed in, /login and /register go to /dashboard', async ({ page, api }) => {
  await seedSession(page, await api.login(account));
  await page.goto('/login');
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('banner')).toContainText(account.email);
  await page.goto('/register');
  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(page.getByRole('banner')).toContainText(account.email);
});
