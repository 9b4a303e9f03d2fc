import { useState } from 'react';
import { useController, type Control, type FieldError, type Path } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { TextField } from '@/components/ui/text-field';
import type { AgentFormOutput, AgentFormValues } from '@/features/admin/manage-validation';

/** Keywords are edited as one comma-separated text. */
const splitKeywords = (text: string) =>
  text
    .split(',')
    .map((keyword) => keyword.trim())
    .filter(Boolean);

/** A list of keywords in the agent form: a knowledge entry's, or a catalogue item's in one language. */
type KeywordsPath =
  | `configuration.knowledge.${number}.keywords`
  | `configuration.catalogue.items.${number}.keywords.${'pt-BR' | 'en-US' | 'es-ES'}`;

/**
 * The keywords' error: of the whole list (too many; or the server's, on the field), or of the
 * first keyword in error (too long).
 */
export function keywordsError(errors: unknown): FieldError | undefined {
  if (!errors || typeof errors !== 'object') return undefined;
  if ('message' in errors && typeof errors.message === 'string') return errors as FieldError;
  if (Array.isArray(errors)) return errors.find((error): error is FieldError => Boolean(error));
  return (errors as { root?: FieldError }).root;
}

/** The keywords as one comma-separated text; the form holds them as a list. */
export function KeywordsField({
  id,
  name,
  control,
  clearError,
  error,
}: {
  id: string;
  name: KeywordsPath;
  control: Control<AgentFormValues, unknown, AgentFormOutput>;
  clearError: (name: Path<AgentFormValues>) => void;
  error: string | undefined;
}) {
  const { t } = useTranslation();
  const { field } = useController({ control, name });
  const [text, setText] = useState(() => ((field.value as string[] | undefined) ?? []).join(', '));
  return (
    <TextField
      id={id}
      label={t('agentManagement.knowledge.keywords')}
      hint={t('agentManagement.knowledge.keywordsHint')}
      autoComplete="off"
      value={text}
      error={error}
      ref={field.ref}
      onBlur={field.onBlur}
      onChange={(event) => {
        setText(event.target.value);
        field.onChange(splitKeywords(event.target.value));
        clearError(name);
      }}
    />
  );
}
