import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TextField, type TextFieldProps } from '@/components/ui/text-field';

/** The decimal separator of `language` ("," in pt-BR and es-ES, "." in en-US), as Intl writes it. */
function decimalSeparator(language: string): string {
  return (
    new Intl.NumberFormat(language).formatToParts(1.5).find((part) => part.type === 'decimal')
      ?.value ?? '.'
  );
}

/** `value` as the language writes it, without grouping (0.3 → "0,3" in pt-BR); '' when not a number. */
function formatDecimal(value: number, language: string): string {
  if (!Number.isFinite(value)) return '';
  return new Intl.NumberFormat(language, { maximumFractionDigits: 6, useGrouping: false }).format(
    value,
  );
}

/** What was typed, read with the language's separator (or a dot); NaN when it is not a number. */
function parseDecimal(text: string, language: string): number {
  const normalized = text.trim().replace(decimalSeparator(language), '.');
  return /^-?(\d+\.?\d*|\.\d+)$/.test(normalized) ? Number(normalized) : Number.NaN;
}

export interface DecimalFieldProps extends Omit<TextFieldProps, 'value' | 'onChange' | 'type'> {
  value: number;
  onChange: (value: number) => void;
}

/**
 * A decimal number in the interface language's writing (0,3 in pt-BR), where a number input
 * shows the browser's own (0.3): shown with Intl, read back with the same separator (a dot is
 * read too). What cannot be read is NaN, for the form's schema to refuse.
 */
export function DecimalField({ value, onChange, ...props }: DecimalFieldProps) {
  const { i18n } = useTranslation();
  const language = i18n.language;
  const [typed, setTyped] = useState(() => ({ text: formatDecimal(value, language), language }));
  // A value set from outside (a reset, another language) is shown as written there; what the
  // user is typing ("0," on the way to "0,7") is kept as typed.
  const reads = parseDecimal(typed.text, language);
  const text =
    typed.language === language && (reads === value || (Number.isNaN(reads) && Number.isNaN(value)))
      ? typed.text
      : formatDecimal(value, language);
  return (
    <TextField
      {...props}
      type="text"
      inputMode="decimal"
      autoComplete="off"
      value={text}
      onChange={(event) => {
        const next = event.target.value;
        setTyped({ text: next, language });
        onChange(parseDecimal(next, language));
      }}
    />
  );
}
