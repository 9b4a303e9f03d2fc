import { useEffect } from 'react';

/**
 * While a form holds edits not yet saved, closing or reloading the page asks first (the browser's
 * own question). For the admin panel's tabs (which keep their edits while hidden, so only leaving
 * the page loses them) and the own agents' form.
 */
export function useWarnBeforeLeaving(unsaved: boolean) {
  useEffect(() => {
    if (!unsaved) return;
    const ask = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Older browsers ask only when a return value is set.
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', ask);
    return () => window.removeEventListener('beforeunload', ask);
  }, [unsaved]);
}
