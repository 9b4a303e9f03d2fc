import type { Language } from './languages';

/**
 * The header in which the web app sends the browser's IANA time zone (`America/Sao_Paulo`), so
 * that "today", "this week" and the time an agent tells are the user's.
 */
export const TIME_ZONE_HEADER = 'X-Time-Zone';

/**
 * The zone each language's brand assumes when the client sends none (or an unknown one):
 * Brasília for pt-BR, Madrid for es-ES, and UTC for en-US, whose users are anywhere.
 */
export const DEFAULT_TIME_ZONES: Record<Language, string> = {
  'pt-BR': 'America/Sao_Paulo',
  'en-US': 'UTC',
  'es-ES': 'Europe/Madrid',
};
