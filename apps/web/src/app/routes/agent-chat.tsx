import { NotFoundPage } from '@/app/routes/not-found';
import { RequireHiredAgent } from '@/features/agents/components/require-hired-agent';
import { AgentChat } from '@/features/chat/components/agent-chat';

/** /guia, /assistente, /administrador, /indirect: one page, told which agent by its route. */
export default function AgentChatRoute({ agentName }: { agentName: string }) {
  return (
    <RequireHiredAgent agentName={agentName} notFound={<NotFoundPage />}>
      {(agent) => <AgentChat agent={agent} />}
    </RequireHiredAgent>
  );
}
