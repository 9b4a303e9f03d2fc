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
 *
 * With several instances (`shared`), one at a time owns each account: it holds the account's lease
 * and has its socket. A command for an account another instance holds is run there
 * (baileys-owner.ts). An owner that finds its lease in another's hands ends its socket at once.
 * Banned and replaced accounts keep their auth state but are marked, so that no instance takes them
 * over by itself (the sweep in baileys-on-demand.ts).
 */
import { createHash } from 'node:crypto';
import type { Agent } from 'node:https';
import makeWASocket, {
  DisconnectReason,
  downloadMediaMessage,
  fetchLatestWaWebVersion,
  jidDecode,
  normalizeMessageContent,
  proto,
  toNumber,
  WAMessageStubType,
  type AnyMessageContent,
  type WASocket,
  type WAMessage,
  type WAVersion,
} from '@whiskeysockets/baileys';
import type { Logger } from 'pino';
import { toWellFormedText } from '@contrateia/shared';
import type { Db } from '@/db/client';
import type { Lock, SharedState } from '@/lib/shared-state';
import { linkedAccountIds, setStoppedReason } from '../whatsapp-auth.repository';
import { MediaTooLarge } from '../whatsapp.media';
import { findSentMessage, keepSentContent } from '../whatsapp.repository';
import {
  createAuthKeyCache,
  deleteAuthState,
  forgetCachedKeys,
  loadAuthState,
  type AuthKeyCache,
} from './baileys-auth-state';
import {
  accountLease,
  createOwnerChannel,
  DEFAULT_COMMAND_TIMEOUTS,
  DEFAULT_LEASE_TTL_MS,
  sentMessageId,
  type AccountCommand,
  type CommandResult,
} from './baileys-owner';
import type {
  CloseReason,
  InboundMedia,
  InboundMessage,
  MessageRef,
  TransportEvent,
  TransportEventSink,
  WhatsAppTransport,
} from './transport';

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
  /**
   * A command for an account another instance holds: how long that instance may take to say it has
   * it (after which the account counts as not connected), and to finish the command.
   */
  commandTimeoutMs?: { answerMs?: number; doneMs?: number };
  /**
   * How often linked accounts that no instance holds (their owner died or shut down) are taken over;
   * by the on-demand transport, and only with `shared`. Default: the lease TTL.
   */
  sweepIntervalMs?: number;
  /**
   * How Baileys reaches the media hosts it uploads sent files to (its `fetchAgent`): tests point
   * it at their fake WhatsApp's host. Node's default agent when absent.
   */
  mediaUploadAgent?: Agent;
  /**
   * How Baileys fetches received files from the media hosts (fetch's `dispatcher`): a file asked
   * for again is fetched from `https://<media host><new path>`, which tests point at their fake
   * WhatsApp's plain HTTP host. Node's default when absent.
   */
  mediaDownloadDispatcher?: RequestInit['dispatcher'];
};

/** The transport, and what the sweep of baileys-on-demand.ts needs of it. */
export type BaileysTransport = WhatsAppTransport & {
  /** Connects a linked account that nobody holds, if its lease can be had and its link may be resumed. */
  takeOver(accountId: string): Promise<void>;
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
  /** Another instance holds the lease now: this socket ends without a word, that instance reports. */
  lost?: boolean;
  reconnectTimer?: NodeJS.Timeout;
  watchdog?: NodeJS.Timeout;
  attempt: number;
  qrCount: number;
  /** Linking by number: the phone to ask each new socket's pairing code for, until open. */
  pairingPhone?: string;
  /** The socket that showed a QR (it waits to be linked): a pairing code may be asked on it. */
  qrSocket?: WASocket;
  /** The socket a pairing code was asked on: the code is that socket's. */
  codeSocket?: WASocket;
  replacedAt: number[];
};

const DEFAULT_VERSION_TIMEOUT_MS = 5_000;

/** WhatsApp Web's current version, or undefined (Baileys' bundled one) when it cannot be fetched in time. */
async function fetchCurrentWebVersion(): Promise<WAVersion | undefined> {
  const result = await fetchLatestWaWebVersion({
    signal: AbortSignal.timeout(DEFAULT_VERSION_TIMEOUT_MS),
  });
  return result.isLatest ? result.version : undefined;
}

export function createBaileysTransport(options: BaileysTransportOptions): BaileysTransport {
  const { db, onEvent, shared } = options;
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
  const leaseTtlMs = options.leaseTtlMs ?? DEFAULT_LEASE_TTL_MS;
  const log = options.logger.child({ transport: 'baileys' });
  const owners =
    shared &&
    createOwnerChannel({
      shared,
      logger: log,
      ...DEFAULT_COMMAND_TIMEOUTS,
      ...options.commandTimeoutMs,
      run: (accountId, command) => {
        const account = accounts.get(accountId);
        // Only the lease's holder answers.
        if (!account?.lease || account.lost) return undefined;
        return execute(accountId, command);
      },
    });

  /** Forgets the account here: timers, the map, the lease. */
  function drop(account: Account) {
    clearTimeout(account.reconnectTimer);
    clearTimeout(account.watchdog);
    if (accounts.get(account.id) === account) accounts.delete(account.id);
    void account.lease?.release().catch(() => {});
  }

  function emitClosed(account: Account, reason: CloseReason) {
    drop(account);
    onEvent(account.id, { type: 'closed', reason });
  }

  /**
   * Ends a stop for good that keeps the auth state (banned, replaced, unreachable after every
   * attempt): marked before the lease goes, so no instance takes the account over by itself (the
   * sweep would otherwise retry a failed one at its own pace, past the backoff); connecting again on
   * request clears the mark.
   */
  async function stopForGood(
    account: Account,
    reason: Extract<CloseReason, { kind: 'banned' | 'replaced' | 'failed' }>,
  ) {
    await setStoppedReason({ db, accountId: account.id, reason: reason.kind }).catch(
      (error: unknown) =>
        log.error({ err: error, accountId: account.id }, 'whatsapp stop not marked'),
    );
    emitClosed(account, reason);
  }

  /**
   * A renewal found the account's lease in another instance's hands (this one paused past its TTL,
   * or lost it with Redis): two sockets of one number would replace each other, so this one ends now,
   * auth state kept and without an event (the instance that holds the lease reports the account).
   */
  function lose(account: Account) {
    if (account.lost) return;
    account.lost = true;
    log.warn(
      { accountId: account.id },
      'whatsapp account lease taken by another instance: ending this socket',
    );
    // The start under way, if any, stops at its next check.
    account.stopping ??= { kind: 'requested' };
    if (account.socket) void account.socket.end(undefined);
    else drop(account);
  }

  function scheduleReconnect(account: Account) {
    account.attempt += 1;
    if (account.attempt > maxAttempts) {
      void stopForGood(account, {
        kind: 'failed',
        message: `WhatsApp unreachable after ${maxAttempts} attempts`,
      });
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
        // Still ours? A reconnect must not take the number back from the instance that now holds it
        // (a lost lease stops the account). An unreachable store says nothing: the keep-alive retries.
        account.lease?.renew().catch(() => true),
      ]);
      if (accounts.get(account.id) !== account || account.stopping) return;
      account.auth = auth;
      account.socketClosed = new Promise((resolve) => (closeSocket = resolve));
      socket = makeWASocket({
        auth: auth.state,
        ...(version ? { version } : {}),
        ...(options.wsUrl ? { waWebSocketUrl: options.wsUrl } : {}),
        ...(options.qrTimeoutMs ? { qrTimeout: options.qrTimeoutMs } : {}),
        ...(options.mediaUploadAgent ? { fetchAgent: options.mediaUploadAgent } : {}),
        // Baileys is talkative at info: its warnings and errors are enough here.
        logger: log.child({ accountId: account.id }, log.levelVal < 40 ? { level: 'warn' } : {}),
        markOnlineOnConnect: false,
        syncFullHistory: false,
        // What we send is stored by the service; Baileys' own copy of it (an `append` upsert)
        // would be taken for a message delivered on connect (see `messages.upsert` below).
        emitOwnEvents: false,
        // A contact's device that could not decrypt a message of ours asks for it again (a retry
        // receipt): it is encrypted anew from what was stored when it was sent.
        getMessage: sentMessageOf(db, account.id),
      });
      socket.ev.on('creds.update', () => {
        auth
          .saveCreds()
          .catch((error: unknown) =>
            log.error({ err: error, accountId: account.id }, 'whatsapp creds not saved'),
          );
      });
    } catch (error) {
      log.error({ err: error, accountId: account.id }, 'whatsapp connection could not start');
      scheduleReconnect(account);
      return;
    }
    account.socket = socket;
    let reachedQrOrOpen = false;
    /*
     * Where this socket's hand-over of what waited stands (see `messages.upsert` below): it lasts
     * until Baileys says the pending notifications were all received. Baileys holds its events
     * back until then, but for 30 s at most: a longer hand-over comes in several upserts, its
     * parts; `parts` once one was passed on.
     */
    let handOver: 'pending' | 'parts' | 'done' = 'pending';
    account.watchdog = setTimeout(() => {
      if (reachedQrOrOpen) return;
      log.warn(
        { accountId: account.id },
        'whatsapp socket neither showed a QR nor opened: ending it',
      );
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
        account.qrSocket = socket;
        // Baileys asks for a code only on a socket that waits to be linked: its first QR says so.
        if (account.pairingPhone && account.codeSocket !== socket) void askCode(account, socket);
      }
      if (update.receivedPendingNotifications) {
        // That was all: the hand-over's replies are asked now, once, for all its parts.
        if (handOver === 'parts')
          onEvent(account.id, { type: 'offline-messages', messages: [], continued: true });
        handOver = 'done';
      }
      if (update.connection === 'open') {
        reachedQrOrOpen = true;
        clearTimeout(account.watchdog);
        account.attempt = 0;
        account.qrCount = 0;
        account.pairingPhone = undefined;
        account.codeSocket = undefined;
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

    /*
     * What Baileys 7 upserts, and how it is told apart:
     * - `notify`: a message as it arrives, live (also one the phone sends again on request).
     * - `append`: a `<message offline="…">` node, i.e. one WhatsApp kept while this device was
     *   not connected and hands over on login, before `<ib><offline count=…/></ib>` (Baileys
     *   holds its events back until then and lets them out together, or what it has after 30 s
     *   and the rest as it comes: see `handOver`). With `emitOwnEvents` off,
     *   the other `append`s carry no text of a direct chat (offline calls, group notifications,
     *   channel posts), so `receive` leaves them alone anyway.
     * History sync never comes through here: it is a protocol message (dropped) whose messages
     * Baileys emits as `messaging-history.set` (not listened to), an upsert of a message it already
     * holds as history being absorbed into that set.
     */
    socket.ev.on('messages.upsert', ({ messages, type }) => {
      onReceipts(
        account,
        messages.filter((m) => m.key.fromMe).map((m) => ({ key: m.key, update: m })),
      );
      const inbound = messages.flatMap(
        (message) =>
          toInboundMessage(message, ({ maxBytes, signal }) =>
            downloadMedia(message, maxBytes, {
              signal,
              // An expired file is asked of the sender's phone again (Baileys' media retry).
              reuploadRequest: (expired) => socket.updateMediaMessage(expired),
              dispatcher: options.mediaDownloadDispatcher,
            }),
          ) ?? [],
      );
      if (type === 'notify') {
        for (const message of inbound) onEvent(account.id, { type: 'message', message });
      } else if (type === 'append' && inbound.length > 0) {
        if (handOver === 'done') {
          onEvent(account.id, { type: 'offline-messages', messages: inbound });
        } else {
          // A part of the hand-over (whether another follows is only known at its end): stored,
          // and answered with the rest once Baileys says it was all.
          onEvent(account.id, {
            type: 'offline-messages',
            messages: inbound,
            more: true,
            ...(handOver === 'parts' ? { continued: true as const } : {}),
          });
          handOver = 'parts';
        }
      }
    });

    // Receipts of what the account sent: its contact's phone got it, read it, or WhatsApp refused it.
    // Edits and deletions for everyone come here too (Baileys turns their protocol messages into
    // updates of the message they are about).
    socket.ev.on('messages.update', (updates) => {
      onReceipts(account, updates);
      for (const update of updates) {
        const event = changeOf(update);
        if (event) onEvent(account.id, event);
      }
    });

    // Reactions, the contact's or the owner's from the phone (an empty text takes one back).
    socket.ev.on('messages.reaction', (reactions) => {
      for (const { key, reaction } of reactions) {
        const message = refOf(key);
        if (!message) continue;
        onEvent(account.id, {
          type: 'reaction',
          message,
          emoji: toWellFormedText(reaction.text ?? ''),
          byMe: Boolean(reaction.key?.fromMe),
        });
      }
    });

    socket.ev.on('messages.update', (updates) => onReceipts(account, updates));

    // A contact's LID is a phone number (WhatsApp's linked-profiles notification, app state sync).
    socket.ev.on('lid-mapping.update', ({ lid, pn }) => {
      if (lid && pn) onEvent(account.id, { type: 'lid-mapping', lid, pn });
    });
  }

  /**
   * Tells the service what receipts say of messages the account sent. Baileys folds a receipt
   * that comes while its own copy of the sent message is still buffered into that copy (a
   * `messages.upsert` of type `append` carrying the status): both come here.
   */
  function onReceipts(
    account: Account,
    updates: { key: WAMessage['key']; update: Partial<WAMessage> }[],
  ) {
    const byStatus = new Map<string, { ids: string[]; reason?: string }>();
    for (const { key, update } of updates) {
      const receipt = receiptOf(update);
      if (!key.fromMe || !key.id || !receipt) continue;
      const group = byStatus.get(receipt.status) ?? { ids: [], reason: receipt.reason };
      group.ids.push(key.id);
      byStatus.set(receipt.status, group);
    }
    for (const [status, { ids, reason }] of byStatus)
      onEvent(account.id, {
        type: 'receipt',
        ids,
        status: status as 'delivered' | 'read' | 'failed',
        ...(reason ? { reason } : {}),
      });
  }

  /** Asks WhatsApp for the pairing code of the account's number on `socket`, and reports it. */
  async function askCode(account: Account, socket: WASocket) {
    const phone = account.pairingPhone;
    if (!phone) return;
    account.codeSocket = socket;
    try {
      const code = await socket.requestPairingCode(phone);
      if (account.socket === socket) onEvent(account.id, { type: 'pairing-code', code });
    } catch (error) {
      log.warn({ err: error, accountId: account.id }, 'whatsapp pairing code not asked');
    }
  }

  async function onClose(account: Account, code: number | undefined) {
    log.info({ accountId: account.id, code }, 'whatsapp connection closed');
    if (account.lost) {
      drop(account);
      return;
    }
    // Asking for a code writes the number into the credentials before the phone links: an
    // attempt that ends unlinked (anything but the restart after the link) must not look linked,
    // or it would be resumed with a login WhatsApp refuses.
    if (account.codeSocket && code !== DisconnectReason.restartRequired) {
      account.codeSocket = undefined;
      await forgetAuth(account);
    }
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
        await stopForGood(account, { kind: 'banned' });
        return;
      case DisconnectReason.connectionReplaced: {
        const at = now();
        account.replacedAt = [...account.replacedAt.filter((t) => at - t < replacedWindowMs), at];
        if (account.replacedAt.length >= replacedLimit)
          await stopForGood(account, { kind: 'replaced' });
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
    if (!socket?.user || !socket.ws.isOpen) throw notConnected(accountId);
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

  /**
   * Takes the account's lease and starts its socket. `takeOver` (the sweep): only a link that may be
   * resumed, checked under the lease so that a logout just before is seen. Otherwise the account
   * was asked to connect, which lifts a stop for good (banned, replaced).
   */
  async function open(accountId: string, { takeOver }: { takeOver: boolean }) {
    const existing = accounts.get(accountId);
    if (existing && !existing.stopping) {
      // Waiting out a backoff: the user asked, so try now.
      if (!takeOver && existing.reconnectTimer) {
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
    if (shared) {
      // Two sockets of one number would replace each other (440) forever: one instance owns it.
      const lease = await shared.tryLock(accountLease(accountId), {
        ttlMs: leaseTtlMs,
        onLost: () => lose(account),
      });
      if (!lease) {
        if (accounts.get(accountId) === account) accounts.delete(accountId);
        if (!takeOver) log.info({ accountId }, 'whatsapp account owned by another instance');
        return;
      }
      account.lease = lease;
    }
    try {
      if (takeOver) {
        if ((await linkedAccountIds({ db, resumable: true, accountId })).length === 0) {
          drop(account);
          return;
        }
        log.info({ accountId }, 'whatsapp account taken over: no instance held it');
      } else {
        await setStoppedReason({ db, accountId, reason: null });
      }
    } catch (error) {
      drop(account);
      throw error;
    }
    if (accounts.get(accountId) !== account || account.stopping) {
      drop(account);
      return;
    }
    forgetCachedKeys(cache, accountId);
    void start(account);
  }

  /** Runs a command on this instance's socket of the account. */
  async function execute(accountId: string, command: AccountCommand): Promise<CommandResult> {
    switch (command.op) {
      case 'sendText': {
        // Our id as WhatsApp's: a try again after one cut short is the same message to WhatsApp.
        const socket = openSocket(accountId);
        const sent = await socket.sendMessage(
          command.jid,
          { text: command.text },
          { messageId: command.id },
        );
        if (command.read?.length)
          await socket
            .readMessages(command.read.map((id) => ({ remoteJid: command.jid, id, fromMe: false })))
            .catch(() => {});
        return sent?.key.id ? { messageId: sent.key.id } : {};
      }
      case 'sendMedia': {
        const { kind, path, mimetype, fileName, caption } = command.media;
        // Read from its stored file as Baileys encrypts and uploads it: never whole in memory here.
        const content: AnyMessageContent =
          kind === 'image'
            ? { image: { url: path }, mimetype, ...(caption ? { caption } : {}) }
            : {
                document: { url: path },
                mimetype,
                fileName: fileName ?? 'file',
                ...(caption ? { caption } : {}),
              };
        const sent = await openSocket(accountId).sendMessage(command.jid, content, {
          messageId: command.id,
        });
        if (sent?.key.id && sent.message)
          await keepSentContent({
            db,
            userId: accountId,
            waId: sent.key.id,
            content: Buffer.from(proto.Message.encode(sent.message).finish()).toString('base64'),
          }).catch((error: unknown) =>
            log.warn(
              { err: error, accountId },
              'whatsapp: a sent file could not be kept for a retry',
            ),
          );
        return sent?.key.id ? { messageId: sent.key.id } : {};
      }
      case 'sendPresence':
        await openSocket(accountId).sendPresenceUpdate(command.state, command.jid);
        return {};
      case 'markRead':
        await openSocket(accountId).readMessages(
          command.ids.map((id) => ({ remoteJid: command.jid, id, fromMe: false })),
        );
        return {};
      case 'logout':
        await logoutHere(accountId);
        return {};
      case 'requestPairingCode': {
        if (!accounts.has(accountId)) await open(accountId, { takeOver: false });
        const account = accounts.get(accountId);
        if (!account) throw notConnected(accountId);
        // The same number again on the same socket keeps its code (still valid): every ask makes
        // WhatsApp notify that phone, so asking again and again would pester it.
        const socket = account.socket;
        if (account.pairingPhone === command.phone && socket && account.codeSocket === socket)
          return {};
        account.pairingPhone = command.phone;
        // A QR shown already: the socket waits to be linked, and is asked now; else its first QR asks.
        if (socket && account.qrSocket === socket) await askCode(account, socket);
        return {};
      }
    }
  }

  /**
   * Runs a command here when this instance has the account (or is the only one), else on the
   * instance that holds it; when none does, `unowned` (by default: the account is not connected).
   */
  async function onOwner(
    accountId: string,
    command: AccountCommand,
    unowned: () => Promise<CommandResult> = () => Promise.reject(notConnected(accountId)),
  ): Promise<CommandResult> {
    if (!owners || accounts.has(accountId)) return execute(accountId, command);
    return (await owners.send(accountId, command)) ?? unowned();
  }

  async function logoutHere(accountId: string) {
    const account = accounts.get(accountId);
    if (!account) {
      await forgetUnowned(accountId, { evenIfHeld: true });
      return;
    }
    if (account.socket?.ws.isOpen && account.socket.user) {
      account.stopping = { kind: 'requested' };
      account.forget = true;
      const closed = account.socketClosed;
      // Tells WhatsApp to unlink this device, then ends the socket.
      await account.socket
        .logout()
        .catch((error: unknown) => log.warn({ err: error, accountId }, 'whatsapp logout not sent'));
      await closed;
      return;
    }
    await stop(account, { forget: true });
  }

  /**
   * Logs out an account that no instance has: its stored link goes, under its lease, so that no
   * sweep starts the account meanwhile. False, with nothing done, when another instance holds the
   * lease now (it took the account since it was asked): that one has a socket to unlink. With
   * `evenIfHeld`, the link goes all the same: an owner that holds the lease without answering (it
   * died, and the lease has yet to lapse) finds no link to resume.
   */
  async function forgetUnowned(
    accountId: string,
    { evenIfHeld }: { evenIfHeld: boolean },
  ): Promise<boolean> {
    const lease = await shared
      ?.tryLock(accountLease(accountId), { ttlMs: leaseTtlMs })
      .catch(() => undefined);
    if (shared && !lease && !evenIfHeld) return false;
    try {
      await deleteAuthState({ db, accountId, cache });
    } finally {
      await lease?.release().catch(() => {});
    }
    onEvent(accountId, { type: 'closed', reason: { kind: 'requested' } });
    return true;
  }

  return {
    name: 'baileys',

    connect: (accountId) => open(accountId, { takeOver: false }),

    takeOver: (accountId) => open(accountId, { takeOver: true }),

    async requestPairingCode(accountId, phone) {
      const command: AccountCommand = { op: 'requestPairingCode', phone };
      // Held nowhere: this instance connects it, as `connect` would.
      await onOwner(accountId, command, () => execute(accountId, command));
    },

    async sendText(accountId, jid, text, { id, read }) {
      return sentMessageId(await onOwner(accountId, { op: 'sendText', jid, text, id, read }));
    },

    async sendMedia(accountId, jid, media, { id }) {
      return sentMessageId(await onOwner(accountId, { op: 'sendMedia', jid, id, media }));
    },

    async sendPresence(accountId, jid, state) {
      await onOwner(accountId, { op: 'sendPresence', jid, state });
    },

    async markRead(accountId, jid, ids) {
      await onOwner(accountId, { op: 'markRead', jid, ids });
    },

    async logout(accountId) {
      // Nobody held the account when asked; if an instance took it over since (a sweep), it is
      // asked again, so that the device is unlinked on the socket that instance opened.
      for (let attempt = 1; ; attempt += 1) {
        // Done unless nobody had the account and another instance took it meanwhile.
        let takenMeanwhile = false;
        await onOwner(accountId, { op: 'logout' }, async () => {
          takenMeanwhile = !(await forgetUnowned(accountId, {
            evenIfHeld: attempt >= LOGOUT_ATTEMPTS,
          }));
          return {};
        });
        if (!takenMeanwhile) return;
      }
    },

    async forget(accountId) {
      if (accounts.has(accountId)) await logoutHere(accountId);
      // The instance that holds it, if one does, unlinks it on its socket.
      else await owners?.send(accountId, { op: 'logout' });
    },

    linkedAccounts: () => linkedAccountIds({ db, resumable: true }),

    async close() {
      await Promise.all([...accounts.values()].map((account) => stop(account, { forget: false })));
      owners?.close();
    },
  };
}

/** How often a logout asks for the account's owner before it deletes the link regardless. */
const LOGOUT_ATTEMPTS = 3;

const notConnected = (accountId: string) =>
  new Error(`WhatsApp is not connected for account ${accountId}`);

function statusCode(error: Error | undefined): number | undefined {
  const output = (error as { output?: { statusCode?: number } } | undefined)?.output;
  return output?.statusCode;
}

/**
 * Baileys' `getMessage` for the account: a message it sent (by WhatsApp's id), as stored: its
 * text, or its file message as it was sent (the uploaded file's address and key: sent again, never
 * uploaded again); undefined for one it does not know (Baileys then sends nothing again).
 */
export function sentMessageOf(
  db: Db,
  accountId: string,
): (key: { id?: string | null }) => Promise<proto.IMessage | undefined> {
  return async ({ id }) => {
    if (!id) return undefined;
    const sent = await findSentMessage({ db, userId: accountId, waId: id });
    if (!sent) return undefined;
    if ('text' in sent) return { conversation: sent.text };
    return proto.Message.decode(Buffer.from(sent.content, 'base64'));
  };
}

/**
 * What the service needs of a received message; undefined when it has no key to name it.
 * `download` fetches the file a media message carries (see `downloadMedia`).
 */
export function toInboundMessage(
  message: WAMessage,
  download?: NonNullable<InboundMedia['download']>,
): InboundMessage | undefined {
  const { key } = message;
  if (!key.id || !key.remoteJid) return undefined;
  const content = normalizeMessageContent(message.message);
  const media = mediaOf(content, download);
  const text =
    content?.conversation ?? content?.extendedTextMessage?.text ?? media?.caption ?? undefined;
  // protobufjs decodes UTF-8 without checking it: bytes that encode half of a surrogate pair
  // arrive as a lone surrogate, which the rest of the app (and jsonb) cannot hold.
  const pushName = message.pushName ? toWellFormedText(message.pushName) : undefined;
  return {
    id: key.id,
    remoteJid: key.remoteJid,
    ...(key.remoteJidAlt ? { remoteJidAlt: key.remoteJidAlt } : {}),
    ...(key.participant ? { participant: key.participant } : {}),
    fromMe: Boolean(key.fromMe),
    ...(pushName ? { pushName } : {}),
    ...(text ? { text: toWellFormedText(text) } : {}),
    ...(media ? { media: media.media } : {}),
    ...(content?.protocolMessage ? { protocol: true } : {}),
    timestamp: new Date(toNumber(message.messageTimestamp ?? 0) * 1000),
  };
}

/** A text a phone wrote, as the rest of the app can hold it; undefined when empty. */
const wellFormed = (text: string | null | undefined) =>
  text ? toWellFormedText(text).slice(0, 255) : undefined;
const numberOr = (value: number | Long | null | undefined) =>
  value === null || value === undefined ? undefined : toNumber(value);
type Long = Parameters<typeof toNumber>[0];

/**
 * What a message carries besides text, as the sender's phone described it, and its caption: a
 * photo, sticker, audio or voice note, video, document, location or contact card.
 */
function mediaOf(
  content: proto.IMessage | undefined,
  download: InboundMedia['download'],
): { media: InboundMedia; caption?: string } | undefined {
  if (!content) return undefined;
  const file = (
    kind: InboundMedia['kind'],
    m: {
      mimetype?: string | null;
      fileLength?: number | Long | null;
      caption?: string | null;
      seconds?: number | null;
      fileName?: string | null;
    },
    extra: Partial<InboundMedia> = {},
  ) => {
    const fileName = wellFormed(m.fileName);
    const declaredSize = numberOr(m.fileLength);
    return {
      media: {
        kind,
        ...(m.mimetype ? { mimetype: wellFormed(m.mimetype) } : {}),
        ...(declaredSize !== undefined ? { declaredSize } : {}),
        ...(m.seconds ? { seconds: m.seconds } : {}),
        ...(fileName ? { fileName } : {}),
        ...extra,
        ...(download ? { download } : {}),
      },
      ...(m.caption ? { caption: m.caption } : {}),
    };
  };
  if (content.imageMessage) return file('image', content.imageMessage);
  if (content.stickerMessage) return file('sticker', content.stickerMessage);
  if (content.audioMessage)
    return file('audio', content.audioMessage, content.audioMessage.ptt ? { voice: true } : {});
  const video = content.videoMessage ?? content.ptvMessage;
  if (video)
    return file(
      'video',
      video,
      video.jpegThumbnail?.length ? { poster: Buffer.from(video.jpegThumbnail) } : {},
    );
  if (content.documentMessage) return file('document', content.documentMessage);
  const location = content.locationMessage ?? content.liveLocationMessage;
  if (location) {
    const place = wellFormed(
      ('name' in location ? location.name : undefined) ??
        ('address' in location ? location.address : undefined),
    );
    return {
      media: {
        kind: 'location',
        ...(location.degreesLatitude != null ? { latitude: location.degreesLatitude } : {}),
        ...(location.degreesLongitude != null ? { longitude: location.degreesLongitude } : {}),
        ...(place ? { place } : {}),
      },
    };
  }
  const card = content.contactMessage ?? content.contactsArrayMessage?.contacts?.[0];
  if (card) {
    const contactName = wellFormed(card.displayName);
    // The number a vCard gives WhatsApp (`waid=`), else its first telephone.
    const vcard = card.vcard ?? '';
    const contactNumber =
      /waid=(\d{6,15})/.exec(vcard)?.[1] ?? /^TEL[^:]*:([+\d ()-]{3,32})$/m.exec(vcard)?.[1];
    return {
      media: {
        kind: 'contact',
        ...(contactName ? { contactName } : {}),
        ...(contactNumber ? { contactNumber: contactNumber.trim() } : {}),
      },
    };
  }
  return undefined;
}

/**
 * A received file's bytes, through Baileys (the media host's encrypted upload, decrypted; an
 * expired one asked for again): `maxBytes` at most (MediaTooLarge past them, the download
 * stopped), and whole (its SHA-256 as the message declares it, so a truncated or altered
 * download fails).
 */
async function downloadMedia(
  message: WAMessage,
  maxBytes: number,
  {
    signal,
    reuploadRequest,
    dispatcher,
  }: {
    /** Ends the download (the fetch, the wait for the phone's answer, the reading). */
    signal: AbortSignal;
    reuploadRequest: (expired: WAMessage) => Promise<WAMessage>;
    dispatcher?: RequestInit['dispatcher'];
  },
): Promise<Buffer> {
  const content = normalizeMessageContent(message.message);
  const media =
    content?.imageMessage ??
    content?.stickerMessage ??
    content?.audioMessage ??
    content?.videoMessage ??
    content?.ptvMessage ??
    content?.documentMessage;
  const download = (from: WAMessage) =>
    downloadMediaMessage(from, 'stream', dispatcher ? { options: { dispatcher } } : {});
  // Baileys' fetch takes no signal, and it waits for the phone's answer to a retry with no bound
  // of its own: each step races the signal, and the stream is ended with it.
  const untilAborted = new Promise<never>((_, reject) => {
    if (signal.aborted) reject(signal.reason);
    signal.addEventListener('abort', () => reject(signal.reason), { once: true });
  });
  untilAborted.catch(() => {});
  // Baileys' own retry (its `reuploadRequest` context) looks for the HTTP status in `error.status`,
  // but its fetch throws a Boom that keeps it in `output.statusCode`: it never asks again. An
  // expired file (404 or 410) is asked for here instead, once.
  const stream = await Promise.race([
    download(message).catch(async (error: unknown) => {
      const status = (error as { output?: { statusCode?: unknown } } | null)?.output?.statusCode;
      if (status !== 404 && status !== 410) throw error;
      return download(await Promise.race([reuploadRequest(message), untilAborted]));
    }),
    untilAborted,
  ]);
  const stop = () => (stream as { destroy?: (error?: unknown) => void }).destroy?.(signal.reason);
  signal.addEventListener('abort', stop, { once: true });
  const hash = createHash('sha256');
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > maxBytes) throw new MediaTooLarge(numberOr(media?.fileLength) ?? size);
      hash.update(chunk);
      chunks.push(chunk);
    }
  } finally {
    signal.removeEventListener('abort', stop);
    (stream as { destroy?: () => void }).destroy?.();
  }
  const expected = media?.fileSha256;
  if (expected?.length && !hash.digest().equals(Buffer.from(expected)))
    throw new Error('the downloaded file is not the one the message names (SHA-256)');
  return Buffer.concat(chunks);
}

/** The message a change is about, by its key (from the account's point of view). */
function refOf(key: WAMessage['key']): MessageRef | undefined {
  if (!key.id || !key.remoteJid) return undefined;
  return {
    remoteJid: key.remoteJid,
    ...(key.remoteJidAlt ? { remoteJidAlt: key.remoteJidAlt } : {}),
    id: key.id,
    fromMe: Boolean(key.fromMe),
  };
}

/**
 * What a `messages.update` says of a message's text, if anything: Baileys 7 makes one of a
 * MESSAGE_EDIT protocol message (`message.editedMessage`, the key naming the edited message)
 * and one of a REVOKE (`messageStubType` REVOKE, `message` null).
 */
export function changeOf({
  key,
  update,
}: {
  key: WAMessage['key'];
  update: Partial<WAMessage>;
}): TransportEvent | undefined {
  const message = refOf(key);
  if (!message) return undefined;
  const timestamp = new Date(
    update.messageTimestamp ? toNumber(update.messageTimestamp) * 1000 : Date.now(),
  );
  if (update.messageStubType === WAMessageStubType.REVOKE && update.message === null)
    return { type: 'message-revoked', message, timestamp };
  const edited = update.message?.editedMessage?.message;
  if (edited) {
    const content = normalizeMessageContent(edited);
    const text = content?.conversation ?? content?.extendedTextMessage?.text ?? undefined;
    if (text) return { type: 'message-edited', message, text: toWellFormedText(text), timestamp };
  }
  return undefined;
}

/** What a `messages.update` of a sent message says of its delivery, if anything. */
export function receiptOf(
  update: Partial<WAMessage>,
): { status: 'delivered' | 'read' | 'failed'; reason?: string } | undefined {
  const status = update.status;
  if (status === undefined || status === null) return undefined;
  const Status = proto.WebMessageInfo.Status;
  if (status === Status.DELIVERY_ACK) return { status: 'delivered' };
  if (status === Status.READ || status === Status.PLAYED) return { status: 'read' };
  if (status === Status.ERROR)
    return { status: 'failed', reason: update.messageStubParameters?.[0] ?? 'unknown' };
  return undefined;
}
