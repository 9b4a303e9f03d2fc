import fp from 'fastify-plugin';
import { createAdminAgentsService } from './admin.agents';
import { adminAgentsRoutes } from './admin.agents.routes';
import { createAuditService } from './admin.audit';
import { createAdminUsersService } from './admin.users';
import { adminUsersRoutes } from './admin.users.routes';

/**
 * The admin panel's own API over the other features' services: agent management and its test
 * chat, accounts, and the audit list. Registered last of the features: it reads them all.
 */
export const adminModule = fp(
  async (app) => {
    const { db, clock, events } = app.platform;
    const { auth, agents, chat, images } = app;
    await app.register(adminAgentsRoutes, {
      prefix: '/api',
      adminAgents: createAdminAgentsService({ agents, auth, chat, events, clock }),
    });
    await app.register(adminUsersRoutes, {
      prefix: '/api',
      users: createAdminUsersService({ auth, agents }),
      audit: createAuditService({ db, auth, agents, images }),
    });
  },
  { name: 'admin', dependencies: ['platform', 'logs', 'auth', 'agents', 'chat', 'images'] },
);
