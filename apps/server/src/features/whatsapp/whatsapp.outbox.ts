import { randomUUID } from 'node:crypto';
import { RateLimiterRes } from 'rate-limiter-flexible';
import type { Language, WhatsAppDeliveryStatus } from '@contrateia/shared';
import { defineQueue, type Job, type JobCompletion } from '@/lib/jobs';
import type { WhatsAppContext } from './whatsapp.deps';
import { DEFAULT_LANGUAGE, typingWaitMs } from './whatsapp.deps';
import * as repo from './whatsapp.repository';
import { isPaused } from './whatsapp.takeover';
import type { OutgoingJob } from './whatsapp.repository';
import type { KeptMedia, StoredMedia } from './whatsapp.media';
import type { WhatsAppConversationRow, WhatsAppMessageRow } from './whatsapp.table';
import type { OutgoingMedia } from './transports/transport';

export type { OutgoingJob } from './whatsapp.repository';

/**
 * The outbox: every message the account sends (an agent's reply, the owner's from the web) is
 * stored first, `pending`, with a send job in the same statement, and a job sends it. The jobs
 * are keyed by the conversation: one runs at a time per conversation on every instance, and each
 * sends the conversation's oldest pending message, so that its messages go out in the order they
 * were stored; one that finds another pending after it sends a job for it. A message is sent with
 * an id made from ours, so that a try after one cut short between the send and its mark is the
 * same message to WhatsApp, never a second one.
 *
 * Pacing (see `Pacing`): an agent's message is "typed" first (the contact sees typing, and its job
 * comes back after the typing wait, which lives in the database as the job's start), and every
 * send of the number takes one of its sends per minute, counted in the shared state: over them,
 * the job comes back when the count allows, never dropped and never in a burst.
 */
export const SEND_QUEUE_NAME = 'whatsapp-send';

/** Tries of a send in all: then the message shows as failed, with why, and a Retry. */
export const SEND_TRIES = 5;

export const sendQueue = defineQueue<OutgoingJob>({
  name: SEND_QUEUE_NAME,
  tries: SEND_TRIES,
  retryDelaySeconds: 2,
  expireSeconds: 60,
  concurrency: 100,
  pollMs: 1000,
});

/** What came of a send job: kept with it (`{ outcome }`); `deferred`, a job for later was sent. */
export type SendOutcome = 'sent' | 'failed' | 'skipped' | 'deferred';

/** WhatsApp's id of our message `id`: shaped like the ids WhatsApp Web makes (`3EB0…`, upper-case hex). */
export function outgoingWaId(id: string): string {
  return `3EB0${id.replace(/-/g, '').toUpperCase()}`;
}

/**
 * Why a send failed, as kept with the message: WhatsApp's error code when it gave one (`463`),
 * `not-open` when the number was not connected, else `unknown`.
 */
export function sendErrorOf(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = /\berror (\d{3,4})\b/i.exec(message)?.[1];
  if (code) return code;
  if (/not (connected|open)|connection closed/i.test(message)) return 'not-open';
  return 'unknown';
}

/** Why an agent's reply was not sent: the owner blocked the contact or turned AI off after it was made. */
const WITHHELD = 'withheld';
/** Why an agent's reply was not sent: the owner wrote to the contact (took over) after it was made. */
const TAKEN_OVER = 'taken-over';
/** Why a file was not sent: it is no longer kept (past WHATSAPP_MEDIA_RETENTION_DAYS before a Retry). */
const FILE_GONE = 'file-gone';

/** A failure's reason in `language`. */
export function sendErrorText(
  { translate }: Pick<WhatsAppContext, 'translate'>,
  reason: string,
  language: Language,
): string {
  const t = translate(language);
  if (reason === '463') return t('whatsappServer.sendError.463');
  if (reason === 'not-open') return t('whatsappServer.sendError.notOpen');
  if (reason === WITHHELD) return t('whatsappServer.sendError.withheld');
  if (reason === TAKEN_OVER) return t('whatsappServer.sendError.takenOver');
  if (reason === FILE_GONE) return t('whatsappServer.sendError.fileGone');
  if (/^\d+$/.test(reason)) return t('whatsappServer.sendError.code', { code: reason });
  return t('whatsappServer.sendError.unknown');
}

/** What a send job's try reads first: the message it sends, as `nextPending` answers it. */
type Pending = NonNullable<Awaited<ReturnType<typeof repo.nextPending>>>;

/**
 * Stores the outgoing `text` of the conversation `pending`, with its send job (and, with `job`,
 * marking that job done: the reply job that wrote it), in one statement; `then` runs on the
 * stored message before the send job starts (the page hears of the message before its ticks).
 * With `answerable` (an agent's reply), nothing is stored unless the owner still lets the agent
 * answer (see `repo.insertMessage`): `then` gets undefined, and `job` is done as held.
 */
export async function storeOutgoing<T>(
  deps: Pick<WhatsAppContext, 'db' | 'jobs'>,
  {
    id = randomUUID(),
    conversationId,
    text,
    following = [],
    agentName,
    createdAt,
    answerable,
    job,
    media,
  }: {
    /** Its id, when made from what it is for (it is then stored once, whoever stores it again). */
    id?: string;
    conversationId: string;
    /** The text, or the caption of `media`. */
    text: string;
    /** Texts stored after it in the same statement, each a message: a long reply's other parts. */
    following?: string[];
    agentName: string | null;
    createdAt: Date;
    answerable?: boolean;
    /** The job whose work the messages end, marked done in their statement (with the last one's id). */
    job?: (messageId: string) => JobCompletion;
    /** The owner's file it carries, stored already (see whatsapp.send.ts). */
    media?: Required<KeptMedia>;
  },
  then: (stored: Awaited<ReturnType<typeof repo.insertMessage>>) => T | Promise<T>,
): Promise<T> {
  const { db, jobs } = deps;
  const more = following.map((part) => {
    const partId = randomUUID();
    return { id: partId, waId: outgoingWaId(partId), text: part };
  });
  return jobs.within(sendQueue, async (slot) => {
    const stored = await repo.insertMessage({
      db,
      following: more,
      values: {
        id,
        conversationId,
        waId: outgoingWaId(id),
        sender: 'user',
        text,
        agentName,
        error: null,
        status: 'pending',
        createdAt,
        ...(media ? { media: media.media, mediaFile: media.file } : {}),
      },
      unread: false,
      answerable,
      job: job?.(more.at(-1)?.id ?? id),
      send: slot,
    });
    const result = await then(stored);
    if (stored) {
      const { userId } = stored.conversation;
      // The send job starting here now needs not read again what the statement read: the message
      // goes first unless one stored before it is still pending.
      const prefetched: Pending | undefined = stored.pendingBefore
        ? undefined
        : {
            message: stored.messages[0]!,
            conversation: stored.conversation,
            answered: stored.answered,
            more: stored.messages.length > 1,
          };
      await slot.send(
        { userId, conversationId, messageId: id },
        { key: conversationId, prefetched },
      );
    }
    return result;
  });
}

/** Tells the owner's pages that messages moved on. */
function emitStatus(
  deps: Pick<WhatsAppContext, 'events' | 'translate'>,
  userId: string,
  moved: { id: string; conversationId: string }[],
  status: WhatsAppDeliveryStatus,
  reason?: string | null,
) {
  for (const { id, conversationId } of moved)
    deps.events.emit(userId, 'whatsapp:message_status', {
      conversationId,
      messageId: id,
      status,
      ...(status === 'failed' && reason
        ? { error: sendErrorText(deps, reason, DEFAULT_LANGUAGE) }
        : {}),
    });
}

/** The shared-state key under which the end of a message's typing wait is kept. */
const typedKey = (messageId: string) => `whatsapp-typing:${messageId}`;

type SendDeps = Pick<
  WhatsAppContext,
  | 'db'
  | 'clock'
  | 'events'
  | 'translate'
  | 'logger'
  | 'transport'
  | 'jobs'
  | 'state'
  | 'pacing'
  | 'numberSendCounter'
  | 'media'
>;

/**
 * A send job's try: sends the conversation's oldest pending message (its own, or one stored
 * before it), after its typing wait and within the number's rate (else the job comes back later),
 * then marks it `sent`; the contact's messages an agent's reply answers are marked read. A failure
 * is kept with the message (why) and tried again; after the last try the message is `failed`.
 * Another message pending after it gets its job.
 */
export async function sendOutgoing(
  deps: SendDeps,
  {
    data,
    lastAttempt,
    signal,
    prefetched,
    completeWithin,
  }: Pick<Job<OutgoingJob>, 'data' | 'lastAttempt' | 'signal' | 'prefetched' | 'completeWithin'>,
): Promise<SendOutcome> {
  const { db, jobs } = deps;
  const { userId, conversationId } = data;
  // Read by the statement that stored the message and inserted this job (see storeOutgoing).
  const next =
    (prefetched as Pending | undefined) ?? (await repo.nextPending({ db, conversationId }));
  if (!next || next.conversation.userId !== userId) return 'skipped';
  const messageId = next.message.id;
  // With no message after it, the send's last write ends the job too.
  const complete = next.more ? undefined : completeWithin;
  const outcome = await sendOne(deps, { ...data, messageId }, next, {
    lastAttempt,
    signal,
    complete,
  });
  // The next one waits for this one: sent, failed for good, or withheld (a try that throws comes
  // back itself, and sends this one first).
  if (next.more && outcome !== 'deferred')
    await jobs.send(sendQueue, { userId, conversationId, messageId }, { key: conversationId });
  return outcome;
}

/** Comes back to the conversation's sends in `ms`: a job that waits in the database. */
async function later(
  { jobs }: Pick<WhatsAppContext, 'jobs'>,
  data: OutgoingJob,
  ms: number,
): Promise<'deferred'> {
  await jobs.send(sendQueue, data, { key: data.conversationId, startAfterMs: Math.max(1, ms) });
  return 'deferred';
}

/** The typing wait of an agent's message not yet over: how long is left (and typing is shown). */
async function typingLeft(
  deps: Pick<WhatsAppContext, 'state' | 'transport' | 'pacing'>,
  userId: string,
  jid: string,
  message: { id: string; text: string },
): Promise<number> {
  const wait = typingWaitMs(deps.pacing, message.text);
  if (wait === 0) return 0;
  const now = Date.now();
  const due = Number(await deps.state.getValue(typedKey(message.id)).catch(() => undefined));
  if (due > 0) return Math.max(0, due - now);
  // Kept a while past its end: a try that comes back after a failure does not type again.
  await deps.state.setValue(typedKey(message.id), String(now + wait), wait + 10 * 60_000);
  await deps.transport.sendPresence(userId, jid, 'composing').catch(() => {});
  return wait;
}

/** Takes one of the number's sends of this minute; else how long until one is free. */
async function sendTurn(
  { logger, numberSendCounter }: Pick<WhatsAppContext, 'logger' | 'numberSendCounter'>,
  userId: string,
): Promise<number> {
  try {
    await numberSendCounter.consume(userId);
    return 0;
  } catch (error) {
    if (error instanceof RateLimiterRes) return Math.max(1, error.msBeforeNext);
    // A guard, not a gate: a store that cannot count lets the message go.
    logger.error({ err: error }, "whatsapp: could not count a number's send");
    return 0;
  }
}

/** Sends `message`, pending, of the conversation as it was read with it (see sendOutgoing). */
async function sendOne(
  deps: SendDeps,
  data: OutgoingJob,
  {
    message,
    conversation,
    answered,
  }: {
    message: WhatsAppMessageRow;
    conversation: WhatsAppConversationRow;
    /** WhatsApp's ids of the contact's messages it answers. */
    answered: string[];
  },
  {
    lastAttempt,
    signal,
    complete,
  }: Pick<Job<OutgoingJob>, 'lastAttempt' | 'signal'> & {
    /** The job's `completeWithin`, when marking the message sent ends the job. */
    complete?: Job<OutgoingJob>['completeWithin'];
  },
): Promise<SendOutcome> {
  const { db, logger, transport } = deps;
  const { userId, messageId } = data;
  // The owner's word, as it is now: an agent's reply is never sent to a contact the owner blocked,
  // with AI turned off, or that the owner wrote to (took over) since it was made (however long its
  // tries took). It stays in the conversation as not sent, and why: the owner sees what the agent
  // had prepared, and that the contact never got it (so their own answer stands alone).
  const withheld =
    message.agentName === null
      ? undefined
      : conversation.blockedByOwner || !conversation.aiEnabled
        ? WITHHELD
        : isPaused(conversation, deps.clock.now())
          ? TAKEN_OVER
          : undefined;
  if (withheld)
    await deps.transport.sendPresence(userId, conversation.contactJid, 'paused').catch(() => {});
  // A file no longer kept cannot be sent, however many tries.
  const unsendable = withheld ?? (message.media && !message.mediaFile ? FILE_GONE : undefined);
  if (unsendable) {
    const moved = await repo.moveStatus({
      db,
      userId,
      id: messageId,
      status: 'failed',
      sendError: unsendable,
    });
    emitStatus(deps, userId, moved, 'failed', unsendable);
    return 'failed';
  }
  if (message.agentName !== null) {
    const left = await typingLeft(deps, userId, conversation.contactJid, message);
    if (left > 0) return later(deps, data, left);
  }
  const wait = await sendTurn(deps, userId);
  if (wait > 0) return later(deps, data, wait);
  try {
    signal.throwIfAborted();
    const id = message.waId ?? outgoingWaId(message.id);
    if (message.media && message.mediaFile)
      await transport.sendMedia(
        userId,
        conversation.contactJid,
        outgoingMediaOf(deps, userId, message, message.media, message.mediaFile),
        { id },
      );
    else
      await transport.sendText(userId, conversation.contactJid, message.text, {
        id,
        // The agent answered them: the contact sees them read (after the answer, as a person would).
        read: message.agentName !== null ? answered : undefined,
      });
  } catch (error) {
    const reason = sendErrorOf(error);
    logger.warn({ err: error, messageId, lastAttempt }, 'whatsapp: message not sent');
    if (!lastAttempt) {
      await repo.noteSendError({ db, id: messageId, sendError: reason });
      throw error;
    }
    const moved = await repo.moveStatus({
      db,
      userId,
      id: messageId,
      status: 'failed',
      sendError: reason,
    });
    emitStatus(deps, userId, moved, 'failed', reason);
    return 'failed';
  }
  const moved = complete
    ? await repo.markSent({ db, userId, id: messageId, job: complete({ outcome: 'sent' }) })
    : await repo.moveStatus({ db, userId, id: messageId, status: 'sent' });
  emitStatus(deps, userId, moved, 'sent');
  return 'sent';
}

/** The owner's file of `message` as the transport sends it: read from where it is kept. */
function outgoingMediaOf(
  { media }: Pick<WhatsAppContext, 'media'>,
  userId: string,
  message: WhatsAppMessageRow,
  stored: StoredMedia,
  file: string,
): OutgoingMedia {
  const kind = stored.kind === 'image' ? 'image' : 'document';
  return {
    kind,
    path: media.pathOf(userId, file),
    mimetype: stored.mimetype ?? 'application/octet-stream',
    size: stored.size ?? 0,
    ...(kind === 'document' && stored.fileName ? { fileName: stored.fileName } : {}),
    ...(message.text ? { caption: message.text } : {}),
  };
}

/** What WhatsApp said of messages the account sent: receipts (delivered, read) or a refusal. */
export async function applyReceipts(
  deps: Pick<WhatsAppContext, 'db' | 'events' | 'translate'>,
  userId: string,
  {
    ids,
    status,
    reason,
  }: { ids: string[]; status: 'sent' | 'delivered' | 'read' | 'failed'; reason?: string },
) {
  if (ids.length === 0) return;
  const moved = await repo.moveStatus({
    db: deps.db,
    userId,
    waIds: ids,
    status,
    sendError: reason ?? null,
  });
  emitStatus(deps, userId, moved, status, reason);
}

/**
 * The owner's Retry of a failed message: `pending` again, with a send job of its own; undefined
 * when the conversation has no failed outgoing message of that id.
 */
export async function retryOutgoing(
  deps: Pick<WhatsAppContext, 'db' | 'jobs' | 'events' | 'translate'>,
  { userId, conversationId, id }: { userId: string; conversationId: string; id: string },
): Promise<WhatsAppMessageRow | undefined> {
  const { db, jobs } = deps;
  return jobs.within(sendQueue, async (slot) => {
    const retried = await repo.retryFailed({ db, userId, conversationId, id, send: slot });
    if (!retried) return undefined;
    emitStatus(deps, userId, [{ id, conversationId }], 'pending');
    await slot.send({ userId, conversationId, messageId: id }, { key: conversationId });
    return retried;
  });
}
