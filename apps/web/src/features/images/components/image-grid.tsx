import type { Image } from '@contrateia/shared/images/images.schemas';
import type { useImages } from '@/features/images/api/get-images';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { formatBytes } from '@/lib/byte-format';
import { failureText } from '@/features/images/failure-text';
import { imageName } from '@/features/images/image-name';
import { useDateFormat } from '@/hooks/use-date-format';
import { cx } from '@/lib/cx';

interface ImageActions {
  onCopy: (image: Image) => void;
  onEdit: (image: Image) => void;
  onDelete: (image: Image) => void;
}

/**
 * The library's images as a grid of cards (as many columns as fit; one on a phone), with its
 * states: loading, the fetch failure with Try again, empty (or nothing matching the filters), and
 * "Load more" while the server has more than is shown.
 */
export function ImageGrid({
  state,
  filtered,
  ...actions
}: {
  state: ReturnType<typeof useImages>;
  /** Whether a search or filter narrows the list (the empty text says so). */
  filtered: boolean;
} & ImageActions) {
  const { t, i18n } = useTranslation();
  const number = new Intl.NumberFormat(i18n.language);

  if (state.isPending) {
    return (
      <p className="images__state" role="status">
        {t('images.list.loading')}
      </p>
    );
  }
  if (state.isError && !state.data) {
    return (
      <div className="images__state">
        <p className="alert alert--error" role="alert">
          {failureText(t, 'fetch', state.error)}
        </p>
        <Button variant="secondary" onClick={() => void state.refetch()}>
          {t('images.list.retry')}
        </Button>
      </div>
    );
  }

  const pages = state.data.pages;
  const images = pages.flatMap((page) => page.images);
  const total = pages.at(-1)?.total ?? 0;
  if (images.length === 0) {
    return (
      <p className="images__state" role="status">
        {filtered ? t('images.list.noMatch') : t('images.list.empty')}
      </p>
    );
  }

  // Changing filters shows the previous list, dimmed, until the new one is in.
  const busy = state.isPlaceholderData;
  return (
    <>
      <p className="images__count" role="status">
        {t('images.list.showing', {
          shown: number.format(images.length),
          total: number.format(total),
        })}
      </p>
      <ul className={cx('image-grid', busy && 'is-busy')} aria-busy={busy || undefined}>
        {images.map((image) => (
          <li key={image.id}>
            <ImageCard image={image} {...actions} />
          </li>
        ))}
      </ul>
      {state.isFetchNextPageError && (
        <p className="alert alert--error" role="alert">
          {failureText(t, 'fetch', state.error)}
        </p>
      )}
      {state.hasNextPage && (
        <Button
          variant="secondary"
          className="images__more"
          disabled={state.isFetchingNextPage}
          onClick={() => void state.fetchNextPage()}
        >
          {state.isFetchingNextPage ? t('images.list.loadingMore') : t('images.list.loadMore')}
        </Button>
      )}
    </>
  );
}

function ImageCard({ image, onCopy, onEdit, onDelete }: { image: Image } & ImageActions) {
  const { t, i18n } = useTranslation();
  const { dateTime } = useDateFormat();
  const titleId = useId();
  const name = imageName(image);
  return (
    <article className="image-card" aria-labelledby={titleId}>
      <div className="image-card__frame">
        <img
          className="image-card__thumb"
          src={image.thumbnailUrl}
          alt={image.altText}
          loading="lazy"
          decoding="async"
        />
      </div>
      <div className="image-card__body">
        <div className="image-card__head">
          <h3 id={titleId} className="image-card__title">
            {name}
          </h3>
          <span className={cx('badge', image.isPublic ? 'badge--success' : 'image-badge--private')}>
            {image.isPublic ? t('images.card.public') : t('images.card.private')}
          </span>
        </div>
        {name !== image.originalFilename && (
          <p className="image-card__file">{image.originalFilename}</p>
        )}
        <dl className="image-card__facts">
          <div>
            <dt>{t('images.card.category')}</dt>
            <dd>{t(`images.categories.${image.category}`)}</dd>
          </div>
          <div>
            <dt>{t('images.card.size')}</dt>
            <dd>{formatBytes(image.fileSize, i18n.language)}</dd>
          </div>
          <div>
            <dt>{t('images.card.dimensions')}</dt>
            <dd>
              {t('images.card.dimensionsValue', { width: image.width, height: image.height })}
            </dd>
          </div>
          <div>
            <dt>{t('images.card.uploaded')}</dt>
            <dd>
              <time dateTime={image.createdAt}>{dateTime(image.createdAt)}</time>
            </dd>
          </div>
        </dl>
        <div className="image-card__actions">
          <Button
            variant="secondary"
            aria-label={t('images.card.copyUrlOf', { name })}
            onClick={() => onCopy(image)}
          >
            {t('images.card.copyUrl')}
          </Button>
          <Button
            variant="secondary"
            aria-label={t('images.card.editOf', { name })}
            onClick={() => onEdit(image)}
          >
            {t('images.card.edit')}
          </Button>
          <Button
            variant="secondary"
            className="image-card__delete"
            aria-label={t('images.card.deleteOf', { name })}
            onClick={() => onDelete(image)}
          >
            {t('images.card.delete')}
          </Button>
        </div>
      </div>
    </article>
  );
}
