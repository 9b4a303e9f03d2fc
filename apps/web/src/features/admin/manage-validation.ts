import { zodResolver } from '@hookform/resolvers/zod';
import {
  aiSettingsInputSchema,
  createAgentSchema,
  createSingleAgentUserSchema,
  updateAgentSchema,
} from '@contrateia/shared';
import { z } from 'zod';

// The panel's resolvers, from the shared schemas the server validates with. Imported only by the
// admin panel's chunk.

/**
 * The agent form, new or edited, always says whether the agent is active (it has the checkbox),
 * whether or not the request requires it.
 */
const formActive = { isActive: z.boolean() };
const newAgentFormSchema = createAgentSchema.extend(formActive);

/** POST /api/admin/agents. */
export const createAgentResolver = zodResolver(newAgentFormSchema);

/**
 * PUT /api/admin/agents/{id}: the same form, whose name is shown but not editable. The name
 * passes through here and is left out of the request.
 */
export const editAgentResolver = zodResolver(
  updateAgentSchema.extend({ name: z.string().optional(), ...formActive }),
);

export type AgentFormValues = z.input<typeof newAgentFormSchema>;
export type AgentFormOutput = z.output<typeof newAgentFormSchema>;

export const singleAgentUserResolver = zodResolver(createSingleAgentUserSchema);

export const aiSettingsResolver = zodResolver(aiSettingsInputSchema);
