import fp from 'fastify-plugin';
import type {
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
  onRequestHookHandler,
} from 'fastify';
import { isApiRoute } from '@/lib/api-path';
import { underMaintenance } from '@/lib/errors';
import { settle, type MaybePromise } from '@/lib/maybe-promise';
import { forbidden, unauthorized } from '@/features/auth/auth.errors';
import type { AuthContext, Authenticator } from '@/features/auth/auth.service';
import type { AuditActor } from '@/features/audit/audit.service';

export type { AuthContext };

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `app.authenticate` for routes that require a signed-in user. */
    auth: AuthContext | null;
  }
  interface FastifyInstance {
    /** onRequest hook: 401 unless the bearer token names a live session; runs before the body is read or validated. */
    authenticate: onRequestHookHandler;
    /**
     * The guard of every admin-only route, as an `onRequest` hook (the one stage for all of them,
     * so no caller but an admin meets a route's input rules): 401 without a session, 403 unless
     * the user is in admin mode (an admin in user mode is a user).
     */
    requireAdmin: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /** Drops every instance's cached copy of a user changed outside the auth service (scripts, tests). */
    forgetUser: (userId: string) => Promise<void>;
  }
}

/**
 * What stays open while the system is in maintenance: the health check, what the login page
 * reads first, and signing in and out (the sign-in itself refuses anyone but an admin). Routes as
 * declared: a request is judged by the route it reaches, however its URL was written.
 */
const OPEN_IN_MAINTENANCE = new Set([
  '/api/health',
  '/api/settings/public',
  '/api/login',
  '/api/logout',
]);

/**
 * The HTTP face of the auth feature's authenticator: bearer header in, `request.auth` or 401 out.
 * While `maintenance()` says so, every other API route answers anyone but an admin (in either
 * mode) 503 with Retry-After.
 *
 * The maintenance gate is decided on the route, when it is declared, not on the request's URL:
 * `/%61pi/user` and `GET http://x/api/user` reach `/api/user` as surely as `/api/user` does. Each
 * API route not open in maintenance is marked when declared (`config.maintenanceGate`), and an
 * app-wide onRequest hook, right after the security headers' (its 503 carries them) and before
 * every scope's and route's own hooks (a session or admin guard, a rate limit: maintenance is said
 * first, and counts nothing), reads the mark. A path no route
 * answers is a 404 whatever the mode: it serves nothing.
 */
export const authPlugin = fp<{
  authenticator: Authenticator;
  maintenance: () => MaybePromise<boolean>;
}>(
  async (app, { authenticator, maintenance }) => {
    app.decorateRequest('auth', null);
    app.decorate('forgetUser', authenticator.forgetUser);

    app.addHook('onRoute', (route) => {
      route.config = {
        ...route.config,
        maintenanceGate: isApiRoute(route.url) && !OPEN_IN_MAINTENANCE.has(route.url),
      };
    });
    // Callback-style, and synchronous when the setting and the session are cached (nearly always).
    app.addHook('onRequest', (request, _reply, done) => {
      if (request.routeOptions.config.maintenanceGate !== true) return done();
      settle(
        maintenance(),
        (on) => {
          if (!on) return done();
          settle(
            authenticator.authenticate(bearerToken(request.headers.authorization)),
            (context) => {
              if (context?.user.originalRole !== 'admin') return done(underMaintenance());
              request.auth = context;
              done();
            },
            (error) => done(error as Error),
          );
        },
        (error) => done(error as Error),
      );
    });

    // Callback-style, and synchronous when the session and user are cached (nearly always): an
    // async hook costs every request a promise and a turn.
    app.decorate(
      'authenticate',
      function (request: FastifyRequest, _reply: FastifyReply, done: HookHandlerDoneFunction) {
        settle(
          authenticator.authenticate(bearerToken(request.headers.authorization)),
          (context) => {
            if (!context) return done(unauthorized());
            request.auth = context;
            done();
          },
          (error) => done(error as Error),
        );
      },
    );

    app.decorate('requireAdmin', async (request: FastifyRequest) => {
      request.auth ??= await authenticator.authenticate(bearerToken(request.headers.authorization));
      if (!request.auth) throw unauthorized();
      if (request.auth.user.role !== 'admin') throw forbidden();
    });
  },
  { name: 'auth-guard', dependencies: ['i18n', 'security'] },
);

/** The token of an `Authorization: Bearer …` header; the scheme's case does not matter (RFC 9110 §11.1). */
function bearerToken(header: string | undefined): string | undefined {
  if (!header || !BEARER.test(header)) return undefined;
  return header.slice(7).trim() || undefined;
}

const BEARER = /^bearer /i;

/** The authenticated context of a route guarded by `app.authenticate`. */
export function authOf(request: FastifyRequest): AuthContext {
  if (!request.auth) throw unauthorized();
  return request.auth;
}

/** Who makes an admin change in this request, from where: what the audit records beside it. */
export function actorOf(request: FastifyRequest): AuditActor {
  return { actorId: authOf(request).user.id, ip: request.ip, requestId: request.id };
}
