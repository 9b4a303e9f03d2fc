import QRCode from 'qrcode';
import {
  DEFAULT_CONTACT_LIMIT,
  DEFAULT_SEND_LIMIT_PER_MINUTE,
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
import { BLOCKED_DAILY_MESSAGES, receive } from './whatsapp.receive';
import * as repo from './whatsapp.repository';
import { sendMessage } from './whatsapp.send';
import { autoReply, replyQueueOf } from './whatsapp.reply';
import { availableAgents, releaseAgent, updateSettings } from './whatsapp.settings';
import type { CloseReason, TransportEvent } from './transports/transport';

export {
  DEFAULT_CONTACT_LIMIT,
  DEFAULT_SEND_LIMIT_PER_MINUTE,
  type WhatsAppDeps,
} from './whatsapp.deps';
export { BLOCKED_DAILY_MESSAGES } from './whatsapp.receive';
export { REPLY_QUEUE_NAME, type ReplyJob, type ReplyOutcome } from './whatsapp.reply';

export type WhatsAppService = ReturnType<typeof createWhatsAppService>;

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
        await receive(context, userId, event.message);
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
