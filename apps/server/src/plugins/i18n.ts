import fp from 'fastify-plugin';
import type { Language } from '@contrateia/shared';
import { createTranslator, languageOf, type Translate } from '@/lib/i18n';

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller's language, from Accept-Language (DESIGN.md). */
    language: Language;
    /** Translates into the caller's language. */
    t: Translate;
  }
}

/** `translate` is the app's translator, shared with what words texts outside requests (mail). */
export const i18nPlugin = fp<{ translate?: (language: Language) => Translate }>(
  async (app, { translate }) => {
    const translatorFor = translate ?? createTranslator();
    app.decorateRequest('language', 'pt-BR');
    app.decorateRequest('t', null as unknown as Translate);
    app.addHook('onRequest', async (request) => {
      request.language = languageOf(request.headers['accept-language']);
      request.t = translatorFor(request.language);
    });
  },
  { name: 'i18n' },
);
