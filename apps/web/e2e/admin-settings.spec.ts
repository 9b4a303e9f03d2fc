import type { Browser, Page } from '@playwright/test';
import { signedInUser } from './chat-helpers';
import { expectNoSeriousViolations, screenshot } from './page-checks';
import { expect, newAccount, seedSession, test, type Account, type Api } from './fixtures';

// The admin's settings, in force at once: the admin changes them in /admin, and the pages of
// everyone else show it. Every test leaves the defaults behind: the worker's server is shared with
// the other journeys.

/** The settings' defaults (packages/shared settings.schemas.ts defaultSettings). */
const DEFAULTS = {
  content: (() => {
    const text = () => ({ 'pt-BR': '', 'en-US': '', 'es-ES': '' });
    const feature = () => ({ title: text(), description: text() });
    return {
      appTitle: text(),
      appSubtitle: text(),
      logoText: text(),
      loginTitle: text(),
      loginSubtitle: text(),
      registerTitle: text(),
      registerSubtitle: text(),
      features: { chat: feature(), analytics: feature(), management: feature() },
    };
  })(),
  theme: {
    primaryColor: '#667eea',
    secondaryColor: '#764ba2',
    backgroundColor: '#f5f6fb',
    textColor: '#1f2937',
    cardBackground: '#ffffff',
    buttonColor: '#5a67d8',
  },
  system: {
    maintenanceMode: false,
    registrationEnabled: true,
    emailVerification: true,
    maxFileSize: 10,
    allowedFileTypes: ['jpg', 'jpeg', 'png', 'gif', 'pdf', 'doc', 'docx'],
    sessionTimeout: 30,
  },
};

async function restoreDefaults(api: Api, admin: Account) {
  await api.ensureAdminMode(admin);
  const { token } = await api.login(admin);
  for (const [section, value] of Object.entries(DEFAULTS)) {
    const res = await api.post(`/api/admin/settings/${section}`, value, token);
    if (res.status !== 200) throw new Error(`restoring ${section}: ${res.status}`);
  }
}

test.beforeEach(async ({ api, admin }) => {
  await restoreDefaults(api, admin);
});

test.afterEach(async ({ api, admin }) => {
  await restoreDefaults(api, admin);
});

/** The admin, signed in on `page` in admin mode, at /admin (or one of its tabs). */
async function openAdmin(page: Page, api: Api, admin: Account, tab?: string) {
  await seedSession(page, await api.login(admin));
  await page.goto(tab ? `/admin?tab=${tab}` : '/admin');
  await expect(
    page.getByRole('heading', { level: 1, name: 'Painel de administração' }),
  ).toBeVisible();
}

async function signOut(page: Page) {
  await page.getByRole('button', { name: 'Sair' }).first().click();
  await expect(page).toHaveURL(/\/login$/);
}

/** A second browser, signed in as a new user: someone else using the app meanwhile. */
async function otherUser(browser: Browser, api: Api) {
  const context = await browser.newContext();
  const page = await context.newPage();
  const { account } = await signedInUser(page, api, { prefix: 'usuario' });
  return { context, page, account };
}

test('a theme colour changed in Theme Settings restyles this page at once, and /login after sign-out', async ({
  page,
  api,
  admin,
}) => {
  await openAdmin(page, api, admin, 'theme');
  const primary = page.getByRole('textbox', { name: 'Cor primária', exact: true });
  await expect(primary).toHaveValue('#667eea');
  await primary.fill('#0f766e');
  // The preview follows at once.
  const preview = page.getByRole('img', { name: 'Prévia do tema' });
  await expect
    .poll(() =>
      preview.evaluate((element) => getComputedStyle(element).getPropertyValue('--color-primary')),
    )
    .toBe('#0f766e');
  await page.getByRole('button', { name: 'Salvar tema' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'Configurações de tema salvas' }),
  ).toBeVisible();

  // This page: the server's stylesheet was loaded again.
  await expect
    .poll(() =>
      page.evaluate(() =>
        getComputedStyle(document.documentElement).getPropertyValue('--color-primary').trim(),
      ),
    )
    .toBe('#0f766e');

  await signOut(page);
  const background = () =>
    page.locator('.auth-page').evaluate((element) => getComputedStyle(element).backgroundImage);
  await expect.poll(background).toContain('rgb(15, 118, 110)');
  // And after a reload, before any script ran: /theme.css is linked from the page itself.
  await page.reload();
  await expect.poll(background).toContain('rgb(15, 118, 110)');
});

test('a sign-in title written for pt-BR shows on /login in pt-BR, and the built-in one in English', async ({
  page,
  api,
  admin,
}) => {
  await openAdmin(page, api, admin, 'content');
  await expect(page.getByRole('tab', { name: 'Português (Brasil)' })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  const title = page.getByRole('textbox', { name: 'Título da entrada', exact: true });
  await expect(title).toHaveAttribute('placeholder', 'Que bom ver você de novo');
  await title.fill('Entre na sua equipe de IA');
  await page.getByRole('button', { name: 'Salvar conteúdo' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'Configurações de conteúdo salvas' }),
  ).toBeVisible();

  await signOut(page);
  await expect(
    page.getByRole('heading', { level: 1, name: 'Entre na sua equipe de IA' }),
  ).toBeVisible();
  await page.getByRole('button', { name: 'English (US)' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Welcome Back' })).toBeVisible();
});

test('maintenance on: an open page of a user shows the maintenance page at once while the admin keeps working with a banner; off: the page is back by itself', async ({
  page,
  api,
  admin,
  browser,
}, testInfo) => {
  const other = await otherUser(browser, api);
  try {
    await other.page.goto('/dashboard');
    await expect(other.page.getByRole('navigation', { name: 'Navegação principal' })).toBeVisible();

    await openAdmin(page, api, admin, 'system');
    await page.getByRole('switch', { name: 'Modo de manutenção' }).check();
    await page.getByRole('button', { name: 'Salvar configurações do sistema' }).click();
    const confirm = page.getByRole('dialog', { name: 'Ligar o modo de manutenção?' });
    // The confirmation promises that open pages show maintenance at once: checked below.
    await expect(confirm).toContainText('as páginas abertas mostram a página de manutenção');
    await confirm.getByRole('button', { name: 'Ligar e salvar' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: 'Configurações do sistema salvas' }),
    ).toBeVisible();
    const banner = page.getByText(
      'O modo de manutenção está ligado: só administradores podem usar o aplicativo',
    );
    await expect(banner).toBeVisible();

    // The user's open page, left alone (no click, no reload), shows why nothing works.
    await expect(other.page.getByRole('heading', { level: 1, name: 'Voltamos já' })).toBeVisible();
    await expect(other.page.getByRole('navigation')).toHaveCount(0);
    // A reload too: the session stays, the page says why.
    await other.page.reload();
    await expect(other.page.getByRole('heading', { level: 1, name: 'Voltamos já' })).toBeVisible();
    expect(await other.page.evaluate(() => localStorage.getItem('token'))).not.toBeNull();
    await other.page.setViewportSize({ width: 1366, height: 768 });
    await screenshot(other.page, testInfo, 'maintenance-page-1366');
    await other.page.setViewportSize({ width: 375, height: 812 });
    await screenshot(other.page, testInfo, 'maintenance-page-375');
    await expectNoSeriousViolations(other.page, 'the maintenance page');
    await other.page.setViewportSize({ width: 1366, height: 768 });

    // The admin works on: another page, the banner still there, its link back to the setting.
    await page.setViewportSize({ width: 1366, height: 768 });
    await page.getByRole('link', { name: 'Painel', exact: true }).click();
    await expect(
      page.getByRole('heading', { level: 1, name: `Boas-vindas, ${admin.name}` }),
    ).toBeVisible();
    await screenshot(page, testInfo, 'maintenance-banner-1366');
    await page.getByRole('link', { name: 'Abrir Configurações do sistema' }).click();
    await expect(page).toHaveURL(/\/admin\?tab=system$/);
    await page.getByRole('switch', { name: 'Modo de manutenção' }).uncheck();
    await page.getByRole('button', { name: 'Salvar configurações do sistema' }).click();
    await expect(banner).toBeHidden();

    // Over: the user's page comes back by itself (its connection, tried again every few
    // seconds, is let in again), still signed in.
    await expect(other.page.getByRole('navigation', { name: 'Navegação principal' })).toBeVisible({
      timeout: 20_000,
    });
    await expect(other.page.getByRole('banner')).toContainText(other.account.email);
    await expect(other.page.getByRole('heading', { level: 1, name: 'Voltamos já' })).toHaveCount(0);
  } finally {
    await other.context.close();
  }
});

test('maintenance on: /login says so once, and once again when a user tries to sign in', async ({
  page,
  api,
  admin,
}, testInfo) => {
  const account = newAccount('manutencao');
  await api.register(account);
  const { token } = await api.login(admin);
  const res = await api.post(
    '/api/admin/settings/system',
    { ...DEFAULTS.system, maintenanceMode: true },
    token,
  );
  expect(res.status).toBe(200);

  await page.setViewportSize({ width: 1366, height: 768 });
  await page.goto('/login');
  const notice =
    'O sistema está em manutenção: por enquanto só administradores podem entrar. Volte em alguns minutos.';
  await expect(page.getByText(notice)).toBeVisible();
  await expect(page.getByText(/manutenção/)).toHaveCount(1);

  await page.getByLabel('Usuário ou e-mail').fill(account.email);
  await page.getByLabel('Senha').fill(account.password);
  await page.getByRole('button', { name: 'Entrar' }).click();
  await expect(page.getByRole('alert').filter({ hasText: notice })).toBeVisible();
  await expect(page.getByText(/manutenção/)).toHaveCount(1);
  await expect(page).toHaveURL(/\/login$/);
  await screenshot(page, testInfo, 'login-maintenance-1366');
  await page.setViewportSize({ width: 375, height: 812 });
  await expect(page.getByText(/manutenção/)).toHaveCount(1);
  await screenshot(page, testInfo, 'login-maintenance-375');
});

test('registration closed in System Settings: /register says so, and nothing invites to sign up', async ({
  page,
  api,
  admin,
}, testInfo) => {
  await openAdmin(page, api, admin, 'system');
  await page.getByRole('switch', { name: 'Cadastro aberto' }).uncheck();
  await page.getByRole('button', { name: 'Salvar configurações do sistema' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: 'Configurações do sistema salvas' }),
  ).toBeVisible();

  await signOut(page);
  await page.goto('/register');
  await expect(
    page.getByText('As inscrições estão fechadas no momento. Se você já tem uma conta, entre.'),
  ).toBeVisible();
  await expect(page.getByLabel('Nome completo')).toHaveCount(0);
  // Neither the heading nor the side panel invites to sign up.
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Cadastro fechado');
  const panel = page.getByRole('complementary');
  await expect(panel).toBeVisible();
  await expect(panel).not.toContainText('Crie sua conta');
  await expect(panel).not.toContainText('cadastre-se');

  // The sign-in page no longer offers an account.
  await page.goto('/login');
  await expect(
    page.getByRole('heading', { level: 1, name: 'Que bom ver você de novo' }),
  ).toBeVisible();
  await expect(page.getByRole('link', { name: 'Esqueceu sua senha?' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Criar uma conta' })).toHaveCount(0);
  await expect(page.getByText('Ainda não tem conta?')).toHaveCount(0);
  for (const width of [1366, 375]) {
    await page.setViewportSize({ width, height: width > 400 ? 768 : 812 });
    await screenshot(page, testInfo, `login-registration-closed-${width}`);
  }

  // And the server still refuses, whatever a page shows.
  const sent = await api.post('/api/send-otp', {
    email: 'fechado@example.com',
    purpose: 'registration',
  });
  expect(sent.status).toBe(403);
});

test('a user and an admin in user mode get Access denied on /admin, and no Admin link', async ({
  page,
  api,
}) => {
  await signedInUser(page, api, { prefix: 'semadmin' });
  await page.goto('/admin');
  await expect(page.getByRole('heading', { level: 1, name: 'Acesso negado' })).toBeVisible();
  // The admin pages are grouped under one button: neither it nor the panel's link.
  await expect(page.getByRole('button', { name: 'Administração' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'Painel de administração' })).toHaveCount(0);
  await page.getByRole('link', { name: 'Voltar ao Painel' }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
});

test("/admin's tabs: no serious axe violations on a desktop and a phone, no sideways scroll; screenshots", async ({
  page,
  api,
  admin,
}, testInfo) => {
  await openAdmin(page, api, admin);
  const tabs = [
    { name: 'Gerenciar conteúdo', id: 'content', ready: 'Salvar conteúdo' },
    { name: 'Configurações de tema', id: 'theme', ready: 'Salvar tema' },
    { name: 'Configurações do sistema', id: 'system', ready: 'Salvar configurações do sistema' },
  ];
  for (const size of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(size);
    for (const tab of tabs) {
      await page.getByRole('tab', { name: tab.name }).click();
      await expect(page.getByRole('button', { name: tab.ready })).toBeVisible();
      await expectNoSeriousViolations(page, `/admin?tab=${tab.id} at ${size.width}px`);
      const { scrollWidth, innerWidth } = await page.evaluate(() => ({
        scrollWidth: document.documentElement.scrollWidth,
        innerWidth: window.innerWidth,
      }));
      expect(scrollWidth, `sideways scroll on ${tab.id} at ${size.width}px`).toBeLessThanOrEqual(
        innerWidth,
      );
      await screenshot(page, testInfo, `admin-${tab.id}-${size.width}`);
    }
  }
  // The maintenance confirmation, a modal dialog.
  await page.getByRole('switch', { name: 'Modo de manutenção' }).check();
  await page.getByRole('button', { name: 'Salvar configurações do sistema' }).click();
  await expect(page.getByRole('dialog', { name: 'Ligar o modo de manutenção?' })).toBeVisible();
  await expectNoSeriousViolations(page, 'the maintenance confirmation');
  await screenshot(page, testInfo, 'admin-maintenance-dialog-390');
  await page.getByRole('button', { name: 'Cancelar' }).click();
});
