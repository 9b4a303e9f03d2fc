import type { SessionResponse, SwitchRoleInput } from '@contrateia/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { userQueryKey } from '@/features/auth/api/get-user';
import { apiRequest } from '@/lib/api-client';
import { saveSession } from '@/lib/session';

/** Admins only (by originalRole): answers with a new token and user for the chosen mode. */
export function switchRole(input: SwitchRoleInput): Promise<SessionResponse> {
  return apiRequest<SessionResponse>('/switch-role', { method: 'POST', body: input });
}

export function useSwitchRole() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: switchRole,
    onSuccess: ({ token, user }) => {
      // The new token carries the new role: both replace the stored ones.
      saveSession({ token, user });
      queryClient.setQueryData(userQueryKey, user);
      // Whatever else is cached was fetched under the other role.
      void queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] !== 'auth' });
    },
  });
}
