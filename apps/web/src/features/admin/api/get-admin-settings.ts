import type { AdminSettingsResponse } from '@contrateia/shared/settings/settings.schemas';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

export const adminSettingsKey = ['admin', 'settings'] as const;

/** Every section of the admin's settings as in force (GET /api/admin/settings). */
export function getAdminSettings(): Promise<AdminSettingsResponse> {
  return apiRequest<AdminSettingsResponse>('/admin/settings');
}

export function adminSettingsQueryOptions() {
  return queryOptions({ queryKey: adminSettingsKey, queryFn: getAdminSettings });
}

export function useAdminSettings() {
  return useQuery(adminSettingsQueryOptions());
}
