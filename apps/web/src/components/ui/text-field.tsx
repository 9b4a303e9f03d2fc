import type { ComponentPropsWithRef } from 'react';
import { cx } from '@/lib/cx';

export interface TextFieldProps extends ComponentPropsWithRef<'input'> {
  id: string;
  label: string;
  /** Already translated. */
  error?: string;
}

/** A labelled input whose error is announced and tied to it through aria-describedby. */
export function TextField({ id, label, error, className, ...inputProps }: TextFieldProps) {
  const errorId = `${id}-error`;
  return (
    <div className={cx('field', className)}>
      <label htmlFor={id} className="field__label">
        {label}
      </label>
      <input
        id={id}
        className="field__input"
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        {...inputProps}
      />
      {error && (
        <p id={errorId} className="field__error" role="alert">
          {error}
        </p>
      )}
    </div>
  );
}
