import { RequireHiredAgent } from '@/features/agents/components/require-hired-agent';
import { AuxtratChat } from '@/features/chat/components/auxtrat-chat';

export default function AuxtratRoute() {
  return (
    <RequireHiredAgent agentName="auxtrat">
      {(agent) => <AuxtratChat agent={agent} />}
    </RequireHiredAgent>
  );
}
