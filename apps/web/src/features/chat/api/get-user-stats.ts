import type { UserStatsResponse } from '@contrateia/shared';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

export const userStatsQueryKey = ['chat', 'stats'] as const;

/** The caller's own figures for the dashboard's stat cards. */
export function getUserStats(): Promise<UserStatsResponse> {
  return apiRequest<UserStatsResponse>('/stats');
}

export function userStatsQueryOptions() {
  return queryOptions({ queryKey: userStatsQueryKey, queryFn: getUserStats });
}

export function useUserStats() {
  return useQuery(userStatsQueryOptions());
}
