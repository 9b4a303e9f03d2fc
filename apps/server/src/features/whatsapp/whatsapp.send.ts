import {
  WHATSAPP_PHOTO_TYPES,
  type Language,
  type User,
  type WhatsAppMediaUnavailable,
  type WhatsAppMessage,
} from '@contrateia/shared';
import { takeOrRetryLater } from '@/lib/shared-state';
import { own } from './whatsapp.conversations';
import { retryOutgoing, storeOutgoing } from './whatsapp.outbox';
import type { WhatsAppContext } from './whatsapp.deps';
import {
  mediaFileUnsafe,
  mediaNotAPhoto,
  mediaTooManyPixels,
  messageNotFound,
  notConnected,
  notRetryable,
} from './whatsapp.errors';
import type { KeptMedia } from './whatsapp.media';
import * as repo from './whatsapp.repository';
import { pauseFor } from './whatsapp.takeover';
import { toMessage } from './whatsapp.summaries';
import type { WhatsAppConversationRow } from './whatsapp.table';

/**
 * Writes to the contact as the account, through the outbox: stored `pending` and sent by its job
 * (see whatsapp.outbox.ts); 409 when not connected (nothing is stored then).
 */
export async function sendMessage(
  deps: OwnSendDeps,
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
  const conversation = await mayWrite(deps, { user, id });
  return storeOwn(deps, { user, conversation, text, language });
}

/**
 * What the owner's form gave: the file (received at the path it was asked to write), its name
 * and type as the browser said them, and the caption ('' without one).
 */
export type ReceivedMedia = { fileName: string; declaredType: string; caption: string };

/**
 * Sends the contact a file of the owner's, with its caption, through the outbox like a text.
 * Asked before its form is read (`receive`, which writes the file where it is told, within
 * WHATSAPP_MEDIA_MAX_MB): the send limit, the conversation's owner, the connection (409). A photo
 * (as the browser names it) must really be one; anything else goes as a document, never markup.
 * A file refused is not kept; one kept is served and expires like a contact's.
 */
export async function sendMedia(
  deps: OwnSendDeps,
  {
    user,
    id,
    language,
    receive,
  }: {
    user: User;
    id: string;
    language: Language;
    receive: (into: { target: string; maxBytes: number }) => Promise<ReceivedMedia>;
  },
): Promise<WhatsAppMessage> {
  const { media } = deps;
  const conversation = await mayWrite(deps, { user, id });
  const target = await media.incomingPath(user.id);
  try {
    const form = await receive({ target, maxBytes: media.maxBytes });
    const kind = (WHATSAPP_PHOTO_TYPES as readonly string[]).includes(form.declaredType)
      ? 'image'
      : 'document';
    const kept = await media.keepOwn(user.id, { kind, file: target });
    if ('unavailable' in kept) throw refusalOf(kept.unavailable);
    try {
      return await storeOwn(deps, {
        user,
        conversation,
        text: form.caption,
        language,
        media: {
          media: {
            kind,
            mimetype: kept.mimetype,
            size: kept.size,
            ...(kind === 'document' ? { fileName: form.fileName } : {}),
          },
          file: kept.file,
        },
      });
    } catch (error) {
      await media.remove(user.id, [kept.file]);
      throw error;
    }
  } finally {
    await media.discard(user.id, target);
  }
}

type OwnSendDeps = Pick<
  WhatsAppContext,
  'db' | 'clock' | 'events' | 'translate' | 'jobs' | 'sendCounter' | 'takeoverMinutes' | 'media'
>;

/**
 * The conversation the owner writes to, when they may: within their sends per minute (counted
 * first, on every instance: a refused send costs no other work), theirs (404), and connected
 * (409: nothing is stored then).
 */
async function mayWrite(
  deps: Pick<WhatsAppContext, 'db' | 'sendCounter'>,
  { user, id }: { user: User; id: string },
): Promise<WhatsAppConversationRow> {
  const { db, sendCounter } = deps;
  await takeOrRetryLater(sendCounter, user.id, 'errors.tooManyRequests');
  const conversation = await own(deps, { user, id });
  const account = await repo.findAccount({ db, userId: user.id });
  if (account?.state !== 'ready') throw notConnected();
  return conversation;
}

/** Stores the owner's message pending, with its send job, and tells their pages. */
async function storeOwn(
  deps: OwnSendDeps,
  {
    user,
    conversation,
    text,
    language,
    media,
  }: {
    user: User;
    conversation: WhatsAppConversationRow;
    text: string;
    language: Language;
    media?: Required<KeptMedia>;
  },
): Promise<WhatsAppMessage> {
  const { clock, events } = deps;
  const conversationId = conversation.id;
  // A person took over: the agent pauses before the owner's message is stored, so that a reply
  // it is making now finds the pause when it is done, and is dropped.
  await pauseFor(deps, user.id, conversation, clock.now());
  // Stored pending with its send job: the job sends it, tries again, and the ticks follow.
  return storeOutgoing(
    deps,
    { conversationId, text, agentName: null, createdAt: clock.now(), media },
    (stored) => {
      if (!stored) throw notConnected();
      const message = toMessage(deps, stored.message, language);
      events.emit(user.id, 'whatsapp:message_sent', { conversationId, message });
      return message;
    },
  );
}

/** Why a file of the owner's was not kept, as they are told. */
function refusalOf(unavailable: WhatsAppMediaUnavailable) {
  if (unavailable === 'unsafe-type') return mediaFileUnsafe();
  if (unavailable === 'too-many-pixels') return mediaTooManyPixels();
  return mediaNotAPhoto();
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
