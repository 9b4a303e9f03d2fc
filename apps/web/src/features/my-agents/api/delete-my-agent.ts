import type { MyAgentReply, MyAgentsResponse } from '@contrateia/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { myAgentKeys, myAgentPath } from '@/features/my-agents/api/my-agent-keys';
import { apiRequest } from '@/lib/api-client';

/** DELETE /api/my-agents/{id}: the agent stops answering everywhere, WhatsApp included. */
export function deleteMyAgent(id: string): Promise<MyAgentReply> {
  return apiRequest<MyAgentReply>(myAgentPath(id), { method: 'DELETE' });
}

export function useDeleteMyAgent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteMyAgent,
    onSuccess: async (_answer, id) => {
      queryClient.setQueryData<MyAgentsResponse>(myAgentKeys.all, (old) =>
        old ? { agents: old.agents.filter((a) => a.id !== id) } : old,
      );
      queryClient.removeQueries({ queryKey: myAgentKeys.one(id) });
      await queryClient.invalidateQueries({ queryKey: myAgentKeys.all, exact: true });
    },
  });
}
