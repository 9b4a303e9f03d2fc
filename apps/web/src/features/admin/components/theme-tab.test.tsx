// @vitest-environment happy-dom
// A stylesheet "loads" as in a browser (happy-dom fetches none): the theme's reload completes.
// @vitest-environment-options { "settings": { "handleDisabledFileLoadingAsSuccess": true } }
import { defaultSettings } from '@contrateia/shared/settings/settings.schemas';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, onTestFinished } from 'vitest';
import { ThemeTab } from '@/features/admin/components/theme-tab';
import { ADMIN, serveSettings, signIn } from '@/test/admin-settings';
import { emulateDialogCloseRequests } from '@/test/browser';
import { errorResponse, startFakeServer } from '@/test/fake-server';
import { renderWithProviders } from '@/test/render-with-providers';

// Theme Settings against a stand-in server that stores what it is sent. That a saved theme restyles
// the pages is checked in a browser, where the server's /theme.css applies:
// e2e/admin-settings.spec.ts.

const STORED = { ...defaultSettings().theme, primaryColor: '#0f766e' };

async function openTheme() {
  const server = startFakeServer();
  signIn(server, ADMIN);
  const stored = serveSettings(server, { theme: { ...STORED } });
  // As index.html links it.
  const link = document.createElement('link');
  link.rel = 'stylesheet';
  link.href = '/theme.css';
  document.head.append(link);
  onTestFinished(() => {
    for (const sheet of document.head.querySelectorAll('link')) sheet.remove();
  });
  const view = await renderWithProviders(<ThemeTab />, {
    language: 'en-US',
    route: '/admin',
    texts: ['app', 'admin'],
  });
  await screen.findByRole('button', { name: 'Save theme' });
  const preview = screen.getByRole('img', { name: 'Preview of the theme' });
  const contrast = screen.getByRole('heading', { name: 'Contrast (WCAG AA)' }).parentElement!;
  return { server, stored, preview, contrast, ...view };
}

const hex = (name: string) => screen.getByRole('textbox', { name });

describe('Theme Settings', () => {
  it('shows the six colours as a picker and a hex field each, a preview in them, and no contrast warning for the defaults', async () => {
    const { preview, contrast } = await openTheme();
    const names = [
      'Primary colour',
      'Secondary colour',
      'Page background',
      'Text',
      'Card background',
      'Buttons and links',
    ];
    expect(names.map((name) => (hex(name) as HTMLInputElement).value)).toEqual([
      '#0f766e',
      '#764ba2',
      '#f5f6fb',
      '#1f2937',
      '#ffffff',
      '#5a67d8',
    ]);
    expect(screen.getByLabelText('Primary colour: colour picker')).toHaveValue('#0f766e');
    expect(preview.style.getPropertyValue('--color-primary')).toBe('#0f766e');
    expect(preview.style.getPropertyValue('--color-surface')).toBe('#ffffff');
    expect(contrast).toHaveTextContent(
      'Every text and background pair reaches the 4.5:1 that WCAG AA asks for.',
    );
  });

  it('previews the colours as they are typed or picked, and warns (without blocking) of each pair under 4.5:1, with its ratio', async () => {
    const { server, stored, preview, contrast, user } = await openTheme();
    await user.clear(hex('Text'));
    await user.type(hex('Text'), '#9CA3AF');
    expect(preview.style.getPropertyValue('--color-text')).toBe('#9CA3AF');
    fireEvent.input(screen.getByLabelText('Buttons and links: colour picker'), {
      target: { value: '#8fa0ff' },
    });
    expect(hex('Buttons and links')).toHaveValue('#8fa0ff');
    expect(preview.style.getPropertyValue('--color-primary-strong')).toBe('#8fa0ff');

    const warnings = within(contrast)
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(warnings).toEqual([
      'Text on the page background: 2.35:1, under the 4.5:1 that WCAG AA asks for',
      'Text on cards: 2.53:1, under the 4.5:1 that WCAG AA asks for',
      'Button text on the button colour: 2.43:1, under the 4.5:1 that WCAG AA asks for',
      'Links on cards: 3.3:1, under the 4.5:1 that WCAG AA asks for',
    ]);

    await user.click(screen.getByRole('button', { name: 'Save theme' }));
    await waitFor(() =>
      expect(screen.getAllByRole('status')[0]).toHaveTextContent('Theme settings saved'),
    );
    expect(server.calls()).toEqual(['GET /api/admin/settings', 'POST /api/admin/settings/theme']);
    expect(stored.theme).toEqual({ ...STORED, textColor: '#9ca3af', buttonColor: '#8fa0ff' });
    // This page takes the new theme at once: the server's stylesheet is loaded again, in place
    // of the one the page started with.
    await waitFor(() =>
      expect(
        [...document.head.querySelectorAll('link[rel="stylesheet"]')].map((link) =>
          link.getAttribute('href'),
        ),
      ).toEqual([expect.stringMatching(/^\/theme\.css\?v=\d+$/)]),
    );
  });

  it('refuses a colour that is not #rrggbb on its field, sending nothing', async () => {
    const { server, user } = await openTheme();
    await user.clear(hex('Card background'));
    await user.type(hex('Card background'), 'white;}}body{{');
    await user.click(screen.getByRole('button', { name: 'Save theme' }));
    await waitFor(() =>
      expect(hex('Card background')).toHaveAccessibleDescription(
        'Write colours as #rrggbb, for example #667eea',
      ),
    );
    expect(hex('Card background')).toHaveAttribute('aria-invalid', 'true');
    expect(server.calls()).toEqual(['GET /api/admin/settings']);
  });

  it('resets to the default colours after a confirmation, and Cancel leaves them', async () => {
    emulateDialogCloseRequests();
    const { server, stored, user } = await openTheme();
    await user.click(screen.getByRole('button', { name: 'Reset to defaults' }));
    let dialog = screen.getByRole('dialog', { name: 'Reset the theme?' });
    expect(dialog).toHaveTextContent(
      'The six colours go back to the defaults, and every page changes at once, for everyone.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(hex('Primary colour')).toHaveValue('#0f766e');

    await user.click(screen.getByRole('button', { name: 'Reset to defaults' }));
    dialog = screen.getByRole('dialog', { name: 'Reset the theme?' });
    await user.click(within(dialog).getByRole('button', { name: 'Reset colours' }));
    await waitFor(() =>
      expect(screen.getAllByRole('status')[0]).toHaveTextContent(
        'The theme is back to the defaults',
      ),
    );
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(stored.theme).toEqual(defaultSettings().theme);
    expect(hex('Primary colour')).toHaveValue('#667eea');
    expect(server.calls()).toEqual(['GET /api/admin/settings', 'POST /api/admin/settings/theme']);
  });

  it("says 'Failed to save theme settings', and why, when the server refuses", async () => {
    const { server, user } = await openTheme();
    server.on('POST /api/admin/settings/theme', () =>
      errorResponse(403, { message: 'Access denied' }),
    );
    await user.click(screen.getByRole('button', { name: 'Save theme' }));
    await waitFor(() =>
      expect(screen.getByRole('alert')).toHaveTextContent(
        'Failed to save theme settings: Access denied',
      ),
    );
  });
});
