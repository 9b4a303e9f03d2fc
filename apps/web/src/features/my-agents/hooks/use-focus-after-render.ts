import { useEffect, useRef } from 'react';

/**
 * Focus for a row just added or removed: `focusAfterRender(selector)` moves focus to the first
 * element matching it once the page has rendered the change (a new row's first field, or the
 * Add button when the row that had focus is gone).
 */
export function useFocusAfterRender() {
  const pending = useRef<string | null>(null);
  useEffect(() => {
    if (!pending.current) return;
    const target = document.querySelector<HTMLElement>(pending.current);
    pending.current = null;
    target?.focus();
  });
  return (selector: string) => {
    pending.current = selector;
  };
}
