import fp from 'fastify-plugin';
import { createLiveFacts } from './chat.facts';
import { chatRoutes } from './chat.routes';
import { createChatService, type ChatService } from './chat.service';

declare module 'fastify' {
  interface FastifyInstance {
    /** Conversations with agents, and the admin's test chat. */
    chat: ChatService;
  }
}

/** Conversations with agents, answered by the ai feature's engine; a part of the LGPD export. */
export const chatModule = fp<{ limit?: { points: number; durationSeconds: number } }>(
  async (app, { limit }) => {
    const { database, db, clock, logger, state, mailer } = app.platform;
    const chat = createChatService({
      db,
      clock,
      engine: app.ai.engine,
      agents: app.agents,
      logger,
      state,
      limit,
      facts: createLiveFacts({ database, clock, mailer, accounts: app.auth }),
    });
    app.decorate('chat', chat);
    app.privacy.contribute('conversations', async (user) => {
      const conversations = [];
      for (const { id } of await chat.listConversations({ user }))
        conversations.push(await chat.getConversation({ user, id }));
      return conversations;
    });
    await app.register(chatRoutes, { prefix: '/api', chat });
  },
  {
    name: 'chat',
    dependencies: ['platform', 'auth', 'agents', 'ai', 'privacy', '@fastify/rate-limit'],
  },
);
