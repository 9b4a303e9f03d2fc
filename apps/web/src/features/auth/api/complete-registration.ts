import type { CompleteRegistrationInput, MessageResponse } from '@contrateia/shared';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

/** Creates the account once the e-mailed code checks out. It does not sign the user in. */
export function completeRegistration(input: CompleteRegistrationInput): Promise<MessageResponse> {
  return apiRequest<MessageResponse>('/complete-registration', { method: 'POST', body: input });
}

export function useCompleteRegistration() {
  return useMutation({ mutationFn: completeRegistration });
}
