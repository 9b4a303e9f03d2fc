import type { AgentRow } from '@/features/agents/agents.service';
import {
  WHATSAPP_PREVIEW_MAX_LENGTH,
  WHATSAPP_PREVIEW_MEDIA,
  whatsappPreview,
  whatsappPreviewMedia,
  type WhatsAppPreviewMedia,
  type Language,
  type User,
  type WhatsAppConversation,
  type WhatsAppMessage,
} from '@contrateia/shared';
import { blockReasonOf, DEFAULT_LANGUAGE, statusOf, type WhatsAppContext } from './whatsapp.deps';
import { conversationNotFound } from './whatsapp.errors';
import { sendErrorText } from './whatsapp.outbox';
import * as repo from './whatsapp.repository';
import type { WhatsAppConversationRow, WhatsAppMessageRow } from './whatsapp.table';

type SummaryDeps = Pick<WhatsAppContext, 'db' | 'clock' | 'agents' | 'translate' | 'media'>;

/** A message just stored, with its conversation as it is now, to the owner's open pages. */
export async function emitNewMessage(
  deps: SummaryDeps & Pick<WhatsAppContext, 'events'>,
  userId: string,
  stored: repo.StoredMessage,
) {
  const { events, agents } = deps;
  const { agentId } = stored.conversation;
  const conversation = summary(
    deps,
    agentId ? await agents.findById({ id: agentId }) : undefined,
    stored.conversation,
    { text: stored.message.text, media: whatsappPreviewMedia(stored.message.media) ?? null },
    stored.whitelistMode,
    DEFAULT_LANGUAGE,
  );
  events.emit(userId, 'whatsapp:new_message', {
    conversation,
    message: toMessage(deps, stored.message, DEFAULT_LANGUAGE),
  });
}

export async function summaries(
  deps: SummaryDeps,
  {
    userId,
    language,
    id,
    after,
    limit,
  }: {
    userId: string;
    language: Language;
    id?: string;
    after?: { updatedAt: Date; id: string };
    limit?: number;
  },
): Promise<WhatsAppConversation[]> {
  const { db } = deps;
  const rows = await repo.listConversations({
    db,
    userId,
    id,
    after,
    limit,
    previewChars: WHATSAPP_PREVIEW_MAX_LENGTH,
  });
  const agentOf = await deps.agents.lookupFor({ ownerId: userId });
  const list: WhatsAppConversation[] = [];
  for (const { conversation, lastMessage, whitelistMode } of rows)
    list.push(
      summary(
        deps,
        conversation.agentId ? agentOf(conversation.agentId) : undefined,
        conversation,
        lastMessage === null
          ? null
          : lastMessage.deleted
            ? { text: deps.translate(language)('whatsappServer.messageDeleted'), media: null }
            : lastMessage,
        whitelistMode,
        language,
      ),
    );
  return list;
}

/** A conversation as the owner's list shows it; its status depends on the account's whitelist mode. */
function summary(
  { clock }: Pick<WhatsAppContext, 'clock'>,
  /** The conversation's own agent, if it has one. */
  agent: AgentRow | undefined,
  conversation: WhatsAppConversationRow,
  lastMessage: { text: string; media: string | null } | null,
  whitelistMode: boolean | null,
  language: Language,
): WhatsAppConversation {
  const blockedReason = blockReasonOf(conversation, clock.now()) ?? null;
  return {
    id: conversation.id,
    contact_name: conversation.contactName,
    contact_number: conversation.contactNumber,
    updated_at: conversation.updatedAt.toISOString(),
    last_message:
      lastMessage === null
        ? null
        : {
            text: whatsappPreview(lastMessage.text),
            ...(isPreviewMedia(lastMessage.media) ? { media: lastMessage.media } : {}),
          },
    unread_count: conversation.unreadCount,
    ai_enabled: conversation.aiEnabled,
    is_whitelisted: conversation.isWhitelisted,
    status: statusOf({ whitelistMode: whitelistMode ?? false }, conversation, clock.now()),
    agent_id: conversation.agentId,
    agent_display_name: agent ? agent.displayName[language] : null,
    dropped_count: conversation.droppedCount,
    blocked_reason: blockedReason,
    // Shown only for a block that ends by itself; the owner's lasts until unblocked.
    blocked_until:
      blockedReason === 'flood' && conversation.blockedUntil
        ? conversation.blockedUntil.toISOString()
        : null,
    // Until when the agent is paused, the owner having written to the contact; null when it is not.
    paused_until:
      conversation.pausedUntil && conversation.pausedUntil > clock.now()
        ? conversation.pausedUntil.toISOString()
        : null,
    needs_human: conversation.needsHuman,
  };
}

/** A preview's media as the list query read it (a kind, or `voice`), when it is one. */
function isPreviewMedia(kind: string | null): kind is WhatsAppPreviewMedia {
  return (WHATSAPP_PREVIEW_MEDIA as readonly (string | null)[]).includes(kind);
}

export function toMessage(
  { translate, media, clock }: Pick<WhatsAppContext, 'translate' | 'media' | 'clock'>,
  row: WhatsAppMessageRow,
  language: Language,
): WhatsAppMessage {
  // Deleted for everyone: its file goes with its text.
  const carried = row.media && !row.deletedAt ? row.media : undefined;
  return {
    id: row.id,
    sender: row.sender,
    text: row.error ? translate(language)(row.error) : row.text,
    timestamp: row.createdAt.toISOString(),
    ...(row.agentName ? { agentName: row.agentName } : {}),
    ...(row.unanswered ? { unanswered: true as const } : {}),
    // The owner's messages stored before the outbox were sent; a reply never made has no status.
    ...(row.sender === 'user' && !row.error ? { status: row.status ?? 'sent' } : {}),
    ...(row.status === 'failed'
      ? { statusError: sendErrorText({ translate }, row.sendError ?? 'unknown', language) }
      : {}),
    ...(row.editedAt && !row.deletedAt ? { editedAt: row.editedAt.toISOString() } : {}),
    ...(row.deletedAt ? { deleted: true as const } : {}),
    ...(row.reactions.length > 0 && !row.deletedAt ? { reactions: row.reactions } : {}),
    ...(carried
      ? {
          media: {
            ...carried,
            ...(row.text ? { caption: row.text } : {}),
            ...(row.mediaFile ? { url: media.urlOf(row.id, clock.now()) } : {}),
          },
        }
      : {}),
  };
}

export async function summaryOf(
  deps: SummaryDeps,
  {
    user,
    id,
    language,
  }: {
    user: User;
    id: string;
    language: Language;
  },
): Promise<WhatsAppConversation> {
  const [conversation] = await summaries(deps, { userId: user.id, language, id });
  if (!conversation) throw conversationNotFound();
  return conversation;
}
