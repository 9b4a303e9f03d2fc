import { OTP_LENGTH, type RegisterFormInput, type VerifyFormInput } from '@contrateia/shared';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { LiveMessage } from '@/components/ui/live-message';
import { TextField } from '@/components/ui/text-field';
import { useCompleteRegistration } from '@/features/auth/api/complete-registration';
import { useSendOtp } from '@/features/auth/api/send-otp';
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
  const resending = resendOtp.isPending;
  let resendLabel = t('register.resend');
  if (resending) resendLabel = t('register.resending');
  else if (secondsLeft > 0) resendLabel = t('register.resendIn', { seconds: secondsLeft });

  return (
    <>
      <LiveMessage tone="error" message={generalError} />
      <form
        className="auth-form"
        noValidate
        onSubmit={handleVerify}
        onFocus={verifyFormResolver.preload}
      >
        <TextField
          id="register-otp"
          label={t('register.codeLabel')}
          className="field--otp"
          inputMode="numeric"
          pattern="[0-9]*"
          maxLength={OTP_LENGTH}
          autoComplete="one-time-code"
          placeholder={'0'.repeat(OTP_LENGTH)}
          error={fieldErrorText(errors.otp)}
          {...otpField}
          onPaste={(event) => {
            // maxLength would cut a pasted "123 456" to "123 45" before onChange strips the space.
            event.preventDefault();
            event.currentTarget.value = event.clipboardData
              .getData('text')
              .replace(/\D/g, '')
              .slice(0, OTP_LENGTH);
            void otpField.onChange({ target: event.currentTarget, type: 'change' });
          }}
          onChange={(event) => {
            // Digits only, as typed or pasted ("123 456" becomes "123456").
            event.target.value = event.target.value.replace(/\D/g, '').slice(0, OTP_LENGTH);
            void otpField.onChange(event);
          }}
        />
        <Button type="submit" block disabled={verifying}>
          {verifying ? t('register.verifying') : t('register.verify')}
        </Button>
      </form>
      <div className="verify-actions">
        <p className="verify-actions__resend">
          {t('register.noCode')}{' '}
          <Button
            variant="link"
            disabled={secondsLeft > 0 || resending}
            onClick={() => void handleResend()}
          >
            {resendLabel}
          </Button>
        </p>
        <Button variant="ghost" onClick={onBack}>
          <span aria-hidden="true">←</span> {t('register.back')}
        </Button>
      </div>
    </>
  );
}
