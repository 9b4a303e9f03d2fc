import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useUserAgents } from '@/features/agents/api/get-user-agents';
import { AgentList } from '@/features/agents/components/agent-list';
import { agentPagePath } from '@/features/agents/hired-agent-pages';
import '@/features/agents/agents.css';

/** Dashboard: Your Hired Agents, each with a Chat link to its page. */
export function HiredAgents() {
  const { t } = useTranslation();
  const headingId = useId();
  const userAgents = useUserAgents();

  return (
    <section className="card agent-section" aria-labelledby={headingId}>
      <h2 id={headingId} className="card__title">
        {t('dashboard.hiredTitle')}
      </h2>
      <AgentList
        query={userAgents}
        emptyText={t('dashboard.noHired')}
        action={(agent) => (
          <Link to={agentPagePath(agent.name)} className="btn btn--secondary agent-card__button">
            {t('dashboard.chat')}
            <span className="visually-hidden"> · {agent.displayName}</span>
          </Link>
        )}
      />
    </section>
  );
}
