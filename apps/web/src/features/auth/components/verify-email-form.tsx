import type { RegisterFormInput, VerifyFormInput } from '@contrateia/shared';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { LiveMessage } from '@/components/ui/live-message';
import { useCompleteRegistration } from '@/features/auth/api/complete-registration';
import { useSendOtp } from '@/features/auth/api/send-otp';
import { CodeField, ResendCode } from '@/features/auth/components/code-step';
import { useResendCountdown } from '@/features/auth/hooks/use-resend-countdown';
import { verifyFormResolver } from '@/features/auth/resolvers';
import { ApiError, errorMessage } from '@/lib/api-client';
import { SERVER_ERROR, useFieldErrorText } from '@/lib/form-errors';

/**
 * Registration step 2: the e-mailed code creates the account (spec §2 Register, §5, §8). Mounted
 * right after a code was sent, so the resend cooldown starts with it.
 */
export function VerifyEmailForm({
  details,
  onResent,
  onBack,
  onRegistered,
}: {
  details: RegisterFormInput;
  onResent: () => void;
  onBack: () => void;
  onRegistered: () => void;
}) {
  const { t } = useTranslation();
  const fieldErrorText = useFieldErrorText();
  const completeRegistration = useCompleteRegistration();
  const resendOtp = useSendOtp();
  const { secondsLeft, restart } = useResendCountdown();
  const [generalError, setGeneralError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    clearErrors,
    setError,
    formState: { errors },
  } = useForm<VerifyFormInput>({
    resolver: verifyFormResolver,
    defaultValues: { otp: '' },
    reValidateMode: 'onSubmit',
  });
  const otpField = register('otp', { onChange: () => clearErrors('otp') });

  const handleVerify = handleSubmit(async ({ otp }) => {
    setGeneralError(null);
    try {
      const { name, email, password } = details;
      await completeRegistration.mutateAsync({ name, email, password, otp });
      onRegistered();
    } catch (error) {
      // Code problems belong on the code field; the server names them with "OTP" (spec §8).
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
