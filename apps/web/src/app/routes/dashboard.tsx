import { useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useUserAgents } from '@/features/agents/api/get-user-agents';
import { AvailableAgents } from '@/features/agents/components/available-agents';
import { HiredAgents } from '@/features/agents/components/hired-agents';
import { AccountSummary } from '@/features/auth/components/account-summary';
import { useAuth } from '@/features/auth/hooks/use-auth';
import { userStatsQueryKey } from '@/features/chat/api/get-user-stats';
import { QuickChat } from '@/features/chat/components/quick-chat';
import { StatCards } from '@/features/chat/components/stat-cards';
import { useDocumentTitle } from '@/hooks/use-document-title';
import '@/app/dashboard.css';

/**
 * The dashboard: figures, hired agents, the way to the account's own, available agents, a chat
 * panel, the account. An account made for one agent cannot hire: it is offered nothing (it lands
 * on its agent's page and has no link here, but the address still opens).
 */
export default function DashboardRoute() {
  const { t } = useTranslation();
  useDocumentTitle(t('dashboard.pageTitle'));
  const { user } = useAuth();
  const queryClient = useQueryClient();
  const hired = useUserAgents();
  if (!user) return null;

  // Hiring and chatting change the figures on this page.
  const refreshStats = () => void queryClient.invalidateQueries({ queryKey: userStatsQueryKey });

  return (
    <div className="dashboard">
      <h1 className="dashboard__title">{t('dashboard.welcome', { name: user.name })}</h1>
      <StatCards />
      <div className="dashboard__columns">
        <div className="dashboard__agents">
          <HiredAgents />
          {!user.singleAgentName && <MyAgentsCard />}
          {!user.singleAgentName && <AvailableAgents onHired={refreshStats} />}
        </div>
        <div className="dashboard__side">
          {hired.data && <QuickChat agents={hired.data.agents} onReplied={refreshStats} />}
          <AccountSummary user={user} />
        </div>
      </div>
    </div>
  );
}

/** The way to the account's own agents ("Meus agentes"): what they are, and the link. */
function MyAgentsCard() {
  const { t } = useTranslation();
  const headingId = useId();
  return (
    <section className="card agent-section dashboard__my-agents" aria-labelledby={headingId}>
      <h2 id={headingId} className="card__title">
        {t('dashboard.myAgentsTitle')}
      </h2>
      <p>{t('dashboard.myAgentsText')}</p>
      <Link to="/my-agents" className="btn btn--secondary">
        {t('dashboard.myAgentsLink')}
      </Link>
    </section>
  );
}
