import { useEffect, useEffectEvent, useId, useMemo, useRef } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { useLogs } from '@/features/logs/api/get-logs';
import { LogFiltersForm } from '@/features/logs/components/log-filters-form';
import { LogTable } from '@/features/logs/components/log-table';
import {
  checkDraft,
  draftOf,
  EMPTY_DRAFT,
  filtersFromSearch,
  hasFilters,
  searchOfFilters,
  type LogFilterDraft,
} from '@/features/logs/log-filters';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { ApiError } from '@/lib/api-client';
import { withReason } from '@/lib/failure-text';
import '@/features/logs/logs.css';

/** Filters apply once they have stayed the same this long (typing, a date's digits). */
export const FILTER_DELAY_MS = 300;

/**
 * /logs for an admin in admin mode: the stored events, newest first, by level, category, date range
 * and words, a page at a time ("Load more"); a row opens the event's context. The filters live in
 * the address (`/logs?level=warn&search=…`), so a reload or a link keeps them; the server checks
 * them with the same shared schema.
 */
export function LogsPage() {
  const { t } = useTranslation();
  const headingId = useId();
  // useLocation rather than useSearchParams, as the admin panel does: that one would add its code
  // to every page's download.
  const { pathname, search } = useLocation();
  const navigate = useNavigate();

  // What the address asks for, in the canonical form the page writes.
  const applied = useMemo(() => checkDraft(draftOf(filtersFromSearch(search))), [search]);
  const valid = Object.keys(applied.errors).length === 0;
  const logs = useLogs(applied.filters, { enabled: valid });

  const { register, control, reset } = useForm<LogFilterDraft>({
    defaultValues: draftOf(applied.filters),
  });
  const draft = { ...EMPTY_DRAFT, ...useWatch({ control }) };
  const checked = checkDraft(draft);
  // The address the form's values lead to; null while the shared schema refuses them.
  const target = Object.keys(checked.errors).length === 0 ? searchOfFilters(checked.filters) : null;
  const settled = useDebouncedValue(target, FILTER_DELAY_MS);

  // The query this page last wrote: any other change of the address (Back, the Logs link) is
  // someone else's, and the form follows it.
  const written = useRef<string | null>(null);
  const write = (next: string) => {
    written.current = next;
    // Filtering is not a trail of pages for Back.
    if (next !== search) void navigate({ pathname, search: next }, { replace: true });
  };
  // When the form's values settle on a new address.
  const handleSettled = useEffectEvent((next: string | null) => {
    if (next !== null) write(next);
  });
  useEffect(() => handleSettled(settled), [settled]);
  // When the address changes.
  const handleAddress = useEffectEvent((next: string) => {
    if (next !== written.current) reset(draftOf(applied.filters));
  });
  useEffect(() => handleAddress(search), [search]);

  const handleClear = () => {
    reset(EMPTY_DRAFT);
    write('');
  };

  const entries = logs.data?.pages.flatMap((page) => page.logs) ?? [];
  const failure = (error: unknown) =>
    error instanceof ApiError
      ? withReason(t('logs.list.failed'), error.message)
      : t('logs.list.error');

  return (
    <section className="logs" aria-labelledby={headingId}>
      <div className="logs__header">
        <div>
          <h1 id={headingId} className="logs__title">
            {t('logs.title')}
          </h1>
          <p className="logs__intro">{t('logs.intro')}</p>
        </div>
        <Button
          variant="secondary"
          disabled={!valid || logs.isFetching}
          onClick={() => void logs.refetch()}
        >
          {t('logs.list.refresh')}
        </Button>
      </div>

      <LogFiltersForm
        register={register}
        errors={checked.errors}
        canClear={hasFilters(checked.filters) || hasFilters(applied.filters)}
        onSubmit={() => {
          if (target !== null) write(target);
        }}
        onClear={handleClear}
      />

      {!valid ? null : logs.isPending ? (
        <p className="logs__state" role="status">
          {t('logs.list.loading')}
        </p>
      ) : logs.isError && entries.length === 0 ? (
        <div className="logs__state">
          <p className="alert alert--error" role="alert">
            {failure(logs.error)}
          </p>
          <Button variant="secondary" onClick={() => void logs.refetch()}>
            {t('logs.list.retry')}
          </Button>
        </div>
      ) : entries.length === 0 ? (
        <div className="logs__state logs__empty" role="status">
          {hasFilters(applied.filters) ? (
            <>
              <p className="logs__empty-title">{t('logs.list.noMatch')}</p>
              <p>{t('logs.list.noMatchText')}</p>
              <Button variant="secondary" onClick={handleClear}>
                {t('logs.filters.clear')}
              </Button>
            </>
          ) : (
            <>
              <p className="logs__empty-title">{t('logs.list.empty')}</p>
              <p>{t('logs.list.emptyText')}</p>
            </>
          )}
        </div>
      ) : (
        <>
          <p className="logs__count" role="status">
            {t('logs.list.shown', { count: entries.length })}
          </p>
          <LogTable entries={entries} busy={logs.isPlaceholderData} />
          <div role="alert">
            {(logs.isFetchNextPageError || logs.isRefetchError) && (
              <p className="alert alert--error">{failure(logs.error)}</p>
            )}
          </div>
          {logs.hasNextPage ? (
            <Button
              variant="secondary"
              className="logs__more"
              disabled={logs.isFetchingNextPage || logs.isPlaceholderData}
              onClick={() => void logs.fetchNextPage()}
            >
              {logs.isFetchingNextPage ? t('logs.list.loadingMore') : t('logs.list.loadMore')}
            </Button>
          ) : (
            logs.data &&
            logs.data.pages.length > 1 && <p className="logs__count">{t('logs.list.allShown')}</p>
          )}
        </>
      )}
    </section>
  );
}
