import type {
  Language,
  User,
  WhatsAppAccountExport,
  WhatsAppConversationDetail,
  WhatsAppMessage,
} from '@contrateia/shared';
import {
  conversationCursorOf,
  messageCursorOf,
  readConversationCursor,
  readMessageCursor,
} from './whatsapp-cursor';
import { isBlocked, type WhatsAppContext } from './whatsapp.deps';
import { conversationNotFound } from './whatsapp.errors';
import { archivePathOf } from './whatsapp.media-export';
import * as repo from './whatsapp.repository';
import { clearBlocked } from './whatsapp.receive';
import { assertAnswering } from './whatsapp.settings';
import { summaries, summaryOf, toMessage } from './whatsapp.summaries';
import type { WhatsAppConversationRow } from './whatsapp.table';

/** Received messages marked read when their conversation is opened. */
const READ_RECEIPTS = 50;

type ConversationDeps = Pick<
  WhatsAppContext,
  'db' | 'clock' | 'agents' | 'events' | 'translate' | 'media'
>;

/** One of the caller's conversations; 404 for anyone else's, as for one that does not exist. */
export async function own(
  { db }: Pick<WhatsAppContext, 'db'>,
  { user, id }: { user: User; id: string },
): Promise<WhatsAppConversationRow> {
  const conversation = await repo.findConversation({ db, id });
  // A Sync Agent or relay chat is not the number owner's to see.
  if (!conversation || conversation.userId !== user.id || !repo.isOwnersOwn(conversation))
    throw conversationNotFound();
  return conversation;
}

/** A page of the account's conversations, newest activity first, and the cursor to the next one (null on the last). */
export async function listConversations(
  deps: ConversationDeps,
  {
    user,
    language,
    cursor,
    limit,
  }: {
    user: User;
    language: Language;
    cursor?: string;
    limit: number;
  },
) {
  const after = cursor === undefined ? undefined : readConversationCursor(cursor);
  // One more than asked: whether there is a next page, without counting.
  const list = await summaries(deps, { userId: user.id, language, after, limit: limit + 1 });
  const page = list.slice(0, limit);
  const last = page.at(-1);
  const nextCursor =
    list.length > limit && last
      ? conversationCursorOf({ updatedAt: new Date(last.updated_at), id: last.id })
      : null;
  return { data: page, nextCursor };
}

/**
 * A conversation with a page of its messages: the newest `limit` older than the cursor (the
 * newest of all without one), oldest first, and the cursor to the older ones (null once none
 * is left). Opening it reads them (unread 0, read receipts sent).
 */
export async function getConversation(
  deps: ConversationDeps & Pick<WhatsAppContext, 'transport'>,
  {
    user,
    id,
    language,
    cursor,
    limit,
  }: {
    user: User;
    id: string;
    language: Language;
    cursor?: string;
    limit: number;
  },
): Promise<{ data: WhatsAppConversationDetail; nextCursor: string | null }> {
  const { db, transport } = deps;
  const before = cursor === undefined ? undefined : readMessageCursor(cursor).seq;
  const conversation = await own(deps, { user, id });
  if (conversation.unreadCount > 0) {
    await repo.updateConversation({ db, id, userId: user.id, set: { unreadCount: 0 } });
    const ids = await repo.recentContactIds({ db, conversationId: id, limit: READ_RECEIPTS });
    // Read receipts are a courtesy: not connected, none goes.
    await transport.markRead(user.id, conversation.contactJid, ids).catch(() => {});
  }
  const summary = await summaryOf(deps, { user, id, language });
  const rows = await repo.listMessages({ db, conversationId: id, before, limit: limit + 1 });
  // Oldest first: one more than asked means an older page exists, and that one is not shown.
  const messages = rows.length > limit ? rows.slice(1) : rows;
  const nextCursor = rows.length > limit ? messageCursorOf({ seq: messages[0]!.seq }) : null;
  return {
    data: { ...summary, messages: messages.map((m) => toMessage(deps, m, language)) },
    nextCursor,
  };
}

/**
 * The account's WhatsApp data for "Download my data": its number and every conversation with its
 * messages. Read only: nothing is marked read and no receipt goes out.
 */
export async function exportData(
  deps: Pick<WhatsAppContext, 'db' | 'translate' | 'media' | 'clock'>,
  {
    userId,
    language,
  }: {
    userId: string;
    language: Language;
  },
): Promise<WhatsAppAccountExport> {
  const { db } = deps;
  const account = await repo.findAccount({ db, userId });
  const { conversations, messages } = await repo.listAccountData({ db, userId });
  const byConversation = new Map<string, WhatsAppMessage[]>();
  const files: WhatsAppAccountExport['media'] = [];
  for (const row of messages) {
    const list = byConversation.get(row.conversationId) ?? [];
    list.push(toMessage(deps, row, language));
    byConversation.set(row.conversationId, list);
    if (row.media && row.media.kind !== 'location' && row.media.kind !== 'contact')
      files.push({
        conversationId: row.conversationId,
        messageId: row.id,
        kind: row.media.kind,
        fileName: row.media.fileName ?? null,
        mimetype: row.media.mimetype ?? null,
        size: row.media.size ?? null,
        receivedAt: row.createdAt.toISOString(),
        kept: row.mediaFile !== null,
        archivePath:
          row.mediaFile === null
            ? null
            : archivePathOf({
                conversationId: row.conversationId,
                messageId: row.id,
                file: row.mediaFile,
              }),
      });
  }
  return {
    phone: account?.phone ?? null,
    media: files,
    conversations: conversations.map((conversation) => ({
      id: conversation.id,
      contactName: conversation.contactName,
      contactNumber: conversation.contactNumber,
      aiEnabled: conversation.aiEnabled,
      isWhitelisted: conversation.isWhitelisted,
      createdAt: conversation.createdAt.toISOString(),
      updatedAt: conversation.updatedAt.toISOString(),
      messages: byConversation.get(conversation.id) ?? [],
    })),
  };
}

/** Deletes one of the caller's conversations, its messages and the files they kept. */
export async function deleteConversation(
  { db, events, media }: Pick<WhatsAppContext, 'db' | 'events' | 'media'>,
  { user, id }: { user: User; id: string },
): Promise<void> {
  const deleted = await repo.deleteConversation({ db, id, userId: user.id });
  if (!deleted) throw conversationNotFound();
  await media.remove(user.id, deleted.files);
  events.emit(user.id, 'whatsapp:conversation_deleted', { conversationId: id });
}

export async function setAi(
  deps: ConversationDeps,
  {
    user,
    id,
    enabled,
    language,
  }: {
    user: User;
    id: string;
    enabled: boolean;
    language: Language;
  },
) {
  const { db, events } = deps;
  // Turning AI on is the owner's word that the agent answers again: a takeover's pause ends.
  const set = enabled ? { aiEnabled: true, pausedUntil: null } : { aiEnabled: false };
  if (!(await repo.updateConversation({ db, id, userId: user.id, set }))) {
    throw conversationNotFound();
  }
  events.emit(user.id, 'whatsapp:ai_toggled', { conversationId: id, enabled });
  return summaryOf(deps, { user, id, language });
}

export async function setWhitelisted(
  deps: ConversationDeps,
  {
    user,
    id,
    isWhitelisted,
    language,
  }: {
    user: User;
    id: string;
    isWhitelisted: boolean;
    language: Language;
  },
) {
  const { db, events } = deps;
  if (!(await repo.updateConversation({ db, id, userId: user.id, set: { isWhitelisted } }))) {
    throw conversationNotFound();
  }
  events.emit(user.id, 'whatsapp:conversation_changed', { conversationId: id });
  return summaryOf(deps, { user, id, language });
}

export async function assignAgent(
  deps: ConversationDeps,
  {
    user,
    id,
    agentId,
    language,
  }: {
    user: User;
    id: string;
    agentId: string | null;
    language: Language;
  },
) {
  const { db, events } = deps;
  await own(deps, { user, id });
  if (agentId !== null) await assertAnswering(deps, { user, agentId, field: 'agentId' });
  await repo.updateConversation({ db, id, userId: user.id, set: { agentId } });
  events.emit(user.id, 'whatsapp:conversation_changed', { conversationId: id });
  return summaryOf(deps, { user, id, language });
}

/**
 * Blocks the contact (its messages are stored and shown, never answered) or unblocks it. An
 * unblock also ends a block for writing too fast, and what came while blocked stays unanswered:
 * the conversation is `active` or `pending` again by the whitelist, from the next message on.
 */
export async function setBlocked(
  deps: ConversationDeps & Pick<WhatsAppContext, 'state'>,
  {
    user,
    id,
    blocked,
    language,
  }: {
    user: User;
    id: string;
    blocked: boolean;
    language: Language;
  },
) {
  const { db, clock, events } = deps;
  const conversation = await own(deps, { user, id });
  const now = clock.now();
  if (blocked) {
    await repo.blockConversation({ db, id, userId: user.id, set: { blockedByOwner: true } });
  } else if (conversation.blockedByOwner || isBlocked(conversation, now)) {
    await repo.updateConversation({
      db,
      id,
      userId: user.id,
      set: { blockedByOwner: false, blockedUntil: now },
    });
    await clearBlocked(deps, user.id, conversation);
  }
  events.emit(user.id, 'whatsapp:conversation_changed', { conversationId: id });
  return summaryOf(deps, { user, id, language });
}
