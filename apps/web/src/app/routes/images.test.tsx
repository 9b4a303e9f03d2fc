// @vitest-environment happy-dom
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import ImagesRoute from '@/app/routes/images';
import { ADMIN, serveSettings, signIn } from '@/test/admin-settings';
import { startFakeServer } from '@/test/fake-server';
import { userFixture } from '@/test/fixtures';
import { imageFixture, serveImages } from '@/test/images-fixtures';
import { renderWithProviders } from '@/test/render-with-providers';
import type { User } from '@contrateia/shared';
import type { Language } from '@contrateia/shared/i18n/languages';

// /images: who sees the image library. The library itself is tested in
// features/images/components/images-page.test.tsx; the journeys against the real server are
// e2e/images.spec.ts.

async function openImages(user: User, language: Language = 'en-US') {
  const server = startFakeServer();
  signIn(server, user);
  serveSettings(server);
  serveImages(server, [imageFixture({ title: 'Company logo', isPublic: true })]);
  const view = await renderWithProviders(<ImagesRoute />, {
    language,
    route: '/images',
    // As the router loads it (app/router.tsx).
    texts: ['app', 'images', 'admin'],
  });
  await screen.findByRole('heading', { level: 1 });
  return { server, ...view };
}

describe('/images', () => {
  it('shows an admin in admin mode the library, named in the tab title', async () => {
    await openImages(ADMIN);
    expect(screen.getByRole('heading', { level: 1, name: 'Image library' })).toBeVisible();
    expect(await screen.findByRole('article', { name: 'Company logo' })).toBeVisible();
    expect(document.title).toBe('Images · ContrateIA');
  });

  it('says Access denied to a user, with a way back, and asks the server nothing', async () => {
    const { server } = await openImages(userFixture());
    expect(screen.getByRole('heading', { level: 1, name: 'Access denied' })).toBeVisible();
    expect(screen.getByRole('link', { name: 'Back to the dashboard' })).toHaveAttribute(
      'href',
      '/dashboard',
    );
    expect(server.calls().filter((call) => call.includes('/api/images'))).toEqual([]);
    expect(document.title).toBe('Access denied · ContrateIA');
  });

  it('tells an admin in user mode to switch to admin mode (es-ES)', async () => {
    const { server } = await openImages({ ...ADMIN, role: 'user' }, 'es-ES');
    expect(screen.getByRole('heading', { level: 1, name: 'Acceso denegado' })).toBeVisible();
    expect(screen.getByText(/Estás en modo usuario/)).toBeVisible();
    expect(server.calls().filter((call) => call.includes('/api/images'))).toEqual([]);
  });
});
