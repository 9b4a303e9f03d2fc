import type { ComponentPropsWithRef, ReactNode } from 'react';
import { cx } from '@/lib/cx';

/** The ids a control's aria-describedby names: its hint, then its error. */
export function describedBy(id: string, { error, hint }: { error?: string; hint?: ReactNode }) {
  return (
    [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ') ||
    undefined
  );
}

/** A control's hint and its announced error, under it, with the ids `describedBy` names. */
export function FieldNotes({ id, error, hint }: { id: string; error?: string; hint?: ReactNode }) {
  return (
    <>
      {hint && (
        <p id={`${id}-hint`} className="field__hint">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="field__error" role="alert">
          {error}
        </p>
      )}
    </>
  );
}

export interface TextFieldProps extends ComponentPropsWithRef<'input'> {
  id: string;
  /** Text, or text with a part for screen readers only (which of several alike fields this is). */
  label: ReactNode;
  /** Already translated. */
  error?: string;
  /** Shown under the input and tied to it. */
  hint?: ReactNode;
}

/** A labelled input whose hint and error are announced and tied to it through aria-describedby. */
export function TextField({ id, label, error, hint, className, ...inputProps }: TextFieldProps) {
  return (
    <div className={cx('field', className)}>
      <label htmlFor={id} className="field__label">
        {label}
      </label>
      <input
        id={id}
        className="field__input"
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, { error, hint })}
        {...inputProps}
      />
      <FieldNotes id={id} error={error} hint={hint} />
    </div>
  );
}
