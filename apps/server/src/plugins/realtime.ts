import type { Duplex } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import { createAdapter } from '@socket.io/redis-adapter';
import { Server, type Socket } from 'socket.io';
import { LANGUAGES, type Language, type PublicSettings } from '@contrateia/shared';
import type {
  ClientToServerEvents,
  ServerEventName,
  ServerEventPayload,
  ServerToClientEvents,
} from '@contrateia/shared/realtime/realtime.events';
import type { EventHub } from '@/lib/event-hub';
import { createTranslator, languageOf, type Translate } from '@/lib/i18n';
import { settle, type MaybePromise } from '@/lib/maybe-promise';
import type { SharedState } from '@/lib/shared-state';
import type { AuthContext, Authenticator } from '@/features/auth/auth.service';

/** Where the Socket.IO endpoint listens, on the app's own port. */
export const REALTIME_PATH = '/socket.io';

/** How often every open socket's session is checked again, so that an expired one is dropped. */
export const DEFAULT_RECHECK_MS = 60_000;

/** How long a closing app waits for its WebSocket clients to answer the close before cutting them. */
const CLOSE_GRACE_MS = 1000;

/** What a socket knows of its caller, checked again on every event and every `recheckMs`. */
type SocketData = { token: string; userId: string; sessionId: string };
type RealtimeServer = Server<
  ClientToServerEvents,
  ServerToClientEvents,
  Record<string, never>,
  SocketData
>;
type RealtimeSocket = Socket<
  ClientToServerEvents,
  ServerToClientEvents,
  Record<string, never>,
  SocketData
>;

export type Realtime = {
  /**
   * Sends `event` to every socket of `userId` that joined its WhatsApp room, on every instance
   * (through the Redis adapter when the app has Redis). Nobody else's socket receives it.
   */
  emitToUser<E extends ServerEventName>(
    userId: string,
    event: E,
    payload: ServerEventPayload<E>,
  ): void;
  /** The sockets open on this instance now (the monitor adds up every instance's). */
  localConnections(): number;
};

declare module 'fastify' {
  interface FastifyInstance {
    realtime: Realtime;
  }
}

const whatsAppRoom = (userId: string) => `whatsapp:${userId}`;
const sessionRoom = (sessionId: string) => `session:${sessionId}`;
const userRoom = (userId: string) => `user:${userId}`;

/**
 * Socket.IO on the app's HTTP server (`/socket.io`, WebSocket only: no long-polling, so instances
 * behind a load balancer need no sticky sessions). A socket authenticates in the handshake
 * (`auth: {token}`) through the auth feature's authenticator, as an API request does, and lives
 * only as long as its session: it is dropped on every instance when the session is revoked or
 * the user changes (the authenticator's change messages), and when the session has expired
 * (checked on each client event and every `recheckMs`). Checking never extends a session: an
 * open tab is no sign that anybody is there.
 *
 * Maintenance holds sockets as it holds API calls: while it is on, a non-admin's handshake is
 * refused (`errors.maintenance`, `{status: 503, maintenance: true}`), and when it starts every
 * instance drops its non-admins' sockets, after telling every socket what changed
 * (`settings:changed`, which each instance sends to its own sockets when it hears of the change
 * through the settings' shared invalidation).
 *
 * With Redis, the Redis adapter carries emits to the sockets on every instance.
 */
export const realtimePlugin = fp<{
  authenticator: Authenticator;
  state: SharedState;
  /** The public settings: whether maintenance is on, and a change of them on any instance. */
  settings: {
    maintenanceMode: () => MaybePromise<boolean>;
    onPublicChange: (listener: (view: PublicSettings) => void) => () => void;
  };
  translate?: (language: Language) => Translate;
  recheckMs?: number;
  /** What features emit for an account: delivered to its sockets, on whichever instance they are. */
  hub?: EventHub;
}>(
  async (
    app,
    {
      authenticator,
      state,
      settings,
      translate = createTranslator(),
      recheckMs = DEFAULT_RECHECK_MS,
      hub,
    },
  ) => {
    let closing = false;
    const io: RealtimeServer = new Server(app.server, {
      path: REALTIME_PATH,
      serveClient: false,
      transports: ['websocket'],
      // Clients send only a room request: nothing needs more than a few bytes.
      maxHttpBufferSize: 16 * 1024,
      // A connection that never sends its handshake is closed this soon (45 s by default).
      connectTimeout: 10_000,
      allowRequest: (_request, callback) => callback(null, !closing),
    });

    // The upgraded connections: a client that never answers the close would hold the HTTP
    // server's close for ws's 30 s.
    const upgraded = new Set<Duplex>();
    app.server.on('upgrade', (_request, socket: Duplex) => {
      upgraded.add(socket);
      socket.once('close', () => upgraded.delete(socket));
    });

    let subscriber: Redis | undefined;
    if (state.redis) {
      // Subscriptions wait for Redis however long it is away, rather than fail after a few tries.
      subscriber = state.redis.duplicate({
        maxRetriesPerRequest: null,
        enableOfflineQueue: true,
        enableAutoPipelining: false,
      });
      subscriber.on('error', () => {}); // reported on the main client; this one reconnects by itself
      io.adapter(
        createAdapter(
          failingQuietly(state.redis, ['publish'], app.log),
          failingQuietly(
            subscriber,
            ['subscribe', 'psubscribe', 'unsubscribe', 'punsubscribe'],
            app.log,
          ),
          { key: `${state.keyPrefix}:socket.io` },
        ),
      );
    }

    io.use((socket, next) => {
      const auth = socket.handshake.auth as Record<string, unknown>;
      const language =
        typeof auth.language === 'string' &&
        (LANGUAGES as readonly string[]).includes(auth.language)
          ? (auth.language as Language)
          : languageOf(socket.handshake.headers['accept-language']);
      const token = typeof auth.token === 'string' ? auth.token : undefined;
      const refuse = (key: string, data: Record<string, unknown>) =>
        next(Object.assign(new Error(translate(language)(key)), { data }));
      const failed = (error: unknown) => {
        app.log.error({ err: error }, 'socket handshake failed');
        refuse('errors.unavailable', { status: 503 });
      };
      settle(
        authenticator.authenticate(token, { touch: false }),
        (context) => {
          if (!context || !token) return refuse('errors.unauthorized', { status: 401 });
          settle(
            shutOut(context),
            (out) => {
              if (out) return refuse('errors.maintenance', { status: 503, maintenance: true });
              socket.data = { token, userId: context.user.id, sessionId: context.sessionId };
              next();
            },
            failed,
          );
        },
        failed,
      );
    });

    /** Whether maintenance keeps `context` out: it is on, and the caller is no admin (in either mode). */
    function shutOut(context: AuthContext): MaybePromise<boolean> {
      return context.user.originalRole === 'admin' ? false : settings.maintenanceMode();
    }

    io.on('connection', (socket) => {
      void socket.join([sessionRoom(socket.data.sessionId), userRoom(socket.data.userId)]);
      // A revocation announced after the handshake read the session but before these rooms were
      // joined found no socket to drop: with the rooms joined, look once more.
      check(socket);
      // Every event first checks that the session still holds.
      socket.use((_packet, next) => {
        mayStay(
          socket,
          (stays) => (stays ? next() : socket.disconnect(true)),
          () => next(new Error('unavailable')),
        );
      });
      socket.on('error', () => {}); // a failed check above; the event is dropped
      socket.on('join-whatsapp', (...args: unknown[]) =>
        roomRequest(socket, args, (room) => socket.join(room)),
      );
      socket.on('leave-whatsapp', (...args: unknown[]) =>
        roomRequest(socket, args, (room) => socket.leave(room)),
      );
    });

    /** Calls `then` with whether `socket` may stay: its session holds, and maintenance does not keep it out. */
    function mayStay(
      socket: RealtimeSocket,
      then: (stays: boolean) => void,
      fail: (error: unknown) => void,
    ): void {
      settle(
        authenticator.authenticate(socket.data.token, { touch: false }),
        (context) => {
          if (!context || !isStill(socket, context)) return then(false);
          settle(shutOut(context), (out) => then(!out), fail);
        },
        fail,
      );
    }

    /** Disconnects `socket` if it may no longer stay. */
    function check(socket: RealtimeSocket): void {
      mayStay(
        socket,
        (stays) => {
          if (!stays) socket.disconnect(true);
        },
        (error) => app.log.warn({ err: error }, 'socket session check failed'),
      );
    }

    /** Checks the local sockets in `room`, or all of them. */
    function recheck(room?: string): void {
      const ids = room ? io.of('/').adapter.rooms.get(room) : io.of('/').sockets.keys();
      for (const id of [...(ids ?? [])]) {
        const socket = io.of('/').sockets.get(id);
        if (socket) check(socket);
      }
    }

    // On every instance: a revocation, a role switch, a password change, a deleted account.
    const stopWatching = authenticator.onChange((change) => {
      if (change === null) recheck();
      else if ('sessionId' in change) recheck(sessionRoom(change.sessionId));
      else recheck(userRoom(change.userId));
    });
    // On every instance, once it has the change in force: every socket here hears of it (this
    // instance's own: each instance tells its own, so none hears it twice), and when maintenance
    // has started, those it keeps out are dropped, each after the event that says why.
    const stopWatchingSettings = settings.onPublicChange((view) => {
      io.local.emit('settings:changed', view);
      if (view.maintenanceMode) recheck();
    });
    const timer = setInterval(() => recheck(), recheckMs);
    timer.unref();

    const realtime: Realtime = {
      emitToUser(userId, event, payload) {
        // The typed emit cannot follow a generic event name through its overloads.
        (io.to(whatsAppRoom(userId)).emit as (event: ServerEventName, payload: unknown) => boolean)(
          event,
          payload,
        );
      },
      localConnections: () => io.of('/').sockets.size,
    };
    app.decorate('realtime', realtime);
    const deliver = <E extends ServerEventName>(event: {
      userId: string;
      name: E;
      payload: ServerEventPayload<E>;
    }) => realtime.emitToUser(event.userId, event.name, event.payload);
    const stopDelivering = hub?.subscribe(deliver);

    // Before the HTTP server closes: its close waits for every connection, upgraded ones too.
    // Closing the transports (not disconnecting the sockets) lets clients reconnect to another
    // instance or to this one once it is back.
    app.addHook('preClose', async () => {
      closing = true;
      clearInterval(timer);
      stopWatching();
      stopWatchingSettings();
      stopDelivering?.();
      io.engine.close();
      if (upgraded.size > 0) {
        setTimeout(() => {
          for (const socket of upgraded) socket.destroy();
        }, CLOSE_GRACE_MS).unref();
      }
      await io.of('/').adapter.close();
      // Not quit(): with Redis away it would wait for it. Pending commands fail, quietly.
      subscriber?.disconnect();
    });
  },
  { name: 'realtime', dependencies: ['i18n'] },
);

/**
 * `redis` as the adapter uses it, with the failures of `methods` logged rather than thrown. The
 * adapter calls them without waiting (an emit is fire-and-forget; it subscribes in its
 * constructor and unsubscribes in close()), so a call that fails while Redis is away would be an
 * unhandled rejection, which shuts the process down (close-with-grace). An emit that could not be
 * published is lost, as one to a socket that just dropped would be.
 */
function failingQuietly(redis: Redis, methods: readonly string[], log: FastifyBaseLogger): Redis {
  const wrapped = new Map(
    methods.map((name) => {
      const method = Reflect.get(redis, name, redis) as (...args: unknown[]) => Promise<unknown>;
      const call = (...args: unknown[]) =>
        method.apply(redis, args).catch((error: unknown) => {
          log.warn({ err: error, command: name }, 'socket event adapter: Redis command failed');
          return 0;
        });
      return [name, call] as const;
    }),
  );
  return new Proxy(redis, {
    get(target, property) {
      const own = typeof property === 'string' ? wrapped.get(property) : undefined;
      if (own) return own;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function'
        ? (value as (...args: unknown[]) => unknown).bind(target)
        : value;
    },
  });
}

/** Whether the socket's caller is still the one it authenticated as. */
function isStill(socket: RealtimeSocket, context: AuthContext | null): boolean {
  return (
    context !== null &&
    context.user.id === socket.data.userId &&
    context.sessionId === socket.data.sessionId
  );
}

/**
 * `join-whatsapp` / `leave-whatsapp`: no payload, at most an acknowledgement callback. Anything
 * else is answered `{ok: false}` when it can be, and changes nothing. The room is always the
 * caller's own.
 */
function roomRequest(
  socket: RealtimeSocket,
  args: unknown[],
  apply: (room: string) => void | Promise<void>,
): void {
  const ack =
    typeof args.at(-1) === 'function'
      ? (args.pop() as (result: { ok: boolean }) => void)
      : undefined;
  if (args.length > 0) return ack?.({ ok: false });
  void Promise.resolve(apply(whatsAppRoom(socket.data.userId))).then(
    () => ack?.({ ok: true }),
    () => ack?.({ ok: false }),
  );
}
