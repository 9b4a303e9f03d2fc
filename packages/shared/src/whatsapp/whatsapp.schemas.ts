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
  last_message: z.object({ text: z.string().max(WHATSAPP_PREVIEW_MAX_LENGTH) }).nullable(),
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
export const sandboxInboundSchema = z.object({
  to: phoneSchema,
  from: jidSchema,
  text: sandboxTextSchema,
  id: textInput().min(1).max(128).optional(),
  pushName: textInput().max(256).optional(),
  participant: jidSchema.optional(),
  fromAlt: jidSchema.optional(),
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
    text: z.string(),
    at: z.string(),
    /** The send reached WhatsApp and failed with this error code (`fail-sends`): nothing was delivered. */
    failed: z.string().optional(),
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
