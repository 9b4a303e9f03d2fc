import fp from 'fastify-plugin';
import { createPrivacyService, type PrivacyService } from './privacy.service';

declare module 'fastify' {
  interface FastifyInstance {
    /** The LGPD export's parts: each feature contributes its own; auth collects them. */
    privacy: PrivacyService;
  }
}

/**
 * Below auth, which answers "Download my data", and below the features that hold parts of it
 * (agents, chat, WhatsApp), which contribute them (and WhatsApp its stored files, for the ZIP
 * variant) as they are registered.
 */
export const privacyModule = fp(
  async (app) => {
    app.decorate('privacy', createPrivacyService({ logger: app.platform.logger }));
  },
  { name: 'privacy', dependencies: ['platform'] },
);
