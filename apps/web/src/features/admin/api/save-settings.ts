import type {
  AdminSettingsResponse,
  ContentSettings,
  SettingsSection,
  SystemSettings,
  ThemeSettings,
} from '@contrateia/shared/settings/settings.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { adminSettingsKey } from '@/features/admin/api/get-admin-settings';
import { reloadThemeStylesheet } from '@/features/admin/theme-stylesheet';
import { publicSettingsKey } from '@/hooks/use-public-settings';
import { apiRequest } from '@/lib/api-client';
import { manageKeys } from '@/features/admin/api/manage-keys';

interface Sections {
  content: ContentSettings;
  theme: ThemeSettings;
  system: SystemSettings;
}

/** Where each section sits in GET /api/admin/settings' answer. */
const RESPONSE_KEYS = {
  content: 'contentSettings',
  theme: 'themeSettings',
  system: 'systemSettings',
} as const satisfies Record<SettingsSection, keyof AdminSettingsResponse>;

/** Stores one section (POST /api/admin/settings/{section}); the server answers it as saved. */
export function saveSettings<S extends SettingsSection>(
  section: S,
  value: Sections[S],
): Promise<Sections[S]> {
  return apiRequest<Sections[S]>(`/admin/settings/${section}`, { method: 'POST', body: value });
}

/**
 * Saves a section. In force at once: the panel keeps the saved copy, the pages read the public
 * settings again (texts, maintenance banner), and a new theme reloads /theme.css, so this page
 * restyles too.
 */
export function useSaveSettings<S extends SettingsSection>(section: S) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (value: Sections[S]) => saveSettings(section, value),
    onSuccess: async (saved) => {
      queryClient.setQueryData<AdminSettingsResponse>(adminSettingsKey, (current) =>
        current ? { ...current, [RESPONSE_KEYS[section]]: saved } : current,
      );
      if (section === 'theme') reloadThemeStylesheet();
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: publicSettingsKey }),
        // The change is in the recent changes list at once.
        queryClient.invalidateQueries({ queryKey: manageKeys.audit }),
      ]);
    },
  });
}
