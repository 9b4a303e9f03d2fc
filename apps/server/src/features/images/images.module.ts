import fp from 'fastify-plugin';
import type { WorkGate } from '@/lib/work-gate';
import { imagesRoutes } from './images.routes';
import { createImagesService, type ImagesService } from './images.service';

declare module 'fastify' {
  interface FastifyInstance {
    /** The image library. */
    images: ImagesService;
  }
}

/**
 * The image library: its upload limits are the admin's settings, read at each upload; its changes
 * go into the admin audit and the stored log, with the change. Files an interrupted process left
 * are removed on ready.
 */
export const imagesModule = fp<{ dir: string; decoding?: WorkGate }>(
  async (app, { dir, decoding }) => {
    const { db, secret, clock, logger } = app.platform;
    const images = createImagesService({
      db,
      dir,
      secret,
      clock,
      systemSettings: app.settings.system,
      logger,
      decoding,
    });
    app.decorate('images', images);
    app.addHook('onReady', () => images.prepare());
    await app.register(imagesRoutes, { prefix: '/api', images });
  },
  { name: 'images', dependencies: ['platform', 'logs', 'settings', 'auth-guard'] },
);
