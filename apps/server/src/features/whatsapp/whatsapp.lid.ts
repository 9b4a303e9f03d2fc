import type { WhatsAppContext } from './whatsapp.deps';
import { askReply } from './whatsapp.reply';
import * as repo from './whatsapp.repository';
import type { WhatsAppConversationRow } from './whatsapp.table';

/**
 * WhatsApp names many contacts by a LID (`<digits>@lid`) instead of their phone number's JID
 * (`<digits>@s.whatsapp.net`), and tells which LID is which number: Baileys' `lid-mapping.update`,
 * the other address a message carries, the sandbox's `lid-mapping`. What it tells is kept per
 * account, so that a contact is one conversation whichever address a message comes from, and
 * two conversations found to be one contact are merged.
 */

const LID_JID = /^(\d+)(?::\d+)?@lid$/;
const PHONE_JID = /^(\d+)(?::\d+)?@(s\.whatsapp\.net|c\.us)$/;

/** A LID or phone JID without its device (`:3`), phone JIDs as `@s.whatsapp.net`; undefined for anything else. */
export function contactJidOf(jid: string): { kind: 'lid' | 'pn'; jid: string } | undefined {
  const lid = LID_JID.exec(jid);
  if (lid) return { kind: 'lid', jid: `${lid[1]}@lid` };
  const pn = PHONE_JID.exec(jid);
  if (pn) return { kind: 'pn', jid: `${pn[1]}@s.whatsapp.net` };
  return undefined;
}

/** The LID and the phone JID of a pair of addresses, in either order; undefined unless it is one of each. */
export function lidPair(a: string, b: string): { lid: string; pn: string } | undefined {
  const [x, y] = [contactJidOf(a), contactJidOf(b)];
  if (!x || !y || x.kind === y.kind) return undefined;
  return x.kind === 'lid' ? { lid: x.jid, pn: y.jid } : { lid: y.jid, pn: x.jid };
}

/**
 * What the contact wrote this minute in the conversation merged away counts in the one that
 * stays: writing from both addresses does not get it twice its allowance.
 */
async function carryCount(
  { contactCounter }: Pick<WhatsAppContext, 'contactCounter'>,
  { from, into }: repo.ConversationMerge,
) {
  const used = await contactCounter.get(from);
  if (used && used.consumedPoints > 0) await contactCounter.penalty(into, used.consumedPoints);
  await contactCounter.delete(from);
}

/**
 * Keeps that `a` and `b` (a LID and a phone JID, in either order) are one contact of the account,
 * and makes its conversations one (see repo.learnLidMapping). The owner's open pages hear of each
 * merge (`whatsapp:conversation_merged`) and of the conversation that learned something. A
 * contact's message that was waiting for its answer in a conversation merged away is answered in
 * the one that stays (its own reply job finds its conversation gone). Resolves with the contact's
 * conversation as it is now (undefined without one); nothing for a pair that is not one LID and
 * one phone JID.
 */
export async function learnLidMapping(
  deps: Pick<
    WhatsAppContext,
    'db' | 'clock' | 'events' | 'logger' | 'jobs' | 'replyQueue' | 'pacing' | 'contactCounter'
  >,
  userId: string,
  a: string,
  b: string,
): Promise<WhatsAppConversationRow | undefined> {
  const { db, clock, events, logger } = deps;
  const pair = lidPair(a, b);
  if (!pair) return undefined;
  const { conversation, changed, merges, awaitingReply } = await repo.learnLidMapping({
    db,
    userId,
    ...pair,
    number: pair.pn.split('@')[0]!,
    now: clock.now(),
  });
  for (const merge of merges) {
    logger.info({ userId, ...merge }, 'whatsapp: two conversations of one contact merged');
    events.emit(userId, 'whatsapp:conversation_merged', merge);
    await carryCount(deps, merge).catch((error: unknown) =>
      logger.error({ err: error, ...merge }, "whatsapp: a merged contact's count not carried"),
    );
  }
  if (conversation && changed && merges.length === 0)
    events.emit(userId, 'whatsapp:conversation_changed', { conversationId: conversation.id });
  if (conversation && awaitingReply) await askReply(deps, userId, conversation.id);
  return conversation;
}
