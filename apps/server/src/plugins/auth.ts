import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { LRUCache } from 'lru-cache';
import type { User } from '@contrateia/shared';
import { AppError } from '@/lib/errors';
import type { AuthService } from '@/features/auth/auth.service';
import type { SessionStore } from '@/features/auth/auth.sessions';

export type AuthContext = { user: User; sessionId: string };

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
    /** Drops the cached copy of a user after it changed. */
    forgetUser: (userId: string) => void;
  }
}

/**
 * Authentication for routes that declare it. Users are cached briefly beside their sessions so
 * an authenticated request usually touches no database (see auth.sessions.ts).
 */
export const authPlugin = fp<{ sessions: SessionStore; getUser: AuthService['getUser'] }>(
  async (app, { sessions, getUser }) => {
    const users = new LRUCache<string, User>({ max: 50_000, ttl: 15_000 });

    app.decorateRequest('auth', null);
    app.decorate('forgetUser', (userId: string) => void users.delete(userId));

    app.decorate('authenticate', async (request: FastifyRequest) => {
      const header = request.headers.authorization;
      const token = header?.startsWith('Bearer ') ? header.slice(7).trim() : undefined;
      if (!token) throw new AppError(401, 'errors.unauthorized');
      const session = await sessions.authenticate(token);
      if (!session) throw new AppError(401, 'errors.unauthorized');
      let user = users.get(session.userId);
      if (!user) {
        user = await getUser({ id: session.userId });
        if (!user) throw new AppError(401, 'errors.unauthorized');
        users.set(user.id, user);
      }
      request.auth = { user, sessionId: session.sessionId };
    });

    app.decorate('requireAdmin', async (request: FastifyRequest, reply: FastifyReply) => {
      if (!request.auth) await app.authenticate(request, reply);
      if (request.auth?.user.role !== 'admin') throw new AppError(403, 'errors.forbidden');
    });
  },
  { name: 'auth', dependencies: ['i18n'] },
);

/** The authenticated context of a route guarded by `app.authenticate`. */
export function authOf(request: FastifyRequest): AuthContext {
  if (!request.auth) throw new AppError(401, 'errors.unauthorized');
  return request.auth;
}
