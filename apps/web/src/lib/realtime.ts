import type {
  ClientToServerEvents,
  ServerEventName,
  ServerEventPayload,
  ServerToClientEvents,
} from '@contrateia/shared/realtime/realtime.events';
import { io, type ManagerOptions, type Socket, type SocketOptions } from 'socket.io-client';
import { ApiError, apiRequest } from '@/lib/api-client';
import { getCurrentLanguage } from '@/lib/i18n';
import { getToken, onTokenChange } from '@/lib/session';

/**
 * - `idle`: nobody listens, or nobody is signed in: no connection.
 * - `connecting`: the first connection is being made.
 * - `connected`: events arrive.
 * - `reconnecting`: the connection was lost (the server restarted, the network dropped) and is
 *   being made again; events sent meanwhile are not replayed, so listeners refetch on `connected`.
 * - `offline`: the server refused the connection and the session still holds; nothing more is tried
 *   until the token changes.
 */
export type RealtimeStatus = 'idle' | 'connecting' | 'connected' | 'reconnecting' | 'offline';

type RealtimeSocket = Socket<ServerToClientEvents, ClientToServerEvents>;
type Handler = (payload: never) => void;

export type RealtimeClient = ReturnType<typeof createRealtimeClient>;

/**
 * The page's one Socket.IO connection, opened while something listens and a user is signed in.
 * It authenticates with the stored token (read again on every connection, so a reconnection
 * after a role switch uses the new one), joins the user's WhatsApp room on every connection
 * (rooms do not outlive one), reconnects by itself after the server restarts, connects again at
 * once when the token changes, and closes when the session ends.
 *
 * The server drops a socket whose session ended; the client then asks the API who it is: a 401
 * there ends the session in the browser as any 401 does (api-client), and anything else means
 * the socket may connect again. A handshake the server refused with 503 (it could not check the
 * token, or it is in maintenance, which lets only admins in) is tried again after about `retryMs`
 * (spread over half to one and a half times it, so that the pages maintenance shut out do not all
 * come back in the same instant), again and again: once maintenance is over, the connection is
 * back within seconds, and with it the page (use-live-settings).
 */
export function createRealtimeClient({
  url,
  retryMs = 5_000,
  socketOptions,
}: {
  url?: string;
  retryMs?: number;
  /** Added to socket.io-client's options (tests ask for quick, unrandomised retries). */
  socketOptions?: Partial<ManagerOptions & SocketOptions>;
} = {}) {
  const handlers = new Map<string, Set<Handler>>();
  const statusListeners = new Set<() => void>();
  let status: RealtimeStatus = 'idle';
  let users = 0;
  let socket: RealtimeSocket | undefined;
  /** The token the current connection was made with. */
  let connectedWith: string | null = null;
  /** The token of the last drop or refusal since the last connection: once more is one too many. */
  let refused: string | null = null;
  let stopWatchingToken: (() => void) | undefined;

  function setStatus(next: RealtimeStatus): void {
    if (next === status) return;
    status = next;
    for (const listener of statusListeners) listener();
  }

  function open(): void {
    const token = getToken();
    if (!token || users === 0 || socket) return;
    const options = {
      ...socketOptions,
      path: '/socket.io',
      // WebSocket only, as the server: no long-polling, which would need sticky sessions.
      transports: ['websocket'],
      auth: (send: (data: object) => void) => {
        connectedWith = getToken();
        send({ token: connectedWith, language: getCurrentLanguage() });
      },
    };
    const created: RealtimeSocket = url ? io(url, options) : io(options);
    socket = created;
    setStatus('connecting');
    created.on('connect', () => {
      refused = null;
      setStatus('connected');
      created.emit('join-whatsapp');
    });
    created.on('disconnect', (reason) => {
      if (reason === 'io client disconnect') return;
      setStatus('reconnecting');
      // The server dropped this socket: its session ended, or was replaced.
      if (reason === 'io server disconnect') void recover(created);
    });
    created.on('connect_error', (error) => {
      // Still active: the server could not be reached, and the client retries by itself.
      if (created.active) return setStatus('reconnecting');
      setStatus('reconnecting');
      // Refused: the token (401), or the server could not check it just now or is in
      // maintenance (503: try again later).
      if ((error as { data?: { status?: number } }).data?.status === 401) void recover(created);
      else {
        const delay = retryMs * (0.5 + Math.random());
        setTimeout(() => socket === created && !created.connected && created.connect(), delay);
      }
    });
    created.onAny((event: string, payload: unknown) => {
      for (const handler of handlers.get(event) ?? [])
        (handler as (payload: unknown) => void)(payload);
    });
  }

  function close(): void {
    socket?.disconnect();
    socket = undefined;
    connectedWith = null;
    setStatus('idle');
  }

  /**
   * After the server dropped or refused `dropped`: connects again with a newer token, or with the
   * same one if the API still takes it, but only once in a row: a token the server keeps refusing
   * leaves the client `offline` until the token changes.
   */
  async function recover(dropped: RealtimeSocket): Promise<void> {
    const usedToken = connectedWith;
    if (getToken() === usedToken) {
      try {
        await apiRequest('/user');
      } catch (error) {
        // A 401 has ended the session: the token listener closes the connection.
        if (error instanceof ApiError && error.status === 401) return;
      }
    }
    if (socket !== dropped || !getToken()) return;
    if (getToken() === usedToken) {
      if (refused === usedToken) return setStatus('offline');
      refused = usedToken;
    }
    dropped.connect();
  }

  function onToken(): void {
    const token = getToken();
    if (!token) return close();
    refused = null;
    if (!socket) return open();
    if (token !== connectedWith) {
      // Authenticate again with the new token.
      socket.disconnect();
      setStatus('connecting');
      socket.connect();
    }
  }

  function retain(): () => void {
    users += 1;
    if (users === 1) stopWatchingToken = onTokenChange(onToken);
    open();
    let released = false;
    return () => {
      if (released) return;
      released = true;
      users -= 1;
      if (users > 0) return;
      stopWatchingToken?.();
      stopWatchingToken = undefined;
      close();
    };
  }

  return {
    /**
     * Calls `handler` with each `event` the server sends this user; the connection stays open
     * while anything is subscribed. Returns the unsubscribe function.
     */
    subscribe<E extends ServerEventName>(
      event: E,
      handler: (payload: ServerEventPayload<E>) => void,
    ): () => void {
      let set = handlers.get(event);
      if (!set) {
        set = new Set();
        handlers.set(event, set);
      }
      set.add(handler as Handler);
      const release = retain();
      return () => {
        set.delete(handler as Handler);
        release();
      };
    },
    /** Keeps the connection open without listening to an event (a page that shows its status). */
    retain,
    getStatus: (): RealtimeStatus => status,
    onStatus(listener: () => void): () => void {
      statusListeners.add(listener);
      return () => void statusListeners.delete(listener);
    },
  };
}

/** The page's connection, to the server that served it. */
export const realtime = createRealtimeClient();
