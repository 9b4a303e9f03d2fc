import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf } from '@/plugins/auth';
import { contentDisposition } from './whatsapp.media-access';
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

/**
 * `GET /api/whatsapp/media/:id`: the file a contact's message carries, to the account's own
 * sessions, or through the signed address its message gave (valid for an hour). Images, audio and
 * video are shown inline; anything else is downloaded (an attachment).
 */
export const whatsappMediaRoutes: FastifyPluginAsyncZod<{ whatsapp: WhatsAppService }> = async (
  app,
  { whatsapp },
) => {
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
