import {
  defaultSettings,
  publicSettingsOf,
  type ContentSettings,
  type SystemSettings,
  type ThemeSettings,
} from '@contrateia/shared/settings/settings.schemas';
import type { User } from '@contrateia/shared';
import type { FakeServer } from '@/test/fake-server';
import { userFixture } from '@/test/fixtures';

/** The settings a stand-in server keeps, as the real one stores them (admin.settings.ts). */
export interface StoredSettings {
  content: ContentSettings;
  theme: ThemeSettings;
  system: SystemSettings;
}

/**
 * Answers the admin's settings calls as admin.routes.ts does, over settings it keeps (the
 * defaults, with `changes`): GET /api/admin/settings, the three POSTs, which store what they get
 * (validated as the server does, by the fake server's body schemas) and answer it, and the
 * public settings, which follow them.
 */
export function serveSettings(
  server: FakeServer,
  changes: Partial<StoredSettings> = {},
): StoredSettings {
  const stored: StoredSettings = { ...defaultSettings(), ...changes };
  server.on('GET /api/admin/settings', () => ({
    contentSettings: stored.content,
    themeSettings: stored.theme,
    systemSettings: stored.system,
  }));
  server.on('POST /api/admin/settings/content', ({ body }) => (stored.content = body));
  server.on('POST /api/admin/settings/theme', ({ body }) => {
    // The schema lower-cases the colours on the way in.
    stored.theme = Object.fromEntries(
      Object.entries(body).map(([name, value]) => [name, value.toLowerCase()]),
    ) as ThemeSettings;
    return stored.theme;
  });
  server.on('POST /api/admin/settings/system', ({ body }) => (stored.system = body));
  server.on('GET /api/settings/public', () => publicSettingsOf(stored));
  // The System tab shows the platform's WhatsApp number above its settings: not connected here.
  server.on('GET /api/admin/whatsapp/platform', () => ({
    success: true,
    data: { account: ADMIN.email, phone: null, connected: false },
  }));
  return stored;
}

export const ADMIN = userFixture({
  id: '9b2f0c1e-2d3a-4b5c-8d9e-0f1a2b3c4d5e',
  name: 'Beatriz Lima',
  email: 'bia@exemplo.com',
  username: 'bia',
  role: 'admin',
  originalRole: 'admin',
});

/** Signed in as `user`, as login leaves the browser (lib/session.ts), and the server agrees. */
export function signIn(server: FakeServer, user: User): void {
  window.localStorage.setItem('token', `token-de-${user.username}`);
  window.localStorage.setItem('user', JSON.stringify(user));
  server.on('GET /api/user', () => ({ user }));
}
