import type {
  AdminAgentResponse,
  AdminAgentsResponse,
  CreateAgentInput,
  UpdateAgentInput,
} from '@contrateia/shared';
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { manageKeys } from '@/features/admin/api/manage-keys';
import { agentPath } from '@/features/admin/api/paths';
import { apiRequest } from '@/lib/api-client';

/** POST /api/admin/agents: 400 'Failed to create agent' with field errors when refused. */
export function createAgent(input: CreateAgentInput): Promise<AdminAgentResponse> {
  return apiRequest<AdminAgentResponse>('/admin/agents', { method: 'POST', body: input });
}

/** PUT /api/admin/agents/{id}: everything but the name. */
export function updateAgent({
  id,
  input,
}: {
  id: string;
  input: UpdateAgentInput;
}): Promise<AdminAgentResponse> {
  return apiRequest<AdminAgentResponse>(agentPath(id), { method: 'PUT', body: input });
}

/**
 * The agent as saved goes into the list at once; the list and the audit are read again, as the
 * change may have moved counts or been recorded.
 */
export async function agentSaved(
  queryClient: QueryClient,
  { agent }: AdminAgentResponse,
): Promise<void> {
  queryClient.setQueryData<AdminAgentsResponse>(manageKeys.agents, (old) =>
    old
      ? {
          agents: old.agents.some((a) => a.id === agent.id)
            ? old.agents.map((a) => (a.id === agent.id ? agent : a))
            : [...old.agents, agent],
        }
      : old,
  );
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: manageKeys.agents }),
    queryClient.invalidateQueries({ queryKey: manageKeys.audit }),
  ]);
}

export function useCreateAgent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createAgent,
    onSuccess: (answer) => agentSaved(queryClient, answer),
  });
}

export function useUpdateAgent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateAgent,
    onSuccess: (answer) => agentSaved(queryClient, answer),
  });
}
