import type { Page } from '@playwright/test';
import { hireAgents } from './chat-helpers';
import {
  expect,
  newAccount,
  seedSession,
  test,
  type Api,
  type Account,
  type Session,
} from './fixtures';
import { expectNoSeriousViolations, expectNoSidewaysScroll, screenshot } from './page-checks';

// The signed-in header of an admin who hired every agent: the admin pages (panel, images, monitor,
// logs) stay in reach on a laptop and in the phone menu.

const ADMIN_PAGES = [
  { name: 'Painel de administração', path: '/admin' },
  { name: 'Imagens', path: '/images' },
  { name: 'Monitor', path: '/monitor' },
  { name: 'Logs', path: '/logs' },
] as const;

/** A custom agent with a long name, hired too, so the row of tabs is as full as it gets. */
const CUSTOM = { displayName: 'Atendimento da Loja Centro' };
let customAgents = 0;

type AgentSummary = { id: string; name: string };

/**
 * A new admin (made one by the worker's admin, so the worker's admin keeps its own hires) in
 * admin mode, with every agent hired: the five seeded ones and a custom one.
 */
async function adminWithEveryAgent(
  api: Api,
  admin: Account,
): Promise<{ session: Session; cleanup: () => Promise<void> }> {
  await api.ensureAdminMode(admin);
  const root = await api.login(admin);
  const account = newAccount('chefe');
  await api.register(account);
  const made = await api.post(
    `/api/admin/users/${(await api.login(account)).user.id}/role`,
    { role: 'admin' },
    root.token,
  );
  if (made.status !== 200) throw new Error(`make admin ${made.status}`);
  await api.ensureAdminMode(account);
  const text = {
    'pt-BR': CUSTOM.displayName,
    'en-US': CUSTOM.displayName,
    'es-ES': CUSTOM.displayName,
  };
  const created = await api.post<{ agent: AgentSummary }>(
    '/api/admin/agents',
    {
      // Names stay taken after a delete: a new one each time.
      name: `loja-${Date.now().toString(36)}-${(customAgents += 1)}`,
      displayName: text,
      description: text,
      isActive: true,
      configuration: {
        instructions: '',
        welcomeMessage: { 'pt-BR': '', 'en-US': '', 'es-ES': '' },
        model: { model: null, temperature: 0.3, maxReplyLength: 2000 },
        knowledge: [],
        capabilities: { skills: [], fallback: 'notFound' },
      },
    },
    root.token,
  );
  if (created.status !== 200)
    throw new Error(`create agent ${created.status}: ${JSON.stringify(created.body)}`);
  const session = await api.login(account);
  const available = await api.get<{ agents: AgentSummary[] }>(
    '/api/agents/available',
    session.token,
  );
  await hireAgents(
    api,
    session.token,
    available.body.agents.map((agent) => agent.name),
  );
  const hired = await api.get<{ agents: AgentSummary[] }>('/api/agents/user', session.token);
  expect(hired.body.agents.length).toBeGreaterThanOrEqual(6);
  return {
    session,
    cleanup: async () => {
      await api.request(
        'DELETE',
        `/api/admin/agents/${created.body.agent.id}`,
        undefined,
        root.token,
      );
    },
  };
}

/** Whether the element lies wholly inside the viewport (not scrolled out of a row of tabs). */
async function expectInViewport(
  page: Page,
  name: string,
  box: { x: number; y: number; width: number; height: number } | null,
) {
  const viewport = page.viewportSize()!;
  expect(box, `${name} has a box`).not.toBeNull();
  expect(box!.x, `${name} left edge`).toBeGreaterThanOrEqual(0);
  expect(box!.y, `${name} top edge`).toBeGreaterThanOrEqual(0);
  expect(box!.x + box!.width, `${name} right edge`).toBeLessThanOrEqual(viewport.width);
  expect(box!.y + box!.height, `${name} bottom edge`).toBeLessThanOrEqual(viewport.height);
}

test.describe('an admin with every agent hired', () => {
  let cleanup: (() => Promise<void>) | undefined;
  test.afterEach(async () => {
    await cleanup?.();
    cleanup = undefined;
  });

  test('at 1366 px reaches every admin page from the header, by mouse and by keyboard', async ({
    page,
    api,
    admin,
  }, testInfo) => {
    const made = await adminWithEveryAgent(api, admin);
    cleanup = made.cleanup;
    await page.setViewportSize({ width: 1366, height: 768 });
    await seedSession(page, made.session);
    await page.goto('/dashboard');
    const nav = page.getByRole('navigation', { name: 'Navegação principal' });
    await expect(nav.getByRole('link', { name: CUSTOM.displayName })).toBeVisible();
    await screenshot(page, testInfo, 'header-admin-1366');

    // One button for the admin pages, in view whatever the number of agents.
    const menu = nav.getByRole('button', { name: 'Administração' });
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
    await expectInViewport(page, 'the Administração button', await menu.boundingBox());
    await menu.click();
    await expect(menu).toHaveAttribute('aria-expanded', 'true');
    for (const { name, path } of ADMIN_PAGES) {
      const link = nav.getByRole('link', { name, exact: true });
      await expect(link).toBeVisible();
      await expect(link).toHaveAttribute('href', path);
      await expectInViewport(page, name, await link.boundingBox());
    }
    await screenshot(page, testInfo, 'header-admin-menu-open-1366');
    await expectNoSeriousViolations(page, 'the header with the Administração menu open');

    // The keyboard: Escape closes it, focus back on the button; Enter opens it on the first
    // page, the arrows move through them, Enter follows a link.
    await page.keyboard.press('Escape');
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
    await expect(menu).toBeFocused();
    await expect(nav.getByRole('link', { name: 'Monitor', exact: true })).toBeHidden();
    await page.keyboard.press('Enter');
    await expect(menu).toHaveAttribute('aria-expanded', 'true');
    await expect(nav.getByRole('link', { name: ADMIN_PAGES[0].name })).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(nav.getByRole('link', { name: 'Imagens', exact: true })).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('ArrowDown');
    await expect(nav.getByRole('link', { name: 'Logs', exact: true })).toBeFocused();
    await page.keyboard.press('ArrowDown');
    await expect(nav.getByRole('link', { name: ADMIN_PAGES[0].name })).toBeFocused();
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    await expect(nav.getByRole('link', { name: 'Monitor', exact: true })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(/\/monitor$/);
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
    // The page it leads to is marked on the button.
    await expect(menu).toHaveClass(/app-nav__link--active/);

    // Space opens it too; Tab away closes it.
    await menu.focus();
    await page.keyboard.press(' ');
    await expect(menu).toHaveAttribute('aria-expanded', 'true');
    await page.keyboard.press('End');
    await expect(nav.getByRole('link', { name: 'Logs', exact: true })).toBeFocused();
    await page.keyboard.press('Tab');
    await expect(menu).toHaveAttribute('aria-expanded', 'false');
    await expect(nav.getByRole('link', { name: 'Logs', exact: true })).toBeHidden();
  });

  test('at 375 px finds every admin page in the Menu', async ({ page, api, admin }, testInfo) => {
    const made = await adminWithEveryAgent(api, admin);
    cleanup = made.cleanup;
    await page.setViewportSize({ width: 375, height: 812 });
    await seedSession(page, made.session);
    await page.goto('/dashboard');
    await page.getByRole('button', { name: 'Menu' }).click();
    const nav = page.getByRole('navigation', { name: 'Navegação principal' });
    await expect(nav.getByRole('link', { name: CUSTOM.displayName })).toBeVisible();
    for (const { name, path } of ADMIN_PAGES) {
      const link = nav.getByRole('link', { name, exact: true });
      await expect(link).toBeVisible();
      await expect(link).toHaveAttribute('href', path);
    }
    await expectNoSidewaysScroll(page, 'the open phone menu');
    await screenshot(page, testInfo, 'header-admin-menu-375');
    await expectNoSeriousViolations(page, 'the open phone menu');
    await nav.getByRole('link', { name: 'Logs', exact: true }).click();
    await expect(page).toHaveURL(/\/logs$/);
  });
});
