import type { Language, User } from '@contrateia/shared';
import { own } from './whatsapp.conversations';
import type { WhatsAppContext } from './whatsapp.deps';
import * as repo from './whatsapp.repository';
import { summaryOf } from './whatsapp.summaries';
import type { WhatsAppConversationRow } from './whatsapp.table';

/**
 * Human takeover: a message the owner writes to a contact (from the web, or from the phone
 * itself) pauses the agent in that conversation for WHATSAPP_TAKEOVER_MINUTES. While paused, what
 * the contact writes is stored and shown, never answered; the pause ends by itself, or at once by
 * the owner's Resume or by turning AI on.
 */

/** Whether the agent is paused in the conversation now (the owner took it over). */
export function isPaused(conversation: Pick<WhatsAppConversationRow, 'pausedUntil'>, now: Date) {
  return conversation.pausedUntil !== null && conversation.pausedUntil > now;
}

/**
 * The owner wrote to the contact at `at`: the conversation no longer needs them (a handoff was
 * answered), and the agent is paused until `at` plus the takeover time (never shortened by an
 * older message; not at all with a takeover time of 0, or for a message older than that, as one
 * delivered on connect). The conversation as it is now; the owner's pages are told of a change.
 */
export async function pauseFor(
  {
    db,
    clock,
    events,
    takeoverMinutes,
  }: Pick<WhatsAppContext, 'db' | 'clock' | 'events' | 'takeoverMinutes'>,
  userId: string,
  conversation: WhatsAppConversationRow,
  at: Date,
): Promise<WhatsAppConversationRow> {
  const now = clock.now();
  const until = new Date(Math.min(at.getTime(), now.getTime()) + takeoverMinutes * 60_000);
  const pauses =
    takeoverMinutes > 0 &&
    until > now &&
    !(conversation.pausedUntil && conversation.pausedUntil >= until);
  if (!pauses && !conversation.needsHuman) return conversation;
  const updated = await repo.updateConversation({
    db,
    id: conversation.id,
    userId,
    set: { needsHuman: false, ...(pauses ? { pausedUntil: until } : {}) },
  });
  if (!updated) return conversation;
  events.emit(userId, 'whatsapp:conversation_changed', { conversationId: conversation.id });
  return updated;
}

/**
 * The owner's Resume: the agent answers the conversation again from the next message on (what
 * came during the pause stays unanswered). 404 for a conversation that is not the caller's.
 */
export async function resumeConversation(
  deps: Pick<WhatsAppContext, 'db' | 'clock' | 'agents' | 'events' | 'translate' | 'media'>,
  { user, id, language }: { user: User; id: string; language: Language },
) {
  const { db, events } = deps;
  const conversation = await own(deps, { user, id });
  if (conversation.pausedUntil !== null) {
    await repo.updateConversation({ db, id, userId: user.id, set: { pausedUntil: null } });
    events.emit(user.id, 'whatsapp:conversation_changed', { conversationId: id });
  }
  return summaryOf(deps, { user, id, language });
}
