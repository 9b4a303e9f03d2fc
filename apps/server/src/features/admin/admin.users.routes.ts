import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  activeStatusSchema,
  adminAuditQuerySchema,
  adminAuditResponseSchema,
  adminUserResponseSchema,
  adminUserRoleSchema,
  adminUsersQuerySchema,
  adminUsersResponseSchema,
  createSingleAgentUserSchema,
  errorResponseSchema,
} from '@contrateia/shared';
import { actorOf } from '@/plugins/auth';
import type { AuditService } from './admin.audit';
import type { AdminUsersService } from './admin.users';

const errors = {
  400: errorResponseSchema,
  401: errorResponseSchema,
  403: errorResponseSchema,
  404: errorResponseSchema,
  409: errorResponseSchema,
};

/** Any text: the service answers 404 for what is not an account's id. */
const userParams = z.object({ id: z.string() });

/**
 * `/api/admin/users*` and `/api/admin/audit`: admins in admin mode only (401 without a session,
 * 403 to anyone else), checked on the request, before the body or query is read.
 */
export const adminUsersRoutes: FastifyPluginAsyncZod<{
  users: AdminUsersService;
  audit: AuditService;
}> = async (app, { users, audit }) => {
  app.addHook('onRequest', app.requireAdmin);

  app.get(
    '/admin/users',
    {
      schema: {
        querystring: adminUsersQuerySchema,
        response: { 200: adminUsersResponseSchema, ...errors },
      },
    },
    async (request) => users.list({ ...request.query, language: request.language }),
  );

  app.post(
    '/admin/users/single-agent',
    {
      schema: {
        body: createSingleAgentUserSchema,
        response: { 200: adminUserResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { user } = await users.createSingleAgent({
        ...request.body,
        actor: actorOf(request),
        language: request.language,
      });
      return {
        success: true as const,
        message: request.t('adminUsers.created', { name: user.name }),
        user,
      };
    },
  );

  app.post(
    '/admin/users/:id/status',
    {
      schema: {
        params: userParams,
        body: activeStatusSchema,
        response: { 200: adminUserResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { user } = await users.setStatus({
        userId: request.params.id,
        isActive: request.body.isActive,
        actor: actorOf(request),
        language: request.language,
      });
      const message = request.t(user.isActive ? 'adminUsers.activated' : 'adminUsers.deactivated', {
        name: user.name,
      });
      return { success: true as const, message, user };
    },
  );

  app.post(
    '/admin/users/:id/role',
    {
      schema: {
        params: userParams,
        body: adminUserRoleSchema,
        response: { 200: adminUserResponseSchema, ...errors },
      },
    },
    async (request) => {
      const { user } = await users.setRole({
        userId: request.params.id,
        role: request.body.role,
        actor: actorOf(request),
        language: request.language,
      });
      const message = request.t(
        user.originalRole === 'admin' ? 'adminUsers.madeAdmin' : 'adminUsers.madeUser',
        { name: user.name },
      );
      return { success: true as const, message, user };
    },
  );

  app.get(
    '/admin/audit',
    {
      schema: {
        querystring: adminAuditQuerySchema,
        response: { 200: adminAuditResponseSchema, ...errors },
      },
    },
    async (request) => audit.list({ ...request.query, language: request.language }),
  );
};
