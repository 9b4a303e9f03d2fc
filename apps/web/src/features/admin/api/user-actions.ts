import type {
  AdminUserResponse,
  AdminUserRoleInput,
  CreateSingleAgentUserInput,
} from '@contrateia/shared';
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { manageKeys } from '@/features/admin/api/manage-keys';
import { userPath } from '@/features/admin/api/paths';
import { apiRequest } from '@/lib/api-client';

/**
 * POST /api/admin/users/{id}/status {isActive}: deactivating ends the account's sessions at
 * once. Refused (400/403 with the reason) for the caller's own account.
 */
export function setUserStatus({
  id,
  isActive,
}: {
  id: string;
  isActive: boolean;
}): Promise<AdminUserResponse> {
  return apiRequest<AdminUserResponse>(`${userPath(id)}/status`, {
    method: 'POST',
    body: { isActive },
  });
}

/**
 * POST /api/admin/users/{id}/role {role}: refused for the caller's own account and for the last
 * admin.
 */
export function setUserRole({
  id,
  role,
}: {
  id: string;
  role: AdminUserRoleInput['role'];
}): Promise<AdminUserResponse> {
  return apiRequest<AdminUserResponse>(`${userPath(id)}/role`, { method: 'POST', body: { role } });
}

/**
 * POST /api/admin/users/single-agent: a verified account with exactly that agent.
 */
export function createSingleAgentUser(
  input: CreateSingleAgentUserInput,
): Promise<AdminUserResponse> {
  return apiRequest<AdminUserResponse>('/admin/users/single-agent', {
    method: 'POST',
    body: input,
  });
}

/** Every page of the list may hold the account (or now count it), and the audit has a new entry. */
function userChanged(queryClient: QueryClient) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: manageKeys.users }),
    queryClient.invalidateQueries({ queryKey: manageKeys.audit }),
  ]);
}

export function useSetUserStatus() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: setUserStatus, onSuccess: () => userChanged(queryClient) });
}

export function useSetUserRole() {
  const queryClient = useQueryClient();
  return useMutation({ mutationFn: setUserRole, onSuccess: () => userChanged(queryClient) });
}

export function useCreateSingleAgentUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createSingleAgentUser,
    // The agent's hires count changed too.
    onSuccess: () =>
      Promise.all([
        userChanged(queryClient),
        queryClient.invalidateQueries({ queryKey: manageKeys.agents }),
      ]),
  });
}
