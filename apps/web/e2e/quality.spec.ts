import type { Page, TestInfo } from '@playwright/test';
import { codeFromMail } from '../../server/test/smtp';
import { expectNoSeriousIn, expectNoSidewaysScroll, runAxe, screenshot } from './page-checks';
import { expect, newAccount, seedSession, test, type Account } from './fixtures';
import { sendCode } from './registration-helpers';

// Accessibility (axe-core), small screens, keyboard-only use, and screenshots for review.

const ALWAYS_CHECKED = [
  'document-title',
  'html-has-lang',
  'html-lang-valid',
  'landmark-one-main',
  'page-has-heading-one',
  'button-name',
  'label',
];

/**
 * With a modal <dialog> open, axe checks the dialog alone (the rest of the page is inert), so
 * the page-wide rules above do not apply; these do, to any dialog with a form.
 */
const CHECKED_IN_A_MODAL = ['button-name', 'label', 'color-contrast'];

const SIZES = [
  { name: '375', width: 375, height: 812 },
  { name: '1280', width: 1280, height: 800 },
] as const;

/**
 * axe-core on the page as it is; only serious and critical violations fail. The app's CSP
 * (script-src 'self') rightly refuses an injected <script> (page.addScriptTag), so axe's source
 * is evaluated through the DevTools protocol instead, which the page's CSP does not govern; the
 * page keeps its real CSP while it is checked.
 */
async function expectNoSeriousViolations(page: Page, where: string) {
  const { result, modal } = await runAxe(page);
  // A run that checked nothing would pass silently: these rules apply to every page checked here.
  expect(
    result.passes.map((rule) => rule.id),
    `axe checks that passed on ${where}`,
  ).toEqual(expect.arrayContaining(modal ? CHECKED_IN_A_MODAL : ALWAYS_CHECKED));
  expectNoSeriousIn(result, where);
}

/** Each size: axe, the 375 px overflow check, and (when named) a screenshot. */
async function checkAtBothSizes(page: Page, testInfo: TestInfo, where: string, shot?: string) {
  for (const size of SIZES) {
    await page.setViewportSize({ width: size.width, height: size.height });
    await expectNoSeriousViolations(page, `${where} at ${size.name}px`);
    if (size.width === 375) await expectNoSidewaysScroll(page, where);
    if (shot) await screenshot(page, testInfo, `${shot}-${size.name}`);
  }
}

test('/login: no serious axe violations, no horizontal scroll at 375 px (also with errors shown)', async ({
  page,
}, testInfo) => {
  await page.goto('/login');
  await expect(
    page.getByRole('heading', { level: 1, name: 'Que bom ver você de novo' }),
  ).toBeVisible();
  await checkAtBothSizes(page, testInfo, '/login', 'login');

  await page.getByLabel('Usuário ou e-mail').fill('bad@');
  await page.getByRole('button', { name: 'Entrar', exact: true }).click();
  await expect(page.getByLabel('Senha')).toHaveAttribute('aria-invalid', 'true');
  await checkAtBothSizes(page, testInfo, '/login with errors');
});

test('/register, both steps: no serious axe violations, no horizontal scroll at 375 px', async ({
  page,
  server,
}, testInfo) => {
  // Eight axe runs and four full-page pictures: on a busy 2-core machine that is more than the
  // default 45 s, which is meant for one journey's waits.
  test.setTimeout(90_000);
  await page.goto('/register');
  await expect(page.getByRole('heading', { level: 1, name: 'Criar conta' })).toBeVisible();
  await checkAtBothSizes(page, testInfo, '/register', 'register');

  await page.getByRole('button', { name: 'Enviar código de verificação' }).click();
  await expect(page.getByLabel('Nome completo')).toHaveAttribute('aria-invalid', 'true');
  await checkAtBothSizes(page, testInfo, '/register with errors');

  await sendCode(page, server, 'pt-BR', newAccount('acessivel'));
  await checkAtBothSizes(page, testInfo, '/register step 2', 'register-step2');

  await page.getByRole('button', { name: 'Verificar e criar conta' }).click();
  await expect(page.getByLabel('Código de verificação')).toHaveAttribute('aria-invalid', 'true');
  await checkAtBothSizes(page, testInfo, '/register step 2 with an error');
});

test('/dashboard (admin, with the role switcher): no serious axe violations, no horizontal scroll at 375 px', async ({
  page,
  api,
  admin,
}, testInfo) => {
  await api.ensureAdminMode(admin);
  await seedSession(page, await api.login(admin));
  await page.goto('/dashboard');
  await expect(
    page.getByRole('heading', { level: 1, name: `Boas-vindas, ${admin.name}` }),
  ).toBeVisible();
  await expect(page.getByRole('group', { name: 'Modo' })).toBeVisible();
  await checkAtBothSizes(page, testInfo, '/dashboard', 'dashboard');
});

test('/profile (also with errors) and /forgot-password, both steps: no serious axe violations, no horizontal scroll at 375 px', async ({
  page,
  api,
  server,
}, testInfo) => {
  const account = newAccount('contaa11y');
  await api.register(account);
  await seedSession(page, await api.login(account));
  await page.goto('/profile');
  await expect(page.getByLabel('Nome completo')).toHaveValue(account.name);
  await expect(page.getByText('Este aparelho')).toBeVisible();
  await checkAtBothSizes(page, testInfo, '/profile', 'profile');

  await page.getByRole('button', { name: 'Alterar senha' }).click();
  await expect(page.getByLabel('Senha atual')).toHaveAttribute('aria-invalid', 'true');
  await checkAtBothSizes(page, testInfo, '/profile with errors');

  await page.getByRole('button', { name: 'Sair', exact: true }).click();
  // Signed out once the sign-in page shows: a page opened before that still has the token, and
  // the session's end, arriving then, sends it to /login.
  await expect(
    page.getByRole('heading', { level: 1, name: 'Que bom ver você de novo' }),
  ).toBeVisible();
  await page.goto('/forgot-password');
  await expect(page.getByRole('heading', { level: 1, name: 'Esqueceu sua senha?' })).toBeVisible();
  await checkAtBothSizes(page, testInfo, '/forgot-password', 'forgot-password');
  const since = server.smtp.messages.length;
  await page.getByLabel('Endereço de e-mail').fill(account.email);
  await page.getByRole('button', { name: 'Enviar código' }).click();
  await expect(
    page.getByRole('heading', { level: 1, name: 'Escolha uma nova senha' }),
  ).toBeVisible();
  codeFromMail(await server.smtp.waitForMail(account.email, { since }));
  await page.getByRole('button', { name: 'Redefinir senha' }).click();
  await expect(page.getByLabel('Código de verificação')).toHaveAttribute('aria-invalid', 'true');
  await checkAtBothSizes(
    page,
    testInfo,
    '/forgot-password step 2 with errors',
    'forgot-password-step2',
  );
});

test('/profile with the delete-account dialog open (also with its error shown): no serious axe violations, fits 375 px', async ({
  page,
  api,
}, testInfo) => {
  const account = newAccount('excluira11y');
  await api.register(account);
  await seedSession(page, await api.login(account));
  await page.goto('/profile');
  await expect(page.getByLabel('Nome completo')).toHaveValue(account.name);
  await expect(page.getByText('Este aparelho')).toBeVisible();

  await page.getByRole('button', { name: 'Excluir minha conta' }).click();
  const dialog = page.getByRole('dialog', { name: 'Excluir sua conta?' });
  await expect(dialog.getByLabel('Sua senha')).toBeFocused();
  await checkAtBothSizes(
    page,
    testInfo,
    '/profile with the delete-account dialog',
    'profile-delete',
  );

  await dialog.getByRole('button', { name: 'Excluir para sempre' }).click();
  await expect(dialog.getByLabel('Sua senha')).toHaveAttribute('aria-invalid', 'true');
  await checkAtBothSizes(page, testInfo, '/profile with the delete-account dialog and its error');

  // The dialog sits above the page (the top layer), where the page's own scroll width cannot
  // tell whether it overflows: at 375 px it must fit the screen by itself.
  await page.setViewportSize({ width: 375, height: 812 });
  const box = await dialog.boundingBox();
  expect(box, 'the dialog is shown').not.toBeNull();
  expect(box!.x, 'dialog left edge at 375px').toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width, 'dialog right edge at 375px').toBeLessThanOrEqual(375);
});

/** Presses Tab until `target` has focus (at most `limit` presses), as a keyboard user would. */
async function tabTo(page: Page, target: ReturnType<Page['getByLabel']>, limit = 12) {
  for (let i = 0; i < limit; i += 1) {
    if (await target.evaluate((el) => el === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  await expect(target).toBeFocused();
}

test('keyboard only: Tab to each field, type, Enter signs in and reaches /dashboard', async ({
  page,
  api,
}) => {
  const account: Account = newAccount('teclado');
  await api.register(account);
  await page.goto('/login');
  await expect(
    page.getByRole('heading', { level: 1, name: 'Que bom ver você de novo' }),
  ).toBeVisible();

  const identifier = page.getByLabel('Usuário ou e-mail');
  await tabTo(page, identifier);
  await page.keyboard.type(account.username);
  // The next Tab stop after the identifier is the password.
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Senha')).toBeFocused();
  await page.keyboard.type(account.password);
  await page.keyboard.press('Enter');

  await expect(page).toHaveURL(/\/dashboard$/);
  await expect(
    page.getByRole('heading', { level: 1, name: `Boas-vindas, ${account.name}` }),
  ).toBeVisible();
});

test('keyboard only: registration step 1 from the first field to the code step, and the code step to /login', async ({
  page,
  server,
}) => {
  const account = newAccount('tecladocad');
  await page.goto('/register');
  await expect(page.getByRole('heading', { level: 1, name: 'Criar conta' })).toBeVisible();

  await tabTo(page, page.getByLabel('Nome completo'));
  await page.keyboard.type(account.name);
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Endereço de e-mail')).toBeFocused();
  await page.keyboard.type(account.email);
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Senha', { exact: true })).toBeFocused();
  await page.keyboard.type(account.password);
  await page.keyboard.press('Tab');
  await expect(page.getByLabel('Confirmar senha')).toBeFocused();
  await page.keyboard.type(account.password);
  await page.keyboard.press('Tab');
  await expect(page.getByRole('button', { name: 'Enviar código de verificação' })).toBeFocused();
  const since = server.smtp.messages.length;
  await page.keyboard.press('Enter');

  // The new step's heading takes focus, so the keyboard continues from the top of step 2.
  const heading = page.getByRole('heading', { level: 1, name: 'Verifique seu e-mail' });
  await expect(heading).toBeFocused();
  const code = codeFromMail(await server.smtp.waitForMail(account.email, { since }));
  await tabTo(page, page.getByLabel('Código de verificação'));
  await page.keyboard.type(code);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/login$/);
  await expect(
    page.getByText('Cadastro realizado com sucesso! Entre com sua nova conta.'),
  ).toBeVisible();
});
