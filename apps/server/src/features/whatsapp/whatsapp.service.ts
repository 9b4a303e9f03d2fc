import {
  close,
  connect,
  connectionCounts,
  disconnect,
  reconnectBroken,
  PAIRING_CODES_PER_WINDOW,
  requestPairingCode,
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
  setBlocked,
} from './whatsapp.conversations';
import {
  DEFAULT_CATCHUP_MINUTES,
  DEFAULT_CONTACT_LIMIT,
  DEFAULT_PACING,
  DEFAULT_SEND_LIMIT_PER_MINUTE,
  DEFAULT_TAKEOVER_MINUTES,
  type WhatsAppContext,
  type WhatsAppDeps,
} from './whatsapp.deps';
import { openMedia } from './whatsapp.media-access';
import { exportFiles, mediaUsage } from './whatsapp.media-export';
import {
  MEDIA_RETENTION_CRON,
  MEDIA_RETENTION_QUEUE,
  purgeExpiredMedia,
} from './whatsapp.media-retention';
import { createSyncPairing, platformNumber } from './whatsapp.platform';
import { relaySkill } from './whatsapp.relay';
import { RELAY_QUEUE, sendRelay } from './whatsapp.relay-send';
import { BLOCKED_DAILY_MESSAGES } from './whatsapp.receive';
import { autoReply, replyQueueOf } from './whatsapp.reply';
import { sendOutgoing, sendQueue } from './whatsapp.outbox';
import { retryMessage, sendMedia, sendMessage } from './whatsapp.send';
import { availableAgents, releaseAgent, updateSettings } from './whatsapp.settings';
import { resumeConversation } from './whatsapp.takeover';
import { handleTransportEvent } from './whatsapp.transport-events';
import type { TransportEvent } from './transports/transport';

export {
  DEFAULT_CATCHUP_MINUTES,
  DEFAULT_CONTACT_LIMIT,
  DEFAULT_PACING,
  DEFAULT_SEND_LIMIT_PER_MINUTE,
  type Pacing,
  type WhatsAppDeps,
} from './whatsapp.deps';
export { BLOCKED_DAILY_MESSAGES } from './whatsapp.receive';
export { REPLY_QUEUE_NAME, type ReplyJob, type ReplyOutcome } from './whatsapp.reply';
export { SEND_QUEUE_NAME, type OutgoingJob, type SendOutcome } from './whatsapp.outbox';
export { MEDIA_RETENTION_QUEUE } from './whatsapp.media-retention';

export type WhatsAppService = ReturnType<typeof createWhatsAppService>;

/**
 * WhatsApp for each account: the connection the transport reports (kept in the database, so any
 * instance answers), the contacts' conversations, and the agent that answers them. Events for the
 * account's browsers go out through `events`. Each use case is a function of its own file taking
 * its dependencies; this builds what they share (the limits' counters, the per-chat queues, the
 * transport, the reply queue and its worker) and binds them to it once, for the routes and the
 * other features. Functions throw AppErrors (whatsapp.errors.ts).
 */
export function createWhatsAppService({
  createTransport,
  replyTimeoutMs,
  contactLimit: contactLimitGiven,
  sendLimitPerMinute = DEFAULT_SEND_LIMIT_PER_MINUTE,
  catchupMinutes = DEFAULT_CATCHUP_MINUTES,
  takeoverMinutes = DEFAULT_TAKEOVER_MINUTES,
  pacing: pacingGiven,
  ...deps
}: WhatsAppDeps) {
  const { state, jobs } = deps;
  const contactLimit = { ...DEFAULT_CONTACT_LIMIT, ...contactLimitGiven };
  const pacing = { ...DEFAULT_PACING, ...pacingGiven };
  const context: WhatsAppContext = {
    ...deps,
    catchupMinutes,
    takeoverMinutes,
    pacing,
    numberSendCounter: state.counter({
      name: 'whatsapp-number-send',
      points: pacing.sendsPerMinute,
      durationSeconds: 60,
    }),
    contactLimit,
    contactCounter: state.counter({
      name: 'whatsapp-contact',
      points: contactLimit.points,
      durationSeconds: contactLimit.durationSeconds,
    }),
    blockedDayCounter: state.counter({
      name: 'whatsapp-blocked-day',
      points: BLOCKED_DAILY_MESSAGES,
      durationSeconds: 24 * 60 * 60,
    }),
    sendCounter: state.counter({
      name: 'whatsapp-send',
      points: sendLimitPerMinute,
      durationSeconds: 60,
    }),
    pairingCodeCounter: state.counter({
      name: 'whatsapp-pairing-code',
      points: PAIRING_CODES_PER_WINDOW.points,
      durationSeconds: PAIRING_CODES_PER_WINDOW.seconds,
    }),
    queues: new Map(),
    // The transport reports to this service, which it is made with: neither exists before the other.
    transport: createTransport((accountId, event) =>
      handleTransportEvent(context, accountId, event),
    ),
    replyQueue: replyQueueOf({ replyTimeoutMs }),
  };
  jobs.work(context.replyQueue, async (job) => ({
    outcome: await autoReply(context, job.data.userId, job.data.conversationId, job),
  }));
  jobs.work(sendQueue, async (job) => ({ outcome: await sendOutgoing(context, job) }));
  jobs.work(RELAY_QUEUE, (job) => sendRelay(context, job));
  jobs.work(MEDIA_RETENTION_QUEUE, async ({ signal }) => purgeExpiredMedia(context, signal));
  jobs.schedule(MEDIA_RETENTION_QUEUE, MEDIA_RETENTION_CRON);
  const bind =
    <Input, Result>(useCase: (deps: WhatsAppContext, input: Input) => Result) =>
    (input: Input): Result =>
      useCase(context, input);
  return {
    /** The transport it was made with (whatever carries WhatsApp: Baileys or the sandbox). */
    transport: context.transport,
    status: bind(status),
    connect: bind(connect),
    disconnect: bind(disconnect),
    requestPairingCode: bind(requestPairingCode),
    resume: () => resume(context),
    connectionCounts: () => connectionCounts(context),
    /** The files kept, how many and their bytes (the monitor's storage figure). */
    mediaUsage: () => mediaUsage(context),
    reconnectBroken: () => reconnectBroken(context),
    close: () => close(context),
    handleTransportEvent: (accountId: string, event: TransportEvent) =>
      handleTransportEvent(context, accountId, event),
    listConversations: bind(listConversations),
    getConversation: bind(getConversation),
    deleteConversation: bind(deleteConversation),
    exportData: bind(exportData),
    setAi: bind(setAi),
    setWhitelisted: bind(setWhitelisted),
    setBlocked: bind(setBlocked),
    resumeConversation: bind(resumeConversation),
    assignAgent: bind(assignAgent),
    sendMessage: bind(sendMessage),
    sendMedia: bind(sendMedia),
    retryMessage: bind(retryMessage),
    availableAgents: bind(availableAgents),
    updateSettings: bind(updateSettings),
    releaseAgent: bind(releaseAgent),
    openMedia: bind(openMedia),
    /** The kept files of the account's export listing, for the ZIP variant of "Download my data". */
    exportFiles: bind(exportFiles),
    /** The platform's number: whose it is, and whether it is connected (the admin panel shows it). */
    platformNumber: async () => {
      const { userId: _userId, ...shown } = await platformNumber(context);
      return shown;
    },
    createSyncPairing: bind(createSyncPairing),
    /** indirect's relays in its web chat: the chat feature's `delivery` skill (see whatsapp.relay.ts). */
    relaySkill: relaySkill(context),
    /** Removes every received file of a deleted account. */
    forgetMedia: (userId: string) => context.media.removeAccount(userId),
  };
}
