import type { RegisterFormInput } from '@contrateia/shared';
import { useState } from 'react';
import { useForm, type Path } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { LiveMessage } from '@/components/ui/live-message';
import { TextField } from '@/components/ui/text-field';
import { NewPasswordFields } from '@/features/auth/components/new-password-fields';
import { useCompleteRegistration } from '@/features/auth/api/complete-registration';
import { useSendOtp } from '@/features/auth/api/send-otp';
import { cooldownOf } from '@/features/auth/pending-registration';
import { registerFormResolver } from '@/features/auth/resolvers';
import { ApiError, errorMessage } from '@/lib/api-client';
import { applyServerErrors, useFieldErrorText } from '@/lib/form-errors';

const FIELDS = ['name', 'email', 'password', 'confirmPassword'] as const;

const EMPTY: RegisterFormInput = { name: '', email: '', password: '', confirmPassword: '' };

/** Registration step 1: the account details, then a code is e-mailed. */
export function RegisterDetailsForm({
  defaultValues = EMPTY,
  verifyEmail,
  onCodeSent,
  onCooldown,
  onRegistered,
}: {
  /** What the user typed before going back from step 2. */
  defaultValues?: RegisterFormInput;
  /** Whether the admin wants the address verified by a code (else the account is made at once). */
  verifyEmail: boolean;
  onCodeSent: (details: RegisterFormInput) => void;
  /**
   * A code went to this address under a minute ago (the server's cooldown): its code step, with
   * the server's "wait N seconds" and when that code was sent.
   */
  onCooldown: (details: RegisterFormInput, wait: { message: string; sentAt: number }) => void;
  /** Called with the new account's address (the admin turned verification off). */
  onRegistered: (email: string) => void;
}) {
  const { t } = useTranslation();
  const fieldErrorText = useFieldErrorText();
  const sendOtp = useSendOtp();
  const create = useCompleteRegistration();
  const [generalError, setGeneralError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    clearErrors,
    setError,
    formState: { errors },
  } = useForm<RegisterFormInput>({
    resolver: registerFormResolver,
    defaultValues,
    reValidateMode: 'onSubmit',
  });

  // Editing a field clears its error.
  const field = (name: Path<RegisterFormInput>) =>
    register(name, { onChange: () => clearErrors(name) });

  const handleSend = handleSubmit(async (details) => {
    setGeneralError(null);
    try {
      if (!verifyEmail) {
        await create.mutateAsync({
          name: details.name,
          email: details.email,
          password: details.password,
        });
        onRegistered(details.email);
        return;
      }
      await sendOtp.mutateAsync({ email: details.email, purpose: 'registration' });
      onCodeSent(details);
    } catch (error) {
      const cooldown = verifyEmail ? cooldownOf(error) : null;
      if (cooldown) {
        onCooldown(details, cooldown);
        return;
      }
      if (error instanceof ApiError && applyServerErrors(setError, error.errors, FIELDS)) return;
      setGeneralError(
        errorMessage(error, {
          failed: verifyEmail ? t('register.sendFailed') : t('register.failed'),
          network: t('register.networkError'),
        }),
      );
    }
  });

  const sending = sendOtp.isPending || create.isPending;

  return (
    <>
      <LiveMessage tone="error" message={generalError} />
      <form
        className="auth-form"
        noValidate
        onSubmit={handleSend}
        onFocus={registerFormResolver.preload}
      >
        <TextField
          id="register-name"
          label={t('register.nameLabel')}
          placeholder={t('register.namePlaceholder')}
          autoComplete="name"
          error={fieldErrorText(errors.name)}
          {...field('name')}
        />
        <TextField
          id="register-email"
          label={t('register.emailLabel')}
          placeholder={t('register.emailPlaceholder')}
          type="email"
          autoComplete="email"
          autoCapitalize="none"
          spellCheck={false}
          error={fieldErrorText(errors.email)}
          {...field('email')}
        />
        <NewPasswordFields
          idPrefix="register"
          password={{ error: fieldErrorText(errors.password), registration: field('password') }}
          confirmPassword={{
            error: fieldErrorText(errors.confirmPassword),
            registration: field('confirmPassword'),
          }}
        />
        <Button type="submit" block disabled={sending}>
          {verifyEmail
            ? sending
              ? t('register.sendingCode')
              : t('register.sendCode')
            : sending
              ? t('register.creating')
              : t('register.create')}
        </Button>
      </form>
      <p className="auth-switch">
        {t('register.haveAccount')} <Link to="/login">{t('register.signIn')}</Link>
      </p>
    </>
  );
}
