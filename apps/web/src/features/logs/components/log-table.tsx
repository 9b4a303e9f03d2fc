import type { LogEntry } from '@contrateia/shared/logs/logs.schemas';
import { useId, useState, type MouseEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable } from '@/components/ui/data-table';
import { useLogTimeFormat } from '@/features/logs/hooks/use-log-time-format';
import { cx } from '@/lib/cx';

/** The table's columns, for the cells' labels on phones (where the rows stack). */
function useColumns() {
  const { t } = useTranslation();
  return {
    time: t('logs.list.time'),
    level: t('logs.list.level'),
    category: t('logs.list.category'),
    message: t('logs.list.message'),
  };
}

/**
 * The events, newest first: time, level (in words and colour), category, message. A row opens
 * the event's context below it: its message is a button (Enter or Space), and a click anywhere
 * on the row does the same.
 */
export function LogTable({ entries, busy }: { entries: LogEntry[]; busy: boolean }) {
  const { t } = useTranslation();
  const columns = useColumns();
  return (
    <DataTable
      className="logs-table"
      caption={t('logs.list.caption')}
      columns={Object.values(columns)}
      busy={busy}
    >
      {entries.map((entry) => (
        <LogRow key={entry.id} entry={entry} />
      ))}
    </DataTable>
  );
}

function LogRow({ entry }: { entry: LogEntry }) {
  const { t } = useTranslation();
  const columns = useColumns();
  const time = useLogTimeFormat();
  const detailsId = useId();
  const [open, setOpen] = useState(false);

  const handleRowClick = (event: MouseEvent) => {
    // The toggle handles its own clicks; a drag that selected text is for copying, not opening.
    if (event.target instanceof Element && event.target.closest('button')) return;
    if (window.getSelection()?.toString()) return;
    setOpen((was) => !was);
  };

  return (
    <>
      <tr className={cx('logs-row', open && 'is-open')} onClick={handleRowClick}>
        <td data-label={columns.time} className="logs-row__time">
          <time dateTime={entry.timestamp} title={time.full(entry.timestamp)}>
            {time.short(entry.timestamp)}
          </time>
        </td>
        <td data-label={columns.level}>
          <span className={`log-level log-level--${entry.level}`}>
            {t(`logs.levels.${entry.level}`)}
          </span>
        </td>
        <td data-label={columns.category}>{t(`logs.categories.${entry.context.category}`)}</td>
        <td data-label={columns.message} className="logs-row__message">
          <button
            type="button"
            className="logs-row__toggle"
            aria-expanded={open}
            aria-controls={open ? detailsId : undefined}
            onClick={() => setOpen((was) => !was)}
          >
            <span className="logs-row__chevron" aria-hidden="true" />
            <span>{entry.message}</span>
          </button>
          {entry.changes && entry.changes.length > 0 && <LogChanges changes={entry.changes} />}
        </td>
      </tr>
      {open && (
        <tr className="logs-details-row">
          <td colSpan={4}>
            <LogDetails id={detailsId} entry={entry} />
          </td>
        </tr>
      )}
    </>
  );
}

/**
 * What an admin change changed, each field named in the admin's language (the server names it)
 * with its values old → new; a secret's field only says it changed.
 */
function LogChanges({ changes }: { changes: NonNullable<LogEntry['changes']> }) {
  const { t } = useTranslation();
  const quoted = (value: string | null) => (value === null ? t('logs.changes.none') : `“${value}”`);
  return (
    <ul className="logs-row__changes" aria-label={t('logs.changes.label')}>
      {changes.map((change) => (
        <li key={change.field}>
          {change.from === null && change.to === null
            ? t('logs.changes.changed', { name: change.name })
            : t('logs.changes.fromTo', {
                name: change.name,
                from: quoted(change.from),
                to: quoted(change.to),
              })}
        </li>
      ))}
    </ul>
  );
}

/** What the event's context holds: its event, user and request ids, then all of it as JSON. */
function LogDetails({ id, entry }: { id: string; entry: LogEntry }) {
  const { t } = useTranslation();
  const time = useLogTimeFormat();
  const contextId = useId();
  const { context } = entry;
  const facts = [
    { label: t('logs.details.event'), value: context.event },
    { label: t('logs.details.userId'), value: context.userId },
    { label: t('logs.details.requestId'), value: context.requestId },
  ];
  return (
    <div
      id={id}
      role="region"
      className="log-details"
      aria-label={t('logs.details.label', { time: time.short(entry.timestamp) })}
    >
      <dl className="log-details__facts">
        <div>
          <dt>{t('logs.details.time')}</dt>
          <dd>
            <time dateTime={entry.timestamp}>{time.full(entry.timestamp)}</time>
          </dd>
        </div>
        {facts.map(({ label, value }) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd>{value ? <code>{value}</code> : t('logs.details.none')}</dd>
          </div>
        ))}
      </dl>
      <p id={contextId} className="log-details__heading">
        {t('logs.details.context')}
      </p>
      {/* Focusable, so that a long line can be scrolled sideways from the keyboard. */}
      <pre className="log-details__json" tabIndex={0} aria-labelledby={contextId}>
        {JSON.stringify(context, null, 2)}
      </pre>
    </div>
  );
}
