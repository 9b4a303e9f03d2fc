import {
  DEFAULT_LANGUAGE,
  isLanguage,
  LANGUAGES,
  type Language,
} from '@contrateia/shared/i18n/languages';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { switchLanguage } from '@/lib/i18n';
import { LANGUAGE_NAMES } from '@/lib/language';

export type LanguageSelectorVariant = 'dropdown' | 'simple';

function useLanguageSwitch() {
  const { i18n } = useTranslation();
  const current: Language = isLanguage(i18n.language) ? i18n.language : DEFAULT_LANGUAGE;
  const [busy, setBusy] = useState(false);

  const handleSelect = async (target: Language) => {
    // Not disabling the controls while busy: that would drop the keyboard user's focus.
    if (target === current || busy) return;
    setBusy(true);
    try {
      await switchLanguage(target);
    } catch (error) {
      // Only the texts' chunk can fail to load here; the page stays usable in its language.
      console.error('Language switch failed', error);
    } finally {
      setBusy(false);
    }
  };

  return { current, busy, handleSelect };
}

/**
 * The language selector: `dropdown` is a labelled select for headers, `simple` a row of flag
 * buttons for the sign-in pages. Switching may move to another brand domain, after the user
 * confirms.
 */
export function LanguageSelector({ variant }: { variant: LanguageSelectorVariant }) {
  const { t } = useTranslation();
  const { current, busy, handleSelect } = useLanguageSwitch();
  const selectId = useId();

  if (variant === 'dropdown') {
    return (
      <div className="language-select">
        <label htmlFor={selectId} className="visually-hidden">
          {t('language.label')}
        </label>
        <select
          id={selectId}
          className="language-select__input"
          value={current}
          aria-busy={busy}
          onChange={(event) => {
            const target = event.target.value;
            if (isLanguage(target)) void handleSelect(target);
          }}
        >
          {LANGUAGES.map((language) => (
            <option key={language} value={language} lang={language}>
              {LANGUAGE_NAMES[language]}
            </option>
          ))}
        </select>
      </div>
    );
  }

  return (
    <div className="language-flags" role="group" aria-label={t('language.label')}>
      {LANGUAGES.map((language) => (
        <button
          key={language}
          type="button"
          className="language-flags__button"
          lang={language}
          aria-label={LANGUAGE_NAMES[language]}
          title={LANGUAGE_NAMES[language]}
          aria-pressed={language === current}
          onClick={() => void handleSelect(language)}
        >
          <span className="language-flags__flag" aria-hidden="true" />
        </button>
      ))}
    </div>
  );
}
