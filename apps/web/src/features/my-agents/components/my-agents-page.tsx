import { MY_AGENTS_MAX, type MyAgent } from '@contrateia/shared';
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { LiveMessage } from '@/components/ui/live-message';
import { LoadingScreen } from '@/components/ui/loading-screen';
import { agentPagePath } from '@/features/agents/agent-pages';
import { useDeleteMyAgent } from '@/features/my-agents/api/delete-my-agent';
import { useMyAgents } from '@/features/my-agents/api/get-my-agents';
import { myAgentPagePath, NEW_MY_AGENT_PATH } from '@/features/my-agents/paths';
import { SUCCESS_MESSAGE_MS, useTimedMessage } from '@/hooks/use-timed-message';
import { ApiError, errorMessage } from '@/lib/api-client';
import { withReason } from '@/lib/failure-text';
import '@/features/my-agents/my-agents.css';

/**
 * "Meus agentes": the account's own agents, each with its business, a link to edit it and one to
 * its chat, and Delete (asked first); what an own agent is, when there is none yet; Create, until
 * the account holds MY_AGENTS_MAX of them.
 */
export function MyAgentsPage({ onDeleted }: { onDeleted?: () => void }) {
  const { t } = useTranslation();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const agents = useMyAgents();
  const notice = useTimedMessage(SUCCESS_MESSAGE_MS);
  const list = agents.data?.agents;

  return (
    <div className="my-agents">
      <div className="my-agents__head">
        <div className="my-agents__heading">
          <h1 ref={headingRef} className="my-agents__title" tabIndex={-1}>
            {t('ownAgents.list.title')}
          </h1>
          <p className="my-agents__intro">{t('ownAgents.list.intro')}</p>
        </div>
        {list && list.length > 0 && <CreateAction count={list.length} />}
      </div>
      <LiveMessage tone="success" message={notice.message} />
      {agents.isPending ? (
        <LoadingScreen inline label={t('ownAgents.list.loading')} />
      ) : agents.isError ? (
        <div className="my-agents__state">
          <p className="alert alert--error" role="alert">
            {agents.error instanceof ApiError
              ? withReason(t('ownAgents.list.loadFailed'), agents.error.message)
              : t('ownAgents.list.loadFailed')}
          </p>
          <Button
            variant="secondary"
            disabled={agents.isFetching}
            onClick={() => void agents.refetch()}
          >
            {t('ownAgents.retry')}
          </Button>
        </div>
      ) : list && list.length === 0 ? (
        <EmptyState />
      ) : (
        <ul className="my-agents__list" aria-label={t('ownAgents.list.label')}>
          {list?.map((agent) => (
            <AgentCard
              key={agent.id}
              agent={agent}
              onDeleted={(message) => {
                notice.show(message);
                headingRef.current?.focus();
                onDeleted?.();
              }}
            />
          ))}
        </ul>
      )}
    </div>
  );
}

/** Create, or why not: the account holds as many agents as it may. */
function CreateAction({ count }: { count: number }) {
  const { t } = useTranslation();
  const limitId = useId();
  const full = count >= MY_AGENTS_MAX;
  return (
    <div className="my-agents__create">
      {full ? (
        <Button disabled aria-describedby={limitId}>
          {t('ownAgents.list.create')}
        </Button>
      ) : (
        <Link to={NEW_MY_AGENT_PATH} className="btn btn--primary">
          {t('ownAgents.list.create')}
        </Link>
      )}
      <p id={limitId} className={full ? 'my-agents__limit is-full' : 'my-agents__limit'}>
        {full
          ? t('ownAgents.list.limitReached', { max: MY_AGENTS_MAX })
          : t('ownAgents.list.count', { count, max: MY_AGENTS_MAX })}
      </p>
    </div>
  );
}

function EmptyState() {
  const { t } = useTranslation();
  const titleId = useId();
  return (
    <section className="my-agents-empty" aria-labelledby={titleId}>
      <h2 id={titleId} className="my-agents-empty__title">
        {t('ownAgents.empty.title')}
      </h2>
      <p>{t('ownAgents.empty.text')}</p>
      <ul className="my-agents-empty__points">
        <li>{t('ownAgents.empty.business')}</li>
        <li>{t('ownAgents.empty.catalogue')}</li>
        <li>{t('ownAgents.empty.faq')}</li>
      </ul>
      <p>{t('ownAgents.empty.after')}</p>
      <Link to={NEW_MY_AGENT_PATH} className="btn btn--primary my-agents-empty__create">
        {t('ownAgents.list.create')}
      </Link>
    </section>
  );
}

function AgentCard({ agent, onDeleted }: { agent: MyAgent; onDeleted: (message: string) => void }) {
  const { t } = useTranslation();
  const nameId = useId();
  const [confirming, setConfirming] = useState(false);
  const name = agent.displayName;
  return (
    <li className="my-agent-card" aria-labelledby={nameId}>
      <span className="my-agent-card__avatar" aria-hidden="true">
        {name.charAt(0).toUpperCase()}
      </span>
      <div className="my-agent-card__body">
        <h2 id={nameId} className="my-agent-card__name">
          {name}
        </h2>
        {agent.description && <p className="my-agent-card__description">{agent.description}</p>}
        <dl className="my-agent-card__facts">
          <div>
            <dt>{t('ownAgents.list.business')}</dt>
            <dd>{agent.business.name}</dd>
          </div>
          <div>
            <dt>{t('ownAgents.list.catalogue')}</dt>
            <dd>{t('ownAgents.list.items', { count: agent.catalogue.length })}</dd>
          </div>
          <div>
            <dt>{t('ownAgents.list.faq')}</dt>
            <dd>{t('ownAgents.list.questions', { count: agent.faq.length })}</dd>
          </div>
        </dl>
      </div>
      <div className="my-agent-card__actions">
        <Link
          to={myAgentPagePath(agent.id)}
          className="btn btn--secondary"
          aria-label={t('ownAgents.list.editAgent', { name })}
        >
          {t('ownAgents.list.edit')}
        </Link>
        <Link
          to={agentPagePath(agent.name)}
          className="btn btn--secondary"
          aria-label={t('ownAgents.list.chatAgent', { name })}
        >
          {t('ownAgents.list.chat')}
        </Link>
        <Button
          variant="ghost"
          className="my-agents__danger"
          aria-label={t('ownAgents.list.deleteAgent', { name })}
          onClick={() => setConfirming(true)}
        >
          {t('ownAgents.list.delete')}
        </Button>
      </div>
      {confirming && (
        <DeleteDialog agent={agent} onClose={() => setConfirming(false)} onDeleted={onDeleted} />
      )}
    </li>
  );
}

function DeleteDialog({
  agent,
  onClose,
  onDeleted,
}: {
  agent: MyAgent;
  onClose: () => void;
  onDeleted: (message: string) => void;
}) {
  const { t } = useTranslation();
  const remove = useDeleteMyAgent();
  return (
    <ConfirmDialog
      title={t('ownAgents.delete.title', { name: agent.displayName })}
      cancelLabel={t('ownAgents.delete.cancel')}
      confirmLabel={
        remove.isPending ? t('ownAgents.delete.deleting') : t('ownAgents.delete.confirm')
      }
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
      <p>{t('ownAgents.delete.question')}</p>
      {remove.isError && (
        <p className="alert alert--error" role="alert">
          {errorMessage(remove.error, { failed: t('ownAgents.delete.failed') })}
        </p>
      )}
    </ConfirmDialog>
  );
}
