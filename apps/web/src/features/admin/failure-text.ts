import i18next from 'i18next';
import { ApiError } from '@/lib/api-client';

/**
 * The panel's failure texts (spec §8: 'Failed to create agent', …) followed by the server's
 * reason when it gave one that says more ("Failed to update agent status: Agent not found"), or
 * the reason it gave on the one field it refused.
 */
export function failureText(error: unknown, failed: string): string {
  if (!(error instanceof ApiError)) return failed;
  // A refusal of one field says its reason there, under the failure as its message.
  const reason =
    error.message && error.message !== failed
      ? error.message
      : Object.values(error.errors ?? {})[0];
  return reason ? i18next.t('agentManagement.withReason', { failure: failed, reason }) : failed;
}
