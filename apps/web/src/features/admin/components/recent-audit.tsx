import type { AuditEntry } from '@contrateia/shared';
import type { ParseKeys } from 'i18next';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { useAudit } from '@/features/admin/api/get-audit';
import { failureText } from '@/features/admin/failure-text';
import { useDateFormat } from '@/hooks/use-date-format';
import '@/features/admin/admin-manage.css';

/**
 * The recent admin changes, newest first: who, what in words, on what, which fields, and when;
 * "Load more" reads the next page.
 */
export function RecentAudit() {
  const { t } = useTranslation();
  const headingId = useId();
  const audit = useAudit();
  const entries = audit.data?.pages.flatMap((page) => page.entries) ?? [];

  return (
    <section className="admin-manage admin-audit" aria-labelledby={headingId}>
      <h2 id={headingId} className="admin-manage__title">
        {t('audit.title')}
      </h2>
      {audit.isPending ? (
        <p className="admin-manage__state">{t('audit.loading')}</p>
      ) : audit.isError && entries.length === 0 ? (
        <div className="admin-manage__state">
          <p className="alert alert--error" role="alert">
            {failureText(audit.error, t('audit.loadFailed'))}
          </p>
          <Button variant="secondary" onClick={() => void audit.refetch()}>
            {t('audit.retry')}
          </Button>
        </div>
      ) : entries.length === 0 ? (
        <p className="admin-manage__state">{t('audit.empty')}</p>
      ) : (
        <>
          <ol className="admin-audit__list">
            {entries.map((entry) => (
              <AuditItem key={entry.id} entry={entry} />
            ))}
          </ol>
          <div role="alert">
            {audit.isFetchNextPageError && (
              <p className="alert alert--error">
                {failureText(audit.error, t('audit.loadFailed'))}
              </p>
            )}
          </div>
          {audit.hasNextPage && (
            <Button
              variant="secondary"
              disabled={audit.isFetchingNextPage}
              onClick={() => void audit.fetchNextPage()}
            >
              {audit.isFetchingNextPage ? t('audit.loadingMore') : t('audit.loadMore')}
            </Button>
          )}
        </>
      )}
    </section>
  );
}

function AuditItem({ entry }: { entry: AuditEntry }) {
  const { t, i18n } = useTranslation();
  const { dateTime } = useDateFormat();
  // A field this version has no words for shows as the server names it.
  const fieldName = (field: string) => {
    const key = `audit.fieldNames.${field.replaceAll('.', '_')}`;
    return typeof i18n.getResource(i18n.language, 'translation', key) === 'string'
      ? t(key as ParseKeys)
      : field;
  };
  // An action this version has no words for (a newer server's) shows as the server names it.
  const actionKey = `audit.actions.${entry.action}`;
  const known = typeof i18n.getResource(i18n.language, 'translation', actionKey) === 'string';
  const action = known ? t(actionKey as ParseKeys) : entry.action;
  // An agent or an account by its name; a settings section, the AI settings and the monitor's
  // quick actions are their own target ("changed the theme settings", "sent a test e-mail"), not
  // said twice; anything else as the server names it.
  const target =
    entry.targetName ?? (/^(settings|ai|monitor)\./.test(entry.action) ? '' : entry.target);
  // A creation, an upload or a deletion is the whole record, and a quick action's record holds
  // its result, not fields changed: their field names would say nothing more. Each field in
  // words; role and originalRole are one ("role"), said once.
  const fields = /\.(create|upload|delete)$|^monitor\./.test(entry.action)
    ? []
    : [...new Set(Object.keys(entry.changes).map((field) => fieldName(field)))];
  return (
    <li className="admin-audit__item">
      <p className="admin-audit__line">
        <span className="admin-audit__who">{entry.actor?.name ?? t('audit.deletedAccount')}</span>{' '}
        <span className="admin-audit__action">{action}</span>
        {target && (
          <>
            {' '}
            <span className="admin-audit__target">{target}</span>
          </>
        )}
      </p>
      {fields.length > 0 && (
        <p className="admin-audit__fields">
          {t('audit.fields', { fields: new Intl.ListFormat(i18n.language).format(fields) })}
        </p>
      )}
      <time className="admin-audit__when" dateTime={entry.at}>
        {dateTime(entry.at)}
      </time>
    </li>
  );
}
