import { useQueryClient } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { agentsQueryRoot } from '@/features/agents/api/get-user-agents';
import { myAgentsTexts } from '@/features/my-agents/texts';
import { MyAgentEditor } from '@/features/my-agents/components/my-agent-editor';

/** The pages' texts, loaded with them (app/router.tsx withPageTexts). */
export const texts = myAgentsTexts;

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
