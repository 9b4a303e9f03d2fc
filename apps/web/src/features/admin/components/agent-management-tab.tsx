import type { AdminAgent, AdminAgentResponse, Language } from '@contrateia/shared';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Badge } from '@/components/ui/badge';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { LiveMessage } from '@/components/ui/live-message';
import { useDeleteAgent, useSetAgentStatus } from '@/features/admin/api/agent-actions';
import { useAdminAgents } from '@/features/admin/api/get-agents';
import { AgentForm } from '@/features/admin/components/agent-form';
import { TestChatPanel } from '@/features/admin/components/test-chat-panel';
import { failureText } from '@/features/admin/failure-text';
import { SUCCESS_MESSAGE_MS, useTimedMessage } from '@/hooks/use-timed-message';
import { ApiError } from '@/lib/api-client';
import '@/features/admin/admin-manage.css';

/** What the tab shows in place of the list: the create or edit form. */
type Editing = { agent: AdminAgent | null };

const displayNameOf = (agent: AdminAgent, language: string) =>
  agent.displayName[language as Language] || agent.name;

/** The element ids that get focus back when the form closes. */
const editButtonId = (agent: AdminAgent) => `admin-agent-edit-${agent.id}`;
const NEW_BUTTON_ID = 'admin-agent-new';

/**
 * The Agent Management tab: every agent, inactive ones too, with its hires and conversations;
 * create, edit, activate or deactivate, delete (the custom ones) and a test chat per agent.
 */
export function AgentManagementTab() {
  const { t } = useTranslation();
  const headingId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const agents = useAdminAgents();
  const [editing, setEditing] = useState<Editing | null>(null);
  const notice = useTimedMessage(SUCCESS_MESSAGE_MS);
  // Where focus goes once the list is back: the element's id, or the heading (null).
  const [focusAfter, setFocusAfter] = useState<{ id: string | null } | undefined>(undefined);

  useEffect(() => {
    if (!focusAfter || editing) return;
    const target = focusAfter.id ? document.getElementById(focusAfter.id) : headingRef.current;
    target?.focus();
  }, [focusAfter, editing]);

  const closeForm = (answer?: AdminAgentResponse) => {
    const opener = editing?.agent ? editButtonId(editing.agent) : NEW_BUTTON_ID;
    setEditing(null);
    if (answer) {
      notice.show(answer.message);
      setFocusAfter({ id: editButtonId(answer.agent) });
    } else {
      setFocusAfter({ id: opener });
    }
  };

  return (
    <section className="admin-manage" aria-labelledby={headingId}>
      <div className="admin-manage__header">
        <h2 ref={headingRef} id={headingId} className="admin-manage__title" tabIndex={-1}>
          {t('agentManagement.title')}
        </h2>
        {!editing && (
          <Button id={NEW_BUTTON_ID} onClick={() => setEditing({ agent: null })}>
            {t('agentManagement.list.create')}
          </Button>
        )}
      </div>
      <LiveMessage tone="success" message={notice.message} />
      {editing ? (
        <AgentForm agent={editing.agent} onSaved={closeForm} onCancel={() => closeForm()} />
      ) : (
        <AgentList
          state={agents}
          onEdit={(agent) => {
            notice.clear();
            setEditing({ agent });
          }}
          onDeleted={(agent, message) => {
            notice.show(message || t('agentManagement.delete.done', { name: agent.name }));
            setFocusAfter({ id: null });
          }}
        />
      )}
    </section>
  );
}

function AgentList({
  state,
  onEdit,
  onDeleted,
}: {
  state: ReturnType<typeof useAdminAgents>;
  onEdit: (agent: AdminAgent) => void;
  onDeleted: (agent: AdminAgent, message: string) => void;
}) {
  const { t } = useTranslation();
  const [testing, setTesting] = useState<string | null>(null);

  if (state.isPending)
    return <p className="admin-manage__state">{t('agentManagement.list.loading')}</p>;
  if (state.isError) {
    return (
      <div className="admin-manage__state">
        <p className="alert alert--error" role="alert">
          {state.error instanceof ApiError
            ? failureText(state.error, t('agentManagement.list.loadFailed'))
            : t('agentManagement.list.loadError')}
        </p>
        <Button variant="secondary" onClick={() => void state.refetch()}>
          {t('agentManagement.list.retry')}
        </Button>
      </div>
    );
  }
  const agents = state.data.agents;
  if (agents.length === 0)
    return <p className="admin-manage__state">{t('agentManagement.list.empty')}</p>;

  return (
    <ul className="admin-agents" aria-label={t('agentManagement.list.label')}>
      {agents.map((agent) => (
        <AgentCard
          key={agent.id}
          agent={agent}
          testing={testing === agent.id}
          onTest={() => setTesting((current) => (current === agent.id ? null : agent.id))}
          onEdit={() => onEdit(agent)}
          onDeleted={(message) => onDeleted(agent, message)}
        />
      ))}
    </ul>
  );
}

function AgentCard({
  agent,
  testing,
  onTest,
  onEdit,
  onDeleted,
}: {
  agent: AdminAgent;
  testing: boolean;
  onTest: () => void;
  onEdit: () => void;
  onDeleted: (message: string) => void;
}) {
  const { t, i18n } = useTranslation();
  const nameId = useId();
  const panelId = useId();
  const testButton = useRef<HTMLButtonElement>(null);
  const status = useSetAgentStatus();
  const [confirming, setConfirming] = useState<'deactivate' | 'delete' | null>(null);
  const name = displayNameOf(agent, i18n.language);
  const description = agent.description[i18n.language as Language];

  const handleStatus = (isActive: boolean) => {
    status.reset();
    // Deactivating takes the agent away from everyone: asked first. Activating is not.
    if (!isActive) setConfirming('deactivate');
    else status.mutate({ id: agent.id, isActive: true });
  };

  return (
    <li className="admin-agent" aria-labelledby={nameId}>
      <div className="admin-agent__head">
        <h3 id={nameId} className="admin-agent__name">
          {name}
        </h3>
        <code className="admin-agent__slug">{agent.name}</code>
        <Badge tone={agent.seeded ? 'info' : 'success'}>
          {agent.seeded ? t('agentManagement.list.seeded') : t('agentManagement.list.custom')}
        </Badge>
        {agent.adminOnly && <Badge tone="info">{t('agentManagement.list.adminOnly')}</Badge>}
      </div>
      {description && <p className="admin-agent__description">{description}</p>}
      <dl className="admin-agent__stats">
        <div>
          <dt>{t('agentManagement.list.hires')}</dt>
          <dd>{agent.hires}</dd>
        </div>
        <div>
          <dt>{t('agentManagement.list.conversations')}</dt>
          <dd>{agent.conversations}</dd>
        </div>
      </dl>
      <div className="admin-agent__controls">
        <label className="admin-agent-switch">
          <input
            type="checkbox"
            role="switch"
            // The visible word is the same on every card: the name says whose switch it is.
            aria-label={t('agentManagement.list.activeAgent', { name })}
            checked={agent.isActive}
            disabled={status.isPending}
            onChange={(event) => handleStatus(event.target.checked)}
          />
          <span>{t('agentManagement.list.active')}</span>
        </label>
        <div className="admin-agent__actions">
          <Button
            id={editButtonId(agent)}
            variant="secondary"
            aria-label={t('agentManagement.list.editAgent', { name })}
            onClick={onEdit}
          >
            {t('agentManagement.list.edit')}
          </Button>
          <Button
            ref={testButton}
            variant="secondary"
            aria-expanded={testing}
            aria-controls={testing ? panelId : undefined}
            aria-label={t('agentManagement.list.testAgent', { name })}
            onClick={onTest}
          >
            {t('agentManagement.list.test')}
          </Button>
          {!agent.seeded && (
            <Button
              variant="secondary"
              className="admin-danger-text"
              aria-label={t('agentManagement.list.deleteAgent', { name })}
              onClick={() => setConfirming('delete')}
            >
              {t('agentManagement.list.delete')}
            </Button>
          )}
        </div>
      </div>
      <div role="alert">
        {status.isError && confirming === null && (
          <p className="alert alert--error">
            {failureText(status.error, t('agentManagement.list.statusFailed'))}
          </p>
        )}
      </div>
      {testing && (
        <TestChatPanel
          id={panelId}
          agent={agent}
          onClose={() => {
            onTest();
            testButton.current?.focus();
          }}
        />
      )}
      {confirming === 'deactivate' && (
        <ConfirmDialog
          title={t('agentManagement.deactivate.title', { name })}
          cancelLabel={t('agentManagement.deactivate.cancel')}
          confirmLabel={t('agentManagement.deactivate.confirm')}
          busy={status.isPending}
          onClose={() => setConfirming(null)}
          onConfirm={() =>
            void status.mutateAsync({ id: agent.id, isActive: false }).then(
              () => setConfirming(null),
              () => {},
            )
          }
        >
          <p>{t('agentManagement.deactivate.question')}</p>
          {status.isError && (
            <p className="alert alert--error" role="alert">
              {failureText(status.error, t('agentManagement.list.statusFailed'))}
            </p>
          )}
        </ConfirmDialog>
      )}
      {confirming === 'delete' && (
        <DeleteAgentDialog
          agent={agent}
          name={name}
          onClose={() => setConfirming(null)}
          onDeleted={onDeleted}
        />
      )}
    </li>
  );
}

function DeleteAgentDialog({
  agent,
  name,
  onClose,
  onDeleted,
}: {
  agent: AdminAgent;
  name: string;
  onClose: () => void;
  /** With the server's message. */
  onDeleted: (message: string) => void;
}) {
  const { t } = useTranslation();
  const remove = useDeleteAgent();
  return (
    <ConfirmDialog
      title={t('agentManagement.delete.title', { name })}
      cancelLabel={t('agentManagement.delete.cancel')}
      confirmLabel={t('agentManagement.delete.confirm')}
      busy={remove.isPending}
      onClose={onClose}
      // Awaited rather than an onSuccess option: the card, and this dialog with it, leave the
      // list as soon as the deletion is in the cache, and mutate's own callbacks die with them.
      onConfirm={() =>
        void remove.mutateAsync(agent.id).then(
          ({ message }) => onDeleted(message),
          () => {},
        )
      }
    >
      <p>{t('agentManagement.delete.question')}</p>
      {remove.isError && (
        <p className="alert alert--error" role="alert">
          {failureText(remove.error, t('agentManagement.delete.failed'))}
        </p>
      )}
    </ConfirmDialog>
  );
}
