import {
  findPhoneNumbersInText,
  parsePhoneNumberFromString,
  type CountryCode,
} from 'libphonenumber-js';
import { derivedUuid } from '@/lib/derived-id';
import type { Language } from '@contrateia/shared';
import type { ReplySkill } from '@/features/chat/chat.service';
import type { WhatsAppContext } from './whatsapp.deps';
import { storeOutgoing } from './whatsapp.outbox';
import { platformNumber } from './whatsapp.platform';
import { moderate, modelRefusal } from './whatsapp.relay-moderation';
import * as relayRepo from './whatsapp.relay.repository';
import * as repo from './whatsapp.repository';
import type { HistoryMessage } from './whatsapp.repository';
import type { RelayRow, WhatsAppConversationRow } from './whatsapp.table';

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

/** A number as the relays know it: its E.164 digits, as it is shown, and its country if known. */
type Recipient = { digits: string; shown: string; country: CountryCode | undefined };

function recipientOf(digits: string): Recipient {
  const parsed = parsePhoneNumberFromString(`+${digits}`);
  return {
    digits,
    shown: parsed?.formatInternational() ?? `+${digits}`,
    country: parsed?.country,
  };
}

/** A verb that asks to send, in any of its forms ("envie", "envía", "manda", "send", "escribe"…). */
const SEND_VERB =
  /(?<!\p{L})(env[ií]\p{L}*|mand\p{L}*|send\p{L}*|text|message|escrev\p{L}*|escrib\p{L}*|diga|diz|fala|avis\p{L}*|tell)(?!\p{L})/iu;
const LEAD = /^\s*((para|pra|to|al?)\s*)?[:\-–—]?\s*$/i;
const YES =
  /^(sim|s|yes|y|s[ií]|ok|okay|pode (enviar|mandar)|envi[ae]r?|manda|send( it)?|confirm[oa]r?)[\s.!]*$/i;
const NO = /^(n[aã]o|n|no|cancel(a|ar)?)[\s.!]*$/i;
/** What the page's Send and Cancel write, in each language (agentChat.relay.yes / .no). */
const BUTTON_WORD = /^(sim|yes|s[ií]|n[aã]o|no)[\s.!]*$/i;

/**
 * A request to send a text to a number, as a person writes it: "envie para (11) 98888-7777: oi",
 * "+55 11 98888 7777: oi", "send to +1 212 555 0100 hi"; `noNumber` when it asks to send with
 * digits that make no number; undefined for anything else (a question about indirect).
 */
export function sendRequestOf(
  message: string,
): { recipient: Recipient; text: string } | 'noNumber' | undefined {
  const [found] = findPhoneNumbersInText(message, 'BR');
  if (!found) {
    const digits = message.replace(/[\s().-]/g, '');
    return SEND_VERB.test(message) && /\d{6,}/.test(digits) ? 'noNumber' : undefined;
  }
  const before = message.slice(0, found.startsAt);
  if (!LEAD.test(before) && !SEND_VERB.test(before)) return undefined;
  let text = message
    .slice(found.endsAt)
    .replace(/^[\s:,;\-–—]+/, '')
    .replace(/^(dizendo|falando|saying|diciendo)( que| that)?[\s:]+/i, '')
    .trim();
  const quoted = /^["“«'](.*)["”»']$/s.exec(text);
  if (quoted) text = quoted[1]!.trim();
  if (!text) text = /["“«](.+?)["”»]/s.exec(before)?.[1]?.trim() ?? '';
  return { recipient: recipientOf(found.number.number.slice(1)), text };
}

const PORTUGUESE = ['BR', 'PT', 'AO', 'MZ', 'CV', 'GW', 'ST', 'TL'];
const SPANISH = [
  'ES',
  'MX',
  'AR',
  'CO',
  'CL',
  'PE',
  'VE',
  'EC',
  'GT',
  'CU',
  'BO',
  'DO',
  'HN',
  'PY',
  'SV',
  'NI',
  'CR',
  'PA',
  'UY',
  'GQ',
  'PR',
];
const ENGLISH = [
  'US',
  'CA',
  'GB',
  'IE',
  'AU',
  'NZ',
  'ZA',
  'IN',
  'NG',
  'JM',
  'SG',
  'PH',
  'KE',
  'GH',
];

/** The language a recipient is written to in: their country's, when it is one of ours; else Portuguese. */
export function recipientLanguage(country: CountryCode | undefined): Language {
  if (country && SPANISH.includes(country)) return 'es-ES';
  if (country && ENGLISH.includes(country)) return 'en-US';
  if (country && PORTUGUESE.includes(country)) return 'pt-BR';
  return 'pt-BR';
}

/** What the recipient gets: the text, then the notice in their language. */
function relayedText(deps: Pick<WhatsAppContext, 'translate'>, text: string, to: Recipient) {
  return `${text}\n\n${deps.translate(recipientLanguage(to.country))('whatsappServer.relay.notice')}`;
}

/** Markdown's quote of `text`, every line of it. */
function quote(text: string): string {
  return text
    .split('\n')
    .map((line) => `> ${line}`)
    .join('\n');
}

type RelayDeps = Pick<
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

/**
 * Why `text` may not go to `to` now, if it may not: checked when it is shown and again, with
 * the counts locked, when the sender says yes.
 */
async function refusalOf(
  deps: RelayDeps,
  {
    senderId,
    to,
    text,
    conversationId,
  }: { senderId: string; to: Recipient; text: string; conversationId: string },
): Promise<Refusal | undefined> {
  const { db } = deps;
  if (!(await platformNumber(deps)).connected) return { key: 'unavailable', reason: 'unavailable' };
  if (text.length > RELAY_TEXT_MAX)
    return { key: 'tooLong', values: { max: RELAY_TEXT_MAX }, reason: 'tooLong' };
  const flagged = moderate(text);
  if (flagged) return { key: `refused.${flagged}`, reason: flagged };
  if (await relayRepo.isOptedOut({ db, recipient: to.digits }))
    return { key: 'optedOutRefused', reason: 'optedOut' };
  const thread = await relayRepo.findThread({ db, senderId, recipient: to.digits });
  if (thread && thread.conversationId !== conversationId)
    return { key: 'threadElsewhere', values: { number: to.shown }, reason: 'threadElsewhere' };
  const counts = await relayRepo.relayCounts({
    db,
    senderId,
    recipient: to.digits,
    since: new Date(deps.clock.now().getTime() - DAY_MS),
  });
  return limitRefusal(counts, !thread);
}

/** The language model's word on `text`, as a refusal (see modelRefusal). */
async function modelRefused(deps: RelayDeps, text: string): Promise<Refusal | undefined> {
  const flagged = await modelRefusal(deps.engine, text);
  return flagged ? { key: `refused.${flagged}`, reason: flagged } : undefined;
}

/** The limits, counted under the sender's and the recipient's locks (see confirm). */
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

/** The last four digits only: enough for an admin to tell numbers apart in the logs. */
function masked(to: Recipient): string {
  return `…${to.digits.slice(-4)}`;
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
      (await refusalOf(deps, { senderId: user.id, to, text, conversationId })) ??
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
  const early = await refusalOf(deps, {
    senderId,
    to,
    text: pending.text,
    conversationId: pending.conversationId,
  });
  const now = clock.now();
  const refusal =
    early ??
    (await db.transaction(async (tx) => {
      await relayRepo.lockRelays({ db: tx, keys: [senderId, to.digits] });
      const existing = await relayRepo.findThread({ db: tx, senderId, recipient: to.digits });
      const counts = await relayRepo.relayCounts({
        db: tx,
        senderId,
        recipient: to.digits,
        since: new Date(now.getTime() - DAY_MS),
      });
      const over = limitRefusal(counts, !existing);
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
    }));
  if (refusal) {
    await cancel();
    logRefusal(deps, senderId, to, refusal.reason);
    return { text: t(`whatsappServer.relay.${refusal.key}`, refusal.values) };
  }
  try {
    await queueRelay(deps, { to, text: pending.text, at: now });
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
  { to, text, at }: { to: Recipient; text: string; at: Date },
): Promise<void> {
  const { db } = deps;
  const platform = await platformNumber(deps);
  if (!platform.userId || !platform.connected)
    throw new Error('the platform number is not connected');
  const userId = platform.userId;
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

/** Whether a recipient's message asks never to be relayed to again: STOP, PARE, SAIR or ALTO, any case and punctuation. */
export function isStop(text: string): boolean {
  const word = text
    .normalize('NFD')
    .replace(/[^\p{L}]/gu, '')
    .toUpperCase();
  return ['STOP', 'PARE', 'SAIR', 'ALTO'].includes(word);
}

/** The id of the message in the sender's chat that carries the recipient's message `messageId`. */
function relayedReplyId(messageId: string): string {
  return derivedUuid(`relayed-reply:${messageId}`);
}

/**
 * What a recipient wrote to the platform's number in a relay chat: STOP opts the number out (the
 * answer, once, is returned: in the recipient's language); anything else goes to the sender's
 * thread it answers (the latest), live, and nothing is answered. Either way the messages are
 * held: handled once.
 */
export async function relayInbound(
  deps: RelayDeps,
  { conversation, asked }: { conversation: WhatsAppConversationRow; asked: HistoryMessage[] },
): Promise<string | undefined> {
  const { db, clock, chat, events } = deps;
  const to = recipientOf(conversation.contactNumber);
  await repo.holdMessages({ db, conversationId: conversation.id, seqs: asked.map((m) => m.seq) });
  if (asked.some((m) => isStop(m.text))) {
    const first = await relayRepo.optOut({ db, recipient: to.digits, at: clock.now() });
    if (!first) return undefined;
    deps.eventLog.record({
      category: 'whatsapp',
      event: 'relay.opt_out',
      message: 'a number opted out of indirect relays',
      context: { recipient: masked(to), country: to.country ?? null },
    });
    return deps.translate(recipientLanguage(to.country))('whatsappServer.relay.optedOut');
  }
  const thread = await relayRepo.latestThreadTo({ db, recipient: to.digits });
  if (!thread) return undefined;
  const t = deps.translate(thread.language);
  for (const message of asked)
    await chat.storeAgentMessage({
      conversationId: thread.conversationId,
      id: relayedReplyId(message.id),
      text: message.text
        ? t('whatsappServer.relay.replied', { number: to.shown, quoted: quote(message.text) })
        : t('whatsappServer.relay.repliedFile', { number: to.shown }),
    });
  await relayRepo.touchThread({ db, id: thread.id, at: clock.now() });
  events.emit(thread.senderId, 'chat:message', { conversationId: thread.conversationId });
  return undefined;
}
