import { z } from 'zod';
import { agentNameSchema } from '../agents/agents.schemas';
import { PAIRING_AGENT_NAME } from '../agents/agent-names';
import { textInput } from '../text/text.schemas';

export const MESSAGE_MAX_LENGTH = 4000;

/**
 * Nothing to read: whitespace, format characters (Unicode category Cf: zero-width space, joiners,
 * word joiner, byte-order mark, soft hyphen, direction marks…) and the other code points Unicode
 * calls default-ignorable (Hangul fillers, variation selectors…), which no font draws either.
 */
const NOTHING_VISIBLE = /^[\s\p{Cf}\p{Default_Ignorable_Code_Point}]*$/u;

/** Whether `text` shows nothing: a message of it is as empty as one of spaces (the message box uses it too). */
export function isBlankText(text: string): boolean {
  return NOTHING_VISIBLE.test(text);
}

export const chatTextSchema = textInput({ error: 'validation.messageRequired' })
  .trim()
  .refine((text) => !isBlankText(text), 'validation.messageRequired')
  .max(MESSAGE_MAX_LENGTH, 'validation.messageTooLong');

/** POST /api/chat/message; with `Accept: text/event-stream` the reply streams (see ChatStreamEvent). */
export const sendMessageSchema = z.object({
  message: chatTextSchema,
  conversationId: z.uuid('validation.conversationIdInvalid').optional(),
  agentName: agentNameSchema,
});
export type SendMessageInput = z.infer<typeof sendMessageSchema>;

export const chatSenderSchema = z.enum(['user', 'bot']);

export const chatMessageSchema = z.object({
  id: z.string(),
  text: z.string(),
  sender: chatSenderSchema,
  /** ISO 8601. */
  timestamp: z.string(),
  /** The user stopped this reply: its text is what had arrived by then. */
  stopped: z.boolean().optional(),
  /**
   * A reply that waits for the user's answer: `relayConfirm`, indirect showed a message it will
   * relay once the user says yes (the page offers Send and Cancel while it is the last message).
   */
  awaits: z.enum(['relayConfirm']).optional(),
});
export type ChatMessage = z.infer<typeof chatMessageSchema>;

export const sendMessageResponseSchema = z.object({
  success: z.literal(true),
  message: chatMessageSchema,
  conversation: z.object({ id: z.string() }),
});
export type SendMessageResponse = z.infer<typeof sendMessageResponseSchema>;

/**
 * Server-sent events of a streamed reply: first `start` with the conversation's id (so a reply
 * the user stops still continues the same conversation), `delta` events carrying text as the
 * engine produces it, then one `done` with the stored message, or one `error` (nothing stored).
 * A client that goes away (Stop) ends the reply: what had arrived is stored, marked `stopped`.
 */
export type ChatStreamEvent =
  | { event: 'start'; data: { conversation: { id: string } } }
  | { event: 'delta'; data: { text: string } }
  | { event: 'done'; data: SendMessageResponse }
  | { event: 'error'; data: { success: false; message: string } };

/** The longest title a conversation takes (a rename), and the length a derived one is cut to. */
export const CONVERSATION_TITLE_MAX_LENGTH = 100;
export const DERIVED_TITLE_LENGTH = 60;

/**
 * Characters a title never holds: control characters (line breaks included), and the invisible
 * formatting ones that can reorder or hide text (bidirectional overrides, zero-width).
 */
const HIDDEN_CHARACTERS = /[\p{Cc}\u200B-\u200F\u202A-\u202E\u2060-\u2069\uFEFF]/u;
/** Markup: React would show it as text, but a title is a name, not a place for tags. */
const MARKUP = /<\/?[a-z!?][^>]*>/i;

/** PATCH /api/chat/conversations/{id}: a new title, 1–100 characters after trimming, plain text. */
export const renameConversationSchema = z.object({
  title: textInput({ error: 'validation.titleRequired' })
    .trim()
    .min(1, 'validation.titleRequired')
    .max(CONVERSATION_TITLE_MAX_LENGTH, 'validation.titleTooLong')
    .refine(
      (title) => !HIDDEN_CHARACTERS.test(title) && !MARKUP.test(title),
      'validation.titleInvalid',
    ),
});
export type RenameConversationInput = z.infer<typeof renameConversationSchema>;

export const conversationSummarySchema = z.object({
  id: z.string(),
  agentName: z.string(),
  /** The stored title, else the start of the first message ('' for a conversation without one). */
  title: z.string(),
  /** ISO 8601: the last message, which orders the list newest first. */
  updatedAt: z.string(),
  messageCount: z.number().int(),
  createdAt: z.string(),
});
export type ConversationSummary = z.infer<typeof conversationSummarySchema>;

export const SEARCH_MAX_LENGTH = 200;

/** GET /api/chat/conversations: `q` keeps the conversations whose title or any message contains it. */
export const conversationsQuerySchema = z.object({
  agentName: agentNameSchema.optional(),
  q: textInput().trim().max(SEARCH_MAX_LENGTH, 'validation.searchTooLong').optional(),
});
export type ConversationsQuery = z.infer<typeof conversationsQuerySchema>;

export const conversationsResponseSchema = z.object({
  conversations: z.array(conversationSummarySchema),
});
export type ConversationsResponse = z.infer<typeof conversationsResponseSchema>;

export const conversationResponseSchema = z.object({
  conversation: z.object({
    id: z.string(),
    agentName: z.string(),
    title: z.string(),
    createdAt: z.string(),
    messages: z.array(chatMessageSchema),
  }),
});
export type ConversationResponse = z.infer<typeof conversationResponseSchema>;

export const renameConversationResponseSchema = z.object({
  success: z.literal(true),
  conversation: conversationSummarySchema,
});
export type RenameConversationResponse = z.infer<typeof renameConversationResponseSchema>;

export const deleteConversationResponseSchema = z.object({ success: z.literal(true) });
export type DeleteConversationResponse = z.infer<typeof deleteConversationResponseSchema>;

/** POST /api/chat: the dashboard's short form, kept in the user's latest conversation with the agent. */
export const shortChatSchema = z.object({ message: chatTextSchema, agentName: agentNameSchema });
export type ShortChatInput = z.infer<typeof shortChatSchema>;
export const shortChatResponseSchema = z.object({ response: z.string() });
export type ShortChatResponse = z.infer<typeof shortChatResponseSchema>;

/**
 * POST /api/auxtrat/qr-code: a one-time pairing code for a conversation, in a link that opens a
 * chat with the platform's WhatsApp number with the code written (`link`), and as its QR PNG data
 * URL. Only auxtrat's conversations are paired with a WhatsApp chat.
 */
export const pairingQrSchema = z.object({
  sessionId: z.uuid('validation.conversationIdInvalid'),
  agentName: agentNameSchema.pipe(z.literal(PAIRING_AGENT_NAME, 'validation.agentNameInvalid')),
});
export type PairingQrInput = z.infer<typeof pairingQrSchema>;
export const pairingQrResponseSchema = z.object({
  qrCode: z.string(),
  expiresAt: z.string(),
  link: z.string(),
});
export type PairingQrResponse = z.infer<typeof pairingQrResponseSchema>;

/** GET /api/stats: the dashboard's stat cards, the caller's own figures. */
export const userStatsResponseSchema = z.object({
  hiredAgents: z.number().int(),
  conversations: z.number().int(),
  messages: z.number().int(),
});
export type UserStatsResponse = z.infer<typeof userStatsResponseSchema>;
