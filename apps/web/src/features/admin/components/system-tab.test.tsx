// @vitest-environment happy-dom
import type { WhatsAppPlatform } from '@contrateia/shared';
import { defaultSettings } from '@contrateia/shared/settings/settings.schemas';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SystemTab } from '@/features/admin/components/system-tab';
import { ADMIN, serveSettings, signIn } from '@/test/admin-settings';
import { emulateDialogCloseRequests } from '@/test/browser';
import { errorResponse, startFakeServer } from '@/test/fake-server';
import { renderWithProviders } from '@/test/render-with-providers';

// System Settings against a stand-in server that stores what it is sent. What the settings do
// (maintenance, closed registration) is checked against the real server in
// e2e/admin-settings.spec.ts.

const PLATFORM_OFF: WhatsAppPlatform = {
  account: 'admin@contrateia.test',
  phone: null,
  connected: false,
};

async function openSystem(platform: WhatsAppPlatform = PLATFORM_OFF) {
  const server = startFakeServer();
  signIn(server, ADMIN);
  const stored = serveSettings(server);
  server.on('GET /api/admin/whatsapp/platform', () => ({ success: true, data: platform }));
  const view = await renderWithProviders(<SystemTab />, {
    language: 'en-US',
    route: '/admin',
    texts: ['app', 'admin'],
  });
  await screen.findByRole('button', { name: 'Save system settings' });
  return { server, stored, ...view };
}

const fileTypes = () =>
  within(screen.getByRole('group', { name: 'Allowed file types' }))
    .getAllByRole('listitem')
    .map((item) => item.firstChild?.textContent);

const saved = () =>
  waitFor(() =>
    expect(screen.getAllByRole('status')[0]).toHaveTextContent('System settings saved'),
  );

describe('System Settings', () => {
  it('shows the settings in force: three switches, the session timeout, the file size and the file types', async () => {
    await openSystem();
    expect(screen.getByRole('switch', { name: 'Maintenance mode' })).not.toBeChecked();
    expect(screen.getByRole('switch', { name: 'Maintenance mode' })).toHaveAccessibleDescription(
      'Only admins can use the app; everyone else sees a maintenance page and cannot sign in.',
    );
    expect(screen.getByRole('switch', { name: 'Registration open' })).toBeChecked();
    expect(screen.getByRole('switch', { name: 'E-mail verification' })).toBeChecked();
    expect(screen.getByRole('spinbutton', { name: 'Session timeout (minutes)' })).toHaveValue(30);
    expect(screen.getByRole('spinbutton', { name: 'Maximum file size (MB)' })).toHaveValue(10);
    expect(fileTypes()).toEqual(['jpg', 'jpeg', 'png', 'gif', 'pdf', 'doc', 'docx']);
  });

  it("shows whose account carries the platform's WhatsApp number, and that it is not connected", async () => {
    await openSystem();
    const card = screen.getByRole('region', { name: 'Platform WhatsApp number' });
    await within(card).findByText('admin@contrateia.test');
    expect(within(card).getByText('No number connected')).toBeVisible();
    expect(within(card).getByText('Disconnected')).toBeVisible();
    expect(card).toHaveTextContent('"Sync Agent" is unavailable');
  });

  it('shows the connected platform number, formatted', async () => {
    await openSystem({ account: 'admin@contrateia.test', phone: '5511987654321', connected: true });
    const connected = screen.getByRole('region', { name: 'Platform WhatsApp number' });
    expect(await within(connected).findByText('+55 11 98765-4321')).toBeVisible();
    expect(within(connected).getByText('Connected')).toBeVisible();
    expect(connected).not.toHaveTextContent('unavailable');
  });

  it('saves the switches, the numbers and the file types, added with Enter or Add and removed by their button', async () => {
    const { stored, user } = await openSystem();
    await user.click(screen.getByRole('switch', { name: 'Registration open' }));
    await user.click(screen.getByRole('switch', { name: 'E-mail verification' }));
    const timeout = screen.getByRole('spinbutton', { name: 'Session timeout (minutes)' });
    await user.clear(timeout);
    await user.type(timeout, '60');
    const size = screen.getByRole('spinbutton', { name: 'Maximum file size (MB)' });
    await user.clear(size);
    await user.type(size, '25');
    await user.click(screen.getByRole('button', { name: 'Remove gif' }));
    const newType = screen.getByRole('textbox', { name: 'New file type' });
    await user.type(newType, '.SVG{Enter}');
    await user.type(newType, 'webp, txt');
    await user.click(screen.getByRole('button', { name: 'Add' }));
    expect(newType).toHaveValue('');
    expect(fileTypes()).toEqual(['jpg', 'jpeg', 'png', 'pdf', 'doc', 'docx', 'svg', 'webp', 'txt']);

    await user.click(screen.getByRole('button', { name: 'Save system settings' }));
    await saved();
    expect(stored.system).toEqual({
      maintenanceMode: false,
      registrationEnabled: false,
      emailVerification: false,
      sessionTimeout: 60,
      maxFileSize: 25,
      allowedFileTypes: ['jpg', 'jpeg', 'png', 'pdf', 'doc', 'docx', 'svg', 'webp', 'txt'],
    });
  });

  it('refuses a file type that is no extension or is listed already, keeping what was typed', async () => {
    const { user } = await openSystem();
    const newType = screen.getByRole('textbox', { name: 'New file type' });
    await user.type(newType, 'p/d/f{Enter}');
    expect(newType).toHaveAccessibleDescription(
      expect.stringContaining(
        'File types are extensions in lower-case letters and digits, without the dot (up to 10)',
      ),
    );
    expect(newType).toHaveValue('p/d/f');
    await user.clear(newType);
    await user.type(newType, 'JPG{Enter}');
    expect(newType).toHaveAccessibleDescription(
      expect.stringContaining('Each file type only once'),
    );
    expect(fileTypes()).toEqual(['jpg', 'jpeg', 'png', 'gif', 'pdf', 'doc', 'docx']);
  });

  it('refuses numbers out of range and an empty list of file types on their fields, sending nothing', async () => {
    const { server, user } = await openSystem();
    const timeout = screen.getByRole('spinbutton', { name: 'Session timeout (minutes)' });
    await user.clear(timeout);
    await user.type(timeout, '4');
    const size = screen.getByRole('spinbutton', { name: 'Maximum file size (MB)' });
    await user.clear(size);
    for (const type of ['jpg', 'jpeg', 'png', 'gif', 'pdf', 'doc', 'docx']) {
      await user.click(screen.getByRole('button', { name: `Remove ${type}` }));
    }
    await user.click(screen.getByRole('button', { name: 'Save system settings' }));

    await waitFor(() =>
      expect(timeout).toHaveAccessibleDescription(
        expect.stringContaining('The session timeout is a whole number of minutes from 5 to 1440'),
      ),
    );
    expect(timeout).toHaveAttribute('aria-invalid', 'true');
    expect(size).toHaveAccessibleDescription(
      expect.stringContaining('The maximum file size is a whole number of megabytes from 1 to 100'),
    );
    expect(screen.getByRole('textbox', { name: 'New file type' })).toHaveAccessibleDescription(
      expect.stringContaining('Allow at least one file type'),
    );
    expect(server.calls().sort()).toEqual([
      'GET /api/admin/settings',
      'GET /api/admin/whatsapp/platform',
    ]);
  });

  it('asks before turning maintenance on: Cancel sends nothing, confirming saves', async () => {
    emulateDialogCloseRequests();
    const { server, stored, user } = await openSystem();
    const maintenance = screen.getByRole('switch', { name: 'Maintenance mode' });
    await user.click(maintenance);
    await user.click(screen.getByRole('button', { name: 'Save system settings' }));
    let dialog = await screen.findByRole('dialog', { name: 'Turn maintenance mode on?' });
    expect(dialog).toHaveTextContent(
      'Everyone but admins is shut out at once: their open pages show the maintenance page, and they cannot sign in until you turn it off.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(server.calls().sort()).toEqual([
      'GET /api/admin/settings',
      'GET /api/admin/whatsapp/platform',
    ]);

    await user.click(screen.getByRole('button', { name: 'Save system settings' }));
    dialog = await screen.findByRole('dialog', { name: 'Turn maintenance mode on?' });
    await user.click(within(dialog).getByRole('button', { name: 'Turn on and save' }));
    await saved();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(stored.system).toEqual({ ...defaultSettings().system, maintenanceMode: true });

    // Already on: other changes are saved without asking again, and so is turning it off.
    await user.click(maintenance);
    await user.click(screen.getByRole('button', { name: 'Save system settings' }));
    await waitFor(() => expect(stored.system.maintenanceMode).toBe(false));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it("puts the server's field error on its field, and says 'Failed to save system settings' with the reason otherwise", async () => {
    const { server, user } = await openSystem();
    const refusal = 'The session timeout is a whole number of minutes from 5 to 1440';
    server.on('POST /api/admin/settings/system', () =>
      errorResponse(400, { message: 'Validation error', errors: { sessionTimeout: refusal } }),
    );
    await user.click(screen.getByRole('button', { name: 'Save system settings' }));
    const timeout = screen.getByRole('spinbutton', { name: 'Session timeout (minutes)' });
    await waitFor(() =>
      expect(timeout).toHaveAccessibleDescription(expect.stringContaining(refusal)),
    );
    expect(screen.getByText('Failed to save system settings')).toBeVisible();

    server.on('POST /api/admin/settings/system', () =>
      errorResponse(503, {
        message: 'The system is under maintenance. Please try again in a few minutes.',
      }),
    );
    await user.click(screen.getByRole('button', { name: 'Save system settings' }));
    await waitFor(() =>
      expect(screen.getByText(/^Failed to save system settings: /)).toHaveTextContent(
        'Failed to save system settings: The system is under maintenance. Please try again in a few minutes.',
      ),
    );
  });
});
