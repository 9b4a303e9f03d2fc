import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useUserAgents } from '@/features/agents/api/get-user-agents';
import { AgentCard } from '@/features/agents/components/agent-card';
import { AgentListState } from '@/features/agents/components/agent-list-state';
import { agentPagePath } from '@/features/agents/hired-agent-pages';
import '@/features/agents/agents.css';

/** Dashboard: Your Hired Agents, each with a Chat link to its page (spec §2). */
export function HiredAgents() {
  const { t } = useTranslation();
  const headingId = useId();
  const { data, isError, isFetching, refetch } = useUserAgents();

  return (
    <section className="card agent-section" aria-labelledby={headingId}>
      <h2 id={headingId} className="card__title">
        {t('dashboard.hiredTitle')}
      </h2>
      {!data ? (
        <AgentListState failed={isError} retrying={isFetching} onRetry={() => void refetch()} />
      ) : data.agents.length === 0 ? (
        <p className="agent-section__empty">{t('dashboard.noHired')}</p>
      ) : (
        <ul className="agent-list">
          {data.agents.map((agent) => {
            const path = agentPagePath(agent.name);
            return (
              <AgentCard
                key={agent.id}
                agent={agent}
                action={
                  path && (
                    <Link to={path} className="btn btn--secondary agent-card__button">
                      {t('dashboard.chat')}
                      <span className="visually-hidden"> · {agent.displayName}</span>
                    </Link>
                  )
                }
              />
            );
          })}
        </ul>
      )}
    </section>
  );
}
