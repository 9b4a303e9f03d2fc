import { useState } from 'react';

/**
 * A folded part of a form (a knowledge entry, a catalogue item): open as it starts, opened by the
 * user, and opened when one of its fields gets an error, so the error can be seen and its field
 * focused. `hasError` says whether it holds one now.
 */
export function useFoldOpenOnError(errors: object | undefined, startOpen: boolean) {
  const [open, setOpen] = useState(startOpen);
  const hasError = errors !== undefined && Object.keys(errors).length > 0;
  const [shownError, setShownError] = useState(hasError);
  if (hasError !== shownError) {
    setShownError(hasError);
    if (hasError) setOpen(true);
  }
  return { open, setOpen, hasError };
}
