import fp from 'fastify-plugin';
import { SESSION_MAX_AGE_DAYS } from '@contrateia/shared';
import { createUrlSigner } from '@/lib/url-signer';
import { authPlugin } from '@/plugins/auth';
import { ARCHIVE_LINK_LIFETIME } from './auth.account-data';
import { createAuthenticator, type Authenticator } from './auth.authenticator';
import { authRoutes, DEFAULT_AUTH_ROUTE_LIMITS, type AuthRouteLimits } from './auth.routes';
import { scheduleSessionsCleanup } from './auth.cleanup-job';
import { createAuthService, type AuthService } from './auth.service';
import { createSessionStore } from './auth.sessions';
import {
  createCodeLimiter,
  createLoginThrottle,
  DEFAULT_CODE_LIMITS,
  DEFAULT_LOGIN_LIMITS,
  type CodeLimits,
  type LoginLimits,
} from './auth.throttle';

declare module 'fastify' {
  interface FastifyInstance {
    /** Accounts: registration, sign-in, sessions, the account's page, the admin's management. */
    auth: AuthService;
    /** Token → session → user: the one way any entry point (HTTP, sockets) learns who calls. */
    authenticator: Authenticator;
  }
}

export type AuthModuleOptions = {
  /** A fixed idle lifetime for sessions (tests); without it, the admin's session timeout. */
  sessionTimeoutMs?: number;
  /** How long after its sign-in a session ends, however much it is used. */
  sessionMaxAgeMs?: number;
  login?: Partial<LoginLimits>;
  codes?: Partial<CodeLimits>;
  routes?: Partial<AuthRouteLimits>;
};

/**
 * Accounts and sessions, and the session guard every other route goes through (plugins/auth.ts:
 * `app.authenticate`, `app.requireAdmin`, the maintenance gate), registered here between the
 * service it needs and the first routes it guards. A new account is announced (`user.created`)
 * and its registration answers once the other features have made it theirs.
 */
export const authModule = fp<AuthModuleOptions>(
  async (app, options) => {
    const { db, clock, mailer, state, logger, translate, events, secret, publicUrl } = app.platform;
    const { settings } = app;
    const sessions = createSessionStore({
      db,
      secret,
      clock,
      // A test's fixed timeout, else the admin's setting.
      timeoutMs:
        options.sessionTimeoutMs === undefined
          ? settings.sessionTimeoutMs
          : () => options.sessionTimeoutMs!,
      maxAgeMs: options.sessionMaxAgeMs ?? SESSION_MAX_AGE_DAYS * 24 * 60 * 60_000,
      state,
      logger,
    });
    const authenticator = createAuthenticator({ db, sessions, state, logger });
    const auth = createAuthService({
      db,
      clock,
      mailer,
      sessions,
      throttle: createLoginThrottle({
        limits: { ...DEFAULT_LOGIN_LIMITS, ...options.login },
        state,
      }),
      codes: createCodeLimiter({ limits: { ...DEFAULT_CODE_LIMITS, ...options.codes }, state }),
      codeKey: `email-code:${secret}`,
      publicUrl,
      authenticator,
      translate,
      onUserCreated: (userId) => events.emit('user.created', { userId }),
      onUserDeleted: (userId) => events.emit('user.deleted', { userId }),
      systemSettings: settings.system,
      eventLog: app.logs.events,
      // Hires, conversations and WhatsApp are their features' to read: privacy collects them.
      collectUserData: app.privacy.collect,
      archiveUserData: app.privacy.archive,
      archiveLinks: createUrlSigner(secret, 'account archive links v1', ARCHIVE_LINK_LIFETIME),
      logger,
    });
    scheduleSessionsCleanup({ jobs: app.platform.jobs, auth, logger });
    app.decorate('auth', auth);
    app.decorate('authenticator', authenticator);
    await app.register(authPlugin, { authenticator, maintenance: settings.maintenanceMode });
    await app.register(authRoutes, {
      prefix: '/api',
      auth,
      limits: { ...DEFAULT_AUTH_ROUTE_LIMITS, ...options.routes },
    });
  },
  {
    name: 'auth',
    dependencies: ['platform', 'logs', 'settings', 'privacy', '@fastify/rate-limit'],
  },
);
