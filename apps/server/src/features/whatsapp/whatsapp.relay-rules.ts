import type { WhatsAppContext } from './whatsapp.deps';
import { moderate } from './whatsapp.relay-moderation';
import { masked, recipientLanguage, type Recipient } from './whatsapp.relay-text';
import * as relayRepo from './whatsapp.relay.repository';

// The rules of indirect's relays that showing a relay and sending it both apply (see
// whatsapp.relay.ts and whatsapp.relay-send.ts).

/** How many relays, new recipients and senders to one number a day (24 hours) allows. */
export const RELAY_LIMITS = { perDay: 10, newRecipientsPerDay: 3, sendersPerRecipientPerDay: 3 };
/** The longest text relayed. */
export const RELAY_TEXT_MAX = 1000;
const DAY_MS = 24 * 60 * 60 * 1000;
/** The agent a relay is sent as, and whose skill this is. */
export const RELAY_AGENT = 'indirect';
export const RELAY_SKILL = 'delivery';

/** What the recipient gets: the text, then the notice in their language. */
export function relayedText(deps: Pick<WhatsAppContext, 'translate'>, text: string, to: Recipient) {
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

export type Refusal = { key: string; values?: Record<string, string | number>; reason: string };

export const UNAVAILABLE: Refusal = { key: 'unavailable', reason: 'unavailable' };

/** What the text itself may not be: too long, or flagged by the builtin moderation. */
export function textRefusal(text: string): Refusal | undefined {
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
export async function sendRefusal(
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

export function logRefusal(deps: RelayDeps, senderId: string, to: Recipient, reason: string) {
  deps.eventLog.record({
    level: 'warn',
    category: 'whatsapp',
    event: 'relay.refused',
    message: `indirect refused a relay (${reason})`,
    userId: senderId,
    context: { reason, recipient: masked(to), country: to.country ?? null },
  });
}
