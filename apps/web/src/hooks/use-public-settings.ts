import type { LocalizedText } from '@contrateia/shared/agents/agents.schemas';
import type { PublicSettings } from '@contrateia/shared/settings/settings.schemas';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { apiRequest, onServiceUnavailable } from '@/lib/api-client';

export const publicSettingsKey = ['settings', 'public'] as const;
const PUBLIC_SETTINGS_PATH = '/settings/public';

/** How often a signed-in page asks again (cheap: the server answers 304 while nothing changed). */
const LIVE_INTERVAL_MS = 60_000;

/**
 * The admin's public settings (spec §3: content texts, registration, maintenance), readable
 * signed out. Undefined while loading or when the server cannot be reached: the pages show their
 * built-in texts meanwhile, and the server enforces the rules whatever the page shows.
 *
 * `live`: the signed-in shell follows them (maintenance turned on or off) by asking again now and
 * then and whenever the window gets focus.
 */
export function usePublicSettings({ live = false }: { live?: boolean } = {}) {
  return useQuery({
    queryKey: publicSettingsKey,
    queryFn: () => apiRequest<PublicSettings>(PUBLIC_SETTINGS_PATH),
    staleTime: 30_000,
    retry: false,
    ...(live ? { refetchOnWindowFocus: 'always' as const, refetchInterval: LIVE_INTERVAL_MS } : {}),
  });
}

/**
 * Reads the public settings again whenever the server answers a call with 503: the maintenance
 * the admin just turned on shows at once instead of at the next poll.
 */
export function useSettingsAfterUnavailable(): void {
  const queryClient = useQueryClient();
  useEffect(
    () =>
      onServiceUnavailable((path) => {
        // Their own 503 (the server down) would only ask again, and again.
        if (path === PUBLIC_SETTINGS_PATH) return;
        void queryClient.invalidateQueries({ queryKey: publicSettingsKey });
      }),
    [queryClient],
  );
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
 * The app's own name, logo text and subtitle as the admin wrote them in the page's language, or
 * the built-in ones (spec §3 content settings).
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
