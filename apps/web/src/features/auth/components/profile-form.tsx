import { LANGUAGES, type UpdateProfileInput } from '@contrateia/shared';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { LiveMessage } from '@/components/ui/live-message';
import { TextField } from '@/components/ui/text-field';
import { profileResolver } from '@/features/auth/account-validation';
import { useUpdateProfile } from '@/features/auth/api/profile';
import { ApiError, errorMessage } from '@/lib/api-client';
import { applyServerErrors, useFieldErrorText } from '@/lib/form-errors';
import { LANGUAGE_NAMES } from '@/lib/language';

/** Name and preferred language (kept on the account; mails are written in it). */
export function ProfileForm({ defaultValues }: { defaultValues: UpdateProfileInput }) {
  const { t } = useTranslation();
  const fieldErrorText = useFieldErrorText();
  const update = useUpdateProfile();
  const [notice, setNotice] = useState<string | null>(null);
  const [generalError, setGeneralError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<UpdateProfileInput>({
    resolver: profileResolver,
    defaultValues,
    reValidateMode: 'onSubmit',
  });

  const handleSave = handleSubmit(async (input) => {
    setNotice(null);
    setGeneralError(null);
    try {
      const { message } = await update.mutateAsync(input);
      setNotice(message);
    } catch (error) {
      if (
        error instanceof ApiError &&
        applyServerErrors(setError, error.errors, ['name', 'language'])
      )
        return;
      setGeneralError(errorMessage(error, { failed: t('profile.failed') }));
    }
  });

  return (
    <form
      className="profile-form"
      noValidate
      onSubmit={handleSave}
      aria-labelledby="profile-details-title"
    >
      <h2 id="profile-details-title" className="profile-card__title">
        {t('profile.detailsTitle')}
      </h2>
      <LiveMessage tone="success" message={notice} />
      <LiveMessage tone="error" message={generalError} />
      <TextField
        id="profile-name"
        label={t('profile.nameLabel')}
        autoComplete="name"
        error={fieldErrorText(errors.name)}
        {...register('name')}
      />
      <div className="field">
        <label htmlFor="profile-language" className="field__label">
          {t('profile.languageLabel')}
        </label>
        <select
          id="profile-language"
          className="field__input"
          aria-describedby="profile-language-hint"
          {...register('language')}
        >
          {LANGUAGES.map((language) => (
            <option key={language} value={language}>
              {LANGUAGE_NAMES[language]}
            </option>
          ))}
        </select>
        <p id="profile-language-hint" className="field__hint">
          {t('profile.languageHint')}
        </p>
      </div>
      <Button type="submit" disabled={update.isPending}>
        {update.isPending ? t('profile.saving') : t('profile.save')}
      </Button>
    </form>
  );
}
