import type { ForgotPasswordInput, MessageResponse, ResetPasswordInput } from '@contrateia/shared';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

/** Mails a reset code when the address has an account; answers the same either way. */
export function forgotPassword(input: ForgotPasswordInput): Promise<MessageResponse> {
  return apiRequest<MessageResponse>('/forgot-password', { method: 'POST', body: input });
}

export function useForgotPassword() {
  return useMutation({ mutationFn: forgotPassword });
}

/** The mailed code and the new password; every session of the account ends. */
export function resetPassword(input: ResetPasswordInput): Promise<MessageResponse> {
  return apiRequest<MessageResponse>('/reset-password', { method: 'POST', body: input });
}

export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword });
}
