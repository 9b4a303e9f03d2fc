import { useEffect, useState } from 'react';

/** setTimeout's longest wait (about 24.8 days): a later moment is waited for in steps. */
const LONGEST_TIMEOUT_MS = 2 ** 31 - 1;

const hasPassed = (at: number) => !(at > Date.now());

/**
 * Whether the moment `iso` has passed (so for none), turning true when it does: a note that holds
 * "until 14:48" goes at 14:48 on an open page, without waiting for the server to say so again.
 */
export function useHasPassed(iso: string | null | undefined): boolean {
  const at = iso ? Date.parse(iso) : Number.NaN;
  const [passed, setPassed] = useState(() => hasPassed(at));
  useEffect(() => {
    let timer: number | undefined;
    const check = () => {
      const left = at - Date.now();
      setPassed(hasPassed(at));
      if (left > 0) timer = window.setTimeout(check, Math.min(left, LONGEST_TIMEOUT_MS));
    };
    check();
    return () => window.clearTimeout(timer);
  }, [at]);
  return passed;
}
