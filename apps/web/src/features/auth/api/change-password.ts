import type { ChangePasswordInput, MessageResponse } from '@contrateia/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { sessionsQueryKey } from '@/features/auth/api/sessions';
import { apiRequest } from '@/lib/api-client';

/** The current password is checked; every other session of the account ends. */
export function changePassword(input: ChangePasswordInput): Promise<MessageResponse> {
  return apiRequest<MessageResponse>('/change-password', { method: 'POST', body: input });
}

export function useChangePassword() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: changePassword,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionsQueryKey }),
  });
}
