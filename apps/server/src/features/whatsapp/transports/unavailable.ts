import { AppError } from '@/lib/errors';
import type { WhatsAppTransport } from './transport';

/**
 * Stands in for the Baileys transport until it is built: every attempt to connect or send is
 * refused with a typed error (503, translated), nothing is linked, and closing has nothing to do.
 * Wired in app.ts, in the one place the transport is chosen.
 */
export function createUnavailableTransport(): WhatsAppTransport {
  const refuse = async (): Promise<never> => {
    throw new AppError(503, 'whatsapp.transportUnavailable');
  };
  return {
    name: 'baileys',
    connect: refuse,
    sendText: refuse,
    sendPresence: refuse,
    markRead: refuse,
    logout: async () => {},
    linkedAccounts: async () => [],
    close: async () => {},
  };
}
