import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { whatsappKeys } from '@/features/whatsapp/api/whatsapp-cache';

/**
 * The server words some of the WhatsApp data in the request's language (a conversation's agent
 * display name, the agents' names): after a language switch everything cached is read again in
 * the new language (kept on screen meanwhile), so the page never mixes two languages.
 */
export function useWhatsAppFollowLanguage() {
  const { i18n } = useTranslation();
  const queryClient = useQueryClient();
  useEffect(() => {
    const handleChange = () => void queryClient.invalidateQueries({ queryKey: whatsappKeys.all });
    i18n.on('languageChanged', handleChange);
    return () => i18n.off('languageChanged', handleChange);
  }, [i18n, queryClient]);
}
