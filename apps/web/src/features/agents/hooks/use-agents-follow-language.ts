import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { agentsQueryRoot } from '@/features/agents/api/get-user-agents';

/**
 * Agents come with their texts in the language of the request; after a language switch the
 * cached ones are refetched in the new language (kept on screen meanwhile).
 */
export function useAgentsFollowLanguage() {
  const { i18n } = useTranslation();
  const queryClient = useQueryClient();
  useEffect(() => {
    const handleChange = () => void queryClient.invalidateQueries({ queryKey: agentsQueryRoot });
    i18n.on('languageChanged', handleChange);
    return () => i18n.off('languageChanged', handleChange);
  }, [i18n, queryClient]);
}
