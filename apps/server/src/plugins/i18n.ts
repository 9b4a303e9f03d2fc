import fp from 'fastify-plugin';
import type { Language } from '@contrateia/shared';
import { createTranslator, languageOf, timeZoneOf, type Translate } from '@/lib/i18n';

declare module 'fastify' {
  interface FastifyRequest {
    /** The caller's language, from Accept-Language (DESIGN.md). */
    language: Language;
    /** Translates into the caller's language. */
    t: Translate;
    /** The caller's IANA time zone: the web app's X-Time-Zone, else the language's default. */
    timeZone: string;
  }
}

/** `translate` is the app's translator, shared with what words texts outside requests (mail). */
export const i18nPlugin = fp<{ translate?: (language: Language) => Translate }>(
  async (app, { translate }) => {
    const translatorFor = translate ?? createTranslator();
    app.decorateRequest('language', 'pt-BR');
    app.decorateRequest('t', null as unknown as Translate);
    app.decorateRequest('timeZone', '');
    // Callback-style: on every request, an async hook would cost a promise and a turn.
    app.addHook('onRequest', (request, _reply, done) => {
      request.language = languageOf(request.headers['accept-language']);
      request.t = translatorFor(request.language);
      request.timeZone = timeZoneOf(request.headers['x-time-zone'], request.language);
      done();
    });
  },
  { name: 'i18n' },
);
