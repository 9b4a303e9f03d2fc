import type { AdminUsersResponse } from '@contrateia/shared';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { manageKeys } from '@/features/admin/api/manage-keys';
import { apiRequest } from '@/lib/api-client';

export interface UsersPage {
  search: string;
  limit: number;
  offset: number;
}

/** GET /api/admin/users?search=&limit=&offset=: a page of accounts and how many match. */
export function getAdminUsers({ search, limit, offset }: UsersPage): Promise<AdminUsersResponse> {
  const query = new URLSearchParams({ limit: String(limit), offset: String(offset) });
  if (search) query.set('search', search);
  return apiRequest<AdminUsersResponse>(`/admin/users?${query.toString()}`);
}

/** The page asked for; the previous one stays on screen while the next loads. */
export function useAdminUsers(page: UsersPage) {
  return useQuery({
    queryKey: manageKeys.usersPage(page),
    queryFn: () => getAdminUsers(page),
    placeholderData: keepPreviousData,
  });
}
