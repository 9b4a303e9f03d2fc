import type { Locator, Page } from '@playwright/test';
import { expect, newAccount, seedLanguage, test } from './fixtures';
import { sendCode } from './registration-helpers';

// Every client-side validation message of the sign-in and registration forms, in en-US, shown on
// its field (visible label bound to the input, aria-invalid, message as the field's description)
// and cleared by editing that field.

test.beforeEach(async ({ page }) => {
  await seedLanguage(page, 'en-US');
});

async function expectFieldError(field: Locator, message: string) {
  await expect(field).toHaveAttribute('aria-invalid', 'true');
  await expect(field).toHaveAccessibleDescription(message);
  await expect(field.page().getByText(message, { exact: true })).toBeVisible();
}

async function expectNoFieldError(field: Locator, message: string) {
  await expect(field).not.toHaveAttribute('aria-invalid', 'true');
  await expect(field).toHaveAccessibleDescription('');
  await expect(field.page().getByText(message, { exact: true })).toHaveCount(0);
}

/** Types `value` (replacing what was there), submits with `submit`, and expects `message` on `field`. */
async function submitExpecting(
  page: Page,
  field: Locator,
  value: string,
  submit: string,
  message: string,
) {
  await field.fill(value);
  await page.getByRole('button', { name: submit, exact: true }).click();
  await expectFieldError(field, message);
}

test('login: required identifier and password, e-mail shape when it has an @', async ({ page }) => {
  await page.goto('/login');
  const identifier = page.getByLabel('Username or Email');
  const password = page.getByLabel('Password');
  await expect(identifier).toBeEditable();
  await expect(password).toHaveAttribute('type', 'password');

  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expectFieldError(identifier, 'Username or email is required');
  await expectFieldError(password, 'Password is required');
  await expect(page).toHaveURL(/\/login$/);

  // Editing one field clears only that field's error.
  await identifier.fill('bad@');
  await expectNoFieldError(identifier, 'Username or email is required');
  await expectFieldError(password, 'Password is required');
  await password.fill('x');
  await expectNoFieldError(password, 'Password is required');

  await page.getByRole('button', { name: 'Sign In', exact: true }).click();
  await expectFieldError(identifier, 'Please enter a valid email address');
  await identifier.press('Backspace');
  await expectNoFieldError(identifier, 'Please enter a valid email address');

  for (const bad of ['a@b', '@b.c', 'a b@c.d']) {
    await submitExpecting(page, identifier, bad, 'Sign In', 'Please enter a valid email address');
  }
  // Blank is not an identifier.
  await submitExpecting(page, identifier, '   ', 'Sign In', 'Username or email is required');
});

test('registration step 1: every field rule and its message', async ({ page }) => {
  await page.goto('/register');
  const name = page.getByLabel('Full Name');
  const email = page.getByLabel('Email Address');
  const password = page.getByLabel('Password', { exact: true });
  const confirm = page.getByLabel('Confirm Password');
  const send = 'Send Verification Code';

  await page.getByRole('button', { name: send }).click();
  await expectFieldError(name, 'First name is required');
  await expectFieldError(email, 'Email is required');
  await expectFieldError(password, 'Password is required');
  await expectFieldError(confirm, 'Password confirmation is required');

  // Each error clears when its own field is edited, and only then.
  await name.fill('A');
  await expectNoFieldError(name, 'First name is required');
  await expectFieldError(email, 'Email is required');
  await email.fill('bad@');
  await expectNoFieldError(email, 'Email is required');
  await password.fill('12345');
  await expectNoFieldError(password, 'Password is required');
  await confirm.fill('54321');
  await expectNoFieldError(confirm, 'Password confirmation is required');

  // Name: at least 2 characters after trimming; one letter says it is too short.
  await page.getByRole('button', { name: send }).click();
  await expectFieldError(name, 'Name must be at least 2 characters');
  await expectFieldError(email, 'Please enter a valid email address');
  await expectFieldError(password, 'Password must be at least 6 characters');
  // An empty confirmation and a wrong one have different messages; this one is wrong.
  await expectFieldError(confirm, 'Passwords do not match');

  await submitExpecting(page, name, '     ', send, 'First name is required');
  await submitExpecting(page, name, '  B  ', send, 'Name must be at least 2 characters');
  await name.fill('Bo');
  await expectNoFieldError(name, 'Name must be at least 2 characters');

  for (const bad of ['a@b', 'ab.c', 'a@ b.c']) {
    await submitExpecting(page, email, bad, send, 'Please enter a valid email address');
  }
  await email.fill('someone@example.com');
  await expectNoFieldError(email, 'Please enter a valid email address');

  await submitExpecting(page, password, '12345', send, 'Password must be at least 6 characters');
  await password.fill('123456');
  await expectNoFieldError(password, 'Password must be at least 6 characters');

  await submitExpecting(page, confirm, '1234567', send, 'Passwords do not match');
  await confirm.fill('');
  await expectNoFieldError(confirm, 'Passwords do not match');
  await page.getByRole('button', { name: send }).click();
  await expectFieldError(confirm, 'Password confirmation is required');
  await confirm.fill('123456');
  await expectNoFieldError(confirm, 'Password confirmation is required');

  // All four valid: nothing is flagged (the code is not sent in this test).
  for (const field of [name, email, password, confirm])
    await expect(field).not.toHaveAttribute('aria-invalid', 'true');
});

test('registration step 2: the code is required and exactly 6 digits', async ({ page, server }) => {
  const account = newAccount('validacao');
  await page.goto('/register');
  const code = await sendCode(page, server, 'en-US', account);

  const codeField = page.getByLabel('Verification Code');
  const verify = 'Verify & Create Account';
  await page.getByRole('button', { name: verify }).click();
  await expectFieldError(codeField, 'Please enter the verification code from your email');
  await codeField.fill('1');
  await expectNoFieldError(codeField, 'Please enter the verification code from your email');

  for (const short of ['1', '12345']) {
    await submitExpecting(
      page,
      codeField,
      short,
      verify,
      'Verification code must be exactly 6 digits',
    );
  }
  await codeField.fill(code);
  await expectNoFieldError(codeField, 'Verification code must be exactly 6 digits');
  await expect(page).toHaveURL(/\/register$/);
});
