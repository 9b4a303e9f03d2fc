import type { MyAgent, MyAgentReply } from '@contrateia/shared';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { LoadingScreen } from '@/components/ui/loading-screen';
import { agentPagePath } from '@/features/agents/agent-pages';
import { useMyAgent } from '@/features/my-agents/api/get-my-agent';
import { MyAgentForm } from '@/features/my-agents/components/my-agent-form';
import { TestChat } from '@/features/my-agents/components/test-chat';
import { MY_AGENTS_PATH, myAgentPagePath } from '@/features/my-agents/paths';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { ApiError } from '@/lib/api-client';
import { withReason } from '@/lib/failure-text';
import '@/features/my-agents/my-agents.css';

/** What the page that created an agent hands to the agent's page: the server's message. */
interface CreatedState {
  message: string;
}

const createdMessage = (state: unknown): string | null =>
  typeof state === 'object' && state !== null && typeof (state as CreatedState).message === 'string'
    ? (state as CreatedState).message
    : null;

/**
 * The form page of an own agent: a new one (no `id`), or a saved one, with a test chat beside
 * the form (below it on a phone). Created, the agent opens on its own page, which says so.
 * `onChanged` hears of each save, for what else lists the account's agents.
 */
export function MyAgentEditor({ id, onChanged }: { id?: string; onChanged?: () => void }) {
  if (id === undefined) return <NewAgent onChanged={onChanged} />;
  return <SavedAgent key={id} id={id} onChanged={onChanged} />;
}

function NewAgent({ onChanged }: { onChanged?: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const title = t('ownAgents.editor.createTitle');
  useDocumentTitle(title);

  const handleCreated = ({ agent, message }: MyAgentReply) => {
    onChanged?.();
    // Replaced: Back from the agent's page leads to the list, not to an empty form.
    const state: CreatedState = { message };
    void navigate(myAgentPagePath(agent.id), { replace: true, state });
  };

  return (
    <EditorPage title={title} intro={t('ownAgents.editor.createIntro')}>
      <MyAgentForm agent={null} onCreated={handleCreated} />
    </EditorPage>
  );
}

function SavedAgent({ id, onChanged }: { id: string; onChanged?: () => void }) {
  const { t } = useTranslation();
  const { state } = useLocation();
  const query = useMyAgent(id);
  const [unsaved, setUnsaved] = useState(false);
  const agent = query.data?.agent;
  const title = agent
    ? t('ownAgents.editor.editTitle', { name: agent.displayName })
    : t('ownAgents.editor.loadingTitle');
  useDocumentTitle(title);

  if (!agent) {
    const notFound = query.error instanceof ApiError && query.error.status === 404;
    return (
      <EditorPage title={notFound ? t('ownAgents.editor.notFoundTitle') : title}>
        {query.isError ? (
          <div className="my-agents__state">
            <p className="alert alert--error" role="alert">
              {notFound
                ? t('ownAgents.editor.notFound')
                : query.error instanceof ApiError
                  ? withReason(t('ownAgents.editor.loadFailed'), query.error.message)
                  : t('ownAgents.editor.loadFailed')}
            </p>
            {!notFound && (
              <Button
                variant="secondary"
                disabled={query.isFetching}
                onClick={() => void query.refetch()}
              >
                {t('ownAgents.retry')}
              </Button>
            )}
          </div>
        ) : (
          <LoadingScreen inline label={t('ownAgents.editor.loading')} />
        )}
      </EditorPage>
    );
  }

  return (
    <EditorPage title={title} agent={agent}>
      <div className="my-agent-editor">
        <MyAgentForm
          agent={agent}
          notice={createdMessage(state)}
          onSaved={() => onChanged?.()}
          onDirtyChange={setUnsaved}
        />
        <aside className="my-agent-editor__test" aria-label={t('ownAgents.test.region')}>
          <TestChat agent={agent} unsaved={unsaved} />
        </aside>
      </div>
    </EditorPage>
  );
}

function EditorPage({
  title,
  intro,
  agent,
  children,
}: {
  title: string;
  intro?: string;
  agent?: MyAgent;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const chatPath = agent ? agentPagePath(agent.name) : null;
  return (
    <div className="my-agent-page">
      <div className="my-agent-page__head">
        <Link to={MY_AGENTS_PATH} className="my-agent-page__back">
          <span aria-hidden="true">← </span>
          {t('ownAgents.editor.back')}
        </Link>
        <h1 className="my-agent-page__title">{title}</h1>
        {intro && <p className="my-agent-page__intro">{intro}</p>}
        {chatPath && (
          <p className="my-agent-page__intro">
            {t('ownAgents.editor.chatPage')} <Link to={chatPath}>{chatPath}</Link>
          </p>
        )}
      </div>
      {children}
    </div>
  );
}
