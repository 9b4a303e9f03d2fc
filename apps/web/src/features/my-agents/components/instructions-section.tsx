import {
  BUSINESS_FIELD_MAX,
  MY_AGENT_DESCRIPTION_MAX,
  MY_AGENT_INSTRUCTIONS_MAX,
  MY_AGENT_NAME_MAX,
} from '@contrateia/shared';
import { useFormContext } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { TextAreaField } from '@/components/ui/form-fields';
import { TextField } from '@/components/ui/text-field';
import { FormSection } from '@/features/my-agents/components/form-section';
import { useFieldError } from '@/features/my-agents/hooks/use-field-error';
import type { MyAgentFormOutput, MyAgentFormValues } from '@/features/my-agents/validation';

/** Instruções: the agent's name and description, how it should answer, and its hand-over line. */
export function InstructionsSection({ editing }: { editing: boolean }) {
  const { t } = useTranslation();
  const fieldError = useFieldError();
  const {
    register,
    formState: { errors },
  } = useFormContext<MyAgentFormValues, unknown, MyAgentFormOutput>();

  return (
    <FormSection
      name="instructions"
      title={t('ownAgents.instructions.title')}
      intro={t('ownAgents.instructions.intro')}
    >
      <TextField
        id="my-agent-display-name"
        label={t('ownAgents.instructions.displayName')}
        hint={
          editing
            ? t('ownAgents.instructions.displayNameHintEdit')
            : t('ownAgents.instructions.displayNameHint')
        }
        autoComplete="off"
        maxLength={MY_AGENT_NAME_MAX}
        error={fieldError(errors.displayName)}
        {...register('displayName')}
      />
      <TextAreaField
        id="my-agent-description"
        label={t('ownAgents.instructions.description')}
        hint={t('ownAgents.instructions.descriptionHint')}
        rows={2}
        maxLength={MY_AGENT_DESCRIPTION_MAX}
        error={fieldError(errors.description)}
        {...register('description')}
      />
      <TextAreaField
        id="my-agent-instructions"
        label={t('ownAgents.instructions.instructions')}
        hint={t('ownAgents.instructions.instructionsHint')}
        rows={6}
        maxLength={MY_AGENT_INSTRUCTIONS_MAX}
        error={fieldError(errors.instructions)}
        {...register('instructions')}
      />
      <TextAreaField
        id="my-agent-handoff"
        label={t('ownAgents.instructions.handoff')}
        hint={t('ownAgents.instructions.handoffHint')}
        rows={2}
        maxLength={BUSINESS_FIELD_MAX}
        error={fieldError(errors.business?.handoffMessage)}
        {...register('business.handoffMessage')}
      />
    </FormSection>
  );
}
