import type { CreateSingleAgentUserInput, Language } from '@contrateia/shared';
import { useId, useState } from 'react';
import { useForm, type Path } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { LiveMessage } from '@/components/ui/live-message';
import { TextField } from '@/components/ui/text-field';
import { useAdminAgents } from '@/features/admin/api/get-agents';
import { useCreateSingleAgentUser } from '@/features/admin/api/user-actions';
import { SelectField } from '@/components/ui/form-fields';
import { failureText } from '@/features/admin/failure-text';
import { useAdminFieldError } from '@/features/admin/hooks/use-admin-field-error';
import { singleAgentUserResolver } from '@/features/admin/manage-validation';
import { ApiError } from '@/lib/api-client';
import { applyServerErrors } from '@/lib/form-errors';

const EMPTY: CreateSingleAgentUserInput = { name: '', email: '', password: '', agentId: '' };
const FIELDS: Path<CreateSingleAgentUserInput>[] = ['name', 'email', 'password', 'agentId'];

/**
 * Creates a single-agent account: name, e-mail, password and one agent chosen from the active ones.
 * The account is verified and has exactly that agent.
 */
export function CreateSingleAgentUserDialog({
  onClose,
  onCreated,
}: {
  onClose: () => void;
  /** The server's message for the new account. */
  onCreated: (message: string) => void;
}) {
  const { t, i18n } = useTranslation();
  const formId = useId();
  const fieldError = useAdminFieldError();
  const agents = useAdminAgents();
  const create = useCreateSingleAgentUser();
  const [generalError, setGeneralError] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    clearErrors,
    getFieldState,
    formState: { errors, isSubmitting },
  } = useForm<CreateSingleAgentUserInput>({
    resolver: singleAgentUserResolver,
    defaultValues: EMPTY,
    reValidateMode: 'onSubmit',
  });
  /** Clears a field's error as soon as it is edited. */
  const field = (name: Path<CreateSingleAgentUserInput>) =>
    register(name, {
      onChange: () => {
        if (getFieldState(name).error) clearErrors(name);
      },
    });

  // Active agents a user can have: the admin-only one (administrador) is for admins alone.
  const choices = (agents.data?.agents ?? []).filter((agent) => agent.isActive && !agent.adminOnly);

  const handleCreate = handleSubmit(async (input) => {
    setGeneralError(null);
    try {
      const { message } = await create.mutateAsync(input);
      onCreated(message);
    } catch (error) {
      if (error instanceof ApiError && applyServerErrors(setError, error.errors, FIELDS)) return;
      setGeneralError(failureText(error, t('users.create.failed')));
    }
  });

  return (
    <Dialog title={t('users.create.title')} onClose={onClose} className="admin-dialog">
      <form
        id={formId}
        className="admin-form"
        noValidate
        onSubmit={(event) => void handleCreate(event)}
      >
        <p className="field__hint">{t('users.create.intro')}</p>
        <LiveMessage tone="error" message={generalError} />
        <TextField
          id={`${formId}-name`}
          label={t('users.create.name')}
          autoComplete="off"
          error={fieldError(errors.name)}
          {...field('name')}
        />
        <TextField
          id={`${formId}-email`}
          label={t('users.create.email')}
          type="email"
          autoComplete="off"
          error={fieldError(errors.email)}
          {...field('email')}
        />
        <TextField
          id={`${formId}-password`}
          label={t('users.create.password')}
          type="password"
          autoComplete="new-password"
          error={fieldError(errors.password)}
          {...field('password')}
        />
        <SelectField
          id={`${formId}-agent`}
          label={t('users.create.agent')}
          disabled={agents.isPending}
          hint={
            agents.isError
              ? t('users.create.agentsFailed')
              : agents.isPending
                ? t('users.create.agentsLoading')
                : undefined
          }
          error={fieldError(errors.agentId)}
          {...field('agentId')}
        >
          <option value="">{t('users.create.chooseAgent')}</option>
          {choices.map((agent) => (
            <option key={agent.id} value={agent.id}>
              {agent.displayName[i18n.language as Language] || agent.name}
            </option>
          ))}
        </SelectField>
        <div className="admin-form__actions">
          <Button type="submit" disabled={isSubmitting}>
            {isSubmitting ? t('users.create.creating') : t('users.create.submit')}
          </Button>
          <Button variant="secondary" onClick={onClose}>
            {t('users.create.cancel')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
