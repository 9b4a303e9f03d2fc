import type { ServerEventName, ServerEventPayload } from '@contrateia/shared';

/** One event for one account, as the Socket.IO layer sends it to that account's sockets. */
export type HubEvent = {
  [E in ServerEventName]: { userId: string; name: E; payload: ServerEventPayload<E> };
}[ServerEventName];

export type EventHub = {
  emit<E extends ServerEventName>(userId: string, name: E, payload: ServerEventPayload<E>): void;
  /** Calls `listener` with every event emitted from now on; returns the unsubscribe function. */
  subscribe(listener: (event: HubEvent) => void): () => void;
};

/**
 * Where features put the real-time events meant for an account's browsers (typed once in
 * shared): the Socket.IO layer subscribes and delivers them (its Redis adapter carries them to
 * the other instances), and tests subscribe to see what was emitted. This instance only: a
 * listener that throws does not keep the event from the others.
 */
export function createEventHub(): EventHub {
  const listeners = new Set<(event: HubEvent) => void>();
  return {
    emit(userId, name, payload) {
      const event = { userId, name, payload } as HubEvent;
      for (const listener of listeners) {
        try {
          listener(event);
        } catch {
          // A listener's failure is its own.
        }
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}
