import type { MessageResponse } from '@contrateia/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { userQueryKey } from '@/features/auth/api/get-user';
import { apiRequest } from '@/lib/api-client';
import { clearSession } from '@/lib/session';

/** Tells the server, best effort: the session ends on this device whatever it answers. */
export async function logout(): Promise<void> {
  try {
    await apiRequest<MessageResponse>('/logout', { method: 'POST' });
  } catch {
    // Offline or already expired: nothing left to revoke that we could act on.
  }
}

export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: logout,
    onSettled: () => {
      clearSession();
      // Drop every cached answer that belonged to this user.
      queryClient.removeQueries();
      queryClient.setQueryData(userQueryKey, null);
    },
  });
}
