import { randomBytes } from 'node:crypto';
import QRCode from 'qrcode';
import type { User } from '@contrateia/shared';
import { hashToken } from '@/lib/secrets';
import type { AgentRow } from '@/features/agents/agents.service';
import type { HistoryLoader } from '@/features/ai/ai.service';
import { ownConversation } from './chat.conversations';
import type { ChatContext } from './chat.deps';
import * as repo from './chat.repository';

const PAIRING_TTL_MS = 10 * 60_000;

/** A pairing code as it is written in a message: `CTIA-` and its 32-character token. */
const CODE_IN_TEXT = /(?<![A-Za-z0-9_-])CTIA-([A-Za-z0-9_-]{32})(?![A-Za-z0-9_-])/;

/** The code of a pairing token, as a message carries it. */
export const pairingCodeOf = (token: string) => `CTIA-${token}`;

/** The token of the pairing code a message carries, if it carries one. */
export function pairingTokenIn(text: string): string | undefined {
  return CODE_IN_TEXT.exec(text)?.[1];
}

/**
 * A one-time code pairing a conversation with a WhatsApp chat, as a QR code of `linkFor(code)`
 * (the link that writes it to the platform's number); valid 10 minutes, and a new code for the
 * conversation revokes the previous one. The code is drawn before anything is stored, so one that
 * cannot be made leaves the code already shown working.
 */
export async function createPairing(
  { db, clock, agents }: Pick<ChatContext, 'db' | 'clock' | 'agents'>,
  {
    user,
    agentName,
    conversationId,
    linkFor,
  }: { user: User; agentName: string; conversationId: string; linkFor: (code: string) => string },
) {
  const agent = await agents.assertAccess({ user, agentName });
  await ownConversation({ db, agents }, { user, agentId: agent.id, id: conversationId });
  const token = randomBytes(24).toString('base64url');
  const now = clock.now();
  const expiresAt = new Date(now.getTime() + PAIRING_TTL_MS);
  const link = linkFor(pairingCodeOf(token));
  const qrCode = await QRCode.toDataURL(link, {
    errorCorrectionLevel: 'M',
    margin: 2,
    width: 320,
  });
  await repo.replacePairing({
    db,
    userId: user.id,
    conversationId,
    tokenHash: hashToken(token),
    now,
    expiresAt,
  });
  return { qrCode, expiresAt: expiresAt.toISOString(), link };
}

/**
 * What came of a pairing code sent from a chat (`by`): `paired` with the conversation it
 * continues (again for the chat that used it, so that a try repeated is the same pairing);
 * `used` by another chat; `expired`; `unknown` (never made, or replaced by a newer code).
 */
export type PairingUse =
  | { outcome: 'paired'; conversationId: string; userId: string }
  | { outcome: 'used' | 'expired' | 'unknown' };

/** Uses a pairing code's token once, for the chat `by` (see PairingUse). */
export async function consumePairing(
  { db, clock }: Pick<ChatContext, 'db' | 'clock'>,
  { token, by }: { token: string; by: string },
): Promise<PairingUse> {
  return repo.usePairing({ db, tokenHash: hashToken(token), by, now: clock.now() });
}

/** A conversation's user and agent, for a chat that continues it (undefined once it is gone). */
export async function pairedConversationOf(
  { db }: Pick<ChatContext, 'db'>,
  conversationId: string,
): Promise<{ userId: string; agentId: string } | undefined> {
  const conversation = await repo.findConversation({ db, id: conversationId });
  return conversation && { userId: conversation.userId, agentId: conversation.agentId };
}

/**
 * The agent (`agentId`, its conversation's, as pairedConversationOf read it) a paired
 * conversation continues with, while its user may still talk to it (hired, active): undefined
 * once they may not.
 */
export async function pairedAgent(
  { agents }: Pick<ChatContext, 'agents'>,
  { user, agentId }: { user: User; agentId: string },
): Promise<AgentRow | undefined> {
  const agent = await agents.findById({ id: agentId });
  if (!agent) return undefined;
  try {
    return await agents.assertAccess({ user, agentName: agent.name });
  } catch {
    return undefined;
  }
}

/** A paired conversation's turns, as an engine that reads history reads them. */
export function pairedHistory(
  { db }: Pick<ChatContext, 'db'>,
  { conversationId }: { conversationId: string },
): HistoryLoader {
  return async (budgetChars) =>
    (await repo.listRecentMessages({ db, conversationId, limit: 200, budgetChars })).map((m) => ({
      role: m.sender === 'user' ? 'user' : 'assistant',
      text: m.text,
    }));
}

/**
 * A turn held on WhatsApp, kept in the conversation it continues: what the person wrote and the
 * agent's answer, under ids of the caller's (a try repeated stores nothing twice).
 */
export async function storePairedTurn(
  { db, clock }: Pick<ChatContext, 'db' | 'clock'>,
  {
    conversationId,
    ids,
    userText,
    botText,
  }: { conversationId: string; ids: [string, string]; userText: string; botText: string },
): Promise<void> {
  const userAt = clock.now();
  await repo.appendMessages({
    db,
    conversationId,
    rows: [
      { id: ids[0], sender: 'user', text: userText, createdAt: userAt },
      { id: ids[1], sender: 'bot', text: botText, createdAt: new Date(userAt.getTime() + 1) },
    ],
  });
}

/**
 * A message of the agent's that did not answer the user (a relayed reply, in indirect's chat),
 * under an id of the caller's (a try repeated stores it once).
 */
export async function storeAgentMessage(
  { db, clock }: Pick<ChatContext, 'db' | 'clock'>,
  { conversationId, id, text }: { conversationId: string; id: string; text: string },
): Promise<void> {
  await repo.appendMessages({
    db,
    conversationId,
    rows: [{ id, sender: 'bot', text, createdAt: clock.now() }],
  });
}
