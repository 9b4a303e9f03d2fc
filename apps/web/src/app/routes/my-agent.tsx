import { useQueryClient } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { agentsQueryRoot } from '@/features/agents/api/get-user-agents';
import { MyAgentEditor } from '@/features/my-agents/components/my-agent-editor';

/**
 * /my-agents/new and /my-agents/{id}: an own agent's form. A new or renamed agent is one of the
 * account's hired agents (the navigation, the dashboard), which are read again.
 */
export default function MyAgentRoute() {
  const { id } = useParams();
  const queryClient = useQueryClient();
  return (
    <MyAgentEditor
      id={id}
      onChanged={() => void queryClient.invalidateQueries({ queryKey: agentsQueryRoot })}
    />
  );
}
