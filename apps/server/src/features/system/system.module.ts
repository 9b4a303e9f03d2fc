import fp from 'fastify-plugin';
import { systemRoutes } from './system.routes';

/** `GET /api/health`: the database's ping and this build's version. */
export const systemModule = fp<{ version: string }>(
  async (app, { version }) => {
    await app.register(systemRoutes, { prefix: '/api', database: app.platform.database, version });
  },
  { name: 'system', dependencies: ['platform', 'auth-guard'] },
);
