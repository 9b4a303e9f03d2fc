import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type {
  ClientToServerEvents,
  ServerToClientEvents,
} from '@contrateia/shared/realtime/realtime.events';
import { Server, type Socket } from 'socket.io';

type ServerSocket = Socket<ClientToServerEvents, ServerToClientEvents>;

/**
 * A Socket.IO server speaking the app's protocol (apps/server/src/plugins/realtime.ts): a
 * handshake with a token it knows, a refusal otherwise, `join-whatsapp` joining the caller's
 * room. The real server is another workspace; this one can stop and start again on its port.
 */
export async function startSocketServer(port = 0) {
  const http: HttpServer = createServer();
  const io = new Server<ClientToServerEvents, ServerToClientEvents>(http, {
    transports: ['websocket'],
  });
  const valid = new Set<string>();
  const connections: { token: string; socket: ServerSocket }[] = [];
  const arrivals: ((entry: { token: string; socket: ServerSocket }) => void)[] = [];
  /** Handshakes to answer "cannot check now" (503), as the app does when its database fails. */
  const failures = { count: 0 };
  io.use((socket, next) => {
    if (failures.count > 0) {
      failures.count -= 1;
      return next(Object.assign(new Error('Unavailable'), { data: { status: 503 } }));
    }
    const { token } = socket.handshake.auth as { token?: string };
    if (token && valid.has(token)) return next();
    next(Object.assign(new Error('Unauthorized'), { data: { status: 401 } }));
  });
  io.on('connection', (socket) => {
    const token = (socket.handshake.auth as { token: string }).token;
    socket.on('join-whatsapp', (ack) => {
      void Promise.resolve(socket.join(`whatsapp:${token}`)).then(() => {
        ack?.({ ok: true });
        const entry = { token, socket };
        connections.push(entry);
        for (const arrival of arrivals.splice(0)) arrival(entry);
      });
    });
  });
  await new Promise<void>((resolve) => http.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}`,
    port: (http.address() as AddressInfo).port,
    valid,
    failures,
    connections,
    /** The next socket to join its room (a connection the client completed). */
    nextJoin: () =>
      new Promise<{ token: string; socket: ServerSocket }>((resolve) => arrivals.push(resolve)),
    emitTo: (token: string, phone: string) =>
      io.to(`whatsapp:${token}`).emit('whatsapp:ready', { phone }),
    close: () => io.close(),
  };
}
