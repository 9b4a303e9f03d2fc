import enUS from './en-US.json';
import esES from './es-ES.json';
import ptBR from './pt-BR.json';
import type { Language } from '../i18n/languages';

/**
 * Texts both ends need: validation messages (the zod schemas' keys), server messages and mail.
 * The web merges these into its own catalogue; the server translates its responses with them.
 */
export const sharedMessages: Record<Language, typeof enUS> = {
  'pt-BR': ptBR,
  'en-US': enUS,
  'es-ES': esES,
};
