import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type {
  ClientToServerEvents,
  ServerEventName,
  ServerEventPayload,
  ServerToClientEvents,
} from '@contrateia/shared/realtime/realtime.events';
import { Server } from 'socket.io';
import { onTestFinished } from 'vitest';
import { createRealtimeClient, type RealtimeClient } from '@/lib/realtime';

/**
 * A real Socket.IO server in the test process, speaking the app's event contract
 * (realtime.events.ts) the way the API server does: the handshake must carry the stored token
 * (`auth: {token}`), `join-whatsapp` joins the account's room and acknowledges, and the test
 * emits the server's events into that room. WebSocket only, as the API server. The page connects
 * to it with the app's realtime client (lib/realtime.ts) over a real WebSocket; nothing of the
 * client is stubbed.
 */
export interface FakeRealtime {
  /** The app's realtime client, pointed here (for RealtimeContext). */
  readonly client: RealtimeClient;
  /** How many times a client joined the WhatsApp room. */
  readonly joins: number;
  /** Sends a server event to everyone in the room. */
  emit<E extends ServerEventName>(event: E, payload: ServerEventPayload<E>): void;
  /**
   * Stops the server (every connection drops), then starts it again on the same port; `whileDown`
   * runs in between (the client meanwhile tries to connect again, and fails).
   */
  restart(whileDown?: () => unknown): Promise<void>;
}

type IoServer = Server<ClientToServerEvents, ServerToClientEvents>;

export async function startFakeRealtime({ token }: { token: string }): Promise<FakeRealtime> {
  let joins = 0;
  let http: HttpServer;
  let io: IoServer;

  const listen = async (port: number) => {
    http = createServer();
    io = new Server(http, { transports: ['websocket'] });
    io.use((socket, next) => {
      const auth = socket.handshake.auth as { token?: unknown };
      next(auth.token === token ? undefined : new Error('Unauthorized'));
    });
    io.on('connection', (socket) => {
      socket.on('join-whatsapp', (ack) => {
        void socket.join('whatsapp');
        joins += 1;
        ack?.({ ok: true });
      });
      socket.on('leave-whatsapp', (ack) => {
        void socket.leave('whatsapp');
        ack?.({ ok: true });
      });
    });
    await new Promise<void>((resolve) => http.listen(port, '127.0.0.1', resolve));
    return (http.address() as AddressInfo).port;
  };
  const close = () => new Promise<void>((resolve) => void io.close(() => resolve()));

  const port = await listen(0);
  onTestFinished(close);

  return {
    client: createRealtimeClient({
      url: `http://127.0.0.1:${port}`,
      // Quick, unrandomised retries: a restart is followed at once by the reconnection.
      socketOptions: { reconnectionDelay: 20, randomizationFactor: 0 },
    }),
    get joins() {
      return joins;
    },
    emit(event, payload) {
      // The typed emit cannot follow a generic event name; the payload type is checked above.
      (io.to('whatsapp').emit as (event: string, payload: unknown) => boolean)(event, payload);
    },
    async restart(whileDown) {
      await close();
      await whileDown?.();
      await listen(port);
    },
  };
}
