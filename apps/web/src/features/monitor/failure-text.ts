import type { TFunction } from 'i18next';
import { ApiError, NetworkError } from '@/lib/api-client';
import { withReason } from '@/lib/failure-text';

/**
 * A failure of the monitor's calls in the user's words: `failed` ("Failed to fetch the system
 * status"), then the server's message (already in the user's language) or "the server could not
 * be reached".
 */
export function monitorFailureText(t: TFunction, error: unknown, failed: string): string {
  const reason =
    error instanceof ApiError
      ? error.message
      : error instanceof NetworkError
        ? t('systemMonitor.networkError')
        : '';
  return withReason(failed, reason);
}
