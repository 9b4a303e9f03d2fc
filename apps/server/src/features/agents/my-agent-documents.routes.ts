import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  errorResponseSchema,
  myAgentDocumentSchema,
  myAgentDocumentsResponseSchema,
} from '@contrateia/shared';
import { authOf } from '@/plugins/auth';
import { readRestOrClose } from '@/plugins/errors';
import { DOCUMENT_FORM_LIMITS, receiveDocument } from './my-agent-documents.multipart';
import type { MyAgentDocumentsService } from './my-agent-documents';

const errors = {
  400: errorResponseSchema,
  401: errorResponseSchema,
  403: errorResponseSchema,
  404: errorResponseSchema,
};
const params = z.object({ id: z.string() });

/**
 * `/api/my-agents/{id}/documents`: an own agent's documents, its owner's alone (404 for anyone
 * else, as the agent). Multipart bodies are parsed in this scope only.
 */
export const myAgentDocumentsRoutes: FastifyPluginAsyncZod<{
  documents: MyAgentDocumentsService;
}> = async (app, { documents }) => {
  // The file's size limit is the admin's, given per request (my-agent-documents.multipart.ts).
  await app.register(multipart, { limits: DOCUMENT_FORM_LIMITS });
  app.addHook('onRequest', app.authenticate);

  app.get(
    '/my-agents/:id/documents',
    { schema: { params, response: { 200: myAgentDocumentsResponseSchema, ...errors } } },
    async (request) => documents.list({ user: authOf(request).user, agentId: request.params.id }),
  );

  app.post(
    '/my-agents/:id/documents',
    {
      // A refusal decided before the whole body arrived (401, 404, past the account's documents,
      // too large): the rest is read and discarded within a bound, or the connection closed
      // gracefully past it, so that the client reads its answer (readRestOrClose, as images do).
      onError: async (request, reply) => {
        if (!request.raw.complete) await readRestOrClose(request, reply);
      },
      schema: {
        params,
        response: { 201: myAgentDocumentSchema, ...errors, 413: errorResponseSchema },
      },
    },
    async (request, reply) => {
      const document = await documents.add({
        user: authOf(request).user,
        agentId: request.params.id,
        receive: (limit) => receiveDocument(request, limit),
      });
      return reply.code(201).send(document);
    },
  );

  app.delete(
    '/my-agents/:id/documents/:documentId',
    {
      schema: {
        params: params.extend({ documentId: z.string() }),
        response: { 204: z.null(), ...errors },
      },
    },
    async (request, reply) => {
      await documents.remove({
        user: authOf(request).user,
        agentId: request.params.id,
        documentId: request.params.documentId,
      });
      return reply.code(204).send(null);
    },
  );
};
