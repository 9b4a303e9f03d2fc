import QRCode from 'qrcode';
import type { WhatsAppContext } from './whatsapp.deps';
import { learnLidMapping } from './whatsapp.lid';
import { applyReceipts } from './whatsapp.outbox';
import { isStorable, receive, type ReceiveDeps, type ReceiveMode } from './whatsapp.receive';
import { askReply } from './whatsapp.reply';
import * as repo from './whatsapp.repository';
import { DEFAULT_LANGUAGE } from './whatsapp.deps';
import { toMessage } from './whatsapp.summaries';
import type {
  CloseReason,
  InboundMessage,
  MessageRef,
  TransportEvent,
} from './transports/transport';

type EventDeps = ReceiveDeps & Pick<WhatsAppContext, 'queues' | 'eventLog' | 'catchupMinutes'>;

/**
 * The transport's sink: the account's connection events are handled in the order they came, and
 * so are the messages of one chat; different chats' messages are stored side by side (one queue
 * for all of an account's contacts made every message wait for every other contact's, and other
 * instances store their messages side by side anyway). The promise settles once this one is
 * handled (an inbound message stored), not once it is answered.
 */
export function handleTransportEvent(
  deps: EventDeps,
  accountId: string,
  event: TransportEvent,
): Promise<void> {
  if (event.type === 'offline-messages') {
    // Each chat's in its queue, after what came before in that chat.
    const byChat = new Map<string, InboundMessage[]>();
    for (const message of event.messages) {
      const chat = byChat.get(message.remoteJid) ?? [];
      chat.push(message);
      byChat.set(message.remoteJid, chat);
    }
    // A hand-over in several events is answered after its last: a contact's messages split over
    // two are answered once, together, whichever event their last one came in.
    const whole = !event.more && !event.continued;
    const stored = Promise.all(
      [...byChat].map(([jid, messages]) =>
        inOrder(deps, `${accountId}\n${jid}`, event.type, accountId, () =>
          catchUp(deps, accountId, messages, whole),
        ),
      ),
    );
    if (whole) return stored.then(() => {});
    // The parts of a hand-over in the order they came, each once stored: its last part (which
    // may carry no message, the transport only then knowing it was the last) looks for what is
    // left to answer once every part before it is stored, whether or not the transport waited.
    return inOrder(deps, `${accountId}\nhand-over`, event.type, accountId, async () => {
      await stored;
    }).then(() =>
      event.more
        ? undefined
        : inOrder(deps, accountId, event.type, accountId, () => answerLeftOver(deps, accountId)),
    );
  }
  // An edit, a deletion or a reaction waits for what came before it in its chat (its message).
  const key =
    event.type === 'message' ||
    event.type === 'message-edited' ||
    event.type === 'message-revoked' ||
    event.type === 'reaction'
      ? `${accountId}\n${event.message.remoteJid}`
      : accountId;
  return inOrder(deps, key, event.type, accountId, () => handle(deps, accountId, event));
}

/** Runs `work` after everything queued under `key` so far; a failure is logged, not thrown. */
function inOrder(
  { logger, queues }: Pick<EventDeps, 'logger' | 'queues'>,
  key: string,
  what: TransportEvent['type'],
  accountId: string,
  work: () => Promise<void>,
): Promise<void> {
  const previous = queues.get(key) ?? Promise.resolve();
  const next = previous.then(() =>
    work().catch((error: unknown) =>
      logger.error({ err: error, accountId, event: what }, 'whatsapp: event not handled'),
    ),
  );
  queues.set(key, next);
  void next.finally(() => {
    if (queues.get(key) === next) queues.delete(key);
  });
  return next;
}

async function handle(deps: EventDeps, userId: string, event: TransportEvent): Promise<void> {
  const { db, clock, events, eventLog } = deps;
  const now = clock.now();
  switch (event.type) {
    case 'connecting':
      await repo.updateAccount({
        db,
        userId,
        set: { state: 'connecting', qrCode: null, pairingCode: null, updatedAt: now },
        unlessReady: true,
      });
      return;
    case 'qr': {
      const qrCode = await QRCode.toDataURL(event.qr, {
        errorCorrectionLevel: 'M',
        margin: 2,
        width: 300,
      });
      // A QR drawn just as the phone paired must not undo the pairing.
      if (
        await repo.updateAccount({
          db,
          userId,
          set: { state: 'qr', qrCode, lastCloseReason: null, updatedAt: now },
          unlessReady: true,
        })
      ) {
        events.emit(userId, 'whatsapp:qr', { qrCode });
      }
      return;
    }
    case 'pairing-code':
      // Shown until the phone links, or the attempt ends (the code is the socket's, not the QR's).
      if (
        await repo.updateAccount({
          db,
          userId,
          set: { state: 'qr', pairingCode: event.code, lastCloseReason: null, updatedAt: now },
          unlessReady: true,
        })
      ) {
        events.emit(userId, 'whatsapp:pairing_code', { pairingCode: event.code });
      }
      return;
    case 'ready':
      await repo.updateAccount({
        db,
        userId,
        set: {
          state: 'ready',
          qrCode: null,
          pairingCode: null,
          phone: event.phone,
          lastCloseReason: null,
          updatedAt: now,
        },
      });
      events.emit(userId, 'whatsapp:ready', { phone: event.phone });
      // The number's last digits only: enough to tell an account's numbers apart.
      eventLog.record({
        category: 'whatsapp',
        event: 'whatsapp.connected',
        message: 'WhatsApp connected',
        userId,
        context: { phone: `…${event.phone.slice(-4)}` },
      });
      await answerLeftOver(deps, userId);
      return;
    case 'reconnecting':
      await repo.updateAccount({
        db,
        userId,
        set: { state: 'reconnecting', qrCode: null, pairingCode: null, updatedAt: now },
      });
      return;
    case 'closed': {
      const { reason } = event;
      // Kept with the state, so that a page opened later (on any instance) still says why.
      const lastCloseReason = reason.kind;
      if (reason.kind === 'qr-limit') {
        // A QR cycle that ended as the phone paired ended nothing.
        if (
          await repo.updateAccount({
            db,
            userId,
            set: {
              state: 'disconnected',
              qrCode: null,
              pairingCode: null,
              lastCloseReason,
              updatedAt: now,
            },
            unlessReady: true,
          })
        ) {
          events.emit(userId, 'whatsapp:disconnected', { reason: reason.kind });
          recordClosed(deps, userId, reason);
        }
      } else if (reason.kind === 'logged-out' || reason.kind === 'requested') {
        await repo.updateAccount({
          db,
          userId,
          set: {
            state: 'disconnected',
            qrCode: null,
            pairingCode: null,
            phone: null,
            lastCloseReason,
            updatedAt: now,
          },
        });
        events.emit(userId, 'whatsapp:disconnected', { reason: reason.kind });
        recordClosed(deps, userId, reason);
      } else {
        await repo.updateAccount({
          db,
          userId,
          set: {
            state: 'failed',
            qrCode: null,
            pairingCode: null,
            lastCloseReason,
            updatedAt: now,
          },
        });
        recordClosed(deps, userId, reason);
        if (reason.kind === 'banned')
          events.emit(userId, 'whatsapp:auth_failure', { message: reason.kind });
        else
          events.emit(userId, 'whatsapp:disconnected', {
            reason: reason.kind === 'failed' ? reason.message : reason.kind,
          });
      }
      return;
    }
    case 'message':
      await receive(deps, userId, event.message);
      return;
    case 'receipt':
      await applyReceipts(deps, userId, event);
      return;
    case 'message-edited':
      await changeMessage(deps, userId, event.message, {
        kind: 'edit',
        text: event.text,
        at: event.timestamp,
      });
      return;
    case 'message-revoked':
      await changeMessage(deps, userId, event.message, { kind: 'delete', at: event.timestamp });
      return;
    case 'reaction':
      await changeMessage(deps, userId, event.message, {
        kind: 'react',
        sender: event.byMe ? 'user' : 'contact',
        emoji: event.emoji,
      });
      return;
    case 'lid-mapping':
      await learnLidMapping(deps, userId, event.lid, event.pn);
      return;
  }
}

/**
 * An edit, a deletion for everyone or a reaction: the stored message changes in place and the
 * owner's open pages are told. Never answered, never unread: the reply pipeline does not hear of
 * it. One about a message never stored (a group's, a media message, one from before the account
 * used ContrateIA) is left alone.
 */
async function changeMessage(
  deps: EventDeps,
  userId: string,
  ref: MessageRef,
  change: repo.MessageChange,
): Promise<void> {
  // An empty edit is no text to show; WhatsApp does not send one.
  if (change.kind === 'edit' && !change.text.trim()) return;
  const row = await repo.changeMessage({
    db: deps.db,
    userId,
    jids: ref.remoteJidAlt ? [ref.remoteJid, ref.remoteJidAlt] : [ref.remoteJid],
    waId: ref.id,
    sender: ref.fromMe ? 'user' : 'contact',
    change,
  });
  if (!row) return;
  deps.events.emit(userId, 'whatsapp:message_updated', {
    conversationId: row.conversationId,
    message: toMessage(deps, row, DEFAULT_LANGUAGE),
  });
  // The list's preview of a deleted last message reads "message deleted".
  if (change.kind === 'delete')
    deps.events.emit(userId, 'whatsapp:conversation_changed', {
      conversationId: row.conversationId,
    });
}

/**
 * One chat's messages delivered on connect, in order: all stored; the contact's that are at most
 * `catchupMinutes` old are answered once, together (the reply's job goes with the last of them,
 * and a reply answers everything its contact wrote since the last answer); older ones are marked
 * unanswered and never answered, as is anything between them and the last answer.
 */
async function catchUp(
  deps: EventDeps,
  userId: string,
  messages: InboundMessage[],
  /** Whether the reply goes with the last recent message (else answerLeftOver asks it, later). */
  answer: boolean,
): Promise<void> {
  const oldest = deps.clock.now().getTime() - deps.catchupMinutes * 60_000;
  const recent = (message: InboundMessage) =>
    !message.fromMe && message.timestamp.getTime() >= oldest;
  const last = answer
    ? messages.findLastIndex((message) => recent(message) && isStorable(message))
    : -1;
  for (const [index, message] of messages.entries()) {
    const mode: ReceiveMode = index === last ? 'answer' : recent(message) ? 'later' : 'unanswered';
    await receive(deps, userId, message, mode, { caughtUp: true });
  }
}

/**
 * A catch-up's reply job goes with its last message: a process that stopped in the middle of one
 * (killed, or its database gone for a moment) left its contact's first messages stored and
 * nobody to answer them. On connect, each conversation of the account that ends with its
 * contact's message to be answered, written within `catchupMinutes`, is sent its reply job: one
 * per conversation (a job already waiting takes it), and a reply finds nothing to answer once
 * answered.
 */
async function answerLeftOver(deps: EventDeps, userId: string): Promise<void> {
  const { db, clock, catchupMinutes } = deps;
  const since = new Date(clock.now().getTime() - catchupMinutes * 60_000);
  for (const conversationId of await repo.findAwaitingReply({ db, userId, since }))
    await askReply(deps, userId, conversationId);
}

/** A connection's end in the stored log: a logout (from here or the phone), or a close and why. */
function recordClosed(
  { eventLog }: Pick<WhatsAppContext, 'eventLog'>,
  userId: string,
  reason: CloseReason,
): void {
  const loggedOut = reason.kind === 'requested' || reason.kind === 'logged-out';
  eventLog.record({
    // What the user did is news; what ended a connection by itself is a warning.
    level: loggedOut ? 'info' : 'warn',
    category: 'whatsapp',
    event: loggedOut ? 'whatsapp.logged_out' : 'whatsapp.closed',
    message: loggedOut
      ? `WhatsApp logged out (${reason.kind === 'requested' ? 'from ContrateIA' : 'from the phone'})`
      : `WhatsApp connection closed: ${reason.kind}`,
    userId,
    context: {
      reason: reason.kind,
      ...(reason.kind === 'failed' ? { detail: reason.message } : {}),
    },
  });
}
