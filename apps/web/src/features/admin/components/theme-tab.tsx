import {
  COLOR_PATTERN,
  defaultSettings,
  THEME_COLORS,
  type ThemeColor,
  type ThemeSettings,
} from '@contrateia/shared/settings/settings.schemas';
import { useState, type CSSProperties } from 'react';
import { useForm, useWatch, type Control } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { useSaveSettings } from '@/features/admin/api/save-settings';
import {
  SaveStatus,
  SettingsTab,
  useSaveStatus,
  WithSettings,
} from '@/features/admin/components/settings-section';
import { lowContrastPairs } from '@/features/admin/contrast';
import { themeResolver } from '@/features/admin/validation';
import { ApiError } from '@/lib/api-client';
import { applyServerErrors, useFieldErrorText } from '@/lib/form-errors';
import { useWarnBeforeLeaving } from '@/hooks/use-warn-before-leaving';

/** Each theme colour and the design token it sets (as the server's /theme.css does). */
const TOKENS: Record<ThemeColor, string> = {
  primaryColor: '--color-primary',
  secondaryColor: '--color-secondary',
  backgroundColor: '--color-background',
  textColor: '--color-text',
  cardBackground: '--color-surface',
  buttonColor: '--color-primary-strong',
};

/** Theme Settings: the six colours, a live preview, the contrast check. */
export function ThemeTab() {
  const { t } = useTranslation();
  return (
    <SettingsTab title={t('panel.tabs.theme')} intro={t('theme.intro')}>
      <WithSettings>{(settings) => <ThemeForm initial={settings.themeSettings} />}</WithSettings>
    </SettingsTab>
  );
}

function ThemeForm({ initial }: { initial: ThemeSettings }) {
  const { t } = useTranslation();
  const fieldErrorText = useFieldErrorText();
  const save = useSaveSettings('theme');
  const status = useSaveStatus();
  const [confirmingReset, setConfirmingReset] = useState(false);
  const {
    register,
    handleSubmit,
    setError,
    setValue,
    reset,
    control,
    formState: { errors, isDirty },
  } = useForm<ThemeSettings>({ resolver: themeResolver, defaultValues: initial });
  useWarnBeforeLeaving(isDirty);

  const store = async (theme: ThemeSettings, done: string) => {
    status.start();
    try {
      const saved = await save.mutateAsync(theme);
      reset(saved);
      status.succeed(done);
      return true;
    } catch (error) {
      if (error instanceof ApiError && applyServerErrors(setError, error.errors, THEME_COLORS)) {
        status.fail(t('theme.failed'));
      } else {
        status.fail(t('theme.failed'), error);
      }
      return false;
    }
  };

  const handleSave = handleSubmit((theme) => store(theme, t('theme.saved')));

  const handleReset = async () => {
    const defaults = defaultSettings().theme;
    reset(defaults);
    await store(defaults, t('theme.resetDone'));
    setConfirmingReset(false);
  };

  return (
    <form className="admin-form" noValidate onSubmit={handleSave}>
      <SaveStatus saved={status.saved} error={status.error} />
      <div className="theme-layout">
        <fieldset className="admin-fieldset theme-colors">
          <legend className="visually-hidden">{t('panel.tabs.theme')}</legend>
          {THEME_COLORS.map((name) => {
            const id = `theme-${name}`;
            const error = fieldErrorText(errors[name]);
            const label = t(`theme.colors.${name}`);
            return (
              <div key={name} className="field theme-color">
                <label htmlFor={id} className="field__label">
                  {label}
                </label>
                <div className="theme-color__inputs">
                  <ColorPicker
                    control={control}
                    name={name}
                    label={t('theme.pickColor', { name: label })}
                    onPick={(value) =>
                      setValue(name, value, { shouldDirty: true, shouldValidate: true })
                    }
                  />
                  <input
                    id={id}
                    className="field__input theme-color__hex"
                    autoComplete="off"
                    spellCheck={false}
                    aria-invalid={error ? true : undefined}
                    aria-describedby={error ? `${id}-error` : undefined}
                    {...register(name)}
                  />
                </div>
                {error && (
                  <p id={`${id}-error`} className="field__error" role="alert">
                    {error}
                  </p>
                )}
              </div>
            );
          })}
        </fieldset>
        <div className="theme-side">
          <ThemePreview control={control} />
          <ContrastReport control={control} />
        </div>
      </div>
      <div className="admin-form__actions">
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? t('panel.saving') : t('theme.save')}
        </Button>
        <Button
          variant="secondary"
          disabled={save.isPending}
          onClick={() => setConfirmingReset(true)}
        >
          {t('theme.reset')}
        </Button>
      </div>
      {confirmingReset && (
        <ConfirmDialog
          title={t('theme.resetTitle')}
          cancelLabel={t('panel.cancel')}
          confirmLabel={save.isPending ? t('panel.saving') : t('theme.resetConfirm')}
          busy={save.isPending}
          onConfirm={() => void handleReset()}
          onClose={() => setConfirmingReset(false)}
        >
          <p>{t('theme.resetQuestion')}</p>
        </ConfirmDialog>
      )}
    </form>
  );
}

/** The browser's colour picker beside the hex field: shows the field's colour while it is valid. */
function ColorPicker({
  control,
  name,
  label,
  onPick,
}: {
  control: Control<ThemeSettings>;
  name: ThemeColor;
  label: string;
  onPick: (value: string) => void;
}) {
  const value = useWatch({ control, name });
  const valid = COLOR_PATTERN.test(value);
  return (
    <input
      type="color"
      className="theme-color__picker"
      aria-label={label}
      // A colour input holds lower-case #rrggbb only.
      value={valid ? value.toLowerCase() : '#000000'}
      onChange={(event) => onPick(event.target.value)}
    />
  );
}

/** The theme's colours while they are typed, valid ones only (the others keep the app's own). */
function useThemeValues(control: Control<ThemeSettings>): Partial<ThemeSettings> {
  const values = useWatch({ control });
  return Object.fromEntries(
    THEME_COLORS.flatMap((name) => {
      const value = values[name];
      return value && COLOR_PATTERN.test(value) ? [[name, value]] : [];
    }),
  );
}

/**
 * A small sign-in page and app card in the form's colours: the design tokens set on the preview
 * alone (admin.css derives the gradients and the link colour from them there).
 */
function ThemePreview({ control }: { control: Control<ThemeSettings> }) {
  const { t } = useTranslation();
  const theme = useThemeValues(control);
  const style = Object.fromEntries(
    Object.entries(theme).map(([name, value]) => [TOKENS[name as ThemeColor], value]),
  ) as CSSProperties;
  return (
    <figure className="theme-preview-figure">
      <figcaption className="theme-preview-figure__caption">{t('theme.previewTitle')}</figcaption>
      <div className="theme-preview" style={style} role="img" aria-label={t('theme.previewLabel')}>
        <div className="theme-preview__login">
          <div className="theme-preview__card">
            <p className="theme-preview__brand">{t('theme.preview.brand')}</p>
            <p className="theme-preview__heading">{t('theme.preview.heading')}</p>
            <p>{t('theme.preview.text')}</p>
            <p className="theme-preview__muted">{t('theme.preview.muted')}</p>
            <span className="theme-preview__link">{t('theme.preview.link')}</span>
            <span className="btn btn--primary theme-preview__button">
              {t('theme.preview.button')}
            </span>
          </div>
        </div>
        <p className="theme-preview__page">{t('theme.preview.page')}</p>
      </div>
    </figure>
  );
}

/** WCAG AA for every text and background pair of the form's colours: warnings, never a block. */
function ContrastReport({ control }: { control: Control<ThemeSettings> }) {
  const { t, i18n } = useTranslation();
  const warnings = lowContrastPairs(useThemeValues(control));
  const ratio = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 2 });
  return (
    <div className="theme-contrast" role="status">
      <h3 className="theme-contrast__title">{t('theme.contrastTitle')}</h3>
      {warnings.length === 0 ? (
        <p className="theme-contrast__ok">{t('theme.contrastOk')}</p>
      ) : (
        <>
          <ul className="theme-contrast__list">
            {warnings.map((warning) => (
              <li key={warning.pair}>
                {t('theme.contrastLow', {
                  pair: t(`theme.pairs.${warning.pair}`),
                  ratio: ratio.format(Math.floor(warning.ratio * 100) / 100),
                })}
              </li>
            ))}
          </ul>
          <p className="theme-contrast__note">{t('theme.contrastNote')}</p>
        </>
      )}
    </div>
  );
}
