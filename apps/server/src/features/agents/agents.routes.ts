import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  agentsResponseSchema,
  errorResponseSchema,
  hireAgentResponseSchema,
  hireAgentSchema,
  myAgentInputSchema,
  myAgentReplySchema,
  myAgentResponseSchema,
  myAgentsResponseSchema,
} from '@contrateia/shared';
import { authOf } from '@/plugins/auth';
import type { AgentsService } from './agents.service';

const errors = {
  400: errorResponseSchema,
  401: errorResponseSchema,
  403: errorResponseSchema,
  404: errorResponseSchema,
};
const params = z.object({ id: z.string() });

export const agentsRoutes: FastifyPluginAsyncZod<{ agents: AgentsService }> = async (
  app,
  { agents },
) => {
  app.addHook('onRequest', app.authenticate);

  app.get(
    '/agents/user',
    { schema: { response: { 200: agentsResponseSchema, 401: errorResponseSchema } } },
    async (request) => ({
      agents: await agents.listHired({ user: authOf(request).user, language: request.language }),
    }),
  );

  app.get(
    '/agents/available',
    { schema: { response: { 200: agentsResponseSchema, 401: errorResponseSchema } } },
    async (request) => ({
      agents: await agents.listAvailable({
        user: authOf(request).user,
        language: request.language,
      }),
    }),
  );

  app.post(
    '/agents/hire',
    { schema: { body: hireAgentSchema, response: { 200: hireAgentResponseSchema, ...errors } } },
    async (request) => {
      const { agent } = await agents.hire({
        user: authOf(request).user,
        agentId: request.body.agentId,
        language: request.language,
      });
      return {
        success: true as const,
        message: request.t('agents.hired', { name: agent.displayName }),
        agent,
      };
    },
  );

  // The account's own agents: each account sees and changes its own only (404 for another's).

  app.get(
    '/my-agents',
    { schema: { response: { 200: myAgentsResponseSchema, 401: errorResponseSchema } } },
    async (request) => ({ agents: await agents.listMine({ user: authOf(request).user }) }),
  );

  app.get(
    '/my-agents/:id',
    { schema: { params, response: { 200: myAgentResponseSchema, ...errors } } },
    async (request) => ({
      agent: await agents.getMine({ user: authOf(request).user, id: request.params.id }),
    }),
  );

  app.post(
    '/my-agents',
    {
      config: { failureMessage: 'agents.createFailed' },
      schema: { body: myAgentInputSchema, response: { 200: myAgentReplySchema, ...errors } },
    },
    async (request) => {
      const agent = await agents.createMine({
        user: authOf(request).user,
        content: request.body,
        language: request.language,
      });
      return {
        success: true as const,
        message: request.t('agents.created', { name: agent.displayName }),
        agent,
      };
    },
  );

  app.put(
    '/my-agents/:id',
    {
      config: { failureMessage: 'agents.saveFailed' },
      schema: {
        params,
        body: myAgentInputSchema,
        response: { 200: myAgentReplySchema, ...errors },
      },
    },
    async (request) => {
      const agent = await agents.updateMine({
        user: authOf(request).user,
        id: request.params.id,
        content: request.body,
      });
      return {
        success: true as const,
        message: request.t('agents.updated', { name: agent.displayName }),
        agent,
      };
    },
  );

  app.delete(
    '/my-agents/:id',
    { schema: { params, response: { 200: myAgentReplySchema, ...errors } } },
    async (request) => {
      const agent = await agents.deleteMine({ user: authOf(request).user, id: request.params.id });
      return {
        success: true as const,
        message: request.t('agents.deleted', { name: agent.displayName }),
        agent,
      };
    },
  );
};
