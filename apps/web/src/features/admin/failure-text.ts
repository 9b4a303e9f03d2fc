import { ApiError } from '@/lib/api-client';
import { withReason } from '@/lib/failure-text';

/**
 * The panel's failure texts ('Failed to create agent', …) followed by the server's reason when it
 * gave one that says more ("Failed to update agent status: Agent not found"), or the reason it gave
 * on the one field it refused.
 */
export function failureText(error: unknown, failed: string): string {
  if (!(error instanceof ApiError)) return failed;
  // A refusal of one field says its reason there, under the failure as its message.
  const said = error.message !== failed ? error.message : '';
  return withReason(failed, said || Object.values(error.errors ?? {})[0]);
}
