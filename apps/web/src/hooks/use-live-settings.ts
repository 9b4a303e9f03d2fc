import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import {
  PUBLIC_SETTINGS_PATH,
  publicSettingsKey,
  publicSettingsQuery,
} from '@/hooks/use-public-settings';
import { setUnavailableHandler } from '@/lib/api-client';

/** How often a signed-in page asks again (cheap: the server answers 304 while nothing changed). */
const LIVE_INTERVAL_MS = 60_000;

/**
 * The public settings as the signed-in shell follows them (maintenance turned on or off): asked
 * again now and then, whenever the window gets focus, and at once when the server answers any
 * call with 503, so the maintenance the admin just turned on shows without waiting.
 */
export function useLiveSettings() {
  const queryClient = useQueryClient();
  useEffect(() => {
    setUnavailableHandler((path) => {
      // Their own 503 (the server down) would only ask again, and again.
      if (path !== PUBLIC_SETTINGS_PATH) {
        void queryClient.invalidateQueries({ queryKey: publicSettingsKey });
      }
    });
    return () => setUnavailableHandler(() => {});
  }, [queryClient]);
  return useQuery({
    ...publicSettingsQuery,
    refetchOnWindowFocus: 'always',
    refetchInterval: LIVE_INTERVAL_MS,
  });
}
