import type { sharedMessages } from '@contrateia/shared';
import type webMessages from '@/locales/pt-BR.json';

// Typed keys: a t('…') call with a key missing from the catalogue fails to compile.
declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    returnNull: false;
    resources: { translation: (typeof sharedMessages)['pt-BR'] & typeof webMessages };
  }
}
