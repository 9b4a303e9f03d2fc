import type { Agent, AgentsResponse } from '@contrateia/shared';
import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { LoadingScreen } from '@/components/ui/loading-screen';
import { AgentCard } from '@/features/agents/components/agent-card';

/**
 * A dashboard list of agents from `query`: a wait state, or the error with a retry, until the
 * agents arrive; then `emptyText`, or one card per agent with its `action`.
 */
export function AgentList({
  query: { data, isError, isFetching, refetch },
  emptyText,
  action,
}: {
  query: UseQueryResult<AgentsResponse>;
  emptyText: string;
  action: (agent: Agent) => ReactNode;
}) {
  const { t } = useTranslation();
  if (!data) {
    if (!isError) return <LoadingScreen inline label={t('app.loading')} />;
    return (
      <div className="agent-list-error">
        <p role="alert" className="alert alert--error">
          {t('dashboard.agentsFailed')}
        </p>
        <Button variant="secondary" disabled={isFetching} onClick={() => void refetch()}>
          {t('agentChat.retry')}
        </Button>
      </div>
    );
  }
  if (data.agents.length === 0) return <p className="agent-section__empty">{emptyText}</p>;
  return (
    <ul className="agent-list">
      {data.agents.map((agent) => (
        <AgentCard key={agent.id} agent={agent} action={action(agent)} />
      ))}
    </ul>
  );
}
