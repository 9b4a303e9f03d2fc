import fs from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { codeFromMail } from '../../server/test/smtp';
import { signedInUser } from './chat-helpers';
import { expect, newAccount, seedLanguage, signIn, stored, test } from './fixtures';

// "Your account": the profile page, password change and sessions, forgotten password with the code
// from the SMTP server, data download and account deletion, Back after logout.

/** With SCREENSHOTS_DIR set, keeps a picture of the page for a person to look at. */
async function picture(page: Page, name: string) {
  const dir = process.env.SCREENSHOTS_DIR;
  if (!dir) return;
  fs.mkdirSync(dir, { recursive: true });
  await page.screenshot({ path: path.join(dir, `${name}.png`), fullPage: true });
}

test.describe('desktop', () => {
  test.use({ viewport: { width: 1366, height: 900 } });

  test('profile (pt-BR): rename, language, sessions, sign out elsewhere, password change by keyboard', async ({
    page,
    api,
  }) => {
    const account = newAccount('perfil');
    await api.register(account);
    const elsewhere = await api.login(account);
    // Signed in through the page, so the server sees this browser's User-Agent.
    await signIn(page, account.email, account.password);
    await expect(page).toHaveURL(/\/dashboard$/);
    const session = { token: (await stored(page, 'token')) ?? '' };

    // The header links to the profile; reached and followed with the keyboard.
    const link = page.getByRole('banner').getByRole('link', { name: 'Perfil' });
    await link.focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/profile$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Sua conta' })).toBeVisible();

    // Two sessions: this device marked.
    const sessions = page.getByRole('region', { name: 'Sessões' }).getByRole('listitem');
    await expect(sessions).toHaveCount(2);
    const current = sessions.filter({ hasText: 'Este aparelho' });
    await expect(current).toHaveCount(1);
    await expect(current).toContainText(/Chrom(e|ium) \d+ · Linux/);
    await expect(current).toContainText('Computador · Último uso em');
    // A session opened without a browser (the API call above) is named as unknown.
    await expect(sessions.filter({ hasNotText: 'Este aparelho' })).toContainText(
      'Aparelho desconhecido',
    );
    await picture(page, 'profile-desktop-pt-BR');

    // Name and preferred language.
    const name = page.getByLabel('Nome completo');
    await expect(name).toHaveValue(account.name);
    await name.fill('Joana Prado');
    await page.getByLabel('Idioma preferido').selectOption('es-ES');
    await page.getByRole('button', { name: 'Salvar' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Perfil salvo' })).toBeVisible();
    await expect(page.getByRole('banner')).toContainText('Joana Prado');
    const profile = await api.get<{ language: string; user: { name: string } }>(
      '/api/profile',
      session.token,
    );
    expect(profile.body).toMatchObject({ language: 'es-ES', user: { name: 'Joana Prado' } });

    // Sign out elsewhere: the other session is refused, this one goes on.
    await page.getByRole('button', { name: 'Sair dos outros aparelhos' }).click();
    await expect(
      page.getByRole('status').filter({ hasText: '1 outra sessão foi encerrada' }),
    ).toBeVisible();
    await expect(sessions).toHaveCount(1);
    expect(await api.userStatus(elsewhere.token)).toBe(401);
    expect(await api.userStatus(session.token)).toBe(200);

    // Password: a wrong current one is named on its field, and nothing changes.
    const other = await api.login(account);
    await page.getByLabel('Senha atual').fill('not-my-password');
    await page.getByLabel('Nova senha', { exact: true }).fill('nova-senha-42');
    await page.getByLabel('Confirme a nova senha').fill('nova-senha-42');
    await page.getByLabel('Confirme a nova senha').press('Enter');
    await expect(page.getByText('A senha não está correta')).toBeVisible();
    await expect(page.getByLabel('Senha atual')).toBeFocused();
    expect(await api.userStatus(other.token)).toBe(200);

    // Mismatched confirmation: refused in the browser.
    await page.getByLabel('Senha atual').fill(account.password);
    await page.getByLabel('Confirme a nova senha').fill('outra-coisa');
    await page.getByRole('button', { name: 'Alterar senha' }).click();
    await expect(page.getByText('As senhas não coincidem')).toBeVisible();

    await page.getByLabel('Confirme a nova senha').fill('nova-senha-42');
    await page.getByRole('button', { name: 'Alterar senha' }).click();
    await expect(page.getByRole('status').filter({ hasText: 'Senha alterada' })).toBeVisible();
    expect(await api.userStatus(other.token)).toBe(401);
    expect(await api.userStatus(session.token)).toBe(200);
    await expect(page.getByLabel('Senha atual')).toHaveValue('');
  });

  test('forgot password (es-ES): code from the mail, new password, every session ends, sign in', async ({
    page,
    api,
    server,
  }) => {
    const account = newAccount('olvido');
    await api.register(account);
    const old = await api.login(account);
    await seedLanguage(page, 'es-ES');
    await page.goto('/login');

    await page.getByRole('link', { name: '¿Olvidaste tu contraseña?' }).click();
    await expect(page).toHaveURL(/\/forgot-password$/);
    await expect(
      page.getByRole('heading', { level: 1, name: '¿Olvidaste tu contraseña?' }),
    ).toBeVisible();
    await picture(page, 'forgot-1-es-ES');

    const since = server.smtp.messages.length;
    await page.getByLabel('Correo electrónico').fill(account.email);
    await page.getByRole('button', { name: 'Enviar código' }).click();
    await expect(
      page.getByRole('heading', { level: 1, name: 'Elige una contraseña nueva' }),
    ).toBeVisible();
    await expect(page.getByRole('heading', { level: 1 })).toBeFocused();
    await expect(page.getByRole('status').filter({ hasText: account.email })).toBeVisible();
    const mail = await server.smtp.waitForMail(account.email, { since });
    const code = codeFromMail(mail);
    await picture(page, 'forgot-2-es-ES');

    // A wrong code is named on its field.
    await page.getByLabel('Código de verificación').fill(code === '000000' ? '111111' : '000000');
    await page.getByLabel('Contraseña nueva', { exact: true }).fill('nueva-clave-7');
    await page.getByLabel('Confirma la contraseña nueva').fill('nueva-clave-7');
    await page.getByRole('button', { name: 'Restablecer contraseña' }).click();
    await expect(page.getByLabel('Código de verificación')).toHaveAttribute('aria-invalid', 'true');

    await page.getByLabel('Código de verificación').fill(code);
    await page.getByRole('button', { name: 'Restablecer contraseña' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(
      page.getByRole('status').filter({ hasText: 'Tu contraseña se ha restablecido' }),
    ).toBeVisible();
    await picture(page, 'forgot-3-es-ES');
    expect(await api.userStatus(old.token)).toBe(401);

    await signIn(page, account.email, 'nueva-clave-7');
    await expect(page).toHaveURL(/\/dashboard$/);
  });

  test('forgot password (pt-BR): an unknown address gets the same answer and no mail', async ({
    page,
    server,
  }) => {
    await page.goto('/forgot-password');
    await expect(
      page.getByRole('heading', { level: 1, name: 'Esqueceu sua senha?' }),
    ).toBeVisible();
    await picture(page, 'forgot-1-pt-BR');
    const since = server.smtp.messages.length;
    await page.getByLabel('Endereço de e-mail').fill('ninguem-aqui@example.com');
    await page.getByRole('button', { name: 'Enviar código' }).click();
    await expect(
      page.getByRole('heading', { level: 1, name: 'Escolha uma nova senha' }),
    ).toBeVisible();
    await expect(
      page
        .getByRole('status')
        .filter({ hasText: 'Se existir uma conta para ninguem-aqui@example.com' }),
    ).toBeVisible();
    await picture(page, 'forgot-2-pt-BR');
    expect(server.smtp.messages.slice(since)).toEqual([]);
  });

  test('download my data, then delete the account (en-US)', async ({ page, api }) => {
    const { account, session } = await signedInUser(page, api, {
      prefix: 'lgpd',
      language: 'en-US',
    });
    await page.goto('/profile');
    await expect(page.getByLabel('Full Name')).toHaveValue(account.name);
    await expect(page.getByText('This device')).toBeVisible();
    await picture(page, 'profile-desktop-en-US');

    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Download my data', exact: true }).click(),
    ]);
    expect(download.suggestedFilename()).toBe(`contrateia-${session.user.username}.json`);
    const file = await download.path();
    const data = JSON.parse(fs.readFileSync(file, 'utf8')) as {
      account: { email: string };
      hires: { agentName: string }[];
    };
    expect(data.account.email).toBe(account.email);
    expect(data.hires.map((h) => h.agentName)).toContain('guia');
    expect(JSON.stringify(data)).not.toMatch(/argon2|password/i);

    await page.getByRole('button', { name: 'Delete my account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
    await expect(dialog).toBeVisible();
    // Esc closes it, nothing happens, and focus is back on the button that opened it.
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(page.getByRole('button', { name: 'Delete my account' })).toBeFocused();
    await page.getByRole('button', { name: 'Delete my account' }).click();
    await dialog.getByLabel('Your password').fill('wrong-password');
    await dialog.getByLabel('Your password').press('Enter');
    await expect(dialog.getByText('The password is not correct')).toBeVisible();
    expect(await api.userStatus(session.token)).toBe(200);

    await dialog.getByLabel('Your password').fill(account.password);
    await dialog.getByRole('button', { name: 'Delete for good' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(
      page
        .getByRole('status')
        .filter({ hasText: 'Your account and all its data have been deleted.' }),
    ).toBeVisible();
    expect(await stored(page, 'token')).toBeNull();
    expect(await api.userStatus(session.token)).toBe(401);
    expect(
      (await api.post('/api/login', { email: account.email, password: account.password })).status,
    ).toBe(401);
  });

  test("after logout, Back shows the sign-in page, not the previous user's profile", async ({
    page,
    api,
  }) => {
    const { account } = await signedInUser(page, api, { prefix: 'voltar' });
    await page.goto('/dashboard');
    await page.getByRole('banner').getByRole('link', { name: 'Perfil' }).click();
    await expect(page.getByLabel('Nome completo')).toHaveValue(account.name);
    await page.getByRole('button', { name: 'Sair', exact: true }).click();
    await expect(page).toHaveURL(/\/login$/);

    await page.goBack();
    await expect(page).toHaveURL(/\/login$/);

    // And the browser may keep no copy of a page of the app to show again.
    const shell = await page.request.get('/profile');
    expect(shell.headers()['cache-control']).toBe('no-store');
    await expect(page.getByText(account.email)).toHaveCount(0);
    await expect(page.getByLabel('Nome completo')).toHaveCount(0);
  });
});

test('switching the interface language on /profile words the page in the new language at once', async ({
  page,
  api,
}) => {
  await signedInUser(page, api, { prefix: 'idioma' });
  await page.goto('/profile');
  await expect(page.getByRole('heading', { level: 1, name: 'Sua conta' })).toBeVisible();
  await page.getByRole('banner').getByRole('combobox', { name: 'Idioma' }).selectOption('es-ES');
  await expect(page.getByRole('heading', { level: 1, name: 'Tu cuenta' })).toBeVisible();
  await expect(
    page.getByRole('button', { name: 'Descargar mis datos', exact: true }),
  ).toBeVisible();
  await page.getByRole('banner').getByRole('combobox', { name: 'Idioma' }).selectOption('en-US');
  await expect(page.getByRole('heading', { level: 1, name: 'Your account' })).toBeVisible();
});

test.describe('phone', () => {
  test.use({ viewport: { width: 375, height: 800 } });

  test('profile is reached from the menu and fits the screen (pt-BR and en-US)', async ({
    page,
    api,
  }) => {
    await signedInUser(page, api, { prefix: 'celular' });
    await page.goto('/dashboard');
    await page.getByRole('button', { name: 'Menu' }).click();
    await page.getByRole('banner').getByRole('link', { name: 'Perfil' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Sua conta' })).toBeVisible();
    const overflow = await page.evaluate(
      () => document.documentElement.scrollWidth - window.innerWidth,
    );
    expect(overflow).toBeLessThanOrEqual(0);
    await picture(page, 'profile-phone-pt-BR');

    await page.evaluate(() => window.localStorage.setItem('language', 'en-US'));
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: 'Your account' })).toBeVisible();
    await picture(page, 'profile-phone-en-US');
  });
});
