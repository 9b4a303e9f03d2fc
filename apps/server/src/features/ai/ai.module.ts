import fp from 'fastify-plugin';
import { createSecretBox } from '@/lib/secrets';
import { checkProvider, createConfiguredEngine, probeProvider } from './ai.providers';
import type { AgentEngine, EngineConfig } from './ai.service';
import { createAiSettingsService, type AiSettingsService } from './ai.settings';
import { createMediaUnderstanding, type MediaUnderstanding } from './ai.transcription';
import { adminAiRoutes } from './ai.settings.routes';

export type AiFeature = {
  /** The provider in force: the AI_* variables until an admin saves one in the panel. */
  settings: AiSettingsService;
  /** The one engine chat and WhatsApp answer with, each reply going to the provider in force. */
  engine: AgentEngine;
  /** The cheap check of a provider, without a completion (the monitor's). */
  probe: typeof probeProvider;
  /** Voice notes transcribed, and whether pictures may go to the model, as the provider in force allows. */
  media: MediaUnderstanding;
};

declare module 'fastify' {
  interface FastifyInstance {
    ai: AiFeature;
  }
}

/**
 * The language model: its provider's settings (`/api/admin/ai`) and the engine. A real reply's
 * outcome is announced (`ai.reply.finished`: the monitor watches the provider), a provider's
 * failure recorded in the stored log.
 */
export const aiModule = fp<{ initial?: EngineConfig; testsPerMinute?: number }>(
  async (app, { initial, testsPerMinute }) => {
    const { db, state, logger, secret, translate, events, clock } = app.platform;
    const eventLog = app.logs.events;
    const settings = createAiSettingsService({
      db,
      state,
      logger,
      box: createSecretBox(secret),
      clock,
      initial: initial ?? { provider: 'builtin', timeoutMs: 60_000 },
      check: (config, language) => checkProvider(config, { language, translate }),
    });
    const engine = createConfiguredEngine({
      config: settings.engineConfig,
      translate,
      eventLog,
      onReply: (outcome) =>
        void events
          .emit('ai.reply.finished', outcome)
          .catch((error: unknown) => logger.error({ err: error }, 'ai.reply.finished failed')),
    });
    const media = createMediaUnderstanding({ config: settings.engineConfig, eventLog });
    app.decorate('ai', { settings, engine, probe: probeProvider, media });
    app.addHook('onReady', () => settings.preload());
    await app.register(adminAiRoutes, { prefix: '/api', ai: settings, testsPerMinute });
  },
  { name: 'ai', dependencies: ['platform', 'logs', 'auth-guard', '@fastify/rate-limit'] },
);
