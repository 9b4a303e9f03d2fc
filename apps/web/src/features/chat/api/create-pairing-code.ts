import type { PairingQrInput, PairingQrResponse } from '@contrateia/shared';
import { useMutation } from '@tanstack/react-query';
import { apiRequest } from '@/lib/api-client';

/**
 * A new one-time pairing code for a conversation, as a QR PNG data URL; it replaces (and voids)
 * any earlier code for that conversation.
 */
export function createPairingCode(input: PairingQrInput): Promise<PairingQrResponse> {
  return apiRequest<PairingQrResponse>('/auxtrat/qr-code', { method: 'POST', body: input });
}

export function useCreatePairingCode() {
  return useMutation({ mutationFn: createPairingCode });
}
