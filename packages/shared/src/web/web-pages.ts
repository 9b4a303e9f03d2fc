import { SEEDED_AGENT_NAMES } from '../agents/agent-names';

// No zod here, for the same reason as agent-names.ts.

/**
 * Every page of the web app a user can open, as paths. Agents' knowledge may link only to these
 * (a test walks every link of the seeded knowledge against this list), so a page added to the
 * web router is added here too, in the same change, before any knowledge points to it.
 */
export const WEB_PAGES: readonly string[] = [
  '/login',
  '/register',
  '/forgot-password',
  '/dashboard',
  '/my-agents',
  '/profile',
  '/whatsapp',
  '/whatsapp-enhanced',
  '/admin',
  '/monitor',
  '/images',
  '/logs',
  ...SEEDED_AGENT_NAMES.map((name) => `/${name}`),
];
