import type { LoginInput } from '@contrateia/shared';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { LiveMessage } from '@/components/ui/live-message';
import { TextField } from '@/components/ui/text-field';
import { useLogin } from '@/features/auth/api/login';
import { AuthHeading } from '@/features/auth/components/auth-layout';
import { loginFormResolver } from '@/features/auth/resolvers';
import { errorMessage } from '@/lib/api-client';
import { useFieldErrorText } from '@/lib/form-errors';

/** Sign-in by username or e-mail (spec §2 Login, §5, §8). */
export function LoginForm({
  notice,
  onSignedIn,
}: {
  /** A success message carried over from the previous page. */
  notice: string | null;
  onSignedIn: () => void;
}) {
  const { t } = useTranslation();
  const fieldErrorText = useFieldErrorText();
  const loginMutation = useLogin();
  const [generalError, setGeneralError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    clearErrors,
    formState: { errors },
  } = useForm<LoginInput>({
    resolver: loginFormResolver,
    defaultValues: { email: '', password: '' },
    // Errors are re-checked on the next submit; editing a field clears its error (spec §4).
    reValidateMode: 'onSubmit',
  });

  const handleLogin = handleSubmit(async (values) => {
    setGeneralError(null);
    try {
      await loginMutation.mutateAsync(values);
      onSignedIn();
    } catch (error) {
      setGeneralError(
        errorMessage(error, { failed: t('login.failed'), unexpected: t('login.unexpected') }),
      );
    }
  });

  const submitting = loginMutation.isPending;

  return (
    <div className="auth-content">
      <AuthHeading title={t('login.title')}>{t('login.subtitle')}</AuthHeading>
      <LiveMessage tone="success" message={notice} />
      <LiveMessage tone="error" message={generalError} />
      <form
        className="auth-form"
        noValidate
        onSubmit={handleLogin}
        onFocus={loginFormResolver.preload}
      >
        <TextField
          id="login-email"
          label={t('login.identifierLabel')}
          placeholder={t('login.identifierPlaceholder')}
          type="text"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          error={fieldErrorText(errors.email)}
          {...register('email', { onChange: () => clearErrors('email') })}
        />
        <TextField
          id="login-password"
          label={t('login.passwordLabel')}
          placeholder={t('login.passwordPlaceholder')}
          type="password"
          autoComplete="current-password"
          error={fieldErrorText(errors.password)}
          {...register('password', { onChange: () => clearErrors('password') })}
        />
        <Button type="submit" block disabled={submitting}>
          {submitting ? t('login.submitting') : t('login.submit')}
        </Button>
      </form>
      <p className="auth-switch">
        {t('login.noAccount')} <Link to="/register">{t('login.createAccount')}</Link>
      </p>
    </div>
  );
}
