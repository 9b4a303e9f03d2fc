import type { Agent } from 'node:https';
import fp from 'fastify-plugin';
import type { Logger as PinoLogger } from 'pino';
import { createBaileysTransportOnDemand } from './transports/baileys-on-demand';
import {
  createSandboxTransport,
  isSandboxTransport,
  SANDBOX_QR_DEFAULTS,
} from './transports/sandbox';
import { sandboxPhonePage, sandboxRoutes } from './transports/sandbox.routes';
import { createMediaFiles } from './whatsapp.media';
import { whatsappMediaRoutes } from './whatsapp.media-routes';
import { whatsappRoutes } from './whatsapp.routes';
import { RELAY_SKILL } from './whatsapp.relay-rules';
import {
  createWhatsAppService,
  type DEFAULT_CONTACT_LIMIT,
  type Pacing,
  type WhatsAppService,
} from './whatsapp.service';

declare module 'fastify' {
  interface FastifyInstance {
    /** Each account's WhatsApp number, its contacts' conversations and their auto-replies. */
    whatsapp: WhatsAppService;
  }
}

export type WhatsAppModuleOptions = {
  /** DATA_DIR/media: received files, shared by every instance. */
  mediaDir: string;
  /** WHATSAPP_MEDIA_MAX_MB (in bytes) and WHATSAPP_MEDIA_RETENTION_DAYS. */
  mediaLimits?: { maxBytes?: number; retentionDays?: number; downloadTimeoutMs?: number };
  /** WHATSAPP_TRANSPORT: Baileys (a real number) unless `sandbox`. */
  transport?: 'baileys' | 'sandbox';
  /** WHATSAPP_WS_URL: where Baileys connects (tests point it at a fake WhatsApp). */
  wsUrl?: string;
  /** WHATSAPP_PLATFORM_ACCOUNT: the e-mail of the account whose number is the platform's (the first admin when absent). */
  platformAccount?: string;
  /** How Baileys reaches the media hosts it uploads sent files to (tests: their fake WhatsApp's). */
  mediaUploadAgent?: Agent;
  /** How Baileys fetches received files from the media hosts (tests: their fake WhatsApp's). */
  mediaDownloadDispatcher?: RequestInit['dispatcher'];
  /** The sandbox's QR rhythm (tests quicken it). */
  qr?: { refreshMs: number; limit: number };
  /** The most waiting messages the sandbox hands over in one event on connect (tests make it small). */
  sandboxOfflineBatch?: number;
  /** SANDBOX_SECRET: opens every sandbox phone's routes. */
  sandboxSecret?: string;
  contactLimit?: Partial<typeof DEFAULT_CONTACT_LIMIT>;
  sendLimitPerMinute?: number;
  /** WHATSAPP_CATCHUP_MINUTES: how old a message delivered on connect may be and still be answered. */
  catchupMinutes?: number;
  /** WHATSAPP_TAKEOVER_MINUTES: how long a message of the owner to a contact pauses its agent (0: never). */
  takeoverMinutes?: number;
  /** WHATSAPP_DEBOUNCE_MS, WHATSAPP_TYPING_MS_PER_CHAR, WHATSAPP_SENDS_PER_MINUTE (tests turn them off). */
  pacing?: Partial<Pacing>;
  sandboxInboundPerMinute?: number;
};

/**
 * WhatsApp: the one place its transport is chosen (the service never knows which it has), the
 * service, and their lifecycle. On ready, after the agents' seed (a dependency, so its hook runs
 * first: the default agent must exist), every linked account connects again; on close, QR timers
 * stop and the connection events being handled finish before the database closes (the replies
 * are jobs, which stop first). An agent an admin deleted
 * (`agent.deleted`) answers no contact any more; a deleted account's number is unlinked
 * (`user.deleted`).
 */
export const whatsappModule = fp<WhatsAppModuleOptions>(
  async (app, options) => {
    const { db, clock, state, logger, translate, publicUrl, events, hub } = app.platform;
    const sandboxed = options.transport === 'sandbox';
    const media = createMediaFiles({
      dir: options.mediaDir,
      secret: app.platform.secret,
      logger,
      ...options.mediaLimits,
    });
    if (sandboxed) {
      logger.warn(
        'WHATSAPP_TRANSPORT=sandbox: WhatsApp is simulated inside this server; no real number is connected',
      );
    }
    const whatsapp = createWhatsAppService({
      db,
      clock,
      engine: app.ai.engine,
      understanding: app.ai.media,
      agents: app.agents,
      state,
      events: hub,
      createTransport: (onEvent) =>
        sandboxed
          ? createSandboxTransport({
              db,
              clock,
              state,
              publicUrl,
              onEvent,
              logger,
              jobs: app.platform.jobs,
              qr: options.qr ?? SANDBOX_QR_DEFAULTS,
              media,
              ...(options.sandboxOfflineBatch ? { offlineBatch: options.sandboxOfflineBatch } : {}),
            })
          : createBaileysTransportOnDemand({
              db,
              // The pino logger main.ts made (or a test's): Baileys takes pino's type.
              logger: logger as unknown as PinoLogger,
              onEvent,
              wsUrl: options.wsUrl,
              mediaUploadAgent: options.mediaUploadAgent,
              mediaDownloadDispatcher: options.mediaDownloadDispatcher,
              // One instance owns each account's socket at a time (a lease in Redis with several).
              shared: state,
            }),
      translate,
      logger,
      jobs: app.platform.jobs,
      replyTimeoutMs: async () => (await app.ai.settings.engineConfig()).timeoutMs,
      contactLimit: options.contactLimit,
      sendLimitPerMinute: options.sendLimitPerMinute,
      catchupMinutes: options.catchupMinutes,
      takeoverMinutes: options.takeoverMinutes,
      pacing: options.pacing,
      isAccountActive: (userId) => app.auth.isAccountActive(userId),
      eventLog: app.logs.events,
      publicUrl,
      media,
      platformAccount: () => app.auth.platformAccount({ email: options.platformAccount }),
      activeUser: (userId) => app.authenticator.activeUser(userId),
      chat: app.chat,
    });
    app.decorate('whatsapp', whatsapp);
    app.chat.answerSkill(RELAY_SKILL, whatsapp.relaySkill);
    events.on('agent.deleted', ({ agentId }) => whatsapp.releaseAgent({ agentId }));
    // The account is gone already: a number left linked would only fail to store its messages.
    events.on('user.deleted', ({ userId }) =>
      whatsapp.transport.forget(userId).catch((error: unknown) => {
        logger.error({ err: error, userId }, "whatsapp: a deleted account's number not unlinked");
      }),
    );
    // Its files go with it (the retention sweeps what a stop in between would leave).
    events.on('user.deleted', ({ userId }) =>
      whatsapp.forgetMedia(userId).catch((error: unknown) => {
        logger.error({ err: error, userId }, "whatsapp: a deleted account's files not removed");
      }),
    );
    app.privacy.contribute('whatsapp', (user, language) =>
      whatsapp.exportData({ userId: user.id, language }),
    );
    app.privacy.contributeFiles('whatsapp', (user, part) =>
      whatsapp.exportFiles({ userId: user.id, listing: part.media }),
    );
    app.addHook('onReady', () => whatsapp.resume());
    app.addHook('onClose', async () => {
      await whatsapp.transport.close();
      await whatsapp.close();
    });

    await app.register(whatsappRoutes, { prefix: '/api', whatsapp });
    await app.register(whatsappMediaRoutes, { prefix: '/api', whatsapp });
    const { transport } = whatsapp;
    if (isSandboxTransport(transport)) {
      await app.register(sandboxRoutes, {
        prefix: '/api',
        sandbox: transport,
        state,
        secret: options.sandboxSecret,
        inboundPerMinute: options.sandboxInboundPerMinute,
        mediaMaxBytes: media.maxBytes,
      });
      await app.register(sandboxPhonePage, { sandbox: transport });
    }
  },
  {
    name: 'whatsapp',
    dependencies: [
      'platform',
      'logs',
      'auth',
      'agents',
      'ai',
      'chat',
      'privacy',
      '@fastify/rate-limit',
    ],
  },
);
