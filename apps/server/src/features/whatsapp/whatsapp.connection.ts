import type { WhatsAppStatus } from '@contrateia/shared';
import { takeOrRetryLater } from '@/lib/shared-state';
import type { WhatsAppContext } from './whatsapp.deps';
import { defaultAgentOf } from './whatsapp.reply';
import * as repo from './whatsapp.repository';

type StatusDeps = Pick<WhatsAppContext, 'db' | 'agents' | 'media'>;

export async function status(
  deps: StatusDeps,
  { userId }: { userId: string },
): Promise<WhatsAppStatus> {
  const { db } = deps;
  const account = (await repo.findAccount({ db, userId })) ?? undefined;
  const counts = await repo.countConversations({ db, userId });
  const defaultAgent = await defaultAgentOf(deps, account);
  const state = account?.state ?? 'disconnected';
  return {
    isReady: state === 'ready',
    qrCode: state === 'qr' ? (account?.qrCode ?? null) : null,
    conversationsCount: counts.total,
    aiEnabledCount: counts.aiEnabled,
    whitelistMode: account?.whitelistMode ?? false,
    whitelistedCount: counts.whitelisted,
    agentAssignedCount: counts.agentAssigned,
    state,
    phone: state === 'ready' ? (account?.phone ?? null) : null,
    defaultAgentId: defaultAgent?.id ?? null,
    lastCloseReason: account?.lastCloseReason ?? null,
    pairingCode: state === 'qr' ? (account?.pairingCode ?? null) : null,
    mediaMaxBytes: deps.media.maxBytes,
  };
}

type ConnectDeps = StatusDeps & Pick<WhatsAppContext, 'clock' | 'transport'>;

/**
 * Each code asked for makes WhatsApp notify the phone typed, whoever's it is: an account may ask
 * this many in this many seconds, so nobody's phone can be flooded through it.
 */
export const PAIRING_CODES_PER_WINDOW = { points: 5, seconds: 10 * 60 };

/** Starts the account's connection (a QR, or the stored link); idempotent while connecting or ready. */
export async function connect(
  deps: ConnectDeps,
  { userId }: { userId: string },
): Promise<WhatsAppStatus> {
  const { db, clock, transport } = deps;
  await repo.ensureAccount({ db, userId, now: clock.now() });
  await transport.connect(userId);
  return status(deps, { userId });
}

/**
 * Links by number instead of the QR: starts the connection if needed and asks WhatsApp for the
 * code to type on the phone `phone` (it reaches the status, and the owner's pages, once given).
 * An account already connected is left as it is.
 */
export async function requestPairingCode(
  deps: ConnectDeps & Pick<WhatsAppContext, 'pairingCodeCounter'>,
  { userId, phone }: { userId: string; phone: string },
): Promise<WhatsAppStatus> {
  const { db, clock, transport, pairingCodeCounter } = deps;
  await repo.ensureAccount({ db, userId, now: clock.now() });
  const account = await repo.findAccount({ db, userId });
  if (account?.state !== 'ready') {
    await takeOrRetryLater(pairingCodeCounter, userId, 'errors.tooManyRequests');
    await transport.requestPairingCode(userId, phone);
  }
  return status(deps, { userId });
}

/** Logs the number out (its auth state goes); the conversations stay. */
export async function disconnect(
  deps: ConnectDeps,
  { userId }: { userId: string },
): Promise<WhatsAppStatus> {
  const { db, clock, transport } = deps;
  await repo.ensureAccount({ db, userId, now: clock.now() });
  await transport.logout(userId);
  await repo.updateAccount({
    db,
    userId,
    set: {
      state: 'disconnected',
      qrCode: null,
      pairingCode: null,
      phone: null,
      lastCloseReason: 'requested',
      updatedAt: clock.now(),
    },
  });
  return status(deps, { userId });
}

/** At start: every account with a stored link connects again, without a new QR. */
export async function resume({
  transport,
  logger,
}: Pick<WhatsAppContext, 'transport' | 'logger'>): Promise<void> {
  for (const userId of await transport.linkedAccounts()) {
    try {
      await transport.connect(userId);
    } catch (error) {
      logger.error({ err: error, userId }, 'whatsapp: could not resume a linked account');
    }
  }
}

/** Accounts with a linked number, and of them those connected now, across every instance (the monitor). */
export async function connectionCounts({
  db,
}: Pick<WhatsAppContext, 'db'>): Promise<{ linked: number; connected: number }> {
  return repo.countLinkedAccounts({ db });
}

/**
 * Asks every linked account whose connection failed or closed (or waits out a backoff) to
 * connect again now, as its owner would with Connect (an admin's quick action). How many were
 * asked; one that cannot even start is logged and left.
 */
export async function reconnectBroken({
  db,
  transport,
  logger,
}: Pick<WhatsAppContext, 'db' | 'transport' | 'logger'>): Promise<{ reconnected: number }> {
  let reconnected = 0;
  for (const userId of await repo.listBrokenLinkedAccounts({ db })) {
    try {
      await transport.connect(userId);
      reconnected += 1;
    } catch (error) {
      logger.error({ err: error, userId }, 'whatsapp: could not reconnect a linked account');
    }
  }
  return { reconnected };
}

/** Waits for the transport's events being handled (shutdown); the transport is closed by its owner. */
export async function close({ queues }: Pick<WhatsAppContext, 'queues'>): Promise<void> {
  await Promise.allSettled([...queues.values()]);
}
