import type { AccountExport, Language, User } from '@contrateia/shared';

/** An account's data the other features hold, each part the feature that holds it contributes. */
export type AccountParts = Pick<AccountExport, 'hires' | 'conversations' | 'whatsapp' | 'myAgents'>;
export type AccountPart = keyof AccountParts;

/** A feature's part of an account's data, read in the account's language. */
export type PartCollector<P extends AccountPart> = (
  user: User,
  language: Language,
) => Promise<AccountParts[P]>;

export type PrivacyService = ReturnType<typeof createPrivacyService>;

/**
 * The LGPD export's parts that live outside the account (hires, conversations, WhatsApp): each
 * feature contributes the reader of its own when its module is registered, and the auth feature's
 * "Download my data" collects them all. (Deleting an account needs no part of its own: every
 * feature's rows go with the account's row, by ON DELETE CASCADE.)
 */
export function createPrivacyService() {
  const collectors = new Map<AccountPart, PartCollector<AccountPart>>();
  return {
    /** Adds the reader of `part`; a part has one reader. */
    contribute<P extends AccountPart>(part: P, collect: PartCollector<P>): void {
      if (collectors.has(part)) throw new Error(`privacy: ${part} has a reader already`);
      collectors.set(part, collect as PartCollector<AccountPart>);
    },

    /**
     * Every part of `current`'s data, read one after the other. The account's, whatever mode it is
     * in: an admin in user mode gets administrador's too. A part nobody contributed is an error,
     * never an export that silently lacks it.
     */
    async collect(current: User, language: Language): Promise<AccountParts> {
      const user = { ...current, role: current.originalRole };
      const read = async <P extends AccountPart>(part: P): Promise<AccountParts[P]> => {
        const collect = collectors.get(part) as PartCollector<P> | undefined;
        if (!collect) throw new Error(`privacy: no feature contributed ${part}`);
        return collect(user, language);
      };
      return {
        hires: await read('hires'),
        conversations: await read('conversations'),
        whatsapp: await read('whatsapp'),
        myAgents: await read('myAgents'),
      };
    },
  };
}
