import enUS from './en-US.json';
import esES from './es-ES.json';
import ptBR from './pt-BR.json';
import adminEnUS from './admin/en-US.json';
import adminEsES from './admin/es-ES.json';
import adminPtBR from './admin/pt-BR.json';
import logsEnUS from './logs/en-US.json';
import logsEsES from './logs/es-ES.json';
import logsPtBR from './logs/pt-BR.json';
import myAgentsEnUS from './my-agents/en-US.json';
import myAgentsEsES from './my-agents/es-ES.json';
import myAgentsPtBR from './my-agents/pt-BR.json';
import sandboxEnUS from './sandbox/en-US.json';
import sandboxEsES from './sandbox/es-ES.json';
import sandboxPtBR from './sandbox/pt-BR.json';
import type { Language } from '../i18n/languages';

/**
 * Texts both ends need: validation messages (the zod schemas' keys), server messages and mail.
 * The web merges these into its own catalogue; the server translates its responses with them.
 * The admin forms' messages (`adminValidation`) are files of their own, so that the web
 * downloads them only with the admin panel, and so are those of the account's own agents' form
 * (`myAgentValidation`), downloaded only with those pages. The stored log's messages
 * (`logMessages`: each event's text by its name, the values and field names it shows) are the
 * server's alone, and so are the WhatsApp sandbox's (`sandboxValidation`), a test transport no
 * page of the web sends through.
 */
export type SharedCatalogue = typeof enUS & {
  adminValidation: typeof adminEnUS;
  myAgentValidation: typeof myAgentsEnUS;
  logMessages: typeof logsEnUS;
  sandboxValidation: typeof sandboxEnUS;
};

export const sharedMessages: Record<Language, SharedCatalogue> = {
  'pt-BR': {
    ...ptBR,
    adminValidation: adminPtBR,
    myAgentValidation: myAgentsPtBR,
    logMessages: logsPtBR,
    sandboxValidation: sandboxPtBR,
  },
  'en-US': {
    ...enUS,
    adminValidation: adminEnUS,
    myAgentValidation: myAgentsEnUS,
    logMessages: logsEnUS,
    sandboxValidation: sandboxEnUS,
  },
  'es-ES': {
    ...esES,
    adminValidation: adminEsES,
    myAgentValidation: myAgentsEsES,
    logMessages: logsEsES,
    sandboxValidation: sandboxEsES,
  },
};
