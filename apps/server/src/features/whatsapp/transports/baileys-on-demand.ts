import { linkedAccountIds } from '../whatsapp-auth.repository';
import type { BaileysTransport, BaileysTransportOptions } from './baileys';
import {
  accountLease,
  createOwnerChannel,
  DEFAULT_COMMAND_TIMEOUTS,
  DEFAULT_LEASE_TTL_MS,
  sentMessageId,
  type AccountCommand,
  type CommandResult,
} from './baileys-owner';
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
 * Until it has loaded Baileys an instance holds no account, so a command a user's request asks of
 * it (send a message, mark read) goes to the instance that holds the account, still without Baileys.
 */
export function createBaileysTransportOnDemand(
  options: BaileysTransportOptions,
): WhatsAppTransport {
  let loading: Promise<BaileysTransport> | undefined;
  const { db, shared } = options;
  const log = options.logger.child({ transport: 'baileys' });
  const loaded = () =>
    (loading ??= import('./baileys').then(({ createBaileysTransport }) => {
      log.debug('whatsapp: Baileys loaded');
      return createBaileysTransport(options);
    }));
  // Forwards only: it runs nothing here, Baileys' transport answers for the accounts this instance holds.
  const forwarder =
    shared &&
    createOwnerChannel({
      shared,
      logger: log,
      ...DEFAULT_COMMAND_TIMEOUTS,
      ...options.commandTimeoutMs,
      run: () => undefined,
    });

  /**
   * Before Baileys is loaded, the instance that holds the account runs the command; when none does,
   * Baileys' transport answers as it always does (not connected; a logout forgets the link).
   */
  async function command<T>(
    accountId: string,
    asked: AccountCommand,
    fromOwner: (result: CommandResult) => T,
    here: (transport: BaileysTransport) => Promise<T>,
  ) {
    if (!loading && forwarder) {
      const result = await forwarder.send(accountId, asked);
      if (result) return fromOwner(result);
    }
    return here(await loaded());
  }
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
          .catch((error: unknown) =>
            log.error({ err: error }, 'whatsapp sweep for orphaned accounts failed'),
          )
          .finally(() => (sweeping = undefined));
      },
      options.sweepIntervalMs ?? options.leaseTtlMs ?? DEFAULT_LEASE_TTL_MS,
    );
  sweeper?.unref();

  return {
    name: 'baileys',
    connect: async (accountId) => (await loaded()).connect(accountId),
    requestPairingCode: (accountId, phone) =>
      command(
        accountId,
        { op: 'requestPairingCode', phone },
        () => undefined,
        (transport) => transport.requestPairingCode(accountId, phone),
      ),
    sendText: (accountId, jid, text, { id, read }) =>
      command(accountId, { op: 'sendText', jid, text, id, read }, sentMessageId, (transport) =>
        transport.sendText(accountId, jid, text, { id, read }),
      ),
    sendMedia: (accountId, jid, media, { id }) =>
      command(accountId, { op: 'sendMedia', jid, id, media }, sentMessageId, (transport) =>
        transport.sendMedia(accountId, jid, media, { id }),
      ),
    sendPresence: (accountId, jid, state) =>
      command(
        accountId,
        { op: 'sendPresence', jid, state },
        () => undefined,
        (transport) => transport.sendPresence(accountId, jid, state),
      ),
    markRead: (accountId, jid, ids) =>
      command(
        accountId,
        { op: 'markRead', jid, ids },
        () => undefined,
        (transport) => transport.markRead(accountId, jid, ids),
      ),
    logout: (accountId) =>
      command(
        accountId,
        { op: 'logout' },
        () => undefined,
        (transport) => transport.logout(accountId),
      ),
    async forget(accountId) {
      if (loading) return (await loading).forget(accountId);
      // Baileys not loaded here: no socket here; the instance that holds the account, if any, unlinks it.
      await forwarder?.send(accountId, { op: 'logout' });
    },
    linkedAccounts: () => linkedAccountIds({ db, resumable: true }),
    async close() {
      closed = true;
      clearInterval(sweeper);
      forwarder?.close();
      await sweeping;
      // Never loaded, nothing to close.
      if (loading) await (await loading).close();
    },
  };
}
