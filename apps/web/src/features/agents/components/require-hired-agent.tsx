import type { Agent } from '@contrateia/shared';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { LoadingScreen } from '@/components/ui/loading-screen';
import { useUserAgents } from '@/features/agents/api/get-user-agents';
import { noAccessRedirect } from '@/features/agents/hired-agent-pages';
import { ApiError } from '@/lib/api-client';
import '@/features/agents/agents.css';

/**
 * An agent's page is for those who hired it (spec §2, §6): shows a wait state while the hired
 * list loads, the spec's access errors when it cannot load, and redirects when not hired.
 */
export function RequireHiredAgent({
  agentName,
  children,
}: {
  agentName: string;
  children: (agent: Agent) => ReactNode;
}) {
  const { t } = useTranslation();
  const { data, error, refetch, isFetching } = useUserAgents();

  // A failed background refresh keeps the page: the list we have is still the best answer.
  if (data) {
    const agent = data.agents.find((candidate) => candidate.name === agentName);
    if (!agent) return <Navigate to={noAccessRedirect(agentName, data.agents)} replace />;
    return children(agent);
  }

  if (error) {
    return (
      <div className="card agent-access-error">
        <h1 className="visually-hidden">{t('errorBoundary.title')}</h1>
        <p role="alert" className="alert alert--error">
          {error instanceof ApiError ? t('agentChat.accessFailed') : t('agentChat.accessError')}
        </p>
        <Button variant="secondary" disabled={isFetching} onClick={() => void refetch()}>
          {t('agentChat.retry')}
        </Button>
      </div>
    );
  }

  return <LoadingScreen inline label={t('agentChat.checkingAccess')} />;
}
