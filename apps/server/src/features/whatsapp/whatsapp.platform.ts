import {
  PAIRING_AGENT_NAME,
  type Language,
  type User,
  type WhatsAppPlatform,
} from '@contrateia/shared';
import { derivedUuid } from '@/lib/derived-id';
import { detectLanguage } from '@/features/ai/ai.service';
import type { AgentRow } from '@/features/agents/agents.service';
import { pairingTokenIn, type PairingUse } from '@/features/chat/chat.service';
import { DEFAULT_LANGUAGE, type WhatsAppContext } from './whatsapp.deps';
import { syncUnavailable } from './whatsapp.errors';
import * as repo from './whatsapp.repository';
import type { WhatsAppConversationRow } from './whatsapp.table';

// The platform's number: the linked WhatsApp of WHATSAPP_PLATFORM_ACCOUNT (the first admin when it
// is not set). It carries auxtrat's Sync Agent: a code sent to it continues a web conversation on
// WhatsApp. Its other contacts are its owner's, as on any number.

/** The platform's number as the admin panel shows it, and whose account it is (`userId`). */
export async function platformNumber(
  deps: Pick<WhatsAppContext, 'db' | 'platformAccount'>,
): Promise<WhatsAppPlatform & { userId: string | null }> {
  const owner = await deps.platformAccount();
  if (!owner) return { userId: null, account: null, phone: null, connected: false };
  const account = await repo.findAccount({ db: deps.db, userId: owner.id });
  const connected = account?.state === 'ready' && Boolean(account.phone);
  return {
    userId: owner.id,
    account: owner.email,
    phone: connected ? account!.phone : null,
    connected,
  };
}

/**
 * Sync Agent's code for an auxtrat conversation, in a `https://wa.me/{number}?text=…` link (and its
 * QR code) that opens a chat with the platform's number with the code written, in the user's
 * language. 409 while that number is not connected: a QR that leads nowhere is never shown.
 */
export async function createSyncPairing(
  deps: Pick<WhatsAppContext, 'db' | 'platformAccount' | 'chat' | 'agents' | 'translate'>,
  {
    user,
    agentName,
    conversationId,
    language,
  }: { user: User; agentName: string; conversationId: string; language: Language },
) {
  const platform = await platformNumber(deps);
  if (!platform.phone) throw syncUnavailable();
  const phone = platform.phone;
  const agent = await deps.agents.findByName({ name: agentName, ownerId: user.id });
  const t = deps.translate(language);
  return deps.chat.createPairing({
    user,
    agentName,
    conversationId,
    linkFor: (code) =>
      `https://wa.me/${phone}?text=${encodeURIComponent(
        t('whatsappServer.syncPairing.message', {
          agent: agent?.displayName[language] ?? agentName,
          code,
        }),
      )}`,
  });
}

/** What a contact's messages since the last answer say to the platform's number, if anything of Sync Agent. */
export type PlatformAnswer =
  /** A Sync Agent code: what to answer (paired, or why not), in the contact's language. */
  | { kind: 'code'; text: string; agentName: string }
  /** A chat paired before: its conversation's agent answers, with its history. */
  | { kind: 'paired'; user: User; agent: AgentRow; conversationId: string }
  /** A chat paired with a conversation its user may no longer continue: nobody answers. */
  | { kind: 'closed' }
  /** A chat with someone indirect relayed to: their messages go to the senders (whatsapp.relay.ts). */
  | { kind: 'relay' };

type PlatformDeps = Pick<
  WhatsAppContext,
  'db' | 'chat' | 'platformAccount' | 'activeUser' | 'translate' | 'events' | 'agents'
>;

/**
 * How the platform's number answers what a contact wrote (`text`), when Sync Agent has a say: a
 * code pairs the chat with its conversation (once; a code used, expired or replaced is told so),
 * and a chat paired is answered by its conversation's agent while its user may still talk to it.
 * Undefined on any other number, and for any other message. A paired chat leaves its owner's
 * list (the pages are told): it is the user's conversation, not the owner's.
 */
export async function platformAnswer(
  deps: PlatformDeps,
  {
    userId,
    conversation,
    text,
  }: { userId: string; conversation: WhatsAppConversationRow; text: string },
): Promise<PlatformAnswer | undefined> {
  const { db, chat, events, agents } = deps;
  if (conversation.relay) return { kind: 'relay' };
  const token = pairingTokenIn(text);
  const paired = conversation.pairedConversationId;
  if (!token && !paired) return undefined;
  // Only a code sent to the platform's number pairs; a paired chat is on it already.
  if (token && (await deps.platformAccount())?.id !== userId) return undefined;
  if (token) {
    const used = await chat.consumePairing({ token, by: conversation.id });
    const language = detectLanguage(text, DEFAULT_LANGUAGE);
    const continued =
      used.outcome === 'paired' ? await chat.pairedConversationOf(used.conversationId) : undefined;
    const agent = continued ? await agents.findById({ id: continued.agentId }) : undefined;
    const agentName = agent?.name ?? PAIRING_AGENT_NAME;
    const say = (outcome: PairingUse['outcome']) =>
      deps.translate(language)(`whatsappServer.syncPairing.${outcome}`, {
        agent: agent?.displayName[language] ?? agentName,
      });
    if (used.outcome !== 'paired') return { kind: 'code', text: say(used.outcome), agentName };
    if (paired !== used.conversationId) {
      await repo.updateConversation({
        db,
        id: conversation.id,
        userId,
        set: { pairedConversationId: used.conversationId },
      });
      events.emit(userId, 'whatsapp:conversation_deleted', { conversationId: conversation.id });
    }
    return { kind: 'code', text: say('paired'), agentName };
  }
  const continued = await chat.pairedConversationOf(paired!);
  const user = continued ? await deps.activeUser(continued.userId) : undefined;
  // The conversation's own user (activeUser read it by its id): the agent is theirs to talk to.
  const agent = user ? await chat.pairedAgent({ user, agentId: continued!.agentId }) : undefined;
  if (!user || !agent) return { kind: 'closed' };
  return { kind: 'paired', user, agent, conversationId: paired! };
}

/** The id of the web message that keeps the reply to the contact's message `messageId` (the same on every try). */
export function pairedReplyId(messageId: string): string {
  return derivedUuid(`paired-reply:${messageId}`);
}
