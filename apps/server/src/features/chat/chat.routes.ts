import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  conversationResponseSchema,
  conversationsQuerySchema,
  conversationsResponseSchema,
  deleteConversationResponseSchema,
  errorResponseSchema,
  renameConversationResponseSchema,
  renameConversationSchema,
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
import { conversationNotFound } from './chat.errors';
import { drain, type ChatService, type Drained, type ReplyStream } from './chat.service';

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
  app.addHook('onRequest', app.authenticate);

  app.post(
    '/chat/message',
    {
      schema: { body: sendMessageSchema, response: { 200: sendMessageResponseSchema, ...errors } },
    },
    async (request, reply) =>
      replyOrStream(
        request,
        reply,
        (signal) =>
          chat.startReply({
            user: authOf(request).user,
            agentName: request.body.agentName,
            conversationId: request.body.conversationId,
            message: request.body.message,
            language: request.language,
            signal,
            timeZone: request.timeZone,
          }),
        sent,
      ),
  );

  app.post(
    '/chat',
    { schema: { body: shortChatSchema, response: { 200: shortChatResponseSchema, ...errors } } },
    async (request, reply) =>
      replyOrStream(
        request,
        reply,
        (signal) =>
          chat.startShortReply({
            user: authOf(request).user,
            agentName: request.body.agentName,
            message: request.body.message,
            language: request.language,
            signal,
            timeZone: request.timeZone,
          }),
        ({ message }) => ({ response: message.text }),
      ),
  );

  app.get(
    '/chat/conversations',
    {
      schema: {
        querystring: conversationsQuerySchema,
        response: { 200: conversationsResponseSchema, ...errors },
      },
    },
    async (request) => ({
      conversations: await chat.listConversations({
        user: authOf(request).user,
        agentName: request.query.agentName,
        search: request.query.q,
      }),
    }),
  );

  app.get(
    '/chat/conversations/:id',
    {
      schema: {
        params: z.object({ id: z.string() }),
        response: { 200: conversationResponseSchema, ...errors },
      },
    },
    async (request) => ({
      conversation: await chat.getConversation({
        user: authOf(request).user,
        id: conversationIdOf(request.params),
      }),
    }),
  );

  app.patch(
    '/chat/conversations/:id',
    {
      schema: {
        params: z.object({ id: z.string() }),
        body: renameConversationSchema,
        response: { 200: renameConversationResponseSchema, ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      conversation: await chat.renameConversation({
        user: authOf(request).user,
        id: conversationIdOf(request.params),
        title: request.body.title,
      }),
    }),
  );

  app.delete(
    '/chat/conversations/:id',
    {
      schema: {
        params: z.object({ id: z.string() }),
        response: { 200: deleteConversationResponseSchema, ...errors },
      },
    },
    async (request) => {
      await chat.deleteConversation({
        user: authOf(request).user,
        id: conversationIdOf(request.params),
      });
      return { success: true as const };
    },
  );

  app.get(
    '/stats',
    { schema: { response: { 200: userStatsResponseSchema, 401: errorResponseSchema } } },
    async (request) => chat.stats({ user: authOf(request).user }),
  );
};

/** A malformed id names no conversation of the caller's: the same 404 as another user's. */
function conversationIdOf({ id }: { id: string }): string {
  if (!z.uuid().safeParse(id).success) throw conversationNotFound();
  return id;
}

/** The stored reply as POST /chat/message answers it: the whole body, or the stream's `done` event. */
function sent({
  message,
  conversationId,
}: {
  message: ChatMessage;
  conversationId: string;
}): SendMessageResponse {
  return { success: true, message, conversation: { id: conversationId } };
}

function wantsEventStream(request: FastifyRequest): boolean {
  return (request.headers.accept ?? '').includes('text/event-stream');
}

/**
 * Streams the reply as server-sent events when the client asks for them (its going away then
 * stops the reply: Stop), else answers with `whole` once the reply is complete and stored.
 */
async function replyOrStream<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  start: (signal: AbortSignal | undefined) => Promise<ReplyStream>,
  whole: (stored: Drained) => T,
): Promise<T | void> {
  const streaming = wantsEventStream(request);
  const stop = new AbortController();
  const stream = await start(streaming ? stop.signal : undefined);
  if (streaming) return streamReply(request, reply, stream, stop);
  return whole(await drain(stream));
}

/**
 * Sends the reply as server-sent events: `start` with the conversation, `delta` as text arrives,
 * then `done` (or `error`). A client that goes away before the end has stopped the reply (the
 * Stop button aborts the request): `stop` ends the engine, and this loop still runs the stream to
 * its end, which stores what arrived, marked stopped, before the handler is done. The user's next
 * request waits for that store (stoppedRepliesStored in chat.stop.ts), on whichever instance.
 */
async function streamReply(
  request: FastifyRequest,
  reply: FastifyReply,
  stream: ReplyStream,
  stop: AbortController,
) {
  reply.hijack();
  const raw = reply.raw;
  // Fastify sends no header of the reply once hijacked: the security plugin's go out from here.
  for (const [name, value] of Object.entries(reply.getHeaders()))
    if (value !== undefined) raw.setHeader(name, value);
  raw.writeHead(200, {
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-store, no-transform',
    connection: 'keep-alive',
    'x-accel-buffering': 'no',
  });
  let open = true;
  let finished = false;
  raw.on('close', () => {
    open = false;
    if (!finished) stop.abort();
  });
  const send = (event: ChatStreamEvent) => {
    if (open) raw.write(`event: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`);
  };
  send({ event: 'start', data: { conversation: { id: stream.conversationId } } });
  try {
    for (;;) {
      const step = await stream.next();
      if (step.done) {
        finished = true;
        send({ event: 'done', data: sent(step.value) });
        break;
      }
      send({ event: 'delta', data: { text: step.value } });
    }
  } catch (error) {
    const known = error instanceof AppError;
    if (!known || error.statusCode >= 500)
      request.log.error({ err: known ? (error.cause ?? error) : error }, 'streamed reply failed');
    send({
      event: 'error',
      data: {
        success: false,
        message: known ? translateError(error, request.t) : request.t('errors.server'),
      },
    });
  } finally {
    finished = true;
    if (open) raw.end();
  }
}
