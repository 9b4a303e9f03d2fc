import { z } from 'zod';
import { cursorInvalid } from './whatsapp.errors';

/**
 * The cursors of the paged WhatsApp reads: opaque to clients (base64url JSON), a keyset to the
 * server, so a page is the same whatever was written since the one before it. Messages go by
 * their insertion order (`seq`): a page is the newest messages older than the cursor, and a
 * message that arrives meanwhile is newer than every cursor handed out. Conversations go by
 * (last activity, id), newest first.
 */
const messageCursor = z.object({ s: z.number().int().positive() }).strict();
const conversationCursor = z.object({ u: z.number().int().nonnegative(), i: z.uuid() }).strict();

export type MessageCursor = { seq: number };
export type ConversationCursor = { updatedAt: Date; id: string };

const encode = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');

function decode<T extends z.ZodType>(cursor: string, schema: T): z.infer<T> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  const result = schema.safeParse(parsed);
  // A cursor no page gave (typed, cut, or another list's): the field named, as zod names others.
  if (!result.success) throw cursorInvalid();
  return result.data;
}

export const messageCursorOf = ({ seq }: MessageCursor) => encode({ s: seq });
export const readMessageCursor = (cursor: string): MessageCursor => ({
  seq: decode(cursor, messageCursor).s,
});

export const conversationCursorOf = ({ updatedAt, id }: ConversationCursor) =>
  encode({ u: updatedAt.getTime(), i: id });
export function readConversationCursor(cursor: string): ConversationCursor {
  const { u, i } = decode(cursor, conversationCursor);
  return { updatedAt: new Date(u), id: i };
}
