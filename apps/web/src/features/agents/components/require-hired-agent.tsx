import type { Agent } from '@contrateia/shared';
import { useQuery } from '@tanstack/react-query';
import { useId, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { LiveMessage } from '@/components/ui/live-message';
import { LoadingScreen } from '@/components/ui/loading-screen';
import { availableAgentsQueryOptions } from '@/features/agents/api/get-available-agents';
import { useHireAgent } from '@/features/agents/api/hire-agent';
import { useUserAgents } from '@/features/agents/api/get-user-agents';
import { ApiError, errorMessage } from '@/lib/api-client';
import '@/features/agents/agents.css';

/**
 * An agent's page is for those who hired it: shows a wait state while the hired list loads and the
 * access errors ('Failed to check agent access', …) when it cannot load. An agent the account may
 * hire but has not says so, with a Hire button that opens the chat once hired (rather than a silent
 * redirect to /guia); any other (unknown, inactive, not for this account, or an account made for
 * one agent, which cannot hire) is `notFound`.
 */
export function RequireHiredAgent({
  agentName,
  notFound,
  children,
}: {
  agentName: string;
  notFound: ReactNode;
  children: (agent: Agent) => ReactNode;
}) {
  const { t } = useTranslation();
  const { data, error, refetch, isFetching } = useUserAgents();
  const hired = data?.agents.find((candidate) => candidate.name === agentName);
  // Only asked when the page needs it: the server lists what this account may hire.
  const available = useQuery({ ...availableAgentsQueryOptions(), enabled: !!data && !hired });

  // A failed background refresh keeps the page: the list we have is still the best answer.
  if (data) {
    if (hired) return children(hired);
    if (available.data) {
      const offered = available.data.agents.find((candidate) => candidate.name === agentName);
      return offered ? <NotHired agent={offered} /> : notFound;
    }
    if (!available.error) return <LoadingScreen inline label={t('agentChat.checkingAccess')} />;
  }

  const failed = error ?? available.error;
  if (failed) {
    return (
      <div className="card agent-access-error">
        <h1 className="visually-hidden">{t('errorBoundary.title')}</h1>
        <p role="alert" className="alert alert--error">
          {failed instanceof ApiError ? t('agentChat.accessFailed') : t('agentChat.accessError')}
        </p>
        <Button
          variant="secondary"
          disabled={isFetching || available.isFetching}
          onClick={() => void (error ? refetch() : available.refetch())}
        >
          {t('agentChat.retry')}
        </Button>
      </div>
    );
  }

  return <LoadingScreen inline label={t('agentChat.checkingAccess')} />;
}

/** The page of an agent the account may hire and has not: says so, and hires it on the spot. */
function NotHired({ agent }: { agent: Agent }) {
  const { t } = useTranslation();
  const headingId = useId();
  const hire = useHireAgent();
  return (
    <section className="card agent-not-hired" aria-labelledby={headingId}>
      <h1 id={headingId} className="agent-not-hired__name">
        {agent.displayName}
      </h1>
      <p className="agent-not-hired__notice">{t('agentChat.notHired')}</p>
      {agent.description && <p className="agent-not-hired__description">{agent.description}</p>}
      <LiveMessage
        tone="error"
        message={
          hire.error ? errorMessage(hire.error, { failed: t('dashboard.hireFailed') }) : null
        }
      />
      {/* Once hired, the hired list (written by the hire) opens the chat in this page's place. */}
      <Button
        aria-disabled={hire.isPending || undefined}
        aria-busy={hire.isPending || undefined}
        onClick={() => {
          if (!hire.isPending) hire.mutate({ agentId: agent.id });
        }}
      >
        {hire.isPending ? t('dashboard.hiring') : t('agentChat.hire', { name: agent.displayName })}
      </Button>
    </section>
  );
}
