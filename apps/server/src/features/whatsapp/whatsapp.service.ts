import type { FastifyBaseLogger } from 'fastify';
import QRCode from 'qrcode';
import {
  DEFAULT_AGENT_NAME,
  WHATSAPP_PREVIEW_MAX_LENGTH,
  whatsappPreview,
  type Language,
  type User,
  type WhatsAppAccountExport,
  type WhatsAppAgent,
  type WhatsAppConversation,
  type WhatsAppConversationDetail,
  type WhatsAppMessage,
  type WhatsAppStatus,
} from '@contrateia/shared';
import type { Db } from '@/db/client';
import type { Clock } from '@/lib/clock';
import { AppError } from '@/lib/errors';
import type { EventHub } from '@/lib/event-hub';
import type { EventLog } from '@/lib/event-log';
import type { Translate } from '@/lib/i18n';
import { RateLimiterRes } from 'rate-limiter-flexible';
import { defineQueue, type Job, type Jobs, type JobSlot } from '@/lib/jobs';
import { takeOrRetryLater, type SharedState } from '@/lib/shared-state';
import type { AgentRow, AgentsService } from '@/features/agents/agents.service';
import {
  boundTurn,
  detectLanguage,
  replyToEnd,
  runAgentReply,
  type AgentEngine,
  type HistoryLoader,
} from '@/features/ai/ai.service';
import { toWhatsAppText } from './whatsapp-format';
import {
  conversationCursorOf,
  messageCursorOf,
  readConversationCursor,
  readMessageCursor,
} from './whatsapp-cursor';
import * as repo from './whatsapp.repository';
import type {
  WhatsAppAccountRow,
  WhatsAppConversationRow,
  WhatsAppMessageRow,
} from './whatsapp.table';
import type {
  CloseReason,
  InboundMessage,
  TransportEvent,
  TransportEventSink,
  WhatsAppTransport,
} from './transports/transport';

export type WhatsAppService = ReturnType<typeof createWhatsAppService>;

/** What came of an auto-reply: kept with its job (`{ outcome }`). */
export type ReplyOutcome = 'sent' | 'skipped' | 'failed';

/** A conversation's auto-reply: what its contact wrote since the last answer, answered. */
export type ReplyJob = { userId: string; conversationId: string };

/** The queue of auto-replies (made by migration 0017), one job per conversation at a time. */
export const REPLY_QUEUE_NAME = 'whatsapp-reply';

/** The language of what nobody asked in a language of their own: replies that failed, events. */
const DEFAULT_LANGUAGE: Language = 'pt-BR';
/** Earlier messages an auto-reply reads (then cut to the history budget). */
const HISTORY_MESSAGES = 200;
/** Tries of an auto-reply whose provider or transport fails: then the failure shows in the conversation. */
const REPLY_TRIES = 3;
/** Replies made at once by one instance (each mostly waits on its provider). */
const REPLY_CONCURRENCY = 100;
/** Received messages marked read when their conversation is opened. */
const READ_RECEIPTS = 50;
/**
 * How fast one contact may write to an account before its conversation is blocked (status
 * `blocked`: stored and shown, never answered) for `blockSeconds`: a person does not write 20
 * messages a minute, and every answer costs an agent's reply. WHATSAPP_CONTACT_LIMIT_PER_MINUTE.
 */
export const DEFAULT_CONTACT_LIMIT = { points: 20, durationSeconds: 60, blockSeconds: 15 * 60 };
/**
 * A blocked contact's messages stored per day (a rolling 24 h): past them a flood is counted on
 * the conversation (`dropped_count`), not stored; one stranger's made a conversation of 18 MB.
 */
export const BLOCKED_DAILY_MESSAGES = 100;
/** Messages the owner may send by hand per minute (WHATSAPP_SEND_LIMIT_PER_MINUTE): each one goes out from their number. */
export const DEFAULT_SEND_LIMIT_PER_MINUTE = 30;

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
}: {
  db: Db;
  clock: Clock;
  /** The same agent engine the chat feature answers with. */
  engine: AgentEngine;
  agents: AgentsService;
  /** Where contacts' messages are counted and blocks told, shared by every instance. */
  state: SharedState;
  events: EventHub;
  /** Makes the transport, given the sink it reports to (this service's handleTransportEvent). */
  createTransport: (sink: TransportEventSink) => WhatsAppTransport;
  translate: (language: Language) => Translate;
  logger: FastifyBaseLogger;
  /** Where auto-replies wait and run: a job per conversation, on whichever instance takes it. */
  jobs: Jobs;
  /**
   * The agent engine's timeout in force (the provider's silence it waits out): a reply's try is
   * given a few of them, then aborted, and past that another instance may try it again.
   */
  replyTimeoutMs: () => Promise<number>;
  /** Messages one contact may write per window before it is blocked, and for how long. */
  contactLimit?: Partial<typeof DEFAULT_CONTACT_LIMIT>;
  /** Messages one owner may send by hand per minute, counted on every instance. */
  sendLimitPerMinute?: number;
  /** The auth feature's word on an account: one an admin deactivated gets no auto-replies. */
  isAccountActive: (userId: string) => Promise<boolean>;
  /** The stored log: each account's connection changes (connected, closed and why, logged out). */
  eventLog: EventLog;
  /** This site's address: a reply's links to its pages are sent whole. */
  publicUrl: string;
}) {
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
  /**
   * One job per conversation (its key): a message that comes while its conversation's reply is
   * waiting joins it, and one that comes while it is being made waits for it on every instance
   * (the queue is stately), then is answered with the others still unanswered. A try whose
   * provider or transport fails is tried again a little later, up to REPLY_TRIES in all. A try
   * may take three of the engine's timeouts (its stream may go on past one) and half a minute more
   * for the rest of the work; the job's signal aborts it a little before that.
   */
  const replyQueue = defineQueue<ReplyJob>({
    name: REPLY_QUEUE_NAME,
    tries: REPLY_TRIES,
    retryDelaySeconds: 1,
    expireSeconds: async () => (3 * (await replyTimeoutMs())) / 1000 + 30,
    concurrency: REPLY_CONCURRENCY,
    pollMs: 1000,
  });
  jobs.work(replyQueue, async (job) => ({
    outcome: await autoReply(job.data.userId, job.data.conversationId, job),
  }));

  // ---- Connection ----

  async function status({ userId }: { userId: string }): Promise<WhatsAppStatus> {
    const account = (await repo.findAccount({ db, userId })) ?? undefined;
    const counts = await repo.countConversations({ db, userId });
    const defaultAgent = await defaultAgentOf(account);
    const state = account?.state ?? 'disconnected';
    return {
      isReady: state === 'ready',
      qrCode: state === 'qr' ? (account?.qrCode ?? null) : null,
      conversationsCount: counts.total,
      aiEnabledCount: counts.aiEnabled,
      whitelistMode: account?.whitelistMode ?? false,
      whitelistedCount: counts.whitelisted,
      agentAssignedCount: counts.agentAssigned,
      state,
      phone: state === 'ready' ? (account?.phone ?? null) : null,
      defaultAgentId: defaultAgent?.id ?? null,
      lastCloseReason: account?.lastCloseReason ?? null,
    };
  }

  /** Starts the account's connection (a QR, or the stored link); idempotent while connecting or ready. */
  async function connect({ userId }: { userId: string }): Promise<WhatsAppStatus> {
    await repo.ensureAccount({ db, userId, now: clock.now() });
    await transport.connect(userId);
    return status({ userId });
  }

  /** Logs the number out (its auth state goes); the conversations stay. */
  async function disconnect({ userId }: { userId: string }): Promise<WhatsAppStatus> {
    await repo.ensureAccount({ db, userId, now: clock.now() });
    await transport.logout(userId);
    await repo.updateAccount({
      db,
      userId,
      set: {
        state: 'disconnected',
        qrCode: null,
        phone: null,
        lastCloseReason: 'requested',
        updatedAt: clock.now(),
      },
    });
    return status({ userId });
  }

  /** At start: every account with a stored link connects again, without a new QR. */
  async function resume(): Promise<void> {
    for (const userId of await transport.linkedAccounts()) {
      try {
        await transport.connect(userId);
      } catch (error) {
        logger.error({ err: error, userId }, 'whatsapp: could not resume a linked account');
      }
    }
  }

  /** Accounts with a linked number, and of them those connected now, across every instance (the monitor). */
  async function connectionCounts(): Promise<{ linked: number; connected: number }> {
    return repo.countLinkedAccounts({ db });
  }

  /**
   * Asks every linked account whose connection failed or closed (or waits out a backoff) to
   * connect again now, as its owner would with Connect (an admin's quick action). How many were
   * asked; one that cannot even start is logged and left.
   */
  async function reconnectBroken(): Promise<{ reconnected: number }> {
    let reconnected = 0;
    for (const userId of await repo.listBrokenLinkedAccounts({ db })) {
      try {
        await transport.connect(userId);
        reconnected += 1;
      } catch (error) {
        logger.error({ err: error, userId }, 'whatsapp: could not reconnect a linked account');
      }
    }
    return { reconnected };
  }

  /** Waits for the transport's events being handled (shutdown); the transport is closed by its owner. */
  async function close(): Promise<void> {
    await Promise.allSettled([...queues.values()]);
  }

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
  function receive(userId: string, message: InboundMessage): Promise<void> {
    // The reply's job goes in the statement that stores the message, when it can (see jobs.within).
    return jobs.within(replyQueue, (replyJob) => receiveWith(userId, message, replyJob));
  }

  async function receiveWith(userId: string, message: InboundMessage, replyJob: JobSlot<ReplyJob>) {
    if (
      message.protocol ||
      message.text === undefined ||
      !message.text.trim() ||
      !DIRECT_CHAT.test(message.remoteJid)
    )
      return;
    if (message.remoteJidAlt && !DIRECT_CHAT.test(message.remoteJidAlt)) return;
    if (!message.fromMe && (await floodedWhileBlocked(userId, message))) return;
    const { conversation, stored } = await storeContactMessage(userId, message, replyJob);
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
    await emitNewMessage(userId, { ...stored, conversation: current });
    // Sent before the message counts as handled: once stored, it is answered even if this process
    // stops now.
    if (!message.fromMe) {
      const reply: ReplyJob = { userId, conversationId: conversation.id };
      await replyJob.send(reply, { key: conversation.id });
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
    replyJob: JobSlot<ReplyJob>,
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
    const reply = message.fromMe ? undefined : replyJob;
    const known = await repo.insertContactMessage({ db, userId, jids, values, unread, reply });
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

  // ---- Auto-reply ----

  /**
   * Answers what the contact wrote since the last answer, if the conversation's AI is on and it is
   * active, by its agent (else the account's default), in the contact's language: the reply job's
   * try (one at a time per conversation, see replyQueue). Nothing is left to answer when an
   * earlier try sent its reply (a try cut short after that is not answered twice). A provider or
   * transport failure throws for the job to be tried again, and is shown in the conversation
   * after the last try.
   */
  async function autoReply(
    userId: string,
    conversationId: string,
    {
      signal,
      lastAttempt,
      completeWithin,
    }: Pick<Job<ReplyJob>, 'signal' | 'lastAttempt' | 'completeWithin'>,
  ): Promise<ReplyOutcome> {
    const found = await repo.findReplyContext({ db, id: conversationId, limit: HISTORY_MESSAGES });
    const conversation = found?.conversation;
    // The conversation's own account, and its own contact's JID: a reply goes nowhere else.
    if (!conversation || conversation.userId !== userId || !conversation.aiEnabled)
      return 'skipped';
    const account = found.account;
    if (!account || statusOf(account, conversation, clock.now()) !== 'active') return 'skipped';
    // Deactivated by an admin: its contacts' messages are kept, and nobody answers for it.
    if (!(await isAccountActive(userId))) return 'skipped';
    const { recent } = found;
    let start = recent.length;
    // What the contact wrote since the last answer; after a block, only what came after it.
    const since = conversation.blockedUntil?.getTime() ?? -Infinity;
    while (
      start > 0 &&
      recent[start - 1]!.sender === 'contact' &&
      recent[start - 1]!.createdAt.getTime() >= since
    )
      start -= 1;
    const asked = recent.slice(start);
    if (asked.length === 0) return 'skipped'; // answered with an earlier one
    // A backlog (replies that failed leave what they were asked unanswered) is read from its
    // start as far as an engine reads a turn: ten 64 K messages joined are not 640 K to detect.
    const message = boundTurn(asked.map((m) => m.text).join('\n'));
    // The turns before the question, read only by an engine that reads history (not the builtin).
    const history: HistoryLoader = async (budgetChars) =>
      (
        await repo.listReplyHistory({
          db,
          conversationId,
          beforeSeq: asked[0]!.seq,
          limit: HISTORY_MESSAGES - asked.length,
          budgetChars,
        })
      ).map((m) => ({ role: m.sender === 'contact' ? 'user' : 'assistant', text: m.text }));
    const agent = await answeringAgent(account, conversation);
    if (!agent) {
      logger.warn({ conversationId }, 'whatsapp: no agent to answer');
      return 'failed';
    }
    const jid = conversation.contactJid;
    await transport.sendPresence(userId, jid, 'composing').catch(() => {});
    const end = await replyToEnd(
      runAgentReply({
        engine,
        logger,
        agent: { name: agent.name, configuration: agent.configuration },
        question: message,
        history,
        language: detectLanguage(message, DEFAULT_LANGUAGE),
        // Written for the web chat in Markdown; sent, stored and shown as WhatsApp shows text.
        format: (markdown) => toWhatsAppText(markdown, publicUrl),
        signal,
      }),
    );
    if (end.ending !== 'answered') {
      // Stopped (the server stops, or the try's time is up): the job is tried again.
      signal.throwIfAborted();
      await transport.sendPresence(userId, jid, 'paused').catch(() => {});
      if (end.ending === 'failed' && !lastAttempt) throw end.failure;
      await storeFailure(userId, conversationId, agent, 'whatsappServer.replyFailed');
      return 'failed';
    }
    const { text } = end;
    signal.throwIfAborted();
    // No "paused" before the reply: the reply itself ends the typing on the contact's phone.
    let sent: { id: string };
    try {
      sent = await transport.sendText(userId, jid, text);
    } catch (error) {
      logger.warn({ err: error, conversationId }, 'whatsapp: reply not sent');
      await transport.sendPresence(userId, jid, 'paused').catch(() => {});
      if (!lastAttempt) throw error;
      await storeFailure(userId, conversationId, agent, 'whatsappServer.sendFailed');
      return 'failed';
    }
    const stored = await repo.insertMessage({
      db,
      values: {
        conversationId,
        waId: sent.id,
        sender: 'user',
        text,
        agentName: agent.name,
        error: null,
        createdAt: clock.now(),
      },
      unread: false,
      job: completeWithin({ outcome: 'sent' }),
    });
    if (stored)
      events.emit(userId, 'whatsapp:message_sent', {
        conversationId,
        message: toMessage(stored.message, DEFAULT_LANGUAGE),
      });
    return 'sent';
  }

  /** A reply that failed is shown in the conversation (the owner sees why), and nothing is sent. */
  async function storeFailure(
    userId: string,
    conversationId: string,
    agent: AgentRow,
    key: string,
  ) {
    const stored = await repo.insertMessage({
      db,
      values: {
        conversationId,
        waId: null,
        sender: 'user',
        text: '',
        agentName: agent.name,
        error: key,
        createdAt: clock.now(),
      },
      unread: false,
    });
    if (stored) await emitNewMessage(userId, stored);
  }

  /** The conversation's agent if it is still active, else the account's default, else guia. */
  async function answeringAgent(
    account: WhatsAppAccountRow,
    conversation: WhatsAppConversationRow,
  ): Promise<AgentRow | undefined> {
    const assigned = conversation.agentId
      ? await agents.findById({ id: conversation.agentId })
      : undefined;
    if (assigned?.isActive) return assigned;
    return defaultAgentOf(account);
  }

  /** The account's default agent if it is still active, else guia; none when that is off too: an inactive agent never answers. */
  async function defaultAgentOf(
    account: WhatsAppAccountRow | undefined,
  ): Promise<AgentRow | undefined> {
    const chosen = account?.defaultAgentId
      ? await agents.findById({ id: account.defaultAgentId })
      : undefined;
    if (chosen?.isActive) return chosen;
    const fallback = await agents.findByName({ name: DEFAULT_AGENT_NAME });
    return fallback?.isActive ? fallback : undefined;
  }

  /**
   * An agent an admin deleted answers nobody's contacts: the conversations assigned to it and the
   * accounts that had it as their default go back to their defaults, and their owners' open pages
   * read their data again.
   */
  async function releaseAgent({ agentId }: { agentId: string }): Promise<void> {
    for (const userId of await repo.unassignAgent({ db, agentId })) {
      const current = await status({ userId });
      events.emit(userId, 'whatsapp:settings_changed', { whitelistMode: current.whitelistMode });
    }
  }

  // ---- Conversations ----

  /** A message just stored, with its conversation as it is now, to the owner's open pages. */
  async function emitNewMessage(
    userId: string,
    stored: NonNullable<Awaited<ReturnType<typeof repo.insertMessage>>>,
  ) {
    const conversation = await summary(
      stored.conversation,
      stored.message.text,
      stored.whitelistMode,
      DEFAULT_LANGUAGE,
    );
    events.emit(userId, 'whatsapp:new_message', {
      conversation,
      message: toMessage(stored.message, DEFAULT_LANGUAGE),
    });
  }

  async function summaries({
    userId,
    language,
    id,
    after,
    limit,
  }: {
    userId: string;
    language: Language;
    id?: string;
    after?: { updatedAt: Date; id: string };
    limit?: number;
  }): Promise<WhatsAppConversation[]> {
    const rows = await repo.listConversations({
      db,
      userId,
      id,
      after,
      limit,
      previewChars: WHATSAPP_PREVIEW_MAX_LENGTH,
    });
    const list: WhatsAppConversation[] = [];
    for (const { conversation, lastMessage, whitelistMode } of rows)
      list.push(await summary(conversation, lastMessage, whitelistMode, language));
    return list;
  }

  /** A conversation as the owner's list shows it; its status depends on the account's whitelist mode. */
  async function summary(
    conversation: WhatsAppConversationRow,
    lastMessage: string | null,
    whitelistMode: boolean | null,
    language: Language,
  ): Promise<WhatsAppConversation> {
    const agent = conversation.agentId
      ? await agents.findById({ id: conversation.agentId })
      : undefined;
    return {
      id: conversation.id,
      contact_name: conversation.contactName,
      contact_number: conversation.contactNumber,
      updated_at: conversation.updatedAt.toISOString(),
      last_message: lastMessage === null ? null : { text: whatsappPreview(lastMessage) },
      unread_count: conversation.unreadCount,
      ai_enabled: conversation.aiEnabled,
      is_whitelisted: conversation.isWhitelisted,
      status: statusOf({ whitelistMode: whitelistMode ?? false }, conversation, clock.now()),
      agent_id: conversation.agentId,
      agent_display_name: agent ? agent.displayName[language] : null,
      dropped_count: conversation.droppedCount,
    };
  }

  function toMessage(row: WhatsAppMessageRow, language: Language): WhatsAppMessage {
    return {
      id: row.id,
      sender: row.sender,
      text: row.error ? translate(language)(row.error) : row.text,
      timestamp: row.createdAt.toISOString(),
      ...(row.agentName ? { agentName: row.agentName } : {}),
    };
  }

  /** One of the caller's conversations; 404 for anyone else's, as for one that does not exist. */
  async function own({ user, id }: { user: User; id: string }): Promise<WhatsAppConversationRow> {
    const conversation = await repo.findConversation({ db, id });
    if (!conversation || conversation.userId !== user.id)
      throw new AppError(404, 'whatsappServer.conversationNotFound');
    return conversation;
  }

  async function summaryOf({
    user,
    id,
    language,
  }: {
    user: User;
    id: string;
    language: Language;
  }): Promise<WhatsAppConversation> {
    const [conversation] = await summaries({ userId: user.id, language, id });
    if (!conversation) throw new AppError(404, 'whatsappServer.conversationNotFound');
    return conversation;
  }

  /** A page of the account's conversations, newest activity first, and the cursor to the next one (null on the last). */
  async function listConversations({
    user,
    language,
    cursor,
    limit,
  }: {
    user: User;
    language: Language;
    cursor?: string;
    limit: number;
  }) {
    const after = cursor === undefined ? undefined : readConversationCursor(cursor);
    // One more than asked: whether there is a next page, without counting.
    const list = await summaries({ userId: user.id, language, after, limit: limit + 1 });
    const page = list.slice(0, limit);
    const last = page.at(-1);
    const nextCursor =
      list.length > limit && last
        ? conversationCursorOf({ updatedAt: new Date(last.updated_at), id: last.id })
        : null;
    return { data: page, nextCursor };
  }

  /**
   * A conversation with a page of its messages: the newest `limit` older than the cursor (the
   * newest of all without one), oldest first, and the cursor to the older ones (null once none
   * is left). Opening it reads them (unread 0, read receipts sent).
   */
  async function getConversation({
    user,
    id,
    language,
    cursor,
    limit,
  }: {
    user: User;
    id: string;
    language: Language;
    cursor?: string;
    limit: number;
  }): Promise<{ data: WhatsAppConversationDetail; nextCursor: string | null }> {
    const before = cursor === undefined ? undefined : readMessageCursor(cursor).seq;
    const conversation = await own({ user, id });
    if (conversation.unreadCount > 0) {
      await repo.updateConversation({ db, id, userId: user.id, set: { unreadCount: 0 } });
      const ids = await repo.recentContactIds({ db, conversationId: id, limit: READ_RECEIPTS });
      // Read receipts are a courtesy: not connected, none goes.
      await transport.markRead(user.id, conversation.contactJid, ids).catch(() => {});
    }
    const summary = await summaryOf({ user, id, language });
    const rows = await repo.listMessages({ db, conversationId: id, before, limit: limit + 1 });
    // Oldest first: one more than asked means an older page exists, and that one is not shown.
    const messages = rows.length > limit ? rows.slice(1) : rows;
    const nextCursor = rows.length > limit ? messageCursorOf({ seq: messages[0]!.seq }) : null;
    return {
      data: { ...summary, messages: messages.map((m) => toMessage(m, language)) },
      nextCursor,
    };
  }

  /**
   * The account's WhatsApp data for "Download my data": its number and every conversation with its
   * messages. Read only: nothing is marked read and no receipt goes out.
   */
  async function exportData({
    userId,
    language,
  }: {
    userId: string;
    language: Language;
  }): Promise<WhatsAppAccountExport> {
    const account = await repo.findAccount({ db, userId });
    const { conversations, messages } = await repo.listAccountData({ db, userId });
    const byConversation = new Map<string, WhatsAppMessage[]>();
    for (const row of messages) {
      const list = byConversation.get(row.conversationId) ?? [];
      list.push(toMessage(row, language));
      byConversation.set(row.conversationId, list);
    }
    return {
      phone: account?.phone ?? null,
      conversations: conversations.map((conversation) => ({
        id: conversation.id,
        contactName: conversation.contactName,
        contactNumber: conversation.contactNumber,
        aiEnabled: conversation.aiEnabled,
        isWhitelisted: conversation.isWhitelisted,
        createdAt: conversation.createdAt.toISOString(),
        updatedAt: conversation.updatedAt.toISOString(),
        messages: byConversation.get(conversation.id) ?? [],
      })),
    };
  }

  async function deleteConversation({ user, id }: { user: User; id: string }): Promise<void> {
    if (!(await repo.deleteConversation({ db, id, userId: user.id })))
      throw new AppError(404, 'whatsappServer.conversationNotFound');
    events.emit(user.id, 'whatsapp:conversation_deleted', { conversationId: id });
  }

  async function setAi({
    user,
    id,
    enabled,
    language,
  }: {
    user: User;
    id: string;
    enabled: boolean;
    language: Language;
  }) {
    if (
      !(await repo.updateConversation({ db, id, userId: user.id, set: { aiEnabled: enabled } }))
    ) {
      throw new AppError(404, 'whatsappServer.conversationNotFound');
    }
    events.emit(user.id, 'whatsapp:ai_toggled', { conversationId: id, enabled });
    return summaryOf({ user, id, language });
  }

  async function setWhitelisted({
    user,
    id,
    isWhitelisted,
    language,
  }: {
    user: User;
    id: string;
    isWhitelisted: boolean;
    language: Language;
  }) {
    if (!(await repo.updateConversation({ db, id, userId: user.id, set: { isWhitelisted } }))) {
      throw new AppError(404, 'whatsappServer.conversationNotFound');
    }
    events.emit(user.id, 'whatsapp:conversation_changed', { conversationId: id });
    return summaryOf({ user, id, language });
  }

  async function assignAgent({
    user,
    id,
    agentId,
    language,
  }: {
    user: User;
    id: string;
    agentId: string | null;
    language: Language;
  }) {
    await own({ user, id });
    if (agentId !== null) await assertAnswering({ user, agentId, field: 'agentId' });
    await repo.updateConversation({ db, id, userId: user.id, set: { agentId } });
    events.emit(user.id, 'whatsapp:conversation_changed', { conversationId: id });
    return summaryOf({ user, id, language });
  }

  /** Writes to the contact as the account; 409 when not connected (nothing is stored then). */
  async function sendMessage({
    user,
    id,
    text,
    language,
  }: {
    user: User;
    id: string;
    text: string;
    language: Language;
  }): Promise<WhatsAppMessage> {
    // Counted first, on every instance: a refused send costs no other work.
    await takeOrRetryLater(sendCounter, user.id, 'errors.tooManyRequests');
    const conversation = await own({ user, id });
    const account = await repo.findAccount({ db, userId: user.id });
    if (account?.state !== 'ready') throw new AppError(409, 'whatsappServer.notConnected');
    let sent: { id: string };
    try {
      sent = await transport.sendText(user.id, conversation.contactJid, text);
    } catch (error) {
      logger.warn({ err: error, conversationId: id }, 'whatsapp: message not sent');
      throw new AppError(409, 'whatsappServer.notConnected');
    }
    const stored = await repo.insertMessage({
      db,
      values: {
        conversationId: id,
        waId: sent.id,
        sender: 'user',
        text,
        agentName: null,
        error: null,
        createdAt: clock.now(),
      },
      unread: false,
    });
    if (!stored) throw new AppError(409, 'whatsappServer.notConnected');
    const message = toMessage(stored.message, language);
    events.emit(user.id, 'whatsapp:message_sent', { conversationId: id, message });
    return message;
  }

  /** The agents that may answer the caller's conversations: their hired, active agents. */
  async function availableAgents({
    user,
    language,
  }: {
    user: User;
    language: Language;
  }): Promise<WhatsAppAgent[]> {
    const hired = await agents.listHired({ user, language });
    return hired
      .filter((a) => a.isActive)
      .map((a) => ({
        id: a.id,
        name: a.name,
        displayName: a.displayName,
        description: a.description,
      }));
  }

  /** Refuses an agent that may not answer the caller's conversations, on the field that named it. */
  async function assertAnswering({
    user,
    agentId,
    field,
  }: {
    user: User;
    agentId: string;
    field: 'agentId' | 'defaultAgentId';
  }) {
    const available = await availableAgents({ user, language: DEFAULT_LANGUAGE });
    if (!available.some((a) => a.id === agentId))
      throw new AppError(400, 'whatsappServer.agentNotAvailable', { field });
  }

  async function updateSettings({
    user,
    whitelistMode,
    defaultAgentId,
  }: {
    user: User;
    whitelistMode?: boolean;
    defaultAgentId?: string;
  }) {
    if (defaultAgentId !== undefined)
      await assertAnswering({ user, agentId: defaultAgentId, field: 'defaultAgentId' });
    await repo.ensureAccount({ db, userId: user.id, now: clock.now() });
    await repo.updateAccount({
      db,
      userId: user.id,
      set: {
        ...(whitelistMode === undefined ? {} : { whitelistMode }),
        ...(defaultAgentId === undefined ? {} : { defaultAgentId }),
        updatedAt: clock.now(),
      },
    });
    const current = await status({ userId: user.id });
    events.emit(user.id, 'whatsapp:settings_changed', { whitelistMode: current.whitelistMode });
    return current;
  }

  return {
    /** The transport it was made with (whatever carries WhatsApp: Baileys or the sandbox). */
    transport,
    status,
    connect,
    disconnect,
    resume,
    connectionCounts,
    reconnectBroken,
    close,
    handleTransportEvent,
    listConversations,
    getConversation,
    deleteConversation,
    exportData,
    setAi,
    setWhitelisted,
    assignAgent,
    sendMessage,
    availableAgents,
    updateSettings,
    releaseAgent,
  };
}

/**
 * blocked: the contact wrote too fast and its block has not ended; pending: whitelist mode is on
 * and the contact is not on it; otherwise active. Only an active conversation is answered.
 */
function statusOf(
  account: Pick<WhatsAppAccountRow, 'whitelistMode'> | undefined,
  conversation: WhatsAppConversationRow,
  now: Date,
): 'active' | 'blocked' | 'pending' {
  if (isBlocked(conversation, now)) return 'blocked';
  return account?.whitelistMode && !conversation.isWhitelisted ? 'pending' : 'active';
}

/** Whether the contact's block for writing too fast has yet to end. */
function isBlocked(conversation: WhatsAppConversationRow, now: Date): boolean {
  return conversation.blockedUntil !== null && conversation.blockedUntil > now;
}

/** The phone number's digits of a phone JID (`5511…@s.whatsapp.net`, a device suffix dropped); '' for others. */
function numberOf(jid: string): string {
  return PHONE_JID.exec(jid)?.[1] ?? '';
}
