import i18next from 'i18next';
import { ApiError } from '@/lib/api-client';

/**
 * The panel's failure texts (spec §8: 'Failed to create agent', …) followed by the server's
 * reason when it gave one that says more ("Failed to update agent status: Agent not found").
 */
export function failureText(error: unknown, failed: string): string {
  if (error instanceof ApiError && error.message && error.message !== failed) {
    return i18next.t('agentManagement.withReason', { failure: failed, reason: error.message });
  }
  return failed;
}
