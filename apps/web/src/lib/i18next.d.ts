import type { AdminSharedMessages, MyAgentsSharedMessages, WebSharedMessages } from '@/lib/i18n';
import type adminMessages from '@/locales/admin/pt-BR.json';
import type accountMessages from '@/locales/account/pt-BR.json';
import type appMessages from '@/locales/app/pt-BR.json';
import type monitorMessages from '@/locales/monitor/pt-BR.json';
import type imagesMessages from '@/locales/images/pt-BR.json';
import type logsMessages from '@/locales/logs/pt-BR.json';
import type myAgentsMessages from '@/locales/my-agents/pt-BR.json';
import type registerMessages from '@/locales/register/pt-BR.json';
import type webMessages from '@/locales/pt-BR.json';
import type whatsappMessages from '@/locales/whatsapp/pt-BR.json';

// Typed keys: a t('…') call with a key missing from the catalogue fails to compile. The web loads
// only some sections of the shared catalogue (lib/i18n.ts), so only those are keys here; the
// groups of texts that come with their pages (lib/i18n.ts textGroups) are keys too.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    returnNull: false;
    resources: {
      translation: WebSharedMessages &
        typeof webMessages &
        typeof registerMessages &
        typeof accountMessages &
        typeof appMessages &
        typeof whatsappMessages &
        typeof adminMessages &
        typeof monitorMessages &
        typeof imagesMessages &
        typeof logsMessages &
        typeof myAgentsMessages &
        AdminSharedMessages &
        MyAgentsSharedMessages;
    };
  }
}
