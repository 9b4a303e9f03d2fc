import { z } from 'zod';
import {
  agentCapabilitiesSchema,
  agentNameSchema,
  catalogueSchema,
  localizedTextSchema,
  modelSettingsSchema,
  PRICE_UNITS,
} from '../agents/agents.schemas';
import { emailSchema, nameSchema, passwordSchema, roleSchema } from '../auth/auth.schemas';
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '../i18n/languages';
import { textInput } from '../text/text.schemas';

/**
 * The admin panel's calls beyond the settings: agents, users, audit and the language model. Shared
 * by the server's validation and the panel's forms; messages are translation keys, as in
 * auth.schemas.ts.
 */

/* ------------------------------------------------------------------ agents */

export const AGENT_DISPLAY_NAME_MAX = 60;
export const AGENT_DESCRIPTION_MAX = 300;
export const AGENT_INSTRUCTIONS_MAX = 8000;
export const AGENT_WELCOME_MAX = 1000;
export const KNOWLEDGE_ENTRIES_MAX = 200;
/** The longest model name, of the language model's settings and of an agent's. */
export const AI_MODEL_MAX = 200;
export const KNOWLEDGE_TITLE_MAX = 200;
export const KNOWLEDGE_CONTENT_MAX = 4000;
export const KNOWLEDGE_KEYWORDS_MAX = 30;
export const CATALOGUE_ITEMS_MAX = 200;
export const CATALOGUE_PRICE_MAX = 1_000_000_000;

/**
 * Paths of the app an agent's name may not take: a custom agent's page is `/agent/{name}`, but a
 * name that is a route of the app would be confusing in links and logs.
 */
export const RESERVED_AGENT_NAMES: readonly string[] = [
  'login',
  'register',
  'forgot-password',
  'dashboard',
  'profile',
  'whatsapp',
  'whatsapp-enhanced',
  'admin',
  'logs',
  'images',
  'monitor',
  'agent',
  'agents',
  'api',
  'assets',
  'theme',
  'health',
  'socket-io',
];

/** A new agent's name: a slug of 2–40 `[a-z0-9-]`, not a route of the app. */
export const newAgentNameSchema = agentNameSchema
  .refine((name) => name.length >= 2, 'validation.agentNameInvalid')
  .refine((name) => !RESERVED_AGENT_NAMES.includes(name), 'adminValidation.agentNameReserved');

/** One schema per interface language. */
const perLanguage = <T extends z.ZodType>(make: () => T) =>
  z.strictObject(
    Object.fromEntries(LANGUAGES.map((language) => [language, make()])) as Record<Language, T>,
  );

/**
 * A text per language of which the default language's is required (trimmed, non-empty, at most
 * `max`); another left empty or out is the default language's: an admin writing Portuguese need
 * not translate before an agent is saved.
 */
const requiredInDefaultLanguage = (max: number, required: string, tooLong: string) =>
  z
    .strictObject(
      Object.fromEntries(
        LANGUAGES.map((language) => [
          language,
          language === DEFAULT_LANGUAGE
            ? textInput({ error: required }).trim().min(1, required).max(max, tooLong)
            : textInput().trim().max(max, tooLong).optional(),
        ]),
      ) as Record<Language, z.ZodOptional<z.ZodString>>,
    )
    .transform(
      (texts) =>
        Object.fromEntries(
          LANGUAGES.map((language) => [language, texts[language] || texts[DEFAULT_LANGUAGE]]),
        ) as Record<Language, string>,
    );

/** A text per language that may be empty (the welcome message falls back to a generic one). */
const optionalPerLanguage = (max: number, tooLong: string) =>
  perLanguage(() => textInput().trim().max(max, tooLong));

/** One word or phrase a question may be matched by (a knowledge entry's, a catalogue item's). */
const keyword = () => textInput().trim().min(1).max(60);

/**
 * The model settings of an agent as an admin writes them: a model's name is a name, bounded as
 * the language model's own (AI_MODEL_MAX), and null for the language model's.
 */
export const modelSettingsInputSchema = modelSettingsSchema.extend({
  model: textInput().trim().max(AI_MODEL_MAX, 'adminValidation.aiModelInvalid').nullable(),
});

/** A knowledge entry as an admin writes it; the server gives it an id when it has none. */
export const knowledgeEntryInputSchema = z.strictObject({
  id: textInput().max(100).optional(),
  language: z.enum(LANGUAGES, { error: 'validation.languageInvalid' }),
  title: textInput()
    .trim()
    .min(1, 'validation.titleRequired')
    .max(KNOWLEDGE_TITLE_MAX, 'adminValidation.knowledgeTitleTooLong'),
  content: textInput()
    .trim()
    .min(1, 'adminValidation.knowledgeContentRequired')
    .max(KNOWLEDGE_CONTENT_MAX, 'adminValidation.knowledgeContentTooLong'),
  keywords: z.array(keyword()).max(KNOWLEDGE_KEYWORDS_MAX).default([]),
  /** An in-app path (one of WEB_PAGES or `/agent/{name}` of an existing agent); checked by the server. */
  link: textInput().max(200).optional(),
});
export type KnowledgeEntryInput = z.infer<typeof knowledgeEntryInputSchema>;

/**
 * A list whose items' ids must differ (`id` of each; items without one are not compared): the
 * second of two alike gets the field error, on its id.
 */
const uniqueIds = <T extends { id?: string }>(items: T[], ctx: z.RefinementCtx) => {
  const seen = new Set<string>();
  items.forEach((item, index) => {
    const id = item.id?.trim();
    if (!id) return;
    if (seen.has(id))
      ctx.addIssue({ code: 'custom', path: [index, 'id'], message: 'adminValidation.idRepeated' });
    seen.add(id);
  });
};

/** A product or service of the catalogue as an admin writes it: catalogueItemSchema, bounded. */
export const catalogueItemInputSchema = z.strictObject({
  id: textInput({ error: 'adminValidation.catalogueItemIdInvalid' }).regex(
    /^[A-Za-z0-9_-]{1,60}$/,
    'adminValidation.catalogueItemIdInvalid',
  ),
  name: requiredInDefaultLanguage(
    KNOWLEDGE_TITLE_MAX,
    'adminValidation.catalogueItemNameRequired',
    'adminValidation.catalogueItemNameTooLong',
  ),
  description: optionalPerLanguage(
    KNOWLEDGE_CONTENT_MAX,
    'adminValidation.knowledgeContentTooLong',
  ),
  keywords: perLanguage(() => z.array(keyword()).max(KNOWLEDGE_KEYWORDS_MAX)),
  price: z
    .number({ error: 'adminValidation.priceInvalid' })
    .finite('adminValidation.priceInvalid')
    .min(0, 'adminValidation.priceInvalid')
    .max(CATALOGUE_PRICE_MAX, 'adminValidation.priceInvalid'),
  unit: z.enum(PRICE_UNITS, { error: 'validation.invalidValue' }),
});

/** What an agent with the `catalogue` skill sells (auxtrat's items and prices), as an admin writes it. */
export const catalogueInputSchema = z.strictObject({
  currency: textInput({ error: 'adminValidation.currencyInvalid' }).regex(
    /^[A-Z]{3}$/,
    'adminValidation.currencyInvalid',
  ),
  items: z
    .array(catalogueItemInputSchema)
    .max(CATALOGUE_ITEMS_MAX, 'adminValidation.catalogueTooMany')
    .superRefine(uniqueIds),
}) satisfies z.ZodType<z.infer<typeof catalogueSchema>>;
export type CatalogueInput = z.input<typeof catalogueInputSchema>;

/** An agent's configuration as an admin writes it. */
export const agentConfigurationInputSchema = z.strictObject({
  instructions: textInput()
    .trim()
    .max(AGENT_INSTRUCTIONS_MAX, 'adminValidation.instructionsTooLong'),
  welcomeMessage: optionalPerLanguage(AGENT_WELCOME_MAX, 'adminValidation.welcomeTooLong'),
  model: modelSettingsInputSchema,
  knowledge: z
    .array(knowledgeEntryInputSchema)
    .max(KNOWLEDGE_ENTRIES_MAX, 'adminValidation.knowledgeTooMany')
    .superRefine(uniqueIds),
  capabilities: agentCapabilitiesSchema.default({ skills: [], fallback: 'notFound' }),
  catalogue: catalogueInputSchema.optional(),
});
export type AgentConfigurationInput = z.input<typeof agentConfigurationInputSchema>;

/** POST /api/admin/agents. */
export const createAgentSchema = z.strictObject({
  /** Left out (or empty), the server makes it from the display name, as an own agent's. */
  name: textInput({ error: 'validation.agentNameInvalid' })
    .optional()
    .transform((name) => name || undefined)
    .pipe(newAgentNameSchema.optional()),
  displayName: requiredInDefaultLanguage(
    AGENT_DISPLAY_NAME_MAX,
    'adminValidation.displayNameRequired',
    'adminValidation.displayNameTooLong',
  ),
  description: requiredInDefaultLanguage(
    AGENT_DESCRIPTION_MAX,
    'adminValidation.descriptionRequired',
    'adminValidation.descriptionTooLong',
  ),
  configuration: agentConfigurationInputSchema,
  isActive: z.boolean({ error: 'validation.booleanRequired' }).default(true),
});
export type CreateAgentInput = z.input<typeof createAgentSchema>;

/**
 * PUT /api/admin/agents/{id}: everything but the name, which is the agent's address; `isActive`
 * absent leaves it as it is (an edit does not turn an inactive agent back on by omission).
 */
export const updateAgentSchema = createAgentSchema.omit({ name: true }).extend({
  isActive: z.boolean({ error: 'validation.booleanRequired' }).optional(),
});
export type UpdateAgentInput = z.input<typeof updateAgentSchema>;

/** PATCH /api/admin/agents/{id}/status, POST /api/admin/users/{id}/status. */
export const activeStatusSchema = z.strictObject({
  isActive: z.boolean({ error: 'validation.booleanRequired' }),
});
export type ActiveStatusInput = z.infer<typeof activeStatusSchema>;

/** An agent as the admin panel sees it: every language, the whole configuration, and its use. */
export const adminAgentSchema = z.object({
  id: z.string(),
  name: z.string(),
  displayName: localizedTextSchema,
  description: localizedTextSchema,
  isActive: z.boolean(),
  adminOnly: z.boolean(),
  /** One of the five seeded agents: it can be deactivated, never deleted. */
  seeded: z.boolean(),
  configuration: z.object({
    instructions: z.string(),
    welcomeMessage: localizedTextSchema,
    model: modelSettingsSchema,
    knowledge: z.array(
      knowledgeEntryInputSchema.extend({ id: z.string(), keywords: z.array(z.string()) }),
    ),
    capabilities: agentCapabilitiesSchema,
    catalogue: catalogueSchema.optional(),
  }),
  createdAt: z.string(),
  editedAt: z.string().nullable(),
  hires: z.number().int(),
  conversations: z.number().int(),
});
export type AdminAgent = z.infer<typeof adminAgentSchema>;

export const adminAgentsResponseSchema = z.object({ agents: z.array(adminAgentSchema) });
export type AdminAgentsResponse = z.infer<typeof adminAgentsResponseSchema>;

/** The answer of create, update and status change: the agent as saved. */
export const adminAgentResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  agent: adminAgentSchema,
});
export type AdminAgentResponse = z.infer<typeof adminAgentResponseSchema>;

/** POST /api/admin/chat/test: a test conversation, kept apart from users' conversations and stats. */
export const adminChatTestSchema = z.strictObject({
  message: textInput({ error: 'validation.messageRequired' })
    .trim()
    .min(1, 'validation.messageRequired')
    .max(4000, 'validation.messageTooLong'),
  agentName: agentNameSchema,
  conversationId: z.uuid({ error: 'validation.conversationIdInvalid' }).optional(),
});
export type AdminChatTestInput = z.infer<typeof adminChatTestSchema>;

export const adminChatTestResponseSchema = z.object({
  message: z.string(),
  conversation: z.object({ id: z.string() }),
});
export type AdminChatTestResponse = z.infer<typeof adminChatTestResponseSchema>;

/* ------------------------------------------------------------------ users */

export const ADMIN_PAGE_LIMIT = { default: 20, max: 100 };

const pageQuery = {
  limit: z.coerce
    .number({ error: 'validation.invalidValue' })
    .int('validation.invalidValue')
    .min(1, 'validation.invalidValue')
    .max(ADMIN_PAGE_LIMIT.max, 'validation.invalidValue')
    .default(ADMIN_PAGE_LIMIT.default),
  offset: z.coerce
    .number({ error: 'validation.invalidValue' })
    .int('validation.invalidValue')
    .min(0, 'validation.invalidValue')
    .max(1_000_000, 'validation.invalidValue')
    .default(0),
};

/** GET /api/admin/users?search=&limit=&offset= (search over name, e-mail and username). */
export const adminUsersQuerySchema = z.object({
  search: textInput().trim().max(200, 'validation.searchTooLong').default(''),
  ...pageQuery,
});
export type AdminUsersQuery = z.input<typeof adminUsersQuerySchema>;

export const adminUserSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  username: z.string(),
  role: roleSchema,
  originalRole: roleSchema,
  /** Set for a single-agent account: the one agent it has. */
  singleAgent: z.object({ id: z.string(), name: z.string(), displayName: z.string() }).nullable(),
  createdAt: z.string(),
  /** The latest activity of any of its sessions; null when it never signed in. */
  lastSeenAt: z.string().nullable(),
  isActive: z.boolean(),
});
export type AdminUser = z.infer<typeof adminUserSchema>;

export const adminUsersResponseSchema = z.object({
  users: z.array(adminUserSchema),
  total: z.number().int(),
});
export type AdminUsersResponse = z.infer<typeof adminUsersResponseSchema>;

/** POST /api/admin/users/single-agent: name, e-mail, password, an active agent. */
export const createSingleAgentUserSchema = z.strictObject({
  name: nameSchema,
  email: emailSchema,
  password: passwordSchema,
  agentId: textInput({ error: 'validation.agentIdRequired' })
    .trim()
    .min(1, 'validation.agentIdRequired')
    .max(100, 'validation.agentIdInvalid'),
});
export type CreateSingleAgentUserInput = z.infer<typeof createSingleAgentUserSchema>;

/** POST /api/admin/users/{id}/role. */
export const adminUserRoleSchema = z.strictObject({ role: roleSchema });
export type AdminUserRoleInput = z.infer<typeof adminUserRoleSchema>;

/** The answer of user creation and changes: the account as it now is. */
export const adminUserResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  user: adminUserSchema,
});
export type AdminUserResponse = z.infer<typeof adminUserResponseSchema>;

/* ------------------------------------------------------------------ audit */

/** GET /api/admin/audit?limit=&offset=, newest first. */
export const adminAuditQuerySchema = z.object(pageQuery);
export type AdminAuditQuery = z.input<typeof adminAuditQuerySchema>;

export const auditEntrySchema = z.object({
  id: z.string(),
  at: z.string(),
  /** Null once the admin's account is gone. */
  actor: z.object({ id: z.string(), name: z.string(), email: z.string() }).nullable(),
  /** e.g. `settings.theme`, `agent.create`, `user.role`, `ai.update`. */
  action: z.string(),
  target: z.string(),
  /** What the target is called now: an agent's display name, an account's name and e-mail; null for settings or a target gone. */
  targetName: z.string().nullable(),
  changes: z.record(z.string(), z.object({ before: z.unknown(), after: z.unknown() })),
  ip: z.string().nullable(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

export const adminAuditResponseSchema = z.object({
  entries: z.array(auditEntrySchema),
  total: z.number().int(),
});
export type AdminAuditResponse = z.infer<typeof adminAuditResponseSchema>;

/* ------------------------------------------------------------------ language model */

export const AI_PROVIDERS = ['builtin', 'openai'] as const;
export type AiProviderName = (typeof AI_PROVIDERS)[number];
export const AI_TIMEOUT_RANGE_MS = { min: 1000, max: 600_000 };

/** What GET /api/admin/ai answers: the key never, only whether one is set. */
export const aiSettingsSchema = z.object({
  provider: z.enum(AI_PROVIDERS),
  /** http(s) URL of an OpenAI-compatible API (…/v1); '' with the builtin provider. */
  baseUrl: z.string(),
  model: z.string(),
  apiKeySet: z.boolean(),
  timeoutMs: z.number().int(),
  /**
   * The provider's speech-to-text model (its POST /audio/transcriptions), which hears contacts'
   * voice notes; '' for none. Kept, but not used, while the builtin engine is chosen.
   */
  transcriptionModel: z.string(),
  /** The chat model can see images: a contact's photo goes to it. Not used with the builtin engine. */
  vision: z.boolean(),
});
export type AiSettings = z.infer<typeof aiSettingsSchema>;

/**
 * A transcription model's name as providers spell them (whisper-1, Systran/faster-whisper-small,
 * whisper:large-v3): letters, digits and . _ - / : @ +, no spaces. It is sent as a form field.
 */
export const AI_TRANSCRIPTION_MODEL_PATTERN = /^[A-Za-z0-9._\-/:@+]*$/;

const httpUrl = textInput()
  .trim()
  .max(500, 'adminValidation.baseUrlInvalid')
  .refine((value) => {
    if (value === '') return true;
    try {
      const url = new URL(value);
      // No query or fragment (the API's paths, /chat/completions, are appended to the address),
      // and no spaces or control characters, which the URL parser would silently drop.
      return (
        (url.protocol === 'http:' || url.protocol === 'https:') &&
        !url.username &&
        !url.password &&
        !/[?#\s\p{Cc}]/u.test(value)
      );
    } catch {
      return false;
    }
  }, 'adminValidation.baseUrlInvalid');

/**
 * POST /api/admin/ai (save) and POST /api/admin/ai/test (try these values without saving).
 * `apiKey`: absent keeps the saved key, '' removes it, anything else replaces it;
 * `transcriptionModel` and `vision`: absent keep what is saved.
 */
export const aiSettingsInputSchema = z
  .strictObject({
    provider: z.enum(AI_PROVIDERS, { error: 'adminValidation.aiProviderInvalid' }),
    baseUrl: httpUrl,
    model: textInput().trim().max(AI_MODEL_MAX, 'adminValidation.aiModelInvalid'),
    // Sent in an HTTP header: visible ASCII only (a pasted line break or space is refused, not sent).
    apiKey: textInput()
      .trim()
      .max(500, 'adminValidation.apiKeyTooLong')
      .regex(/^[\x21-\x7e]*$/, 'adminValidation.apiKeyInvalid')
      .optional(),
    timeoutMs: z
      .number({ error: 'adminValidation.aiTimeoutRange' })
      .int('adminValidation.aiTimeoutRange')
      .min(AI_TIMEOUT_RANGE_MS.min, 'adminValidation.aiTimeoutRange')
      .max(AI_TIMEOUT_RANGE_MS.max, 'adminValidation.aiTimeoutRange'),
    // Absent keeps what is saved: a client that does not know these fields never turns them off.
    transcriptionModel: textInput({ error: 'adminValidation.aiTranscriptionModelInvalid' })
      .trim()
      .max(AI_MODEL_MAX, 'adminValidation.aiTranscriptionModelInvalid')
      .regex(AI_TRANSCRIPTION_MODEL_PATTERN, 'adminValidation.aiTranscriptionModelInvalid')
      .optional(),
    vision: z.boolean({ error: 'adminValidation.aiVisionInvalid' }).optional(),
  })
  .superRefine((value, ctx) => {
    if (value.provider !== 'openai') return;
    if (!value.baseUrl)
      ctx.addIssue({
        code: 'custom',
        path: ['baseUrl'],
        message: 'adminValidation.baseUrlRequired',
      });
    if (!value.model)
      ctx.addIssue({ code: 'custom', path: ['model'], message: 'adminValidation.aiModelRequired' });
  });
export type AiSettingsInput = z.infer<typeof aiSettingsInputSchema>;

/**
 * Whether two base URLs name the same API, as the engine reaches it: the case of the scheme and
 * host, a default port and trailing slashes do not matter; any other difference does. The saved
 * API key goes only to the base URL it was saved with (the server refuses a test or save to
 * another one without the key typed again; the page says so as the address changes).
 */
export function sameBaseUrl(a: string, b: string): boolean {
  return normalizedBaseUrl(a) === normalizedBaseUrl(b);
}

function normalizedBaseUrl(value: string): string {
  try {
    const url = new URL(value.trim());
    return `${url.protocol}//${url.host}${url.pathname.replace(/\/+$/, '')}`;
  } catch {
    return value.trim();
  }
}

/** The answer of Test connection: a real one-line completion, or why it failed. */
export const aiTestResponseSchema = z.object({
  ok: z.boolean(),
  latencyMs: z.number().int(),
  /** The completion's text (ok), cut to 200 characters. */
  reply: z.string().optional(),
  /** Why it failed, in the admin's language (not ok). */
  error: z.string().optional(),
  /**
   * The transcription model's test (half a second of silence to hear), when one is set and the
   * chat model answered: whether it answered, how fast, and why not.
   */
  transcription: z
    .object({ ok: z.boolean(), latencyMs: z.number().int(), error: z.string().optional() })
    .optional(),
});
export type AiTestResponse = z.infer<typeof aiTestResponseSchema>;
