import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  errorResponseSchema,
  phoneSchema,
  sandboxInboundSchema,
  sandboxLidMappingSchema,
  sandboxNetworkSchema,
  sandboxOutboundSchema,
  sandboxOwnMessageSchema,
  sandboxPairingCodeSchema,
  sandboxFailSendsSchema,
  sandboxPairSchema,
  sandboxPhoneEventSchema,
  sandboxReceiptsSchema,
  sandboxEditSchema,
  sandboxReactSchema,
  sandboxRevokeSchema,
  type SandboxEdit,
  type SandboxReact,
} from '@contrateia/shared';
import { AppError, translateError } from '@/lib/errors';
import { takeOrRetryLater, type SharedState } from '@/lib/shared-state';
import { authOf } from '@/plugins/auth';
import { sandboxMediaTooLarge } from '../whatsapp.errors';
import { DEFAULT_MEDIA_LIMITS } from '../whatsapp.media';
import type { SandboxTransport } from './sandbox';

const errors = {
  400: errorResponseSchema,
  401: errorResponseSchema,
  404: errorResponseSchema,
  409: errorResponseSchema,
  429: errorResponseSchema,
};
const phoneParams = z.object({ phone: phoneSchema });

/** Contacts' messages one IP may post per minute (SANDBOX_INBOUND_PER_MINUTE). */
export const DEFAULT_SANDBOX_INBOUND_PER_MINUTE = 600;

/** The header that carries SANDBOX_SECRET. */
const SECRET_HEADER = 'x-sandbox-secret';

/**
 * The sandbox's control API (WHATSAPP_TRANSPORT=sandbox only; registered nowhere else, so these
 * paths are 404 then): it plays the phones and their contacts. JSON. Pairing needs the QR's
 * one-time code; a contact's message is limited per IP; what a linked phone does (its events,
 * its logout, its link going down and back, the owner writing from it) answers only the account that linked it (its bearer
 * session) or whoever holds `secret` (SANDBOX_SECRET, in `X-Sandbox-Secret`): anyone else is a
 * 401 (no one) or a 404 (another account, as for a number nobody linked).
 */
export const sandboxRoutes: FastifyPluginAsyncZod<{
  sandbox: SandboxTransport;
  state: SharedState;
  secret?: string;
  inboundPerMinute?: number;
  /** WHATSAPP_MEDIA_MAX_MB in bytes: a contact's file as base64 makes the inbound body larger. */
  mediaMaxBytes?: number;
}> = async (
  app,
  {
    sandbox,
    state,
    secret,
    inboundPerMinute = DEFAULT_SANDBOX_INBOUND_PER_MINUTE,
    mediaMaxBytes = DEFAULT_MEDIA_LIMITS.maxBytes,
  },
) => {
  // A file's base64, and room for the rest of the message (a caption of 65,536 characters).
  const inboundBodyLimit = Math.ceil(mediaMaxBytes / 3) * 4 + 1024 * 1024;
  const inboundCounter = state.counter({
    name: 'sandbox-inbound',
    points: inboundPerMinute,
    durationSeconds: 60,
  });
  const secretDigest = secret ? digest(secret) : undefined;
  /** Requests admitted by the secret: they may act for whichever account a number is linked to. */
  const bySecret = new WeakSet<FastifyRequest>();

  // Before the body and the path are read: the caller first (401), then what they asked.
  function admit(request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) {
    const given = request.headers[SECRET_HEADER];
    if (secretDigest && typeof given === 'string' && timingSafeEqual(digest(given), secretDigest)) {
      bySecret.add(request);
      return done();
    }
    app.authenticate(request, reply, done);
  }
  /** The account a phone route acts for: undefined (whichever linked the number) with the secret. */
  const callerOf = (request: FastifyRequest) =>
    bySecret.has(request) ? undefined : authOf(request).user.id;

  app.post(
    '/whatsapp/sandbox/pair',
    {
      schema: {
        body: sandboxPairSchema,
        response: { 200: z.object({ success: z.literal(true), phone: z.string() }), ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      ...(await sandbox.pair(request.body)),
    }),
  );

  // Linking by number: the phone types the code its owner was shown. A code is short, so only its
  // account (or the secret's holder) may try one.
  app.post(
    '/whatsapp/sandbox/pairing-code',
    {
      onRequest: admit,
      schema: {
        body: sandboxPairingCodeSchema,
        response: { 200: z.object({ success: z.literal(true), phone: z.string() }), ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      ...(await sandbox.pairWithCode({ ...request.body, userId: callerOf(request) })),
    }),
  );

  app.post(
    '/whatsapp/sandbox/inbound',
    {
      // Counted per IP on every instance, before the body is read: a contact is anyone.
      onRequest: async (request) => {
        await takeOrRetryLater(inboundCounter, request.ip, 'errors.tooManyRequests');
        // Said before a byte of it is read: a file past WHATSAPP_MEDIA_MAX_MB is refused anyway.
        if (Number(request.headers['content-length']) > inboundBodyLimit)
          throw sandboxMediaTooLarge(Math.floor(mediaMaxBytes / (1024 * 1024)));
      },
      bodyLimit: inboundBodyLimit,
      schema: {
        body: sandboxInboundSchema,
        response: { 200: z.object({ success: z.literal(true), id: z.string() }), ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      ...(await sandbox.inbound(request.body)),
    }),
  );

  // A contact edits, deletes for everyone or reacts to a message: a contact is anyone, counted
  // like its messages.
  const changes = [
    [
      'edit',
      sandboxEditSchema,
      (body: SandboxEdit) => ({ kind: 'edit' as const, text: body.text }),
    ],
    ['revoke', sandboxRevokeSchema, () => ({ kind: 'revoke' as const })],
    [
      'react',
      sandboxReactSchema,
      (body: SandboxReact) => ({ kind: 'react' as const, emoji: body.emoji }),
    ],
  ] as const;
  for (const [path, body, changeOf] of changes) {
    app.post(
      `/whatsapp/sandbox/${path}`,
      {
        onRequest: (request) =>
          takeOrRetryLater(inboundCounter, request.ip, 'errors.tooManyRequests'),
        schema: {
          body,
          response: { 200: z.object({ success: z.literal(true), id: z.string() }), ...errors },
        },
      },
      async (request) => ({
        success: true as const,
        ...(await sandbox.changeMessage(
          request.body,
          (changeOf as (body: unknown) => Parameters<SandboxTransport['changeMessage']>[1])(
            request.body,
          ),
        )),
      }),
    );
  }

  app.post(
    '/whatsapp/sandbox/outbound',
    {
      onRequest: admit,
      schema: {
        body: sandboxOutboundSchema,
        response: { 200: z.object({ success: z.literal(true), id: z.string() }), ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      ...(await sandbox.outbound({ ...request.body, userId: callerOf(request) })),
    }),
  );

  // The owner answers the contact from the phone itself (as /outbound, by the phone's path): the
  // agent pauses in that conversation, as for a reply from the web.
  app.post(
    '/whatsapp/sandbox/phones/:phone/own-message',
    {
      onRequest: admit,
      schema: {
        params: phoneParams,
        body: sandboxOwnMessageSchema,
        response: { 200: z.object({ success: z.literal(true), id: z.string() }), ...errors },
      },
    },
    async (request) => ({
      success: true as const,
      ...(await sandbox.outbound({
        from: request.params.phone,
        ...request.body,
        userId: callerOf(request),
      })),
    }),
  );

  // The phone learns that a contact's LID is a number: it may merge two conversations of the
  // account, so only its account (or the secret's holder) may say it.
  app.post(
    '/whatsapp/sandbox/lid-mapping',
    {
      onRequest: admit,
      schema: {
        body: sandboxLidMappingSchema,
        response: { 200: z.object({ success: z.literal(true) }), ...errors },
      },
    },
    async (request) => {
      await sandbox.lidMapping({ ...request.body, userId: callerOf(request) });
      return { success: true as const };
    },
  );

  app.get(
    '/whatsapp/sandbox/phones/:phone/events',
    {
      onRequest: admit,
      schema: {
        params: phoneParams,
        response: {
          200: z.object({ success: z.literal(true), events: z.array(sandboxPhoneEventSchema) }),
          ...errors,
        },
      },
    },
    async (request) => ({
      success: true as const,
      ...(await sandbox.phoneEvents({ ...request.params, userId: callerOf(request) })),
    }),
  );

  app.post(
    '/whatsapp/sandbox/phones/:phone/fail-sends',
    {
      onRequest: admit,
      schema: {
        params: phoneParams,
        body: sandboxFailSendsSchema,
        response: {
          200: z.object({ success: z.literal(true), count: z.number(), code: z.string() }),
          ...errors,
        },
      },
    },
    async (request) => ({
      success: true as const,
      ...(await sandbox.failSends({
        ...request.params,
        ...request.body,
        userId: callerOf(request),
      })),
    }),
  );

  app.post(
    '/whatsapp/sandbox/phones/:phone/receipts',
    {
      onRequest: admit,
      schema: {
        params: phoneParams,
        body: sandboxReceiptsSchema,
        response: { 200: z.object({ success: z.literal(true) }), ...errors },
      },
    },
    async (request) => {
      await sandbox.receipts({ ...request.params, ...request.body, userId: callerOf(request) });
      return { success: true as const };
    },
  );

  app.post(
    '/whatsapp/sandbox/phones/:phone/logout',
    {
      onRequest: admit,
      schema: {
        params: phoneParams,
        response: { 200: z.object({ success: z.literal(true) }), ...errors },
      },
    },
    async (request) => {
      await sandbox.phoneLogout({ ...request.params, userId: callerOf(request) });
      return { success: true as const };
    },
  );

  app.post(
    '/whatsapp/sandbox/phones/:phone/network',
    {
      onRequest: admit,
      schema: {
        params: phoneParams,
        body: sandboxNetworkSchema,
        response: {
          200: z.object({ success: z.literal(true), online: z.boolean() }),
          ...errors,
        },
      },
    },
    async (request) => ({
      success: true as const,
      ...(await sandbox.network({
        ...request.params,
        ...request.body,
        userId: callerOf(request),
      })),
    }),
  );
};

const pageQuery = z.object({ pair: z.string().max(256).optional() });
const pageForm = z.object({
  pair: z.string().max(256).optional(),
  phone: z.string().max(64).optional(),
});

/**
 * `/sandbox/phone?pair=…`: the page a sandbox QR code opens, playing the phone that scans it. A
 * plain form, rendered here, in the caller's language: no script at all, so the strict CSP holds.
 */
export const sandboxPhonePage: FastifyPluginAsyncZod<{ sandbox: SandboxTransport }> = async (
  app,
  { sandbox },
) => {
  // The page's form posts as browsers do; parsed with the platform's URLSearchParams.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 4096 },
    (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)));
    },
  );

  app.get('/sandbox/phone', { schema: { querystring: pageQuery } }, async (request, reply) =>
    page(request, reply, 200, form(request, request.query.pair ?? '', '', undefined)),
  );

  app.post('/sandbox/phone', { schema: { body: pageForm } }, async (request, reply) => {
    const token = request.body.pair ?? '';
    const phone = (request.body.phone ?? '').replace(/[\s()+.-]/g, '');
    const t = request.t;
    if (!phoneSchema.safeParse(phone).success) {
      return page(request, reply, 400, form(request, token, phone, t('validation.phoneInvalid')));
    }
    try {
      await sandbox.pair({ token, phone });
    } catch (error) {
      if (!(error instanceof AppError) || error.statusCode >= 500) throw error;
      return page(
        request,
        reply,
        error.statusCode,
        form(request, token, phone, translateError(error, t)),
      );
    }
    return page(
      request,
      reply,
      200,
      `<p role="status">${escapeHtml(t('whatsappServer.sandboxPhone.linked', { phone }))}</p>`,
    );
  });
};

function form(
  request: FastifyRequest,
  token: string,
  phone: string,
  error: string | undefined,
): string {
  const t = request.t;
  return `<p>${escapeHtml(t('whatsappServer.sandboxPhone.intro'))}</p>
<form method="post" action="/sandbox/phone">
<input type="hidden" name="pair" value="${escapeHtml(token)}">
<label for="phone">${escapeHtml(t('whatsappServer.sandboxPhone.phoneLabel'))}</label>
<input id="phone" name="phone" inputmode="numeric" autocomplete="tel" required value="${escapeHtml(phone)}">
${error ? `<p role="alert">${escapeHtml(error)}</p>` : ''}
<button type="submit">${escapeHtml(t('whatsappServer.sandboxPhone.link'))}</button>
</form>`;
}

function page(request: FastifyRequest, reply: FastifyReply, status: number, body: string) {
  const title = escapeHtml(request.t('whatsappServer.sandboxPhone.title'));
  return reply
    .code(status)
    .header('content-type', 'text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .send(
      `<!doctype html><html lang="${request.language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><meta name="referrer" content="no-referrer"><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`,
    );
}

/** Compared as digests: equal lengths for timingSafeEqual, whatever was sent. */
function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!);
}
