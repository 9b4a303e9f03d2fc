import fp from 'fastify-plugin';
import { agentsRoutes } from './agents.routes';
import { createAgentsService, type AgentsService } from './agents.service';
import { createMyAgentDocumentsService } from './my-agent-documents';
import { createDocumentReader } from './my-agent-documents.reader';
import { myAgentDocumentsRoutes } from './my-agent-documents.routes';
import { refreshOwnAgents } from './my-agents';

declare module 'fastify' {
  interface FastifyInstance {
    /** The agent catalogue and who hired what. */
    agents: AgentsService;
  }
}

/**
 * The agent catalogue and the hires. Above auth: it asks accounts whether they may hire, and a new
 * account (`user.created`) gets its default agent before its registration answers. Seeded on
 * ready rather than now: the build needs no database, so at start it runs while the database
 * opens and migrates (see main.ts). An own agent's documents are read on a thread of their own,
 * started at the first one, within the admin's upload size limit (settings) and a time bound
 * (DOCUMENT_READ_TIMEOUT_MS unless given).
 */
export const agentsModule = fp<{ documentReadTimeoutMs?: number }>(
  async (app, { documentReadTimeoutMs }) => {
    const { db, state, logger, events, clock } = app.platform;
    const agents = createAgentsService({
      db,
      isSingleAgentUser: app.auth.isSingleAgentUser,
      state,
      logger,
      events,
      clock,
    });
    app.decorate('agents', agents);
    events.on('user.created', ({ userId }) => agents.hireDefault({ userId }));
    app.privacy.contribute('hires', async (user, language) =>
      (await agents.listHired({ user, language, includeInactive: true })).map((agent) => ({
        agentName: agent.name,
        displayName: agent.displayName,
      })),
    );
    const reader = createDocumentReader({ timeoutMs: documentReadTimeoutMs });
    const documents = createMyAgentDocumentsService({
      db,
      clock,
      reader,
      systemSettings: app.settings.system,
    });
    app.privacy.contribute('myAgents', (user) => documents.exportMine({ user }));
    app.addHook('onReady', async () => {
      await agents.seed();
      const refreshed = await refreshOwnAgents({ db, now: clock.now });
      if (refreshed > 0) logger.info({ refreshed }, 'own agents made again from their profiles');
    });
    app.addHook('onClose', () => reader.close());
    await app.register(agentsRoutes, { prefix: '/api', agents });
    await app.register(myAgentDocumentsRoutes, { prefix: '/api', documents });
  },
  { name: 'agents', dependencies: ['platform', 'settings', 'auth', 'privacy'] },
);
