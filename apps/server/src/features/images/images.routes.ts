import multipart from '@fastify/multipart';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  deleteImageResponseSchema,
  errorResponseSchema,
  imageFileQuerySchema,
  imageResponseSchema,
  imageStatsResponseSchema,
  imageUploadFieldsSchema,
  imageUploadResponseSchema,
  listImagesQuerySchema,
  listImagesResponseSchema,
  updateImageSchema,
} from '@contrateia/shared';
import { actorOf } from '@/plugins/auth';
import { isValidationKey } from '@/lib/errors';
import { readRestOrClose } from '@/plugins/errors';
import { FORM_LIMITS, FORM_OVERHEAD_BYTES, receiveUpload } from './images.multipart';
import { PUBLIC_MAX_AGE_SECONDS, type ImagesService } from './images.service';
import {
  imageLinkInvalid,
  imageRequired,
  imageTooLarge,
  uploadFieldInvalid,
} from './images.errors';

const errors = {
  400: errorResponseSchema,
  401: errorResponseSchema,
  403: errorResponseSchema,
  404: errorResponseSchema,
};
/** Any text: the service answers 404 for what is not an image's id. */
const params = z.object({ id: z.string() });

/**
 * Headers of every image served: its bytes are never a document (a browser opening the address
 * gets no script, no plug-in, no same-origin page: `sandbox`), nor sniffed as one.
 */
const FILE_HEADERS = {
  'content-security-policy': "default-src 'none'; sandbox",
  'x-content-type-options': 'nosniff',
};

/**
 * `/api/images*`: the library's management for admins in admin mode (401 without a
 * session, 403 to anyone else, checked before the body is read), and the files themselves,
 * served to anyone for a public image and, for a private one, to an admin or with a signed
 * address. Multipart bodies are parsed in this scope only: everywhere else a body is JSON within
 * the app's 1 MB.
 */
export const imagesRoutes: FastifyPluginAsyncZod<{ images: ImagesService }> = async (
  app,
  { images },
) => {
  // The file's size limit is the admin's, given per request (images.multipart.ts).
  await app.register(multipart, { limits: FORM_LIMITS });
  const admin = { onRequest: app.requireAdmin };

  app.post(
    '/images/upload',
    {
      ...admin,
      schema: {
        response: {
          200: imageUploadResponseSchema,
          ...errors,
          413: errorResponseSchema,
          429: errorResponseSchema,
        },
      },
    },
    async (request, reply) => {
      try {
        return { success: true as const, imageId: await receiveAndStore(request) };
      } catch (error) {
        // Refused before the whole body arrived (too large, a name not allowed).
        if (!request.raw.complete) await readRestOrClose(request, reply);
        throw error;
      }
    },
  );

  /** The upload route's work: the form read within the admin's limits, then stored. */
  async function receiveAndStore(request: FastifyRequest): Promise<string> {
    if (!request.isMultipart()) throw imageRequired();
    // No body is read for an upload that could not be decoded now anyway.
    images.assertDecodingRoom();
    // Read now: a change the admin saved a moment ago applies to this upload.
    const policy = await images.uploadPolicy();
    // A body announced as larger than any allowed form is refused before a byte of it is read.
    if (Number(request.headers['content-length']) > policy.maxBytes + FORM_OVERHEAD_BYTES)
      throw imageTooLarge(policy.maxFileSizeMb);
    const target = images.incomingPath();
    try {
      const { file, fields } = await receiveUpload(request, {
        target,
        maxBytes: policy.maxBytes,
        maxFileSizeMb: policy.maxFileSizeMb,
        checkName: (name) => images.checkFileName(name, policy),
      });
      if (!file) throw imageRequired({ field: 'image' });
      const parsed = imageUploadFieldsSchema.safeParse(fields);
      if (!parsed.success) {
        const [issue] = parsed.error.issues;
        const key =
          issue && isValidationKey(issue.message) ? issue.message : 'validation.invalidValue';
        throw uploadFieldInvalid({ key, field: issue?.path.join('.') || 'general' });
      }
      const { imageId } = await images.upload({
        file: target,
        originalFilename: file.name,
        fields: parsed.data,
        policy,
        actor: actorOf(request),
      });
      return imageId;
    } finally {
      await images.discard(target);
    }
  }

  app.get(
    '/images',
    {
      ...admin,
      schema: {
        querystring: listImagesQuerySchema,
        response: { 200: listImagesResponseSchema, ...errors },
      },
    },
    async (request) => images.list(request.query),
  );

  app.get(
    '/images/stats',
    { ...admin, schema: { response: { 200: imageStatsResponseSchema, ...errors } } },
    async () => ({
      stats: await images.stats(),
    }),
  );

  app.put(
    '/images/:id',
    {
      ...admin,
      schema: {
        params,
        body: updateImageSchema,
        response: { 200: imageResponseSchema, ...errors },
      },
    },
    async (request) =>
      images.update({
        id: request.params.id,
        input: request.body,
        actor: actorOf(request),
      }),
  );

  app.delete(
    '/images/:id',
    { ...admin, schema: { params, response: { 200: deleteImageResponseSchema, ...errors } } },
    async (request) => {
      await images.remove({
        id: request.params.id,
        actor: actorOf(request),
      });
      return { success: true as const };
    },
  );

  app.get(
    '/images/:id',
    { schema: { params, querystring: imageFileQuerySchema } },
    async (request, reply) => {
      const { size, expires, signature } = request.query;
      const image = await images.find(request.params.id);
      let cacheControl = `public, max-age=${PUBLIC_MAX_AGE_SECONDS}`;
      if (!image.isPublic) {
        const left = images.signedFor(image.id, size, { expires, signature });
        if (left !== null) {
          // Kept no longer than the address is valid.
          cacheControl = `private, max-age=${Math.min(left, PUBLIC_MAX_AGE_SECONDS)}`;
        } else if (expires !== undefined || signature !== undefined) {
          throw imageLinkInvalid();
        } else {
          await app.requireAdmin(request, reply);
          // An admin's own look: asked again each time, since their session may end.
          cacheControl = 'private, no-cache';
        }
      }
      const file = await images.open(image, size);
      reply.headers({
        ...FILE_HEADERS,
        'cache-control': cacheControl,
        etag: file.etag,
        // A public image may be shown on other sites; a private one only by the app.
        'cross-origin-resource-policy': image.isPublic ? 'cross-origin' : 'same-origin',
        'content-disposition': `inline; filename="${file.filename}"`,
      });
      if (matches(request, file.etag)) {
        await file.handle.close();
        return reply.code(304).send();
      }
      reply.type(file.mimeType).header('content-length', file.size);
      return sendFile(reply, file.handle);
    },
  );
};

/** Whether the request's If-None-Match names `etag` (or `*`). */
function matches(request: FastifyRequest, etag: string): boolean {
  const header = request.headers['if-none-match'];
  if (!header) return false;
  return header.split(',').some((tag) => {
    const trimmed = tag.trim();
    return trimmed === '*' || trimmed.replace(/^W\//, '') === etag;
  });
}

/** Streams an opened file as the answer; the handle is closed when the stream ends or fails. */
function sendFile(
  reply: FastifyReply,
  handle: Awaited<ReturnType<ImagesService['open']>>['handle'],
) {
  return reply.send(handle.createReadStream());
}
