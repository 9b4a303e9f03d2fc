import type { ComponentPropsWithRef, ReactNode } from 'react';
import { describedBy, FieldNotes } from '@/components/ui/text-field';
import { cx } from '@/lib/cx';

// Labelled textarea and select for the forms (the admin panel's, an own agent's), built as
// components/ui/text-field.tsx is (its describedBy and FieldNotes): the error is announced and
// tied to the control, and so is the hint. An input is components/ui/TextField itself.

export interface TextAreaFieldProps extends ComponentPropsWithRef<'textarea'> {
  id: string;
  label: string;
  /** Already translated. */
  error?: string;
  hint?: ReactNode;
}

export function TextAreaField({ id, label, error, hint, className, ...props }: TextAreaFieldProps) {
  return (
    <div className={cx('field', className)}>
      <label htmlFor={id} className="field__label">
        {label}
      </label>
      <textarea
        id={id}
        className="field__input field__textarea"
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, { error, hint })}
        {...props}
      />
      <FieldNotes id={id} error={error} hint={hint} />
    </div>
  );
}

export interface SelectFieldProps extends ComponentPropsWithRef<'select'> {
  id: string;
  label: string;
  error?: string;
  hint?: ReactNode;
}

export function SelectField({
  id,
  label,
  error,
  hint,
  className,
  children,
  ...props
}: SelectFieldProps) {
  return (
    <div className={cx('field', className)}>
      <label htmlFor={id} className="field__label">
        {label}
      </label>
      <select
        id={id}
        className="field__input"
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(id, { error, hint })}
        {...props}
      >
        {children}
      </select>
      <FieldNotes id={id} error={error} hint={hint} />
    </div>
  );
}
