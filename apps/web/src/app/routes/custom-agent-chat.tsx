import { Navigate, useParams } from 'react-router';
import AgentChatRoute from '@/app/routes/agent-chat';
import { agentPagePath, isSeededAgentName } from '@/features/agents/agent-pages';

/**
 * /agent/{name}: the generic chat page of an agent an admin created, for those who hired it, as the
 * seeded agents' pages are (others go to /guia). A seeded agent's name goes to that agent's own
 * page.
 */
export default function CustomAgentChatRoute() {
  const { name = '' } = useParams();
  if (isSeededAgentName(name)) return <Navigate to={agentPagePath(name)} replace />;
  // The key gives each agent its own page state: no chat carries over to the next.
  return <AgentChatRoute key={name} agentName={name} />;
}
