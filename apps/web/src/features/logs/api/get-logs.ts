import type { ListLogsResponse } from '@contrateia/shared/logs/logs.schemas';
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { searchOfFilters, type LogFilters } from '@/features/logs/log-filters';
import { apiRequest } from '@/lib/api-client';

/** GET /api/logs?level=&category=&from=&to=&search=&cursor=: a page of events, newest first. */
export function getLogs(filters: LogFilters, cursor?: string): Promise<ListLogsResponse> {
  return apiRequest<ListLogsResponse>(`/logs${searchOfFilters(filters, cursor ? { cursor } : {})}`);
}

export const logsKeys = {
  all: ['logs'] as const,
  list: (filters: LogFilters) => ['logs', filters] as const,
};

/**
 * The events the filters match, a page at a time: each next one ("Load more") from the last
 * one's cursor. Other filters keep the events shown until their own arrive. Asks nothing while
 * `enabled` is false (filters the server would refuse).
 */
export function useLogs(filters: LogFilters, { enabled }: { enabled: boolean }) {
  return useInfiniteQuery({
    queryKey: logsKeys.list(filters),
    queryFn: ({ pageParam }) => getLogs(filters, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    placeholderData: keepPreviousData,
    enabled,
  });
}
