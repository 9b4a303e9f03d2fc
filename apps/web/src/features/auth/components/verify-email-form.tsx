import type { RegisterFormInput, VerifyFormInput } from '@contrateia/shared';
import { useState } from 'react';
import { useForm, type Path } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { LiveMessage } from '@/components/ui/live-message';
import { useCompleteRegistration } from '@/features/auth/api/complete-registration';
import { useSendOtp } from '@/features/auth/api/send-otp';
import { CodeField, ResendCode } from '@/features/auth/components/code-step';
import { NewPasswordFields } from '@/features/auth/components/new-password-fields';
import { useResendCountdown } from '@/features/auth/hooks/use-resend-countdown';
import { cooldownOf } from '@/features/auth/pending-registration';
import { verifyFormResolver } from '@/features/auth/resolvers';
import { ApiError, errorMessage } from '@/lib/api-client';
import { SERVER_ERROR, useFieldErrorText } from '@/lib/form-errors';

/**
 * Registration step 2: the e-mailed code creates the account. The resend cooldown runs from
 * `sentAt`. `details.password` is empty when the step was restored after a reload (the password is
 * never stored): the step then asks for it again, with its confirmation. `waitMessage` is the
 * server's "wait N seconds" when step 1 met the cooldown.
 */
export function VerifyEmailForm({
  details,
  sentAt,
  waitMessage = null,
  onResent,
  onCooldown,
  onBack,
  onRegistered,
}: {
  details: RegisterFormInput;
  sentAt: number;
  waitMessage?: string | null;
  onResent: () => void;
  /** The server refused a resend within its cooldown; `sentAt` is when its code was sent. */
  onCooldown: (sentAt: number) => void;
  onBack: () => void;
  onRegistered: () => void;
}) {
  const { t } = useTranslation();
  const fieldErrorText = useFieldErrorText();
  const completeRegistration = useCompleteRegistration();
  const resendOtp = useSendOtp();
  const { secondsLeft, restart } = useResendCountdown(sentAt);
  const [generalError, setGeneralError] = useState<string | null>(waitMessage);
  const askPassword = details.password === '';
  const {
    register,
    handleSubmit,
    clearErrors,
    setError,
    formState: { errors },
  } = useForm<VerifyFormInput>({
    resolver: verifyFormResolver,
    defaultValues: { otp: '', password: details.password, confirmPassword: details.password },
    reValidateMode: 'onSubmit',
  });
  const otpField = register('otp', { onChange: () => clearErrors('otp') });
  const field = (name: Path<VerifyFormInput>) =>
    register(name, { onChange: () => clearErrors(name) });

  const handleVerify = handleSubmit(async ({ otp, password }) => {
    setGeneralError(null);
    try {
      await completeRegistration.mutateAsync({
        name: details.name,
        email: details.email,
        password,
        otp,
      });
      onRegistered();
    } catch (error) {
      // Code problems belong on the code field; the server names the field.
      if (error instanceof ApiError) {
        const otpMessage =
          error.errors?.otp ?? (error.message.includes('OTP') ? error.message : '');
        if (otpMessage) {
          setError('otp', { type: SERVER_ERROR, message: otpMessage }, { shouldFocus: true });
          return;
        }
      }
      setGeneralError(
        errorMessage(error, { failed: t('register.failed'), unexpected: t('register.unexpected') }),
      );
    }
  });

  const handleResend = async () => {
    setGeneralError(null);
    try {
      await resendOtp.mutateAsync({ email: details.email, purpose: 'registration' });
      restart();
      onResent();
    } catch (error) {
      // Within the server's cooldown (another tab, another device): its message says how long;
      // the countdown follows it and the step stays.
      const cooldown = cooldownOf(error);
      if (cooldown) {
        restart(cooldown.seconds);
        onCooldown(cooldown.sentAt);
      }
      setGeneralError(
        errorMessage(error, {
          failed: t('register.resendFailed'),
          network: t('register.networkError'),
        }),
      );
    }
  };

  const verifying = completeRegistration.isPending;

  return (
    <>
      <LiveMessage tone="error" message={generalError} />
      <form
        className="auth-form"
        noValidate
        onSubmit={handleVerify}
        onFocus={verifyFormResolver.preload}
      >
        <CodeField id="register-otp" error={fieldErrorText(errors.otp)} registration={otpField} />
        {askPassword && (
          <>
            <p className="auth-form__hint">{t('register.passwordAgain')}</p>
            <NewPasswordFields
              idPrefix="register-verify"
              password={{ error: fieldErrorText(errors.password), registration: field('password') }}
              confirmPassword={{
                error: fieldErrorText(errors.confirmPassword),
                registration: field('confirmPassword'),
              }}
            />
          </>
        )}
        <Button type="submit" block disabled={verifying}>
          {verifying ? t('register.verifying') : t('register.verify')}
        </Button>
      </form>
      <div className="verify-actions">
        <ResendCode
          secondsLeft={secondsLeft}
          pending={resendOtp.isPending}
          onResend={() => void handleResend()}
        />
        <Button variant="ghost" onClick={onBack}>
          <span aria-hidden="true">←</span> {t('register.back')}
        </Button>
      </div>
    </>
  );
}
