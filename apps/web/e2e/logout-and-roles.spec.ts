import type { Locator, Page } from '@playwright/test';
import { signedInUser } from './chat-helpers';
import { expect, pauseClock, seedLanguage, seedSession, stored, test } from './fixtures';

// Logout and the admin's role mode: the switcher and the mode indicator, the new session a switch
// brings, 'Role switch failed', and how long the messages stay.

/** Which of red/green/blue dominates a CSS colour: the mode indicator is admin green, user blue. */
async function dominantChannel(locator: Locator): Promise<'red' | 'green' | 'blue'> {
  const color = await locator.evaluate((el) => getComputedStyle(el).backgroundColor);
  const [r = 0, g = 0, b = 0] = (color.match(/\d+(\.\d+)?/g) ?? []).map(Number);
  if (g > r && g > b) return 'green';
  if (b > r && b > g) return 'blue';
  return 'red';
}

function modeControls(page: Page, texts: { group: string; admin: string; user: string }) {
  const group = page.getByRole('group', { name: texts.group });
  return {
    group,
    admin: group.getByRole('button', { name: texts.admin }),
    user: group.getByRole('button', { name: texts.user }),
  };
}

test('Logout clears the stored session, goes to /login, and the old token is refused', async ({
  page,
  api,
}) => {
  const { account, session } = await signedInUser(page, api, { prefix: 'sair' });
  await page.goto('/dashboard');
  await expect(page.getByRole('banner')).toContainText(account.email);

  await page.getByRole('button', { name: 'Sair' }).click();
  await expect(page).toHaveURL(/\/login$/);
  await expect(
    page.getByRole('heading', { level: 1, name: 'Que bom ver você de novo' }),
  ).toBeVisible();
  expect(await stored(page, 'token')).toBeNull();
  expect(await stored(page, 'user')).toBeNull();
  expect(await api.userStatus(session.token)).toBe(401);

  // Signed out for good: the dashboard is closed.
  await page.goto('/dashboard');
  await expect(page).toHaveURL(/\/login$/);
});

test.describe('the admin', () => {
  test.beforeEach(async ({ api, admin }) => {
    await api.ensureAdminMode(admin);
  });

  test('sees the role switcher and the mode indicator; switching replaces the session (en-US)', async ({
    page,
    api,
    admin,
  }) => {
    await seedLanguage(page, 'en-US');
    await seedSession(page, await api.login(admin));
    await page.clock.install();
    await page.goto('/dashboard');
    const mode = modeControls(page, { group: 'Mode', admin: 'Admin mode', user: 'User mode' });
    const nameInHeader = page.getByRole('banner').getByText(admin.name);

    await expect(mode.admin).toHaveAttribute('aria-pressed', 'true');
    await expect(mode.user).toHaveAttribute('aria-pressed', 'false');
    await expect(nameInHeader).toContainText('Admin mode');
    expect(await dominantChannel(mode.admin)).toBe('green');

    const firstToken = await stored(page, 'token');
    // The message's 3 s run on the page's clock from here.
    await pauseClock(page);
    await mode.user.click();
    const switched = page.getByRole('status').filter({ hasText: 'Switched to user mode' });
    await expect(switched).toBeVisible();
    await page.clock.runFor(100);
    await expect(mode.user).toHaveAttribute('aria-pressed', 'true');
    await expect(mode.admin).toHaveAttribute('aria-pressed', 'false');
    await expect(nameInHeader).toContainText('User mode');
    expect(await dominantChannel(mode.user)).toBe('blue');
    const user = JSON.parse((await stored(page, 'user')) ?? '{}') as {
      role?: string;
      originalRole?: string;
    };
    expect(user).toMatchObject({ role: 'user', originalRole: 'admin' });

    const secondToken = await stored(page, 'token');
    expect(secondToken).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(secondToken).not.toBe(firstToken);
    expect(await api.userStatus(firstToken ?? '')).toBe(401);
    expect(await api.userStatus(secondToken ?? '')).toBe(200);

    await page.clock.runFor(2_800);
    await expect(switched).toBeVisible();
    await page.clock.runFor(200);
    await expect(switched).toHaveCount(0);

    // And back to admin mode.
    await mode.admin.click();
    await expect(
      page.getByRole('status').filter({ hasText: 'Switched to admin mode' }),
    ).toBeVisible();
    await page.clock.runFor(100);
    await expect(mode.admin).toHaveAttribute('aria-pressed', 'true');
    await expect(nameInHeader).toContainText('Admin mode');
    expect(await api.userStatus(secondToken ?? '')).toBe(401);
    // The mode holds across a reload (the server keeps it).
    await page.clock.resume();
    await page.reload();
    await expect(mode.admin).toHaveAttribute('aria-pressed', 'true');
  });

  test('switching in Portuguese: the message and the indicator speak Portuguese', async ({
    page,
    api,
    admin,
  }) => {
    await seedSession(page, await api.login(admin));
    await page.clock.install();
    await page.goto('/dashboard');
    const mode = modeControls(page, {
      group: 'Modo',
      admin: 'Modo administrador',
      user: 'Modo usuário',
    });
    await expect(mode.admin).toHaveAttribute('aria-pressed', 'true');
    await pauseClock(page);
    await mode.user.click();
    // The role is named in Portuguese, like everything else on the page.
    await expect(page.getByRole('status').filter({ hasText: /ativado/ })).toHaveText(
      'Modo usuário ativado',
    );
    await page.clock.runFor(100);
    await expect(mode.user).toHaveAttribute('aria-pressed', 'true');
    await expect(page.getByRole('banner').getByText(admin.name)).toContainText('Modo usuário');
    await page.clock.runFor(3_000);
    await mode.admin.click();
    await expect(page.getByRole('status').filter({ hasText: /ativado/ })).toHaveText(
      'Modo administrador ativado',
    );
    await page.clock.runFor(100);
    await expect(mode.admin).toHaveAttribute('aria-pressed', 'true');
  });

  test('a failed switch shows "Role switch failed" for 5 s and keeps the mode', async ({
    page,
    api,
    admin,
  }) => {
    await seedLanguage(page, 'en-US');
    await seedSession(page, await api.login(admin));
    await page.route('**/api/switch-role', (route) =>
      route.fulfill({ status: 500, contentType: 'text/html', body: '<h1>Bad gateway</h1>' }),
    );
    await page.clock.install();
    await page.goto('/dashboard');
    const mode = modeControls(page, { group: 'Mode', admin: 'Admin mode', user: 'User mode' });
    await expect(mode.admin).toHaveAttribute('aria-pressed', 'true');

    await pauseClock(page);
    await mode.user.click();
    const failed = page.getByRole('alert').filter({ hasText: 'Role switch failed' });
    await expect(failed).toBeVisible();
    await page.clock.runFor(4_900);
    await expect(failed).toBeVisible();
    await expect(mode.admin).toHaveAttribute('aria-pressed', 'true');
    await page.clock.runFor(100);
    await expect(failed).toHaveCount(0);
  });
});

test('a regular user sees no role switcher and no mode indicator in the header', async ({
  page,
  api,
}) => {
  const { account } = await signedInUser(page, api, { prefix: 'comum' });
  await page.goto('/dashboard');
  await expect(page.getByRole('banner')).toContainText(account.email);
  await expect(page.getByRole('group', { name: 'Modo' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: /Modo (usuário|administrador)/ })).toHaveCount(0);
  await expect(page.getByRole('banner').getByText(account.name)).toHaveText(account.name);
});
