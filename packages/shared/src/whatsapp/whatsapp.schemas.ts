import { z } from 'zod';
import { isBlankText } from '../chat/chat.schemas';

/**
 * WhatsApp (spec §2, §3, §7; issue 10): a number connected per account by QR, its contacts'
 * conversations, and the agent that answers them. Field names of the conversation follow the
 * spec (snake_case); every call answers `{success: true, data}`.
 */

export const WHATSAPP_MESSAGE_MAX_LENGTH = 4096;
/** What the sandbox accepts as one inbound message (WhatsApp's own ceiling is 65,536). */
export const WHATSAPP_INBOUND_MAX_LENGTH = 65_536;
/** A phone number as WhatsApp's JIDs carry it: digits only, country code first. */
export const PHONE_PATTERN = /^\d{10,15}$/;

export const whatsappStateSchema = z.enum(['disconnected', 'connecting', 'qr', 'ready', 'reconnecting', 'failed']);
export type WhatsAppState = z.infer<typeof whatsappStateSchema>;

/**
 * Why the connection last ended for good: the phone unlinked the device, WhatsApp banned the
 * number, another session replaced it again and again, the QR codes ran out unscanned, the
 * account disconnected, or anything else (unreachable, a watchdog…).
 */
export const whatsappCloseReasonSchema = z.enum(['logged-out', 'banned', 'replaced', 'qr-limit', 'requested', 'failed']);
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
});
export type WhatsAppStatus = z.infer<typeof whatsappStatusSchema>;

export const whatsappSenderSchema = z.enum(['contact', 'user']);

export const whatsappMessageSchema = z.object({
  id: z.string(),
  sender: whatsappSenderSchema,
  text: z.string(),
  /** ISO 8601. */
  timestamp: z.string(),
  /** The agent that wrote this reply; absent on what the contact or the user wrote. */
  agentName: z.string().optional(),
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
  last_message: z.object({ text: z.string() }).nullable(),
  unread_count: z.number().int(),
  ai_enabled: z.boolean(),
  is_whitelisted: z.boolean(),
  status: conversationStatusSchema,
  agent_id: z.string().nullable(),
  agent_display_name: z.string().nullable(),
});
export type WhatsAppConversation = z.infer<typeof whatsappConversationSchema>;

export const whatsappConversationDetailSchema = whatsappConversationSchema.extend({
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
});
export type WhatsAppAgent = z.infer<typeof whatsappAgentSchema>;

/** `{success: true, data}`, the envelope of every WhatsApp call. */
export const dataResponse = <T extends z.ZodType>(data: T) => z.object({ success: z.literal(true), data });

export const toggleAiSchema = z.object({ enabled: z.boolean({ error: 'validation.booleanRequired' }) });
export const whitelistSchema = z.object({ isWhitelisted: z.boolean({ error: 'validation.booleanRequired' }) });
export const assignAgentSchema = z.object({ agentId: z.uuid('validation.agentIdInvalid').nullable() });
export const whatsappSettingsSchema = z.object({
  whitelistMode: z.boolean({ error: 'validation.booleanRequired' }).optional(),
  defaultAgentId: z.uuid('validation.agentIdInvalid').optional(),
});
export type WhatsAppSettingsInput = z.infer<typeof whatsappSettingsSchema>;

export const whatsappTextSchema = z
  .string({ error: 'validation.messageRequired' })
  .trim()
  .refine((text) => !isBlankText(text), 'validation.messageRequired')
  .max(WHATSAPP_MESSAGE_MAX_LENGTH, 'validation.whatsappMessageTooLong');
export const sendWhatsAppMessageSchema = z.object({ text: whatsappTextSchema });

// ---- The sandbox's control API (WHATSAPP_TRANSPORT=sandbox only) ----

export const phoneSchema = z.string({ error: 'validation.phoneInvalid' }).regex(PHONE_PATTERN, 'validation.phoneInvalid');
/** A WhatsApp address: `5511988887777@s.whatsapp.net`, `…@lid`, `…@g.us`, `status@broadcast`, `…@newsletter`. */
export const jidSchema = z
  .string({ error: 'validation.jidInvalid' })
  .max(128, 'validation.jidInvalid')
  .regex(/^[\w.:-]+@(s\.whatsapp\.net|lid|g\.us|broadcast|newsletter|c\.us)$/, 'validation.jidInvalid');

/** A sandbox contact's or phone's text: longer than anything WhatsApp carries is refused. */
const sandboxTextSchema = z
  .string({ error: 'validation.sandboxTextLength' })
  .min(1, 'validation.sandboxTextLength')
  .max(WHATSAPP_INBOUND_MAX_LENGTH, 'validation.sandboxTextLength');

export const sandboxPairSchema = z.object({ token: z.string().min(1).max(256), phone: phoneSchema });
export const sandboxInboundSchema = z.object({
  to: phoneSchema,
  from: jidSchema,
  text: sandboxTextSchema,
  id: z.string().min(1).max(128).optional(),
  pushName: z.string().max(256).optional(),
  participant: jidSchema.optional(),
  fromAlt: jidSchema.optional(),
});
export type SandboxInbound = z.infer<typeof sandboxInboundSchema>;
export const sandboxOutboundSchema = z.object({ from: phoneSchema, to: jidSchema, text: sandboxTextSchema });

/** What a linked sandbox number sent out, in order. */
export const sandboxPhoneEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('message'), to: z.string(), id: z.string(), text: z.string(), at: z.string() }),
  z.object({ type: z.literal('presence'), to: z.string(), state: z.enum(['composing', 'paused']), at: z.string() }),
  z.object({ type: z.literal('read'), from: z.string(), ids: z.array(z.string()), at: z.string() }),
]);
export type SandboxPhoneEvent = z.infer<typeof sandboxPhoneEventSchema>;
