// Subpaths, not the package index: the index also builds the zod schemas, which only the
// form pages need.
import { DEFAULT_LANGUAGE, isLanguage, type Language } from '@contrateia/shared/i18n/languages';
import type { sharedMessages } from '@contrateia/shared/locales/index';
import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';
import {
  crossDomainUrl,
  detectLanguage,
  readBrandDomains,
  redirectDomain,
  withoutLangParam,
} from '@/lib/language';
import { readStorage, writeStorage } from '@/lib/storage';
import type webMessages from '@/locales/pt-BR.json';

const LANGUAGE_KEY = 'language';

type SharedMessages = (typeof sharedMessages)[Language];
/**
 * The sections of the shared catalogue the web shows: the schemas' validation messages and the
 * account messages it repeats. The others (server errors, mail, the engine's texts) are the
 * server's, and stay out of the download. lib/i18next.d.ts types the keys the same way.
 */
export type WebSharedMessages = Pick<SharedMessages, 'validation' | 'auth'>;
/** The shared messages of the admin's forms, loaded with the admin panel's texts. */
export type AdminSharedMessages = Pick<SharedMessages, 'adminValidation'>;
/** The shared messages of an own agent's form, loaded with the My agents pages' texts. */
export type MyAgentsSharedMessages = Pick<SharedMessages, 'myAgentValidation'>;
type Messages = WebSharedMessages & typeof webMessages;

// One chunk per language, with those shared sections and the web's texts every page may show
// (locales/<language>.json: the sign-in page, the language selector, the loading and error
// screens; vite.config.ts groups them): the page downloads only the language it shows. The texts
// of the other pages come with them (textGroups below). Each language's shared catalogue
// is imported on its own (not through `sharedMessages`, which holds all three), and only the
// sections named here are bundled.
const loaders: Record<Language, () => Promise<Messages>> = {
  'pt-BR': () =>
    Promise.all([
      import('@contrateia/shared/locales/pt-BR.json').then(({ validation, auth }) => ({
        validation,
        auth,
      })),
      import('@/locales/pt-BR.json'),
    ]).then(([shared, web]) => ({ ...shared, ...web.default })),
  'en-US': () =>
    Promise.all([
      import('@contrateia/shared/locales/en-US.json').then(({ validation, auth }) => ({
        validation,
        auth,
      })),
      import('@/locales/en-US.json'),
    ]).then(([shared, web]) => ({ ...shared, ...web.default })),
  'es-ES': () =>
    Promise.all([
      import('@contrateia/shared/locales/es-ES.json').then(({ validation, auth }) => ({
        validation,
        auth,
      })),
      import('@/locales/es-ES.json'),
    ]).then(([shared, web]) => ({ ...shared, ...web.default })),
};

function loadMessages(language: Language): Promise<Messages> {
  return loaders[language]();
}

/**
 * A group's texts together with one section of the shared catalogue that has a file of its own
 * (`adminValidation`, `myAgentValidation`), put under that section's name.
 */
export function withSharedSection<Texts extends object, Section extends string, Messages>(
  texts: Promise<{ default: Texts }>,
  section: Section,
  messages: Promise<{ default: Messages }>,
): Promise<{ default: Texts & Record<Section, Messages> }> {
  return Promise.all([texts, messages]).then(([loaded, shared]) => ({
    default: { ...loaded.default, [section]: shared.default } as Texts & Record<Section, Messages>,
  }));
}

/** A group's texts together with the shared catalogue's messages of the admin's forms. */
export function withAdminValidation<Texts extends object>(
  texts: Promise<{ default: Texts }>,
  messages: Promise<{ default: AdminSharedMessages['adminValidation'] }>,
): Promise<{ default: Texts & AdminSharedMessages }> {
  return withSharedSection(texts, 'adminValidation', messages);
}

// Texts only some pages show, in groups: a chunk per group and language, so /login's first
// download does not carry them (its budget is 120 KB gzip). The pages' route loaders
// (app/router.tsx) await their group before rendering.
const textGroups = {
  // The registration page (/register): not in /login's download, which is at its budget.
  register: {
    'pt-BR': () => import('@/locales/register/pt-BR.json'),
    'en-US': () => import('@/locales/register/en-US.json'),
    'es-ES': () => import('@/locales/register/es-ES.json'),
  },
  // The account pages: /profile and /forgot-password.
  account: {
    'pt-BR': () => import('@/locales/account/pt-BR.json'),
    'en-US': () => import('@/locales/account/en-US.json'),
    'es-ES': () => import('@/locales/account/es-ES.json'),
  },
  // The signed-in shell (app-layout.tsx) and every page in it: the dashboard, the agents' chats.
  app: {
    'pt-BR': () => import('@/locales/app/pt-BR.json'),
    'en-US': () => import('@/locales/app/en-US.json'),
    'es-ES': () => import('@/locales/app/es-ES.json'),
  },
  // The WhatsApp pages (/whatsapp, /whatsapp-enhanced).
  whatsapp: {
    'pt-BR': () => import('@/locales/whatsapp/pt-BR.json'),
    'en-US': () => import('@/locales/whatsapp/en-US.json'),
    'es-ES': () => import('@/locales/whatsapp/es-ES.json'),
  },
  // The admin panel (/admin), and the maintenance page and banner of the signed-in shell.
  // With the shared catalogue's messages for the admin's forms (adminValidation), which no other
  // page shows.
  admin: {
    'pt-BR': () =>
      withAdminValidation(
        import('@/locales/admin/pt-BR.json'),
        import('@contrateia/shared/locales/admin/pt-BR.json'),
      ),
    'en-US': () =>
      withAdminValidation(
        import('@/locales/admin/en-US.json'),
        import('@contrateia/shared/locales/admin/en-US.json'),
      ),
    'es-ES': () =>
      withAdminValidation(
        import('@/locales/admin/es-ES.json'),
        import('@contrateia/shared/locales/admin/es-ES.json'),
      ),
  },
} satisfies Record<string, TextLoaders>;

export type TextGroup = keyof typeof textGroups;

/** A group's texts in each language, each a chunk of its own. */
export type TextLoaders = Record<Language, () => Promise<{ default: object }>>;

/**
 * The groups of pages that bring their own loaders (an admin-only page's `texts`): the loaders'
 * code is in the page's chunk, not in every page's download.
 */
const pageGroups = new Map<string, TextLoaders>();

/** Makes a page's own group of texts loadable by name (by withPageTexts, and component tests). */
export function registerPageTexts(name: string, loaders: TextLoaders): void {
  pageGroups.set(name, loaders);
}

/**
 * A lazily loaded page that brings its own group of texts (its module's `texts`, registered as
 * `name`), with the shared `groups` it needs too: it renders with them there (for `React.lazy`).
 */
export function withPageTexts<T extends { texts: TextLoaders }>(
  name: string,
  module: Promise<T>,
  groups: readonly TextGroup[] = [],
): Promise<T> {
  return Promise.all([
    module.then((loaded) => {
      registerPageTexts(name, loaded.texts);
      return loadTexts(name).then(() => loaded);
    }),
    ...groups.map((group) => loadTexts(group)),
  ]).then(([loaded]) => loaded);
}

/**
 * A lazily loaded page or component together with its groups of texts: it renders with them
 * there (for `React.lazy`).
 */
export function withTexts<T>(
  groups: TextGroup | readonly TextGroup[],
  module: Promise<T>,
): Promise<T> {
  const wanted = typeof groups === 'string' ? [groups] : groups;
  return Promise.all([module, ...wanted.map((group) => loadTexts(group))]).then(
    ([loaded]) => loaded,
  );
}

/** The groups some page has loaded: a language switch loads them for the new language too. */
const wantedGroups = new Set<string>();

/** Adds a group of texts in `language` (the current one by default). */
export async function loadTexts(
  group: TextGroup | (string & {}),
  language: Language = getCurrentLanguage(),
): Promise<void> {
  const loaders = (textGroups as Record<string, TextLoaders>)[group] ?? pageGroups.get(group);
  if (!loaders) throw new Error(`no texts named ${group}`);
  wantedGroups.add(group);
  const { default: texts } = await loaders[language]();
  i18next.addResourceBundle(language, 'translation', texts, true, false);
}

function brandDomains() {
  const meta = document.querySelector<HTMLMetaElement>('meta[name="brand-domains"]');
  return readBrandDomains(meta?.content);
}

function applyDocumentLanguage(language: string) {
  document.documentElement.lang = language;
}

/** The interface language, for the API client's Accept-Language header. */
export function getCurrentLanguage(): Language {
  const language = i18next.language;
  return isLanguage(language) ? language : DEFAULT_LANGUAGE;
}

/**
 * Detects the language (detectLanguage), drops a `?lang=` from the address bar, loads that
 * language's texts and starts i18next. Must run before the router reads the URL.
 */
export async function initI18n(): Promise<void> {
  const { language, fromUrl } = detectLanguage({
    search: window.location.search,
    hostname: window.location.hostname,
    stored: readStorage(LANGUAGE_KEY),
    domains: brandDomains(),
  });
  if (fromUrl) {
    writeStorage(LANGUAGE_KEY, language);
    const { pathname, search, hash } = window.location;
    window.history.replaceState(
      window.history.state,
      '',
      `${pathname}${withoutLangParam(search)}${hash}`,
    );
  }
  applyDocumentLanguage(language);
  i18next.on('languageChanged', applyDocumentLanguage);

  const translation = await loadMessages(language);
  await i18next.use(initReactI18next).init({
    lng: language,
    // Every locale is complete (locales.test.ts); a fallback would only cost a download.
    fallbackLng: false,
    resources: { [language]: { translation } },
    interpolation: { escapeValue: false }, // React escapes.
    returnNull: false,
    // Enabled in production builds too: end-to-end tests run against the built app, and a raw
    // key on screen is a bug worth an error in any console.
    saveMissing: true,
    missingKeyHandler: (languages, namespace, key) => {
      console.error(`i18n: missing key "${key}" for ${languages.join(', ')} (${namespace})`);
    },
    missingInterpolationHandler: (text, value) => {
      console.error(`i18n: no value for "${String(value[0])}" in "${text}"`);
      return '';
    },
  });
}

/**
 * Makes the texts every page may show available in `language` too, without switching to it
 * (`i18next.getFixedT(language)` then reads them): for a page that shows the built-in texts of
 * every language, as the admin's content form does.
 */
export async function loadLanguage(language: Language): Promise<void> {
  if (i18next.hasResourceBundle(language, 'translation')) return;
  i18next.addResourceBundle(language, 'translation', await loadMessages(language));
}

export type LanguageSwitch = 'switched' | 'redirecting' | 'cancelled';

/**
 * Switches the interface language. When the target belongs to another brand domain the user
 * confirms and the page moves there (same path, query and hash); otherwise it switches in place.
 */
export async function switchLanguage(target: Language): Promise<LanguageSwitch> {
  const domain = redirectDomain({
    target,
    hostname: window.location.hostname,
    domains: brandDomains(),
  });
  if (domain) {
    if (!window.confirm(i18next.t('language.confirmRedirect', { domain }))) return 'cancelled';
    window.location.assign(crossDomainUrl({ location: window.location, domain, language: target }));
    return 'redirecting';
  }
  await loadLanguage(target);
  // Before the switch: no page re-renders in the new language without its texts.
  await Promise.all([...wantedGroups].map((group) => loadTexts(group, target)));
  await i18next.changeLanguage(target);
  writeStorage(LANGUAGE_KEY, target);
  return 'switched';
}
