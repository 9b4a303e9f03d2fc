import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import {
  AI_PROVIDERS,
  AI_TIMEOUT_RANGE_MS,
  sameBaseUrl,
  type AiSettings,
  type AiSettingsInput,
  type Language,
} from '@contrateia/shared';
import type { Db } from '@/db/client';
import type { SecretBox } from '@/lib/secrets';
import { createSharedCache } from '@/lib/shared-cache';
import type { SharedState } from '@/lib/shared-state';
import type { Clock } from '@/lib/clock';
import type { EngineConfig, ProviderCheck } from './ai.service';
import {
  changedFields,
  recordAudit,
  type AuditActor,
  type AuditChanges,
} from '@/features/audit/audit.service';
import { readOwnSection, writeOwnSection } from '@/features/settings/settings.service';
import { apiKeyRetype } from './ai.errors';

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
  /**
   * The base URL the key was saved with, the only one it is sent to (it may differ from
   * `baseUrl` while the builtin engine is chosen). Absent from rows saved before it was kept:
   * their own base URL then.
   */
  keyBaseUrl: z.string().optional(),
  /** Absent from rows saved before they were kept: none, and no vision. */
  transcriptionModel: z.string().default(''),
  vision: z.boolean().default(false),
});
type Stored = z.infer<typeof storedSchema>;

/** The provider's settings with the key in the clear, as they are in force: kept in memory only. */
type Plain = Omit<Stored, 'apiKey' | 'keyBaseUrl'> & {
  apiKey: string | undefined;
  keyBaseUrl: string;
};

type InForce = { plain: Plain; settings: AiSettings; config: EngineConfig };

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
 * leaves this service but towards the provider at the base URL it was saved with (the AI_API_KEY,
 * AI_BASE_URL's): the panel sees only whether one is set, the audit only that it changed.
 */
export function createAiSettingsService({
  db,
  state,
  logger,
  box,
  clock,
  initial,
  check,
}: {
  db: Db;
  state: SharedState;
  logger: FastifyBaseLogger;
  box: SecretBox;
  /** The time of each saved change, as the audit records it. */
  clock: Clock;
  /** The AI_* variables: in force while no admin has saved. */
  initial: EngineConfig;
  /** One real completion through a provider (checkProvider, wired in ai.module.ts). */
  check: (config: EngineConfig, language: Language) => Promise<ProviderCheck>;
}) {
  const cache = createSharedCache<InForce>({
    state,
    name: 'ai-settings',
    max: 1,
    ttlMs: AI_SETTINGS_TTL_MS,
    logger,
  });

  const fromEnvironment: Plain = {
    provider: initial.provider,
    baseUrl: initial.baseUrl ?? '',
    model: initial.model ?? '',
    timeoutMs: initial.timeoutMs,
    apiKey: initial.apiKey || undefined,
    // AI_API_KEY goes to AI_BASE_URL alone, like a key an admin saved.
    keyBaseUrl: initial.baseUrl ?? '',
    transcriptionModel: initial.transcriptionModel ?? '',
    vision: initial.vision ?? false,
  };

  /** The stored row in the clear; the AI_* variables when there is none or it no longer fits. */
  function plainOf(stored: unknown): Plain {
    if (stored === undefined) return fromEnvironment;
    const parsed = storedSchema.safeParse(stored);
    if (!parsed.success) {
      logger.error(
        { issues: parsed.error.issues.map((issue) => issue.path.join('.')) },
        'stored AI settings no longer valid: the AI_* variables are used',
      );
      return fromEnvironment;
    }
    const { apiKey: sealed, keyBaseUrl, ...rest } = parsed.data;
    const fields = { ...rest, keyBaseUrl: keyBaseUrl ?? rest.baseUrl };
    if (sealed === null) return { ...fields, apiKey: undefined };
    try {
      return { ...fields, apiKey: box.open(sealed, KEY_PURPOSE) };
    } catch {
      logger.error(
        "the stored AI API key cannot be opened with this server's secret (was JWT_SECRET changed?): none is sent until an admin enters it again",
      );
      return { ...fields, apiKey: undefined };
    }
  }

  const viewOf = ({
    provider,
    baseUrl,
    model,
    timeoutMs,
    apiKey,
    transcriptionModel,
    vision,
  }: Plain): AiSettings => ({
    provider,
    baseUrl,
    model,
    timeoutMs,
    apiKeySet: apiKey !== undefined,
    transcriptionModel,
    vision,
  });

  const configOf = (plain: Plain): EngineConfig => ({
    provider: plain.provider,
    baseUrl: plain.baseUrl || undefined,
    model: plain.model || undefined,
    // Never to another address than the key's, whatever a row says.
    apiKey: sameBaseUrl(plain.baseUrl, plain.keyBaseUrl) ? plain.apiKey : undefined,
    timeoutMs: plain.timeoutMs,
    transcriptionModel: plain.transcriptionModel || undefined,
    vision: plain.vision,
  });

  /**
   * The input's values with the key it names: '' removes it, a typed one replaces it (for the
   * input's base URL), absent keeps `before`'s, but only for the base URL it was saved with: a
   * model server at another address must be given the key again (400), or an admin's session
   * would be enough to send the saved key anywhere.
   */
  function plainFrom(input: AiSettingsInput, before: Plain): Plain {
    const fields = {
      provider: input.provider,
      baseUrl: input.baseUrl,
      model: input.model,
      timeoutMs: input.timeoutMs,
      transcriptionModel: input.transcriptionModel ?? before.transcriptionModel,
      vision: input.vision ?? before.vision,
    };
    if (input.apiKey !== undefined)
      return { ...fields, apiKey: input.apiKey || undefined, keyBaseUrl: input.baseUrl };
    if (before.apiKey === undefined)
      return { ...fields, apiKey: undefined, keyBaseUrl: input.baseUrl };
    // The builtin engine sends no key anywhere: the key stays with its address for later.
    if (input.provider === 'openai' && !sameBaseUrl(input.baseUrl, before.keyBaseUrl)) {
      throw apiKeyRetype();
    }
    return { ...fields, apiKey: before.apiKey, keyBaseUrl: before.keyBaseUrl };
  }

  async function load(): Promise<InForce> {
    const plain = plainOf(await readOwnSection({ db, section: SECTION }));
    return { plain, settings: viewOf(plain), config: configOf(plain) };
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
    async save({
      input,
      actor,
    }: {
      input: AiSettingsInput;
      actor: AuditActor;
    }): Promise<AiSettings> {
      const saved = await db.transaction(async (tx) => {
        const before = plainOf(await readOwnSection({ db: tx, section: SECTION }));
        const after = plainFrom(input, before);
        const { apiKey, keyBaseUrl, ...fields } = after;
        const stored: Stored = {
          ...fields,
          keyBaseUrl,
          apiKey: apiKey === undefined ? null : box.seal(apiKey, KEY_PURPOSE),
        };
        await writeOwnSection({ db: tx, section: SECTION, value: stored, by: actor.actorId });
        const { apiKey: _key, keyBaseUrl: _keyBaseUrl, ...beforeFields } = before;
        const changes: AuditChanges = changedFields(beforeFields, fields);
        if (before.apiKey !== after.apiKey) {
          changes.apiKey = {
            before: before.apiKey === undefined ? KEY_NOT_SET : KEY_SET,
            after:
              after.apiKey === undefined
                ? KEY_NOT_SET
                : before.apiKey === undefined
                  ? KEY_SET
                  : KEY_REPLACED,
          };
        }
        if (Object.keys(changes).length > 0)
          await recordAudit(tx, {
            actor,
            at: clock.now(),
            action: 'ai.update',
            target: SECTION,
            changes,
          });
        return after;
      });
      await cache.invalidate(SECTION);
      return viewOf(saved);
    },

    /**
     * Test connection: one completion with these values, not saved. Without a key in the input,
     * the key in force is used as saving would keep it: only for the base URL it was saved with.
     */
    async test({
      input,
      language,
    }: {
      input: AiSettingsInput;
      language: Language;
    }): Promise<ProviderCheck> {
      const { plain } = await current();
      return check(configOf(plainFrom(input, plain)), language);
    },
  };
}
