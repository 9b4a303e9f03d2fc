import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import {
  contentSettingsSchema,
  defaultSettings,
  publicSettingsOf,
  systemSettingsSchema,
  themeSettingsSchema,
  type ContentSettings,
  type PublicSettings,
  type SettingsSection,
  type SystemSettings,
  type ThemeSettings,
} from '@contrateia/shared';
import type { Db } from '@/db/client';
import type { MaybePromise } from '@/lib/maybe-promise';
import { createSharedCache } from '@/lib/shared-cache';
import type { SharedState } from '@/lib/shared-state';
import type { Clock } from '@/lib/clock';
import { changedFields, recordAudit, type AuditActor } from '@/features/audit/audit.service';
import * as repo from './settings.repository';

export type Settings = { content: ContentSettings; theme: ThemeSettings; system: SystemSettings };
type SectionValue<S extends SettingsSection> = Settings[S];

const SCHEMAS: { [S in SettingsSection]: z.ZodType<Settings[S], unknown> } = {
  content: contentSettingsSchema,
  theme: themeSettingsSchema,
  system: systemSettingsSchema,
};

/** A value served to clients, with its ETag. */
type Tagged<T> = { value: T; etag: string };

/**
 * The settings in force, with what is served of them, made once per read rather than per
 * request: the public view and the theme's stylesheet, each with its ETag.
 */
type Current = { settings: Settings; public: Tagged<PublicSettings>; stylesheet: Tagged<string> };

const tagged = <T>(value: T, text: string): Tagged<T> => ({
  value,
  etag: `"${createHash('sha256').update(text).digest('base64url').slice(0, 27)}"`,
});

/** Each theme colour and the CSS custom property of the web's design tokens it sets (styles/global.css). */
const THEME_PROPERTIES: Record<keyof ThemeSettings, string> = {
  primaryColor: '--color-primary',
  secondaryColor: '--color-secondary',
  backgroundColor: '--color-background',
  textColor: '--color-text',
  cardBackground: '--color-surface',
  buttonColor: '--color-primary-strong',
};

/**
 * The theme as CSS custom properties. The colours are `#rrggbb` by their schema, so nothing else
 * can reach the stylesheet; `:root:root` outranks global.css whatever the link order.
 */
function themeStylesheet(theme: ThemeSettings): string {
  const declarations = Object.entries(THEME_PROPERTIES).map(
    ([name, property]) => `  ${property}: ${theme[name as keyof ThemeSettings]};`,
  );
  return `/* The admin's theme (Admin, Theme Settings). */\n:root:root {\n${declarations.join('\n')}\n}\n`;
}

/** How stale an instance's copy can be if an invalidation is ever lost. */
const SETTINGS_TTL_MS = 60_000;

export type SettingsService = ReturnType<typeof createSettingsService>;

/**
 * The admin's settings: stored in the database, one row per section saved, cached on every
 * instance and dropped everywhere (the shared state's pub/sub) the moment one is saved. `peek`
 * gives the copy at hand without waiting, for checks on every request.
 */
export function createSettingsService({
  db,
  state,
  logger,
  clock,
}: {
  db: Db;
  state: SharedState;
  logger: FastifyBaseLogger;
  clock: Clock;
}) {
  const cache = createSharedCache<Current>({
    state,
    name: 'settings',
    max: 1,
    ttlMs: SETTINGS_TTL_MS,
    logger,
  });

  /** A stored section as it is now valid; the defaults when none is stored or it no longer fits. */
  function valid<S extends SettingsSection>(section: S, stored: unknown): SectionValue<S> {
    const fallback = defaultSettings()[section];
    if (stored === undefined) return fallback;
    const parsed = SCHEMAS[section].safeParse(stored);
    if (parsed.success) return parsed.data;
    logger.error(
      { section, issues: parsed.error.issues.map((issue) => issue.path.join('.')) },
      'stored settings no longer valid: defaults used',
    );
    return fallback;
  }

  /** The settings last read: what a synchronous check uses (the defaults until the first read). */
  let known: Settings = defaultSettings();

  async function load(): Promise<Current> {
    const stored = await repo.readSettings({ db });
    const settings: Settings = {
      content: valid('content', stored.content),
      theme: valid('theme', stored.theme),
      system: valid('system', stored.system),
    };
    const view = publicSettingsOf(settings);
    const css = themeStylesheet(settings.theme);
    return { settings, public: tagged(view, JSON.stringify(view)), stylesheet: tagged(css, css) };
  }

  const current = async (): Promise<Current> => {
    const loaded = (await cache.load('all', load)) ?? (await load());
    known = loaded.settings;
    return loaded;
  };
  /** Told, on this instance, when what every page shows has changed (see onPublicChange). */
  const publicListeners = new Set<(view: PublicSettings) => void>();
  /** The public view last announced here (its ETag), and the newest read that may announce one. */
  let announcedEtag: string | undefined;
  let reads = 0;
  let announcedRead = 0;
  // A change made anywhere is read again at once, so that `known` follows it within moments and
  // this instance's listeners hear of it. Reads that end out of order announce nothing older.
  cache.onDrop(() => {
    const read = ++reads;
    current().then(
      (loaded) => {
        if (read < announcedRead) return;
        announcedRead = read;
        const changed = announcedEtag !== undefined && loaded.public.etag !== announcedEtag;
        announcedEtag = loaded.public.etag;
        if (changed) for (const listener of publicListeners) listener(loaded.public.value);
      },
      (error: unknown) => logger.error({ err: error }, 'settings could not be read again'),
    );
  });

  return {
    /** Reads the settings (at start, once the database is open). */
    preload: async (): Promise<void> => {
      announcedEtag ??= (await current()).public.etag;
    },

    /**
     * Calls `listener` on this instance once a change of the public settings (what
     * `GET /api/settings/public` answers), made here or on any other instance, is in force here,
     * with the new view. Saves that change nothing public (a session timeout) are not told.
     * Returns the unsubscribe function.
     */
    onPublicChange(listener: (view: PublicSettings) => void): () => void {
      publicListeners.add(listener);
      return () => void publicListeners.delete(listener);
    },

    /** The system section in force: at once from this instance's copy, else once read. */
    system(): MaybePromise<SystemSettings> {
      const cached = cache.peek('all');
      return cached ? cached.settings.system : current().then(({ settings }) => settings.system);
    },

    /** Whether the system is in maintenance: at once from this instance's copy, else once read. */
    maintenanceMode(): MaybePromise<boolean> {
      const cached = cache.peek('all');
      return cached
        ? cached.settings.system.maintenanceMode
        : current().then(({ settings }) => settings.system.maintenanceMode);
    },

    /** How long a session may stay idle, as last read: checked on every request, so never waits. */
    sessionTimeoutMs: (): number => known.system.sessionTimeout * 60_000,

    /** Every section, as in force. */
    get: async (): Promise<Settings> => (await current()).settings,

    /** What anyone may read, and its ETag. */
    getPublic: async (): Promise<Tagged<PublicSettings>> => (await current()).public,

    /** The theme's stylesheet (/theme.css), and its ETag. */
    getStylesheet: async (): Promise<Tagged<string>> => (await current()).stylesheet,

    /**
     * Stores a section (already validated), with an audit record of the fields it changed, in one
     * transaction; every instance has it in force once its copy is dropped, at once.
     */
    async save<S extends SettingsSection>({
      section,
      value,
      actor,
    }: {
      section: S;
      value: SectionValue<S>;
      actor: AuditActor;
    }) {
      await db.transaction(async (tx) => {
        const before = valid(section, await repo.readSection({ db: tx, section }));
        await repo.writeSection({ db: tx, section, value, by: actor.actorId });
        const changes = changedFields(before, value);
        if (Object.keys(changes).length > 0)
          await recordAudit(tx, {
            actor,
            at: clock.now(),
            action: `settings.${section}`,
            target: section,
            changes,
          });
      });
      await cache.invalidate('all');
      return value;
    },
  };
}

/**
 * The row of app_settings another feature keeps for itself (the AI provider's, `ai`: never part of
 * the settings anyone reads), read and written inside that feature's own transaction; in one, the
 * row read stays locked until it ends.
 */
export {
  readSection as readOwnSection,
  writeSection as writeOwnSection,
} from './settings.repository';
