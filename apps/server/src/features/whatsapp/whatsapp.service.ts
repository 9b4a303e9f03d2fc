import QRCode from 'qrcode';
import { RateLimiterRes } from 'rate-limiter-flexible';
import {
  DEFAULT_CONTACT_LIMIT,
  DEFAULT_SEND_LIMIT_PER_MINUTE,
  isBlocked,
  type WhatsAppContext,
  type WhatsAppDeps,
} from './whatsapp.deps';
import {
  close,
  connect,
  connectionCounts,
  disconnect,
  reconnectBroken,
  resume,
  status,
} from './whatsapp.connection';
import {
  assignAgent,
  deleteConversation,
  exportData,
  getConversation,
  listConversations,
  setAi,
  setWhitelisted,
} from './whatsapp.conversations';
import * as repo from './whatsapp.repository';
import { sendMessage } from './whatsapp.send';
import { autoReply, replyQueueOf, type ReplyJob } from './whatsapp.reply';
import { availableAgents, releaseAgent, updateSettings } from './whatsapp.settings';
import { emitNewMessage } from './whatsapp.summaries';
import type { WhatsAppConversationRow } from './whatsapp.table';
import type { CloseReason, InboundMessage, TransportEvent } from './transports/transport';

export {
  DEFAULT_CONTACT_LIMIT,
  DEFAULT_SEND_LIMIT_PER_MINUTE,
  type WhatsAppDeps,
} from './whatsapp.deps';
export { REPLY_QUEUE_NAME, type ReplyJob, type ReplyOutcome } from './whatsapp.reply';

export type WhatsAppService = ReturnType<typeof createWhatsAppService>;

/**
 * A blocked contact's messages stored per day (a rolling 24 h): past them a flood is counted on
 * the conversation (`dropped_count`), not stored; one stranger's made a conversation of 18 MB.
 */
export const BLOCKED_DAILY_MESSAGES = 100;

/** Chats whose messages are a person writing to the account: not groups, statuses, broadcasts or channels. */
const DIRECT_CHAT = /@(s\.whatsapp\.net|lid|c\.us)$/;
const PHONE_JID = /^(\d+)(?::\d+)?@(s\.whatsapp\.net|c\.us)$/;

/**
 * WhatsApp for each account: the connection the transport reports (kept in the database, so any
 * instance answers), the contacts' conversations, and the agent that answers them. Events for the
 * account's browsers go out through `events`.
 */
export function createWhatsAppService({
  db,
  clock,
  engine,
  agents,
  state,
  events,
  createTransport,
  translate,
  logger,
  jobs,
  replyTimeoutMs,
  contactLimit: contactLimitGiven,
  sendLimitPerMinute = DEFAULT_SEND_LIMIT_PER_MINUTE,
  isAccountActive,
  eventLog,
  publicUrl,
}: WhatsAppDeps) {
  const contactLimit = { ...DEFAULT_CONTACT_LIMIT, ...contactLimitGiven };
  /** Each contact's messages, counted per conversation on every instance. */
  const contactCounter = state.counter({
    name: 'whatsapp-contact',
    points: contactLimit.points,
    durationSeconds: contactLimit.durationSeconds,
  });
  /** A blocked contact's messages over a day, per contact (see BLOCKED_DAILY_MESSAGES). */
  const blockedDayCounter = state.counter({
    name: 'whatsapp-blocked-day',
    points: BLOCKED_DAILY_MESSAGES,
    durationSeconds: 24 * 60 * 60,
  });
  /** The owner's own sends, per account. */
  const sendCounter = state.counter({
    name: 'whatsapp-send',
    points: sendLimitPerMinute,
    durationSeconds: 60,
  });
  /** Each account's connection events, and each chat's messages, handled one after the other. */
  const queues = new Map<string, Promise<void>>();
  // The transport reports to this service, which it is made with: neither exists before the other.
  const transport = createTransport(handleTransportEvent);
  const replyQueue = replyQueueOf({ replyTimeoutMs });
  const context: WhatsAppContext = {
    db,
    clock,
    engine,
    agents,
    state,
    events,
    translate,
    logger,
    jobs,
    isAccountActive,
    eventLog,
    publicUrl,
    contactLimit,
    contactCounter,
    blockedDayCounter,
    sendCounter,
    queues,
    transport,
    replyQueue,
  };
  jobs.work(replyQueue, async (job) => ({
    outcome: await autoReply(context, job.data.userId, job.data.conversationId, job),
  }));
  const bind =
    <Input, Result>(useCase: (deps: WhatsAppContext, input: Input) => Result) =>
    (input: Input): Result =>
      useCase(context, input);

  /**
   * The transport's sink: the account's connection events are handled in the order they came, and
   * so are the messages of one chat; different chats' messages are stored side by side (one queue
   * for all of an account's contacts made every message wait for every other contact's, and other
   * instances store their messages side by side anyway). The promise settles once this one is
   * handled (an inbound message stored), not once it is answered.
   */
  function handleTransportEvent(accountId: string, event: TransportEvent): Promise<void> {
    const key = event.type === 'message' ? `${accountId}\n${event.message.remoteJid}` : accountId;
    const previous = queues.get(key) ?? Promise.resolve();
    const next = previous.then(() =>
      handle(accountId, event).catch((error: unknown) =>
        logger.error({ err: error, accountId, event: event.type }, 'whatsapp: event not handled'),
      ),
    );
    queues.set(key, next);
    void next.finally(() => {
      if (queues.get(key) === next) queues.delete(key);
    });
    return next;
  }

  async function handle(userId: string, event: TransportEvent): Promise<void> {
    const now = clock.now();
    switch (event.type) {
      case 'connecting':
        await repo.updateAccount({
          db,
          userId,
          set: { state: 'connecting', qrCode: null, updatedAt: now },
          unlessReady: true,
        });
        return;
      case 'qr': {
        const qrCode = await QRCode.toDataURL(event.qr, {
          errorCorrectionLevel: 'M',
          margin: 2,
          width: 300,
        });
        // A QR drawn just as the phone paired must not undo the pairing.
        if (
          await repo.updateAccount({
            db,
            userId,
            set: { state: 'qr', qrCode, lastCloseReason: null, updatedAt: now },
            unlessReady: true,
          })
        ) {
          events.emit(userId, 'whatsapp:qr', { qrCode });
        }
        return;
      }
      case 'ready':
        await repo.updateAccount({
          db,
          userId,
          set: {
            state: 'ready',
            qrCode: null,
            phone: event.phone,
            lastCloseReason: null,
            updatedAt: now,
          },
        });
        events.emit(userId, 'whatsapp:ready', { phone: event.phone });
        // The number's last digits only: enough to tell an account's numbers apart.
        eventLog.record({
          category: 'whatsapp',
          event: 'whatsapp.connected',
          message: 'WhatsApp connected',
          userId,
          context: { phone: `…${event.phone.slice(-4)}` },
        });
        return;
      case 'reconnecting':
        await repo.updateAccount({
          db,
          userId,
          set: { state: 'reconnecting', qrCode: null, updatedAt: now },
        });
        return;
      case 'closed': {
        const { reason } = event;
        // Kept with the state, so that a page opened later (on any instance) still says why.
        const lastCloseReason = reason.kind;
        if (reason.kind === 'qr-limit') {
          // A QR cycle that ended as the phone paired ended nothing.
          if (
            await repo.updateAccount({
              db,
              userId,
              set: { state: 'disconnected', qrCode: null, lastCloseReason, updatedAt: now },
              unlessReady: true,
            })
          ) {
            events.emit(userId, 'whatsapp:disconnected', { reason: reason.kind });
            recordClosed(userId, reason);
          }
        } else if (reason.kind === 'logged-out' || reason.kind === 'requested') {
          await repo.updateAccount({
            db,
            userId,
            set: {
              state: 'disconnected',
              qrCode: null,
              phone: null,
              lastCloseReason,
              updatedAt: now,
            },
          });
          events.emit(userId, 'whatsapp:disconnected', { reason: reason.kind });
          recordClosed(userId, reason);
        } else {
          await repo.updateAccount({
            db,
            userId,
            set: { state: 'failed', qrCode: null, lastCloseReason, updatedAt: now },
          });
          recordClosed(userId, reason);
          if (reason.kind === 'banned')
            events.emit(userId, 'whatsapp:auth_failure', { message: reason.kind });
          else
            events.emit(userId, 'whatsapp:disconnected', {
              reason: reason.kind === 'failed' ? reason.message : reason.kind,
            });
        }
        return;
      }
      case 'message':
        await receive(userId, event.message);
        return;
    }
  }

  /** A connection's end in the stored log: a logout (from here or the phone), or a close and why. */
  function recordClosed(userId: string, reason: CloseReason): void {
    const loggedOut = reason.kind === 'requested' || reason.kind === 'logged-out';
    eventLog.record({
      // What the user did is news; what ended a connection by itself is a warning.
      level: loggedOut ? 'info' : 'warn',
      category: 'whatsapp',
      event: loggedOut ? 'whatsapp.logged_out' : 'whatsapp.closed',
      message: loggedOut
        ? `WhatsApp logged out (${reason.kind === 'requested' ? 'from ContrateIA' : 'from the phone'})`
        : `WhatsApp connection closed: ${reason.kind}`,
      userId,
      context: {
        reason: reason.kind,
        ...(reason.kind === 'failed' ? { detail: reason.message } : {}),
      },
    });
  }

  // ---- Inbound ----

  /**
   * A message that reached the account's number: a person's direct message is stored once (by
   * WhatsApp's id), counted unread, shown to the owner and answered when its conversation allows.
   * What the owner wrote from the phone is stored as theirs and never answered. Groups, statuses,
   * broadcasts, channels, protocol messages and messages without text are left alone.
   */
  async function receive(userId: string, message: InboundMessage): Promise<void> {
    if (
      message.protocol ||
      message.text === undefined ||
      !message.text.trim() ||
      !DIRECT_CHAT.test(message.remoteJid)
    )
      return;
    if (message.remoteJidAlt && !DIRECT_CHAT.test(message.remoteJidAlt)) return;
    if (!message.fromMe && (await floodedWhileBlocked(userId, message))) return;
    const { conversation, stored } = await storeContactMessage(userId, message);
    if (!stored) return; // the same message again
    // A block is the whole penalty: what comes during it is kept but not counted, and the count
    // starts afresh once it ends.
    const now = clock.now();
    let current = stored.conversation;
    if (!message.fromMe && !isBlocked(conversation, now) && (await wroteTooFast(conversation))) {
      const blockedUntil = new Date(now.getTime() + contactLimit.blockSeconds * 1000);
      current = (await repo.updateConversation({
        db,
        id: conversation.id,
        userId,
        set: { blockedUntil },
      })) ?? { ...current, blockedUntil };
      await markBlocked(userId, current, blockedUntil);
      await contactCounter.delete(conversation.id).catch(() => {});
      logger.warn(
        { conversationId: conversation.id },
        'whatsapp: a contact wrote too fast and is blocked for a while',
      );
    }
    await emitNewMessage(context, userId, { ...stored, conversation: current });
    // Sent before the message counts as handled: once stored, it is answered even if this process
    // stops now.
    if (!message.fromMe) {
      const reply: ReplyJob = { userId, conversationId: conversation.id };
      await jobs.send(replyQueue, reply, { key: conversation.id });
    }
  }

  /** The shared-state key under which a blocked contact's JID is known before its message is stored. */
  const blockedKey = (userId: string, jid: string) => `whatsapp-blocked:${userId}\n${jid}`;

  /** A block is told to every instance by the contact's JIDs, so that its next messages are weighed before any is stored. */
  async function markBlocked(
    userId: string,
    conversation: WhatsAppConversationRow,
    blockedUntil: Date,
  ) {
    const ttlMs = Math.max(1000, blockedUntil.getTime() - clock.now().getTime());
    for (const jid of [conversation.contactJid, conversation.contactAltJid]) {
      if (jid)
        await state
          .setValue(blockedKey(userId, jid), String(blockedUntil.getTime()), ttlMs)
          .catch(() => {});
    }
  }

  /**
   * Whether the message comes from a blocked contact past its day's allowance: then it is only
   * counted on its conversation (the owner sees how many), never stored nor answered.
   */
  async function floodedWhileBlocked(userId: string, message: InboundMessage): Promise<boolean> {
    let consumed: number;
    try {
      const until = Number(await state.getValue(blockedKey(userId, message.remoteJid)));
      if (!(until > clock.now().getTime())) return false;
      await blockedDayCounter.consume(`${userId}\n${message.remoteJid}`);
      return false;
    } catch (error) {
      if (!(error instanceof RateLimiterRes)) {
        // A guard, not a gate: a store that cannot count lets the message through.
        logger.error({ err: error }, "whatsapp: could not weigh a blocked contact's message");
        return false;
      }
      consumed = error.consumedPoints;
    }
    const conversation = await repo.countDropped({ db, userId, jid: message.remoteJid });
    // The owner's pages hear of the first one left out; one event per message of a flood would
    // make every open page read the list again for each (the count shows at the next read).
    if (conversation && consumed === BLOCKED_DAILY_MESSAGES + 1) {
      events.emit(userId, 'whatsapp:conversation_changed', { conversationId: conversation.id });
    }
    return true;
  }

  /** Counts the contact's message; whether it was one too many for the window. */
  async function wroteTooFast(conversation: WhatsAppConversationRow): Promise<boolean> {
    try {
      await contactCounter.consume(conversation.id);
      return false;
    } catch (error) {
      if (error instanceof RateLimiterRes) return true;
      // The count is a guard, not a gate: a store that cannot count lets the message through.
      logger.error({ err: error }, "whatsapp: could not count a contact's message");
      return false;
    }
  }

  /**
   * Stores a message in the one conversation with the contact, however WhatsApp names them (`@lid`
   * or phone JID), made the first time: the conversation (as it was before the message, for its
   * block), and the message stored, undefined for the same message again. What WhatsApp tells of
   * the contact anew (its other JID, number, name) is kept.
   */
  async function storeContactMessage(
    userId: string,
    message: InboundMessage,
  ): Promise<{ conversation: WhatsAppConversationRow; stored: repo.StoredMessage | undefined }> {
    const jids: [string] | [string, string] = message.remoteJidAlt
      ? [message.remoteJid, message.remoteJidAlt]
      : [message.remoteJid];
    const number =
      numberOf(message.remoteJid) || (message.remoteJidAlt ? numberOf(message.remoteJidAlt) : '');
    const values = {
      waId: message.id,
      sender: message.fromMe ? ('user' as const) : ('contact' as const),
      text: message.text!,
      createdAt: message.timestamp,
    };
    const unread = !message.fromMe;
    const known = await repo.insertContactMessage({ db, userId, jids, values, unread });
    if (!known) {
      const now = clock.now();
      const conversation = await repo.insertConversation({
        db,
        values: {
          userId,
          contactJid: message.remoteJid,
          contactAltJid: message.remoteJidAlt ?? null,
          contactName:
            (!message.fromMe && message.pushName?.trim()) ||
            number ||
            message.remoteJid.split('@')[0]!,
          contactNumber: number,
          createdAt: now,
          updatedAt: now,
        },
      });
      const stored = await repo.insertMessage({
        db,
        values: { ...values, conversationId: conversation.id, agentName: null, error: null },
        unread,
      });
      return { conversation, stored };
    }
    const { found, stored } = known;
    const set: Parameters<typeof repo.updateConversation>[0]['set'] = {};
    const other = jids.find((jid) => jid !== found.contactJid);
    if (other && !found.contactAltJid) set.contactAltJid = other;
    if (!found.contactNumber && number) set.contactNumber = number;
    const pushName = message.pushName?.trim();
    if (!message.fromMe && pushName && pushName !== found.contactName) set.contactName = pushName;
    if (Object.keys(set).length === 0) return { conversation: found, stored };
    const updated = await repo.updateConversation({ db, id: found.id, userId, set });
    return {
      conversation: found,
      stored: stored && updated ? { ...stored, conversation: updated } : stored,
    };
  }

  return {
    /** The transport it was made with (whatever carries WhatsApp: Baileys or the sandbox). */
    transport,
    status: bind(status),
    connect: bind(connect),
    disconnect: bind(disconnect),
    resume: () => resume(context),
    connectionCounts: () => connectionCounts(context),
    reconnectBroken: () => reconnectBroken(context),
    close: () => close(context),
    handleTransportEvent,
    listConversations: bind(listConversations),
    getConversation: bind(getConversation),
    deleteConversation: bind(deleteConversation),
    exportData: bind(exportData),
    setAi: bind(setAi),
    setWhitelisted: bind(setWhitelisted),
    assignAgent: bind(assignAgent),
    sendMessage: bind(sendMessage),
    availableAgents: bind(availableAgents),
    updateSettings: bind(updateSettings),
    releaseAgent: bind(releaseAgent),
  };
}

/** The phone number's digits of a phone JID (`5511…@s.whatsapp.net`, a device suffix dropped); '' for others. */
function numberOf(jid: string): string {
  return PHONE_JID.exec(jid)?.[1] ?? '';
}
