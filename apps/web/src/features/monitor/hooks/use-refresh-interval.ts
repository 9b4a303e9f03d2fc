import { MONITOR_REFRESH_DEFAULT_SECONDS, MONITOR_REFRESH_SECONDS } from '@contrateia/shared';
import { useCallback, useState } from 'react';
import { readStorage, writeStorage } from '@/lib/storage';

/** Where the chosen refresh interval is kept, so the monitor opens with it next time. */
export const REFRESH_INTERVAL_KEY = 'monitor.refreshSeconds';

export type RefreshSeconds = (typeof MONITOR_REFRESH_SECONDS)[number];

function isRefreshSeconds(value: number): value is RefreshSeconds {
  return (MONITOR_REFRESH_SECONDS as readonly number[]).includes(value);
}

/** The stored choice when it is one of the options, else the default, 30 s. */
function readInterval(): RefreshSeconds {
  const stored = Number(readStorage(REFRESH_INTERVAL_KEY));
  return isRefreshSeconds(stored) ? stored : MONITOR_REFRESH_DEFAULT_SECONDS;
}

/** The monitor's refresh interval in seconds, persisted in localStorage. */
export function useRefreshInterval() {
  const [seconds, setSeconds] = useState<RefreshSeconds>(readInterval);
  const choose = useCallback((value: number) => {
    if (!isRefreshSeconds(value)) return;
    writeStorage(REFRESH_INTERVAL_KEY, String(value));
    setSeconds(value);
  }, []);
  return [seconds, choose] as const;
}
