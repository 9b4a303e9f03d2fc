import type { UseFormRegisterReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { TextField } from '@/components/ui/text-field';

/**
 * The new account's password and its confirmation: on step 1, and on the code step when it was
 * restored after a reload (the password is never stored, so it is typed again).
 */
export function NewPasswordFields({
  idPrefix,
  password,
  confirmPassword,
}: {
  idPrefix: string;
  password: { error?: string; registration: UseFormRegisterReturn };
  confirmPassword: { error?: string; registration: UseFormRegisterReturn };
}) {
  const { t } = useTranslation();
  return (
    <>
      <TextField
        id={`${idPrefix}-password`}
        label={t('register.passwordLabel')}
        placeholder={t('register.passwordPlaceholder')}
        type="password"
        autoComplete="new-password"
        error={password.error}
        {...password.registration}
      />
      <TextField
        id={`${idPrefix}-confirm-password`}
        label={t('register.confirmPasswordLabel')}
        placeholder={t('register.confirmPasswordPlaceholder')}
        type="password"
        autoComplete="new-password"
        error={confirmPassword.error}
        {...confirmPassword.registration}
      />
    </>
  );
}
