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

/** POST /api/admin/agents. */
export const createAgentResolver = zodResolver(createAgentSchema);

/**
 * PUT /api/admin/agents/{id}: the same form, whose name is shown but not editable. The name
 * passes through here and is left out of the request.
 */
export const editAgentResolver = zodResolver(updateAgentSchema.extend({ name: z.string() }));

export type AgentFormValues = z.input<typeof createAgentSchema>;
export type AgentFormOutput = z.output<typeof createAgentSchema>;

export const singleAgentUserResolver = zodResolver(createSingleAgentUserSchema);

export const aiSettingsResolver = zodResolver(aiSettingsInputSchema);
