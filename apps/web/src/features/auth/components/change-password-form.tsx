import type { ChangePasswordInput } from '@contrateia/shared';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { LiveMessage } from '@/components/ui/live-message';
import { TextField } from '@/components/ui/text-field';
import { changePasswordResolver } from '@/features/auth/account-validation';
import { useChangePassword } from '@/features/auth/api/change-password';
import { ApiError, errorMessage } from '@/lib/api-client';
import { applyServerErrors, useFieldErrorText } from '@/lib/form-errors';

const EMPTY: ChangePasswordInput = { currentPassword: '', newPassword: '', confirmPassword: '' };

/** The current password, then the new one twice; every other session ends on success. */
export function ChangePasswordForm() {
  const { t } = useTranslation();
  const fieldErrorText = useFieldErrorText();
  const change = useChangePassword();
  const [notice, setNotice] = useState<string | null>(null);
  const [generalError, setGeneralError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors },
  } = useForm<ChangePasswordInput>({
    resolver: changePasswordResolver,
    defaultValues: EMPTY,
    reValidateMode: 'onSubmit',
  });

  const handleChange = handleSubmit(async (input) => {
    setNotice(null);
    setGeneralError(null);
    try {
      const { message } = await change.mutateAsync(input);
      reset(EMPTY);
      setNotice(message);
    } catch (error) {
      if (
        error instanceof ApiError &&
        applyServerErrors(setError, error.errors, [
          'currentPassword',
          'newPassword',
          'confirmPassword',
        ])
      )
        return;
      setGeneralError(errorMessage(error, { failed: t('profile.failed') }));
    }
  });

  return (
    <form
      className="profile-form"
      noValidate
      onSubmit={handleChange}
      aria-labelledby="profile-password-title"
    >
      <h2 id="profile-password-title" className="profile-card__title">
        {t('profile.passwordTitle')}
      </h2>
      <p className="profile-card__intro">{t('profile.passwordIntro')}</p>
      <LiveMessage tone="success" message={notice} />
      <LiveMessage tone="error" message={generalError} />
      <TextField
        id="profile-current-password"
        label={t('profile.currentPasswordLabel')}
        type="password"
        autoComplete="current-password"
        error={fieldErrorText(errors.currentPassword)}
        {...register('currentPassword')}
      />
      <TextField
        id="profile-new-password"
        label={t('profile.newPasswordLabel')}
        type="password"
        autoComplete="new-password"
        error={fieldErrorText(errors.newPassword)}
        {...register('newPassword')}
      />
      <TextField
        id="profile-confirm-password"
        label={t('profile.confirmPasswordLabel')}
        type="password"
        autoComplete="new-password"
        error={fieldErrorText(errors.confirmPassword)}
        {...register('confirmPassword')}
      />
      <Button type="submit" disabled={change.isPending}>
        {change.isPending ? t('profile.saving') : t('profile.changePassword')}
      </Button>
    </form>
  );
}
