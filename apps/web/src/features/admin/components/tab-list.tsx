import type { KeyboardEvent, ReactNode } from 'react';
import { cx } from '@/lib/cx';

export interface TabItem<Id extends string> {
  id: Id;
  label: ReactNode;
}

/** The id of the tab `id` (`aria-labelledby` of its panel) and of its panel. */
export const tabId = (prefix: string, id: string) => `${prefix}-tab-${id}`;
export const panelId = (prefix: string, id: string) => `${prefix}-panel-${id}`;

/**
 * A row of tabs (WAI-ARIA tabs pattern, automatic activation): only the selected tab is in the
 * Tab order; the arrow keys, Home and End move to another tab and select it. Each panel is
 * rendered by the owner with `role="tabpanel"`, `id={panelId(prefix, id)}` and
 * `aria-labelledby={tabId(prefix, id)}`.
 */
export function TabList<Id extends string>({
  items,
  selected,
  onSelect,
  label,
  prefix,
  className,
}: {
  items: readonly TabItem<Id>[];
  selected: Id;
  onSelect: (id: Id) => void;
  /** The tab list's accessible name. */
  label: string;
  /** Makes the tabs' and panels' ids unique in the page. */
  prefix: string;
  className?: string;
}) {
  const handleKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = items.findIndex((item) => item.id === selected);
    const last = items.length - 1;
    const next =
      event.key === 'ArrowRight'
        ? index === last
          ? 0
          : index + 1
        : event.key === 'ArrowLeft'
          ? index <= 0
            ? last
            : index - 1
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? last
              : null;
    const item = next === null ? undefined : items[next];
    if (!item) return;
    event.preventDefault();
    onSelect(item.id);
    document.getElementById(tabId(prefix, item.id))?.focus();
  };

  return (
    <div
      role="tablist"
      aria-label={label}
      className={cx('admin-tabs', className)}
      onKeyDown={handleKeyDown}
    >
      {items.map((item) => {
        const isSelected = item.id === selected;
        return (
          <button
            key={item.id}
            type="button"
            role="tab"
            id={tabId(prefix, item.id)}
            aria-selected={isSelected}
            aria-controls={panelId(prefix, item.id)}
            tabIndex={isSelected ? 0 : -1}
            className={cx('admin-tabs__tab', isSelected && 'is-selected')}
            onClick={() => onSelect(item.id)}
          >
            {item.label}
          </button>
        );
      })}
    </div>
  );
}
