import { whatsappStatusSchema } from '@contrateia/shared/whatsapp/whatsapp.schemas';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { liveRead, whatsappKeys } from '@/features/whatsapp/api/whatsapp-cache';
import { whatsappCommand, whatsappRequest } from '@/features/whatsapp/api/whatsapp-request';

/** GET /api/whatsapp/status: the account's connection, its QR while one waits, and counts. */
export const getStatus = (signal?: AbortSignal) =>
  whatsappRequest('/status', whatsappStatusSchema, { signal });

export const statusQueryOptions = () =>
  queryOptions({ queryKey: whatsappKeys.status, queryFn: liveRead(getStatus) });

export function useWhatsAppStatus() {
  return useQuery(statusQueryOptions());
}

/**
 * POST /api/whatsapp/connect or /disconnect. What follows (a QR, ready, disconnected) arrives as
 * live events; the status is read again so the state on screen is the server's.
 */
export function useConnection() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (action: 'connect' | 'disconnect') =>
      whatsappCommand(`/${action}`, { method: 'POST' }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: whatsappKeys.status }),
  });
}

/**
 * POST /api/whatsapp/pairing-code {phone}: linking by number. The answer is the status, whose
 * `pairingCode` (also sent live once WhatsApp gives it) is the code to type on that phone.
 */
export function useRequestPairingCode() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (phone: string) =>
      whatsappRequest('/pairing-code', whatsappStatusSchema, {
        method: 'POST',
        body: { phone },
      }),
    onSuccess: (status) => queryClient.setQueryData(whatsappKeys.status, status),
    onSettled: () => queryClient.invalidateQueries({ queryKey: whatsappKeys.status }),
  });
}
