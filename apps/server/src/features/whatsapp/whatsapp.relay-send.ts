import type { Language } from '@contrateia/shared';
import { derivedUuid } from '@/lib/derived-id';
import { defineQueue, type Job } from '@/lib/jobs';
import { storeOutgoing } from './whatsapp.outbox';
import { platformNumber } from './whatsapp.platform';
import {
  logRefusal,
  RELAY_AGENT,
  relayedText,
  sendRefusal,
  UNAVAILABLE,
  type RelayDeps,
} from './whatsapp.relay-rules';
import { masked, recipientOf, type Recipient } from './whatsapp.relay-text';
import * as relayRepo from './whatsapp.relay.repository';
import * as repo from './whatsapp.repository';
import type { RelayRow } from './whatsapp.table';

// A relay the sender said yes to is sent by a job of its own, keyed by the relay: the job checks
// the relay again, counts it (marks it sent) and stores its message in the platform number's
// outbox. Its message's id is made from the relay's, so a try after a kill -9 (between counting
// and storing, or after storing) stores it once: the relay reaches its recipient exactly once.

export type RelayJob = { relayId: string; language: Language };

/** Made by migration 0035; one try of each relay at a time, across instances. */
export const RELAY_QUEUE = defineQueue<RelayJob>({
  name: 'whatsapp-relay',
  tries: 3,
  retryDelaySeconds: 1,
  expireSeconds: 60,
  concurrency: 4,
  pollMs: 2_000,
});

/** How long the sender's yes waits for its relay's job (its tries included) before it fails. */
const CONFIRM_WAIT_MS = 30_000;

/** The sender's yes to `pending`: its job is sent and awaited; what it answers is indirect's reply. */
export async function confirmRelay(
  deps: RelayDeps,
  { pending, language }: { pending: RelayRow; language: Language },
): Promise<{ text: string }> {
  const { id } = await deps.jobs.send(
    RELAY_QUEUE,
    { relayId: pending.id, language },
    { key: pending.id },
  );
  const settled = await deps.jobs.settled(RELAY_QUEUE, id, { timeoutMs: CONFIRM_WAIT_MS });
  const text = settled.state === 'completed' ? settled.output?.text : undefined;
  if (typeof text !== 'string') throw new Error(`relay job ${id} ended ${settled.state}`);
  return { text };
}

/**
 * The relay job's try: a relay still pending is checked again (the platform, an opt-out and the
 * limits may have changed since it was shown) and counted under the sender's and the recipient's
 * locks (two yeses on two instances cannot both pass a limit); a relay counted is stored in the
 * outbox. What it answers (`text`) is what indirect tells the sender.
 */
export async function sendRelay(deps: RelayDeps, job: Job<RelayJob>): Promise<{ text: string }> {
  const { db } = deps;
  const t = deps.translate(job.data.language);
  const relay = await relayRepo.findRelay({ db, id: job.data.relayId });
  if (!relay || relay.status === 'cancelled') return { text: t('whatsappServer.relay.cancelled') };
  const to = recipientOf(relay.recipient);
  const platform = await platformNumber(deps);
  if (relay.status === 'pending') {
    const refusal = platform.connected
      ? await count(deps, relay, to, job.data.language)
      : UNAVAILABLE;
    if (refusal) {
      await relayRepo.moveRelay({
        db,
        id: relay.id,
        from: 'pending',
        set: { status: 'cancelled' },
      });
      logRefusal(deps, relay.senderId, to, refusal.reason);
      return { text: t(`whatsappServer.relay.${refusal.key}`, refusal.values) };
    }
  }
  // Counted, by this try or an earlier one: the outbox holds it until the number is connected.
  if (!platform.userId) throw new Error('the platform number has no account');
  try {
    const stored = await queueRelay(deps, { platformUserId: platform.userId, to, relay });
    if (stored)
      deps.eventLog.record({
        category: 'whatsapp',
        event: 'relay.sent',
        message: 'indirect relayed a message',
        userId: relay.senderId,
        context: { recipient: masked(to), country: to.country ?? null },
      });
  } catch (error) {
    // Not stored after the last try: it is not counted, and the sender may say yes again.
    if (job.lastAttempt)
      await relayRepo.moveRelay({
        db,
        id: relay.id,
        from: 'sent',
        set: { status: 'pending', sentAt: null },
      });
    throw error;
  }
  return { text: t('whatsappServer.relay.sent', { number: to.shown }) };
}

/** Counts `relay` as sent unless a rule refuses it now: the refusal, if one. */
async function count(deps: RelayDeps, relay: RelayRow, to: Recipient, language: Language) {
  const now = deps.clock.now();
  return deps.db.transaction(async (tx) => {
    await relayRepo.lockRelays({ db: tx, keys: [relay.senderId, to.digits] });
    const over = await sendRefusal(tx, {
      senderId: relay.senderId,
      to,
      conversationId: relay.conversationId,
      now,
    });
    if (over) return over;
    const moved = await relayRepo.moveRelay({
      db: tx,
      id: relay.id,
      from: 'pending',
      set: { status: 'sent', sentAt: now },
    });
    if (!moved) return { key: 'cancelled', reason: 'notPending' };
    await relayRepo.upsertThread({
      db: tx,
      values: {
        senderId: relay.senderId,
        recipient: to.digits,
        conversationId: relay.conversationId,
        language,
        at: now,
      },
    });
    return undefined;
  });
}

/**
 * The relay in the platform number's outbox, in the recipient's chat there (made a relay chat),
 * as the message whose id is made from the relay's: whether this call stored it.
 */
async function queueRelay(
  deps: RelayDeps,
  { platformUserId: userId, to, relay }: { platformUserId: string; to: Recipient; relay: RelayRow },
): Promise<boolean> {
  const { db } = deps;
  const at = relay.sentAt ?? deps.clock.now();
  let conversation = await repo.insertConversation({
    db,
    values: {
      userId,
      contactJid: `${to.digits}@s.whatsapp.net`,
      contactAltJid: null,
      contactName: to.shown,
      contactNumber: to.digits,
      createdAt: at,
      updatedAt: at,
    },
  });
  if (!conversation.relay)
    conversation = (await repo.updateConversation({
      db,
      id: conversation.id,
      userId,
      set: { relay: true },
    }))!;
  return storeOutgoing(
    deps,
    {
      id: derivedUuid(`relay:${relay.id}`),
      conversationId: conversation.id,
      text: relayedText(deps, relay.text, to),
      agentName: RELAY_AGENT,
      createdAt: at,
      answerable: false,
    },
    (stored) => stored !== undefined,
  );
}
