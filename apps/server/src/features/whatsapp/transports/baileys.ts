/**
 * The real WhatsApp transport: one Baileys socket per account, its auth state in the database
 * (baileys-auth-state.ts), its close codes turned into reconnects or a `closed` event with a reason.
 *
 * Per account there is exactly one live socket in the process: a new one starts only after the
 * previous one has closed. What one close code means:
 * - 515 (WhatsApp asks for a restart, right after a QR scan): reconnect at once.
 * - 401 (unlinked from the phone): the stored auth state is deleted; closed `logged-out`.
 * - 403 (banned): closed `banned`.
 * - 440 (another session took the number): back off and retry, closed `replaced` once it repeats.
 * - anything else (408, 428, 500, 503, unknown): reconnect with exponential backoff and jitter.
 * A watchdog ends a socket that reaches neither a QR nor open in time: Baileys stays "connecting"
 * forever when the server answers the WebSocket upgrade with an HTTP error.
 */
import makeWASocket, {
  DisconnectReason,
  fetchLatestWaWebVersion,
  jidDecode,
  normalizeMessageContent,
  toNumber,
  type WASocket,
  type WAMessage,
  type WAVersion,
} from '@whiskeysockets/baileys';
import type { Logger } from 'pino';
import type { Db } from '@/db/client';
import type { Lock, SharedState } from '@/lib/shared-state';
import { linkedAccountIds } from '../whatsapp-auth.repository';
import { createAuthKeyCache, deleteAuthState, forgetCachedKeys, loadAuthState, type AuthKeyCache } from './baileys-auth-state';
import type { CloseReason, InboundMessage, TransportEventSink, WhatsAppTransport } from './transport';

export type BaileysTransportOptions = {
  db: Db;
  logger: Logger;
  onEvent: TransportEventSink;
  /** The WebSocket server to talk to (WHATSAPP_WS_URL); WhatsApp's own when absent. */
  wsUrl?: string;
  /** QR codes shown per `connect` before giving up with `qr-limit`. */
  qrLimit?: number;
  /** How long each QR code lives (Baileys: 60 s the first, 20 s the next). */
  qrTimeoutMs?: number;
  /** Reconnect delays: `baseMs`·2^(attempt−1), at most `maxMs`, jittered; closed `failed` after `maxAttempts`. */
  backoff?: { baseMs?: number; maxMs?: number; maxAttempts?: number };
  /** 440s within `windowMs` of each other, counted; the `limit`th closes `replaced`. */
  replaced?: { limit?: number; windowMs?: number };
  /** A socket that shows neither a QR nor opens within this is ended (and retried). */
  watchdogMs?: number;
  /** The WhatsApp Web version to announce; undefined falls back to the one Baileys bundles. */
  fetchVersion?: () => Promise<WAVersion | undefined>;
  /** In [0, 1): the jitter of backoff delays. */
  random?: () => number;
  now?: () => number;
  /** Signal keys kept in memory, across accounts. */
  keyCacheSize?: number;
  /**
   * Where the one-owner-per-account leases live (Redis with several instances). Without it this
   * process assumes it is the only one.
   */
  shared?: SharedState;
  /** How long an account's lease outlives an owner that died (renewed while held). */
  leaseTtlMs?: number;
};

type Account = {
  id: string;
  /** This instance's lease on the account: no other instance connects it while held. */
  lease?: Lock;
  socket?: WASocket;
  /** The current socket's auth state. */
  auth?: Awaited<ReturnType<typeof loadAuthState>>;
  /** Resolves once the current socket has closed (resolved when there is none). */
  socketClosed: Promise<void>;
  /** Set when this transport itself ends the account's connection, to say why. */
  stopping?: CloseReason;
  /** With `stopping`: the auth state goes too (logout), or stays (shutdown, QR limit). */
  forget?: boolean;
  reconnectTimer?: NodeJS.Timeout;
  watchdog?: NodeJS.Timeout;
  attempt: number;
  qrCount: number;
  replacedAt: number[];
};

const DEFAULT_VERSION_TIMEOUT_MS = 5_000;

/** WhatsApp Web's current version, or undefined (Baileys' bundled one) when it cannot be fetched in time. */
async function fetchCurrentWebVersion(): Promise<WAVersion | undefined> {
  const result = await fetchLatestWaWebVersion({ signal: AbortSignal.timeout(DEFAULT_VERSION_TIMEOUT_MS) });
  return result.isLatest ? result.version : undefined;
}

export function createBaileysTransport(options: BaileysTransportOptions): WhatsAppTransport {
  const { db, onEvent } = options;
  const qrLimit = options.qrLimit ?? 5;
  const baseMs = options.backoff?.baseMs ?? 2_000;
  const maxMs = options.backoff?.maxMs ?? 5 * 60_000;
  const maxAttempts = options.backoff?.maxAttempts ?? 30;
  const replacedLimit = options.replaced?.limit ?? 3;
  const replacedWindowMs = options.replaced?.windowMs ?? 10 * 60_000;
  const watchdogMs = options.watchdogMs ?? 60_000;
  const fetchVersion = options.fetchVersion ?? fetchCurrentWebVersion;
  const random = options.random ?? Math.random;
  const now = options.now ?? Date.now;
  const cache: AuthKeyCache = createAuthKeyCache(options.keyCacheSize);
  const accounts = new Map<string, Account>();
  const log = options.logger.child({ transport: 'baileys' });

  function emitClosed(account: Account, reason: CloseReason) {
    clearTimeout(account.reconnectTimer);
    clearTimeout(account.watchdog);
    if (accounts.get(account.id) === account) accounts.delete(account.id);
    void account.lease?.release().catch(() => {});
    onEvent(account.id, { type: 'closed', reason });
  }

  function scheduleReconnect(account: Account) {
    account.attempt += 1;
    if (account.attempt > maxAttempts) {
      emitClosed(account, { kind: 'failed', message: `WhatsApp unreachable after ${maxAttempts} attempts` });
      return;
    }
    const ceiling = Math.min(maxMs, baseMs * 2 ** (account.attempt - 1));
    // Half fixed, half random: instances and accounts that lost WhatsApp together do not return together.
    const delayMs = Math.round(ceiling / 2 + (random() * ceiling) / 2);
    onEvent(account.id, { type: 'reconnecting', attempt: account.attempt, delayMs });
    account.reconnectTimer = setTimeout(() => void start(account), delayMs);
  }

  async function start(account: Account) {
    account.reconnectTimer = undefined;
    // Exactly one live socket per account: the next starts after the last has closed.
    await account.socketClosed;
    if (accounts.get(account.id) !== account || account.stopping) return;
    onEvent(account.id, { type: 'connecting' });
    let socket: WASocket;
    let auth: Awaited<ReturnType<typeof loadAuthState>>;
    let closeSocket!: () => void;
    try {
      let version: WAVersion | undefined;
      [version, auth] = await Promise.all([
        fetchVersion().catch(() => undefined),
        loadAuthState({ db, accountId: account.id, cache }),
      ]);
      if (accounts.get(account.id) !== account || account.stopping) return;
      account.auth = auth;
      account.socketClosed = new Promise((resolve) => (closeSocket = resolve));
      socket = makeWASocket({
        auth: auth.state,
        ...(version ? { version } : {}),
        ...(options.wsUrl ? { waWebSocketUrl: options.wsUrl } : {}),
        ...(options.qrTimeoutMs ? { qrTimeout: options.qrTimeoutMs } : {}),
        // Baileys is talkative at info: its warnings and errors are enough here.
        logger: log.child({ accountId: account.id }, log.levelVal < 40 ? { level: 'warn' } : {}),
        markOnlineOnConnect: false,
        syncFullHistory: false,
      });
      socket.ev.on('creds.update', () => {
        auth.saveCreds().catch((error: unknown) => log.error({ err: error, accountId: account.id }, 'whatsapp creds not saved'));
      });
    } catch (error) {
      log.error({ err: error, accountId: account.id }, 'whatsapp connection could not start');
      scheduleReconnect(account);
      return;
    }
    account.socket = socket;
    let reachedQrOrOpen = false;
    account.watchdog = setTimeout(() => {
      if (reachedQrOrOpen) return;
      log.warn({ accountId: account.id }, 'whatsapp socket neither showed a QR nor opened: ending it');
      void socket.end(new Error('watchdog: no QR and not open in time'));
    }, watchdogMs);

    socket.ev.on('connection.update', (update) => {
      if (update.qr) {
        reachedQrOrOpen = true;
        account.qrCount += 1;
        if (account.qrCount > qrLimit) {
          account.stopping = { kind: 'qr-limit' };
          void socket.end(undefined);
          return;
        }
        onEvent(account.id, { type: 'qr', qr: update.qr });
      }
      if (update.connection === 'open') {
        reachedQrOrOpen = true;
        clearTimeout(account.watchdog);
        account.attempt = 0;
        account.qrCount = 0;
        const phone = jidDecode(socket.user?.id)?.user ?? '';
        onEvent(account.id, { type: 'ready', phone });
      }
      if (update.connection === 'close') {
        clearTimeout(account.watchdog);
        account.socket = undefined;
        // The next socket reads the state back: the credentials a pairing just wrote must be there.
        void auth.settled().finally(closeSocket);
        const code = statusCode(update.lastDisconnect?.error);
        void onClose(account, code).catch((error: unknown) =>
          log.error({ err: error, accountId: account.id }, 'whatsapp close not handled'),
        );
      }
    });

    socket.ev.on('messages.upsert', ({ messages, type }) => {
      if (type !== 'notify') return;
      for (const message of messages) {
        const inbound = toInboundMessage(message);
        if (inbound) onEvent(account.id, { type: 'message', message: inbound });
      }
    });
  }

  async function onClose(account: Account, code: number | undefined) {
    log.info({ accountId: account.id, code }, 'whatsapp connection closed');
    if (account.stopping) {
      if (account.forget) await forgetAuth(account);
      emitClosed(account, account.stopping);
      return;
    }
    switch (code) {
      case DisconnectReason.restartRequired:
        void start(account);
        return;
      case DisconnectReason.loggedOut:
        await forgetAuth(account);
        emitClosed(account, { kind: 'logged-out' });
        return;
      case DisconnectReason.forbidden:
        emitClosed(account, { kind: 'banned' });
        return;
      case DisconnectReason.connectionReplaced: {
        const at = now();
        account.replacedAt = [...account.replacedAt.filter((t) => at - t < replacedWindowMs), at];
        if (account.replacedAt.length >= replacedLimit) emitClosed(account, { kind: 'replaced' });
        else scheduleReconnect(account);
        return;
      }
      default:
        scheduleReconnect(account);
    }
  }

  async function forgetAuth(account: Account) {
    if (account.auth) await account.auth.forget();
    else await deleteAuthState({ db, accountId: account.id, cache });
  }

  function openSocket(accountId: string): WASocket {
    const socket = accounts.get(accountId)?.socket;
    if (!socket?.user || !socket.ws.isOpen) throw new Error(`WhatsApp is not connected for account ${accountId}`);
    return socket;
  }

  /** Ends the account's connection (`requested`) and waits until it has closed. */
  async function stop(account: Account, { forget }: { forget: boolean }) {
    account.stopping = { kind: 'requested' };
    account.forget = forget;
    clearTimeout(account.reconnectTimer);
    clearTimeout(account.watchdog);
    const closed = account.socketClosed;
    if (account.socket) {
      await account.socket.end(undefined);
      await closed;
    } else {
      await onClose(account, undefined);
    }
  }

  return {
    name: 'baileys',

    async connect(accountId) {
      const existing = accounts.get(accountId);
      if (existing && !existing.stopping) {
        // Waiting out a backoff: the user asked, so try now.
        if (existing.reconnectTimer) {
          clearTimeout(existing.reconnectTimer);
          void start(existing);
        }
        return;
      }
      const account: Account = {
        id: accountId,
        socketClosed: existing?.socketClosed ?? Promise.resolve(),
        attempt: 0,
        qrCount: 0,
        replacedAt: [],
      };
      accounts.set(accountId, account);
      if (options.shared) {
        // Two sockets of one number would replace each other (440) forever: one instance owns it.
        const lease = await options.shared.tryLock(`whatsapp:account:${accountId}`, { ttlMs: options.leaseTtlMs ?? 30_000 });
        if (!lease) {
          if (accounts.get(accountId) === account) accounts.delete(accountId);
          log.info({ accountId }, 'whatsapp account owned by another instance');
          return;
        }
        account.lease = lease;
        if (accounts.get(accountId) !== account) {
          await lease.release();
          return;
        }
      }
      forgetCachedKeys(cache, accountId);
      void start(account);
    },

    async sendText(accountId, jid, text) {
      const sent = await openSocket(accountId).sendMessage(jid, { text });
      if (!sent?.key.id) throw new Error('WhatsApp returned no message id');
      return { id: sent.key.id };
    },

    async sendPresence(accountId, jid, state) {
      await openSocket(accountId).sendPresenceUpdate(state, jid);
    },

    async markRead(accountId, jid, ids) {
      await openSocket(accountId).readMessages(ids.map((id) => ({ remoteJid: jid, id, fromMe: false })));
    },

    async logout(accountId) {
      const account = accounts.get(accountId);
      if (!account) {
        await deleteAuthState({ db, accountId, cache });
        onEvent(accountId, { type: 'closed', reason: { kind: 'requested' } });
        return;
      }
      if (account.socket?.ws.isOpen && account.socket.user) {
        account.stopping = { kind: 'requested' };
        account.forget = true;
        const closed = account.socketClosed;
        // Tells WhatsApp to unlink this device, then ends the socket.
        await account.socket.logout().catch((error: unknown) => log.warn({ err: error, accountId }, 'whatsapp logout not sent'));
        await closed;
        return;
      }
      await stop(account, { forget: true });
    },

    linkedAccounts: () => linkedAccountIds({ db }),

    async close() {
      await Promise.all([...accounts.values()].map((account) => stop(account, { forget: false })));
    },
  };
}

function statusCode(error: Error | undefined): number | undefined {
  const output = (error as { output?: { statusCode?: number } } | undefined)?.output;
  return output?.statusCode;
}

/** What the service needs of a received message; undefined when it has no key to name it. */
export function toInboundMessage(message: WAMessage): InboundMessage | undefined {
  const { key } = message;
  if (!key.id || !key.remoteJid) return undefined;
  const content = normalizeMessageContent(message.message);
  const text = content?.conversation ?? content?.extendedTextMessage?.text ?? undefined;
  return {
    id: key.id,
    remoteJid: key.remoteJid,
    ...(key.remoteJidAlt ? { remoteJidAlt: key.remoteJidAlt } : {}),
    ...(key.participant ? { participant: key.participant } : {}),
    fromMe: Boolean(key.fromMe),
    ...(message.pushName ? { pushName: message.pushName } : {}),
    ...(text ? { text } : {}),
    ...(content?.protocolMessage ? { protocol: true } : {}),
    timestamp: new Date(toNumber(message.messageTimestamp ?? 0) * 1000),
  };
}
