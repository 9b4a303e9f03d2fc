import type { LocalizedText } from '@contrateia/shared/agents/agents.schemas';
import type { PublicSettings } from '@contrateia/shared/settings/settings.schemas';
import { useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { apiRequest } from '@/lib/api-client';

export const PUBLIC_SETTINGS_PATH = '/settings/public';
export const publicSettingsKey = ['settings', 'public'] as const;

export const publicSettingsQuery = {
  queryKey: publicSettingsKey,
  queryFn: () => apiRequest<PublicSettings>(PUBLIC_SETTINGS_PATH),
  staleTime: 30_000,
  retry: false,
};

/**
 * The admin's public settings (content texts, registration, maintenance), readable signed out.
 * Undefined while loading or when the server cannot be reached: the pages show their built-in texts
 * meanwhile, and the server enforces the rules whatever the page shows.
 */
export function usePublicSettings() {
  return useQuery(publicSettingsQuery);
}

/** An admin's text in the page's language, or `fallback` (the built-in translation) when it is empty. */
export function useSettingText(): (text: LocalizedText | undefined, fallback: string) => string {
  const { i18n } = useTranslation();
  return useCallback(
    (text, fallback) => text?.[i18n.language as keyof LocalizedText]?.trim() || fallback,
    [i18n.language],
  );
}

/**
 * The app's own name, logo text and subtitle as the admin wrote them in the page's language, or the
 * built-in ones.
 */
export function useAppTexts(): { appTitle: string; logoText: string; appSubtitle: string } {
  const { t } = useTranslation();
  const content = usePublicSettings().data?.content;
  const text = useSettingText();
  const appTitle = text(content?.appTitle, t('app.name'));
  return {
    appTitle,
    logoText: text(content?.logoText, appTitle),
    appSubtitle: text(content?.appSubtitle, t('app.subtitle')),
  };
}
