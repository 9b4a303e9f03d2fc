import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { AI_PROVIDERS, AI_TIMEOUT_RANGE_MS, type AiSettings, type AiSettingsInput, type Language } from '@contrateia/shared';
import type { Db } from '@/db/client';
import type { SecretBox } from '@/lib/secrets';
import { createSharedCache } from '@/lib/shared-cache';
import type { SharedState } from '@/lib/shared-state';
import type { EventLog } from '@/lib/event-log';
import type { EngineConfig, ProviderCheck } from '@/features/ai/ai.service';
import { createAuditTrail } from './admin.audit';
import * as repo from './admin.repository';
import type { AuditChanges } from './admin.table';

/** The row of app_settings that holds the provider: never part of the settings anyone else reads. */
const SECTION = 'ai';
/** What the API key is sealed for (its associated data): it opens as nothing else. */
const KEY_PURPOSE = 'ai.apiKey';

/** The row as stored: the API key sealed with the app's secret (lib/secrets.ts), or null. */
const storedSchema = z.object({
  provider: z.enum(AI_PROVIDERS),
  baseUrl: z.string(),
  model: z.string(),
  timeoutMs: z.number().int().min(AI_TIMEOUT_RANGE_MS.min).max(AI_TIMEOUT_RANGE_MS.max),
  apiKey: z.string().nullable(),
});
type Stored = z.infer<typeof storedSchema>;

/** The provider's settings with the key in the clear, as they are in force: kept in memory only. */
type Plain = Omit<Stored, 'apiKey'> & { apiKey: string | undefined };

type InForce = { settings: AiSettings; config: EngineConfig };

/** How an audit record shows the key: whether there was one, never any of it. */
const KEY_SET = '(set)';
const KEY_NOT_SET = '(not set)';
const KEY_REPLACED = '(replaced)';

/** How stale an instance's copy can be if an invalidation is ever lost. */
const AI_SETTINGS_TTL_MS = 60_000;

export type AiSettingsService = ReturnType<typeof createAiSettingsService>;

/**
 * The language model's provider as the admin sets it (Admin, AI): the AI_* variables until an
 * admin saves, then the `ai` row of app_settings, with the API key sealed. Cached on every instance
 * and dropped everywhere when saved, so that the next reply on any instance uses it. The key never
 * leaves this service but towards the provider: the panel sees only whether one is set, the audit
 * only that it changed.
 */
export function createAiSettingsService({
  db,
  state,
  logger,
  box,
  initial,
  check,
  eventLog,
}: {
  db: Db;
  state: SharedState;
  logger: FastifyBaseLogger;
  box: SecretBox;
  /** The stored log: each saved change, as the audit has it (never the key). */
  eventLog: EventLog;
  /** The AI_* variables: in force while no admin has saved. */
  initial: EngineConfig;
  /** One real completion through a provider (the ai feature's checkProvider, wired in app.ts). */
  check: (config: EngineConfig, language: Language) => Promise<ProviderCheck>;
}) {
  const audit = createAuditTrail({ eventLog });
  const cache = createSharedCache<InForce>({ state, name: 'ai-settings', max: 1, ttlMs: AI_SETTINGS_TTL_MS, logger });

  const fromEnvironment: Plain = {
    provider: initial.provider,
    baseUrl: initial.baseUrl ?? '',
    model: initial.model ?? '',
    timeoutMs: initial.timeoutMs,
    apiKey: initial.apiKey || undefined,
  };

  /** The stored row in the clear; the AI_* variables when there is none or it no longer fits. */
  function plainOf(stored: unknown): Plain {
    if (stored === undefined) return fromEnvironment;
    const parsed = storedSchema.safeParse(stored);
    if (!parsed.success) {
      logger.error({ issues: parsed.error.issues.map((issue) => issue.path.join('.')) }, 'stored AI settings no longer valid: the AI_* variables are used');
      return fromEnvironment;
    }
    const { apiKey: sealed, ...rest } = parsed.data;
    if (sealed === null) return { ...rest, apiKey: undefined };
    try {
      return { ...rest, apiKey: box.open(sealed, KEY_PURPOSE) };
    } catch {
      logger.error('the stored AI API key cannot be opened with this server\'s secret (was JWT_SECRET changed?): none is sent until an admin enters it again');
      return { ...rest, apiKey: undefined };
    }
  }

  const viewOf = ({ apiKey, ...rest }: Plain): AiSettings => ({ ...rest, apiKeySet: apiKey !== undefined });

  const configOf = (plain: Plain): EngineConfig => ({
    provider: plain.provider,
    baseUrl: plain.baseUrl || undefined,
    model: plain.model || undefined,
    apiKey: plain.apiKey,
    timeoutMs: plain.timeoutMs,
  });

  /** The input's values with the key it names: absent keeps `kept`, '' removes it. */
  const plainFrom = (input: AiSettingsInput, kept: string | undefined): Plain => ({
    provider: input.provider,
    baseUrl: input.baseUrl,
    model: input.model,
    timeoutMs: input.timeoutMs,
    apiKey: input.apiKey === undefined ? kept : input.apiKey || undefined,
  });

  async function load(): Promise<InForce> {
    const plain = plainOf(await repo.readSection({ db, section: SECTION }));
    return { settings: viewOf(plain), config: configOf(plain) };
  }

  const current = async (): Promise<InForce> => (await cache.load(SECTION, load)) ?? (await load());

  return {
    /** Reads the settings (at start, once the database is open), so the first reply need not. */
    preload: async (): Promise<void> => {
      await current();
    },

    /** What the panel shows: the key never, only whether one is set. */
    get: async (): Promise<AiSettings> => (await current()).settings,

    /** The provider in force, key included: what the engine answers with. */
    engineConfig: async (): Promise<EngineConfig> => (await current()).config,

    /**
     * Stores the settings (already validated), with an audit record of the fields changed, in one
     * transaction; every instance uses them from its next reply on.
     */
    async save({ input, actorId, ip, requestId }: { input: AiSettingsInput; actorId: string; ip?: string; requestId?: string }): Promise<AiSettings> {
      const saved = await audit.change(requestId, (record) =>
        db.transaction(async (tx) => {
          const before = plainOf(await repo.readSection({ db: tx, section: SECTION }));
          const after = plainFrom(input, before.apiKey);
          const { apiKey, ...fields } = after;
          const stored: Stored = { ...fields, apiKey: apiKey === undefined ? null : box.seal(apiKey, KEY_PURPOSE) };
          await repo.writeSection({ db: tx, section: SECTION, value: stored, by: actorId });
          const { apiKey: _before, ...beforeFields } = before;
          const changes: AuditChanges = repo.changedFields(beforeFields, fields);
          if (before.apiKey !== after.apiKey) {
            changes.apiKey = {
              before: before.apiKey === undefined ? KEY_NOT_SET : KEY_SET,
              after: after.apiKey === undefined ? KEY_NOT_SET : before.apiKey === undefined ? KEY_SET : KEY_REPLACED,
            };
          }
          if (Object.keys(changes).length > 0) await record(tx, { actorId, action: 'ai.update', target: SECTION, changes, ip });
          return after;
        }),
      );
      await cache.invalidate(SECTION);
      return viewOf(saved);
    },

    /**
     * Test connection: one completion with these values, not saved. Without a key in the input,
     * the key in force is used, as saving would keep it.
     */
    async test({ input, language }: { input: AiSettingsInput; language: Language }): Promise<ProviderCheck> {
      const { config } = await current();
      return check(configOf(plainFrom(input, config.apiKey)), language);
    },
  };
}
