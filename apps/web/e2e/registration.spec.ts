import { codeFromMail } from '../../server/test/smtp';
import { expect, newAccount, pauseClock, seedLanguage, signIn, test } from './fixtures';
import { screenshot } from './page-checks';
import { fillDetails, sendCode, TEXTS } from './registration-helpers';

// Registration: two steps, the code read from the mail the real SMTP server received.

/** A 6-digit code that is certainly not `code`. */
function otherCode(code: string): string {
  return code.slice(0, 5) + String((Number(code[5]) + 1) % 10);
}

for (const lang of ['en-US', 'pt-BR'] as const) {
  test(`registers with the mailed code, lands on /login with the success banner, then signs in (${lang})`, async ({
    page,
    server,
  }) => {
    const t = TEXTS[lang];
    const account = newAccount('cadastro');
    if (lang !== 'pt-BR') await seedLanguage(page, lang);
    if (lang === 'en-US') await page.clock.install();
    await page.goto('/register');
    await expect(page.getByRole('heading', { level: 1, name: t.title })).toBeVisible();

    const code = await sendCode(page, server, lang, account);
    // Step 2 names the address the code went to and says it was sent.
    await expect(page.getByRole('main')).toContainText(account.email);
    await expect(page.getByRole('status').filter({ hasText: t.sent(account.email) })).toBeVisible();
    expect(server.smtp.messages.at(-1)?.to).toContain(account.email);

    await page.getByLabel(t.code).fill(code);
    await page.getByRole('button', { name: t.verify }).click();

    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('heading', { level: 1, name: t.loginTitle })).toBeVisible();
    const banner = page.getByRole('status').filter({ hasText: t.registered });
    await expect(banner).toBeVisible();

    if (lang === 'en-US') {
      // A success message clears itself after 3 s, on the page's clock.
      await pauseClock(page);
      await expect(banner).toBeVisible();
      await page.clock.runFor(3_000);
      await expect(banner).toHaveCount(0);
      await page.clock.resume();
    }

    // The banner came through navigation state, which is dropped: a reload does not bring it back.
    await page.reload();
    await expect(page.getByRole('heading', { level: 1, name: t.loginTitle })).toBeVisible();
    await expect(page.getByText(t.registered)).toHaveCount(0);

    await signIn(page, account.email, account.password);
    await expect(page).toHaveURL(/\/dashboard$/);
    await expect(page.getByRole('banner')).toContainText(account.name);
    await expect(page.getByRole('banner')).toContainText(account.email);
  });
}

test('resend: "Resend in 60s" counts down each second, unlocks at 0 and mails a new code that replaces the first', async ({
  page,
  server,
}) => {
  const account = newAccount('reenvio');
  await seedLanguage(page, 'en-US');
  await page.clock.install();
  await page.goto('/register');
  // From here on the page's time moves only when the test says so.
  const firstCode = await sendCode(page, server, 'en-US', account, () => pauseClock(page));
  const countdown = page.getByRole('button', { name: /^Resend in \d+s$/ });
  await expect(countdown).toHaveText('Resend in 60s');
  await expect(countdown).toBeDisabled();
  for (let seconds = 59; seconds >= 1; seconds -= 1) {
    await page.clock.runFor(1_000);
    await expect(countdown).toHaveText(`Resend in ${seconds}s`);
    await expect(countdown).toBeDisabled();
  }
  await page.clock.runFor(1_000);
  const resend = page.getByRole('button', { name: 'Resend code' });
  await expect(resend).toBeEnabled();
  await expect(countdown).toHaveCount(0);

  // The server keeps its own 60 s cooldown on real time: move its clock past it too.
  await server.advanceClock(61_000);
  const beforeResend = server.smtp.messages.length;
  await resend.click();
  const secondCode = codeFromMail(
    await server.smtp.waitForMail(account.email, { since: beforeResend }),
  );
  expect(server.smtp.messages.filter((mail) => mail.to.includes(account.email))).toHaveLength(2);
  await expect(
    page.getByRole('status').filter({ hasText: TEXTS['en-US'].sent(account.email) }),
  ).toBeVisible();
  // The cooldown starts over.
  await expect(page.getByRole('button', { name: 'Resend in 60s' })).toBeDisabled();
  await page.clock.runFor(1_000);
  await expect(page.getByRole('button', { name: 'Resend in 59s' })).toBeDisabled();

  const codeField = page.getByLabel('Verification Code');
  if (firstCode !== secondCode) {
    // The first code no longer counts.
    await codeField.fill(firstCode);
    await page.getByRole('button', { name: 'Verify & Create Account' }).click();
    await expect(codeField).toHaveAccessibleDescription(
      'Invalid code. Please check it and try again.',
    );
    await expect(codeField).toHaveAttribute('aria-invalid', 'true');
    await expect(page).toHaveURL(/\/register$/);
  }
  await codeField.fill(secondCode);
  await page.clock.resume();
  await page.getByRole('button', { name: 'Verify & Create Account' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByText(TEXTS['en-US'].registered)).toBeVisible();
});

test('"Back to registration form" clears the code and the messages', async ({ page, server }) => {
  const account = newAccount('voltar');
  await seedLanguage(page, 'en-US');
  await page.clock.install();
  await page.goto('/register');
  // Paused from before the code is sent: the message cannot have timed out on its own below.
  await sendCode(page, server, 'en-US', account, () => pauseClock(page));
  const sent = page.getByRole('status').filter({ hasText: TEXTS['en-US'].sent(account.email) });
  await expect(sent).toBeVisible();
  // A wrong code leaves an error on the field.
  const codeField = page.getByLabel('Verification Code');
  await codeField.fill('12');
  await page.getByRole('button', { name: 'Verify & Create Account' }).click();
  await expect(codeField).toHaveAccessibleDescription('Verification code must be exactly 6 digits');

  await page.getByRole('button', { name: 'Back to registration form' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Create Account' })).toBeVisible();
  await expect(page.getByRole('heading', { level: 1, name: 'Create Account' })).toBeFocused();
  await expect(page.getByLabel('Verification Code')).toHaveCount(0);
  await expect(page.getByText(TEXTS['en-US'].sent(account.email))).toHaveCount(0);
  await expect(page.getByText('Verification code must be exactly 6 digits')).toHaveCount(0);

  // Forward again (after the server's cooldown): a clean code step, nothing carried over.
  await server.advanceClock(61_000);
  const since = server.smtp.messages.length;
  await page.getByLabel('Email Address', { exact: true }).fill(account.email);
  await page.getByRole('button', { name: 'Send Verification Code' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Verify Your Email' })).toBeVisible();
  await server.smtp.waitForMail(account.email, { since });
  await expect(page.getByLabel('Verification Code')).toHaveValue('');
  await expect(page.getByLabel('Verification Code')).not.toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText('Verification code must be exactly 6 digits')).toHaveCount(0);
});

test('a wrong code shows the server message on the code field', async ({ page, server }) => {
  const account = newAccount('errado');
  await seedLanguage(page, 'en-US');
  await page.goto('/register');
  const code = await sendCode(page, server, 'en-US', account);
  const codeField = page.getByLabel('Verification Code');
  await codeField.fill(otherCode(code));
  await page.getByRole('button', { name: 'Verify & Create Account' }).click();

  await expect(codeField).toHaveAttribute('aria-invalid', 'true');
  await expect(codeField).toHaveAccessibleDescription(
    'Invalid code. Please check it and try again.',
  );
  await expect(codeField).toBeFocused();
  await expect(page).toHaveURL(/\/register$/);
  // Not shown as a general error as well.
  await expect(page.getByRole('alert').filter({ hasText: 'Invalid code' })).toHaveCount(1);

  // Editing the field clears its error; the right code then works.
  await codeField.fill(code);
  await expect(codeField).not.toHaveAttribute('aria-invalid', 'true');
  await expect(page.getByText('Invalid code. Please check it and try again.')).toHaveCount(0);
  await page.getByRole('button', { name: 'Verify & Create Account' }).click();
  await expect(page).toHaveURL(/\/login$/);
});

test('the code input keeps only digits, at most 6', async ({ page, context, server }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const account = newAccount('digitos');
  await page.goto('/register');
  await sendCode(page, server, 'pt-BR', account);
  const codeField = page.getByLabel('Código de verificação');
  await expect(codeField).toHaveAttribute('inputmode', 'numeric');

  await codeField.pressSequentially('a1b2c3d4e5f6g7h8');
  await expect(codeField).toHaveValue('123456');

  await codeField.fill('');
  await codeField.pressSequentially('12-3');
  await expect(codeField).toHaveValue('123');

  // A code pasted as the mail may format it: spaces dropped, the six digits kept.
  await codeField.fill('');
  await page.evaluate(() => navigator.clipboard.writeText('123 456'));
  await codeField.focus();
  await page.keyboard.press('ControlOrMeta+V');
  await expect(codeField).toHaveValue('123456');
});

test('an e-mail that already has an account goes on as a new one would, and its owner is mailed how to sign in', async ({
  page,
  admin,
  server,
}) => {
  await seedLanguage(page, 'en-US');
  await page.goto('/register');
  const since = server.smtp.messages.length;
  await fillDetails(page, 'en-US', { ...newAccount('repetido'), email: admin.email.toUpperCase() });
  await page.getByRole('button', { name: 'Send Verification Code' }).click();

  // Nothing on the page tells that the address has an account.
  await expect(page.getByRole('heading', { level: 1, name: 'Verify Your Email' })).toBeVisible();
  await expect(page.getByRole('status')).toHaveText(TEXTS['en-US'].sent(admin.email));
  await expect(page.getByText('already exists')).toHaveCount(0);

  // The owner's mail carries no code and a link that opens the sign-in page.
  const mail = await server.smtp.waitForMail(admin.email, { since });
  expect(mail.text).not.toMatch(/\b\d{6}\b/);
  const link = /https?:\/\/\S+\/login\b/.exec(mail.text)?.[0];
  expect(link).toBe(`${server.baseURL}/login`);
  await page.goto(link!);
  await expect(
    page.getByRole('heading', { level: 1, name: TEXTS['en-US'].loginTitle }),
  ).toBeVisible();
});

test('a reload after the code is sent comes back to the code step for that address; the code and the password typed again create the account, and /login has the address filled in', async ({
  page,
  server,
}, testInfo) => {
  const t = TEXTS['pt-BR'];
  const account = newAccount('recarga');
  await page.goto('/register');
  const code = await sendCode(page, server, 'pt-BR', account);

  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: t.verifyTitle })).toBeVisible();
  await expect(page.getByRole('main')).toContainText(account.email);
  // The cooldown goes on from the first send; the password was not kept.
  await expect(page.getByRole('button', { name: /^Reenviar em \d+s$/ })).toBeDisabled();
  await expect(
    page.getByText('Por segurança, a senha não fica guardada no navegador'),
  ).toBeVisible();
  const stored = await page.evaluate(() => JSON.stringify({ ...window.sessionStorage }));
  expect(stored).toContain(account.email);
  expect(stored).not.toContain(account.password);
  for (const width of [1366, 375]) {
    await page.setViewportSize({ width, height: width > 400 ? 768 : 812 });
    await screenshot(page, testInfo, `register-code-step-after-reload-${width}`);
  }

  await page.getByLabel(t.code).fill(code);
  await page.getByLabel(t.password, { exact: true }).fill(account.password);
  await page.getByLabel(t.confirm, { exact: true }).fill(account.password);
  await page.getByRole('button', { name: t.verify }).click();

  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('status').filter({ hasText: t.registered })).toBeVisible();
  await expect(page.getByLabel('Usuário ou e-mail')).toHaveValue(account.email);
  await expect(page.getByLabel('Senha', { exact: true })).toBeFocused();
  await page.keyboard.type(account.password);
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/dashboard$/);

  // Done: /register starts afresh.
  await page.evaluate(() => window.localStorage.clear());
  await page.goto('/register');
  await expect(page.getByRole('heading', { level: 1, name: t.title })).toBeVisible();
});

test('sending again within the cooldown says how long to wait and keeps the code step, whose code still works', async ({
  page,
  server,
}) => {
  const t = TEXTS['pt-BR'];
  const account = newAccount('espera');
  await page.goto('/register');
  const code = await sendCode(page, server, 'pt-BR', account);
  await page.getByRole('button', { name: 'Voltar ao formulário de cadastro' }).click();
  await expect(page.getByRole('heading', { level: 1, name: t.title })).toBeVisible();

  const since = server.smtp.messages.length;
  await page.getByRole('button', { name: t.send }).click();
  await expect(page.getByRole('heading', { level: 1, name: t.verifyTitle })).toBeVisible();
  await expect(page.getByRole('alert')).toHaveText(
    /^Aguarde \d+ segundos? antes de pedir um novo código$/,
  );
  await expect(page.getByRole('button', { name: /^Reenviar em \d+s$/ })).toBeDisabled();
  expect(server.smtp.messages.length).toBe(since);

  await page.getByLabel(t.code).fill(code);
  await page.getByRole('button', { name: t.verify }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByLabel('Usuário ou e-mail')).toHaveValue(account.email);
});
