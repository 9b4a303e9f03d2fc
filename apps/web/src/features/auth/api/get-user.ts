import type { User, UserResponse } from '@contrateia/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { ApiError, apiRequest } from '@/lib/api-client';
import { clearSession, getToken, readStoredUser, saveUser } from '@/lib/session';

export const userQueryKey = ['auth', 'user'] as const;

export function getUser(): Promise<UserResponse> {
  return apiRequest<UserResponse>('/user');
}

/**
 * The signed-in user, or null when signed out: the app's auth state. A stored token is checked once
 * against the server; any failure ends the session, but a 503: the server is in maintenance (or
 * briefly down) and said nothing about the session, which the page keeps, with the user stored at
 * sign-in, so the shell can say why nothing works.
 */
export function userQueryOptions() {
  return queryOptions({
    queryKey: userQueryKey,
    queryFn: async (): Promise<User | null> => {
      if (!getToken()) return null;
      try {
        const { user } = await getUser();
        saveUser(user);
        return user;
      } catch (error) {
        const stored = error instanceof ApiError && error.status === 503 ? readStoredUser() : null;
        if (stored) return stored;
        clearSession();
        return null;
      }
    },
    // Without a token the answer is known: no request, and no loading state to flash.
    initialData: () => (getToken() ? undefined : null),
    // Changed only by sign-in, sign-out, role switch and 401s, which all write the cache.
    staleTime: Infinity,
    gcTime: Infinity,
    retry: false,
  });
}

export function useUser() {
  return useQuery(userQueryOptions());
}
