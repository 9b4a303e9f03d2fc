import type { Readable } from 'node:stream';
import type { WhatsAppAccountExport } from '@contrateia/shared';
import type { WhatsAppContext } from './whatsapp.deps';
import * as repo from './whatsapp.repository';

type ExportedMedia = WhatsAppAccountExport['media'][number];

/**
 * Where the ZIP variant of "Download my data" holds a message's kept file:
 * `media/<conversation>/<message>.<ext>`, every part the server's own (ids it made, the extension
 * it read from the bytes), so no name a contact gave can reach a path; theirs is in the listing.
 */
export function archivePathOf({
  conversationId,
  messageId,
  file,
}: {
  conversationId: string;
  messageId: string;
  /** The stored file's name (`<uuid>.<ext>`). */
  file: string;
}): string {
  const extension = /\.([a-z0-9]{1,10})$/i.exec(file)?.[1]?.toLowerCase() ?? 'bin';
  return `media/${conversationId}/${messageId}.${extension}`;
}

/**
 * The kept files of the account's export listing, for its ZIP: each opened when its turn comes,
 * as its message holds it then (a conversation deleted since, or the retention, leaves it out,
 * and the listing then says it is no longer kept).
 */
export function exportFiles(
  { db, media }: Pick<WhatsAppContext, 'db' | 'media'>,
  { userId, listing }: { userId: string; listing: ExportedMedia[] },
) {
  return listing.flatMap((entry) => {
    const path = entry.archivePath;
    if (path === null) return [];
    return [
      {
        path,
        modifiedAt: new Date(entry.receivedAt),
        open: async (): Promise<{ stream: Readable; size: number } | undefined> => {
          const row = await repo.findMessageMedia({ db, id: entry.messageId });
          if (!row || row.userId !== userId || !row.mediaFile) return undefined;
          const opened = await media.open(userId, row.mediaFile);
          return opened && { stream: opened.handle.createReadStream(), size: opened.size };
        },
        onGone: () => {
          entry.kept = false;
          entry.archivePath = null;
        },
      },
    ];
  });
}

/**
 * The kept files on every instance together (one database, one DATA_DIR), as their messages
 * recorded them: a sum in the database, so the monitor never walks the directory.
 */
export function mediaUsage({ db }: Pick<WhatsAppContext, 'db'>): Promise<{
  files: number;
  bytes: number;
}> {
  return repo.mediaUsage({ db });
}
