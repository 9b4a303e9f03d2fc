import type { ForgotPasswordInput, ResetPasswordInput } from '@contrateia/shared';
import { useEffect, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Trans, useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { LiveMessage } from '@/components/ui/live-message';
import { TextField } from '@/components/ui/text-field';
import { forgotPasswordResolver, resetPasswordResolver } from '@/features/auth/account-validation';
import { useForgotPassword, useResetPassword } from '@/features/auth/api/reset-password';
import { AuthHeading } from '@/features/auth/components/auth-layout';
import { CodeField, ResendCode } from '@/features/auth/components/code-step';
import { useResendCountdown } from '@/features/auth/hooks/use-resend-countdown';
import { ApiError, errorMessage } from '@/lib/api-client';
import { applyServerErrors, useFieldErrorText } from '@/lib/form-errors';

/**
 * Forgotten password: the address → a mailed 6-digit code (as for registration) → a new password.
 * The server answers the first step the same whether or not the address has an account.
 */
export function ForgotPasswordFlow({ onReset }: { onReset: (message: string) => void }) {
  const { t } = useTranslation();
  const [email, setEmail] = useState<string | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  // After a step change, focus the new heading so keyboard and screen reader users start there.
  const headingRef = useRef<HTMLHeadingElement>(null);
  const moved = useRef(false);
  useEffect(() => {
    if (!moved.current) return;
    headingRef.current?.focus();
  }, [email]);

  const goTo = (next: string | null, message: string | null) => {
    moved.current = true;
    setNotice(message);
    setEmail(next);
  };

  return (
    <div className="auth-content">
      {email === null ? (
        <AuthHeading title={t('forgotPassword.title')} headingRef={headingRef}>
          {t('forgotPassword.subtitle')}
        </AuthHeading>
      ) : (
        <AuthHeading title={t('forgotPassword.resetTitle')} headingRef={headingRef}>
          <Trans
            i18nKey="forgotPassword.resetIntro"
            values={{ email }}
            components={{ strong: <strong className="verify-email" /> }}
          />
        </AuthHeading>
      )}
      <LiveMessage tone="success" message={notice} />
      {email === null ? (
        <RequestCodeForm onSent={(sent, message) => goTo(sent, message)} />
      ) : (
        <ResetForm
          email={email}
          onResent={setNotice}
          onBack={() => goTo(null, null)}
          onReset={onReset}
        />
      )}
      <p className="auth-switch">
        <Link to="/login">{t('forgotPassword.backToLogin')}</Link>
      </p>
    </div>
  );
}

function RequestCodeForm({ onSent }: { onSent: (email: string, message: string) => void }) {
  const { t } = useTranslation();
  const fieldErrorText = useFieldErrorText();
  const forgot = useForgotPassword();
  const [generalError, setGeneralError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<ForgotPasswordInput>({
    resolver: forgotPasswordResolver,
    defaultValues: { email: '' },
    reValidateMode: 'onSubmit',
  });

  const handleSend = handleSubmit(async ({ email }) => {
    setGeneralError(null);
    try {
      const { message } = await forgot.mutateAsync({ email });
      onSent(email, message);
    } catch (error) {
      if (error instanceof ApiError && applyServerErrors(setError, error.errors, ['email'])) return;
      setGeneralError(
        errorMessage(error, {
          failed: t('forgotPassword.failed'),
          unexpected: t('forgotPassword.failed'),
        }),
      );
    }
  });

  return (
    <>
      <LiveMessage tone="error" message={generalError} />
      <form className="auth-form" noValidate onSubmit={handleSend}>
        <TextField
          id="forgot-email"
          label={t('forgotPassword.emailLabel')}
          type="email"
          autoComplete="email"
          autoCapitalize="none"
          spellCheck={false}
          error={fieldErrorText(errors.email)}
          {...register('email')}
        />
        <Button type="submit" block disabled={forgot.isPending}>
          {forgot.isPending ? t('forgotPassword.sending') : t('forgotPassword.send')}
        </Button>
      </form>
    </>
  );
}

function ResetForm({
  email,
  onResent,
  onBack,
  onReset,
}: {
  email: string;
  onResent: (message: string) => void;
  onBack: () => void;
  onReset: (message: string) => void;
}) {
  const { t } = useTranslation();
  const fieldErrorText = useFieldErrorText();
  const reset = useResetPassword();
  const resend = useForgotPassword();
  const { secondsLeft, restart } = useResendCountdown();
  const [generalError, setGeneralError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<ResetPasswordInput>({
    resolver: resetPasswordResolver,
    defaultValues: { email, otp: '', password: '', confirmPassword: '' },
    reValidateMode: 'onSubmit',
  });
  const handleReset = handleSubmit(async (input) => {
    setGeneralError(null);
    try {
      const { message } = await reset.mutateAsync(input);
      onReset(message);
    } catch (error) {
      if (
        error instanceof ApiError &&
        applyServerErrors(setError, error.errors, ['otp', 'password', 'confirmPassword'])
      )
        return;
      setGeneralError(
        errorMessage(error, {
          failed: t('forgotPassword.failed'),
          unexpected: t('forgotPassword.failed'),
        }),
      );
    }
  });

  const handleResend = async () => {
    setGeneralError(null);
    try {
      const { message } = await resend.mutateAsync({ email });
      restart();
      onResent(message);
    } catch (error) {
      setGeneralError(errorMessage(error, { failed: t('forgotPassword.failed') }));
    }
  };

  return (
    <>
      <LiveMessage tone="error" message={generalError} />
      <form className="auth-form" noValidate onSubmit={handleReset}>
        <CodeField
          id="reset-otp"
          error={fieldErrorText(errors.otp)}
          registration={register('otp')}
        />
        <TextField
          id="reset-password"
          label={t('forgotPassword.newPasswordLabel')}
          type="password"
          autoComplete="new-password"
          error={fieldErrorText(errors.password)}
          {...register('password')}
        />
        <TextField
          id="reset-confirm"
          label={t('forgotPassword.confirmLabel')}
          type="password"
          autoComplete="new-password"
          error={fieldErrorText(errors.confirmPassword)}
          {...register('confirmPassword')}
        />
        <Button type="submit" block disabled={reset.isPending}>
          {reset.isPending ? t('forgotPassword.saving') : t('forgotPassword.save')}
        </Button>
      </form>
      <div className="verify-actions">
        <ResendCode
          secondsLeft={secondsLeft}
          pending={resend.isPending}
          onResend={() => void handleResend()}
        />
        <Button variant="ghost" onClick={onBack}>
          <span aria-hidden="true">←</span> {t('forgotPassword.changeEmail')}
        </Button>
      </div>
    </>
  );
}
