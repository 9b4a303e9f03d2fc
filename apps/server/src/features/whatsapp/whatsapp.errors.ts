import { AppError, defineError } from '@/lib/errors';

// ---- Conversations ----

/**
 * No conversation of the caller's by that id: another account's, a deleted one and a malformed
 * id all get this same 404, so an id says nothing of whose it is.
 */
export const conversationNotFound = defineError(404, 'whatsappServer.conversationNotFound');

/**
 * The account's number is not connected (or the send did not go through): nothing is sent or
 * stored, and the owner is asked to connect it.
 */
export const notConnected = defineError(409, 'whatsappServer.notConnected');

/** Sync Agent asked for while the platform's number is not connected: no QR that leads nowhere. */
export const syncUnavailable = defineError(409, 'whatsappServer.syncPairing.unavailable');

/** An agent that may not answer the caller's conversations (not hired, or inactive), on the field that named it. */
export const agentNotAvailable = defineError(400, 'whatsappServer.agentNotAvailable');

/** A page cursor no page gave (typed, cut, or another list's), on the `cursor` field. */
export const cursorInvalid = defineError(400, 'validation.cursorInvalid', { field: 'cursor' });

// ---- The sandbox's phones ----

/** No account linked to that sandbox number, or another account's (not theirs to know of). */
export const sandboxPhoneNotLinked = defineError(404, 'whatsappServer.sandboxPhoneNotLinked');

/** A pairing code that is wrong, used, or replaced by a newer QR. */
export const sandboxPairNotFound = defineError(404, 'whatsappServer.sandboxPairNotFound');

/** A pairing code that is wrong, replaced, or given for another number. */
export const sandboxPairingCodeNotFound = defineError(
  404,
  'whatsappServer.sandboxPairingCodeNotFound',
);

/** No message with that WhatsApp id in the sandbox number's chat with that contact (to edit, delete or react to). */
export const sandboxMessageNotFound = defineError(404, 'whatsappServer.sandboxMessageNotFound');

/** A sandbox number linked to another account already. */
export const sandboxPhoneTaken = defineError(409, 'whatsappServer.sandboxPhoneTaken');

// ---- The outbox ----

/** No message of that id in the caller's conversation (another's, or a malformed id). */
export const messageNotFound = defineError(404, 'whatsappServer.messageNotFound');

/** A Retry of a message that did not fail (pending, sent, delivered, read, or the contact's). */
export const notRetryable = defineError(400, 'whatsappServer.notRetryable');

// ---- Media ----

/** No file served at that address: not a message of the caller's, or its file is not kept. */
export const mediaNotFound = defineError(404, 'whatsappMedia.notFound');

/** A media address whose signature is not ours or whose time is past. */
export const mediaLinkInvalid = defineError(403, 'whatsappMedia.linkInvalid');

/** A sandbox file larger than WHATSAPP_MEDIA_MAX_MB: nothing is delivered. */
export const sandboxMediaTooLarge = (mb: number) =>
  new AppError(400, 'sandboxValidation.mediaTooLarge', {
    params: { mb },
    field: 'media.dataBase64',
  });

/** A sandbox file whose bytes are not of its kind (a "photo" that is a page…): nothing is delivered. */
export const sandboxMediaNotWhatItSays = (kind: string) =>
  new AppError(400, 'sandboxValidation.mediaNotWhatItSays', {
    params: { kind },
    field: 'media.dataBase64',
  });

/** A sandbox photo of more pixels than any phone takes (a decompression bomb): nothing is delivered. */
export const sandboxMediaTooManyPixels = defineError(400, 'sandboxValidation.mediaTooManyPixels', {
  field: 'media.dataBase64',
});

/** A sandbox video's still that is not a photo (or is too large for one): nothing is delivered. */
export const sandboxMediaPoster = defineError(400, 'sandboxValidation.mediaPoster', {
  field: 'media.posterBase64',
});

/** A sandbox file of a type never kept (HTML, SVG, XML): nothing is delivered. */
export const sandboxMediaUnsafe = defineError(400, 'sandboxValidation.mediaUnsafe', {
  field: 'media.dataBase64',
});

// ---- The owner's files ----

/** No file: not a multipart form, or one without its `file` (or an empty one). */
export const mediaFileRequired = defineError(400, 'whatsappMedia.fileRequired', { field: 'file' });

/** A file larger than WHATSAPP_MEDIA_MAX_MB (a 413): nothing is stored or sent. */
export const mediaFileTooLarge = (maxBytes: number) =>
  new AppError(413, 'whatsappMedia.fileTooLarge', {
    params: { mb: Math.round((maxBytes / (1024 * 1024)) * 10) / 10 },
    field: 'file',
  });

/** A "photo" whose bytes are no JPEG, PNG or WebP image (a text file named .jpg…). */
export const mediaNotAPhoto = defineError(400, 'whatsappMedia.notAPhoto', { field: 'file' });

/** A photo of more pixels than any phone takes. */
export const mediaTooManyPixels = defineError(400, 'whatsappMedia.tooManyPixels', {
  field: 'file',
});

/** A page a browser would run (HTML, SVG, XML): never sent nor kept. */
export const mediaFileUnsafe = defineError(400, 'whatsappMedia.fileUnsafe', { field: 'file' });

/** A form that does not parse: a part cut short, a field given twice, a malformed body. */
export const mediaFormInvalid = defineError(400, 'whatsappMedia.formInvalid');

/** More parts, files or fields than a file and its caption. */
export const mediaFormTooLarge = defineError(400, 'whatsappMedia.formTooLarge');

/** A form field the schema refused (the caption too long): its own message key, on its field. */
export const mediaFieldInvalid = ({ key, field }: { key: string; field: string }) =>
  new AppError(400, key, { field });
