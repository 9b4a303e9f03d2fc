import i18next, { type TFunction } from 'i18next';
import Negotiator from 'negotiator';
import {
  DEFAULT_TIME_ZONES,
  LANGUAGES,
  languageFromTag,
  sharedMessages,
  type Language,
} from '@contrateia/shared';

export type Translate = TFunction;

/** One i18next instance per app over the shared catalogue (validation, errors, auth, mail). */
export function createTranslator(): (language: Language) => Translate {
  const instance = i18next.createInstance();
  void instance.init({
    resources: Object.fromEntries(
      LANGUAGES.map((lng) => [lng, { translation: sharedMessages[lng] }]),
    ),
    lng: 'pt-BR',
    fallbackLng: 'pt-BR',
    initAsync: false,
    interpolation: { escapeValue: false },
  });
  const fixed = new Map(LANGUAGES.map((lng) => [lng, instance.getFixedT(lng)]));
  return (language) => fixed.get(language) ?? instance.getFixedT(language);
}

/**
 * The caller's language from Accept-Language: the best-weighted tag that maps to pt-BR, en-US or
 * es-ES (`pt*`, `en*`, `es*`), else pt-BR (DESIGN.md).
 */
export function languageOf(acceptLanguage: string | undefined): Language {
  if (!acceptLanguage) return 'pt-BR';
  const tags = new Negotiator({ headers: { 'accept-language': acceptLanguage } }).languages();
  for (const tag of tags) {
    const language = languageFromTag(tag);
    if (language) return language;
  }
  return 'pt-BR';
}

// Intl's own list of zones, plus UTC, which some runtimes list only as Etc/UTC.
let knownZones: ReadonlySet<string> | undefined;

/**
 * The caller's time zone from the web app's X-Time-Zone header when it is a zone this runtime
 * knows, else the language's default (America/Sao_Paulo for pt-BR).
 */
export function timeZoneOf(header: string | string[] | undefined, language: Language): string {
  knownZones ??= new Set([...Intl.supportedValuesOf('timeZone'), 'UTC']);
  const zone = Array.isArray(header) ? header[0] : header;
  return zone && knownZones.has(zone) ? zone : DEFAULT_TIME_ZONES[language];
}
