import { ADMIN_PAGE_LIMIT, type AdminAuditResponse } from '@contrateia/shared';
import { useInfiniteQuery } from '@tanstack/react-query';
import { manageKeys } from '@/features/admin/api/manage-keys';
import { apiRequest } from '@/lib/api-client';

/** GET /api/admin/audit?limit=&offset=: the admins' changes, newest first. */
export function getAudit({
  limit,
  offset,
}: {
  limit: number;
  offset: number;
}): Promise<AdminAuditResponse> {
  return apiRequest<AdminAuditResponse>(`/admin/audit?limit=${limit}&offset=${offset}`);
}

/** Pages of the audit, each next one asked for by "Load more". */
export function useAudit(limit: number = ADMIN_PAGE_LIMIT.default) {
  return useInfiniteQuery({
    queryKey: manageKeys.audit,
    queryFn: ({ pageParam }) => getAudit({ limit, offset: pageParam }),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((sum, page) => sum + page.entries.length, 0);
      return last.entries.length > 0 && loaded < last.total ? loaded : undefined;
    },
  });
}
