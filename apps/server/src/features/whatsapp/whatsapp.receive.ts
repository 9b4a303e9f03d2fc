import { RateLimiterRes } from 'rate-limiter-flexible';
import type { JobSlot } from '@/lib/jobs';
import { isBlocked, type WhatsAppContext } from './whatsapp.deps';
import { askReply, REPLY_CONTEXT_MESSAGES, type ReplyJob } from './whatsapp.reply';
import { pauseFor } from './whatsapp.takeover';
import * as repo from './whatsapp.repository';
import { contactJidOf, learnLidMapping } from './whatsapp.lid';
import { emitNewMessage } from './whatsapp.summaries';
import type { KeptMedia } from './whatsapp.media';
import type { WhatsAppConversationRow } from './whatsapp.table';
import type { InboundMessage } from './transports/transport';

/**
 * A blocked contact's messages stored per day (a rolling 24 h): past them a flood is counted on
 * the conversation (`dropped_count`), not stored; one stranger's made a conversation of 18 MB.
 */
export const BLOCKED_DAILY_MESSAGES = 100;

/** Chats whose messages are a person writing to the account: not groups, statuses, broadcasts or channels. */
const DIRECT_CHAT = /@(s\.whatsapp\.net|lid|c\.us)$/;
const PHONE_JID = /^(\d+)(?::\d+)?@(s\.whatsapp\.net|c\.us)$/;

export type ReceiveDeps = Pick<
  WhatsAppContext,
  | 'db'
  | 'clock'
  | 'agents'
  | 'state'
  | 'events'
  | 'translate'
  | 'logger'
  | 'jobs'
  | 'contactLimit'
  | 'contactCounter'
  | 'blockedDayCounter'
  | 'replyQueue'
  | 'takeoverMinutes'
  | 'pacing'
  | 'media'
>;

/**
 * What becomes of a contact's message once stored: `answer`, its conversation's reply is sent for
 * (the reply answers every message of the contact since the last answer); `later`, stored only,
 * a later message of the same delivery carries the reply; `unanswered`, stored, shown as not
 * answered and never answered (it waited too long for the number).
 */
export type ReceiveMode = 'answer' | 'later' | 'unanswered';

/**
 * A message that reached the account's number: a person's direct message is stored once (by
 * WhatsApp's id), counted unread, shown to the owner and answered when its conversation allows
 * (and `mode` says so). What the owner wrote from the phone is stored as theirs and never
 * answered. Groups, statuses, broadcasts, channels, protocol messages and messages without text
 * are left alone.
 */
export async function receive(
  deps: ReceiveDeps,
  userId: string,
  message: InboundMessage,
  mode: ReceiveMode = 'answer',
  { caughtUp = false }: { caughtUp?: boolean } = {},
): Promise<void> {
  if (!isStorable(message)) return;
  if (!message.fromMe && (await floodedWhileBlocked(deps, userId, message))) return;
  // Fetched before the statement that stores the message: no job room is held while it comes.
  const kept = message.media ? await deps.media.keep(userId, message.media) : undefined;
  try {
    // The reply's job goes in the statement that stores the message, when it can (see jobs.within).
    const stored = await deps.jobs.within(deps.replyQueue, (replyJob) =>
      receiveWith(deps, userId, message, mode, replyJob, caughtUp, kept),
    );
    // The same message again: the file kept is the first one's.
    if (!stored && kept?.file) await deps.media.remove(userId, [kept.file]);
  } catch (error) {
    if (kept?.file) await deps.media.remove(userId, [kept.file]);
    throw error;
  }
}

/**
 * Whether `message` carries text or media a person sent in a direct chat: the only messages
 * stored (see `receive`).
 */
export function isStorable(message: InboundMessage): boolean {
  return (
    !message.protocol &&
    (Boolean(message.text?.trim()) || message.media !== undefined) &&
    DIRECT_CHAT.test(message.remoteJid) &&
    (!message.remoteJidAlt || DIRECT_CHAT.test(message.remoteJidAlt))
  );
}

/** Stores and answers a message (see `receive`): whether it was stored (not the same one again). */
async function receiveWith(
  deps: ReceiveDeps,
  userId: string,
  message: InboundMessage,
  mode: ReceiveMode,
  replyJob: JobSlot<ReplyJob>,
  /** Handed over on connect (a catch-up): written over the time the number was away, not now. */
  caughtUp: boolean,
  /** Its media, as kept. */
  kept: KeptMedia | undefined,
): Promise<boolean> {
  const { db, clock, logger, contactLimit, contactCounter } = deps;
  const answer = !message.fromMe && mode === 'answer';
  // A burst is answered once, after its last message: the reply waits in the database for the
  // contact to stop (each message pushes it later), so it is never made at once in the statement.
  const { debounceMs } = deps.pacing;
  const { conversation, stored, context } = await storeContactMessage(
    deps,
    userId,
    message,
    answer && debounceMs === 0 ? replyJob : undefined,
    !message.fromMe && mode === 'unanswered',
    kept,
  );
  if (!stored) return false; // the same message again
  // A block is the whole penalty: what comes during it is kept but not counted, and the count
  // starts afresh once it ends. A catch-up's messages are not counted: they were written over
  // the time the number was away, and a busy contact's backlog is no flood.
  const now = clock.now();
  let current = stored.conversation;
  // What the reply reads first, read with the message: unless the block below changes it.
  let prefetched = context;
  if (
    !message.fromMe &&
    !caughtUp &&
    !isBlocked(conversation, now) &&
    (await wroteTooFast(deps, conversation))
  ) {
    const blockedUntil = new Date(now.getTime() + contactLimit.blockSeconds * 1000);
    current = (await repo.blockConversation({
      db,
      id: conversation.id,
      userId,
      set: { blockedUntil },
    })) ?? { ...current, blockedUntil };
    prefetched = undefined;
    await markBlocked(deps, userId, current, blockedUntil);
    await contactCounter.delete(conversation.id).catch(() => {});
    logger.warn(
      { conversationId: conversation.id },
      'whatsapp: a contact wrote too fast and is blocked for a while',
    );
  }
  // The owner wrote to the contact from the phone (not a message this server sent: that one is
  // stored already, so it is not stored again): a person took over, and the agent pauses.
  if (message.fromMe) current = await pauseFor(deps, userId, current, message.timestamp);
  // A Sync Agent or relay chat is not the number owner's to see.
  if (repo.isOwnersOwn(current))
    await emitNewMessage(deps, userId, { ...stored, conversation: current });
  // Sent before the message counts as handled: once stored, it is answered even if this process
  // stops now.
  if (answer) {
    if (debounceMs > 0) await askReply(deps, userId, conversation.id);
    else
      await replyJob.send(
        { userId, conversationId: conversation.id },
        { key: conversation.id, prefetched },
      );
  }
  return true;
}

/** The shared-state key under which a blocked contact's JID is known before its message is stored. */
const blockedKey = (userId: string, jid: string) => `whatsapp-blocked:${userId}\n${jid}`;

/** A block lifted by the owner is lifted on every instance too: the contact's next messages are weighed as anyone's. */
export async function clearBlocked(
  { state }: Pick<WhatsAppContext, 'state'>,
  userId: string,
  conversation: WhatsAppConversationRow,
) {
  for (const jid of [conversation.contactJid, conversation.contactAltJid]) {
    if (jid) await state.deleteValue(blockedKey(userId, jid)).catch(() => {});
  }
}

/** A block is told to every instance by the contact's JIDs, so that its next messages are weighed before any is stored. */
async function markBlocked(
  { clock, state }: Pick<WhatsAppContext, 'clock' | 'state'>,
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
async function floodedWhileBlocked(
  {
    db,
    clock,
    state,
    events,
    logger,
    blockedDayCounter,
  }: Pick<WhatsAppContext, 'db' | 'clock' | 'state' | 'events' | 'logger' | 'blockedDayCounter'>,
  userId: string,
  message: InboundMessage,
): Promise<boolean> {
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
async function wroteTooFast(
  { logger, contactCounter }: Pick<WhatsAppContext, 'logger' | 'contactCounter'>,
  conversation: WhatsAppConversationRow,
): Promise<boolean> {
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
 * or phone JID, the other address carried by the message or known from a mapping), made the
 * first time: the conversation (as it was before the message, for its block), and the message
 * stored, undefined for the same message again. What WhatsApp tells of the contact anew (its
 * other JID, number, name) is kept; a pair of addresses learned this way is kept as a mapping,
 * and merges the contact's conversations when it had two.
 */
async function storeContactMessage(
  deps: Pick<
    WhatsAppContext,
    'db' | 'clock' | 'events' | 'logger' | 'jobs' | 'replyQueue' | 'pacing' | 'contactCounter'
  >,
  userId: string,
  message: InboundMessage,
  reply: JobSlot<ReplyJob> | undefined,
  unanswered: boolean,
  kept: KeptMedia | undefined,
): Promise<{
  conversation: WhatsAppConversationRow;
  stored: repo.StoredMessage | undefined;
  /** With `reply`, for a known contact whose conversation nothing else changed: its reply's context. */
  context?: repo.ReplyContext;
}> {
  const { db, clock } = deps;
  const jids: [string] | [string, string] = message.remoteJidAlt
    ? [message.remoteJid, message.remoteJidAlt]
    : [message.remoteJid];
  const values = {
    waId: message.id,
    sender: message.fromMe ? ('user' as const) : ('contact' as const),
    // A file's caption is its text; a file without one has none.
    text: message.text ?? '',
    unanswered,
    media: kept?.media ?? null,
    mediaFile: kept?.file ?? null,
    createdAt: message.timestamp,
  };
  const unread = !message.fromMe;
  const pushName = (!message.fromMe && message.pushName?.trim()) || '';
  const known = await repo.insertContactMessage({
    db,
    userId,
    jids,
    values,
    unread,
    reply,
    now: clock.now(),
    contextLimit: REPLY_CONTEXT_MESSAGES,
  });
  if (!known) {
    const other =
      message.remoteJidAlt ??
      (await repo.findMappedJid({ db, userId, jid: contactJidOf(message.remoteJid)?.jid ?? '' }));
    const now = clock.now();
    const number = numberOf(message.remoteJid) || (other ? numberOf(other) : '');
    const conversation = await repo.insertConversation({
      db,
      values: {
        userId,
        contactJid: message.remoteJid,
        contactAltJid: other ?? null,
        // Without a name, the number; without either (a LID alone: its digits are no phone
        // number), none: the page says the contact's number is hidden until it is known.
        contactName: pushName || number,
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
    if (!other) return { conversation, stored };
    // Made while another conversation of the contact was being made by its other address (two
    // messages at once, one by each): the contact's conversations become one.
    const merged = await learnLidMapping(deps, userId, message.remoteJid, other);
    if (!merged || merged.id === conversation.id) return { conversation, stored };
    return {
      conversation: merged,
      stored: stored && {
        ...stored,
        message: { ...stored.message, conversationId: merged.id },
        conversation: merged,
      },
    };
  }
  const { found, stored, mapped, context } = known;
  const other = message.remoteJidAlt ?? mapped;
  const addresses = [found.contactJid, found.contactAltJid];
  if (
    other &&
    (!addresses.includes(other) ||
      !addresses.includes(message.remoteJid) ||
      (message.remoteJidAlt && mapped !== contactJidOf(message.remoteJidAlt)?.jid))
  ) {
    // Something new of the contact's addresses: kept, and the contact's conversations made one.
    const learned = await learnLidMapping(deps, userId, message.remoteJid, other);
    if (learned) {
      const current =
        pushName && pushName !== learned.contactName
          ? ((await repo.updateConversation({
              db,
              id: learned.id,
              userId,
              set: { contactName: pushName },
            })) ?? learned)
          : learned;
      return {
        conversation: found.id === learned.id ? found : learned,
        stored: stored && {
          ...stored,
          message: { ...stored.message, conversationId: learned.id },
          conversation: current,
        },
      };
    }
  }
  const set: Parameters<typeof repo.updateConversation>[0]['set'] = {};
  const number = numberOf(message.remoteJid) || (other ? numberOf(other) : '');
  if (!found.contactNumber && number) set.contactNumber = number;
  if (pushName && pushName !== found.contactName) set.contactName = pushName;
  if (Object.keys(set).length === 0) return { conversation: found, stored, context };
  const updated = await repo.updateConversation({ db, id: found.id, userId, set });
  return {
    conversation: found,
    stored: stored && updated ? { ...stored, conversation: updated } : stored,
  };
}

/** The phone number's digits of a phone JID (`5511…@s.whatsapp.net`, a device suffix dropped); '' for others. */
function numberOf(jid: string): string {
  return PHONE_JID.exec(jid)?.[1] ?? '';
}
