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

/**
 * The server's `errors` ({path: message}) on the form's fields, `paths` (dotted, as the server
 * names them): one on a part of a field (`faq.2.alternates.1`, one line of a list edited as one
 * text) goes on the longest of `paths` it starts with; the first message of each field is kept.
 */
export function onFormFields(
  errors: Record<string, string> | undefined,
  paths: readonly string[],
): Record<string, string> {
  const placed: Record<string, string> = {};
  for (const [key, message] of Object.entries(errors ?? {})) {
    const field = paths
      .filter((path) => key === path || key.startsWith(`${path}.`))
      .sort((a, b) => b.length - a.length)[0];
    if (field && !placed[field]) placed[field] = message;
  }
  return placed;
}
