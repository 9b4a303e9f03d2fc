import { randomBytes } from 'node:crypto';
import QRCode from 'qrcode';
import type { User } from '@contrateia/shared';
import { hashToken } from '@/lib/secrets';
import { ownConversation } from './chat.conversations';
import type { ChatContext } from './chat.deps';
import * as repo from './chat.repository';

const PAIRING_TTL_MS = 10 * 60_000;

/**
 * A one-time link pairing a conversation with a WhatsApp chat, as a QR code; valid 10 minutes,
 * and a new code for the conversation revokes the previous one. The code is drawn before
 * anything is stored, so one that cannot be made leaves the code already shown working.
 */
export async function createPairing(
  { db, clock, agents, publicUrl }: Pick<ChatContext, 'db' | 'clock' | 'agents' | 'publicUrl'>,
  { user, agentName, conversationId }: { user: User; agentName: string; conversationId: string },
) {
  const agent = await agents.assertAccess({ user, agentName });
  await ownConversation({ db, agents }, { user, agentId: agent.id, id: conversationId });
  const token = randomBytes(24).toString('base64url');
  const now = clock.now();
  const expiresAt = new Date(now.getTime() + PAIRING_TTL_MS);
  const link = `${publicUrl}/pair/${token}`;
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

/** Uses a pairing link's token once (WhatsApp issue); its conversation, or undefined. */
export async function consumePairing(
  { db, clock }: Pick<ChatContext, 'db' | 'clock'>,
  { token }: { token: string },
) {
  return repo.consumePairing({ db, tokenHash: hashToken(token), now: clock.now() });
}
