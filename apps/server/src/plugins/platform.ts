import type { FastifyBaseLogger } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import type { Language } from '@contrateia/shared';
import type { Database, Db } from '@/db/client';
import { systemClock, type Clock } from '@/lib/clock';
import { createDomainEventBus, type DomainEventBus } from '@/lib/domain-events';
import { createEventHub, type EventHub } from '@/lib/event-hub';
import { createJobs, type Jobs } from '@/lib/jobs';
import type { Translate } from '@/lib/i18n';
import { createMailer, type Mailer } from '@/lib/mail';
import { createSharedState, type SharedState } from '@/lib/shared-state';

/**
 * What every feature module builds its services from: one per app, so tests build as many apps as
 * they like, each with a database of its own. No feature in it: the stored log every feature
 * records through is the logs module's (`app.logs.events`), registered right after this one.
 */
export type Platform = {
  /** The database as a whole (its kind, ping), for health and the monitor. */
  database: Database;
  /** Drizzle over it: what repositories take. */
  db: Db;
  /**
   * Where state shared between requests lives: Redis when configured (every instance sees the
   * same counters, locks and messages), else this process's memory.
   */
  state: SharedState;
  clock: Clock;
  logger: FastifyBaseLogger;
  /** The app's translator, for texts outside requests (mails, events in the log). */
  translate: (language: Language) => Translate;
  mailer: Mailer;
  /** What one feature tells the others happened (lib/domain-events.ts). */
  events: DomainEventBus;
  /** Real-time events for an account's browsers: the realtime plugin delivers them. */
  hub: EventHub;
  /** Signs session tokens, keys e-mail code hashes, seals secrets kept in the database. */
  secret: string;
  /** The origin of every link the server hands out (PUBLIC_URL). */
  publicUrl: string;
  /**
   * Durable jobs in the app's database (lib/jobs.ts): modules work their queues and send or
   * schedule jobs while the app is built; the work starts once every module is ready and stops
   * before any closes (plugins/jobs-runner.ts, registered after the last module).
   */
  jobs: Jobs;
};

declare module 'fastify' {
  interface FastifyInstance {
    platform: Platform;
    /** The platform's jobs, where tests follow the jobs their requests send. */
    jobs: Jobs;
  }
}

export type PlatformOptions = {
  database: Database;
  secret: string;
  logger: FastifyBaseLogger;
  publicUrl: string;
  translate: (language: Language) => Translate;
  clock?: Clock;
  /** Outgoing mail; without it, built from smtpUrl (or logging when that is absent too). */
  mailer?: Mailer;
  smtpUrl?: string;
  mailFrom?: string;
  redis?: Redis;
  /** A shared state made (and closed) by the caller, instead of one made here from `redis`. */
  state?: SharedState;
  /** Every shared key is named under it, so apps sharing a Redis keep theirs apart. */
  keyPrefix?: string;
  /** Where real-time events go; made here when absent (tests pass their own to watch it). */
  hub?: EventHub;
};

/**
 * `app.platform`. Registered before every feature module: its hooks run first on ready (the
 * shared state is connected before anyone uses it) and last on close (after every feature has
 * finished with the state and the mailer).
 */
export const platformPlugin = fp<PlatformOptions>(
  async (app, options) => {
    const state =
      options.state ??
      createSharedState({ redis: options.redis, keyPrefix: options.keyPrefix ?? 'contrateia' });
    const mailer =
      options.mailer ??
      createMailer({
        smtpUrl: options.smtpUrl,
        from: options.mailFrom ?? 'ContrateIA <no-reply@localhost>',
        logger: options.logger,
      });
    const platform: Platform = {
      database: options.database,
      db: options.database.db,
      state,
      clock: options.clock ?? systemClock,
      logger: options.logger,
      translate: options.translate,
      mailer,
      events: createDomainEventBus(),
      hub: options.hub ?? createEventHub(),
      secret: options.secret,
      publicUrl: options.publicUrl,
      jobs: createJobs({ database: options.database, logger: options.logger }),
    };
    app.decorate('platform', platform);
    app.decorate('jobs', platform.jobs);
    app.addHook('onClose', async () => mailer.close());
    app.addHook('onReady', () => state.ready());
    if (!options.state) app.addHook('onClose', () => state.close());
  },
  { name: 'platform' },
);
