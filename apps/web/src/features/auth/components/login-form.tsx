import type { LoginInput, User } from '@contrateia/shared';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { FieldErrors } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { LiveMessage } from '@/components/ui/live-message';
import { TextField } from '@/components/ui/text-field';
import { useLogin } from '@/features/auth/api/login';
import { AuthHeading } from '@/features/auth/components/auth-layout';
import { loginFormResolver } from '@/features/auth/resolvers';
import { ApiError, errorMessage } from '@/lib/api-client';
import { usePublicSettings, useSettingText } from '@/hooks/use-public-settings';
import { useFieldErrorText } from '@/lib/form-errors';

type Field = keyof LoginInput;

/** In the order a failed check focuses them. */
const FIELDS: readonly Field[] = ['email', 'password'];

/**
 * Sign-in by username or e-mail.
 *
 * Two fields do not need react-hook-form, whose weight would take much of what the first page may
 * add to the app's shell (see the /login budget in scripts/login-weight.mjs, and its row in
 * `npm run bench`); the register forms use it. The behaviour is its own here: the shared schema
 * checks on submit (through the same lazily loaded resolver), errors focus the first invalid field,
 * editing a field clears its error, and the schema's output (trimmed identifier) is what is sent.
 */
export function LoginForm({
  notice,
  identifier = null,
  onSignedIn,
}: {
  /** A success message carried over from the previous page. */
  notice: string | null;
  /** The address of an account just registered: filled in, the focus on the password. */
  identifier?: string | null;
  /** Called with the account once signed in (its token and user are stored). */
  onSignedIn: (user: User) => void;
}) {
  const { t } = useTranslation();
  const { data: settings, refetch: refetchSettings } = usePublicSettings();
  const content = settings?.content;
  const text = useSettingText();
  const fieldErrorText = useFieldErrorText();
  const loginMutation = useLogin();
  const [generalError, setGeneralError] = useState<string | null>(null);
  // The last attempt was refused because the system is in maintenance.
  const [refusedForMaintenance, setRefusedForMaintenance] = useState(false);
  const [errors, setErrors] = useState<FieldErrors<LoginInput>>({});
  const inputs = useRef<Partial<Record<Field, HTMLInputElement | null>>>({});
  const registrationOpen = settings?.registrationEnabled !== false;

  useEffect(() => {
    if (identifier) inputs.current.password?.focus();
  }, [identifier]);

  // What a field needs: a name, the element to read and focus, and its error cleared on edit.
  // Errors are checked again on the next submit only.
  const field = (name: Field) => ({
    name,
    ref: (element: HTMLInputElement | null) => {
      inputs.current[name] = element;
    },
    onChange: () =>
      setErrors((current) => {
        if (!current[name]) return current;
        const { [name]: _cleared, ...rest } = current;
        return rest;
      }),
  });

  const handleLogin = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const input: LoginInput = {
      email: inputs.current.email?.value ?? '',
      password: inputs.current.password?.value ?? '',
    };
    const { values, errors: found } = await loginFormResolver(input, undefined, {
      fields: {},
      shouldUseNativeValidation: false,
    });
    setErrors(found);
    if (Object.keys(found).length > 0) {
      const invalid = FIELDS.find((name) => found[name]);
      if (invalid) inputs.current[invalid]?.focus();
      return;
    }
    setGeneralError(null);
    setRefusedForMaintenance(false);
    try {
      const { user } = await loginMutation.mutateAsync(values as LoginInput);
      onSignedIn(user);
    } catch (error) {
      // A 503 is maintenance when the settings say so (they may have changed since the page
      // opened): the page's own notice says it, once, rather than beside the server's words.
      if (error instanceof ApiError && error.status === 503) {
        if ((await refetchSettings()).data?.maintenanceMode) {
          setRefusedForMaintenance(true);
          return;
        }
      }
      setGeneralError(
        errorMessage(error, { failed: t('login.failed'), unexpected: t('login.unexpected') }),
      );
    }
  };

  const submitting = loginMutation.isPending;

  return (
    <div className="auth-content">
      <AuthHeading title={text(content?.loginTitle, t('login.title'))}>
        {text(content?.loginSubtitle, t('login.subtitle'))}
      </AuthHeading>
      {/* One maintenance notice: beforehand a plain one, after a refused attempt the same words
          as its announced refusal. */}
      {settings?.maintenanceMode && !refusedForMaintenance && (
        <p className="auth-notice">{t('login.maintenance')}</p>
      )}
      <LiveMessage tone="success" message={notice} />
      <LiveMessage
        tone="error"
        message={refusedForMaintenance ? t('login.maintenance') : generalError}
      />
      <form
        className="auth-form"
        noValidate
        onSubmit={(event) => void handleLogin(event)}
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
          defaultValue={identifier ?? undefined}
          error={fieldErrorText(errors.email)}
          {...field('email')}
        />
        <TextField
          id="login-password"
          label={t('login.passwordLabel')}
          placeholder={t('login.passwordPlaceholder')}
          type="password"
          autoComplete="current-password"
          error={fieldErrorText(errors.password)}
          {...field('password')}
        />
        <Button type="submit" block disabled={submitting}>
          {submitting ? t('login.submitting') : t('login.submit')}
        </Button>
      </form>
      <p className="auth-switch">
        <Link to="/forgot-password">{t('login.forgotPassword')}</Link>
      </p>
      {/* Closed by the admin: not offered; /register says it is closed anyway. */}
      {registrationOpen && (
        <p className="auth-switch">
          {t('login.noAccount')} <Link to="/register">{t('login.createAccount')}</Link>
        </p>
      )}
    </div>
  );
}
