import { ITEM_NAME_MAX, ITEM_TEXT_MAX, ITEM_UNIT_MAX, MY_CATALOGUE_MAX } from '@contrateia/shared';
import { Controller, useFieldArray, useFormContext } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { DecimalField } from '@/components/ui/decimal-field';
import { TextAreaField } from '@/components/ui/form-fields';
import { TextField } from '@/components/ui/text-field';
import { FormRows } from '@/features/my-agents/components/form-rows';
import { FormSection, ListError } from '@/features/my-agents/components/form-section';
import { newCatalogueRow } from '@/features/my-agents/form-values';
import { listError, useFieldError } from '@/features/my-agents/hooks/use-field-error';
import type { MyAgentFormOutput, MyAgentFormValues } from '@/features/my-agents/validation';

/** Catálogo: what the business sells, each with its price in reais and what the price is for. */
export function CatalogueSection() {
  const { t } = useTranslation();
  const fieldError = useFieldError();
  const {
    control,
    register,
    formState: { errors },
  } = useFormContext<MyAgentFormValues, unknown, MyAgentFormOutput>();
  const items = useFieldArray({ control, name: 'catalogue' });

  return (
    <FormSection
      name="catalogue"
      title={t('ownAgents.catalogue.title')}
      intro={t('ownAgents.catalogue.intro')}
    >
      <ListError error={fieldError(listError(errors.catalogue))} />
      <FormRows
        section="catalogue"
        label={t('ownAgents.catalogue.title')}
        rows={items.fields}
        max={MY_CATALOGUE_MAX}
        emptyText={t('ownAgents.catalogue.empty')}
        legend={(number) => t('ownAgents.catalogue.item', { number })}
        removeLabel={(number) => t('ownAgents.catalogue.remove', { number })}
        addLabel={t('ownAgents.catalogue.add')}
        onRemove={items.remove}
        onAdd={() => items.append(newCatalogueRow(), { shouldFocus: false })}
      >
        {(field, index) => {
          const id = `my-agent-item-${field.id}`;
          const itemErrors = errors.catalogue?.[index];
          return (
            <>
              <div className="my-agent-grid">
                <TextField
                  id={`${id}-name`}
                  className="my-agent-grid__wide"
                  label={t('ownAgents.catalogue.name')}
                  autoComplete="off"
                  maxLength={ITEM_NAME_MAX}
                  error={fieldError(itemErrors?.name)}
                  {...register(`catalogue.${index}.name`)}
                />
                {/* In the language's writing (49,90 in pt-BR): a number input shows the browser's. */}
                <Controller
                  control={control}
                  name={`catalogue.${index}.price`}
                  render={({ field: price }) => (
                    <DecimalField
                      id={`${id}-price`}
                      label={t('ownAgents.catalogue.price')}
                      error={fieldError(itemErrors?.price)}
                      ref={price.ref}
                      name={price.name}
                      value={price.value ?? Number.NaN}
                      onBlur={price.onBlur}
                      onChange={price.onChange}
                    />
                  )}
                />
                <TextField
                  id={`${id}-unit`}
                  label={t('ownAgents.catalogue.unit')}
                  hint={t('ownAgents.catalogue.unitHint')}
                  autoComplete="off"
                  maxLength={ITEM_UNIT_MAX}
                  error={fieldError(itemErrors?.unit)}
                  {...register(`catalogue.${index}.unit`)}
                />
              </div>
              <TextAreaField
                id={`${id}-description`}
                label={t('ownAgents.catalogue.description')}
                rows={2}
                maxLength={ITEM_TEXT_MAX}
                error={fieldError(itemErrors?.description)}
                {...register(`catalogue.${index}.description`)}
              />
            </>
          );
        }}
      </FormRows>
    </FormSection>
  );
}
