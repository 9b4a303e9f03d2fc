import { linkedAccountIds } from '../whatsapp-auth.repository';
import type { BaileysTransportOptions } from './baileys';
import type { WhatsAppTransport } from './transport';

/**
 * The Baileys transport, loaded the first time an account needs it. Baileys and its protocol
 * buffers are tens of megabytes of heap that a server whose accounts never link WhatsApp would
 * carry for nothing, and start-up would load them first: the accounts to resume at start are
 * read without them, and a server with none loads Baileys only when someone connects.
 */
export function createBaileysTransportOnDemand(options: BaileysTransportOptions): WhatsAppTransport {
  let loading: Promise<WhatsAppTransport> | undefined;
  const loaded = () => (loading ??= import('./baileys').then(({ createBaileysTransport }) => createBaileysTransport(options)));
  return {
    name: 'baileys',
    connect: async (accountId) => (await loaded()).connect(accountId),
    sendText: async (accountId, jid, text) => (await loaded()).sendText(accountId, jid, text),
    sendPresence: async (accountId, jid, state) => (await loaded()).sendPresence(accountId, jid, state),
    markRead: async (accountId, jid, ids) => (await loaded()).markRead(accountId, jid, ids),
    logout: async (accountId) => (await loaded()).logout(accountId),
    linkedAccounts: () => linkedAccountIds({ db: options.db }),
    // Never loaded, nothing to close.
    close: async () => (loading ? (await loading).close() : undefined),
  };
}
