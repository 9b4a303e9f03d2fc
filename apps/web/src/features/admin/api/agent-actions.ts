import type { AdminAgentResponse, AdminAgentsResponse, MessageResponse } from '@contrateia/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { agentPath } from '@/features/admin/api/paths';
import { manageKeys } from '@/features/admin/api/manage-keys';
import { agentSaved } from '@/features/admin/api/save-agent';
import { apiRequest } from '@/lib/api-client';

/**
 * PATCH /api/admin/agents/{id}/status {isActive}: an inactive agent leaves the catalogue and
 * stops answering everywhere.
 */
export function setAgentStatus({
  id,
  isActive,
}: {
  id: string;
  isActive: boolean;
}): Promise<AdminAgentResponse> {
  return apiRequest<AdminAgentResponse>(`${agentPath(id)}/status`, {
    method: 'PATCH',
    body: { isActive },
  });
}

export function useSetAgentStatus() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setAgentStatus,
    onSuccess: (answer) => agentSaved(queryClient, answer),
  });
}

/** DELETE /api/admin/agents/{id}: custom agents only (the seeded ones answer 400). */
export function deleteAgent(id: string): Promise<MessageResponse> {
  return apiRequest<MessageResponse>(agentPath(id), { method: 'DELETE' });
}

export function useDeleteAgent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteAgent,
    onSuccess: async (_answer, id) => {
      queryClient.setQueryData<AdminAgentsResponse>(manageKeys.agents, (old) =>
        old ? { agents: old.agents.filter((a) => a.id !== id) } : old,
      );
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: manageKeys.agents }),
        queryClient.invalidateQueries({ queryKey: manageKeys.audit }),
        // A single-agent account of a deleted agent shows it no more.
        queryClient.invalidateQueries({ queryKey: manageKeys.users }),
      ]);
    },
  });
}
