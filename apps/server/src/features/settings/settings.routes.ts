import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  adminSettingsResponseSchema,
  contentSettingsSchema,
  errorResponseSchema,
  publicSettingsSchema,
  systemSettingsSchema,
  themeSettingsSchema,
} from '@contrateia/shared';
import { actorOf } from '@/plugins/auth';
import type { SettingsService } from './settings.service';

const errors = { 400: errorResponseSchema, 401: errorResponseSchema, 403: errorResponseSchema };

/** The settings anyone may read (no session): the theme and texts the login page needs first. */
export const publicSettingsRoutes: FastifyPluginAsyncZod<{ settings: SettingsService }> = async (
  app,
  { settings },
) => {
  app.get(
    '/settings/public',
    { schema: { response: { 200: publicSettingsSchema, 304: z.null() } } },
    async (request, reply) => {
      const { value: view, etag } = await settings.getPublic();
      // Revalidated on every use: a change must show at once.
      reply.header('etag', etag).header('cache-control', 'no-cache');
      if (request.headers['if-none-match'] === etag) return reply.code(304).send(null);
      return view;
    },
  );
};

/**
 * `/theme.css`: the admin's theme as CSS custom properties, linked from index.html so it applies
 * before the first paint and before sign-in, with no inline script (the CSP stays strict).
 */
export const themeStylesheetRoute: FastifyPluginAsyncZod<{ settings: SettingsService }> = async (
  app,
  { settings },
) => {
  app.get('/theme.css', async (request, reply) => {
    const { value: css, etag } = await settings.getStylesheet();
    reply.header('etag', etag).header('cache-control', 'no-cache').type('text/css; charset=utf-8');
    if (request.headers['if-none-match'] === etag) return reply.code(304).send();
    return css;
  });
};

/**
 * `/api/admin/settings*`: admins in admin mode only (401 without a session, 403 to anyone else),
 * checked on the request, before the body is read, so nobody else learns what the routes accept.
 */
export const adminSettingsRoutes: FastifyPluginAsyncZod<{ settings: SettingsService }> = async (
  app,
  { settings },
) => {
  app.addHook('onRequest', app.requireAdmin);

  app.get(
    '/admin/settings',
    { schema: { response: { 200: adminSettingsResponseSchema, ...errors } } },
    async () => {
      const { content, theme, system } = await settings.get();
      return { contentSettings: content, themeSettings: theme, systemSettings: system };
    },
  );

  app.post(
    '/admin/settings/content',
    {
      schema: { body: contentSettingsSchema, response: { 200: contentSettingsSchema, ...errors } },
    },
    async (request) =>
      settings.save({
        section: 'content',
        value: request.body,
        actor: actorOf(request),
      }),
  );

  app.post(
    '/admin/settings/theme',
    { schema: { body: themeSettingsSchema, response: { 200: themeSettingsSchema, ...errors } } },
    async (request) =>
      settings.save({
        section: 'theme',
        value: request.body,
        actor: actorOf(request),
      }),
  );

  app.post(
    '/admin/settings/system',
    { schema: { body: systemSettingsSchema, response: { 200: systemSettingsSchema, ...errors } } },
    async (request) =>
      settings.save({
        section: 'system',
        value: request.body,
        actor: actorOf(request),
      }),
  );
};
