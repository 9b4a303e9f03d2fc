import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  assignAgentSchema,
  blockSchema,
  pairingCodeRequestSchema,
  dataResponse,
  errorResponseSchema,
  pageResponse,
  pairingQrResponseSchema,
  pairingQrSchema,
  sendWhatsAppMessageSchema,
  toggleAiSchema,
  whatsappAgentSchema,
  whatsappConversationDetailSchema,
  whatsappConversationSchema,
  whatsappMessageSchema,
  whatsappPageQuerySchema,
  whatsappPlatformSchema,
  whatsappSettingsSchema,
  whatsappStatusSchema,
  whitelistSchema,
} from '@contrateia/shared';
import { authOf } from '@/plugins/auth';
import { conversationNotFound, messageNotFound } from './whatsapp.errors';
import type { WhatsAppService } from './whatsapp.service';

const errors = {
  400: errorResponseSchema,
  401: errorResponseSchema,
  403: errorResponseSchema,
  404: errorResponseSchema,
  409: errorResponseSchema,
  429: errorResponseSchema,
  503: errorResponseSchema,
};
const params = z.object({ id: z.string() });
const statusResponse = { 200: dataResponse(whatsappStatusSchema), ...errors };
const conversationResponse = { 200: dataResponse(whatsappConversationSchema), ...errors };

/** The account's WhatsApp: connection, conversations, settings. Every call is the caller's own. */
export const whatsappRoutes: FastifyPluginAsyncZod<{ whatsapp: WhatsAppService }> = async (
  app,
  { whatsapp },
) => {
  app.addHook('onRequest', app.authenticate);
  const userId = (request: FastifyRequest) => authOf(request).user.id;

  app.get('/whatsapp/status', { schema: { response: statusResponse } }, async (request) => ({
    success: true as const,
    data: await whatsapp.status({ userId: userId(request) }),
  }));

  // Sync Agent: an auxtrat conversation continued on WhatsApp, through the platform's number.
  app.post(
    '/auxtrat/qr-code',
    { schema: { body: pairingQrSchema, response: { 200: pairingQrResponseSchema, ...errors } } },
    async (request) =>
      whatsapp.createSyncPairing({
        user: authOf(request).user,
        agentName: request.body.agentName,
        conversationId: request.body.sessionId,
        language: request.language,
      }),
  );

  app.get(
    '/admin/whatsapp/platform',
    {
      onRequest: app.requireAdmin,
      schema: { response: { 200: dataResponse(whatsappPlatformSchema), ...errors } },
    },
    async () => ({ success: true as const, data: await whatsapp.platformNumber() }),
  );

  app.post('/whatsapp/connect', { schema: { response: statusResponse } }, async (request) => ({
    success: true as const,
    data: await whatsapp.connect({ userId: userId(request) }),
  }));

  // Linking by number: the status carries the code to type on that phone once WhatsApp gives it.
  app.post(
    '/whatsapp/pairing-code',
    { schema: { body: pairingCodeRequestSchema, response: statusResponse } },
    async (request) => ({
      success: true as const,
      data: await whatsapp.requestPairingCode({
        userId: userId(request),
        phone: request.body.phone,
      }),
    }),
  );

  app.post('/whatsapp/disconnect', { schema: { response: statusResponse } }, async (request) => ({
    success: true as const,
    data: await whatsapp.disconnect({ userId: userId(request) }),
  }));

  app.post(
    '/whatsapp/settings',
    { schema: { body: whatsappSettingsSchema, response: statusResponse } },
    async (request) => ({
      success: true as const,
      data: await whatsapp.updateSettings({ user: authOf(request).user, ...request.body }),
    }),
  );

  app.get(
    '/whatsapp/agents/available',
    { schema: { response: { 200: dataResponse(z.array(whatsappAgentSchema)), ...errors } } },
    async (request) => ({
      success: true as const,
      data: await whatsapp.availableAgents({
        user: authOf(request).user,
        language: request.language,
      }),
    }),
  );

  // Paged: `?cursor=…&limit=…` (1–200, 50 unless asked; more is a 400, not a quiet
  // cut), and the answer's `nextCursor` asks for the next page. A cursor no page gave is a 400.
  app.get(
    '/whatsapp/conversations',
    {
      config: { failureMessage: 'errors.validation' },
      schema: {
        querystring: whatsappPageQuerySchema,
        response: { 200: pageResponse(z.array(whatsappConversationSchema)), ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      ...(await whatsapp.listConversations({
        user: authOf(request).user,
        language: request.language,
        ...request.query,
      })),
    }),
  );

  // A page of messages is the newest `limit` older than the cursor, oldest first (as shown).
  app.get(
    '/whatsapp/conversations/:id',
    {
      config: { failureMessage: 'errors.validation' },
      schema: {
        params,
        querystring: whatsappPageQuerySchema,
        response: { 200: pageResponse(whatsappConversationDetailSchema), ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      ...(await whatsapp.getConversation({
        user: authOf(request).user,
        id: conversationIdOf(request.params),
        language: request.language,
        ...request.query,
      })),
    }),
  );

  app.delete(
    '/whatsapp/conversations/:id',
    { schema: { params, response: { 200: z.object({ success: z.literal(true) }), ...errors } } },
    async (request) => {
      await whatsapp.deleteConversation({
        user: authOf(request).user,
        id: conversationIdOf(request.params),
      });
      return { success: true as const };
    },
  );

  app.post(
    '/whatsapp/conversations/:id/ai',
    { schema: { params, body: toggleAiSchema, response: conversationResponse } },
    async (request) => ({
      success: true as const,
      data: await whatsapp.setAi({
        user: authOf(request).user,
        id: conversationIdOf(request.params),
        enabled: request.body.enabled,
        language: request.language,
      }),
    }),
  );

  app.post(
    '/whatsapp/conversations/:id/whitelist',
    { schema: { params, body: whitelistSchema, response: conversationResponse } },
    async (request) => ({
      success: true as const,
      data: await whatsapp.setWhitelisted({
        user: authOf(request).user,
        id: conversationIdOf(request.params),
        isWhitelisted: request.body.isWhitelisted,
        language: request.language,
      }),
    }),
  );

  app.post(
    '/whatsapp/conversations/:id/block',
    { schema: { params, body: blockSchema, response: conversationResponse } },
    async (request) => ({
      success: true as const,
      data: await whatsapp.setBlocked({
        user: authOf(request).user,
        id: conversationIdOf(request.params),
        blocked: request.body.blocked,
        language: request.language,
      }),
    }),
  );

  // The owner's Resume after taking a conversation over: the agent answers the next message.
  app.post(
    '/whatsapp/conversations/:id/resume',
    { schema: { params, response: conversationResponse } },
    async (request) => ({
      success: true as const,
      data: await whatsapp.resumeConversation({
        user: authOf(request).user,
        id: conversationIdOf(request.params),
        language: request.language,
      }),
    }),
  );

  app.post(
    '/whatsapp/conversations/:id/assign-agent',
    { schema: { params, body: assignAgentSchema, response: conversationResponse } },
    async (request) => ({
      success: true as const,
      data: await whatsapp.assignAgent({
        user: authOf(request).user,
        id: conversationIdOf(request.params),
        agentId: request.body.agentId,
        language: request.language,
      }),
    }),
  );

  app.post(
    '/whatsapp/conversations/:id/messages',
    {
      schema: {
        params,
        body: sendWhatsAppMessageSchema,
        response: { 200: dataResponse(whatsappMessageSchema), ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      data: await whatsapp.sendMessage({
        user: authOf(request).user,
        id: conversationIdOf(request.params),
        text: request.body.text,
        language: request.language,
      }),
    }),
  );

  app.post(
    '/whatsapp/conversations/:id/messages/:messageId/retry',
    {
      schema: {
        params: z.object({ id: z.string(), messageId: z.string() }),
        response: { 200: dataResponse(whatsappMessageSchema), ...errors },
      },
    },
    async (request) => {
      const id = conversationIdOf(request.params);
      // A malformed id names no message of the caller's: the same 404 as another's.
      if (!z.uuid().safeParse(request.params.messageId).success) throw messageNotFound();
      return {
        success: true as const,
        data: await whatsapp.retryMessage({
          user: authOf(request).user,
          id,
          messageId: request.params.messageId,
          language: request.language,
        }),
      };
    },
  );
};

/** A malformed id names no conversation of the caller's: the same 404 as another account's. */
function conversationIdOf({ id }: { id: string }): string {
  if (!z.uuid().safeParse(id).success) throw conversationNotFound();
  return id;
}
