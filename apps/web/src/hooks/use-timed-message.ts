import { useCallback, useEffect, useState } from 'react';

/**
 * A message that clears itself after `durationMs` (successes after 3 s, role errors after 5 s).
 * Showing a message again, even the same text, restarts the clock.
 */
export function useTimedMessage(durationMs: number) {
  const [entry, setEntry] = useState<{ text: string } | null>(null);

  useEffect(() => {
    if (!entry) return;
    const timer = window.setTimeout(() => setEntry(null), durationMs);
    return () => window.clearTimeout(timer);
  }, [entry, durationMs]);

  const show = useCallback((text: string) => setEntry({ text }), []);
  const clear = useCallback(() => setEntry(null), []);

  return { message: entry?.text ?? null, show, clear };
}

/** Success messages clear after 3 s, role errors after 5 s. */
export const SUCCESS_MESSAGE_MS = 3_000;
export const ROLE_ERROR_MS = 5_000;
