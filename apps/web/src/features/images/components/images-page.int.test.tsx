// @vitest-environment happy-dom
import type { Image } from '@contrateia/shared/images/images.schemas';
import type { Language } from '@contrateia/shared/i18n/languages';
import { defaultSettings } from '@contrateia/shared/settings/settings.schemas';
import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { ImagesPage } from '@/features/images/components/images-page';
import { uuid } from '@/test/admin-manage-fixtures';
import { ADMIN, serveSettings, signIn } from '@/test/admin-settings';
import { emulateDialogCloseRequests } from '@/test/browser';
import { errorResponse, startFakeServer, type FakeServer } from '@/test/fake-server';
import { imageFixture, manyImages, serveImages, storeUpload } from '@/test/images-fixtures';
import { renderWithProviders } from '@/test/render-with-providers';

// The image library against a stand-in API that filters, pages, stores and refuses as the server's
// image routes do. The journeys against the real server are e2e/images.spec.ts.

const logo = () =>
  imageFixture({
    id: uuid(1),
    title: 'Company logo',
    altText: 'The ContrateIA logo, a purple speech bubble',
    originalFilename: 'logo.png',
    category: 'system',
    fileSize: 1_572_864,
    width: 512,
    height: 512,
    mimeType: 'image/png',
    isPublic: true,
  });

const banner = () =>
  imageFixture({
    id: uuid(2),
    title: '',
    altText: 'People at a job fair',
    originalFilename: 'feira.jpg',
    category: 'production',
    fileSize: 245_760,
    width: 1920,
    height: 1080,
    isPublic: false,
  });

async function openPage({
  images = [logo(), banner()],
  language = 'en-US',
  route = '/images',
  arrange = () => {},
}: {
  images?: Image[];
  language?: Language;
  route?: string;
  arrange?: (server: FakeServer) => void;
} = {}) {
  const server = startFakeServer();
  signIn(server, ADMIN);
  const settings = serveSettings(server);
  const state = serveImages(server, images);
  arrange(server);
  const view = await renderWithProviders(<ImagesPage />, {
    language,
    route,
    path: '/images',
    texts: ['app', 'admin', 'images'],
  });
  return { server, state, settings, ...view };
}

/** The page once its first list is in (or its empty or failed state). */
async function settled() {
  await waitFor(() => expect(screen.queryByText(/Loading images|Carregando imagens/)).toBeNull());
}

/** The alert that says `text` (the page keeps empty alert regions for later messages). */
async function findAlert(text: string, container: Pick<typeof screen, 'findByText'> = screen) {
  const found = await container.findByText(text);
  const alert = found.closest('[role="alert"]');
  expect(alert, `"${text}" is not in an alert`).not.toBeNull();
  return alert as HTMLElement;
}

const card = (name: string) => screen.getByRole('article', { name });
// `hidden: true` skips the visibility check of each of up to 120 cards: the page hides none.
const articles = () => screen.queryAllByRole('article', { hidden: true });
const cards = () => articles().map((article) => article.textContent);
const cardNames = () => articles().map((article) => article.querySelector('h3')?.textContent);
const listCalls = (server: FakeServer) =>
  server.calls().filter((call) => call.startsWith('GET /api/images?'));
const stat = (label: string) =>
  within(screen.getByRole('region', { name: /Figures|Números|Cifras/ }))
    .getByText(label, { selector: 'dt' })
    .parentElement!.querySelector('dd')!;

describe('the image list', () => {
  it('shows the figures, and each image with its thumbnail, title, category, size, dimensions and visibility', async () => {
    const { server } = await openPage();
    await screen.findByRole('article', { name: 'Company logo' });
    expect(screen.getByRole('heading', { level: 1, name: 'Image library' })).toBeVisible();

    await waitFor(() => expect(stat('Images')).toHaveTextContent('2'));
    expect(stat('Total size')).toHaveTextContent('1.7 MB');
    expect(stat('System')).toHaveTextContent('1');
    expect(stat('Production')).toHaveTextContent('1');
    expect(stat('User uploads')).toHaveTextContent('0');
    expect(stat('Agents')).toHaveTextContent('0');

    const logoCard = card('Company logo');
    const thumb = within(logoCard).getByRole('img', {
      name: 'The ContrateIA logo, a purple speech bubble',
    });
    expect(thumb).toHaveAttribute('src', `/api/images/${uuid(1)}?size=thumb`);
    expect(thumb).toHaveAttribute('loading', 'lazy');
    expect(logoCard).toHaveTextContent('Public');
    expect(logoCard).toHaveTextContent('logo.png');
    expect(logoCard).toHaveTextContent('System');
    expect(logoCard).toHaveTextContent('1.5 MB');
    expect(logoCard).toHaveTextContent('512 × 512 px');

    // With no title, the file name names it.
    const bannerCard = card('feira.jpg');
    expect(bannerCard).toHaveTextContent('Private');
    expect(bannerCard).toHaveTextContent('Production');
    expect(bannerCard).toHaveTextContent('240 kB');
    expect(bannerCard).toHaveTextContent('1920 × 1080 px');
    expect(within(bannerCard).getByRole('img', { name: 'People at a job fair' })).toHaveAttribute(
      'src',
      expect.stringContaining('signature='),
    );
    for (const action of ['Copy URL of feira.jpg', 'Edit feira.jpg', 'Delete feira.jpg']) {
      expect(within(bannerCard).getByRole('button', { name: action })).toBeVisible();
    }
    expect(screen.getByText('Showing 2 of 2')).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    expect(listCalls(server)).toEqual(['GET /api/images?limit=50&offset=0']);
    // Every call carries the admin's token and the page's language.
    const request = server.requests.find((r) => r.url.startsWith('/api/images?'))!;
    expect(request.headers.get('Authorization')).toBe('Bearer token-de-bia');
    expect(request.headers.get('Accept-Language')).toBe('en-US');
  });

  it('says it is loading, then shows the images', async () => {
    const { server } = await openPage({
      arrange: (s) => {
        s.hold('GET /api/images');
      },
    });
    expect(await screen.findByText('Loading images...')).toBeVisible();
    expect(listCalls(server)).toHaveLength(1);
  });

  it('has an empty state, and another when filters match nothing', async () => {
    const { user } = await openPage({ images: [] });
    expect(
      await screen.findByText('No images yet. Upload the first one with Upload image.'),
    ).toBeVisible();
    await user.selectOptions(screen.getByLabelText('Category'), 'agent');
    expect(await screen.findByText('No images match these filters.')).toBeVisible();
  });

  it('filters by category and visibility, in the address, asking the server', async () => {
    const { server, user, location } = await openPage({
      images: [
        logo(),
        banner(),
        imageFixture({ id: uuid(3), title: 'Bot avatar', category: 'agent', isPublic: true }),
      ],
    });
    await settled();
    expect(cardNames()).toEqual(['Company logo', 'feira.jpg', 'Bot avatar']);

    await user.selectOptions(screen.getByLabelText('Visibility'), 'Public');
    await waitFor(() => expect(cardNames()).toEqual(['Company logo', 'Bot avatar']));
    expect(location().search).toBe('?visibility=public');

    await user.selectOptions(screen.getByLabelText('Category'), 'Agents');
    await waitFor(() => expect(cardNames()).toEqual(['Bot avatar']));
    expect(location().search).toBe('?visibility=public&category=agent');
    expect(listCalls(server)).toEqual([
      'GET /api/images?limit=50&offset=0',
      'GET /api/images?limit=50&offset=0&isPublic=true',
      'GET /api/images?limit=50&offset=0&category=agent&isPublic=true',
    ]);

    await user.selectOptions(screen.getByLabelText('Visibility'), 'Private');
    expect(await screen.findByText('No images match these filters.')).toBeVisible();
    await user.selectOptions(screen.getByLabelText('Category'), 'All categories');
    await waitFor(() => expect(cardNames()).toEqual(['feira.jpg']));
    expect(location().search).toBe('?visibility=private');
  });

  it('searches title, alt text and file name once typing pauses, not at every key; Enter at once', async () => {
    const { server, user, location } = await openPage();
    await settled();
    await user.type(screen.getByRole('searchbox', { name: 'Search' }), 'job fair');
    await waitFor(() => expect(cardNames()).toEqual(['feira.jpg']));
    expect(location().search).toBe('?search=job+fair');
    // One search for the whole phrase, after the pause.
    expect(listCalls(server)).toEqual([
      'GET /api/images?limit=50&offset=0',
      'GET /api/images?limit=50&offset=0&search=job+fair',
    ]);

    const box = screen.getByRole('searchbox', { name: 'Search' });
    await user.clear(box);
    await user.type(box, 'logo.png{Enter}');
    await waitFor(() => expect(cardNames()).toEqual(['Company logo']));
    expect(location().search).toBe('?search=logo.png');
  });

  it('opens with the filters the address names', async () => {
    const { server } = await openPage({
      route: '/images?search=logo&category=system&visibility=public',
    });
    await screen.findByRole('article', { name: 'Company logo' });
    expect(listCalls(server)).toEqual([
      'GET /api/images?limit=50&offset=0&category=system&isPublic=true&search=logo',
    ]);
    expect(screen.getByRole('searchbox', { name: 'Search' })).toHaveValue('logo');
    expect(screen.getByLabelText('Category')).toHaveValue('system');
    expect(screen.getByLabelText('Visibility')).toHaveValue('public');
  });

  it('loads 50 at a time: Load more adds the next ones under those shown', async () => {
    const { server, user } = await openPage({ images: manyImages(120) });
    // Among 150 buttons, `hidden: true` spares checking each one's visibility: none is hidden.
    const loadMore = () => screen.queryByRole('button', { name: 'Load more', hidden: true });
    await screen.findByText('Showing 50 of 120');
    expect(cards()).toHaveLength(50);

    await user.click(loadMore()!);
    await screen.findByText('Showing 100 of 120');
    expect(cards()).toHaveLength(100);
    expect(cardNames()[0]).toBe('Image 01');
    expect(cardNames()[99]).toBe('Image 100');
    await user.click(loadMore()!);
    await screen.findByText('Showing 120 of 120');
    expect(cardNames().at(-1)).toBe('Image 120');
    expect(loadMore()).not.toBeInTheDocument();
    expect(listCalls(server)).toEqual([
      'GET /api/images?limit=50&offset=0',
      'GET /api/images?limit=50&offset=50',
      'GET /api/images?limit=50&offset=100',
    ]);
  });

  it("says 'Failed to fetch images:' with the server's reason, and Try again reads again", async () => {
    let fail = true;
    const { user } = await openPage({
      arrange: (server) => {
        const images = [logo()];
        server.on('GET /api/images', () =>
          fail
            ? errorResponse(500, { message: 'The database is not answering' })
            : { images, total: 1 },
        );
      },
    });
    await findAlert('Failed to fetch images: The database is not answering');
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('article', { name: 'Company logo' })).toBeVisible();
  });

  it('names a network failure after the colon, in Portuguese', async () => {
    await openPage({
      language: 'pt-BR',
      arrange: (server) =>
        server.on('GET /api/images', () => {
          throw new TypeError('Failed to fetch');
        }),
    });
    await findAlert(
      'Falha ao buscar imagens: Erro de rede. Verifique sua conexão e tente novamente.',
    );
  });

  it('shows the figures as unavailable when they cannot be read, the list still there', async () => {
    await openPage({
      arrange: (server) =>
        server.on('GET /api/images/stats', () => errorResponse(500, { message: 'Boom' })),
    });
    await screen.findByRole('article', { name: 'Company logo' });
    expect(await screen.findByText('Could not load the figures')).toBeVisible();
    expect(stat('Images')).toHaveTextContent('—');
  });
});

describe('Copy URL', () => {
  it("puts the image's full address on the clipboard and says so", async () => {
    const { user } = await openPage();
    await user.click(await screen.findByRole('button', { name: 'Copy URL of Company logo' }));
    expect(await screen.findByText('URL copied.')).toBeVisible();
    expect(await navigator.clipboard.readText()).toBe(
      `${window.location.origin}/api/images/${uuid(1)}`,
    );
  });

  it('says that the link of a private image expires', async () => {
    const { user } = await openPage();
    await user.click(await screen.findByRole('button', { name: 'Copy URL of feira.jpg' }));
    expect(
      await screen.findByText(
        'URL copied. This image is private: its link expires, so copy it again when you need it later.',
      ),
    ).toBeVisible();
    const copied = await navigator.clipboard.readText();
    expect(copied).toMatch(new RegExp(`^${window.location.origin}/api/images/${uuid(2)}\\?`));
    expect(new URL(copied).searchParams.get('signature')).toBeTruthy();
  });

  it("says 'Failed to copy URL' when the browser refuses", async () => {
    const { user } = await openPage({ language: 'es-ES' });
    // The browser's refusal (no permission, or no Clipboard API on plain HTTP).
    vi.spyOn(navigator.clipboard, 'writeText').mockRejectedValue(
      new DOMException('Write permission denied.', 'NotAllowedError'),
    );
    await user.click(await screen.findByRole('button', { name: 'Copiar URL de Company logo' }));
    await findAlert('No se ha podido copiar la URL');
  });
});

describe('Delete', () => {
  it('asks first; Cancel keeps the image, Delete removes it and updates the figures', async () => {
    const { server, user } = await openPage();
    await user.click(await screen.findByRole('button', { name: 'Delete Company logo' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete image?' });
    expect(dialog).toHaveTextContent(
      'Company logo will be deleted, with its file. Pages and links that show it will stop showing it.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(server.calls().filter((call) => call.startsWith('DELETE'))).toEqual([]);
    expect(screen.getByRole('button', { name: 'Delete Company logo' })).toHaveFocus();

    await user.click(screen.getByRole('button', { name: 'Delete Company logo' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Delete image?' })).getByRole('button', {
        name: 'Delete',
      }),
    );
    expect(await screen.findByText('Image deleted.')).toBeVisible();
    await waitFor(() => expect(cardNames()).toEqual(['feira.jpg']));
    await waitFor(() => expect(stat('Images')).toHaveTextContent('1'));
    expect(stat('System')).toHaveTextContent('0');
    expect(server.calls()).toContain(`DELETE /api/images/${uuid(1)}`);
    expect(screen.getByRole('heading', { level: 2, name: 'Images' })).toHaveFocus();
  });

  it("keeps the dialog open with 'Delete failed:' and the server's reason", async () => {
    const { user } = await openPage({
      language: 'pt-BR',
      arrange: (server) =>
        server.on('DELETE /api/images/:id', () =>
          errorResponse(404, { message: 'Imagem não encontrada' }),
        ),
    });
    await user.click(await screen.findByRole('button', { name: 'Excluir Company logo' }));
    const dialog = screen.getByRole('dialog', { name: 'Excluir imagem?' });
    await user.click(within(dialog).getByRole('button', { name: 'Excluir' }));
    await findAlert('Falha ao excluir: Imagem não encontrada', within(dialog));
    expect(card('Company logo')).toBeVisible();
  });
});

describe('Edit', () => {
  it("changes an image's title, alt text, category and visibility", async () => {
    const { server, user } = await openPage();
    await user.click(await screen.findByRole('button', { name: 'Edit feira.jpg' }));
    const dialog = screen.getByRole('dialog', { name: 'Edit image' });
    const form = within(dialog);
    expect(form.getByLabelText('Title')).toHaveValue('');
    expect(form.getByLabelText('Alt text')).toHaveValue('People at a job fair');
    expect(form.getByLabelText('Category')).toHaveValue('production');
    expect(form.getByRole('checkbox', { name: 'Public' })).not.toBeChecked();

    await user.type(form.getByLabelText('Title'), '  Job fair  ');
    await user.clear(form.getByLabelText('Alt text'));
    await user.type(form.getByLabelText('Alt text'), 'Candidates talking to recruiters');
    await user.selectOptions(form.getByLabelText('Category'), 'User uploads');
    await user.click(form.getByRole('checkbox', { name: 'Public' }));
    await user.click(form.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Image updated.')).toBeVisible();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    const put = server.requests.find((request) => request.method === 'PUT');
    expect(put?.url).toBe(`/api/images/${uuid(2)}`);
    // Sent as the shared schema leaves it: trimmed.
    expect(put?.body).toEqual({
      title: 'Job fair',
      altText: 'Candidates talking to recruiters',
      category: 'user_upload',
      isPublic: true,
    });
    const edited = await screen.findByRole('article', { name: 'Job fair' });
    expect(edited).toHaveTextContent('Public');
    expect(edited).toHaveTextContent('User uploads');
    await waitFor(() => expect(stat('User uploads')).toHaveTextContent('1'));
  });

  it("keeps the dialog open with 'Update failed:' and the server's reason, on its field too", async () => {
    const { user } = await openPage({
      arrange: (server) =>
        server.on('PUT /api/images/:id', () =>
          errorResponse(400, {
            message: 'Validation error',
            errors: { title: 'The title can have at most 200 characters' },
          }),
        ),
    });
    await user.click(await screen.findByRole('button', { name: 'Edit Company logo' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Edit image' }));
    await user.click(dialog.getByRole('button', { name: 'Save' }));
    await findAlert('Update failed: Validation error', dialog);
    expect(dialog.getByLabelText('Title')).toHaveAccessibleDescription(
      'The title can have at most 200 characters',
    );
    // Editing the field clears its error.
    await user.type(dialog.getByLabelText('Title'), '!');
    expect(dialog.getByLabelText('Title')).not.toHaveAccessibleDescription();
  });

  it('closes on Escape without saving, focus back on Edit', async () => {
    emulateDialogCloseRequests();
    const { server, user } = await openPage();
    const edit = await screen.findByRole('button', { name: 'Edit Company logo' });
    await user.click(edit);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(edit).toHaveFocus();
    expect(server.calls().filter((call) => call.startsWith('PUT'))).toEqual([]);
  });
});

describe('Upload', () => {
  const png = (name = 'novo-logo.png', bytes = 4_000, type = 'image/png') =>
    new File([new Uint8Array(bytes)], name, { type });

  const UPLOAD = { 'en-US': 'Upload image', 'pt-BR': 'Enviar imagem', 'es-ES': 'Subir imagen' };

  async function openUpload(options: Parameters<typeof openPage>[0] = {}) {
    const page = await openPage(options);
    await settled();
    const name = UPLOAD[options.language ?? 'en-US'];
    await page.user.click(screen.getByRole('button', { name }));
    const dialog = screen.getByRole('dialog', { name });
    return { ...page, dialog: within(dialog), dialogElement: dialog };
  }

  const fileInput = (dialog: ReturnType<typeof within>) =>
    dialog.getByLabelText(/Drag and drop an image here/);

  it('checks the file before sending anything: none, not an image, a type or size the settings refuse', async () => {
    const { server, user, dialog, settings, queryClient } = await openUpload();
    await user.click(dialog.getByRole('button', { name: 'Upload' }));
    expect(await dialog.findByText('Please select a file to upload')).toBeVisible();
    expect(fileInput(dialog)).toHaveFocus();

    // user-event leaves out files the input's accept="image/*" would not offer; a drop does not.
    fireEvent.drop(dialog.getByText('Drag and drop an image here'), {
      dataTransfer: { files: [new File(['%PDF-1.7'], 'cv.pdf', { type: 'application/pdf' })] },
    });
    expect(await dialog.findByText('Please select a valid image file')).toBeVisible();

    // The default settings allow jpg, jpeg, png, gif (and pdf, doc, docx, which are no images).
    await user.upload(fileInput(dialog), png('foto.webp', 2_000, 'image/webp'));
    expect(
      await dialog.findByText('foto.webp is not one of the accepted types: jpg, jpeg, png, gif.'),
    ).toBeVisible();
    expect(
      dialog.getByText('Accepted types: jpg, jpeg, png, gif. Largest file: 10 MB.'),
    ).toBeVisible();

    // An admin lowers the limit to 1 MB: the page follows the public settings.
    settings.system = { ...defaultSettings().system, maxFileSize: 1 };
    await act(() => queryClient.invalidateQueries({ queryKey: ['settings', 'public'] }));
    await dialog.findByText('Accepted types: jpg, jpeg, png, gif. Largest file: 1 MB.');
    await user.upload(fileInput(dialog), png('grande.png', 1_048_577));
    expect(
      await dialog.findByText('grande.png is 1 MB: the largest file accepted is 1 MB.'),
    ).toBeVisible();
    await user.click(dialog.getByRole('button', { name: 'Upload' }));
    expect(fileInput(dialog)).toHaveFocus();
    expect(server.calls().filter((call) => call.includes('upload'))).toEqual([]);
  });

  // A file that is refused (here, by the server, or by the browser that cannot draw it) shows no
  // preview: a broken image would say nothing the error does not.
  it('shows no preview of a refused file: type, size, the server, or one the browser cannot draw', async () => {
    const { user, dialog, settings, queryClient, server } = await openUpload();
    await dialog.findByText('Accepted types: jpg, jpeg, png, gif. Largest file: 10 MB.');
    await user.upload(fileInput(dialog), png('foto.webp', 2_000, 'image/webp'));
    await dialog.findByText('foto.webp is not one of the accepted types: jpg, jpeg, png, gif.');
    expect(dialog.queryByRole('img')).not.toBeInTheDocument();

    settings.system = { ...defaultSettings().system, maxFileSize: 1 };
    await act(() => queryClient.invalidateQueries({ queryKey: ['settings', 'public'] }));
    await dialog.findByText('Accepted types: jpg, jpeg, png, gif. Largest file: 1 MB.');
    await user.upload(fileInput(dialog), png('grande.png', 1_048_577));
    await dialog.findByText('grande.png is 1 MB: the largest file accepted is 1 MB.');
    expect(dialog.queryByRole('img')).not.toBeInTheDocument();

    // Accepted here, the browser cannot draw it: no broken image either.
    await user.upload(fileInput(dialog), png('estranha.png'));
    const drawn = await dialog.findByRole('img', { name: 'Preview of estranha.png' });
    fireEvent.error(drawn);
    await waitFor(() => expect(dialog.queryByRole('img')).not.toBeInTheDocument());
    expect(dialog.getByText(/estranha\.png/)).toBeVisible();

    // Refused by the server on the file.
    server.on('POST /api/images/upload', () =>
      errorResponse(400, {
        message: 'The file is not an image we accept',
        errors: { image: 'The file is not an image we accept' },
      }),
    );
    await user.upload(fileInput(dialog), png('falsa.png'));
    expect(await dialog.findByRole('img', { name: 'Preview of falsa.png' })).toBeVisible();
    await user.click(dialog.getByRole('button', { name: 'Upload' }));
    await waitFor(() =>
      expect(fileInput(dialog)).toHaveAccessibleDescription(
        expect.stringContaining('The file is not an image we accept'),
      ),
    );
    expect(dialog.queryByRole('img')).not.toBeInTheDocument();
  });

  it('uploads a dropped image with its fields, showing a preview and the progress, then the list and figures have it', async () => {
    const createObjectURL = vi.spyOn(URL, 'createObjectURL');
    const revokeObjectURL = vi.spyOn(URL, 'revokeObjectURL');
    const { server, state, user, dialog } = await openUpload();
    const uploads = server.hold('POST /api/images/upload');
    // The defaults: production, not public.
    expect(dialog.getByLabelText('Category')).toHaveValue('production');
    expect(dialog.getByRole('checkbox', { name: 'Public' })).not.toBeChecked();

    const file = png('novo-logo.png', 4_000);
    fireEvent.drop(dialog.getByText('Drag and drop an image here'), {
      dataTransfer: { files: [file] },
    });
    const preview = await dialog.findByRole('img', { name: 'Preview of novo-logo.png' });
    expect(createObjectURL).toHaveBeenCalledWith(file);
    expect(preview).toHaveAttribute('src', createObjectURL.mock.results.at(-1)?.value);
    expect(dialog.getByText('novo-logo.png (3.9 kB)')).toBeVisible();

    await user.selectOptions(dialog.getByLabelText('Category'), 'System');
    await user.type(dialog.getByLabelText('Title'), 'New logo');
    await user.type(dialog.getByLabelText('Alt text'), 'The new ContrateIA logo');
    await user.click(dialog.getByRole('checkbox', { name: 'Public' }));
    await user.click(dialog.getByRole('button', { name: 'Upload' }));

    const held = await uploads.next();
    const body = held.request.body;
    expect(Object.fromEntries([...body.entries()].filter(([name]) => name !== 'image'))).toEqual({
      category: 'system',
      altText: 'The new ContrateIA logo',
      title: 'New logo',
      isPublic: 'true',
    });
    expect((body.get('image') as File).name).toBe('novo-logo.png');
    expect(held.request.headers.get('Authorization')).toBe('Bearer token-de-bia');
    expect(held.request.headers.get('Accept-Language')).toBe('en-US');

    const bar = dialog.getByRole('progressbar', { name: 'Upload progress' });
    expect(bar).toHaveAttribute('value', '0');
    expect(dialog.getByRole('button', { name: 'Uploading...' })).toBeDisabled();
    const total = bodyTotal(body);
    act(() => held.request.uploadProgress?.(total / 2));
    expect(bar).toHaveAttribute('value', '50');
    expect(dialog.getByText('50% sent')).toBeVisible();
    act(() => held.request.uploadProgress?.(total));
    expect(dialog.getByText('Sent. The server is processing the image...')).toBeVisible();

    held.respond(storeUpload(state, body));
    expect(await screen.findByText('Image uploaded.')).toBeVisible();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Upload image' })).toHaveFocus();
    await waitFor(() => expect(cardNames()[0]).toBe('New logo'));
    await waitFor(() => expect(stat('Images')).toHaveTextContent('3'));
    expect(stat('System')).toHaveTextContent('2');
    expect(revokeObjectURL).toHaveBeenCalledWith(createObjectURL.mock.results.at(-1)?.value);
  });

  it('picks a file with the file picker too; Cancel stops an upload under way', async () => {
    const { server, user, dialog } = await openUpload();
    const uploads = server.hold('POST /api/images/upload');
    await user.upload(fileInput(dialog), png());
    expect(await dialog.findByRole('img', { name: 'Preview of novo-logo.png' })).toBeVisible();
    await user.click(dialog.getByRole('button', { name: 'Upload' }));
    const held = await uploads.next();
    expect(held.request.body.get('category')).toBe('production');
    expect(held.request.body.get('isPublic')).toBe('false');

    await user.click(dialog.getByRole('button', { name: 'Cancel' }));
    expect(held.request.signal.aborted).toBe(true);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.queryByText('Image uploaded.')).not.toBeInTheDocument();
  });

  it("keeps the dialog open with 'Upload failed:' and the server's reason", async () => {
    const { user, dialog } = await openUpload({
      language: 'es-ES',
      arrange: (server) =>
        server.on('POST /api/images/upload', () =>
          errorResponse(400, { message: 'El archivo no es una imagen admitida' }),
        ),
    });
    await user.upload(dialog.getByLabelText(/Arrastra y suelta una imagen aquí/), png());
    await user.click(dialog.getByRole('button', { name: 'Subir' }));
    await findAlert('Error al subir: El archivo no es una imagen admitida', dialog);
    expect(dialog.queryByRole('progressbar')).not.toBeInTheDocument();
    expect(dialog.getByRole('button', { name: 'Subir' })).toBeEnabled();
  });

  it('puts a file too large for the server (413) on the file, and says the upload failed', async () => {
    const { user, dialog } = await openUpload({
      language: 'pt-BR',
      arrange: (server) =>
        server.on('POST /api/images/upload', () =>
          errorResponse(413, {
            message: 'O arquivo passa do tamanho máximo de 10 MB',
            errors: { image: 'O arquivo passa do tamanho máximo de 10 MB' },
          }),
        ),
    });
    await user.upload(dialog.getByLabelText(/Arraste e solte uma imagem aqui/), png());
    await user.click(dialog.getByRole('button', { name: 'Enviar' }));
    await findAlert('Falha no envio: O arquivo passa do tamanho máximo de 10 MB', dialog);
    expect(dialog.getByLabelText(/Arraste e solte/)).toHaveAccessibleDescription(
      expect.stringContaining('O arquivo passa do tamanho máximo de 10 MB'),
    );
  });

  it('ends the session on a 401, as every call does', async () => {
    const { user, dialog, location } = await openUpload({
      arrange: (server) =>
        server.on('POST /api/images/upload', () =>
          errorResponse(401, { message: 'Your session has expired' }),
        ),
    });
    await user.upload(fileInput(dialog), png());
    await user.click(dialog.getByRole('button', { name: 'Upload' }));
    await waitFor(() => expect(location().pathname).toBe('/login'));
    expect(window.localStorage.getItem('token')).toBeNull();
  });
});

/** The size the fake XMLHttpRequest gives a multipart body (fake-xhr.ts). */
function bodyTotal(body: FormData): number {
  let size = 0;
  for (const [name, value] of body.entries()) {
    size += name.length + (typeof value === 'string' ? value.length : value.size);
  }
  return size;
}
