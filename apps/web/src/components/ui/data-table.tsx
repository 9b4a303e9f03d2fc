import type { ReactNode } from 'react';
import { cx } from '@/lib/cx';

/**
 * A table of records: a caption for screen readers, a header row of column labels, the rows, and
 * the whole dimmed (aria-busy) while `busy` refreshes it. Styled by `className` and
 * `${className}-wrap`, the page's own.
 */
export function DataTable({
  className,
  caption,
  columns,
  busy,
  children,
}: {
  className: string;
  caption: string;
  columns: string[];
  busy: boolean;
  children: ReactNode;
}) {
  return (
    <div className={cx(`${className}-wrap`, busy && 'is-busy')} aria-busy={busy || undefined}>
      <table className={className}>
        <caption className="visually-hidden">{caption}</caption>
        <thead>
          <tr>
            {columns.map((label) => (
              <th key={label} scope="col">
                {label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>{children}</tbody>
      </table>
    </div>
  );
}
