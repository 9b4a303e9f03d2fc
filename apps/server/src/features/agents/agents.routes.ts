import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  agentsResponseSchema,
  errorResponseSchema,
  hireAgentResponseSchema,
  hireAgentSchema,
} from '@contrateia/shared';
import { authOf } from '@/plugins/auth';
import type { AgentsService } from './agents.service';

const errors = {
  400: errorResponseSchema,
  401: errorResponseSchema,
  403: errorResponseSchema,
  404: errorResponseSchema,
};

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
};
