import {
  deleteAuth,
  linkedAccountIds,
  readCreds,
  readKeys,
  writeCreds,
  writeKeys
} from "./chunk-P47EXQ27.js";
import "./chunk-NSF64HGU.js";

// src/features/whatsapp/transports/baileys.ts
import makeWASocket, {
  DisconnectReason,
  fetchLatestWaWebVersion,
  jidDecode,
  normalizeMessageContent,
  toNumber
} from "@whiskeysockets/baileys";

// src/features/whatsapp/transports/baileys-auth-state.ts
import {
  BufferJSON,
  initAuthCreds,
  proto
} from "@whiskeysockets/baileys";
import { LRUCache } from "lru-cache";
var ABSENT = "";
function createAuthKeyCache(max = 2e4) {
  return new LRUCache({ max });
}
var cacheKey = (accountId, type, id) => `${accountId}\0${type}\0${id}`;
var serialise = (value) => JSON.stringify(value, BufferJSON.replacer);
function deserialise(type, text) {
  const value = JSON.parse(text, BufferJSON.reviver);
  if (type === "app-state-sync-key") {
    return proto.Message.AppStateSyncKeyData.fromObject(value);
  }
  return value;
}
async function loadAuthState({
  db,
  accountId,
  cache
}) {
  const stored = await readCreds({ db, accountId });
  const creds = stored ? JSON.parse(stored, BufferJSON.reviver) : initAuthCreds();
  let writes = Promise.resolve();
  let forgotten = false;
  const inOrder = (write) => {
    const run = () => forgotten ? Promise.resolve() : write();
    const next = writes.then(run, run);
    writes = next.catch(() => {
    });
    return next;
  };
  const keys = {
    async get(type, ids) {
      const found = {};
      const missing = [];
      for (const id of ids) {
        const cached = cache.get(cacheKey(accountId, type, id));
        if (cached === void 0) missing.push(id);
        else if (cached !== ABSENT) found[id] = deserialise(type, cached);
      }
      if (missing.length > 0) {
        const rows = await readKeys({ db, accountId, type, ids: missing });
        for (const id of missing) {
          const text = rows.get(id);
          if (!cache.has(cacheKey(accountId, type, id))) cache.set(cacheKey(accountId, type, id), text ?? ABSENT);
          if (text !== void 0) found[id] = deserialise(type, text);
        }
      }
      return found;
    },
    async set(data) {
      const changes = [];
      for (const [type, values] of Object.entries(data)) {
        for (const [id, value] of Object.entries(values ?? {})) {
          changes.push({ type, id, value: value === null || value === void 0 ? null : serialise(value) });
        }
      }
      if (changes.length === 0) return;
      await inOrder(async () => {
        await writeKeys({ db, accountId, changes });
        for (const { type, id, value } of changes) cache.set(cacheKey(accountId, type, id), value ?? ABSENT);
      });
    }
  };
  return {
    state: { creds, keys },
    saveCreds: () => inOrder(() => writeCreds({ db, accountId, creds: serialise(creds), meId: creds.me?.id ?? null })),
    /** Resolves once every write asked for so far has ended. */
    settled: () => inOrder(async () => {
    }),
    /** Deletes the stored state after the writes already asked for, and ignores any later one. */
    forget: async () => {
      await inOrder(() => deleteAuthState({ db, accountId, cache }));
      forgotten = true;
    }
  };
}
async function deleteAuthState({ db, accountId, cache }) {
  await deleteAuth({ db, accountId });
  forgetCachedKeys(cache, accountId);
}
function forgetCachedKeys(cache, accountId) {
  const prefix = `${accountId}\0`;
  for (const key of [...cache.keys()]) if (key.startsWith(prefix)) cache.delete(key);
}

// src/features/whatsapp/transports/baileys.ts
var DEFAULT_VERSION_TIMEOUT_MS = 5e3;
async function fetchCurrentWebVersion() {
  const result = await fetchLatestWaWebVersion({ signal: AbortSignal.timeout(DEFAULT_VERSION_TIMEOUT_MS) });
  return result.isLatest ? result.version : void 0;
}
function createBaileysTransport(options) {
  const { db, onEvent } = options;
  const qrLimit = options.qrLimit ?? 5;
  const baseMs = options.backoff?.baseMs ?? 2e3;
  const maxMs = options.backoff?.maxMs ?? 5 * 6e4;
  const maxAttempts = options.backoff?.maxAttempts ?? 30;
  const replacedLimit = options.replaced?.limit ?? 3;
  const replacedWindowMs = options.replaced?.windowMs ?? 10 * 6e4;
  const watchdogMs = options.watchdogMs ?? 6e4;
  const fetchVersion = options.fetchVersion ?? fetchCurrentWebVersion;
  const random = options.random ?? Math.random;
  const now = options.now ?? Date.now;
  const cache = createAuthKeyCache(options.keyCacheSize);
  const accounts = /* @__PURE__ */ new Map();
  const log = options.logger.child({ transport: "baileys" });
  function emitClosed(account, reason) {
    clearTimeout(account.reconnectTimer);
    clearTimeout(account.watchdog);
    if (accounts.get(account.id) === account) accounts.delete(account.id);
    void account.lease?.release().catch(() => {
    });
    onEvent(account.id, { type: "closed", reason });
  }
  function scheduleReconnect(account) {
    account.attempt += 1;
    if (account.attempt > maxAttempts) {
      emitClosed(account, { kind: "failed", message: `WhatsApp unreachable after ${maxAttempts} attempts` });
      return;
    }
    const ceiling = Math.min(maxMs, baseMs * 2 ** (account.attempt - 1));
    const delayMs = Math.round(ceiling / 2 + random() * ceiling / 2);
    onEvent(account.id, { type: "reconnecting", attempt: account.attempt, delayMs });
    account.reconnectTimer = setTimeout(() => void start(account), delayMs);
  }
  async function start(account) {
    account.reconnectTimer = void 0;
    await account.socketClosed;
    if (accounts.get(account.id) !== account || account.stopping) return;
    onEvent(account.id, { type: "connecting" });
    let socket;
    let auth;
    let closeSocket;
    try {
      let version;
      [version, auth] = await Promise.all([
        fetchVersion().catch(() => void 0),
        loadAuthState({ db, accountId: account.id, cache })
      ]);
      if (accounts.get(account.id) !== account || account.stopping) return;
      account.auth = auth;
      account.socketClosed = new Promise((resolve) => closeSocket = resolve);
      socket = makeWASocket({
        auth: auth.state,
        ...version ? { version } : {},
        ...options.wsUrl ? { waWebSocketUrl: options.wsUrl } : {},
        ...options.qrTimeoutMs ? { qrTimeout: options.qrTimeoutMs } : {},
        // Baileys is talkative at info: its warnings and errors are enough here.
        logger: log.child({ accountId: account.id }, log.levelVal < 40 ? { level: "warn" } : {}),
        markOnlineOnConnect: false,
        syncFullHistory: false
      });
      socket.ev.on("creds.update", () => {
        auth.saveCreds().catch((error) => log.error({ err: error, accountId: account.id }, "whatsapp creds not saved"));
      });
    } catch (error) {
      log.error({ err: error, accountId: account.id }, "whatsapp connection could not start");
      scheduleReconnect(account);
      return;
    }
    account.socket = socket;
    let reachedQrOrOpen = false;
    account.watchdog = setTimeout(() => {
      if (reachedQrOrOpen) return;
      log.warn({ accountId: account.id }, "whatsapp socket neither showed a QR nor opened: ending it");
      void socket.end(new Error("watchdog: no QR and not open in time"));
    }, watchdogMs);
    socket.ev.on("connection.update", (update) => {
      if (update.qr) {
        reachedQrOrOpen = true;
        account.qrCount += 1;
        if (account.qrCount > qrLimit) {
          account.stopping = { kind: "qr-limit" };
          void socket.end(void 0);
          return;
        }
        onEvent(account.id, { type: "qr", qr: update.qr });
      }
      if (update.connection === "open") {
        reachedQrOrOpen = true;
        clearTimeout(account.watchdog);
        account.attempt = 0;
        account.qrCount = 0;
        const phone = jidDecode(socket.user?.id)?.user ?? "";
        onEvent(account.id, { type: "ready", phone });
      }
      if (update.connection === "close") {
        clearTimeout(account.watchdog);
        account.socket = void 0;
        void auth.settled().finally(closeSocket);
        const code = statusCode(update.lastDisconnect?.error);
        void onClose(account, code).catch(
          (error) => log.error({ err: error, accountId: account.id }, "whatsapp close not handled")
        );
      }
    });
    socket.ev.on("messages.upsert", ({ messages, type }) => {
      if (type !== "notify") return;
      for (const message of messages) {
        const inbound = toInboundMessage(message);
        if (inbound) onEvent(account.id, { type: "message", message: inbound });
      }
    });
  }
  async function onClose(account, code) {
    log.info({ accountId: account.id, code }, "whatsapp connection closed");
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
        emitClosed(account, { kind: "logged-out" });
        return;
      case DisconnectReason.forbidden:
        emitClosed(account, { kind: "banned" });
        return;
      case DisconnectReason.connectionReplaced: {
        const at = now();
        account.replacedAt = [...account.replacedAt.filter((t) => at - t < replacedWindowMs), at];
        if (account.replacedAt.length >= replacedLimit) emitClosed(account, { kind: "replaced" });
        else scheduleReconnect(account);
        return;
      }
      default:
        scheduleReconnect(account);
    }
  }
  async function forgetAuth(account) {
    if (account.auth) await account.auth.forget();
    else await deleteAuthState({ db, accountId: account.id, cache });
  }
  function openSocket(accountId) {
    const socket = accounts.get(accountId)?.socket;
    if (!socket?.user || !socket.ws.isOpen) throw new Error(`WhatsApp is not connected for account ${accountId}`);
    return socket;
  }
  async function stop(account, { forget }) {
    account.stopping = { kind: "requested" };
    account.forget = forget;
    clearTimeout(account.reconnectTimer);
    clearTimeout(account.watchdog);
    const closed = account.socketClosed;
    if (account.socket) {
      await account.socket.end(void 0);
      await closed;
    } else {
      await onClose(account, void 0);
    }
  }
  return {
    name: "baileys",
    async connect(accountId) {
      const existing = accounts.get(accountId);
      if (existing && !existing.stopping) {
        if (existing.reconnectTimer) {
          clearTimeout(existing.reconnectTimer);
          void start(existing);
        }
        return;
      }
      const account = {
        id: accountId,
        socketClosed: existing?.socketClosed ?? Promise.resolve(),
        attempt: 0,
        qrCount: 0,
        replacedAt: []
      };
      accounts.set(accountId, account);
      if (options.shared) {
        const lease = await options.shared.tryLock(`whatsapp:account:${accountId}`, { ttlMs: options.leaseTtlMs ?? 3e4 });
        if (!lease) {
          if (accounts.get(accountId) === account) accounts.delete(accountId);
          log.info({ accountId }, "whatsapp account owned by another instance");
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
      if (!sent?.key.id) throw new Error("WhatsApp returned no message id");
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
        onEvent(accountId, { type: "closed", reason: { kind: "requested" } });
        return;
      }
      if (account.socket?.ws.isOpen && account.socket.user) {
        account.stopping = { kind: "requested" };
        account.forget = true;
        const closed = account.socketClosed;
        await account.socket.logout().catch((error) => log.warn({ err: error, accountId }, "whatsapp logout not sent"));
        await closed;
        return;
      }
      await stop(account, { forget: true });
    },
    linkedAccounts: () => linkedAccountIds({ db }),
    async close() {
      await Promise.all([...accounts.values()].map((account) => stop(account, { forget: false })));
    }
  };
}
function statusCode(error) {
  const output = error?.output;
  return output?.statusCode;
}
function toInboundMessage(message) {
  const { key } = message;
  if (!key.id || !key.remoteJid) return void 0;
  const content = normalizeMessageContent(message.message);
  const text = content?.conversation ?? content?.extendedTextMessage?.text ?? void 0;
  return {
    id: key.id,
    remoteJid: key.remoteJid,
    ...key.remoteJidAlt ? { remoteJidAlt: key.remoteJidAlt } : {},
    ...key.participant ? { participant: key.participant } : {},
    fromMe: Boolean(key.fromMe),
    ...message.pushName ? { pushName: message.pushName } : {},
    ...text ? { text } : {},
    ...content?.protocolMessage ? { protocol: true } : {},
    timestamp: new Date(toNumber(message.messageTimestamp ?? 0) * 1e3)
  };
}
export {
  createBaileysTransport,
  toInboundMessage
};
//# sourceMappingURL=baileys-5MIU2ZXI.js.map
