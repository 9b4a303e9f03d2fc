import type { Language, User, WhatsAppMessage } from '@contrateia/shared';
import { takeOrRetryLater } from '@/lib/shared-state';
import { own } from './whatsapp.conversations';
import { retryOutgoing, storeOutgoing } from './whatsapp.outbox';
import type { WhatsAppContext } from './whatsapp.deps';
import { messageNotFound, notConnected, notRetryable } from './whatsapp.errors';
import * as repo from './whatsapp.repository';
import { pauseFor } from './whatsapp.takeover';
import { toMessage } from './whatsapp.summaries';

/**
 * Writes to the contact as the account, through the outbox: stored `pending` and sent by its job
 * (see whatsapp.outbox.ts); 409 when not connected (nothing is stored then).
 */
export async function sendMessage(
  deps: Pick<
    WhatsAppContext,
    'db' | 'clock' | 'events' | 'translate' | 'jobs' | 'sendCounter' | 'takeoverMinutes' | 'media'
  >,
  {
    user,
    id,
    text,
    language,
  }: {
    user: User;
    id: string;
    text: string;
    language: Language;
  },
): Promise<WhatsAppMessage> {
  const { db, clock, events, sendCounter } = deps;
  // Counted first, on every instance: a refused send costs no other work.
  await takeOrRetryLater(sendCounter, user.id, 'errors.tooManyRequests');
  const conversation = await own(deps, { user, id });
  const account = await repo.findAccount({ db, userId: user.id });
  if (account?.state !== 'ready') throw notConnected();
  // A person took over: the agent pauses before the owner's message is stored, so that a reply
  // it is making now finds the pause when it is done, and is dropped.
  await pauseFor(deps, user.id, conversation, clock.now());
  // Stored pending with its send job: the job sends it, tries again, and the ticks follow.
  const message = await storeOutgoing(
    deps,
    { conversationId: id, text, agentName: null, createdAt: clock.now() },
    (stored) => {
      if (!stored) throw notConnected();
      const message = toMessage(deps, stored.message, language);
      events.emit(user.id, 'whatsapp:message_sent', { conversationId: id, message });
      return message;
    },
  );
  return message;
}

/**
 * The owner's Retry of an outgoing message that failed: `pending` again and sent by a new job.
 * 404 for a conversation or message that is not the owner's, 400 for one that did not fail.
 */
export async function retryMessage(
  deps: Pick<
    WhatsAppContext,
    'db' | 'clock' | 'events' | 'translate' | 'jobs' | 'agents' | 'media'
  >,
  {
    user,
    id,
    messageId,
    language,
  }: { user: User; id: string; messageId: string; language: Language },
): Promise<WhatsAppMessage> {
  const { db } = deps;
  await own(deps, { user, id });
  const retried = await retryOutgoing(deps, { userId: user.id, conversationId: id, id: messageId });
  if (retried) return toMessage(deps, retried, language);
  const message = await repo.findOutgoing({ db, id: messageId });
  if (!message || message.conversation.id !== id) throw messageNotFound();
  throw notRetryable();
}
