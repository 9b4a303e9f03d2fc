import { NotFoundPage } from '@/app/routes/not-found';
import { RequireHiredAgent } from '@/features/agents/components/require-hired-agent';
import { AuxtratChat } from '@/features/chat/components/auxtrat-chat';

export default function AuxtratRoute() {
  return (
    <RequireHiredAgent agentName="auxtrat" notFound={<NotFoundPage />}>
      {(agent) => <AuxtratChat agent={agent} />}
    </RequireHiredAgent>
  );
}
