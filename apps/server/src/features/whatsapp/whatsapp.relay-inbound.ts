import { derivedUuid } from '@/lib/derived-id';
import type { RelayDeps } from './whatsapp.relay-rules';
import { isStop, masked, quote, recipientLanguage, recipientOf } from './whatsapp.relay-text';
import * as relayRepo from './whatsapp.relay.repository';
import * as repo from './whatsapp.repository';
import type { HistoryMessage } from './whatsapp.repository';
import type { WhatsAppConversationRow } from './whatsapp.table';

// What the people indirect relayed to write back to the platform's number (see whatsapp.relay.ts).

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
