import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useUserStats } from '@/features/chat/api/get-user-stats';

const STATS = ['hiredAgents', 'conversations', 'messages'] as const;

/** The dashboard's stat cards: the user's own figures. */
export function StatCards() {
  const { t, i18n } = useTranslation();
  const headingId = useId();
  const { data, isError } = useUserStats();
  const number = new Intl.NumberFormat(i18n.language);

  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId} className="visually-hidden">
        {t('dashboard.statsTitle')}
      </h2>
      <dl className="stat-cards">
        {STATS.map((stat) => (
          <div key={stat} className={`card stat-card stat-card--${stat}`}>
            <dt className="stat-card__label">{t(`dashboard.stats.${stat}`)}</dt>
            <dd className="stat-card__value">
              {data ? (
                number.format(data[stat])
              ) : (
                <>
                  <span aria-hidden="true">—</span>
                  <span className="visually-hidden">
                    {isError ? t('dashboard.statsFailed') : t('app.loading')}
                  </span>
                </>
              )}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
