import type { AiSettings, AiSettingsInput, AiTestResponse } from '@contrateia/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { manageKeys } from '@/features/admin/api/manage-keys';
import { apiRequest } from '@/lib/api-client';

/** GET /api/admin/ai: the provider settings; the API key never, only whether one is set. */
export function getAiSettings(): Promise<AiSettings> {
  return apiRequest<AiSettings>('/admin/ai');
}

export function useAiSettings() {
  return useQuery({ queryKey: manageKeys.ai, queryFn: getAiSettings });
}

/** POST /api/admin/ai: saves; answers the settings as saved. */
export function saveAiSettings(input: AiSettingsInput): Promise<AiSettings> {
  return apiRequest<AiSettings>('/admin/ai', { method: 'POST', body: input });
}

export function useSaveAiSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: saveAiSettings,
    onSuccess: async (saved) => {
      queryClient.setQueryData(manageKeys.ai, saved);
      await queryClient.invalidateQueries({ queryKey: manageKeys.audit });
    },
  });
}

/**
 * POST /api/admin/ai/test: a real one-line completion with these values, not saved. A failed
 * completion is an answer too (`ok: false` with the reason); only a refused request throws.
 */
export function testAiSettings(input: AiSettingsInput): Promise<AiTestResponse> {
  return apiRequest<AiTestResponse>('/admin/ai/test', { method: 'POST', body: input });
}

export function useTestAiSettings() {
  return useMutation({ mutationFn: testAiSettings });
}
