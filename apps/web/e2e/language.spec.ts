import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { signedInUser } from './chat-helpers';
import { expect, newAccount, seedStorage, stored, test } from './fixtures';

// Interface language: the selectors, the stored choice (storage key `language`), the switch in
// place or to another brand domain, and each language's domain. The worker's server runs with
// BRAND_DOMAINS=pt-BR=br.contrateia.test,en-US=en.contrateia.test,es-ES=en.contrateia.test.

const LANGUAGES = ['pt-BR', 'en-US', 'es-ES'] as const;
type Lang = (typeof LANGUAGES)[number];

const LOGIN_TITLE: Record<Lang, string> = {
  'pt-BR': 'Que bom ver você de novo',
  'en-US': 'Welcome Back',
  'es-ES': 'Hola de nuevo',
};
const BUTTON: Record<'signIn' | 'sendCode' | 'verify', Record<Lang, string>> = {
  signIn: { 'pt-BR': 'Entrar', 'en-US': 'Sign In', 'es-ES': 'Iniciar sesión' },
  sendCode: {
    'pt-BR': 'Enviar código de verificação',
    'en-US': 'Send Verification Code',
    'es-ES': 'Enviar código de verificación',
  },
  verify: {
    'pt-BR': 'Verificar e criar conta',
    'en-US': 'Verify & Create Account',
    'es-ES': 'Verificar y crear cuenta',
  },
};
const CREATE_ACCOUNT: Record<Lang, string> = {
  'pt-BR': 'Criar uma conta',
  'en-US': 'Create an account',
  'es-ES': 'Crear una cuenta',
};
const FLAG: Record<Lang, string> = {
  'pt-BR': 'Português (Brasil)',
  'en-US': 'English (US)',
  'es-ES': 'Español (España)',
};

function brandURL(port: number, host: 'br' | 'en', pathAndQuery: string) {
  return `http://${host}.contrateia.test:${port}${pathAndQuery}`;
}

async function expectLoginIn(page: Page, lang: Lang) {
  await expect(page.getByRole('heading', { level: 1, name: LOGIN_TITLE[lang] })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', lang);
  await expect(page.getByRole('button', { name: FLAG[lang] })).toHaveAttribute(
    'aria-pressed',
    'true',
  );
}

/** Records (and dismisses) every dialog: in-place switches must not ask anything. */
function recordDialogs(page: Page): string[] {
  const dialogs: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss();
  });
  return dialogs;
}

test.describe('with an English-speaking browser', () => {
  test.use({ locale: 'en-US' });

  test('the default is pt-BR on 127.0.0.1 (Portuguese texts, <html lang="pt-BR">)', async ({
    page,
  }) => {
    await page.goto('/login');
    await expectLoginIn(page, 'pt-BR');
    await expect(page).toHaveTitle('Entrar · ContrateIA');
    await expect(page.getByRole('button', { name: 'Entrar', exact: true })).toBeVisible();
    await expect(page.getByRole('group', { name: 'Idioma' })).toBeVisible();
    await page.getByRole('link', { name: 'Criar uma conta' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Criar conta' })).toBeVisible();
    await expect(page).toHaveTitle('Criar conta · ContrateIA');
  });

  test('http://br.contrateia.test/ detects pt-BR, even with another language stored there', async ({
    page,
    server,
  }) => {
    await seedStorage(page, { language: 'en-US' });
    await page.goto(brandURL(server.port, 'br', '/'));
    await expect(page).toHaveURL(brandURL(server.port, 'br', '/login'));
    await expectLoginIn(page, 'pt-BR');
  });
});

test('the flag buttons on /login switch in place to en-US and es-ES; the choice is stored and survives reloads', async ({
  page,
}) => {
  const dialogs = recordDialogs(page);
  await page.goto('/login');
  await expectLoginIn(page, 'pt-BR');
  // Errors on screen follow the language too.
  await page.getByRole('button', { name: 'Entrar', exact: true }).click();
  await expect(page.getByText('Usuário ou e-mail é obrigatório')).toBeVisible();
  const url = page.url();

  await page.getByRole('button', { name: 'English (US)' }).click();
  await expectLoginIn(page, 'en-US');
  await expect(page.getByText('Username or email is required')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Português (Brasil)' })).toHaveAttribute(
    'aria-pressed',
    'false',
  );
  await expect(page).toHaveTitle('Sign In · ContrateIA');
  expect(page.url()).toBe(url);
  expect(await stored(page, 'language')).toBe('en-US');
  await page.reload();
  await expectLoginIn(page, 'en-US');

  await page.getByRole('button', { name: 'Español (España)' }).click();
  await expectLoginIn(page, 'es-ES');
  await expect(page.getByLabel('Usuario o correo electrónico')).toBeVisible();
  expect(page.url()).toBe(url);
  expect(await stored(page, 'language')).toBe('es-ES');
  await page.reload();
  await expectLoginIn(page, 'es-ES');
  await page.getByRole('link', { name: 'Crear una cuenta' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Crear cuenta' })).toBeVisible();

  await page.getByRole('button', { name: 'Português (Brasil)' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Criar conta' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'pt-BR');
  expect(await stored(page, 'language')).toBe('pt-BR');
  expect(dialogs, 'no confirmation on 127.0.0.1').toEqual([]);
});

test('the three flag buttons show three different flags, whatever fonts the machine has', async ({
  page,
}) => {
  // This machine's Chromium has no colour emoji font: flags drawn as emoji came out as three
  // identical blank boxes here, as on Windows (letter pairs) and many Linux desktops.
  await page.goto('/login');
  await expectLoginIn(page, 'pt-BR');
  const pictures = await Promise.all(
    LANGUAGES.map((lang) =>
      page.getByRole('button', { name: FLAG[lang] }).locator('[aria-hidden="true"]').screenshot(),
    ),
  );
  for (const picture of pictures) expect(picture.length).toBeGreaterThan(0);
  expect(pictures[0]!.equals(pictures[1]!), 'pt-BR and en-US look the same').toBe(false);
  expect(pictures[0]!.equals(pictures[2]!), 'pt-BR and es-ES look the same').toBe(false);
  expect(pictures[1]!.equals(pictures[2]!), 'en-US and es-ES look the same').toBe(false);
});

test('the dropdown on /dashboard switches the language in place', async ({ page, api }) => {
  const dialogs = recordDialogs(page);
  const { account } = await signedInUser(page, api, { prefix: 'idioma' });
  await page.goto('/dashboard');
  const select = page.getByRole('combobox', { name: 'Idioma' });
  await expect(select).toHaveValue('pt-BR');
  await expect(
    page.getByRole('heading', { level: 1, name: `Boas-vindas, ${account.name}` }),
  ).toBeVisible();

  await select.selectOption('en-US');
  await expect(
    page.getByRole('heading', { level: 1, name: `Welcome, ${account.name}` }),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en-US');
  await expect(page.getByRole('combobox', { name: 'Language' })).toHaveValue('en-US');
  expect(await stored(page, 'language')).toBe('en-US');

  await page.getByRole('combobox', { name: 'Language' }).selectOption('es-ES');
  await expect(
    page.getByRole('heading', { level: 1, name: `Te damos la bienvenida, ${account.name}` }),
  ).toBeVisible();
  await expect(page.locator('html')).toHaveAttribute('lang', 'es-ES');
  await page.reload();
  await expect(
    page.getByRole('heading', { level: 1, name: `Te damos la bienvenida, ${account.name}` }),
  ).toBeVisible();
  await expect(page).toHaveURL(/\/dashboard$/);
  expect(dialogs, 'no confirmation on 127.0.0.1').toEqual([]);
});

test('brand domains: English on en.contrateia.test, es-ES in place, pt-BR asks and then moves to br.contrateia.test', async ({
  page,
  server,
}) => {
  const start = brandURL(server.port, 'en', '/login?x=1#h');
  await page.goto(start);
  await expectLoginIn(page, 'en-US');

  // es-ES shares the English brand domain: in place, no question.
  const dialogs: string[] = [];
  let answer: 'dismiss' | 'accept' = 'dismiss';
  page.on('dialog', (dialog) => {
    dialogs.push(`${dialog.type()}: ${dialog.message()}`);
    void (answer === 'accept' ? dialog.accept() : dialog.dismiss());
  });
  await page.getByRole('button', { name: FLAG['es-ES'] }).click();
  await expectLoginIn(page, 'es-ES');
  expect(page.url()).toBe(start);
  expect(dialogs).toEqual([]);
  // Stored per domain, and it belongs to this one: a reload keeps Spanish.
  await page.reload();
  await expectLoginIn(page, 'es-ES');

  // pt-BR lives on the other domain: confirm first. Dismissed: nothing changes.
  await page.getByRole('button', { name: FLAG['pt-BR'] }).click();
  await expect.poll(() => dialogs.length).toBe(1);
  expect(dialogs[0]).toBe(
    'confirm: Este idioma está disponible en br.contrateia.test. ¿Ir allí ahora?',
  );
  await expectLoginIn(page, 'es-ES');
  expect(page.url()).toBe(start);

  // Accepted: same path, query and hash on the Brazilian domain, in Portuguese.
  answer = 'accept';
  await page.getByRole('button', { name: FLAG['pt-BR'] }).click();
  await expect(page).toHaveURL(brandURL(server.port, 'br', '/login?x=1#h'));
  await expectLoginIn(page, 'pt-BR');
  expect(dialogs).toHaveLength(2);
  expect(await stored(page, 'language')).toBe('pt-BR');

  // And back: English is on the other domain again, asked in Portuguese.
  await page.getByRole('button', { name: FLAG['en-US'] }).click();
  await expect(page).toHaveURL(brandURL(server.port, 'en', '/login?x=1#h'));
  await expectLoginIn(page, 'en-US');
  expect(dialogs[2]).toBe(
    'confirm: Este idioma está disponível em en.contrateia.test. Ir para lá agora?',
  );
});

// ---------------------------------------------------------------------------------------------
// No raw translation key on screen.

const ROOT = path.resolve(import.meta.dirname, '../../..');

function flattenKeys(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null) return [prefix];
  return Object.entries(value).flatMap(([key, inner]) =>
    flattenKeys(inner, prefix ? `${prefix}.${key}` : key),
  );
}

// Every catalogue the web loads: the texts every page may show, the groups that come with their
// pages (account, app: lib/i18n.ts), and the shared one.
const KEYS = [
  'apps/web/src/locales/en-US.json',
  'apps/web/src/locales/account/en-US.json',
  'apps/web/src/locales/app/en-US.json',
  'packages/shared/src/locales/en-US.json',
].flatMap((file) => flattenKeys(JSON.parse(fs.readFileSync(path.join(ROOT, file), 'utf8'))));

/** What a user can read: rendered text, the tab title, placeholders, accessible names, tooltips. */
async function visibleText(page: Page): Promise<string> {
  return page.evaluate(() => {
    const attributes = [
      ...document.querySelectorAll('[placeholder], [aria-label], [title], [alt]'),
    ].flatMap((el) =>
      ['placeholder', 'aria-label', 'title', 'alt'].map((name) => el.getAttribute(name) ?? ''),
    );
    return [document.title, document.body.innerText, ...attributes].join('\n');
  });
}

async function expectNoRawKeys(page: Page, where: string) {
  const text = await visibleText(page);
  const found = KEYS.filter((key) => text.includes(key));
  expect(found, `raw translation keys on ${where}`).toEqual([]);
}

test('no raw translation key on any page, in any language', async ({
  page,
  server,
  api,
  admin,
}) => {
  expect(KEYS.length).toBeGreaterThan(100);
  expect(KEYS).toContain('login.title');
  expect(KEYS).toContain('validation.emailRequired');
  expect(KEYS).toContain('dashboard.hiredTitle');

  for (const lang of LANGUAGES) {
    await page.goto('/login');
    await page.evaluate((l) => window.localStorage.setItem('language', l), lang);
    await page.reload();
    await expectLoginIn(page, lang);
    await expectNoRawKeys(page, `/login (${lang})`);
    const signIn = page.getByRole('button', { name: BUTTON.signIn[lang], exact: true });
    await signIn.click();
    await expect(page.getByRole('textbox').first()).toHaveAttribute('aria-invalid', 'true');
    await page.getByRole('textbox').first().fill('bad@');
    await signIn.click();
    await expect(page.getByRole('textbox').first()).toHaveAttribute('aria-invalid', 'true');
    await expectNoRawKeys(page, `/login with errors (${lang})`);

    await page.getByRole('link', { name: CREATE_ACCOUNT[lang] }).click();
    await expect(page).toHaveURL(/\/register$/);
    await expect(page.getByRole('button', { name: BUTTON.sendCode[lang] })).toBeVisible();
    await expectNoRawKeys(page, `/register (${lang})`);
    await page.getByRole('button', { name: BUTTON.sendCode[lang] }).click();
    await expect(page.getByRole('textbox').first()).toHaveAttribute('aria-invalid', 'true');
    await expectNoRawKeys(page, `/register with errors (${lang})`);
  }

  // Step 2 once, then every language in place (a code request per language would only repeat it).
  const account = newAccount('chaves');
  await page.getByRole('button', { name: FLAG['pt-BR'] }).click();
  await page.getByLabel('Nome completo').fill(account.name);
  await page.getByLabel('Endereço de e-mail').fill(account.email);
  await page.getByLabel('Senha', { exact: true }).fill('12345');
  await page.getByLabel('Confirmar senha').fill('54321');
  await page.getByRole('button', { name: 'Enviar código de verificação' }).click();
  await expectNoRawKeys(page, '/register step 1 with rule errors (pt-BR)');
  await page.getByLabel('Senha', { exact: true }).fill(account.password);
  await page.getByLabel('Confirmar senha').fill(account.password);
  const since = server.smtp.messages.length;
  await page.getByRole('button', { name: 'Enviar código de verificação' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Verifique seu e-mail' })).toBeVisible();
  await server.smtp.waitForMail(account.email, { since });
  for (const lang of LANGUAGES) {
    await page.getByRole('button', { name: FLAG[lang] }).click();
    await expect(page.locator('html')).toHaveAttribute('lang', lang);
    await expect(page.getByRole('button', { name: FLAG[lang] })).toHaveAttribute(
      'aria-pressed',
      'true',
    );
    await expectNoRawKeys(page, `/register step 2 (${lang})`);
    await page.getByRole('textbox').fill('12');
    await page.getByRole('button', { name: BUTTON.verify[lang] }).click();
    await expect(page.getByRole('textbox')).toHaveAttribute('aria-invalid', 'true');
    await expectNoRawKeys(page, `/register step 2 with an error (${lang})`);
  }

  await api.ensureAdminMode(admin);
  const session = await api.login(admin);
  await page.evaluate(({ token, user }) => {
    window.localStorage.setItem('token', token);
    window.localStorage.setItem('user', JSON.stringify(user));
  }, session);
  for (const lang of LANGUAGES) {
    await page.evaluate((l) => window.localStorage.setItem('language', l), lang);
    await page.goto('/dashboard');
    await expect(page.locator('html')).toHaveAttribute('lang', lang);
    await expect(page.getByRole('heading', { level: 1 })).toContainText(admin.name);
    await expectNoRawKeys(page, `/dashboard (${lang})`);
  }
});
