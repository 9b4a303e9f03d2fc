import { LOG_CATEGORIES, LOG_LEVELS, LOG_SEARCH_MAX } from '@contrateia/shared/logs/logs.schemas';
import type { ParseKeys } from 'i18next';
import { useId, type ComponentPropsWithRef, type FormEvent, type KeyboardEvent } from 'react';
import type { UseFormRegister } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { TextField } from '@/components/ui/text-field';
import { useTimeZoneName } from '@/features/logs/hooks/use-log-time-format';
import type { LogFilterDraft, LogFilterErrors } from '@/features/logs/log-filters';

/**
 * The filters of the logs page: level, category, a date range (the browser's time zone) and a
 * search. The page applies them once they stop changing; Enter in the search applies them at
 * once. `errors` are the shared schema's message keys.
 */
export function LogFiltersForm({
  register,
  errors,
  canClear,
  onSubmit,
  onClear,
}: {
  register: UseFormRegister<LogFilterDraft>;
  errors: LogFilterErrors;
  canClear: boolean;
  onSubmit: () => void;
  onClear: () => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const zone = useTimeZoneName();
  const errorText = (field: keyof LogFilterDraft) => {
    const key = errors[field];
    return key ? t(key as ParseKeys) : undefined;
  };
  const ids = {
    level: `${id}-level`,
    category: `${id}-category`,
    from: `${id}-from`,
    to: `${id}-to`,
    search: `${id}-search`,
    range: `${id}-range`,
  };

  // Several text-like fields: no implicit submission by the browser, so Enter in the search box
  // is caught here.
  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    onSubmit();
  };
  const handleSearchKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    onSubmit();
  };

  return (
    <form
      className="logs-filters"
      role="search"
      aria-label={t('logs.filters.label')}
      noValidate
      onSubmit={handleSubmit}
    >
      <TextField
        id={ids.search}
        label={t('logs.filters.search')}
        className="logs-filters__search"
        type="search"
        placeholder={t('logs.filters.searchPlaceholder')}
        autoComplete="off"
        maxLength={LOG_SEARCH_MAX}
        error={errorText('search')}
        onKeyDown={handleSearchKeyDown}
        {...register('search')}
      />
      <SelectField
        id={ids.level}
        label={t('logs.filters.level')}
        options={[
          { value: '', label: t('logs.filters.allLevels') },
          ...LOG_LEVELS.map((level) => ({ value: level, label: t(`logs.levels.${level}`) })),
        ]}
        {...register('level')}
      />
      <SelectField
        id={ids.category}
        label={t('logs.filters.category')}
        options={[
          { value: '', label: t('logs.filters.allCategories') },
          ...LOG_CATEGORIES.map((category) => ({
            value: category,
            label: t(`logs.categories.${category}`),
          })),
        ]}
        {...register('category')}
      />
      <fieldset className="logs-filters__range" aria-describedby={`${ids.range}-hint`}>
        <legend className="field__label">{t('logs.filters.dateRange')}</legend>
        <TextField
          id={ids.from}
          label={t('logs.filters.from')}
          type="datetime-local"
          error={errorText('from')}
          {...register('from')}
        />
        <TextField
          id={ids.to}
          label={t('logs.filters.to')}
          type="datetime-local"
          error={errorText('to')}
          {...register('to')}
        />
        <p id={`${ids.range}-hint`} className="field__hint logs-filters__hint">
          {t('logs.filters.timeZone', { zone })}
        </p>
      </fieldset>
      {canClear && (
        <div className="logs-filters__actions">
          <Button variant="secondary" onClick={onClear}>
            {t('logs.filters.clear')}
          </Button>
        </div>
      )}
    </form>
  );
}

/** A labelled select of one filter. */
function SelectField({
  id,
  label,
  options,
  ...selectProps
}: ComponentPropsWithRef<'select'> & {
  id: string;
  label: string;
  options: { value: string; label: string }[];
}) {
  return (
    <div className="field">
      <label htmlFor={id} className="field__label">
        {label}
      </label>
      <select id={id} className="field__input" {...selectProps}>
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
    </div>
  );
}
