import type { Page } from '@playwright/test';
import { codeFromMail } from '../../server/test/smtp';
import { expect, type Account, type TestServer } from './fixtures';

// The registration page's texts and its step 1, for the journeys that go through it.

export const TEXTS = {
  'en-US': {
    title: 'Create Account',
    name: 'Full Name',
    email: 'Email Address',
    password: 'Password',
    confirm: 'Confirm Password',
    send: 'Send Verification Code',
    verifyTitle: 'Verify Your Email',
    code: 'Verification Code',
    verify: 'Verify & Create Account',
    sent: (email: string) => `If this address can register, a code is on its way to ${email}`,
    registered: 'Registration successful! Please sign in with your new account.',
    loginTitle: 'Welcome Back',
  },
  'pt-BR': {
    title: 'Criar conta',
    name: 'Nome completo',
    email: 'Endereço de e-mail',
    password: 'Senha',
    confirm: 'Confirmar senha',
    send: 'Enviar código de verificação',
    verifyTitle: 'Verifique seu e-mail',
    code: 'Código de verificação',
    verify: 'Verificar e criar conta',
    sent: (email: string) =>
      `Se este e-mail puder se cadastrar, um código está a caminho de ${email}`,
    registered: 'Cadastro realizado com sucesso! Entre com sua nova conta.',
    loginTitle: 'Que bom ver você de novo',
  },
} as const;

type Lang = keyof typeof TEXTS;

export async function fillDetails(page: Page, lang: Lang, account: Account) {
  const t = TEXTS[lang];
  await page.getByLabel(t.name, { exact: true }).fill(account.name);
  await page.getByLabel(t.email, { exact: true }).fill(account.email);
  await page.getByLabel(t.password, { exact: true }).fill(account.password);
  await page.getByLabel(t.confirm, { exact: true }).fill(account.password);
}

/**
 * Step 1 in the browser; resolves with the code of the mail it caused, once step 2 shows.
 * `beforeSend` runs between filling in and sending (e.g. to stop the page's clock).
 */
export async function sendCode(
  page: Page,
  server: TestServer,
  lang: Lang,
  account: Account,
  beforeSend?: () => Promise<void>,
): Promise<string> {
  const t = TEXTS[lang];
  const since = server.smtp.messages.length;
  await fillDetails(page, lang, account);
  await beforeSend?.();
  await page.getByRole('button', { name: t.send }).click();
  await expect(page.getByRole('heading', { level: 1, name: t.verifyTitle })).toBeVisible();
  return codeFromMail(await server.smtp.waitForMail(account.email, { since }));
}
