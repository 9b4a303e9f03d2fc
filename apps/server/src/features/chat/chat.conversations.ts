import {
  DERIVED_TITLE_LENGTH,
  type ChatMessage,
  type ConversationSummary,
  type User,
} from '@contrateia/shared';
import type { ChatContext } from './chat.deps';
import { conversationBusy, conversationNotFound } from './chat.errors';
import * as repo from './chat.repository';
import type { MessageRow } from './chat.table';

/**
 * The caller's conversation (with this agent, if given) and its agent: 404 for another user's or
 * another agent's alike; 403, as for an agent not hired, when its agent is not the caller's to
 * see in their mode (an admin in user mode and administrador).
 */
export async function ownConversation(
  { db, agents }: Pick<ChatContext, 'db' | 'agents'>,
  { user, agentId, id }: { user: User; agentId?: string; id: string },
) {
  const conversation = await repo.findConversation({ db, id });
  if (
    !conversation ||
    conversation.userId !== user.id ||
    (agentId && conversation.agentId !== agentId)
  ) {
    throw conversationNotFound();
  }
  const agent = await agents.assertVisible({ user, agentId: conversation.agentId });
  return { conversation, agent };
}

/**
 * The user's conversations, newest first: with one agent (by name) or with all, and only those
 * with `search` in their title or a message when it is given.
 */
export async function listConversations(
  { db, agents, stops }: Pick<ChatContext, 'db' | 'agents' | 'stops'>,
  { user, agentName, search }: { user: User; agentName?: string; search?: string },
): Promise<ConversationSummary[]> {
  // A list read right after Stop (the page refreshes its lists) has the stopped reply in it.
  await stops.stoppedRepliesStored(user.id);
  // Agents come from their own service (its catalogue is cached): no join on their table.
  const agent =
    agentName === undefined
      ? undefined
      : await agents.findByName({ name: agentName, ownerId: user.id });
  if (agentName !== undefined && !agent) return [];
  const rows = await repo.listConversations({
    db,
    userId: user.id,
    agentId: agent?.id,
    search: search || undefined,
  });
  const agentOf = await agents.lookupFor({ ownerId: user.id });
  const summaries: ConversationSummary[] = [];
  for (const row of rows) {
    const owner = agentOf(row.agentId);
    // Conversations with an agent the caller may not see in their mode (an admin in user mode
    // and administrador) are left out, as the agent is.
    if (owner && agents.isVisibleTo({ user, agent: owner })) {
      summaries.push({
        id: row.id,
        agentName: owner.name,
        title: titleOf(row.title, row.firstMessage),
        messageCount: row.messageCount,
        createdAt: row.createdAt.toISOString(),
        updatedAt: row.updatedAt.toISOString(),
      });
    }
  }
  return summaries;
}

/** One of the user's conversations with all its messages (404 and 403 as ownConversation). */
export async function getConversation(
  { db, agents }: Pick<ChatContext, 'db' | 'agents'>,
  { user, id }: { user: User; id: string },
) {
  const { conversation, agent } = await ownConversation({ db, agents }, { user, id });
  const rows = await repo.listMessages({ db, conversationId: id });
  return {
    id,
    agentName: agent?.name ?? '',
    title: titleOf(conversation.title, rows.find((m) => m.sender === 'user')?.text ?? null),
    createdAt: conversation.createdAt.toISOString(),
    messages: rows.map(toMessage),
  };
}

/**
 * Gives one of the user's conversations a title (already validated); 404 for anyone else's, 403
 * for one with an agent the user may not see in their mode (as reading it).
 */
export async function renameConversation(
  { db, agents }: Pick<ChatContext, 'db' | 'agents'>,
  { user, id, title }: { user: User; id: string; title: string },
): Promise<ConversationSummary> {
  await ownConversation({ db, agents }, { user, id });
  const row = await repo.updateConversationTitle({ db, id, userId: user.id, title });
  if (!row) throw conversationNotFound();
  const [summary] = (
    await repo.listConversations({ db, userId: user.id, agentId: row.agentId })
  ).filter((c) => c.id === id);
  const agent = await agents.findById({ id: row.agentId });
  return {
    id,
    agentName: agent?.name ?? '',
    title,
    messageCount: summary?.messageCount ?? 0,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/**
 * Deletes one of the user's conversations with its messages; 404 for anyone else's, 403 as for
 * reading it (an agent the user may not see in their mode), 409 while a reply is being produced
 * in it (the reply would otherwise store itself into a new copy).
 */
export async function deleteConversation(
  { db, agents, state }: Pick<ChatContext, 'db' | 'agents' | 'state'>,
  { user, id }: { user: User; id: string },
): Promise<void> {
  await ownConversation({ db, agents }, { user, id });
  const slot = await state.tryLock(replySlotOf(id));
  if (!slot) throw conversationBusy();
  try {
    if (!(await repo.deleteConversation({ db, id, userId: user.id }))) throw conversationNotFound();
  } finally {
    await slot.release();
  }
}

/** The lock of a conversation's one reply at a time (a delete takes it too), on every instance. */
export const replySlotOf = (conversationId: string) => `chat-reply:${conversationId}`;

/** A stored message as the API shows it. */
export function toMessage(row: MessageRow): ChatMessage {
  return {
    id: row.id,
    text: row.text,
    sender: row.sender,
    timestamp: row.createdAt.toISOString(),
    ...(row.stopped ? { stopped: true } : {}),
    ...(row.awaits ? { awaits: row.awaits } : {}),
  };
}

/**
 * The title a conversation shows: its stored one, else its first message on one line, cut at a
 * word near DERIVED_TITLE_LENGTH characters ('' before any message).
 */
export function titleOf(stored: string | null, firstMessage: string | null): string {
  if (stored) return stored;
  const line = (firstMessage ?? '').replace(/\s+/g, ' ').trim();
  if (line.length <= DERIVED_TITLE_LENGTH) return line;
  const cut = line.slice(0, DERIVED_TITLE_LENGTH - 1);
  const space = cut.lastIndexOf(' ');
  return `${(space > DERIVED_TITLE_LENGTH / 2 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
