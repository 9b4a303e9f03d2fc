import type { Signed } from '@/lib/url-signer';
import { isUuid } from '@/lib/uuid';
import type { WhatsAppContext } from './whatsapp.deps';
import { mediaLinkInvalid, mediaNotFound } from './whatsapp.errors';
import * as repo from './whatsapp.repository';

/** Types a browser shows by itself without running anything: served inline, all else as an attachment. */
const INLINE = /^(image\/(jpeg|png|gif|webp|avif)|audio\/[\w.+-]+|video\/[\w.+-]+)$/;

/**
 * A message's file, to be served to the account it belongs to: through its signed address (an
 * `<img>` or `<audio>` sends no token), or to the account's own session (`userId`). A 403 for a
 * signed address that is not valid (forged, or past its hour); a 404 for a message that is not the
 * account's, or whose file is not kept (never kept, expired, deleted for everyone).
 */
export async function openMedia(
  { db, clock, media }: Pick<WhatsAppContext, 'db' | 'clock' | 'media'>,
  {
    messageId,
    signed,
    userId,
  }: {
    messageId: string;
    /** The address's signature and expiry, when it came with them. */
    signed?: Partial<Signed>;
    /** The session's account, when it came without them. */
    userId?: string;
  },
) {
  if (signed && media.signedFor(messageId, signed, clock.now()) === null) throw mediaLinkInvalid();
  const row = isUuid(messageId) ? await repo.findMessageMedia({ db, id: messageId }) : undefined;
  if (!row || (!signed && row.userId !== userId) || !row.mediaFile || row.deletedAt)
    throw mediaNotFound();
  const opened = await media.open(row.userId, row.mediaFile);
  if (!opened) throw mediaNotFound();
  const mimetype = row.media?.mimetype ?? 'application/octet-stream';
  const baseType = mimetype.split(';')[0]!.trim().toLowerCase();
  const extension = row.mediaFile.slice(row.mediaFile.lastIndexOf('.') + 1);
  return {
    ...opened,
    mimetype,
    inline: INLINE.test(baseType),
    fileName: row.media?.fileName ?? `${row.media?.kind ?? 'file'}.${extension}`,
    // The stored file never changes: its name (random, one per message) identifies its bytes.
    etag: `"${row.mediaFile}"`,
  };
}

/**
 * A Content-Disposition for `fileName`: an ASCII fallback (no quote, backslash or line break can
 * reach the header) and the name itself, percent-encoded (RFC 6266).
 */
export function contentDisposition(kind: 'inline' | 'attachment', fileName: string): string {
  const ascii =
    fileName
      .normalize('NFD')
      .replace(/\p{M}/gu, '')
      .replace(/[^A-Za-z0-9._-]+/g, '_')
      .replace(/^[._]+/, '')
      .slice(0, 150) || 'file';
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}
