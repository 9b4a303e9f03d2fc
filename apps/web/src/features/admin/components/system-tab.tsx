import {
  ALLOWED_FILE_TYPES_MAX,
  MAX_FILE_SIZE_MB,
  SESSION_TIMEOUT_RANGE,
  type SystemSettings,
} from '@contrateia/shared/settings/settings.schemas';
import type { ParseKeys } from 'i18next';
import { useState, type KeyboardEvent } from 'react';
import {
  get,
  useController,
  useForm,
  type Control,
  type FieldError,
  type FieldErrors,
  type Path,
  type UseFormRegister,
} from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { TextField } from '@/components/ui/text-field';
import { useSaveSettings } from '@/features/admin/api/save-settings';
import {
  SaveStatus,
  SettingsTab,
  useSaveStatus,
  WithSettings,
} from '@/features/admin/components/settings-section';
import { PlatformNumber } from '@/features/admin/components/platform-number';
import { fileTypeSchema, systemResolver } from '@/features/admin/validation';
import { ApiError } from '@/lib/api-client';
import { applyServerErrors, useFieldErrorText } from '@/lib/form-errors';
import { useWarnBeforeLeaving } from '@/hooks/use-warn-before-leaving';

type Flag = 'maintenanceMode' | 'registrationEnabled' | 'emailVerification';
const FLAGS: readonly Flag[] = ['maintenanceMode', 'registrationEnabled', 'emailVerification'];

/** Every field the server's `errors` may name, one allowed file type included. */
const FIELD_PATHS: readonly Path<SystemSettings>[] = [
  ...FLAGS,
  'sessionTimeout',
  'maxFileSize',
  'allowedFileTypes',
  ...Array.from(
    { length: ALLOWED_FILE_TYPES_MAX + 1 },
    (_, index) => `allowedFileTypes.${index}` as const,
  ),
];

/** System Settings: maintenance, registration, sessions and uploads. */
export function SystemTab() {
  const { t } = useTranslation();
  return (
    <SettingsTab title={t('panel.tabs.system')} intro={t('system.intro')}>
      <PlatformNumber />
      <WithSettings>{(settings) => <SystemForm saved={settings.systemSettings} />}</WithSettings>
    </SettingsTab>
  );
}

/** `saved`: the settings in force, which the form started from (and is reset to after a save). */
function SystemForm({ saved }: { saved: SystemSettings }) {
  const { t } = useTranslation();
  const fieldErrorText = useFieldErrorText();
  const save = useSaveSettings('system');
  const status = useSaveStatus();
  // Settings waiting for the admin to confirm turning maintenance on.
  const [confirming, setConfirming] = useState<SystemSettings | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    reset,
    control,
    formState: { errors, isDirty },
  } = useForm<SystemSettings>({ resolver: systemResolver, defaultValues: saved });
  useWarnBeforeLeaving(isDirty);

  const store = async (values: SystemSettings) => {
    status.start();
    try {
      reset(await save.mutateAsync(values));
      status.succeed(t('system.saved'));
    } catch (error) {
      if (error instanceof ApiError && applyServerErrors(setError, error.errors, FIELD_PATHS)) {
        status.fail(t('system.failed'));
      } else {
        status.fail(t('system.failed'), error);
      }
    }
  };

  const handleSave = handleSubmit(async (values) => {
    // Shutting everyone else out is asked first.
    if (values.maintenanceMode && !saved.maintenanceMode) setConfirming(values);
    else await store(values);
  });

  const handleConfirm = async () => {
    if (confirming) await store(confirming);
    setConfirming(null);
  };

  const numberField = (
    name: 'sessionTimeout' | 'maxFileSize',
    range: { min: number; max: number },
  ) => {
    const id = `system-${name}`;
    const error = fieldErrorText(errors[name]);
    return (
      <div className="admin-number-field">
        <TextField
          id={id}
          label={t(`system.${name}`)}
          error={error}
          type="number"
          inputMode="numeric"
          min={range.min}
          max={range.max}
          step={1}
          className="admin-number"
          aria-describedby={error ? `${id}-error ${id}-hint` : `${id}-hint`}
          {...register(name, { valueAsNumber: true })}
        />
        <p id={`${id}-hint`} className="field__hint">
          {t(`system.${name}Hint`)}
        </p>
      </div>
    );
  };

  return (
    <form className="admin-form" noValidate onSubmit={handleSave}>
      <SaveStatus saved={status.saved} error={status.error} />
      <fieldset className="admin-fieldset">
        <legend className="admin-fieldset__legend">{t('system.accessTitle')}</legend>
        {FLAGS.map((name) => (
          <Switch
            key={name}
            name={name}
            register={register}
            label={t(`system.${name}`)}
            hint={t(`system.${name}Hint`)}
          />
        ))}
      </fieldset>
      <fieldset className="admin-fieldset">
        <legend className="admin-fieldset__legend">{t('system.filesTitle')}</legend>
        {numberField('sessionTimeout', SESSION_TIMEOUT_RANGE)}
        {numberField('maxFileSize', MAX_FILE_SIZE_MB)}
        <FileTypes control={control} errors={errors} />
      </fieldset>
      <div className="admin-form__actions">
        <Button type="submit" disabled={save.isPending}>
          {save.isPending ? t('panel.saving') : t('system.save')}
        </Button>
      </div>
      {confirming && (
        <ConfirmDialog
          title={t('system.maintenanceTitle')}
          cancelLabel={t('panel.cancel')}
          confirmLabel={save.isPending ? t('panel.saving') : t('system.maintenanceConfirm')}
          busy={save.isPending}
          onConfirm={() => void handleConfirm()}
          onClose={() => setConfirming(null)}
        >
          <p>{t('system.maintenanceQuestion')}</p>
        </ConfirmDialog>
      )}
    </form>
  );
}

/** An on/off setting: a checkbox that screen readers announce as a switch. */
function Switch({
  name,
  register,
  label,
  hint,
}: {
  name: Flag;
  register: UseFormRegister<SystemSettings>;
  label: string;
  hint: string;
}) {
  const id = `system-${name}`;
  return (
    <div className="admin-switch">
      <input
        id={id}
        type="checkbox"
        role="switch"
        className="admin-switch__input"
        aria-describedby={`${id}-hint`}
        {...register(name)}
      />
      <label htmlFor={id} className="admin-switch__label">
        {label}
      </label>
      <p id={`${id}-hint`} className="admin-switch__hint field__hint">
        {hint}
      </p>
    </div>
  );
}

/** The first error of the file types: of the list itself, else of one of them. */
function fileTypesError(errors: FieldErrors<SystemSettings>): FieldError | undefined {
  const own = get(errors, 'allowedFileTypes') as FieldError | undefined;
  if (own?.message) return own;
  for (let index = 0; index <= ALLOWED_FILE_TYPES_MAX; index += 1) {
    const item = get(errors, `allowedFileTypes.${index}`) as FieldError | undefined;
    if (item?.message) return item;
  }
  return undefined;
}

/** The allowed file types as removable chips, and a box that adds one (or several: "png, svg"). */
function FileTypes({
  control,
  errors,
}: {
  control: Control<SystemSettings>;
  errors: FieldErrors<SystemSettings>;
}) {
  const { t } = useTranslation();
  const fieldErrorText = useFieldErrorText();
  const { field } = useController({ control, name: 'allowedFileTypes' });
  const [draft, setDraft] = useState('');
  const [problem, setProblem] = useState<ParseKeys | null>(null);
  const types = field.value;
  const error = problem ? t(problem) : fieldErrorText(fileTypesError(errors));
  const inputId = 'system-allowedFileTypes';

  const add = () => {
    const entered = draft
      .split(/[\s,;]+/)
      .map((type) => type.trim().toLowerCase().replace(/^\./, ''))
      .filter(Boolean);
    if (entered.length === 0) return;
    const next = [...types];
    for (const type of entered) {
      if (!fileTypeSchema.safeParse(type).success)
        return setProblem('adminValidation.fileTypeInvalid');
      if (next.includes(type)) return setProblem('adminValidation.fileTypesRepeated');
      next.push(type);
    }
    if (next.length > ALLOWED_FILE_TYPES_MAX) return setProblem('adminValidation.fileTypesTooMany');
    setProblem(null);
    setDraft('');
    field.onChange(next);
  };

  const handleKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return;
    // Adds the type instead of sending the form.
    event.preventDefault();
    add();
  };

  return (
    <div className="field" role="group" aria-labelledby={`${inputId}-title`}>
      <p id={`${inputId}-title`} className="field__label">
        {t('system.allowedFileTypes')}
      </p>
      <ul className="admin-chips">
        {types.map((type) => (
          <li key={type} className="admin-chip">
            <span>{type}</span>
            <button
              type="button"
              className="admin-chip__remove"
              aria-label={t('system.removeFileType', { type })}
              onClick={() => {
                setProblem(null);
                field.onChange(types.filter((other) => other !== type));
              }}
            >
              <span aria-hidden="true">×</span>
            </button>
          </li>
        ))}
      </ul>
      <div className="admin-chips__add">
        <label htmlFor={inputId} className="visually-hidden">
          {t('system.newFileType')}
        </label>
        <input
          id={inputId}
          ref={field.ref}
          className="field__input"
          value={draft}
          autoComplete="off"
          spellCheck={false}
          placeholder={t('system.newFileType')}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${inputId}-error ${inputId}-hint` : `${inputId}-hint`}
          onChange={(event) => {
            setProblem(null);
            setDraft(event.target.value);
          }}
          onBlur={field.onBlur}
          onKeyDown={handleKeyDown}
        />
        <Button variant="secondary" onClick={add}>
          {t('system.addFileType')}
        </Button>
      </div>
      <p id={`${inputId}-hint`} className="field__hint">
        {t('system.allowedFileTypesHint')}
      </p>
      {error && (
        <p id={`${inputId}-error`} className="field__error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
