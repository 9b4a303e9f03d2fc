import { linkedAccountIds } from '../whatsapp-auth.repository';
import type { BaileysTransport, BaileysTransportOptions } from './baileys';
import { accountLease, DEFAULT_LEASE_TTL_MS } from './baileys-owner';
import type { WhatsAppTransport } from './transport';

/**
 * The Baileys transport, loaded the first time an account needs it. Baileys and its protocol
 * buffers are tens of megabytes of heap that a server whose accounts never link WhatsApp would
 * carry for nothing, and start-up would load them first: the accounts to resume at start are
 * read without them, and a server with none loads Baileys only when someone connects.
 *
 * With several instances (`shared`), it also sweeps for orphans: an account whose owner died (its
 * lease lapsed) or shut down is linked and held by nobody, and would stay so until some instance
 * restarted. Every instance looks for such accounts now and then, without Baileys (an instance that
 * has not loaded it yet must take part too), and takes them over; the lease decides which instance.
 */
export function createBaileysTransportOnDemand(options: BaileysTransportOptions): WhatsAppTransport {
  let loading: Promise<BaileysTransport> | undefined;
  const loaded = () => (loading ??= import('./baileys').then(({ createBaileysTransport }) => createBaileysTransport(options)));
  const { db, shared } = options;
  const log = options.logger.child({ transport: 'baileys' });
  let closed = false;
  let sweeping: Promise<void> | undefined;

  async function sweep() {
    if (!shared) return;
    const linked = await linkedAccountIds({ db, resumable: true });
    for (const accountId of linked) {
      if (closed) return;
      try {
        // Most are held: asked without loading Baileys, and without a word in the log.
        if (await shared.isLocked(accountLease(accountId))) continue;
        await (await loaded()).takeOver(accountId);
      } catch (error) {
        log.error({ err: error, accountId }, 'whatsapp account not taken over');
      }
    }
    log.debug({ linked: linked.length }, 'whatsapp sweep for orphaned accounts done');
  }

  const sweeper =
    shared &&
    setInterval(
      () => {
        if (sweeping) return;
        sweeping = sweep()
          .catch((error: unknown) => log.error({ err: error }, 'whatsapp sweep for orphaned accounts failed'))
          .finally(() => (sweeping = undefined));
      },
      options.sweepIntervalMs ?? options.leaseTtlMs ?? DEFAULT_LEASE_TTL_MS,
    );
  sweeper?.unref();

  return {
    name: 'baileys',
    connect: async (accountId) => (await loaded()).connect(accountId),
    sendText: async (accountId, jid, text) => (await loaded()).sendText(accountId, jid, text),
    sendPresence: async (accountId, jid, state) => (await loaded()).sendPresence(accountId, jid, state),
    markRead: async (accountId, jid, ids) => (await loaded()).markRead(accountId, jid, ids),
    logout: async (accountId) => (await loaded()).logout(accountId),
    linkedAccounts: () => linkedAccountIds({ db, resumable: true }),
    async close() {
      closed = true;
      clearInterval(sweeper);
      await sweeping;
      // Never loaded, nothing to close.
      if (loading) await (await loading).close();
    },
  };
}
