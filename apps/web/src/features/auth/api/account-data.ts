import type {
  AccountArchiveLink,
  AccountExport,
  DeleteAccountInput,
  MessageResponse,
} from '@contrateia/shared';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

/** "Download my data": everything the account holds, as the JSON the server assembles. */
export function exportAccountData(): Promise<AccountExport> {
  return apiRequest<AccountExport>('/account/export');
}

export function useExportAccountData() {
  return useMutation({ mutationFn: exportAccountData });
}

/**
 * "Download my data" with the files: the address this session's browser downloads the ZIP from
 * (valid for a few minutes). The browser saves it to disk as it comes: it may be gigabytes, more
 * than a page should hold.
 */
export function getArchiveLink(): Promise<AccountArchiveLink> {
  return apiRequest<AccountArchiveLink>('/account/export/archive-link', { method: 'POST' });
}

export function useArchiveLink() {
  return useMutation({ mutationFn: getArchiveLink });
}

/** Deletes the account and all its data once the password is confirmed. */
export function deleteAccount(input: DeleteAccountInput): Promise<MessageResponse> {
  return apiRequest<MessageResponse>('/account/delete', { method: 'POST', body: input });
}

export function useDeleteAccount() {
  return useMutation({ mutationFn: deleteAccount });
}
