/** The interface languages, in order of preference; the first is the default. */
export const LANGUAGES = ['pt-BR', 'en-US', 'es-ES'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'pt-BR';

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (LANGUAGES as readonly string[]).includes(value);
}

/**
 * Maps one language tag to an interface language by its primary subtag (`pt*` → pt-BR,
 * `en*` → en-US, `es*` → es-ES); undefined when none fits.
 */
export function languageFromTag(tag: string): Language | undefined {
  const primary = tag.trim().toLowerCase().split('-')[0];
  if (primary === 'pt') return 'pt-BR';
  if (primary === 'en') return 'en-US';
  if (primary === 'es') return 'es-ES';
  return undefined;
}

/** Parses BRAND_DOMAINS (`pt-BR=contrateia.com.br,en-US=hireyourai.com`) into a language → domain map. */
export function parseBrandDomains(value: string): Partial<Record<Language, string>> {
  const map: Partial<Record<Language, string>> = {};
  for (const pair of value.split(',')) {
    const [lang, domain] = pair.split('=').map((s) => s.trim());
    if (isLanguage(lang) && domain) map[lang] = domain.toLowerCase();
  }
  return map;
}

export const DEFAULT_BRAND_DOMAINS =
  'pt-BR=contrateia.com.br,en-US=hireyourai.com,es-ES=hireyourai.com';
