import { z } from 'zod';
import { agentNameSchema } from '../agents/agents.schemas';

export const MESSAGE_MAX_LENGTH = 4000;

export const chatTextSchema = z
  .string({ error: 'validation.messageRequired' })
  .trim()
  .min(1, 'validation.messageRequired')
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
});
export type ChatMessage = z.infer<typeof chatMessageSchema>;

export const sendMessageResponseSchema = z.object({
  success: z.literal(true),
  message: chatMessageSchema,
  conversation: z.object({ id: z.string() }),
});
export type SendMessageResponse = z.infer<typeof sendMessageResponseSchema>;

/**
 * Server-sent events of a streamed reply: `delta` events carry text as the engine produces it,
 * then one `done` with the stored message, or one `error` (nothing stored).
 */
export type ChatStreamEvent =
  | { event: 'delta'; data: { text: string } }
  | { event: 'done'; data: SendMessageResponse }
  | { event: 'error'; data: { success: false; message: string } };

export const conversationSummarySchema = z.object({
  id: z.string(),
  agentName: z.string(),
  messageCount: z.number().int(),
  createdAt: z.string(),
});
export type ConversationSummary = z.infer<typeof conversationSummarySchema>;

export const conversationsQuerySchema = z.object({ agentName: agentNameSchema.optional() });

export const conversationsResponseSchema = z.object({ conversations: z.array(conversationSummarySchema) });
export type ConversationsResponse = z.infer<typeof conversationsResponseSchema>;

export const conversationResponseSchema = z.object({
  conversation: z.object({
    id: z.string(),
    agentName: z.string(),
    createdAt: z.string(),
    messages: z.array(chatMessageSchema),
  }),
});
export type ConversationResponse = z.infer<typeof conversationResponseSchema>;

/** POST /api/chat: the dashboard's short form, kept in the user's latest conversation with the agent. */
export const shortChatSchema = z.object({ message: chatTextSchema, agentName: agentNameSchema });
export type ShortChatInput = z.infer<typeof shortChatSchema>;
export const shortChatResponseSchema = z.object({ response: z.string() });
export type ShortChatResponse = z.infer<typeof shortChatResponseSchema>;

/** POST /api/auxtrat/qr-code: a one-time pairing link for a conversation, as a QR PNG data URL. */
export const pairingQrSchema = z.object({
  sessionId: z.uuid('validation.conversationIdInvalid'),
  agentName: agentNameSchema,
});
export type PairingQrInput = z.infer<typeof pairingQrSchema>;
export const pairingQrResponseSchema = z.object({
  qrCode: z.string(),
  expiresAt: z.string(),
});
export type PairingQrResponse = z.infer<typeof pairingQrResponseSchema>;

/** GET /api/stats: the dashboard's stat cards, the caller's own figures. */
export const userStatsResponseSchema = z.object({
  hiredAgents: z.number().int(),
  conversations: z.number().int(),
  messages: z.number().int(),
});
export type UserStatsResponse = z.infer<typeof userStatsResponseSchema>;
