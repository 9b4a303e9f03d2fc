import type { Language } from '@contrateia/shared';
import type { ReplySkill } from '@/features/chat/chat.service';
import type { WhatsAppContext } from './whatsapp.deps';
import { storeOutgoing } from './whatsapp.outbox';
import { platformNumber } from './whatsapp.platform';
import { moderate, modelRefusal } from './whatsapp.relay-moderation';
import {
  BUTTON_WORD,
  masked,
  NO,
  quote,
  recipientLanguage,
  recipientOf,
  sendRequestOf,
  YES,
  type Recipient,
} from './whatsapp.relay-text';
import * as relayRepo from './whatsapp.relay.repository';
import * as repo from './whatsapp.repository';
import type { RelayRow } from './whatsapp.table';

// indirect's relays: a user asks indirect (in its web chat) to send a text to a phone number; it
// shows exactly what will go and to whom, and only on the user's yes queues it in the outbox of
// the platform's number (see whatsapp.platform.ts), with a notice that it is an anonymous message
// that can be answered and stopped. Never the sender's name, e-mail or number. The recipient's
// replies come back to the sender's chat, one conversation per (sender, recipient); STOP opts
// the number out of every relay, from everyone, for good. The limits make abuse costly; each
// refusal is said in the chat, and the admin's logs count them, never with the text.

/** How many relays, new recipients and senders to one number a day (24 hours) allows. */
export const RELAY_LIMITS = { perDay: 10, newRecipientsPerDay: 3, sendersPerRecipientPerDay: 3 };
/** The longest text relayed. */
export const RELAY_TEXT_MAX = 1000;
/** How long a relay shown waits for the sender's yes. */
const CONFIRM_WINDOW_MS = 10 * 60 * 1000;
const DAY_MS = 24 * 60 * 60 * 1000;
/** The agent a relay is sent as, and whose skill this is. */
export const RELAY_AGENT = 'indirect';
export const RELAY_SKILL = 'delivery';

/** What the recipient gets: the text, then the notice in their language. */
function relayedText(deps: Pick<WhatsAppContext, 'translate'>, text: string, to: Recipient) {
  return `${text}\n\n${deps.translate(recipientLanguage(to.country))('whatsappServer.relay.notice')}`;
}

export type RelayDeps = Pick<
  WhatsAppContext,
  | 'db'
  | 'clock'
  | 'jobs'
  | 'translate'
  | 'platformAccount'
  | 'eventLog'
  | 'events'
  | 'chat'
  | 'engine'
>;

type Refusal = { key: string; values?: Record<string, string | number>; reason: string };

const UNAVAILABLE: Refusal = { key: 'unavailable', reason: 'unavailable' };

/** What the text itself may not be: too long, or flagged by the builtin moderation. */
function textRefusal(text: string): Refusal | undefined {
  if (text.length > RELAY_TEXT_MAX)
    return { key: 'tooLong', values: { max: RELAY_TEXT_MAX }, reason: 'tooLong' };
  const flagged = moderate(text);
  return flagged ? { key: `refused.${flagged}`, reason: flagged } : undefined;
}

/**
 * What stops a relay from `senderId` to `to` now, in `conversationId`: the number opted out, the
 * sender's thread with it is another conversation, or a limit. Read when the relay is shown, and
 * again on the yes, in the transaction that holds the sender's and the number's locks.
 */
async function sendRefusal(
  db: relayRepo.RelayDb,
  {
    senderId,
    to,
    conversationId,
    now,
  }: { senderId: string; to: Recipient; conversationId: string; now: Date },
): Promise<Refusal | undefined> {
  if (await relayRepo.isOptedOut({ db, recipient: to.digits }))
    return { key: 'optedOutRefused', reason: 'optedOut' };
  const thread = await relayRepo.findThread({ db, senderId, recipient: to.digits });
  if (thread && thread.conversationId !== conversationId)
    return { key: 'threadElsewhere', values: { number: to.shown }, reason: 'threadElsewhere' };
  const counts = await relayRepo.relayCounts({
    db,
    senderId,
    recipient: to.digits,
    since: new Date(now.getTime() - DAY_MS),
  });
  return limitRefusal(counts, !thread);
}

/** The language model's word on `text`, as a refusal (see modelRefusal). */
async function modelRefused(deps: RelayDeps, text: string): Promise<Refusal | undefined> {
  const flagged = await modelRefusal(deps.engine, text);
  return flagged ? { key: `refused.${flagged}`, reason: flagged } : undefined;
}

/** Which limit the day's counts reach, if one (a new recipient counts against the new numbers). */
function limitRefusal(
  counts: Awaited<ReturnType<typeof relayRepo.relayCounts>>,
  isNewRecipient: boolean,
): Refusal | undefined {
  if (counts.sent >= RELAY_LIMITS.perDay)
    return { key: 'dayLimit', values: { limit: RELAY_LIMITS.perDay }, reason: 'dayLimit' };
  if (isNewRecipient && counts.newRecipients >= RELAY_LIMITS.newRecipientsPerDay)
    return {
      key: 'newRecipients',
      values: { limit: RELAY_LIMITS.newRecipientsPerDay },
      reason: 'newRecipients',
    };
  if (counts.otherSenders >= RELAY_LIMITS.sendersPerRecipientPerDay)
    return { key: 'recipientBusy', reason: 'recipientBusy' };
  return undefined;
}

function logRefusal(deps: RelayDeps, senderId: string, to: Recipient, reason: string) {
  deps.eventLog.record({
    level: 'warn',
    category: 'whatsapp',
    event: 'relay.refused',
    message: `indirect refused a relay (${reason})`,
    userId: senderId,
    context: { reason, recipient: masked(to), country: to.country ?? null },
  });
}

/** indirect's skill in its web chat (see ReplySkill): sending, confirming and refusing relays. */
export function relaySkill(deps: RelayDeps): ReplySkill {
  return async ({ user, conversationId, isNew, message, language }) => {
    const { db, clock } = deps;
    const t = deps.translate(language);
    const say = (key: string, values?: Record<string, string | number>) => ({
      text: t(`whatsappServer.relay.${key}`, values),
    });
    const trimmed = message.trim();
    const thread = isNew ? undefined : await relayRepo.findThreadOf({ db, conversationId });
    const pending = isNew
      ? undefined
      : await relayRepo.findPending({
          db,
          conversationId,
          since: new Date(clock.now().getTime() - CONFIRM_WINDOW_MS),
        });
    if (pending && YES.test(trimmed))
      return confirm(deps, { senderId: user.id, pending, language });
    if (pending && NO.test(trimmed)) {
      await relayRepo.moveRelay({
        db,
        id: pending.id,
        from: 'pending',
        set: { status: 'cancelled' },
      });
      return say('cancelled');
    }
    // The Send or Cancel of a message no longer waiting (answered, or shown too long ago) is never
    // a message to relay.
    if (
      BUTTON_WORD.test(trimmed) &&
      (thread || (!isNew && (await relayRepo.hasRelays({ db, conversationId }))))
    )
      return say('nothingPending');
    const asked = sendRequestOf(trimmed);
    if (asked === 'noNumber') return say('numberInvalid');
    // In a thread, whatever else the sender writes goes to its recipient (once they say yes).
    const request =
      asked ?? (thread ? { recipient: recipientOf(thread.recipient), text: trimmed } : undefined);
    if (!request) return undefined; // a question about indirect: its engine answers
    const { recipient: to, text } = request;
    if (thread && thread.recipient !== to.digits)
      return say('otherThread', { number: recipientOf(thread.recipient).shown });
    if (!text) return say('askText', { number: to.shown });
    // The model reads it last, once: only a message every other rule lets through costs a call.
    const refusal =
      (!(await platformNumber(deps)).connected ? UNAVAILABLE : undefined) ??
      textRefusal(text) ??
      (await sendRefusal(db, { senderId: user.id, to, conversationId, now: clock.now() })) ??
      (await modelRefused(deps, text));
    if (refusal) {
      logRefusal(deps, user.id, to, refusal.reason);
      return say(refusal.key, refusal.values);
    }
    return {
      ...say('proposal', { number: to.shown, quoted: quote(relayedText(deps, text, to)) }),
      awaits: 'relayConfirm' as const,
      // Once the exchange (and a new conversation) is stored: the yes finds it then.
      stored: () =>
        relayRepo.insertPending({
          db,
          values: {
            senderId: user.id,
            conversationId,
            recipient: to.digits,
            text,
            createdAt: clock.now(),
          },
        }),
    };
  };
}

/**
 * The sender's yes: checked again, then counted under the sender's and the recipient's locks (two
 * yeses on two instances cannot both pass a limit), and queued in the platform number's outbox.
 */
async function confirm(
  deps: RelayDeps,
  { senderId, pending, language }: { senderId: string; pending: RelayRow; language: Language },
): Promise<{ text: string }> {
  const { db, clock } = deps;
  const t = deps.translate(language);
  const to = recipientOf(pending.recipient);
  const cancel = () =>
    relayRepo.moveRelay({ db, id: pending.id, from: 'pending', set: { status: 'cancelled' } });
  // Its text was read when it was shown; the platform, an opt-out and the limits may have changed.
  const platform = await platformNumber(deps);
  const platformUserId = platform.connected ? platform.userId : null;
  const now = clock.now();
  const refusal = !platformUserId
    ? UNAVAILABLE
    : await db.transaction(async (tx) => {
        await relayRepo.lockRelays({ db: tx, keys: [senderId, to.digits] });
        const over = await sendRefusal(tx, {
          senderId,
          to,
          conversationId: pending.conversationId,
          now,
        });
        if (over) return over;
        const moved = await relayRepo.moveRelay({
          db: tx,
          id: pending.id,
          from: 'pending',
          set: { status: 'sent', sentAt: now },
        });
        if (!moved) return { key: 'cancelled', reason: 'notPending' };
        await relayRepo.upsertThread({
          db: tx,
          values: {
            senderId,
            recipient: to.digits,
            conversationId: pending.conversationId,
            language,
            at: now,
          },
        });
        return undefined;
      });
  if (!platformUserId || refusal) {
    const why = refusal ?? UNAVAILABLE;
    await cancel();
    logRefusal(deps, senderId, to, why.reason);
    return { text: t(`whatsappServer.relay.${why.key}`, why.values) };
  }
  try {
    await queueRelay(deps, { platformUserId, to, text: pending.text, at: now });
  } catch (error) {
    // Not queued: it is not counted as sent, and the sender may say yes again.
    await relayRepo.moveRelay({
      db,
      id: pending.id,
      from: 'sent',
      set: { status: 'pending', sentAt: null },
    });
    throw error;
  }
  deps.eventLog.record({
    category: 'whatsapp',
    event: 'relay.sent',
    message: 'indirect relayed a message',
    userId: senderId,
    context: { recipient: masked(to), country: to.country ?? null },
  });
  return { text: t('whatsappServer.relay.sent', { number: to.shown }) };
}

/** The relay in the platform number's outbox, in the recipient's chat there (made a relay chat). */
async function queueRelay(
  deps: RelayDeps,
  {
    platformUserId: userId,
    to,
    text,
    at,
  }: { platformUserId: string; to: Recipient; text: string; at: Date },
): Promise<void> {
  const { db } = deps;
  let conversation = await repo.insertConversation({
    db,
    values: {
      userId,
      contactJid: `${to.digits}@s.whatsapp.net`,
      contactAltJid: null,
      contactName: to.shown,
      contactNumber: to.digits,
      createdAt: at,
      updatedAt: at,
    },
  });
  if (!conversation.relay)
    conversation = (await repo.updateConversation({
      db,
      id: conversation.id,
      userId,
      set: { relay: true },
    }))!;
  await storeOutgoing(
    deps,
    {
      conversationId: conversation.id,
      text: relayedText(deps, text, to),
      agentName: RELAY_AGENT,
      createdAt: at,
      answerable: false,
    },
    (stored) => stored !== undefined,
  );
}
