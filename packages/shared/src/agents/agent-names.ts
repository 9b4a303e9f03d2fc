// No zod here: the web's router imports these names into the code every page downloads first,
// and the schemas (agents.schemas.ts, which re-exports this file) would bring zod with them.

/** The agents seeded on first start (spec §1), in navigation order; admins may add more later. */
export const SEEDED_AGENT_NAMES = ['guia', 'assistente', 'auxtrat', 'administrador', 'indirect'] as const;
export type SeededAgentName = (typeof SEEDED_AGENT_NAMES)[number];

/** The agent whose conversations can be paired with a WhatsApp chat (Sync Agent). */
export const PAIRING_AGENT_NAME = 'auxtrat' satisfies SeededAgentName;

/** Every new account has this agent hired, so `/` always lands on a page the user may open. */
export const DEFAULT_AGENT_NAME: SeededAgentName = 'guia';
