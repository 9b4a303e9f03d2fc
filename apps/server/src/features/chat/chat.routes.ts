import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  conversationResponseSchema,
  conversationsQuerySchema,
  conversationsResponseSchema,
  errorResponseSchema,
  pairingQrResponseSchema,
  pairingQrSchema,
  sendMessageResponseSchema,
  sendMessageSchema,
  shortChatResponseSchema,
  shortChatSchema,
  userStatsResponseSchema,
  type ChatMessage,
  type ChatStreamEvent,
  type SendMessageResponse,
} from '@contrateia/shared';
import { AppError, translateError } from '@/lib/errors';
import { authOf } from '@/plugins/auth';
import { drain, type ChatService, type ReplyStream } from './chat.service';

const errors = {
  400: errorResponseSchema,
  401: errorResponseSchema,
  403: errorResponseSchema,
  404: errorResponseSchema,
  409: errorResponseSchema,
  429: errorResponseSchema,
  502: errorResponseSchema,
};

export const chatRoutes: FastifyPluginAsyncZod<{ chat: ChatService }> = async (app, { chat }) => {
  app.addHook('preHandler', app.authenticate);

  app.post(
    '/chat/message',
    { schema: { body: sendMessageSchema, response: { 200: sendMessageResponseSchema, ...errors } } },
    async (request, reply) => {
      const { user } = authOf(request);
      const stream = await chat.startReply({
        user,
        agentName: request.body.agentName,
        conversationId: request.body.conversationId,
        message: request.body.message,
        language: request.language,
        timeZone: request.timeZone,
      });
      if (wantsEventStream(request)) return streamReply(request, reply, stream);
      return sent(await drain(stream));
    },
  );

  app.post(
    '/chat',
    { schema: { body: shortChatSchema, response: { 200: shortChatResponseSchema, ...errors } } },
    async (request) =>
      chat.shortReply({
        user: authOf(request).user,
        agentName: request.body.agentName,
        message: request.body.message,
        language: request.language,
        timeZone: request.timeZone,
      }),
  );

  app.get(
    '/chat/conversations',
    { schema: { querystring: conversationsQuerySchema, response: { 200: conversationsResponseSchema, ...errors } } },
    async (request) => ({
      conversations: await chat.listConversations({ user: authOf(request).user, agentName: request.query.agentName }),
    }),
  );

  app.get(
    '/chat/conversations/:id',
    { schema: { params: z.object({ id: z.string() }), response: { 200: conversationResponseSchema, ...errors } } },
    async (request) => {
      // A malformed id names no conversation of the caller's: the same 404 as another user's.
      if (!z.uuid().safeParse(request.params.id).success) throw new AppError(404, 'chat.conversationNotFound');
      return { conversation: await chat.getConversation({ user: authOf(request).user, id: request.params.id }) };
    },
  );

  app.post(
    '/auxtrat/qr-code',
    { schema: { body: pairingQrSchema, response: { 200: pairingQrResponseSchema, ...errors } } },
    async (request) => {
      const { qrCode, expiresAt } = await chat.createPairing({
        user: authOf(request).user,
        agentName: request.body.agentName,
        conversationId: request.body.sessionId,
        origin: `${request.protocol}://${request.host}`,
      });
      return { qrCode, expiresAt };
    },
  );

  app.get('/stats', { schema: { response: { 200: userStatsResponseSchema, 401: errorResponseSchema } } }, async (request) =>
    chat.stats({ user: authOf(request).user }),
  );
};

/** The stored reply as POST /chat/message answers it: the whole body, or the stream's `done` event. */
function sent({ message, conversationId }: { message: ChatMessage; conversationId: string }): SendMessageResponse {
  return { success: true, message, conversation: { id: conversationId } };
}

function wantsEventStream(request: FastifyRequest): boolean {
  return (request.headers.accept ?? '').includes('text/event-stream');
}

/**
 * Sends the reply as server-sent events: `delta` as text arrives, then `done` (or `error`). If the
 * client goes away the reply is still finished and stored; only the writing stops.
 */
async function streamReply(request: FastifyRequest, reply: FastifyReply, stream: ReplyStream) {
  reply.hijack();
  const raw = reply.raw;
  raw.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
    'x-content-type-options': 'nosniff',
  });
  let open = true;
  raw.on('close', () => (open = false));
  const send = (event: ChatStreamEvent) => {
    if (open) raw.write(`event: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`);
  };
  try {
    for (;;) {
      const step = await stream.next();
      if (step.done) {
        send({ event: 'done', data: sent(step.value) });
        break;
      }
      send({ event: 'delta', data: { text: step.value } });
    }
  } catch (error) {
    const known = error instanceof AppError;
    if (!known || error.statusCode >= 500) request.log.error({ err: known ? (error.cause ?? error) : error }, 'streamed reply failed');
    send({ event: 'error', data: { success: false, message: known ? translateError(error, request.t) : request.t('errors.server') } });
  } finally {
    if (open) raw.end();
  }
}
