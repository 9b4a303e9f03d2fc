import {
  whatsappStatusSchema,
  type WhatsAppSettingsInput,
} from '@contrateia/shared/whatsapp/whatsapp.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { whatsappKeys } from '@/features/whatsapp/api/whatsapp-cache';
import { whatsappRequest } from '@/features/whatsapp/api/whatsapp-request';

/** POST /api/whatsapp/settings: whitelist mode and the default agent; answers the new status. */
export const updateSettings = (input: WhatsAppSettingsInput) =>
  whatsappRequest('/settings', whatsappStatusSchema, { method: 'POST', body: input });

export function useUpdateSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateSettings,
    onSuccess: (status) => {
      queryClient.setQueryData(whatsappKeys.status, status);
      // Whitelist mode changes which conversations are pending.
      return queryClient.invalidateQueries({ queryKey: whatsappKeys.conversations });
    },
  });
}
