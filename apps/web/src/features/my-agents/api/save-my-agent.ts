import type { MyAgentInput, MyAgentReply, MyAgentsResponse } from '@contrateia/shared';
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { myAgentKeys, myAgentPath } from '@/features/my-agents/api/my-agent-keys';
import { apiRequest } from '@/lib/api-client';

/**
 * POST /api/my-agents: a new agent of the account's own, named from its display name; 400 with
 * field errors when refused, 400 `myAgents.limit` past MY_AGENTS_MAX.
 */
export function createMyAgent(input: MyAgentInput): Promise<MyAgentReply> {
  return apiRequest<MyAgentReply>('/my-agents', { method: 'POST', body: input });
}

/** PUT /api/my-agents/{id}: replaces all the agent knows; its name (its chat page) stays. */
export function updateMyAgent({
  id,
  input,
}: {
  id: string;
  input: MyAgentInput;
}): Promise<MyAgentReply> {
  return apiRequest<MyAgentReply>(myAgentPath(id), { method: 'PUT', body: input });
}

/** The agent as saved goes into the caches at once; the list is read again. */
async function saved(queryClient: QueryClient, { agent }: MyAgentReply): Promise<void> {
  queryClient.setQueryData(myAgentKeys.one(agent.id), { agent });
  queryClient.setQueryData<MyAgentsResponse>(myAgentKeys.all, (old) =>
    old
      ? {
          agents: old.agents.some((a) => a.id === agent.id)
            ? old.agents.map((a) => (a.id === agent.id ? agent : a))
            : [...old.agents, agent],
        }
      : old,
  );
  await queryClient.invalidateQueries({ queryKey: myAgentKeys.all, exact: true });
}

export function useCreateMyAgent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createMyAgent,
    onSuccess: (answer) => saved(queryClient, answer),
  });
}

export function useUpdateMyAgent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateMyAgent,
    onSuccess: (answer) => saved(queryClient, answer),
  });
}
