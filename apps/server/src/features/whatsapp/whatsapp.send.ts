import type { Language, User, WhatsAppMessage } from '@contrateia/shared';
import { takeOrRetryLater } from '@/lib/shared-state';
import { own } from './whatsapp.conversations';
import type { WhatsAppContext } from './whatsapp.deps';
import { notConnected } from './whatsapp.errors';
import * as repo from './whatsapp.repository';
import { toMessage } from './whatsapp.summaries';

/** Writes to the contact as the account; 409 when not connected (nothing is stored then). */
export async function sendMessage(
  deps: Pick<
    WhatsAppContext,
    'db' | 'clock' | 'events' | 'translate' | 'logger' | 'transport' | 'sendCounter'
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
  const { db, clock, events, logger, transport, sendCounter } = deps;
  // Counted first, on every instance: a refused send costs no other work.
  await takeOrRetryLater(sendCounter, user.id, 'errors.tooManyRequests');
  const conversation = await own(deps, { user, id });
  const account = await repo.findAccount({ db, userId: user.id });
  if (account?.state !== 'ready') throw notConnected();
  let sent: { id: string };
  try {
    sent = await transport.sendText(user.id, conversation.contactJid, text);
  } catch (error) {
    logger.warn({ err: error, conversationId: id }, 'whatsapp: message not sent');
    throw notConnected();
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
  if (!stored) throw notConnected();
  const message = toMessage(deps, stored.message, language);
  events.emit(user.id, 'whatsapp:message_sent', { conversationId: id, message });
  return message;
}
