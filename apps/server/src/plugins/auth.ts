import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '@/lib/errors';
import type { AuthContext, Authenticator } from '@/features/auth/auth.service';

export type { AuthContext };

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by `app.authenticate` for routes that require a signed-in user. */
    auth: AuthContext | null;
  }
  interface FastifyInstance {
    /** preHandler: 401 unless the bearer token names a live session. */
    authenticate: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /** preHandler: 403 unless the user is in admin mode (an admin in user mode is a user). */
    requireAdmin: (request: FastifyRequest, reply: FastifyReply) => Promise<void>;
    /** Drops every instance's cached copy of a user changed outside the auth service (scripts, tests). */
    forgetUser: (userId: string) => Promise<void>;
  }
}

/** The HTTP face of the auth feature's authenticator: bearer header in, `request.auth` or 401 out. */
export const authPlugin = fp<{ authenticator: Authenticator }>(
  async (app, { authenticator }) => {
    app.decorateRequest('auth', null);
    app.decorate('forgetUser', authenticator.forgetUser);

    app.decorate('authenticate', async (request: FastifyRequest) => {
      const context = await authenticator.authenticate(bearerToken(request.headers.authorization));
      if (!context) throw new AppError(401, 'errors.unauthorized');
      request.auth = context;
    });

    app.decorate('requireAdmin', async (request: FastifyRequest, reply: FastifyReply) => {
      if (!request.auth) await app.authenticate(request, reply);
      if (request.auth?.user.role !== 'admin') throw new AppError(403, 'errors.forbidden');
    });
  },
  { name: 'auth', dependencies: ['i18n'] },
);

/** The token of an `Authorization: Bearer …` header. */
function bearerToken(header: string | undefined): string | undefined {
  if (!header?.startsWith('Bearer ')) return undefined;
  return header.slice(7).trim() || undefined;
}

/** The authenticated context of a route guarded by `app.authenticate`. */
export function authOf(request: FastifyRequest): AuthContext {
  if (!request.auth) throw new AppError(401, 'errors.unauthorized');
  return request.auth;
}
