import type { AgentsResponse, HireAgentInput, HireAgentResponse } from '@contrateia/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { availableAgentsQueryKey } from '@/features/agents/api/get-available-agents';
import { userAgentsQueryKey } from '@/features/agents/api/get-user-agents';
import { apiRequest } from '@/lib/api-client';

/** Hires an agent (idempotent); 404 unknown, 400 inactive, 403 not allowed for this account. */
export function hireAgent(input: HireAgentInput): Promise<HireAgentResponse> {
  return apiRequest<HireAgentResponse>('/agents/hire', { method: 'POST', body: input });
}

/** On success the agent moves from the available list to the hired one, without a refetch. */
export function useHireAgent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: hireAgent,
    onSuccess: ({ agent }) => {
      queryClient.setQueryData<AgentsResponse>(userAgentsQueryKey, (old) =>
        old
          ? { agents: [...old.agents.filter((a) => a.id !== agent.id), agent] }
          : { agents: [agent] },
      );
      queryClient.setQueryData<AgentsResponse>(availableAgentsQueryKey, (old) =>
        old ? { agents: old.agents.filter((a) => a.id !== agent.id) } : old,
      );
    },
  });
}
