import {
  agentSeedSchema,
  SEEDED_AGENT_NAMES,
  type AgentSeed,
  type SeededAgentName,
} from '@contrateia/shared';
import administrador from './seed/administrador.json';
import assistente from './seed/assistente.json';
import auxtrat from './seed/auxtrat.json';
import guia from './seed/guia.json';
import indirect from './seed/indirect.json';

/**
 * The seeded agents' content is data, one file per agent in seed/: texts, instructions for a
 * language model, welcome messages, knowledge in three languages, capabilities and, for auxtrat,
 * the catalogue. Admins can edit all of it afterwards; a file is only the starting point, and a
 * newer version of it (seedVersion) reaches a database at its next start unless an admin has
 * edited that agent (see agents.service.ts, seed).
 */
export type SeededAgent = AgentSeed & { name: SeededAgentName };

// Keyed by every seeded name, so that a name added to SEEDED_AGENT_NAMES without its file is a
// type error here.
const FILES: Record<SeededAgentName, unknown> = {
  guia,
  assistente,
  auxtrat,
  administrador,
  indirect,
};

/**
 * The seed files, checked against the shared schema (which also gives them their types: JSON
 * imports are typed loosely). A broken file stops the start with a message naming it and the field.
 */
export function loadSeededAgents(): SeededAgent[] {
  return SEEDED_AGENT_NAMES.map((name) => {
    const parsed = agentSeedSchema.safeParse(FILES[name]);
    if (!parsed.success) throw new Error(`seed/${name}.json: ${parsed.error.message}`);
    return { name, ...parsed.data };
  });
}
