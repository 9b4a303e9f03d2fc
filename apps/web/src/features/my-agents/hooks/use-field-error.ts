import { useCallback } from 'react';
import type { FieldError } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { SERVER_ERROR, useFieldErrorText } from '@/lib/form-errors';

/**
 * The first error in what react-hook-form holds for a field: the field's own, or, for a list
 * edited as one field (the closed dates' row, a question's other wordings), its first item's.
 */
function firstError(errors: unknown): FieldError | undefined {
  if (!errors || typeof errors !== 'object') return undefined;
  if ('message' in errors && typeof errors.message === 'string') return errors as FieldError;
  if (Array.isArray(errors)) {
    for (const item of errors) {
      const found = firstError(item);
      if (found) return found;
    }
    return undefined;
  }
  return firstError((errors as { root?: unknown }).root);
}

/**
 * The text of a field's error in the form of an own agent: a key of the shared schemas
 * translated, the server's text as it came. A rule that names no text we have reads "Invalid
 * value", as the server words it, never a raw key or zod's English.
 */
export function useFieldError() {
  const { t, i18n } = useTranslation();
  const fieldErrorText = useFieldErrorText();
  return useCallback(
    (errors: unknown): string | undefined => {
      const error = firstError(errors);
      if (!error) return undefined;
      if (error.type === SERVER_ERROR || (error.message && i18n.exists(error.message))) {
        return fieldErrorText(error);
      }
      return t('validation.invalidValue');
    },
    [t, i18n, fieldErrorText],
  );
}

/** The error of a list itself (too many rows), not of one of its rows. */
export function listError(errors: unknown): FieldError | undefined {
  if (!errors || typeof errors !== 'object') return undefined;
  const { root } = errors as { root?: FieldError };
  if (root) return root;
  return 'message' in errors && typeof errors.message === 'string'
    ? (errors as FieldError)
    : undefined;
}
