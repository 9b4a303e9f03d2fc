import {
  DEFAULT_BRAND_DOMAINS,
  DEFAULT_LANGUAGE,
  isLanguage,
  LANGUAGES,
  parseBrandDomains,
  type Language,
} from '@contrateia/shared/i18n/languages';

/**
 * Pure language rules (each language's brand domain, from BRAND_DOMAINS; the move to another
 * domain), kept free of `window` so they can be tested and reasoned about apart from the page.
 */

export type BrandDomains = Partial<Record<Language, string>>;

const LANG_PARAM = 'lang';

/** Each language's name for the selectors: endonyms, the same in every interface language. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  'pt-BR': 'Português (Brasil)',
  'en-US': 'English (US)',
  'es-ES': 'Español (España)',
};

/** The server fills the meta tag at serve time; under `vite` it still holds the placeholder. */
export function readBrandDomains(content: string | null | undefined): BrandDomains {
  const value = content?.trim();
  const usable = value && !/^__.*__$/.test(value);
  return parseBrandDomains(usable ? value : DEFAULT_BRAND_DOMAINS);
}

/** localhost, *.localhost and IP addresses: development and direct access, never redirected. */
export function isLocalHostname(hostname: string): boolean {
  const host = hostname.toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (/^\d{1,3}(\.\d{1,3}){3}$/.test(host)) return true;
  // IPv6: `location.hostname` keeps the brackets; a bare form has colons.
  return host.startsWith('[') || host.includes(':');
}

/** `www.` is treated as the same site, so www.contrateia.com.br is not sent elsewhere. */
function hostnameMatchesDomain(hostname: string, domain: string): boolean {
  const host = hostname.toLowerCase();
  return host === domain || host === `www.${domain}`;
}

function searchEntries(search: string): string[] {
  return search.replace(/^\?/, '').split('&').filter(Boolean);
}

function entryName(entry: string): string {
  const name = entry.split('=')[0] ?? '';
  try {
    return decodeURIComponent(name.replace(/\+/g, ' '));
  } catch {
    return name;
  }
}

/** The `lang` query value, if any. */
function readLangParam(search: string): string | null {
  return new URLSearchParams(search).get(LANG_PARAM);
}

/**
 * Removes `lang` from a query string, leaving every other parameter byte for byte (re-serialising
 * through URLSearchParams would re-encode them).
 */
export function withoutLangParam(search: string): string {
  const kept = searchEntries(search).filter((entry) => entryName(entry) !== LANG_PARAM);
  return kept.length ? `?${kept.join('&')}` : '';
}

export function withLangParam(search: string, language: Language): string {
  const kept = withoutLangParam(search);
  return `${kept ? `${kept}&` : '?'}${LANG_PARAM}=${language}`;
}

/**
 * The language to start in: a supported `?lang=` first (it is how a cross-domain switch names
 * the chosen language), then the brand domain being visited (keeping the stored language if it
 * belongs to this domain, since two languages can share one), then the stored choice, then pt-BR.
 */
export function detectLanguage({
  search,
  hostname,
  stored,
  domains,
}: {
  search: string;
  hostname: string;
  stored: string | null;
  domains: BrandDomains;
}): { language: Language; fromUrl: boolean } {
  const param = readLangParam(search);
  if (isLanguage(param)) return { language: param, fromUrl: true };

  const storedLanguage = isLanguage(stored) ? stored : undefined;
  const domainLanguages = LANGUAGES.filter((lang) => {
    const domain = domains[lang];
    return domain !== undefined && hostnameMatchesDomain(hostname, domain);
  });
  if (domainLanguages.length > 0) {
    const language =
      storedLanguage && domainLanguages.includes(storedLanguage)
        ? storedLanguage
        : domainLanguages[0];
    if (language) return { language, fromUrl: false };
  }
  return { language: storedLanguage ?? DEFAULT_LANGUAGE, fromUrl: false };
}

/**
 * The brand domain to move to for `target`, or undefined when the switch happens in place: the
 * target has no domain, we are already on it, or this is a local/IP host.
 */
export function redirectDomain({
  target,
  hostname,
  domains,
}: {
  target: Language;
  hostname: string;
  domains: BrandDomains;
}): string | undefined {
  const domain = domains[target];
  if (!domain || isLocalHostname(hostname) || hostnameMatchesDomain(hostname, domain)) {
    return undefined;
  }
  return domain;
}

/** Same path, query and hash on the other domain, plus `lang` so it knows which language. */
export function crossDomainUrl({
  location,
  domain,
  language,
}: {
  location: Pick<Location, 'protocol' | 'port' | 'pathname' | 'search' | 'hash'>;
  domain: string;
  language: Language;
}): string {
  const port = location.port ? `:${location.port}` : '';
  return `${location.protocol}//${domain}${port}${location.pathname}${withLangParam(location.search, language)}${location.hash}`;
}
