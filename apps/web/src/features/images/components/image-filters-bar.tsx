import { IMAGE_CATEGORIES } from '@contrateia/shared/images/images.schemas';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ImageFilters } from '@/features/images/api/image-keys';
import { useDebouncedValue } from '@/hooks/use-debounced-value';

/** The search asks the server once typing pauses this long. */
export const SEARCH_DELAY_MS = 300;

type FilterName = 'search' | 'category' | 'visibility';

/**
 * The search box (title, alt text, file name; debounced) and the category and visibility
 * filters. The chosen values live in the address (useImageFilters); the box keeps what is being
 * typed until the pause.
 */
export function ImageFiltersBar({
  filters,
  onChange,
}: {
  filters: ImageFilters;
  onChange: (name: FilterName, value: string) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [text, setText] = useState(filters.search);
  const settled = useDebouncedValue(text.trim(), SEARCH_DELAY_MS);
  // Only a pause in typing searches: an address changed otherwise (Enter) is not undone by it.
  const lastSettled = useRef(settled);
  useEffect(() => {
    if (settled === lastSettled.current) return;
    lastSettled.current = settled;
    if (settled !== filters.search) onChange('search', settled);
  }, [settled, filters.search, onChange]);

  const visibility = filters.isPublic === null ? '' : filters.isPublic ? 'public' : 'private';

  return (
    <form
      role="search"
      aria-label={t('images.filters.title')}
      className="image-filters"
      onSubmit={(event) => {
        // Enter searches at once rather than after the pause.
        event.preventDefault();
        onChange('search', text.trim());
      }}
    >
      <div className="field image-filters__search">
        <label htmlFor={`${id}-search`} className="field__label">
          {t('images.filters.search')}
        </label>
        <input
          id={`${id}-search`}
          type="search"
          className="field__input"
          placeholder={t('images.filters.searchPlaceholder')}
          autoComplete="off"
          maxLength={200}
          value={text}
          onChange={(event) => setText(event.target.value)}
        />
      </div>
      <div className="field">
        <label htmlFor={`${id}-category`} className="field__label">
          {t('images.filters.category')}
        </label>
        <select
          id={`${id}-category`}
          className="field__input"
          value={filters.category ?? ''}
          onChange={(event) => onChange('category', event.target.value)}
        >
          <option value="">{t('images.filters.allCategories')}</option>
          {IMAGE_CATEGORIES.map((category) => (
            <option key={category} value={category}>
              {t(`images.categories.${category}`)}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={`${id}-visibility`} className="field__label">
          {t('images.filters.visibility')}
        </label>
        <select
          id={`${id}-visibility`}
          className="field__input"
          value={visibility}
          onChange={(event) => onChange('visibility', event.target.value)}
        >
          <option value="">{t('images.filters.allVisibilities')}</option>
          <option value="public">{t('images.filters.public')}</option>
          <option value="private">{t('images.filters.private')}</option>
        </select>
      </div>
    </form>
  );
}
