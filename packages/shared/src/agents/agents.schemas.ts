import { z } from 'zod';
import { LANGUAGES } from '../i18n/languages';

/** The agents seeded on first start (spec §1); admins may add more later. */
export const SEEDED_AGENT_NAMES = ['guia', 'assistente', 'auxtrat', 'administrador', 'indirect'] as const;
export type SeededAgentName = (typeof SEEDED_AGENT_NAMES)[number];

/** An agent's name is its URL slug: lower-case letters, digits and dashes. */
export const agentNameSchema = z
  .string({ error: 'validation.agentNameRequired' })
  .trim()
  .min(1, 'validation.agentNameRequired')
  .max(40, 'validation.agentNameInvalid')
  .regex(/^[a-z0-9-]+$/, 'validation.agentNameInvalid');

/** A text in each interface language. */
export const localizedTextSchema = z.object(
  Object.fromEntries(LANGUAGES.map((l) => [l, z.string()])) as Record<(typeof LANGUAGES)[number], z.ZodString>,
);
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

/** The whole configuration, as stored and as admins edit it. */
export const agentConfigurationSchema = z.object({
  instructions: z.string(),
  welcomeMessage: localizedTextSchema,
  model: modelSettingsSchema,
  knowledge: z.array(knowledgeEntrySchema),
});
export type AgentConfiguration = z.infer<typeof agentConfigurationSchema>;

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
  agentId: z.string({ error: 'validation.agentIdRequired' }).trim().min(1, 'validation.agentIdRequired').max(100),
});
export type HireAgentInput = z.infer<typeof hireAgentSchema>;

export const hireAgentResponseSchema = z.object({ success: z.literal(true), message: z.string(), agent: agentSchema });
export type HireAgentResponse = z.infer<typeof hireAgentResponseSchema>;
