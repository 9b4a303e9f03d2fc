import type { MessageResponse, SendOtpInput } from '@contrateia/shared';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

/** E-mails a registration code; 429 while the previous one is under a minute old. */
export function sendOtp(input: SendOtpInput): Promise<MessageResponse> {
  return apiRequest<MessageResponse>('/send-otp', { method: 'POST', body: input });
}

export function useSendOtp() {
  return useMutation({ mutationFn: sendOtp });
}
