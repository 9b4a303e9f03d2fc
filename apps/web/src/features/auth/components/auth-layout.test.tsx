// @vitest-environment happy-dom
import { describe, expect, it } from 'vitest';
import { AuthLayout } from '@/features/auth/components/auth-layout';
import { startFakeServer } from '@/test/fake-server';
import { renderWithProviders } from '@/test/render-with-providers';

// The sign-in pages' logo follows the theme (components/ui/logo.tsx), where it was an image of
// fixed colours.

describe('the sign-in pages', () => {
  it("show the theme's logo, not a fixed-colour image", async () => {
    startFakeServer();
    const { container } = await renderWithProviders(
      <AuthLayout aside={null}>
        <p>Formulário</p>
      </AuthLayout>,
      { route: '/login' },
    );
    const brand = container.querySelector('.auth-brand');
    expect(brand?.querySelector('img[src="/favicon.svg"]')).toBeNull();
    // The theme's mark (its colours: components/ui/logo.test.tsx).
    expect(brand?.querySelector('.logo')).toHaveAttribute('aria-hidden', 'true');
  });
});
