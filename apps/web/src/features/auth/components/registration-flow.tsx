import type { RegisterFormInput } from '@contrateia/shared';
import { useEffect, useRef, useState } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { LiveMessage } from '@/components/ui/live-message';
import { AuthHeading } from '@/features/auth/components/auth-layout';
import { RegisterDetailsForm } from '@/features/auth/components/register-details-form';
import { VerifyEmailForm } from '@/features/auth/components/verify-email-form';
import {
  clearPendingRegistration,
  readPendingRegistration,
  savePendingRegistration,
} from '@/features/auth/pending-registration';
import { usePublicSettings, useSettingText } from '@/hooks/use-public-settings';
import { SUCCESS_MESSAGE_MS, useTimedMessage } from '@/hooks/use-timed-message';

type Step = 'details' | 'verify';

/**
 * The two registration steps: details → e-mailed code → account. Holds what both steps need: the
 * details for the final call, when the code was sent, and the success notice. The code step
 * outlives a reload while its code lives (pending-registration.ts): the name and address come back,
 * the password is asked for again.
 */
export function RegistrationFlow({ onRegistered }: { onRegistered: (email: string) => void }) {
  const { t } = useTranslation();
  const settings = usePublicSettings().data;
  const content = settings?.content;
  const text = useSettingText();
  const [restored] = useState(readPendingRegistration);
  const [step, setStep] = useState<Step>(restored ? 'verify' : 'details');
  const [details, setDetails] = useState<RegisterFormInput | null>(
    restored && { name: restored.name, email: restored.email, password: '', confirmPassword: '' },
  );
  const [sentAt, setSentAt] = useState(restored?.sentAt ?? 0);
  const [waitMessage, setWaitMessage] = useState<string | null>(null);
  const notice = useTimedMessage(SUCCESS_MESSAGE_MS);

  // After a step change, focus the new heading so keyboard and screen reader users start there.
  const headingRef = useRef<HTMLHeadingElement>(null);
  const focusHeading = useRef(false);
  useEffect(() => {
    if (!focusHeading.current) return;
    focusHeading.current = false;
    headingRef.current?.focus();
  }, [step]);

  const goTo = (next: Step) => {
    focusHeading.current = true;
    setStep(next);
  };

  const showCodeSent = (email: string) => notice.show(t('auth.otpSent', { email }));

  /** A code went to `sent.email` at `at`: its step is kept for a reload. */
  const remember = (sent: RegisterFormInput, at: number) => {
    setSentAt(at);
    savePendingRegistration({ name: sent.name, email: sent.email, sentAt: at });
  };

  const handleCodeSent = (sent: RegisterFormInput) => {
    setDetails(sent);
    remember(sent, Date.now());
    setWaitMessage(null);
    showCodeSent(sent.email);
    goTo('verify');
  };

  // Sent again within the cooldown: that address's code step, saying how long to wait.
  const handleCooldown = (sent: RegisterFormInput, wait: { message: string; sentAt: number }) => {
    setDetails(sent);
    remember(sent, wait.sentAt);
    setWaitMessage(wait.message);
    notice.clear();
    goTo('verify');
  };

  // Back clears the code, the e-mail being verified and the messages; the typed details stay in the
  // form so the user can correct them.
  const handleBack = () => {
    clearPendingRegistration();
    setWaitMessage(null);
    notice.clear();
    goTo('details');
  };

  const handleRegistered = (email: string) => {
    clearPendingRegistration();
    onRegistered(email);
  };

  const verifying = step === 'verify' && details !== null;

  return (
    <div className="auth-content">
      {verifying ? (
        <AuthHeading title={t('register.verifyTitle')} headingRef={headingRef}>
          <Trans
            i18nKey="register.verifyIntro"
            values={{ email: details.email }}
            components={{ strong: <strong className="verify-email" /> }}
          />
        </AuthHeading>
      ) : (
        <AuthHeading
          title={text(content?.registerTitle, t('register.title'))}
          headingRef={headingRef}
        >
          {text(content?.registerSubtitle, t('register.subtitle'))}
        </AuthHeading>
      )}
      <LiveMessage tone="success" message={notice.message} />
      {verifying ? (
        <VerifyEmailForm
          details={details}
          sentAt={sentAt}
          waitMessage={waitMessage}
          onResent={() => {
            remember(details, Date.now());
            showCodeSent(details.email);
          }}
          onCooldown={(at) => remember(details, at)}
          onBack={handleBack}
          onRegistered={() => handleRegistered(details.email)}
        />
      ) : (
        <RegisterDetailsForm
          defaultValues={details ?? undefined}
          // Until the settings are read, the usual two steps (the server has the last word).
          verifyEmail={settings?.emailVerification ?? true}
          onCodeSent={handleCodeSent}
          onCooldown={handleCooldown}
          onRegistered={handleRegistered}
        />
      )}
    </div>
  );
}
