import type { WhatsAppConversation } from '@contrateia/shared/whatsapp/whatsapp.schemas';
import { useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { useAssignAgent } from '@/features/whatsapp/api/conversation-actions';
import { useWhatsAppAgents } from '@/features/whatsapp/api/get-agents';
import { errorMessage } from '@/lib/api-client';
import { contactDisplayName } from '@/features/whatsapp/contact-name';

/**
 * Assign Agent (enhanced page): the available agents to choose from, or the default one; Assign
 * saves and closes, Cancel (or Escape) leaves it as it was.
 */
export function AssignAgentDialog({
  conversation,
  onClose,
}: {
  conversation: WhatsAppConversation;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const formId = useId();
  const agents = useWhatsAppAgents();
  const assign = useAssignAgent();
  const [choice, setChoice] = useState<string>(conversation.agent_id ?? '');
  const name = contactDisplayName(conversation, t);

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    const agent = agents.data?.find((a) => a.id === choice);
    assign.mutate(
      {
        id: conversation.id,
        input: { agentId: agent?.id ?? null, displayName: agent?.displayName ?? null },
      },
      { onSuccess: onClose },
    );
  };

  return (
    <Dialog
      title={t('whatsapp.assign.title')}
      onClose={onClose}
      footer={
        <>
          <Button variant="secondary" onClick={onClose}>
            {t('whatsapp.assign.cancel')}
          </Button>
          <Button type="submit" form={formId} disabled={!agents.data || assign.isPending}>
            {t('whatsapp.assign.assign')}
          </Button>
        </>
      }
    >
      <form id={formId} onSubmit={handleSubmit} className="wa-assign">
        <fieldset className="wa-assign__choices">
          <legend>{t('whatsapp.assign.intro', { name })}</legend>
          {agents.isPending ? (
            <p role="status">{t('whatsapp.assign.loading')}</p>
          ) : agents.isError ? (
            <p className="alert alert--error" role="alert">
              {t('whatsapp.assign.loadFailed')}
            </p>
          ) : (
            <>
              <label className="wa-assign__choice">
                <input
                  type="radio"
                  name="agent"
                  value=""
                  checked={choice === ''}
                  onChange={() => setChoice('')}
                />
                <span>{t('whatsapp.assign.default')}</span>
              </label>
              {agents.data.map((agent) => (
                <label key={agent.id} className="wa-assign__choice">
                  <input
                    type="radio"
                    name="agent"
                    value={agent.id}
                    checked={choice === agent.id}
                    onChange={() => setChoice(agent.id)}
                  />
                  <span>
                    <span className="wa-assign__name">{agent.displayName}</span>
                    <span className="wa-assign__description">{agent.description}</span>
                  </span>
                </label>
              ))}
              {agents.data.length === 0 && <p>{t('whatsapp.assign.none')}</p>}
            </>
          )}
        </fieldset>
        {assign.isError && (
          <p className="alert alert--error" role="alert">
            {errorMessage(assign.error, { failed: t('whatsapp.assign.failed') })}
          </p>
        )}
      </form>
    </Dialog>
  );
}
