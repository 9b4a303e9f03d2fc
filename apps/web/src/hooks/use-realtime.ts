import type {
  ServerEventName,
  ServerEventPayload,
} from '@contrateia/shared/realtime/realtime.events';
import { createContext, useContext, useEffect, useRef, useSyncExternalStore } from 'react';
import { realtime, type RealtimeClient, type RealtimeStatus } from '@/lib/realtime';

/** The realtime connection hooks use: the page's own, unless a test provides another. */
export const RealtimeContext = createContext<RealtimeClient>(realtime);

/**
 * Calls `handler` with each `event` the server sends the signed-in user, while the component is
 * mounted; the connection is open while any component listens. The latest `handler` is called,
 * so it need not be memoised.
 */
export function useRealtimeEvent<E extends ServerEventName>(
  event: E,
  handler: (payload: ServerEventPayload<E>) => void,
): void {
  const client = useContext(RealtimeContext);
  const latest = useRef(handler);
  useEffect(() => {
    latest.current = handler;
  });
  useEffect(() => client.subscribe(event, (payload) => latest.current(payload)), [client, event]);
}

/** The connection's state (see RealtimeStatus), kept current. */
export function useRealtimeStatus(): RealtimeStatus {
  const client = useContext(RealtimeContext);
  return useSyncExternalStore(client.onStatus, client.getStatus);
}
