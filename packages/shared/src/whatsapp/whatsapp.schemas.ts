import { z } from 'zod';
import { isBlankText } from '../chat/chat.schemas';
import { sliceWhole, textInput } from '../text/text.schemas';

/**
 * WhatsApp: a number connected per account by QR, its contacts' conversations, and the agent that
 * answers them. A conversation's field names are snake_case (`contact_name`, `ai_enabled`, …);
 * every call answers `{success: true, data}`.
 */

export const WHATSAPP_MESSAGE_MAX_LENGTH = 4096;
/** What the sandbox accepts as one inbound message (WhatsApp's own ceiling is 65,536). */
export const WHATSAPP_INBOUND_MAX_LENGTH = 65_536;
/** The longest preview of a conversation's last message a list entry carries. */
export const WHATSAPP_PREVIEW_MAX_LENGTH = 200;
/**
 * A list entry's preview of a message: at most WHATSAPP_PREVIEW_MAX_LENGTH UTF-16 units, a cut
 * one ending in an ellipsis and never in half a surrogate pair. The server cuts the list's; the
 * page cuts a live message's the same way.
 */
export function whatsappPreview(text: string): string {
  if (text.length <= WHATSAPP_PREVIEW_MAX_LENGTH) return text;
  return `${sliceWhole(text, WHATSAPP_PREVIEW_MAX_LENGTH - 1)}…`;
}
/** A page of messages or conversations: this many unless asked, at most the maximum (more is a 400). */
export const WHATSAPP_PAGE_DEFAULT = 50;
export const WHATSAPP_PAGE_MAX = 200;
/** A phone number as WhatsApp's JIDs carry it: digits only, country code first. */
export const PHONE_PATTERN = /^\d{10,15}$/;

export const whatsappStateSchema = z.enum([
  'disconnected',
  'connecting',
  'qr',
  'ready',
  'reconnecting',
  'failed',
]);
export type WhatsAppState = z.infer<typeof whatsappStateSchema>;

/**
 * Why the connection last ended for good: the phone unlinked the device, WhatsApp banned the
 * number, another session replaced it again and again, the QR codes ran out unscanned, the
 * account disconnected, or anything else (unreachable, a watchdog…).
 */
export const whatsappCloseReasonSchema = z.enum([
  'logged-out',
  'banned',
  'replaced',
  'qr-limit',
  'requested',
  'failed',
]);
export type WhatsAppCloseReason = z.infer<typeof whatsappCloseReasonSchema>;

export const whatsappStatusSchema = z.object({
  isReady: z.boolean(),
  /** A PNG data URL while a QR code waits to be scanned, else null. */
  qrCode: z.string().nullable(),
  conversationsCount: z.number().int(),
  aiEnabledCount: z.number().int(),
  whitelistMode: z.boolean(),
  whitelistedCount: z.number().int(),
  agentAssignedCount: z.number().int(),
  state: whatsappStateSchema,
  /** The linked number's digits once ready, else null. */
  phone: z.string().nullable(),
  /** The agent that answers conversations with none assigned. */
  defaultAgentId: z.string().nullable(),
  /**
   * Why the connection last ended, kept (on every instance) until the next QR code or link, so
   * that a page opened later still says it; null if it never ended.
   */
  lastCloseReason: whatsappCloseReasonSchema.nullable(),
  /**
   * The 8-character code to type on the phone (WhatsApp > Linked devices > Link a device > Link
   * with phone number instead) while linking by number and the code is valid, else null.
   */
  pairingCode: z.string().nullable(),
  /** WHATSAPP_MEDIA_MAX_MB, in bytes: the largest file the owner may send (the page refuses a larger one at once). */
  mediaMaxBytes: z.number().int().positive(),
});
export type WhatsAppStatus = z.infer<typeof whatsappStatusSchema>;

export const whatsappSenderSchema = z.enum(['contact', 'user']);

/** Where an outgoing message stands, as WhatsApp's ticks show it. */
export const whatsappDeliveryStatusSchema = z.enum([
  'pending',
  'sent',
  'delivered',
  'read',
  'failed',
]);
export type WhatsAppDeliveryStatus = z.infer<typeof whatsappDeliveryStatusSchema>;

/** An emoji reaction on a message: by the contact or by the account's owner (from their phone). */
export const whatsappReactionSchema = z.object({
  sender: whatsappSenderSchema,
  emoji: z.string(),
});
export type WhatsAppReaction = z.infer<typeof whatsappReactionSchema>;

/** What a WhatsApp message may carry besides text. A voice note is `audio` with `voice: true`. */
export const WHATSAPP_MEDIA_KINDS = [
  'image',
  'sticker',
  'audio',
  'video',
  'document',
  'location',
  'contact',
] as const;
export const whatsappMediaKindSchema = z.enum(WHATSAPP_MEDIA_KINDS);
export type WhatsAppMediaKind = z.infer<typeof whatsappMediaKindSchema>;

/**
 * Why a message's file is not kept (shown instead of it): larger than WHATSAPP_MEDIA_MAX_MB, its
 * bytes not what it said it was, a type never kept (a page or script: HTML, SVG), an image of
 * more pixels than any phone takes, a download that failed or came damaged, or older than
 * WHATSAPP_MEDIA_RETENTION_DAYS.
 */
export const whatsappMediaUnavailableSchema = z.enum([
  'too-large',
  'type-mismatch',
  'unsafe-type',
  'too-many-pixels',
  'download-failed',
  'expired',
]);
export type WhatsAppMediaUnavailable = z.infer<typeof whatsappMediaUnavailableSchema>;

/** The longest file name, place or contact name a media description keeps. */
export const WHATSAPP_MEDIA_NAME_MAX_LENGTH = 255;

/**
 * What a message carries besides its text (its caption is the message's `text` too): the file's
 * kind, its real type (read from its bytes), size in bytes, name, duration; a location's
 * coordinates; a contact card's name and number. `url` serves the file (signed, for an hour) while
 * it is kept; `unavailable` says why it is not.
 */
export const whatsappMediaSchema = z.object({
  kind: whatsappMediaKindSchema,
  /** A voice note (recorded in the chat), not an audio file sent. */
  voice: z.literal(true).optional(),
  mimetype: z.string().optional(),
  /** Bytes: the file's, or as the sender declared it when the file is not kept. */
  size: z.number().int().nonnegative().optional(),
  fileName: z.string().optional(),
  caption: z.string().optional(),
  /** An audio's or video's duration. */
  seconds: z.number().nonnegative().optional(),
  latitude: z.number().min(-90).max(90).optional(),
  longitude: z.number().min(-180).max(180).optional(),
  /** A location's name or address, when it has one. */
  place: z.string().optional(),
  contactName: z.string().optional(),
  contactNumber: z.string().optional(),
  unavailable: whatsappMediaUnavailableSchema.optional(),
  /** A voice note's or audio's words, as the transcription model heard them (absent until then). */
  transcript: z.string().optional(),
  /**
   * A video's still, as the sender's phone made it (WhatsApp's thumbnail), re-encoded here: a
   * `data:image/jpeg;base64,…` address of a few kilobytes, shown before the video is played.
   */
  poster: z.string().optional(),
  /** Where the file is served (same origin, signed and expiring); absent when it is not kept. */
  url: z.string().optional(),
});
export type WhatsAppMedia = z.infer<typeof whatsappMediaSchema>;

/** How a list entry names what a message carries: its kind, or `voice` for a voice note. */
export const WHATSAPP_PREVIEW_MEDIA = [...WHATSAPP_MEDIA_KINDS, 'voice'] as const;
export type WhatsAppPreviewMedia = (typeof WHATSAPP_PREVIEW_MEDIA)[number];

export function whatsappPreviewMedia(
  media: Pick<WhatsAppMedia, 'kind' | 'voice'> | null | undefined,
): WhatsAppPreviewMedia | undefined {
  if (!media) return undefined;
  return media.kind === 'audio' && media.voice ? 'voice' : media.kind;
}

export const whatsappMessageSchema = z.object({
  id: z.string(),
  sender: whatsappSenderSchema,
  text: z.string(),
  /** ISO 8601. */
  timestamp: z.string(),
  /** The agent that wrote this reply; absent on what the contact or the user wrote. */
  agentName: z.string().optional(),
  /**
   * A contact's message that reached the number while it was disconnected, too long ago to be
   * answered (WHATSAPP_CATCHUP_MINUTES): shown, never answered. Absent on every other message.
   */
  unanswered: z.literal(true).optional(),
  /** An outgoing message's delivery (absent on the contact's and on a reply that could not be made). */
  status: whatsappDeliveryStatusSchema.optional(),
  /** Why a `failed` message was not sent, in the reader's language. */
  statusError: z.string().optional(),
  /** ISO 8601: when its author edited it in WhatsApp (`text` is the edited text). */
  editedAt: z.string().optional(),
  /** Its author deleted it for everyone: `text` is empty, and it shows as deleted. */
  deleted: z.literal(true).optional(),
  /** Emoji reactions on it, one per party (absent when none). */
  reactions: z.array(whatsappReactionSchema).optional(),
  /** A photo, voice note, document, location… it carries (absent on text alone). */
  media: whatsappMediaSchema.optional(),
});
export type WhatsAppMessage = z.infer<typeof whatsappMessageSchema>;

export const conversationStatusSchema = z.enum(['active', 'blocked', 'pending']);
export type WhatsAppConversationStatus = z.infer<typeof conversationStatusSchema>;

export const whatsappConversationSchema = z.object({
  id: z.string(),
  contact_name: z.string(),
  contact_number: z.string(),
  /** ISO 8601: the last message in or out. */
  updated_at: z.string(),
  /** The last message's first WHATSAPP_PREVIEW_MAX_LENGTH characters (an ellipsis ends a cut one). */
  last_message: z
    .object({
      text: z.string().max(WHATSAPP_PREVIEW_MAX_LENGTH),
      /** What it carries besides text (its text is then the caption, often empty); `voice`: a voice note. */
      media: z.enum(WHATSAPP_PREVIEW_MEDIA).optional(),
    })
    .nullable(),
  unread_count: z.number().int(),
  ai_enabled: z.boolean(),
  is_whitelisted: z.boolean(),
  status: conversationStatusSchema,
  agent_id: z.string().nullable(),
  agent_display_name: z.string().nullable(),
  /**
   * Messages of the contact that were counted but not stored: while blocked, beyond a day's
   * allowance (WHATSAPP_BLOCKED_DAILY_MESSAGES). 0 for nearly every contact.
   */
  dropped_count: z.number().int(),
  /**
   * Why the conversation is `blocked`: the owner blocked the contact (until unblocked), or it wrote
   * too fast (until `blocked_until`); null when not blocked.
   */
  blocked_reason: z.enum(['owner', 'flood']).nullable(),
  /** ISO 8601: when a block for writing too fast ends; null otherwise. */
  blocked_until: z.string().nullable(),
  /**
   * ISO 8601: until when the agent is paused here because the owner wrote to the contact (human
   * takeover, WHATSAPP_TAKEOVER_MINUTES); null when it is not paused.
   */
  paused_until: z.string().nullable(),
  /**
   * "Precisa de você": the contact asked for a person and the agent handed over (its handoff
   * message sent once, the agent paused); until the owner writes to the contact.
   */
  needs_human: z.boolean(),
});
export type WhatsAppConversation = z.infer<typeof whatsappConversationSchema>;

export const whatsappConversationDetailSchema = whatsappConversationSchema.extend({
  /** One page of the conversation's messages: the newest before the cursor, oldest first. */
  messages: z.array(whatsappMessageSchema),
});
export type WhatsAppConversationDetail = z.infer<typeof whatsappConversationDetailSchema>;

/**
 * The account's WhatsApp data in "Download my data" (LGPD art. 18): the linked number, and each
 * contact's conversation with every message, oldest first.
 */
export const whatsappAccountExportSchema = z.object({
  phone: z.string().nullable(),
  /** Every file of the account's conversations, the contacts' and the owner's (kept or not), oldest first. */
  media: z.array(
    z.object({
      conversationId: z.string(),
      messageId: z.string(),
      kind: whatsappMediaKindSchema,
      fileName: z.string().nullable(),
      /** Its real type, read from its bytes (as declared when it was not kept). */
      mimetype: z.string().nullable(),
      size: z.number().nullable(),
      /** ISO 8601. */
      receivedAt: z.string(),
      /** Whether its file is still kept (not too large, refused or expired). */
      kept: z.boolean(),
      /**
       * Where the ZIP variant of the export holds its file (`media/<conversation>/<message>.<ext>`,
       * the server's names: the contact's is `fileName`); null when it is not kept.
       */
      archivePath: z.string().nullable(),
    }),
  ),
  conversations: z.array(
    z.object({
      id: z.string(),
      contactName: z.string(),
      contactNumber: z.string(),
      aiEnabled: z.boolean(),
      isWhitelisted: z.boolean(),
      createdAt: z.string(),
      updatedAt: z.string(),
      messages: z.array(whatsappMessageSchema),
    }),
  ),
});
export type WhatsAppAccountExport = z.infer<typeof whatsappAccountExportSchema>;

/** An agent the account hired that may answer its WhatsApp conversations. */
export const whatsappAgentSchema = z.object({
  id: z.string(),
  name: z.string(),
  displayName: z.string(),
  description: z.string(),
  /** One of the account's own agents (listed first), not a catalogue agent it hired. */
  own: z.boolean(),
});
export type WhatsAppAgent = z.infer<typeof whatsappAgentSchema>;

/** `{success: true, data}`, the envelope of every WhatsApp call. */
export const dataResponse = <T extends z.ZodType>(data: T) =>
  z.object({ success: z.literal(true), data });

/**
 * `{success: true, data, nextCursor}`: a page of the list, or of a conversation's messages.
 * `nextCursor` (opaque) asks for the next page (older messages, or the conversations after
 * these); null on the last one.
 */
export const pageResponse = <T extends z.ZodType>(data: T) =>
  z.object({ success: z.literal(true), data, nextCursor: z.string().nullable() });

/**
 * `?cursor=…&limit=…` of a paged read. The cursor is one the previous page gave; its contents
 * are the server's to read (a cursor it cannot read is a 400).
 */
export const whatsappPageQuerySchema = z.object({
  cursor: textInput()
    .min(1, 'validation.cursorInvalid')
    .max(200, 'validation.cursorInvalid')
    .optional(),
  limit: z.coerce
    .number({ error: 'validation.pageLimit' })
    .int('validation.pageLimit')
    .min(1, 'validation.pageLimit')
    .max(WHATSAPP_PAGE_MAX, 'validation.pageLimit')
    .default(WHATSAPP_PAGE_DEFAULT),
});
export type WhatsAppPageQuery = z.infer<typeof whatsappPageQuerySchema>;

export const toggleAiSchema = z.object({
  enabled: z.boolean({ error: 'validation.booleanRequired' }),
});
export const whitelistSchema = z.object({
  isWhitelisted: z.boolean({ error: 'validation.booleanRequired' }),
});
export const assignAgentSchema = z.object({
  agentId: z.uuid('validation.agentIdInvalid').nullable(),
});
export const blockSchema = z.object({
  blocked: z.boolean({ error: 'validation.booleanRequired' }),
});
export const whatsappSettingsSchema = z.object({
  whitelistMode: z.boolean({ error: 'validation.booleanRequired' }).optional(),
  /** Who answers contacts without an agent of their own; null: nobody (conversations are kept, unanswered). */
  defaultAgentId: z.uuid('validation.agentIdInvalid').nullable().optional(),
});
export type WhatsAppSettingsInput = z.infer<typeof whatsappSettingsSchema>;

export const whatsappTextSchema = textInput({ error: 'validation.messageRequired' })
  .trim()
  .refine((text) => !isBlankText(text), 'validation.messageRequired')
  .max(WHATSAPP_MESSAGE_MAX_LENGTH, 'validation.whatsappMessageTooLong');
export const sendWhatsAppMessageSchema = z.object({ text: whatsappTextSchema });

/**
 * The owner's file to a contact, a multipart form: the file (`file`) and its caption (`caption`,
 * optional, as long as a message may be). A photo (JPEG, PNG or WebP, as the browser names it)
 * goes as a photo and must really be one; anything else goes as a document, never markup.
 */
export const WHATSAPP_MEDIA_FORM = { file: 'file', caption: 'caption' } as const;
/** The types a file is sent as a photo under (its bytes must agree); any other goes as a document. */
export const WHATSAPP_PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
export const whatsappCaptionSchema = textInput()
  .trim()
  .max(WHATSAPP_MESSAGE_MAX_LENGTH, 'validation.whatsappMessageTooLong');
export const sendWhatsAppMediaFieldsSchema = z.object({
  caption: whatsappCaptionSchema.optional(),
});

// ---- The sandbox's control API (WHATSAPP_TRANSPORT=sandbox only) ----

export const phoneSchema = textInput({ error: 'validation.phoneInvalid' }).regex(
  PHONE_PATTERN,
  'validation.phoneInvalid',
);
/** A WhatsApp address: `5511988887777@s.whatsapp.net`, `…@lid`, `…@g.us`, `status@broadcast`, `…@newsletter`. */
export const jidSchema = textInput({ error: 'validation.jidInvalid' })
  .max(128, 'validation.jidInvalid')
  .regex(
    /^[\w.:-]+@(s\.whatsapp\.net|lid|g\.us|broadcast|newsletter|c\.us)$/,
    'validation.jidInvalid',
  );

/** A sandbox contact's or phone's text: longer than anything WhatsApp carries is refused. */
const sandboxTextSchema = textInput({ error: 'validation.sandboxTextLength' })
  .min(1, 'validation.sandboxTextLength')
  .max(WHATSAPP_INBOUND_MAX_LENGTH, 'validation.sandboxTextLength');

export const sandboxPairSchema = z.object({
  token: textInput().min(1).max(256),
  phone: phoneSchema,
});
/** Linking by number: the phone that will type the pairing code. */
export const pairingCodeRequestSchema = z.object({ phone: phoneSchema });
/** The sandbox phone `phone` types the pairing code `code` its owner was shown. */
export const sandboxPairingCodeSchema = z.object({
  code: textInput({ error: 'validation.pairingCodeInvalid' })
    .max(32, 'validation.pairingCodeInvalid')
    .trim()
    .transform((code) => code.replace(/[\s-]/g, '').toUpperCase())
    .pipe(z.string().regex(/^[0-9A-Z]{8}$/, 'validation.pairingCodeInvalid')),
  phone: phoneSchema,
});
/**
 * The most base64 a sandbox file may be sent as: that of a 100 MB file, WHATSAPP_MEDIA_MAX_MB's
 * ceiling. The server refuses what is past its own WHATSAPP_MEDIA_MAX_MB.
 */
export const SANDBOX_MEDIA_BASE64_MAX_LENGTH = Math.ceil((100 * 1024 * 1024) / 3) * 4;
/**
 * The largest still a received video may carry (WhatsApp's thumbnails are a few kilobytes): a
 * larger one is not kept, and the video shows its first frame instead.
 */
export const WHATSAPP_POSTER_MAX_BYTES = 64 * 1024;
/** Media types as `type/subtype`, with parameters as phones send them (`audio/ogg; codecs=opus`). */
const MIME_PATTERN =
  /^[a-z0-9][\w.+-]{0,63}\/[a-z0-9][\w.+-]{0,63}(\s*;\s*[\w.+-]{1,32}=[\w.+-]{1,32}){0,4}$/i;
const BASE64_PATTERN = /^[A-Za-z0-9+/]*={0,2}$/;
const mediaName = textInput({ error: 'sandboxValidation.mediaField' })
  .trim()
  .min(1, 'sandboxValidation.mediaField')
  .max(WHATSAPP_MEDIA_NAME_MAX_LENGTH, 'sandboxValidation.mediaField');

/**
 * What a sandbox contact sends besides text, as WhatsApp carries it: a file (`dataBase64`, its
 * `mimetype` as the sender's phone said it), a location, or a contact card. The server checks the
 * file's bytes against its kind.
 */
export const sandboxMediaSchema = z
  .object({
    kind: z.enum(WHATSAPP_MEDIA_KINDS, { error: 'sandboxValidation.mediaKind' }),
    /** An audio recorded in the chat (a voice note). */
    voice: z.boolean({ error: 'validation.booleanRequired' }).optional(),
    mimetype: textInput({ error: 'sandboxValidation.mediaType' })
      .regex(MIME_PATTERN, 'sandboxValidation.mediaType')
      .optional(),
    fileName: mediaName.optional(),
    dataBase64: textInput({ error: 'sandboxValidation.mediaData' })
      .max(SANDBOX_MEDIA_BASE64_MAX_LENGTH, 'sandboxValidation.mediaData')
      .regex(BASE64_PATTERN, 'sandboxValidation.mediaData')
      .optional(),
    /** A video's still, as the sender's phone attaches it: a JPEG, PNG or WebP image. */
    posterBase64: textInput({ error: 'sandboxValidation.mediaPoster' })
      .min(1, 'sandboxValidation.mediaPoster')
      .max(Math.ceil(WHATSAPP_POSTER_MAX_BYTES / 3) * 4, 'sandboxValidation.mediaPoster')
      .regex(BASE64_PATTERN, 'sandboxValidation.mediaPoster')
      .optional(),
    caption: sandboxTextSchema.optional(),
    seconds: z
      .number({ error: 'sandboxValidation.mediaField' })
      .int('sandboxValidation.mediaField')
      .min(0, 'sandboxValidation.mediaField')
      .max(24 * 60 * 60, 'sandboxValidation.mediaField')
      .optional(),
    latitude: z
      .number({ error: 'sandboxValidation.mediaLocation' })
      .min(-90, 'sandboxValidation.mediaLocation')
      .max(90, 'sandboxValidation.mediaLocation')
      .optional(),
    longitude: z
      .number({ error: 'sandboxValidation.mediaLocation' })
      .min(-180, 'sandboxValidation.mediaLocation')
      .max(180, 'sandboxValidation.mediaLocation')
      .optional(),
    place: mediaName.optional(),
    contactName: mediaName.optional(),
    contactNumber: textInput({ error: 'sandboxValidation.mediaContact' })
      .regex(/^\+?[\d ()-]{3,32}$/, 'sandboxValidation.mediaContact')
      .optional(),
  })
  .superRefine((media, context) => {
    const issue = (path: string, message: string) =>
      context.addIssue({ code: 'custom', path: [path], message });
    if (media.kind === 'location') {
      if (media.latitude === undefined || media.longitude === undefined)
        issue('latitude', 'sandboxValidation.mediaLocation');
    } else if (media.kind === 'contact') {
      if (!media.contactName && !media.contactNumber)
        issue('contactName', 'sandboxValidation.mediaContact');
    } else {
      if (!media.mimetype) issue('mimetype', 'sandboxValidation.mediaType');
      if (!media.dataBase64) issue('dataBase64', 'sandboxValidation.mediaData');
    }
    if (media.posterBase64 !== undefined && media.kind !== 'video')
      issue('posterBase64', 'sandboxValidation.mediaPoster');
  });
export type SandboxMedia = z.infer<typeof sandboxMediaSchema>;

export const sandboxInboundSchema = z
  .object({
    to: phoneSchema,
    from: jidSchema,
    /** The message's text; with `media`, its caption (`media.caption` is taken when both are given). */
    text: sandboxTextSchema.optional(),
    media: sandboxMediaSchema.optional(),
    id: textInput().min(1).max(128).optional(),
    pushName: textInput().max(256).optional(),
    participant: jidSchema.optional(),
    fromAlt: jidSchema.optional(),
  })
  .refine((inbound) => inbound.text !== undefined || inbound.media !== undefined, {
    message: 'sandboxValidation.messageEmpty',
    path: ['text'],
  });
export type SandboxInbound = z.infer<typeof sandboxInboundSchema>;
/** A contact edits a message it sent to the sandbox number `to` (`id`: its WhatsApp id). */
export const sandboxEditSchema = z.object({
  to: phoneSchema,
  from: jidSchema,
  id: textInput().min(1).max(128),
  text: sandboxTextSchema,
});
export type SandboxEdit = z.infer<typeof sandboxEditSchema>;
/** A contact deletes for everyone a message it sent to the sandbox number `to`. */
export const sandboxRevokeSchema = z.object({
  to: phoneSchema,
  from: jidSchema,
  id: textInput().min(1).max(128),
});
export type SandboxRevoke = z.infer<typeof sandboxRevokeSchema>;
/** A contact reacts to a message of its chat with the sandbox number `to` (an empty emoji takes it back). */
export const sandboxReactSchema = z.object({
  to: phoneSchema,
  from: jidSchema,
  id: textInput().min(1).max(128),
  emoji: textInput({ error: 'validation.sandboxEmoji' }).max(32, 'validation.sandboxEmoji'),
});
export type SandboxReact = z.infer<typeof sandboxReactSchema>;
export const sandboxOutboundSchema = z.object({
  from: phoneSchema,
  to: jidSchema,
  text: sandboxTextSchema,
});
/** The owner of a linked sandbox phone writes to the contact `to` from the phone itself. */
export const sandboxOwnMessageSchema = z.object({
  to: jidSchema,
  text: sandboxTextSchema,
});
/** A sandbox phone's link goes down (`online: false`: contacts' messages wait) or comes back. */
export const sandboxNetworkSchema = z.object({
  online: z.boolean({ error: 'validation.booleanRequired' }),
});

/** The next `count` sends of a sandbox number fail with WhatsApp's error `code` (e.g. 463). */
export const sandboxFailSendsSchema = z.object({
  count: z
    .number()
    .int()
    .min(0, 'validation.sandboxFailCount')
    .max(100, 'validation.sandboxFailCount'),
  code: textInput({ error: 'validation.sandboxFailCode' }).regex(
    /^[\w-]{1,32}$/,
    'validation.sandboxFailCode',
  ),
});
export type SandboxFailSends = z.infer<typeof sandboxFailSendsSchema>;

/**
 * The sandbox phone `to` learns that a contact's LID (`<digits>@lid`) and its phone number's JID
 * (`<digits>@s.whatsapp.net`) are one person, as WhatsApp tells a linked device.
 */
export const sandboxLidMappingSchema = z.object({
  to: phoneSchema,
  lid: textInput({ error: 'validation.lidInvalid' })
    .max(64, 'validation.lidInvalid')
    .regex(/^\d{1,40}@lid$/, 'validation.lidInvalid'),
  pn: textInput({ error: 'validation.pnJidInvalid' })
    .max(64, 'validation.pnJidInvalid')
    .regex(/^\d{8,15}@s\.whatsapp\.net$/, 'validation.pnJidInvalid'),
});
export type SandboxLidMapping = z.infer<typeof sandboxLidMappingSchema>;

/** The contacts' phones received (`delivered`) or read these messages the number sent. */
export const sandboxReceiptsSchema = z.object({
  ids: z.array(textInput().min(1).max(128)).min(1).max(100),
  status: z.enum(['delivered', 'read']),
});
export type SandboxReceipts = z.infer<typeof sandboxReceiptsSchema>;

/** What a linked sandbox number sent out, in order. */
export const sandboxPhoneEventSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('message'),
    to: z.string(),
    id: z.string(),
    /** The text, or a file's caption ('' without one). */
    text: z.string(),
    at: z.string(),
    /** The send reached WhatsApp and failed with this error code (`fail-sends`): nothing was delivered. */
    failed: z.string().optional(),
    /** The file the account sent (its bytes stay on the server): what the contact's phone shows of it. */
    media: z
      .object({
        kind: z.enum(['image', 'document']),
        mimetype: z.string(),
        size: z.number().int().nonnegative(),
        fileName: z.string().optional(),
        caption: z.string().optional(),
      })
      .optional(),
  }),
  z.object({
    type: z.literal('presence'),
    to: z.string(),
    state: z.enum(['composing', 'paused']),
    at: z.string(),
  }),
  z.object({ type: z.literal('read'), from: z.string(), ids: z.array(z.string()), at: z.string() }),
]);
export type SandboxPhoneEvent = z.infer<typeof sandboxPhoneEventSchema>;

/**
 * GET /api/admin/whatsapp/platform: the platform's number (WHATSAPP_PLATFORM_ACCOUNT's linked
 * WhatsApp, which carries auxtrat's Sync Agent): whose account it is (null when no account is
 * it), the number while connected, and whether it is.
 */
export const whatsappPlatformSchema = z.object({
  account: z.string().nullable(),
  phone: z.string().nullable(),
  connected: z.boolean(),
});
export type WhatsAppPlatform = z.infer<typeof whatsappPlatformSchema>;
