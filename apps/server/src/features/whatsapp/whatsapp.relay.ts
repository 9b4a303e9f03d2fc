import type { ReplySkill } from '@/features/chat/chat.service';
import { platformNumber } from './whatsapp.platform';
import { confirmRelay } from './whatsapp.relay-send';
import { modelRefusal } from './whatsapp.relay-moderation';
import {
  logRefusal,
  relayedText,
  sendRefusal,
  textRefusal,
  UNAVAILABLE,
  type Refusal,
  type RelayDeps,
} from './whatsapp.relay-rules';
import { BUTTON_WORD, NO, quote, recipientOf, sendRequestOf, YES } from './whatsapp.relay-text';
import * as relayRepo from './whatsapp.relay.repository';

// indirect's relays: a user asks indirect (in its web chat) to send a text to a phone number; it
// shows exactly what will go and to whom, and only on the user's yes queues it in the outbox of
// the platform's number (see whatsapp.platform.ts), with a notice that it is an anonymous message
// that can be answered and stopped. Never the sender's name, e-mail or number. The recipient's
// replies come back to the sender's chat, one conversation per (sender, recipient); STOP opts
// the number out of every relay, from everyone, for good. The limits make abuse costly; each
// refusal is said in the chat, and the admin's logs count them, never with the text.

/** How long a relay shown waits for the sender's yes. */
const CONFIRM_WINDOW_MS = 10 * 60 * 1000;

/** The language model's word on `text`, as a refusal (see modelRefusal). */
async function modelRefused(deps: RelayDeps, text: string): Promise<Refusal | undefined> {
  const flagged = await modelRefusal(deps.engine, text);
  return flagged ? { key: `refused.${flagged}`, reason: flagged } : undefined;
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
    if (pending && YES.test(trimmed)) return confirmRelay(deps, { pending, language });
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
