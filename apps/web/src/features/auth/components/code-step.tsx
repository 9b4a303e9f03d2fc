import { OTP_LENGTH } from '@contrateia/shared';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/text-field';

/** Digits only, at most OTP_LENGTH ("123 456" becomes "123456"). */
function codeDigits(value: string): string {
  return value.replace(/\D/g, '').slice(0, OTP_LENGTH);
}

/**
 * The e-mailed 6-digit code's field, for registration and the forgotten password alike: numeric
 * keyboard, digits only as typed or pasted, at most 6.
 */
export function CodeField({
  id,
  error,
  registration,
}: {
  id: string;
  error?: string;
  registration: UseFormRegisterReturn<'otp'>;
}) {
  const { t } = useTranslation();
  return (
    <TextField
      id={id}
      label={t('register.codeLabel')}
      className="field--otp"
      inputMode="numeric"
      pattern="[0-9]*"
      maxLength={OTP_LENGTH}
      autoComplete="one-time-code"
      placeholder={'0'.repeat(OTP_LENGTH)}
      error={error}
      {...registration}
      onPaste={(event) => {
        // maxLength would cut a pasted "123 456" to "123 45" before onChange strips the space.
        event.preventDefault();
        event.currentTarget.value = codeDigits(event.clipboardData.getData('text'));
        void registration.onChange({ target: event.currentTarget, type: 'change' });
      }}
      onChange={(event) => {
        event.target.value = codeDigits(event.target.value);
        void registration.onChange(event);
      }}
    />
  );
}

/** "Didn't get the code? Resend", with the countdown while the cooldown runs. */
export function ResendCode({
  secondsLeft,
  pending,
  onResend,
}: {
  secondsLeft: number;
  pending: boolean;
  onResend: () => void;
}) {
  const { t } = useTranslation();
  let label = t('register.resend');
  if (pending) label = t('register.resending');
  else if (secondsLeft > 0) label = t('register.resendIn', { seconds: secondsLeft });
  return (
    <p className="verify-actions__resend">
      {t('register.noCode')}{' '}
      <Button variant="link" disabled={secondsLeft > 0 || pending} onClick={onResend}>
        {label}
      </Button>
    </p>
  );
}
