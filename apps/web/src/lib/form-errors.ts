import type { ParseKeys } from 'i18next';
import { useCallback } from 'react';
import type { FieldError, FieldValues, Path, UseFormSetError } from 'react-hook-form';
import { useTranslation } from 'react-i18next';

/** Marks a field error that holds the server's already-translated text, not a translation key. */
export const SERVER_ERROR = 'server';

/**
 * Text for a react-hook-form field error: zod messages are translation keys from the shared
 * schemas (kept complete by locales.test.ts); server messages arrive translated.
 */
export function useFieldErrorText() {
  const { t } = useTranslation();
  return useCallback(
    (error: FieldError | undefined): string | undefined => {
      if (!error?.message) return undefined;
      return error.type === SERVER_ERROR ? error.message : t(error.message as ParseKeys);
    },
    [t],
  );
}

/**
 * Puts the server's `errors` ({field: message}) on the form's own fields; returns whether any
 * landed, so the caller shows the general message only when none did.
 */
export function applyServerErrors<T extends FieldValues>(
  setError: UseFormSetError<T>,
  errors: Record<string, string> | undefined,
  fields: readonly Path<T>[],
): boolean {
  let applied = false;
  for (const field of fields) {
    const message = errors?.[field];
    if (message) {
      setError(field, { type: SERVER_ERROR, message }, { shouldFocus: !applied });
      applied = true;
    }
  }
  return applied;
}
