import { LANGUAGES, type Language } from '@contrateia/shared/i18n/languages';
import type { ContentSettings } from '@contrateia/shared/settings/settings.schemas';
import i18next, { type ParseKeys, type TFunction } from 'i18next';
import { useEffect, useState, type KeyboardEvent } from 'react';
import { get, useForm, type FieldError, type FieldErrors, type Path } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { useSaveSettings } from '@/features/admin/api/save-settings';
import {
  SaveStatus,
  SettingsTab,
  useSaveStatus,
  WithSettings,
} from '@/features/admin/components/settings-section';
import { panelId, tabId, TabList } from '@/features/admin/components/tab-list';
import { contentResolver } from '@/features/admin/validation';
import { ApiError } from '@/lib/api-client';
import { applyServerErrors, useFieldErrorText } from '@/lib/form-errors';
import { loadLanguage, loadTexts } from '@/lib/i18n';
import { LANGUAGE_NAMES } from '@/lib/language';
import { cx } from '@/lib/cx';
import { useWarnBeforeLeaving } from '@/hooks/use-warn-before-leaving';

type Feature = keyof ContentSettings['features'];
/** A text of the content settings, held once per language. */
type TextName =
  Exclude<keyof ContentSettings, 'features'> | `features.${Feature}.${'title' | 'description'}`;

interface TextField {
  name: TextName;
  label: ParseKeys;
  /** The built-in text an empty field falls back to. */
  builtIn: ParseKeys;
  /** Up to 300 characters rather than a title's 100: a box of a few lines. */
  long?: boolean;
}

/** The texts in the form's order, in groups. */
const GROUPS: readonly { title: ParseKeys; fields: readonly TextField[] }[] = [
  {
    title: 'content.groups.app',
    fields: [
      { name: 'appTitle', label: 'content.fields.appTitle', builtIn: 'app.name' },
      { name: 'logoText', label: 'content.fields.logoText', builtIn: 'app.name' },
      { name: 'appSubtitle', label: 'content.fields.appSubtitle', builtIn: 'app.subtitle' },
    ],
  },
  {
    title: 'content.groups.login',
    fields: [
      { name: 'loginTitle', label: 'content.fields.loginTitle', builtIn: 'login.title' },
      {
        name: 'loginSubtitle',
        label: 'content.fields.loginSubtitle',
        builtIn: 'login.subtitle',
        long: true,
      },
    ],
  },
  {
    title: 'content.groups.register',
    fields: [
      { name: 'registerTitle', label: 'content.fields.registerTitle', builtIn: 'register.title' },
      {
        name: 'registerSubtitle',
        label: 'content.fields.registerSubtitle',
        builtIn: 'register.subtitle',
        long: true,
      },
    ],
  },
  {
    title: 'content.groups.features',
    fields: (['chat', 'analytics', 'management'] as const).flatMap((feature) => [
      {
        name: `features.${feature}.title` as const,
        label: `content.fields.${feature}Title` as const,
        builtIn: `login.features.${feature}.title` as const,
      },
      {
        name: `features.${feature}.description` as const,
        label: `content.fields.${feature}Description` as const,
        builtIn: `login.features.${feature}.description` as const,
        long: true,
      },
    ]),
  },
];

const TEXT_NAMES = GROUPS.flatMap((group) => group.fields.map((field) => field.name));

const fieldPath = (name: TextName, language: Language) =>
  `${name}.${language}` as Path<ContentSettings>;

/** Every field of the form: what the server's `errors` may name. */
const FIELD_PATHS = TEXT_NAMES.flatMap((name) =>
  LANGUAGES.map((language) => fieldPath(name, language)),
);

/** A field's error, from react-hook-form's nested errors. */
const errorAt = (errors: FieldErrors<ContentSettings>, path: string) =>
  get(errors, path) as FieldError | undefined;

function preventLineBreak(event: KeyboardEvent<HTMLTextAreaElement>) {
  if (event.key === 'Enter') event.preventDefault();
}

/**
 * The built-in texts in each language, which the placeholders show: the page has only its own
 * language's at first.
 */
function useBuiltInTexts(): Partial<Record<Language, TFunction>> {
  const [texts, setTexts] = useState<Partial<Record<Language, TFunction>>>({});
  useEffect(() => {
    let active = true;
    for (const language of LANGUAGES) {
      // The registration page's texts are a group of their own.
      Promise.all([loadLanguage(language), loadTexts('register', language)])
        .then(() => {
          if (active)
            setTexts((loaded) => ({ ...loaded, [language]: i18next.getFixedT(language) }));
        })
        .catch(() => {
          // Offline: the fields just have no placeholder in that language.
        });
    }
    return () => {
      active = false;
    };
  }, []);
  return texts;
}

/** Content Management: the pages' texts in each language. */
export function ContentTab() {
  const { t } = useTranslation();
  return (
    <SettingsTab title={t('panel.tabs.content')} intro={t('content.intro')}>
      <WithSettings>
        {(settings) => <ContentForm initial={settings.contentSettings} />}
      </WithSettings>
    </SettingsTab>
  );
}

function ContentForm({ initial }: { initial: ContentSettings }) {
  const { t, i18n } = useTranslation();
  const fieldErrorText = useFieldErrorText();
  const save = useSaveSettings('content');
  const status = useSaveStatus();
  const builtIn = useBuiltInTexts();
  // The texts of the page's language first: most admins write that one.
  const [language, setLanguage] = useState<Language>(
    LANGUAGES.find((candidate) => candidate === i18n.language) ?? 'pt-BR',
  );
  const [focusAfterSwitch, setFocusAfterSwitch] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    setFocus,
    reset,
    watch,
    formState: { errors, isDirty },
  } = useForm<ContentSettings>({
    resolver: contentResolver,
    defaultValues: initial,
    // The first error may be in a language not shown: handled below.
    shouldFocusError: false,
  });
  useWarnBeforeLeaving(isDirty);

  const firstErrorPath = (found: FieldErrors<ContentSettings>) =>
    FIELD_PATHS.find((path) => errorAt(found, path)?.message);

  /** Shows the language holding the first error and puts the cursor there. */
  const revealError = (path: string | undefined) => {
    if (!path) return;
    const inLanguage = LANGUAGES.find((candidate) => path.endsWith(`.${candidate}`));
    if (inLanguage) setLanguage(inLanguage);
    setFocusAfterSwitch(path);
  };

  // Once the language's fields are shown (not `hidden`), they can take the focus.
  useEffect(() => {
    if (!focusAfterSwitch) return;
    setFocus(focusAfterSwitch as Path<ContentSettings>);
    setFocusAfterSwitch(null);
  }, [focusAfterSwitch, setFocus]);

  const handleSave = handleSubmit(
    async (values) => {
      status.start();
      try {
        const saved = await save.mutateAsync(values);
        reset(saved);
        status.succeed(t('content.saved'));
      } catch (error) {
        if (error instanceof ApiError && error.errors) {
          // applyServerErrors focuses the first one; a hidden field cannot take it.
          const landed = applyServerErrors(setError, error.errors, FIELD_PATHS);
          if (landed) {
            status.fail(t('content.failed'));
            revealError(FIELD_PATHS.find((path) => error.errors?.[path]));
            return;
          }
        }
        status.fail(t('content.failed'), error);
      }
    },
    (found) => revealError(firstErrorPath(found)),
  );

  const languagesWithErrors = new Set(
    LANGUAGES.filter((candidate) =>
      TEXT_NAMES.some((name) => errorAt(errors, fieldPath(name, candidate))?.message),
    ),
  );

  return (
    <form className="admin-form" noValidate onSubmit={handleSave}>
      <SaveStatus saved={status.saved} error={status.error} />
      <TabList
        items={LANGUAGES.map((candidate) => ({
          id: candidate,
          label: (
            <span className={cx(languagesWithErrors.has(candidate) && 'admin-tabs__has-error')}>
              {languagesWithErrors.has(candidate)
                ? t('content.languageWithErrors', { language: LANGUAGE_NAMES[candidate] })
                : LANGUAGE_NAMES[candidate]}
            </span>
          ),
        }))}
        selected={language}
        onSelect={setLanguage}
        label={t('content.languagesLabel')}
        prefix="content-language"
        className="admin-tabs--small"
      />
      {LANGUAGES.map((candidate) => (
        <div
          key={candidate}
          role="tabpanel"
          id={panelId('content-language', candidate)}
          aria-labelledby={tabId('content-language', candidate)}
          hidden={candidate !== language}
          className="admin-form__languages"
        >
          {GROUPS.map((group) => (
            <fieldset key={group.title} className="admin-fieldset">
              <legend className="admin-fieldset__legend">{t(group.title)}</legend>
              {group.fields.map((field) => {
                const path = fieldPath(field.name, candidate);
                const id = `content-${path.replaceAll('.', '-')}`;
                const error = fieldErrorText(errorAt(errors, path));
                const builtInText = builtIn[candidate]?.(field.builtIn) ?? '';
                // The logo falls back to the admin's app title, when there is one.
                const placeholder =
                  field.name === 'logoText'
                    ? watch(`appTitle.${candidate}`).trim() || builtInText
                    : builtInText;
                const inputProps = {
                  id,
                  lang: candidate,
                  className: 'field__input',
                  placeholder,
                  'aria-invalid': error ? true : undefined,
                  'aria-describedby': error ? `${id}-error` : undefined,
                  ...register(path),
                };
                return (
                  <div key={field.name} className="field">
                    <label htmlFor={id} className="field__label">
                      {t(field.label)}
                    </label>
                    {field.long ? (
                      // One line of text (the schema takes no line breaks), wrapped to be read.
                      <textarea rows={2} onKeyDown={preventLineBreak} {...inputProps} />
                    ) : (
                      <input {...inputProps} />
                    )}
                    {error && (
                      <p id={`${id}-error`} className="field__error" role="alert">
                        {error}
                      </p>
                    )}
                  </div>
                );
              })}
            </fieldset>
          ))}
        </div>
      ))}
      <div className="admin-form__actions">
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? t('panel.saving') : t('content.save')}
        </Button>
      </div>
    </form>
  );
}
