import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useContext, useEffect } from 'react';
import {
  PUBLIC_SETTINGS_PATH,
  publicSettingsKey,
  publicSettingsQuery,
} from '@/hooks/use-public-settings';
import { RealtimeContext, useRealtimeEvent } from '@/hooks/use-realtime';
import { setUnavailableHandler } from '@/lib/api-client';

/** How often a signed-in page asks again (cheap: the server answers 304 while nothing changed). */
const LIVE_INTERVAL_MS = 60_000;

/**
 * The public settings as the signed-in shell follows them (maintenance turned on or off). Used
 * once, by the shell, which stays mounted whatever page it shows.
 *
 * - The realtime connection brings every change at once (`settings:changed`): an admin turning
 *   maintenance on reaches every open page, the admins' (a banner) and the others' (the
 *   maintenance page), as the confirmation promises.
 * - A non-admin's connection is dropped when maintenance starts and refused while it lasts; the
 *   client tries again every few seconds. So a drop is a reason to read the settings again, and
 *   so is connecting again: maintenance is over, and the app comes back without a reload.
 * - Besides, asked again now and then, whenever the window gets focus, and at once when the server
 *   answers any call with 503.
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

  useRealtimeEvent('settings:changed', (view) => {
    queryClient.setQueryData(publicSettingsKey, view);
  });

  // Followed without rendering: the shell has nothing to show of the connection itself.
  const realtime = useContext(RealtimeContext);
  useEffect(() => {
    let before = realtime.getStatus();
    return realtime.onStatus(() => {
      const status = realtime.getStatus();
      // The first connection follows the first read: nothing to learn. A lost one, or one made
      // again after a loss, may mean maintenance started or ended.
      const lost = status === 'reconnecting' || status === 'offline';
      const back = status === 'connected' && (before === 'reconnecting' || before === 'offline');
      before = status;
      if (lost || back) void queryClient.invalidateQueries({ queryKey: publicSettingsKey });
    });
  }, [realtime, queryClient]);

  return useQuery({
    ...publicSettingsQuery,
    refetchOnWindowFocus: 'always',
    refetchInterval: LIVE_INTERVAL_MS,
  });
}
