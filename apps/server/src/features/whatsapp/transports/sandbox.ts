import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type {
  SandboxInbound,
  SandboxLidMapping,
  SandboxMedia,
  SandboxPhoneEvent,
} from '@contrateia/shared';
import type { Db } from '@/db/client';
import type { Clock } from '@/lib/clock';
import { defineQueue, type Jobs } from '@/lib/jobs';
import { hashToken } from '@/lib/secrets';
import { grouped } from '@/lib/grouped';
import { firstDatabaseError } from '@/lib/logger';
import type { Lock, SharedState } from '@/lib/shared-state';
import { findMessageByWaId } from '../whatsapp.repository';
import { DEFAULT_MEDIA_LIMITS, inspectMedia, MediaTooLarge, stillOf } from '../whatsapp.media';
import {
  sandboxMediaNotWhatItSays,
  sandboxMediaPoster,
  sandboxMediaTooManyPixels,
  sandboxMediaTooLarge,
  sandboxMediaUnsafe,
  sandboxMessageNotFound,
  sandboxPairingCodeNotFound,
  sandboxPairNotFound,
  sandboxPhoneNotLinked,
  sandboxPhoneTaken,
} from '../whatsapp.errors';
import type { SandboxChange, SandboxQueued, SandboxQueuedMessage } from '../whatsapp.table';
import * as repo from './sandbox.repository';
import {
  describeMedia,
  type InboundMedia,
  type InboundMessage,
  type MessageRef,
  type OutgoingMedia,
  type TransportEvent,
  type TransportEventSink,
  type WhatsAppTransport,
} from './transport';

/** WhatsApp's own rhythm: a new QR every 20 s, five of them, then the phone must be asked again. */
export const SANDBOX_QR_DEFAULTS = { refreshMs: 20_000, limit: 5 };

export type SandboxTransport = ReturnType<typeof createSandboxTransport>;

/** Whether `transport` is the sandbox (its control API and phone page are registered only then). */
export function isSandboxTransport(transport: WhatsAppTransport): transport is SandboxTransport {
  return transport.name === 'sandbox';
}

/** The most phone events one statement records, or numbers it looks up. */
const EVENTS_PER_STATEMENT = 200;

/** The most queued messages delivered in one event when a phone's link comes back. */
export const OFFLINE_BATCH = 500;

/** How long the lease on an account's queued messages outlives an instance that died delivering them. */
const OFFLINE_LEASE_MS = 15_000;

/**
 * A delivery of an account's queued messages that found them held by another instance (which may
 * have died delivering them): tried again, on any instance, until the lease is let go or lapses.
 */
export const offlineDeliveryQueue = defineQueue<{ accountId: string; ready: boolean }>({
  name: 'whatsapp-sandbox-offline',
  tries: 6,
  retryDelaySeconds: OFFLINE_LEASE_MS / 3 / 1000,
  expireSeconds: 120,
  concurrency: 10,
  pollMs: 1000,
});

/** One account's QR codes being shown by this instance. */
type QrCycle = { lease: Lock; shown: number; timer?: NodeJS.Timeout };

/**
 * WhatsApp simulated inside the server (WHATSAPP_TRANSPORT=sandbox), for demos and tests: its
 * control API plays the phones and contacts (sandbox.routes.ts). What every instance must see
 * (links, the current pairing code, what phones sent) is in the database; the QR codes of an
 * account are drawn by one instance at a time, which holds a lease for it in the shared state.
 *
 * A link is the sandbox's auth state: a linked account is open, on whichever instance a message
 * arrives, and stays linked across restarts until logged out.
 */
export function createSandboxTransport({
  db,
  clock,
  state,
  publicUrl,
  onEvent,
  logger,
  jobs,
  qr = SANDBOX_QR_DEFAULTS,
  offlineBatch = OFFLINE_BATCH,
  media = { maxBytes: DEFAULT_MEDIA_LIMITS.maxBytes, inTurn: (work) => work() },
}: {
  db: Db;
  clock: Clock;
  state: SharedState;
  /** QR codes link to `{publicUrl}/sandbox/phone?pair=…`, whatever Host a request names. */
  publicUrl: string;
  onEvent: TransportEventSink;
  logger: FastifyBaseLogger;
  /** Where a delivery found held is tried again; without (a transport tested alone), at the next connect. */
  jobs?: Jobs;
  qr?: { refreshMs: number; limit: number };
  /** The most queued messages delivered in one event (tests make it small). */
  offlineBatch?: number;
  /**
   * How large a contact's file may be (WHATSAPP_MEDIA_MAX_MB), and the turn a check of its bytes
   * waits for (the service's: a file is held whole while it is checked).
   */
  media?: { maxBytes: number; inTurn: <T>(work: () => Promise<T>) => Promise<T> };
}) {
  const cycles = new Map<string, QrCycle>();
  // What the numbers do here (sends, typing, read marks), recorded as WhatsApp delivers them, in
  // the order they were made, whatever the database's connections do with them: what comes while
  // one statement runs goes together in the next, in order (every reply makes two: typing, then
  // the reply). A statement refused for a value in it (a text jsonb cannot hold) is written again
  // one at a time: only the write at fault fails, not the other accounts' with it.
  const write = grouped(
    (writes: repo.SandboxWrite[]) => repo.recordWrites({ db, writes }),
    EVENTS_PER_STATEMENT,
    { retryAlone: refusedForAValue },
  );
  // Awaited: the control API answers once the service has handled what it caused (a message stored).
  const emit = onEvent;

  /** Refuses a contact's file too large to keep, or whose bytes are not what its kind says (400). */
  async function checkFile(file: SandboxMedia) {
    const bytes = Buffer.from(file.dataBase64 ?? '', 'base64');
    if (bytes.length > media.maxBytes)
      throw sandboxMediaTooLarge(Math.floor(media.maxBytes / (1024 * 1024)));
    const inspected = await media.inTurn(() => inspectMedia(file.kind, bytes));
    if (!('unavailable' in inspected)) return;
    if (inspected.unavailable === 'unsafe-type') throw sandboxMediaUnsafe();
    if (inspected.unavailable === 'too-many-pixels') throw sandboxMediaTooManyPixels();
    throw sandboxMediaNotWhatItSays(file.kind);
  }

  /** Refuses a video's still that is not a photo small enough to show as one (400). */
  async function checkPoster(posterBase64: string) {
    const still = await media.inTurn(() => stillOf(Buffer.from(posterBase64, 'base64')));
    if (still === undefined) throw sandboxMediaPoster();
  }

  async function stopCycle(accountId: string) {
    const cycle = cycles.get(accountId);
    if (!cycle) return;
    cycles.delete(accountId);
    clearTimeout(cycle.timer);
    await cycle.lease.release();
  }

  /** Shows the next QR of the cycle, or ends it: paired meanwhile, or shown its last time. */
  async function nextQr(accountId: string, cycle: QrCycle) {
    if (cycles.get(accountId) !== cycle) return;
    if (await repo.findLink({ db, userId: accountId })) {
      await stopCycle(accountId);
      return;
    }
    if (cycle.shown >= qr.limit) {
      await stopCycle(accountId);
      await repo.deletePairing({ db, userId: accountId });
      await repo.deletePairingCode({ db, userId: accountId });
      await emit(accountId, { type: 'closed', reason: { kind: 'qr-limit' } });
      return;
    }
    cycle.shown += 1;
    const token = randomBytes(24).toString('base64url');
    await repo.replacePairing({
      db,
      userId: accountId,
      tokenHash: hashToken(token),
      now: clock.now(),
    });
    await emit(accountId, { type: 'qr', qr: `${publicUrl}/sandbox/phone?pair=${token}` });
    if (cycles.get(accountId) !== cycle) return;
    cycle.timer = setTimeout(() => {
      nextQr(accountId, cycle).catch((error: unknown) =>
        logger.error({ err: error, accountId }, 'whatsapp sandbox: QR refresh failed'),
      );
    }, qr.refreshMs);
  }

  /**
   * The account linked to a sandbox number, or 404; with `userId`, only if it is that account's
   * (another account's number is a 404 too: it is not theirs to know of).
   */
  async function linkOf(phone: string, userId?: string) {
    const link = await findLinked(phone);
    if (!link || (userId !== undefined && link.userId !== userId)) throw sandboxPhoneNotLinked();
    return link;
  }

  /** What the account's number sent (not a message), stored once the call resolves. */
  async function record(accountId: string, event: SandboxPhoneEvent) {
    if (!(await write({ userId: accountId, event })).linked)
      throw new Error('whatsapp sandbox: the account is not linked');
  }

  /**
   * A send recorded as WhatsApp takes it: the same id already delivered is the same message
   * (nothing recorded again); while the number's `fail-sends` last, it fails with their code.
   */
  async function deliver(send: repo.SandboxWrite) {
    const sent = await write(send);
    if (!sent.linked) throw new Error('whatsapp sandbox: the account is not linked');
    if (sent.failed)
      throw new Error(`whatsapp sandbox: WhatsApp refused the message: error ${sent.failed}`);
  }

  /** The account linked to each number asked for, found together for the numbers asked meanwhile: every contact's message asks. */
  const findLinked = grouped(async (phones: string[]) => {
    const links = await repo.findLinksByPhone({ db, phones: [...new Set(phones)] });
    return phones.map((phone) => links.find((link) => link.phone === phone));
  }, EVENTS_PER_STATEMENT);

  /**
   * The phone's link is up again: what contacts wrote meanwhile reaches the account as WhatsApp
   * hands it over on login, oldest first, as offline messages; deleted once handled (handled
   * again after a crash in between, it is the same messages, which are stored once). One instance
   * delivers an account's at a time, under a lease. Connecting (`readyPhone`), the connection's
   * `ready` comes under the lease too, just before them: ready while another holds them, the
   * account would answer what a crash left stored apart from the rest. Whether it delivered
   * (false: another holds the lease).
   */
  async function deliverQueued(accountId: string, readyPhone?: string): Promise<boolean> {
    const lease = await state.tryLock(`whatsapp-sandbox-offline:${accountId}`, {
      ttlMs: OFFLINE_LEASE_MS,
    });
    if (!lease) return false;
    try {
      if (readyPhone !== undefined) await emit(accountId, { type: 'ready', phone: readyPhone });
      for (let continued = false; ; continued = true) {
        // One more than a batch: whether another follows this one.
        const listed = await repo.listQueued({ db, userId: accountId, limit: offlineBatch + 1 });
        const queued = listed.slice(0, offlineBatch);
        if (queued.length === 0) return true;
        const more = listed.length > offlineBatch;
        for (const event of offlineEvents(
          queued.map(({ message }) => message),
          { more, continued },
        ))
          await emit(accountId, event);
        await repo.deleteQueued({ db, userId: accountId, seq: queued.at(-1)!.seq });
        if (!more) return true;
      }
    } finally {
      await lease.release().catch(() => {});
    }
  }

  /**
   * Delivers the account's queued messages (see deliverQueued); found held by another instance,
   * a job tries again until the lease is let go or lapses: its holder may have died delivering
   * them (in Redis, a lease outlives its process), and what it left must not wait for the next
   * connect.
   */
  async function deliverOrLater(accountId: string, readyPhone?: string) {
    if (await deliverQueued(accountId, readyPhone)) return;
    await jobs?.send(
      offlineDeliveryQueue,
      { accountId, ready: readyPhone !== undefined },
      { key: accountId, startAfterMs: OFFLINE_LEASE_MS / 3 },
    );
  }
  jobs?.work(offlineDeliveryQueue, async ({ data }) => {
    const link = await repo.findLink({ db, userId: data.accountId });
    // Gone offline or unlinked meanwhile: the next time it is up delivers them.
    if (!link?.online) return { outcome: 'offline' };
    if (!(await deliverQueued(data.accountId, data.ready ? link.phone : undefined)))
      throw new Error('whatsapp sandbox: the queued messages are held by another instance');
    return { outcome: 'delivered' };
  });

  const transport = {
    name: 'sandbox' as const,

    async connect(accountId: string) {
      if (cycles.has(accountId)) return;
      const link = await repo.findLink({ db, userId: accountId });
      if (link) {
        // Connecting (the server started, or the owner asked) brings the link back.
        if (!link.online) await repo.setOnline({ db, userId: accountId, online: true });
        await deliverOrLater(accountId, link.phone);
        return;
      }
      // Another instance already shows this account's QR codes.
      const lease = await state.tryLock(`whatsapp-sandbox-qr:${accountId}`, { ttlMs: 30_000 });
      if (!lease) return;
      const cycle: QrCycle = { lease, shown: 0 };
      cycles.set(accountId, cycle);
      await emit(accountId, { type: 'connecting' });
      await nextQr(accountId, cycle);
    },

    async requestPairingCode(accountId: string, phone: string) {
      if (await repo.findLink({ db, userId: accountId })) return;
      // The QR cycle goes on beside the code (as on WhatsApp): its end ends the code too.
      await transport.connect(accountId);
      const code = pairingCode();
      await repo.replacePairingCode({
        db,
        userId: accountId,
        phone,
        codeHash: hashToken(code),
        now: clock.now(),
      });
      await emit(accountId, { type: 'pairing-code', code });
    },

    /**
     * A send as WhatsApp takes it: the same id already delivered is the same message (nothing
     * sent again); while the number's `fail-sends` last, it reaches WhatsApp and fails with their
     * code (recorded, with `failed`).
     */
    async sendText(
      accountId: string,
      jid: string,
      text: string,
      { id, read = [] }: { id: string; read?: string[] },
    ) {
      const at = clock.now().toISOString();
      await deliver({
        userId: accountId,
        event: { type: 'message', to: jid, id, text, at },
        // What the phone then shows read, in the send's own statement.
        read: read.length > 0 ? { type: 'read', from: jid, ids: read, at } : undefined,
      });
      return { id };
    },

    /**
     * A file sent as WhatsApp takes it (see sendText): the phone's event says what the contact's
     * phone shows of it (kind, type, size, name, caption), not its bytes.
     */
    async sendMedia(accountId: string, jid: string, media: OutgoingMedia, { id }: { id: string }) {
      const { kind, mimetype, size, fileName, caption } = media;
      await deliver({
        userId: accountId,
        event: {
          type: 'message',
          to: jid,
          id,
          text: caption ?? '',
          at: clock.now().toISOString(),
          media: {
            kind,
            mimetype,
            size,
            ...(fileName !== undefined ? { fileName } : {}),
            ...(caption !== undefined ? { caption } : {}),
          },
        },
      });
      return { id };
    },

    async sendPresence(accountId: string, jid: string, presence: 'composing' | 'paused') {
      await record(accountId, {
        type: 'presence',
        to: jid,
        state: presence,
        at: clock.now().toISOString(),
      });
    },

    async markRead(accountId: string, jid: string, ids: string[]) {
      if (ids.length === 0) return;
      await record(accountId, { type: 'read', from: jid, ids, at: clock.now().toISOString() });
    },

    async logout(accountId: string) {
      await stopCycle(accountId);
      await repo.deletePairing({ db, userId: accountId });
      await repo.deletePairingCode({ db, userId: accountId });
      await repo.deleteLink({ db, userId: accountId });
      await emit(accountId, { type: 'closed', reason: { kind: 'requested' } });
    },

    async forget(accountId: string) {
      // A simulated phone has nothing to unlink: its pairing went with the account.
      await stopCycle(accountId);
    },

    async linkedAccounts() {
      return repo.listLinkedUserIds({ db });
    },

    async close() {
      for (const accountId of [...cycles.keys()]) await stopCycle(accountId);
    },

    // ---- The control API: what the phones and the contacts do ----

    /** The phone scanned the QR whose code is `token`: the account is linked to `phone` and ready. */
    async pair({ token, phone }: { token: string; phone: string }) {
      const result = await repo.pair({ db, tokenHash: hashToken(token), phone, now: clock.now() });
      if (result === 'missing') throw sandboxPairNotFound();
      if (result === 'taken') throw sandboxPhoneTaken();
      await stopCycle(result.userId);
      await emit(result.userId, { type: 'ready', phone });
      return { phone };
    },

    /**
     * The phone `phone` types the pairing code `code` it was given (linking by number): the account
     * is linked to it and ready. With `userId`, only that account's code does.
     */
    async pairWithCode({ code, phone, userId }: { code: string; phone: string; userId?: string }) {
      const result = await repo.pairWithCode({
        db,
        codeHash: hashToken(code),
        phone,
        userId,
        now: clock.now(),
      });
      if (result === 'missing') throw sandboxPairingCodeNotFound();
      if (result === 'taken') throw sandboxPhoneTaken();
      await stopCycle(result.userId);
      await emit(result.userId, { type: 'ready', phone });
      return { phone };
    },

    /**
     * A contact writes to the linked number `to`, or sends it a file, a location or a contact
     * card (`media`). The same id again is the same message. A file larger than
     * WHATSAPP_MEDIA_MAX_MB, or whose bytes are not what its kind says, is refused (400) and
     * nothing is delivered: the control API tells its caller at once what the service would keep
     * only as a placeholder.
     */
    async inbound({ to, from, text, media, id, pushName, participant, fromAlt }: SandboxInbound) {
      const link = await linkOf(to);
      if (media?.dataBase64 !== undefined) await checkFile(media);
      if (media?.posterBase64 !== undefined) await checkPoster(media.posterBase64);
      const messageIdOf = id ?? messageId();
      const caption = media?.caption ?? text;
      const message = {
        id: messageIdOf,
        remoteJid: from,
        ...(fromAlt ? { remoteJidAlt: fromAlt } : {}),
        ...(participant ? { participant } : {}),
        ...(pushName ? { pushName } : {}),
        ...(caption !== undefined ? { text: caption } : {}),
        ...(media ? { media } : {}),
      };
      const now = clock.now();
      // The phone's link is down: WhatsApp keeps the message until it comes back.
      if (
        !link.online &&
        (await repo.queueOffline({
          db,
          userId: link.userId,
          message: { ...message, timestamp: now.toISOString() },
        }))
      )
        return { id: messageIdOf };
      await emit(link.userId, {
        type: 'message',
        message: inboundOf({ ...message, timestamp: now.toISOString() }),
      });
      return { id: messageIdOf };
    },

    /**
     * The contact `from` edits (`edit`), deletes for everyone (`revoke`) or reacts to (`react`) a
     * message of its chat with the number `to`, by WhatsApp id: the contact's own message for an
     * edit or a deletion, either party's for a reaction. A 404 for a message the chat does not
     * hold. Delivered live; while the phone's link is down, it waits with the contacts' messages
     * and is delivered after what came before it.
     */
    async changeMessage(
      { to, from, id }: { to: string; from: string; id: string },
      change: SandboxChange,
    ) {
      const link = await linkOf(to);
      const found = await findMessageByWaId({ db, userId: link.userId, jids: [from], waId: id });
      if (!found || (change.kind !== 'react' && found.sender !== 'contact'))
        throw sandboxMessageNotFound();
      const message = { remoteJid: from, id, fromMe: found.sender === 'user' };
      const timestamp = clock.now();
      if (
        !link.online &&
        (await repo.queueOffline({
          db,
          userId: link.userId,
          message: { change, ...message, timestamp: timestamp.toISOString() },
        }))
      )
        return { id };
      await emit(link.userId, changeEvent(message, change, timestamp));
      return { id };
    },

    /**
     * The phone's link goes down (`online: false`: contacts' messages wait for it, across restarts
     * too) or comes back (what waited is delivered as offline messages). As `userId`'s number
     * only, when given.
     */
    async network({ phone, online, userId }: { phone: string; online: boolean; userId?: string }) {
      const link = await linkOf(phone, userId);
      await repo.setOnline({ db, userId: link.userId, online });
      if (online) await deliverOrLater(link.userId);
      return { online };
    },

    /** The owner writes to `to` from the phone itself (as `userId`'s number only, when given). */
    async outbound({
      from,
      to,
      text,
      userId,
    }: {
      from: string;
      to: string;
      text: string;
      userId?: string;
    }) {
      const link = await linkOf(from, userId);
      const id = messageId();
      await repo.insertEvent({
        db,
        userId: link.userId,
        phone: from,
        event: { type: 'message', to, id, text, at: clock.now().toISOString() },
      });
      await emit(link.userId, {
        type: 'message',
        message: { id, remoteJid: to, fromMe: true, text, timestamp: clock.now() },
      });
      return { id };
    },

    /**
     * What the number sent out for the account linked to it now, oldest first (as `userId`'s
     * number only, when given): a number linked again by another account starts afresh.
     */
    async phoneEvents({ phone, userId }: { phone: string; userId?: string }) {
      const link = await linkOf(phone, userId);
      return { events: await repo.listEvents({ db, phone, userId: link.userId }) };
    },

    /** The number's next `count` sends fail with WhatsApp's error `code` (as `userId`'s number only, when given). */
    async failSends({
      phone,
      userId,
      count,
      code,
    }: {
      phone: string;
      userId?: string;
      count: number;
      code: string;
    }) {
      await linkOf(phone, userId);
      await repo.setFailSends({ db, phone, count, code });
      return { count, code };
    },

    /**
     * The phone learns that the contact `lid` is the number `pn` (as WhatsApp tells a linked
     * device); resolves once the service has kept it (and merged the contact's conversations).
     */
    async lidMapping({ to, lid, pn, userId }: SandboxLidMapping & { userId?: string }) {
      const link = await linkOf(to, userId);
      await emit(link.userId, { type: 'lid-mapping', lid, pn });
    },

    /** The contacts' phones received (`delivered`) or read these messages the number sent. */
    async receipts({
      phone,
      userId,
      ids,
      status,
    }: {
      phone: string;
      userId?: string;
      ids: string[];
      status: 'delivered' | 'read';
    }) {
      const link = await linkOf(phone, userId);
      await emit(link.userId, { type: 'receipt', ids, status });
    },

    /** The phone unlinks the device (WhatsApp's 401): the auth state is gone. */
    async phoneLogout({ phone, userId }: { phone: string; userId?: string }) {
      const link = await linkOf(phone, userId);
      await stopCycle(link.userId);
      await repo.deleteLink({ db, userId: link.userId });
      await emit(link.userId, { type: 'closed', reason: { kind: 'logged-out' } });
    },
  } satisfies WhatsAppTransport & Record<string, unknown>;
  return transport;
}

/**
 * Whether the database refused a statement for what it was given: a data exception (SQLSTATE
 * class 22, e.g. 22P02 for half an emoji in jsonb) or a broken constraint (23). Any other failure
 * (the database away) would fail each event alone just the same.
 */
function refusedForAValue(error: unknown): boolean {
  const code = firstDatabaseError(error)?.code;
  return typeof code === 'string' && (code.startsWith('22') || code.startsWith('23'));
}

/** An id shaped like WhatsApp's own (`3EB0…`, upper-case hex). */
function messageId(): string {
  return `3EB0${randomBytes(10).toString('hex').toUpperCase()}`;
}

/** WhatsApp's pairing codes' alphabet (Crockford's base 32, without 0, O, I and U). */
const PAIRING_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTVWXYZ';

/** An 8-character pairing code, as WhatsApp shows them. */
function pairingCode(): string {
  return [...randomBytes(8)].map((byte) => PAIRING_ALPHABET[byte % 32]).join('');
}

/** A contact's change to a message, as the transport reports it. */
function changeEvent(message: MessageRef, change: SandboxChange, timestamp: Date): TransportEvent {
  switch (change.kind) {
    case 'edit':
      return { type: 'message-edited', message, text: change.text, timestamp };
    case 'revoke':
      return { type: 'message-revoked', message, timestamp };
    case 'react':
      return { type: 'reaction', message, emoji: change.emoji, byMe: false };
  }
}

/** A contact's message as the transport reports it; its file's bytes are read when asked for. */
function inboundOf({ media, timestamp, ...message }: SandboxQueuedMessage): InboundMessage {
  return {
    ...message,
    fromMe: false,
    timestamp: new Date(timestamp),
    ...(media ? { media: inboundMediaOf(media) } : {}),
  };
}

function inboundMediaOf({ dataBase64, posterBase64, ...media }: SandboxMedia): InboundMedia {
  const described: InboundMedia = {
    ...describeMedia(media),
    ...(posterBase64 ? { poster: Buffer.from(posterBase64, 'base64') } : {}),
  };
  if (dataBase64 === undefined) return described;
  // base64's length says the size before a byte is decoded.
  const declaredSize =
    Math.floor((dataBase64.length * 3) / 4) - (dataBase64.match(/=+$/)?.[0].length ?? 0);
  return {
    ...described,
    declaredSize,
    download: async ({ maxBytes }) => {
      if (declaredSize > maxBytes) throw new MediaTooLarge(declaredSize);
      return Buffer.from(dataBase64, 'base64');
    },
  };
}

/**
 * The batches are one hand-over, as WhatsApp hands it over on login, in order: the messages
 * between two changes as one offline batch, each change after the messages that came before it.
 * The batches are one hand-over: each but the last says `more` follows (or, `more`, all do), each
 * but the first that it `continued` one (or, `continued`, all do).
 */
function offlineEvents(
  queued: SandboxQueued[],
  { more, continued }: { more: boolean; continued: boolean },
): TransportEvent[] {
  const events: TransportEvent[] = [];
  let batch: InboundMessage[] = [];
  const batches: Extract<TransportEvent, { type: 'offline-messages' }>[] = [];
  const flush = () => {
    if (batch.length === 0) return;
    const event = { type: 'offline-messages' as const, messages: batch };
    batches.push(event);
    events.push(event);
    batch = [];
  };
  for (const entry of queued) {
    if ('change' in entry) {
      flush();
      const { change, timestamp, ...message } = entry;
      events.push(changeEvent(message, change, new Date(timestamp)));
    } else batch.push(inboundOf(entry));
  }
  flush();
  for (const [index, event] of batches.entries()) {
    if (more || index < batches.length - 1) event.more = true;
    if (continued || index > 0) event.continued = true;
  }
  return events;
}
