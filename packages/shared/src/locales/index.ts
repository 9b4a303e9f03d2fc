import enUS from './en-US.json';
import esES from './es-ES.json';
import ptBR from './pt-BR.json';
import adminEnUS from './admin/en-US.json';
import adminEsES from './admin/es-ES.json';
import adminPtBR from './admin/pt-BR.json';
import type { Language } from '../i18n/languages';

/**
 * Texts both ends need: validation messages (the zod schemas' keys), server messages and mail.
 * The web merges these into its own catalogue; the server translates its responses with them.
 * The admin forms' messages (`adminValidation`) are files of their own, so that the web
 * downloads them only with the admin panel.
 */
export type SharedCatalogue = typeof enUS & { adminValidation: typeof adminEnUS };

export const sharedMessages: Record<Language, SharedCatalogue> = {
  'pt-BR': { ...ptBR, adminValidation: adminPtBR },
  'en-US': { ...enUS, adminValidation: adminEnUS },
  'es-ES': { ...esES, adminValidation: adminEsES },
};
