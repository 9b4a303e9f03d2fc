import type { Page } from '@playwright/test';
import type { MonitorStatus } from '@contrateia/shared/monitor/monitor.schemas';
import { signedInUser } from './chat-helpers';
import { expectNoSeriousViolations, expectNoSidewaysScroll, screenshot } from './page-checks';
import { expect, newAccount, seedSession, test, type Account, type Api } from './fixtures';

// The system monitor: the admin sees the server's real figures, refreshes them, and runs a quick
// action that does real work. The worker's server runs on the embedded database (PGlite), with an
// SMTP server and the builtin AI, and no Redis.

/** The admin's token, the account in admin mode. */
async function adminToken(api: Api, admin: Account): Promise<string> {
  await api.ensureAdminMode(admin);
  return (await api.login(admin)).token;
}

/** The admin, signed in on `page` in admin mode, at /monitor with its figures in. */
async function openMonitor(page: Page, api: Api, admin: Account) {
  await api.ensureAdminMode(admin);
  await seedSession(page, await api.login(admin));
  await page.goto('/monitor');
  await expect(page.getByRole('heading', { level: 1, name: 'Monitor do sistema' })).toBeVisible();
  await expect(page.getByRole('meter', { name: 'CPU', exact: true })).toBeVisible();
}

const lastUpdate = (page: Page) => page.getByText(/^Última atualização: .*\d{2}:\d{2}:\d{2}$/);

test("the monitor shows the server's real figures: its services in words and its load as meters", async ({
  page,
  api,
  admin,
}) => {
  const status = await api.get<MonitorStatus>('/api/monitor/status', await adminToken(api, admin));
  expect(status.status).toBe(200);
  const { figures } = status.body;
  await openMonitor(page, api, admin);

  await expect(lastUpdate(page)).toBeVisible();
  await expect(page.getByRole('region', { name: 'Status do sistema' })).toContainText(
    /Saudável|Instável|Fora do ar/,
  );

  const services = page.getByRole('region', { name: 'Serviços' });
  const service = (name: string) => services.getByRole('listitem', { name, exact: true });
  await expect(service('Banco de dados')).toContainText('No ar');
  await expect(service('Banco de dados')).toContainText(
    /Banco embutido \(PGlite\) · respondeu em [\d,]+\sms/,
  );
  await expect(service('E-mail')).toContainText('Servidor SMTP');
  await expect(service('Provedor de IA')).toContainText('Mecanismo embutido');
  await expect(service('WhatsApp')).toBeVisible();
  await expect(service('Conexões ao vivo')).toContainText(/\d+ conex(ão aberta|ões abertas)/);
  // Redis is listed only where one is configured.
  await expect(service('Redis (estado compartilhado)')).toHaveCount(0);

  // The server's background jobs, each queue by its name, with what waits, runs and failed.
  const queues = page.getByRole('region', { name: 'Tarefas em segundo plano' });
  for (const name of [
    'Respostas automáticas do WhatsApp',
    'Retenção dos logs',
    'Limpeza de sessões e códigos',
    'Retenção dos arquivos do WhatsApp',
    'Mensagens anônimas (indirect)',
  ]) {
    const queue = queues.getByRole('listitem', { name, exact: true });
    await expect(queue).toContainText(/\d+ na fila · \d+ em andamento/);
    await expect(queue).toContainText(
      /Nenhuma falha na última hora|\d+ falh(ou|aram) na última hora/,
    );
  }

  for (const name of ['CPU', 'Memória', 'Disco']) {
    const meter = page.getByRole('meter', { name, exact: true });
    const value = Number(await meter.getAttribute('aria-valuenow'));
    expect(value, `${name} percent`).toBeGreaterThanOrEqual(0);
    expect(value, `${name} percent`).toBeLessThanOrEqual(100);
  }
  await expect(page.getByRole('meter', { name: 'CPU', exact: true })).toHaveAccessibleDescription(
    new RegExp(`^${figures.cpuCores} núcleos?, carga média`),
  );
  await expect(
    page.getByRole('meter', { name: 'Memória', exact: true }),
  ).toHaveAccessibleDescription(/^[\d,]+\s[kMGT]?B usados de [\d,]+\s[kMGT]?B/);
  // The network is a meter when the link's speed is known, else said to be unknown.
  const performance = page.getByRole('region', { name: 'Desempenho' });
  await expect(performance).toContainText(/Recebendo [\d,]+\s(bytes|[kMGT]?B)\/s, enviando/);
  if (figures.networkLinkBitsPerSecond === null) {
    await expect(performance).toContainText('Velocidade do link desconhecida');
  } else {
    await expect(page.getByRole('meter', { name: 'Rede', exact: true })).toBeVisible();
  }
  // Real figures: nothing is marked as a sample.
  await expect(page.getByText(/^Dados de exemplo/)).toHaveCount(0);
  await expect(page.getByText('Exemplo', { exact: true })).toHaveCount(0);
});

test('Refresh Now brings a newer sample: the last update time moves on', async ({
  page,
  api,
  admin,
}) => {
  await openMonitor(page, api, admin);
  const before = await lastUpdate(page).textContent();
  const refresh = page.getByRole('button', { name: /^(Atualizar agora|Atualizando\.\.\.)$/ });
  // The server samples in the background every few seconds: press until a newer one comes.
  await expect(async () => {
    await refresh.click();
    await expect(refresh).toHaveText('Atualizar agora');
    await expect(lastUpdate(page)).not.toHaveText(before ?? '', { timeout: 1_000 });
  }).toPass({ timeout: 30_000 });
  await expect(page.getByRole('meter', { name: 'CPU', exact: true })).toBeVisible();
});

test('removing expired sessions and codes is confirmed first, then reported in words', async ({
  page,
  api,
  admin,
}) => {
  // An account registered now leaves a used e-mail code behind.
  await api.register(newAccount('limpeza'));
  await openMonitor(page, api, admin);
  await page.getByRole('button', { name: 'Remover sessões e códigos expirados' }).click();
  const dialog = page.getByRole('dialog', { name: 'Remover sessões e códigos expirados?' });
  await expect(dialog).toContainText('Ninguém que está conectado é desconectado.');
  await dialog.getByRole('button', { name: 'Remover' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: 'Removidos:' })).toHaveText(
    /^Removidos: \d+ sess(ão|ões) e \d+ códigos?\.$/,
  );
  // The admin's own session was not expired: still signed in.
  await page.reload();
  await expect(page.getByRole('heading', { level: 1, name: 'Monitor do sistema' })).toBeVisible();
});

test("the test e-mail goes to the admin's address through the server's SMTP, and the page says so", async ({
  page,
  api,
  admin,
  server,
}) => {
  await openMonitor(page, api, admin);
  const since = server.smtp.messages.length;
  await page.getByRole('button', { name: 'Enviar um e-mail de teste para mim' }).click();
  const dialog = page.getByRole('dialog', { name: 'Enviar um e-mail de teste?' });
  await expect(dialog).toContainText(admin.email);
  await dialog.getByRole('button', { name: 'Enviar' }).click();
  await expect(
    page.getByRole('status').filter({ hasText: `E-mail de teste enviado para ${admin.email}.` }),
  ).toBeVisible();
  const mail = await server.smtp.waitForMail(admin.email, { since });
  expect(mail.to.toLowerCase()).toContain(admin.email.toLowerCase());
});

test('a user is told Access denied at /monitor, and the server refuses them its figures', async ({
  page,
  api,
}) => {
  const { session } = await signedInUser(page, api, { prefix: 'monitorado' });
  await page.goto('/monitor');
  await expect(page.getByRole('heading', { level: 1, name: 'Acesso negado' })).toBeVisible();
  await expect(
    page
      .getByRole('navigation', { name: 'Navegação principal' })
      .getByRole('link', { name: 'Monitor' }),
  ).toHaveCount(0);
  expect((await api.get('/api/monitor/status', session.token)).status).toBe(403);
});

test('the monitor: no serious axe violations on a desktop and a phone, no sideways scroll; screenshots', async ({
  page,
  api,
  admin,
}, testInfo) => {
  await openMonitor(page, api, admin);
  for (const size of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(size);
    const at = `${size.width}px`;
    await expect(page.getByRole('meter', { name: 'Disco', exact: true })).toBeVisible();
    await expectNoSeriousViolations(page, `the monitor at ${at}`);
    await expectNoSidewaysScroll(page, `the monitor at ${at}`);
    await screenshot(page, testInfo, `monitor-${size.width}`);

    await page.getByRole('button', { name: 'Enviar um e-mail de teste para mim' }).click();
    const dialog = page.getByRole('dialog', { name: 'Enviar um e-mail de teste?' });
    await expect(dialog).toBeVisible();
    await expectNoSeriousViolations(page, `the test e-mail dialog at ${at}`);
    await screenshot(page, testInfo, `monitor-dialog-${size.width}`);
    await dialog.getByRole('button', { name: 'Cancelar' }).click();
    await expect(dialog).toBeHidden();
  }
});
