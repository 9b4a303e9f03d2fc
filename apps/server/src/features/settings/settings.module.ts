import fp from 'fastify-plugin';
import { adminSettingsRoutes, publicSettingsRoutes, themeStylesheetRoute } from './settings.routes';
import { createSettingsService, type SettingsService } from './settings.service';

declare module 'fastify' {
  interface FastifyInstance {
    /** The admin's settings in force: sessions, registration, maintenance, uploads, the theme. */
    settings: SettingsService;
  }
}

/**
 * The admin's settings. Below auth, which enforces them (session timeout, registration,
 * maintenance): read once the database is open, then from each instance's cache.
 */
export const settingsModule = fp(
  async (app) => {
    const { db, state, logger, clock } = app.platform;
    const settings = createSettingsService({ db, state, logger, clock });
    app.decorate('settings', settings);
    app.addHook('onReady', () => settings.preload());
  },
  { name: 'settings', dependencies: ['platform', 'logs'] },
);

/**
 * The settings' routes, registered apart from the service: the admin's need the session guard,
 * which itself reads the settings, so they come after auth. `/theme.css` and the public view
 * need no session.
 */
export const settingsRoutesModule = fp(
  async (app) => {
    const { settings } = app;
    await app.register(publicSettingsRoutes, { prefix: '/api', settings });
    await app.register(adminSettingsRoutes, { prefix: '/api', settings });
    await app.register(themeStylesheetRoute, { settings });
  },
  { name: 'settings-routes', dependencies: ['settings', 'auth-guard'] },
);
