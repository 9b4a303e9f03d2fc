import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  activeStatusSchema,
  adminAgentResponseSchema,
  adminAgentsResponseSchema,
  adminChatTestResponseSchema,
  adminChatTestSchema,
  createAgentSchema,
  errorResponseSchema,
  messageResponseSchema,
  updateAgentSchema,
  type Language,
} from '@contrateia/shared';
import { actorOf, authOf } from '@/plugins/auth';
import type { AdminAgentsService } from './admin.agents';

const errors = {
  400: errorResponseSchema,
  401: errorResponseSchema,
  403: errorResponseSchema,
  404: errorResponseSchema,
};
const chatErrors = {
  ...errors,
  409: errorResponseSchema,
  429: errorResponseSchema,
  502: errorResponseSchema,
};
const params = z.object({ id: z.string() });

/** An agent's display name in the caller's language, for the messages that name it. */
const nameIn = (language: Language, agent: { displayName: Record<Language, string> }) =>
  agent.displayName[language];

/**
 * `/api/admin/agents*` and `/api/admin/chat/test`: the admin's agent management. Admins in admin mode only: 401 without a session, 403 to anyone else, checked before
 * the body is even read, so nobody else learns what the routes accept.
 */
export const adminAgentsRoutes: FastifyPluginAsyncZod<{ adminAgents: AdminAgentsService }> = async (
  app,
  { adminAgents },
) => {
  app.addHook('onRequest', app.requireAdmin);

  app.get(
    '/admin/agents',
    { schema: { response: { 200: adminAgentsResponseSchema, ...errors } } },
    async () => ({
      agents: await adminAgents.list(),
    }),
  );

  app.post(
    '/admin/agents',
    {
      config: { failureMessage: 'agents.createFailed' },
      schema: { body: createAgentSchema, response: { 200: adminAgentResponseSchema, ...errors } },
    },
    async (request) => {
      const agent = await adminAgents.create({
        input: request.body,
        actor: actorOf(request),
      });
      return {
        success: true as const,
        message: request.t('agents.created', { name: nameIn(request.language, agent) }),
        agent,
      };
    },
  );

  app.put(
    '/admin/agents/:id',
    {
      config: { failureMessage: 'agents.saveFailed' },
      schema: {
        params,
        body: updateAgentSchema,
        response: { 200: adminAgentResponseSchema, ...errors },
      },
    },
    async (request) => {
      const agent = await adminAgents.update({
        id: request.params.id,
        input: request.body,
        actor: actorOf(request),
      });
      return {
        success: true as const,
        message: request.t('agents.updated', { name: nameIn(request.language, agent) }),
        agent,
      };
    },
  );

  app.patch(
    '/admin/agents/:id/status',
    {
      config: { failureMessage: 'agents.statusFailed' },
      schema: {
        params,
        body: activeStatusSchema,
        response: { 200: adminAgentResponseSchema, ...errors },
      },
    },
    async (request) => {
      const agent = await adminAgents.setStatus({
        id: request.params.id,
        isActive: request.body.isActive,
        actor: actorOf(request),
      });
      const key = agent.isActive ? 'agents.activated' : 'agents.deactivated';
      return {
        success: true as const,
        message: request.t(key, { name: nameIn(request.language, agent) }),
        agent,
      };
    },
  );

  app.delete(
    '/admin/agents/:id',
    { schema: { params, response: { 200: messageResponseSchema, ...errors } } },
    async (request) => {
      const agent = await adminAgents.remove({
        id: request.params.id,
        actor: actorOf(request),
      });
      return {
        success: true,
        message: request.t('agents.deleted', { name: nameIn(request.language, agent) }),
      };
    },
  );

  app.post(
    '/admin/chat/test',
    {
      schema: {
        body: adminChatTestSchema,
        response: { 200: adminChatTestResponseSchema, ...chatErrors },
      },
    },
    async (request) => {
      const { message, conversationId } = await adminAgents.testChat({
        user: authOf(request).user,
        agentName: request.body.agentName,
        conversationId: request.body.conversationId,
        message: request.body.message,
        language: request.language,
        timeZone: request.timeZone,
      });
      return { message, conversation: { id: conversationId } };
    },
  );
};
