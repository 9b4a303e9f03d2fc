import type { Locator, Page } from '@playwright/test';
import sharp from 'sharp';
import { signedInUser } from './chat-helpers';
import { expectNoSeriousViolations, expectNoSidewaysScroll, screenshot } from './page-checks';
import { expect, seedSession, test, type Account, type Api, type TestServer } from './fixtures';

// The image library: an admin uploads with a progress bar, filters, edits, copies a URL that opens
// the image for anyone, and deletes, against the real server and its real image processing. The
// worker's server is shared with the other journeys: every test deletes the images it made (their
// titles start with "e2e").

type StoredImage = { id: string; title: string; url: string; isPublic: boolean };

/** The admin's token, the account in admin mode. */
async function adminToken(api: Api, admin: Account): Promise<string> {
  await api.ensureAdminMode(admin);
  return (await api.login(admin)).token;
}

/** A JPEG of random pixels (they hardly compress): about `megabytes` MB at quality 95. */
async function noisyJpeg(megabytes: number): Promise<Buffer> {
  const side = Math.round(Math.sqrt(megabytes * 1_000_000 * 0.9));
  return sharp({
    create: {
      width: side,
      height: side,
      channels: 3,
      background: '#808080',
      noise: { type: 'gaussian', mean: 128, sigma: 60 },
    },
  })
    .jpeg({ quality: 95 })
    .toBuffer();
}

/** A small PNG of one colour. */
function smallPng(color: string): Promise<Buffer> {
  return sharp({ create: { width: 64, height: 48, channels: 4, background: color } })
    .png()
    .toBuffer();
}

/** An image uploaded through the API (set-up, when uploading is not what is tested). */
async function uploadThroughApi(
  server: TestServer,
  token: string,
  fields: { title: string; altText: string; category: string; isPublic: boolean },
  file: { name: string; type: string; bytes: Buffer },
): Promise<string> {
  const form = new FormData();
  form.set('category', fields.category);
  form.set('altText', fields.altText);
  form.set('title', fields.title);
  form.set('isPublic', String(fields.isPublic));
  form.set('image', new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.name);
  const res = await fetch(`${server.baseURL}/api/images/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'accept-language': 'en-US' },
    body: form,
  });
  const body = (await res.json()) as { imageId?: string };
  if (res.status !== 200 || !body.imageId) {
    throw new Error(`upload ${fields.title}: ${res.status} ${JSON.stringify(body)}`);
  }
  return body.imageId;
}

/** The images whose title starts with "e2e", as the list answers them. */
async function ourImages(api: Api, token: string): Promise<StoredImage[]> {
  const res = await api.get<{ images: StoredImage[] }>('/api/images?search=e2e&limit=100', token);
  if (res.status !== 200) throw new Error(`list images: ${res.status}`);
  return res.body.images.filter((image) => image.title.startsWith('e2e'));
}

test.afterEach(async ({ api, admin }) => {
  const token = await adminToken(api, admin);
  for (const image of await ourImages(api, token)) {
    const res = await api.request('DELETE', `/api/images/${image.id}`, undefined, token);
    if (res.status !== 200) throw new Error(`deleting ${image.title}: ${res.status}`);
  }
});

/** The admin, signed in on `page` in admin mode, at /images. */
async function openImages(page: Page, api: Api, admin: Account, query = '') {
  await api.ensureAdminMode(admin);
  await seedSession(page, await api.login(admin));
  await page.goto(`/images${query}`);
  await expect(
    page.getByRole('heading', { level: 1, name: 'Biblioteca de imagens' }),
  ).toBeVisible();
}

/** An image's card, by the name it shows (its title). */
function imageCard(page: Page, name: string): Locator {
  return page.getByRole('article', { name, exact: true });
}

/** The figure a stats card shows. */
function figure(page: Page, label: string): Locator {
  return page
    .getByRole('region', { name: 'Números' })
    .locator('div', { has: page.getByText(label, { exact: true }) })
    .locator('dd');
}

test('an admin uploads a photo dragged into the dialog, watching the progress bar; it is listed, counted and served re-encoded', async ({
  page,
  api,
  admin,
  request,
}) => {
  await openImages(page, api, admin);
  await expect(figure(page, 'Imagens')).toHaveText(/^\d+$/);
  const before = Number(await figure(page, 'Imagens').textContent());
  await page.getByRole('button', { name: 'Enviar imagem' }).click();
  const dialog = page.getByRole('dialog', { name: 'Enviar imagem' });
  await expect(dialog.getByLabel('Categoria')).toHaveValue('production');
  await expect(dialog.getByRole('checkbox', { name: 'Pública' })).not.toBeChecked();

  // Checked before sending: not an image.
  const input = dialog.getByLabel(/Arraste e solte uma imagem aqui/);
  await input.setInputFiles({
    name: 'curriculo.pdf',
    mimeType: 'application/pdf',
    buffer: Buffer.from('%PDF-1.7\n'),
  });
  await expect(dialog.getByText('Selecione um arquivo de imagem válido')).toBeVisible();

  const photo = await noisyJpeg(1.5);
  await input.setInputFiles({ name: 'praia.jpg', mimeType: 'image/jpeg', buffer: photo });
  await expect(dialog.getByRole('img', { name: 'Prévia de praia.jpg' })).toBeVisible();
  await dialog.getByLabel('Título').fill('e2e Praia');
  await dialog.getByLabel('Texto alternativo').fill('Uma praia com o mar ao fundo');
  await dialog.getByLabel('Categoria').selectOption({ label: 'Sistema' });

  // A slow connection (bytes per second), so the bar has time to move.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 20,
    downloadThroughput: -1,
    uploadThroughput: 256 * 1024,
  });
  await dialog.getByRole('button', { name: 'Enviar', exact: true }).click();
  const bar = dialog.getByRole('progressbar', { name: 'Progresso do envio' });
  await expect(bar).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Enviando...' })).toBeDisabled();
  // Part of the file sent, not all of it: the bar shows the upload as it goes.
  await expect
    .poll(
      async () => {
        const value = Number(await bar.getAttribute('value'));
        return value > 0 && value < 100;
      },
      { timeout: 15_000 },
    )
    .toBe(true);

  await expect(page.getByText('Imagem enviada.')).toBeVisible({ timeout: 30_000 });
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: 0,
    downloadThroughput: -1,
    uploadThroughput: -1,
  });
  await expect(dialog).toHaveCount(0);
  const card = imageCard(page, 'e2e Praia');
  await expect(card).toContainText('Privada');
  await expect(card).toContainText('Sistema');
  await expect(card).toContainText('praia.jpg');
  await expect(card.getByRole('img', { name: 'Uma praia com o mar ao fundo' })).toBeVisible();
  await expect(figure(page, 'Imagens')).toHaveText(String(before + 1));

  // The thumbnail the page shows is an image the browser decoded.
  const thumb = card.getByRole('img');
  await expect
    .poll(() => thumb.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBeGreaterThan(0);
  // A private image: its plain address is refused to someone signed out.
  const [stored] = await ourImages(api, await adminToken(api, admin));
  expect((await request.get(`/api/images/${stored!.id}`)).ok()).toBe(false);
});

test('filters by category and visibility and searches, all in the address', async ({
  page,
  api,
  admin,
  server,
}) => {
  const token = await adminToken(api, admin);
  const png = await smallPng('#667eea');
  await uploadThroughApi(
    server,
    token,
    { title: 'e2e Logo roxo', altText: 'Logotipo roxo', category: 'system', isPublic: true },
    { name: 'logo.png', type: 'image/png', bytes: png },
  );
  await uploadThroughApi(
    server,
    token,
    { title: 'e2e Avatar do bot', altText: 'Um robô sorrindo', category: 'agent', isPublic: false },
    { name: 'avatar.png', type: 'image/png', bytes: png },
  );
  await uploadThroughApi(
    server,
    token,
    { title: 'e2e Banner', altText: 'Feira de empregos', category: 'production', isPublic: true },
    { name: 'banner.png', type: 'image/png', bytes: png },
  );
  await openImages(page, api, admin, '?search=e2e');
  await expect(page.getByRole('searchbox', { name: 'Buscar' })).toHaveValue('e2e');
  for (const name of ['e2e Logo roxo', 'e2e Avatar do bot', 'e2e Banner']) {
    await expect(imageCard(page, name)).toBeVisible();
  }

  await page.getByLabel('Visibilidade').selectOption({ label: 'Públicas' });
  await expect(imageCard(page, 'e2e Avatar do bot')).toHaveCount(0);
  await expect(imageCard(page, 'e2e Logo roxo')).toBeVisible();
  await expect(imageCard(page, 'e2e Banner')).toBeVisible();
  await expect(page).toHaveURL(/visibility=public/);

  await page.getByLabel('Categoria').selectOption({ label: 'Sistema' });
  await expect(imageCard(page, 'e2e Banner')).toHaveCount(0);
  await expect(imageCard(page, 'e2e Logo roxo')).toBeVisible();
  await expect(page).toHaveURL(/category=system/);

  await page.getByLabel('Visibilidade').selectOption({ label: 'Públicas e privadas' });
  await page.getByLabel('Categoria').selectOption({ label: 'Todas as categorias' });
  // The search reads the alt text too.
  await page.getByRole('searchbox', { name: 'Buscar' }).fill('robô');
  await expect(imageCard(page, 'e2e Avatar do bot')).toBeVisible();
  await expect(imageCard(page, 'e2e Logo roxo')).toHaveCount(0);
  await expect(page).toHaveURL(/search=rob/);
  // A reload keeps the search.
  await page.reload();
  await expect(imageCard(page, 'e2e Avatar do bot')).toBeVisible();
  await expect(imageCard(page, 'e2e Banner')).toHaveCount(0);
});

test('edits an image: new title, category and public, which opens its plain address to anyone', async ({
  page,
  api,
  admin,
  server,
  request,
}) => {
  const token = await adminToken(api, admin);
  const id = await uploadThroughApi(
    server,
    token,
    { title: 'e2e Rascunho', altText: 'Um rascunho', category: 'production', isPublic: false },
    { name: 'rascunho.png', type: 'image/png', bytes: await smallPng('#764ba2') },
  );
  expect((await request.get(`/api/images/${id}`)).ok()).toBe(false);

  await openImages(page, api, admin, '?search=e2e');
  await imageCard(page, 'e2e Rascunho')
    .getByRole('button', { name: 'Editar e2e Rascunho' })
    .click();
  const dialog = page.getByRole('dialog', { name: 'Editar imagem' });
  await expect(dialog.getByLabel('Texto alternativo')).toHaveValue('Um rascunho');
  await dialog.getByLabel('Título').fill('e2e Versão final');
  await dialog.getByLabel('Categoria').selectOption({ label: 'Envios de usuários' });
  await dialog.getByRole('checkbox', { name: 'Pública' }).check();
  await dialog.getByRole('button', { name: 'Salvar' }).click();

  await expect(page.getByText('Imagem atualizada.')).toBeVisible();
  await expect(dialog).toHaveCount(0);
  const card = imageCard(page, 'e2e Versão final');
  await expect(card).toContainText('Pública');
  await expect(card).toContainText('Envios de usuários');
  await expect(imageCard(page, 'e2e Rascunho')).toHaveCount(0);

  const served = await request.get(`/api/images/${id}`);
  expect(served.status()).toBe(200);
  expect(served.headers()['content-type']).toMatch(/^image\//);
});

test('Copy URL puts an address on the clipboard that opens the image signed out, a private one too; Delete (confirmed) removes it', async ({
  page,
  api,
  admin,
  server,
  request,
}) => {
  await page.context().grantPermissions(['clipboard-write']);
  // The app's Permissions-Policy allows writing to the clipboard only (clipboard-read=()), so the
  // test reads what was written by watching the real write, which still goes to the clipboard.
  await page.addInitScript(() => {
    const clipboard = navigator.clipboard;
    const write = clipboard.writeText.bind(clipboard);
    (window as unknown as { copied: string[] }).copied = [];
    clipboard.writeText = async (text: string) => {
      await write(text);
      (window as unknown as { copied: string[] }).copied.push(text);
    };
  });
  const token = await adminToken(api, admin);
  await uploadThroughApi(
    server,
    token,
    {
      title: 'e2e Segredo',
      altText: 'Uma imagem privada',
      category: 'production',
      isPublic: false,
    },
    { name: 'segredo.png', type: 'image/png', bytes: await smallPng('#16a34a') },
  );
  await openImages(page, api, admin, '?search=e2e');
  const card = imageCard(page, 'e2e Segredo');

  await card.getByRole('button', { name: 'Copiar URL de e2e Segredo' }).click();
  await expect(page.getByText(/^URL copiada\. Esta imagem é privada: o link expira/)).toBeVisible();
  const copied = await page.evaluate(() =>
    (window as unknown as { copied: string[] }).copied.at(-1)!,
  );
  expect(copied.startsWith(`${server.baseURL}/api/images/`)).toBe(true);
  // The signed address opens it for anyone (an <img> on another page, a colleague).
  const opened = await request.get(copied);
  expect(opened.status()).toBe(200);
  expect(opened.headers()['content-type']).toMatch(/^image\//);
  expect(opened.headers()['x-content-type-options']).toBe('nosniff');

  await card.getByRole('button', { name: 'Excluir e2e Segredo' }).click();
  const confirm = page.getByRole('dialog', { name: 'Excluir imagem?' });
  await expect(confirm).toContainText('e2e Segredo será excluída');
  await confirm.getByRole('button', { name: 'Cancelar' }).click();
  await expect(card).toBeVisible();

  await card.getByRole('button', { name: 'Excluir e2e Segredo' }).click();
  await confirm.getByRole('button', { name: 'Excluir' }).click();
  await expect(page.getByText('Imagem excluída.')).toBeVisible();
  await expect(card).toHaveCount(0);
  // Its files went with it.
  expect((await request.get(copied)).status()).toBe(404);
});

test('a user and an admin in user mode get Access denied on /images, and no Images link', async ({
  page,
  api,
}) => {
  await signedInUser(page, api, { prefix: 'semimagens' });
  await page.goto('/images');
  await expect(page.getByRole('heading', { level: 1, name: 'Acesso negado' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Imagens', exact: true })).toHaveCount(0);
});

test('/images: no serious axe violations on a desktop and a phone, with its dialogs; no sideways scroll; screenshots', async ({
  page,
  api,
  admin,
  server,
}, testInfo) => {
  const token = await adminToken(api, admin);
  for (const [index, color] of ['#667eea', '#764ba2', '#16a34a'].entries()) {
    await uploadThroughApi(
      server,
      token,
      {
        title: `e2e Visual ${index + 1}`,
        altText: `Quadro de cor ${color}`,
        category: index === 0 ? 'system' : 'production',
        isPublic: index !== 1,
      },
      { name: `visual-${index + 1}.png`, type: 'image/png', bytes: await smallPng(color) },
    );
  }
  await openImages(page, api, admin, '?search=e2e%20Visual');
  for (const size of [
    { width: 1280, height: 800 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(size);
    const at = `${size.width}px`;
    await expect(imageCard(page, 'e2e Visual 3')).toBeVisible();
    await expectNoSeriousViolations(page, `the image library at ${at}`);
    await expectNoSidewaysScroll(page, `the image library at ${at}`);
    await screenshot(page, testInfo, `images-${size.width}`);

    await page.getByRole('button', { name: 'Enviar imagem' }).click();
    const upload = page.getByRole('dialog', { name: 'Enviar imagem' });
    await upload.getByLabel(/Arraste e solte uma imagem aqui/).setInputFiles({
      name: 'previa.png',
      mimeType: 'image/png',
      buffer: await smallPng('#dc2626'),
    });
    await expect(upload.getByRole('img', { name: 'Prévia de previa.png' })).toBeVisible();
    await expectNoSeriousViolations(page, `the upload dialog at ${at}`);
    await expectNoSidewaysScroll(page, `the upload dialog at ${at}`);
    await screenshot(page, testInfo, `images-upload-${size.width}`);
    // Escape closes it, as every dialog.
    await page.keyboard.press('Escape');
    await expect(upload).toHaveCount(0);

    await imageCard(page, 'e2e Visual 1')
      .getByRole('button', { name: 'Editar e2e Visual 1' })
      .click();
    const edit = page.getByRole('dialog', { name: 'Editar imagem' });
    await expect(edit.getByLabel('Título')).toHaveValue('e2e Visual 1');
    await expectNoSeriousViolations(page, `the edit dialog at ${at}`);
    await screenshot(page, testInfo, `images-edit-${size.width}`);
    await edit.getByRole('button', { name: 'Cancelar' }).click();
    await expect(edit).toHaveCount(0);
  }
});
