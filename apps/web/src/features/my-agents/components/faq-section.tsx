import { FAQ_ALTERNATES_MAX, ITEM_NAME_MAX, ITEM_TEXT_MAX, MY_FAQ_MAX } from '@contrateia/shared';
import { useFieldArray, useFormContext } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { TextAreaField } from '@/components/ui/form-fields';
import { TextField } from '@/components/ui/text-field';
import { FormRows } from '@/features/my-agents/components/form-rows';
import { FormSection, ListError } from '@/features/my-agents/components/form-section';
import { newFaqRow } from '@/features/my-agents/form-values';
import { listError, useFieldError } from '@/features/my-agents/hooks/use-field-error';
import type { MyAgentFormOutput, MyAgentFormValues } from '@/features/my-agents/validation';

/** Perguntas frequentes: each question, its answer, and other ways customers ask it. */
export function FaqSection() {
  const { t } = useTranslation();
  const fieldError = useFieldError();
  const {
    control,
    register,
    formState: { errors },
  } = useFormContext<MyAgentFormValues, unknown, MyAgentFormOutput>();
  const entries = useFieldArray({ control, name: 'faq' });

  return (
    <FormSection name="faq" title={t('ownAgents.faq.title')} intro={t('ownAgents.faq.intro')}>
      <ListError error={fieldError(listError(errors.faq))} />
      <FormRows
        section="faq"
        label={t('ownAgents.faq.title')}
        rows={entries.fields}
        max={MY_FAQ_MAX}
        emptyText={t('ownAgents.faq.empty')}
        legend={(number) => t('ownAgents.faq.entry', { number })}
        removeLabel={(number) => t('ownAgents.faq.remove', { number })}
        addLabel={t('ownAgents.faq.add')}
        onRemove={entries.remove}
        onAdd={() => entries.append(newFaqRow(), { shouldFocus: false })}
      >
        {(field, index) => {
          const id = `my-agent-faq-${field.id}`;
          const entryErrors = errors.faq?.[index];
          return (
            <>
              <TextField
                id={`${id}-question`}
                label={t('ownAgents.faq.question')}
                autoComplete="off"
                maxLength={ITEM_NAME_MAX}
                error={fieldError(entryErrors?.question)}
                {...register(`faq.${index}.question`)}
              />
              <TextAreaField
                id={`${id}-answer`}
                label={t('ownAgents.faq.answer')}
                rows={3}
                maxLength={ITEM_TEXT_MAX}
                error={fieldError(entryErrors?.answer)}
                {...register(`faq.${index}.answer`)}
              />
              <TextAreaField
                id={`${id}-alternates`}
                label={t('ownAgents.faq.alternates')}
                hint={t('ownAgents.faq.alternatesHint', { max: FAQ_ALTERNATES_MAX })}
                rows={3}
                error={fieldError(entryErrors?.alternates)}
                {...register(`faq.${index}.alternates`)}
              />
            </>
          );
        }}
      </FormRows>
    </FormSection>
  );
}
