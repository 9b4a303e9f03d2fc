import type { LoginInput, SessionResponse } from '@contrateia/shared';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { userQueryKey } from '@/features/auth/api/get-user';
import { apiRequest } from '@/lib/api-client';
import { saveSession } from '@/lib/session';

export function login(input: LoginInput): Promise<SessionResponse> {
  return apiRequest<SessionResponse>('/login', {
    method: 'POST',
    body: input,
    // Here a 401 means wrong credentials, not an expired session.
    endSessionOnUnauthorized: false,
  });
}

export function useLogin() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: login,
    onSuccess: ({ token, user }) => {
      saveSession({ token, user });
      queryClient.setQueryData(userQueryKey, user);
    },
  });
}
