import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { dataResponse, errorResponseSchema, whatsappMessageSchema } from '@contrateia/shared';
import { authOf } from '@/plugins/auth';
import { readRestOrClose } from '@/plugins/errors';
import { conversationNotFound } from './whatsapp.errors';
import { contentDisposition } from './whatsapp.media-access';
import { MEDIA_FORM_LIMITS, receiveMediaForm } from './whatsapp.media-form';
import type { WhatsAppService } from './whatsapp.service';

/**
 * Headers of every file served: its bytes are never a document (a browser opening the address
 * gets no script, no plug-in, no same-origin page: `sandbox`), nor sniffed as one, nor shown by
 * another site.
 */
const FILE_HEADERS = {
  'content-security-policy': "default-src 'none'; sandbox",
  'x-content-type-options': 'nosniff',
  'cross-origin-resource-policy': 'same-origin',
};

const query = z.object({
  expires: z.string().max(20).optional(),
  signature: z.string().max(100).optional(),
});

const errors = {
  400: errorResponseSchema,
  401: errorResponseSchema,
  404: errorResponseSchema,
  409: errorResponseSchema,
  413: errorResponseSchema,
  429: errorResponseSchema,
};

/**
 * `GET /api/whatsapp/media/:id`: the file a contact's message carries, to the account's own
 * sessions, or through the signed address its message gave (valid for an hour). Images, audio and
 * video are shown inline; anything else is downloaded (an attachment).
 */
export const whatsappMediaRoutes: FastifyPluginAsyncZod<{ whatsapp: WhatsAppService }> = async (
  app,
  { whatsapp },
) => {
  // Multipart bodies are parsed in this scope only; the file's limit is given per request
  // (whatsapp.media-form.ts).
  await app.register(multipart, { limits: MEDIA_FORM_LIMITS });

  // The owner's photo or document to a contact, multipart (`file`, `caption`): stored and sent
  // through the outbox like a text, its status with it.
  app.post(
    '/whatsapp/conversations/:id/media',
    {
      onRequest: app.authenticate,
      // A refusal decided before the whole body arrived (not theirs, not connected, too large, a
      // photo that is none): the rest is read and discarded within a bound, or the connection
      // closed gracefully past it, so that the client reads its answer.
      onError: async (request, reply) => {
        if (!request.raw.complete) await readRestOrClose(request, reply);
      },
      schema: {
        params: z.object({ id: z.string() }),
        response: { 200: dataResponse(whatsappMessageSchema), ...errors },
      },
    },
    async (request) => {
      // A malformed id names no conversation of the caller's: the same 404 as another account's.
      if (!z.uuid().safeParse(request.params.id).success) throw conversationNotFound();
      return {
        success: true as const,
        data: await whatsapp.sendMedia({
          user: authOf(request).user,
          id: request.params.id,
          language: request.language,
          receive: (into) => receiveMediaForm(request, into),
        }),
      };
    },
  );

  app.get(
    '/whatsapp/media/:id',
    {
      // A signed address needs no session; without one, the caller's session is asked first.
      onRequest: (request, reply, done) => {
        const { expires, signature } = request.query as Record<string, unknown>;
        if (expires !== undefined || signature !== undefined) return done();
        app.authenticate(request, reply, done);
      },
      schema: { params: z.object({ id: z.string() }), querystring: query },
    },
    async (request, reply) => {
      const { expires, signature } = request.query;
      const signed = expires !== undefined || signature !== undefined;
      const file = await whatsapp.openMedia({
        messageId: request.params.id,
        ...(signed ? { signed: { expires, signature } } : { userId: authOf(request).user.id }),
      });
      reply.headers({
        ...FILE_HEADERS,
        // A signed address is kept no longer than its hour; a session's look is asked again each time.
        'cache-control': signed ? 'private, max-age=900' : 'private, no-cache',
        etag: file.etag,
        'content-disposition': contentDisposition(
          file.inline ? 'inline' : 'attachment',
          file.fileName,
        ),
      });
      if (request.headers['if-none-match'] === file.etag) {
        await file.handle.close();
        return reply.code(304).send();
      }
      reply.type(file.mimetype).header('content-length', file.size);
      return reply.send(file.handle.createReadStream());
    },
  );
};
