import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { signedInHome } from '@/app/home';
import { useAuth } from '@/features/auth/hooks/use-auth';
import { useDocumentTitle } from '@/hooks/use-document-title';

/**
 * An address the app has no page for, or an agent's page that is not there for this account: says
 * so, with the way back (signed in: where a sign-in leads; signed out: /login). Its texts are the
 * signed-in pages' group (app), which the router loads with it.
 */
export function NotFoundPage() {
  const { t } = useTranslation();
  const { user } = useAuth();
  const headingId = useId();
  useDocumentTitle(t('notFound.title'));
  return (
    <section className="error-fallback not-found" aria-labelledby={headingId}>
      <h1 id={headingId}>{t('notFound.title')}</h1>
      <p>{t('notFound.description')}</p>
      {user ? (
        <Link className="btn btn--primary" to={signedInHome(user)}>
          {t('notFound.home')}
        </Link>
      ) : (
        <Link className="btn btn--primary" to="/login">
          {t('notFound.login')}
        </Link>
      )}
    </section>
  );
}
