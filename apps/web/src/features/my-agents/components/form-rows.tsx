import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { CloseIcon } from '@/components/ui/action-icons';
import { Button } from '@/components/ui/button';
import { sectionId, type SectionName } from '@/features/my-agents/components/form-section';
import { useFocusAfterRender } from '@/features/my-agents/hooks/use-focus-after-render';
import { cx } from '@/lib/cx';

/**
 * Remove for one row: the visible word "Remover", and a name saying which row. `compact` (a
 * period, a closed date) shows a cross, its word left to screen readers on phones.
 */
export function RemoveButton({
  label,
  compact = false,
  onClick,
}: {
  label: string;
  compact?: boolean;
  onClick: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Button
      variant="ghost"
      className={cx('my-agent-remove', compact && 'my-agent-remove--compact')}
      aria-label={label}
      onClick={onClick}
    >
      {compact && <CloseIcon />}
      <span className="my-agent-remove__text">{t('ownAgents.remove')}</span>
    </Button>
  );
}

/**
 * The rows of a section the user adds and removes (catalogue items, questions): each a fieldset
 * named by its number, holding its fields and Remove; Add after them, off at the list's
 * maximum. A new row's first field gets focus; a removed row's focus goes to Add.
 */
export function FormRows<Row extends { id: string }>({
  section,
  label,
  rows,
  max,
  emptyText,
  legend,
  removeLabel,
  addLabel,
  onRemove,
  onAdd,
  children,
}: {
  section: SectionName;
  /** The list's name. */
  label: string;
  rows: Row[];
  max: number;
  emptyText: string;
  legend: (number: number) => string;
  removeLabel: (number: number) => string;
  addLabel: string;
  onRemove: (index: number) => void;
  onAdd: () => void;
  children: (row: Row, index: number) => ReactNode;
}) {
  const focusAfterRender = useFocusAfterRender();
  const addId = `${sectionId(section)}-add`;
  return (
    <>
      {rows.length === 0 && <p className="my-agent-section__empty">{emptyText}</p>}
      <ol className="my-agent-rows" aria-label={label}>
        {rows.map((row, index) => (
          <li key={row.id}>
            <fieldset className="my-agent-row">
              <legend className="my-agent-row__legend">{legend(index + 1)}</legend>
              {children(row, index)}
              <RemoveButton
                label={removeLabel(index + 1)}
                onClick={() => {
                  onRemove(index);
                  focusAfterRender(`#${addId}`);
                }}
              />
            </fieldset>
          </li>
        ))}
      </ol>
      <Button
        id={addId}
        variant="secondary"
        className="my-agent-add"
        disabled={rows.length >= max}
        onClick={() => {
          onAdd();
          focusAfterRender(`#${sectionId(section)} .my-agent-rows > li:last-child input`);
        }}
      >
        {addLabel}
      </Button>
    </>
  );
}
