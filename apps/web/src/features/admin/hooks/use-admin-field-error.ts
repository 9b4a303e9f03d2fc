import { useCallback } from 'react';
import type { FieldError } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { SERVER_ERROR, useFieldErrorText } from '@/lib/form-errors';

/**
 * Text for a field error of the panel's forms. Some rules of the shared schemas carry no message
 * key (a temperature above 2, a keyword over 60 characters): those read "Invalid value", as the
 * server words them (plugins/errors.ts), instead of showing zod's English or a raw key.
 */
export function useAdminFieldError() {
  const { t } = useTranslation();
  const fieldErrorText = useFieldErrorText();
  return useCallback(
    (error: FieldError | undefined): string | undefined => {
      if (!error?.message) return error ? t('validation.invalidValue') : undefined;
      if (error.type !== SERVER_ERROR && !/^(validation|adminValidation)\./.test(error.message)) {
        return t('validation.invalidValue');
      }
      return fieldErrorText(error);
    },
    [t, fieldErrorText],
  );
}
