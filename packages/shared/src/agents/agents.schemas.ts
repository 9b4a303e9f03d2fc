import { z } from 'zod';
import { LANGUAGES, type Language } from '../i18n/languages';
import { textInput } from '../text/text.schemas';

export * from './agent-names';

/** An agent's name is its URL slug: lower-case letters, digits and dashes. */
export const agentNameSchema = textInput({ error: 'validation.agentNameRequired' })
  .trim()
  .min(1, 'validation.agentNameRequired')
  .max(40, 'validation.agentNameInvalid')
  .regex(/^[a-z0-9-]+$/, 'validation.agentNameInvalid');

/** An object with one `value` per interface language. */
function perLanguage<T extends z.ZodType>(value: T) {
  return z.object(Object.fromEntries(LANGUAGES.map((l) => [l, value])) as Record<Language, T>);
}

/** A text in each interface language. */
export const localizedTextSchema = perLanguage(z.string());
export type LocalizedText = z.infer<typeof localizedTextSchema>;

/** One thing an agent knows, in one language; the builtin engine searches these. */
export const knowledgeEntrySchema = z.object({
  id: z.string(),
  language: z.enum(LANGUAGES),
  title: z.string(),
  content: z.string(),
  keywords: z.array(z.string()).default([]),
  /** An in-app path the answer points to, e.g. /dashboard. */
  link: z.string().optional(),
  /**
   * The name of the document the entry was read from (an account's own agent's documents), so
   * that an answer can say where it comes from. Only the server writes it: no admin form has it.
   */
  source: z.string().optional(),
});
export type KnowledgeEntry = z.infer<typeof knowledgeEntrySchema>;

export const modelSettingsSchema = z.object({
  /** Overrides AI_MODEL for this agent when set. */
  model: z.string().nullable(),
  temperature: z.number().min(0).max(2),
  /** Upper bound of a reply, in characters. */
  maxReplyLength: z.number().int().min(50).max(20_000),
});
export type ModelSettings = z.infer<typeof modelSettingsSchema>;

/**
 * What the builtin engine can do for an agent besides answering from its knowledge. An agent is
 * what its configuration says: the engines know no agent by name.
 * - liveFacts: the system's figures (users, today's conversations and messages, database and
 *   mail state), given to admins only;
 * - calculation: arithmetic (+ − × ÷ and brackets);
 * - dateTime: today's date and the time now;
 * - catalogue: the products and prices of the configuration's `catalogue`;
 * - delivery: anonymous messages to phone numbers over the platform's WhatsApp (indirect): the
 *   WhatsApp feature sends, confirms and refuses them before the engine; the builtin engine says
 *   how to write one when a number comes in any other way.
 */
export const AGENT_SKILLS = [
  'liveFacts',
  'calculation',
  'dateTime',
  'catalogue',
  'delivery',
] as const;
export type AgentSkill = (typeof AGENT_SKILLS)[number];

/** What an agent says when nothing it knows or can do answers a question. */
export const AGENT_FALLBACKS = [
  /** "I found no answer to that in what I know", and some topics it knows. */
  'notFound',
  /** "I can't answer that yet" (not without a language model), and what it can do for now. */
  'cannotYet',
] as const;
export type AgentFallback = (typeof AGENT_FALLBACKS)[number];

export const agentCapabilitiesSchema = z.object({
  /** Tried in this order before the knowledge, and offered in this order when it suggests topics. */
  skills: z
    .array(z.enum(AGENT_SKILLS))
    .refine((skills) => new Set(skills).size === skills.length, 'validation.invalidValue'),
  fallback: z.enum(AGENT_FALLBACKS),
});
export type AgentCapabilities = z.infer<typeof agentCapabilitiesSchema>;

/** What a price is for: once, each month, or each employee each month. */
export const PRICE_UNITS = ['once', 'month', 'employeeMonth'] as const;
export type PriceUnit = (typeof PRICE_UNITS)[number];

/** A product or service an agent sells: its texts in each language and one price. */
export const catalogueItemSchema = z.object({
  id: z.string().min(1),
  name: localizedTextSchema,
  description: localizedTextSchema,
  keywords: perLanguage(z.array(z.string())),
  /** A number in the catalogue's currency; the engine writes it in the language of the answer. */
  price: z.number().finite().nonnegative(),
  unit: z.enum(PRICE_UNITS),
  /**
   * What the price is for in the seller's own words ("consulta", "mês"), said instead of `unit`;
   * empty: the price alone. An account's own agents have it (my-agents.ts).
   */
  unitText: z.string().optional(),
});
export type CatalogueItem = z.infer<typeof catalogueItemSchema>;

export const catalogueSchema = z.object({
  /** ISO 4217 code of every price, e.g. BRL. */
  currency: z.string().regex(/^[A-Z]{3}$/, 'validation.invalidValue'),
  items: z.array(catalogueItemSchema),
});
export type Catalogue = z.infer<typeof catalogueSchema>;

/**
 * When a business is open, as the engines read it (an account's own agent's, made from its
 * profile): weekly periods in its zone (several a day, none on a closed day) and the dates it
 * closes.
 */
/** A wall-clock time, "HH:MM" from 00:00 to 23:59. */
export const CLOCK_TIME = /^([01]\d|2[0-3]):[0-5]\d$/;

export const businessHoursSchema = z.object({
  /** The business's name: "a Clínica Sorriso abre sábado?" asks about its hours all the same. */
  name: z.string().optional(),
  timeZone: z.string(),
  hours: z.array(
    z.object({
      day: z.number().int().min(0).max(6),
      open: z.string().regex(CLOCK_TIME),
      close: z.string().regex(CLOCK_TIME),
    }),
  ),
  closedDates: z.array(z.string().regex(/^\d{4}-\d{2}-\d{2}$/)),
});
export type BusinessHours = z.infer<typeof businessHoursSchema>;

/** The whole configuration, as stored and as admins edit it. */
export const agentConfigurationSchema = z.object({
  instructions: z.string(),
  welcomeMessage: localizedTextSchema,
  model: modelSettingsSchema,
  knowledge: z.array(knowledgeEntrySchema),
  /** An agent an admin creates starts with no skills and answers from its knowledge only. */
  capabilities: agentCapabilitiesSchema.default({ skills: [], fallback: 'notFound' }),
  /** What the `catalogue` skill sells; the knowledge need not repeat it. */
  catalogue: catalogueSchema.optional(),
  /** When the business answers "are you open?" from; only an account's own agents have it. */
  business: businessHoursSchema.optional(),
  /**
   * Which revision of the server's configurationOf made an own agent's configuration from its
   * profile: one made by an older revision is made again at start.
   */
  ownRevision: z.number().int().optional(),
  /** New at each change of an own agent's configuration: what engines keep its index by. */
  stamp: z.string().optional(),
});
export type AgentConfiguration = z.infer<typeof agentConfigurationSchema>;

/**
 * A seeded agent's data file (apps/server/src/features/agents/seed/<name>.json). Stricter than
 * a stored configuration: the capabilities are stated rather than defaulted.
 */
export const agentSeedSchema = z.strictObject({
  /**
   * Raised with every change to the file: a database holding a lower version takes the file's
   * content at its next start, unless an admin has edited that agent.
   */
  seedVersion: z.number().int().positive(),
  displayName: localizedTextSchema,
  description: localizedTextSchema,
  adminOnly: z.boolean(),
  configuration: agentConfigurationSchema.extend({ capabilities: agentCapabilitiesSchema }),
});
export type AgentSeed = z.infer<typeof agentSeedSchema>;

/**
 * An agent as users see it: texts in the caller's language, and of the configuration only what
 * the chat page needs (the instructions and knowledge stay on the server).
 */
export const agentSchema = z.object({
  id: z.string(),
  name: z.string(),
  displayName: z.string(),
  description: z.string(),
  isActive: z.boolean(),
  createdAt: z.string(),
  configuration: z.object({ welcomeMessage: z.string() }),
  isHired: z.boolean(),
});
export type Agent = z.infer<typeof agentSchema>;

export const agentsResponseSchema = z.object({ agents: z.array(agentSchema) });
export type AgentsResponse = z.infer<typeof agentsResponseSchema>;

export const hireAgentSchema = z.object({
  agentId: textInput({ error: 'validation.agentIdRequired' })
    .trim()
    .min(1, 'validation.agentIdRequired')
    .max(100),
});
export type HireAgentInput = z.infer<typeof hireAgentSchema>;

export const hireAgentResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
  agent: agentSchema,
});
export type HireAgentResponse = z.infer<typeof hireAgentResponseSchema>;
