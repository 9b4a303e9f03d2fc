import type { User } from '@contrateia/shared';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { ModeBadge } from '@/features/auth/components/mode-badge';
import '@/features/auth/account.css';

/** The signed-in account's details. */
export function AccountSummary({ user }: { user: User }) {
  const { t } = useTranslation();
  const headingId = useId();
  return (
    <section className="card account-summary" aria-labelledby={headingId}>
      <h2 id={headingId} className="card__title">
        {t('dashboard.accountTitle')}
      </h2>
      <dl className="account-summary__list">
        <div>
          <dt>{t('dashboard.name')}</dt>
          <dd>{user.name}</dd>
        </div>
        <div>
          <dt>{t('dashboard.email')}</dt>
          <dd>{user.email}</dd>
        </div>
        <div>
          <dt>{t('dashboard.username')}</dt>
          <dd>{user.username}</dd>
        </div>
        <div>
          <dt>{t('dashboard.role')}</dt>
          <dd>
            {t(`dashboard.roles.${user.originalRole}`)} <ModeBadge role={user.role} />
          </dd>
        </div>
      </dl>
    </section>
  );
}
