import type { Readable } from 'node:stream';
import type { AccountExport, Language, User } from '@contrateia/shared';
import type { FastifyBaseLogger } from 'fastify';
import { streamArchive, type ArchiveFile } from './privacy.archive';

export type { ArchiveFile };

/** An account's data the other features hold, each part the feature that holds it contributes. */
export type AccountParts = Pick<AccountExport, 'hires' | 'conversations' | 'whatsapp' | 'myAgents'>;
export type AccountPart = keyof AccountParts;

/** A feature's part of an account's data, read in the account's language. */
export type PartCollector<P extends AccountPart> = (
  user: User,
  language: Language,
) => Promise<AccountParts[P]>;

/**
 * The stored files behind a feature's part of the export (the ZIP variant holds them), read from
 * that part as it was collected, so the files and their listing are the same ones.
 */
export type FileLister<P extends AccountPart> = (
  user: User,
  part: AccountParts[P],
) => ArchiveFile[];

export type PrivacyService = ReturnType<typeof createPrivacyService>;

/**
 * The LGPD export's parts that live outside the account (hires, conversations, WhatsApp): each
 * feature contributes the reader of its own when its module is registered, and the auth feature's
 * "Download my data" collects them all. (Deleting an account needs no part of its own: every
 * feature's rows go with the account's row, by ON DELETE CASCADE.)
 */
export function createPrivacyService({ logger }: { logger: FastifyBaseLogger }) {
  const collectors = new Map<AccountPart, PartCollector<AccountPart>>();
  const listers = new Map<AccountPart, FileLister<AccountPart>>();
  return {
    /** Adds the reader of `part`; a part has one reader. */
    contribute<P extends AccountPart>(part: P, collect: PartCollector<P>): void {
      if (collectors.has(part)) throw new Error(`privacy: ${part} has a reader already`);
      collectors.set(part, collect as PartCollector<AccountPart>);
    },

    /** Adds the lister of `part`'s stored files; a part has one lister, and most have none. */
    contributeFiles<P extends AccountPart>(part: P, list: FileLister<P>): void {
      if (listers.has(part)) throw new Error(`privacy: ${part} has a file lister already`);
      listers.set(part, list as FileLister<AccountPart>);
    },

    /**
     * "Download my data" as a ZIP: the stored files of every part of `data` (the export of
     * `current`, as collected), then `data` itself as `data.json`, streamed (privacy.archive.ts).
     */
    archive(current: User, data: AccountExport): Readable {
      const user = { ...current, role: current.originalRole };
      const files = [...listers].flatMap(([part, list]) => list(user, data[part]));
      return streamArchive({ files, data, logger });
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
