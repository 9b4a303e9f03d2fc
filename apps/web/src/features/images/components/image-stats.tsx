import { IMAGE_CATEGORIES } from '@contrateia/shared/images/images.schemas';
import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useImageStats } from '@/features/images/api/get-image-stats';
import { formatBytes } from '@/lib/byte-format';

/**
 * The stats cards: how many images, their total size, and how many in each category, with "—" while
 * they load or when they could not be read.
 */
export function ImageStats() {
  const { t, i18n } = useTranslation();
  const headingId = useId();
  const { data, isError } = useImageStats();
  const number = new Intl.NumberFormat(i18n.language);
  // A failure is said once, under the cards; while loading each card says so to screen readers.
  const missing = (
    <>
      <span aria-hidden="true">—</span>
      {!isError && <span className="visually-hidden">{t('app.loading')}</span>}
    </>
  );
  const card = (key: string, label: string, value: ReactNode, className?: string) => (
    <div key={key} className={className ? `image-stat ${className}` : 'image-stat'}>
      <dt className="image-stat__label">{label}</dt>
      <dd className="image-stat__value">{data ? value : missing}</dd>
    </div>
  );

  return (
    <section aria-labelledby={headingId}>
      <h2 id={headingId} className="visually-hidden">
        {t('images.stats.title')}
      </h2>
      <dl className="image-stats">
        {card('total', t('images.stats.total'), data && number.format(data.total), 'is-main')}
        {card(
          'size',
          t('images.stats.totalSize'),
          data && formatBytes(data.totalSize, i18n.language),
          'is-main',
        )}
        {IMAGE_CATEGORIES.map((category) =>
          card(
            category,
            t(`images.categories.${category}`),
            data &&
              number.format(
                data.byCategory.find((entry) => entry.category === category)?.count ?? 0,
              ),
          ),
        )}
      </dl>
      {isError && <p className="images__note">{t('images.stats.failed')}</p>}
    </section>
  );
}
