import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import { fileTypeFromBuffer } from 'file-type';
import PQueue from 'p-queue';
import sharp from 'sharp';
import {
  IMAGE_MAX_PIXELS,
  WHATSAPP_PHOTO_TYPES,
  WHATSAPP_POSTER_MAX_BYTES,
  type WhatsAppMedia,
  type WhatsAppMediaKind,
  type WhatsAppMediaUnavailable,
} from '@contrateia/shared';
import { createFileStore } from '@/lib/file-store';
import { createUrlSigner, type Signed } from '@/lib/url-signer';
import { describeMedia, type InboundMedia } from './transports/transport';

/** What a message's `media` column holds: its description, without the address it is served at. */
export type StoredMedia = Omit<WhatsAppMedia, 'url' | 'caption'>;

/** WHATSAPP_MEDIA_MAX_MB's and WHATSAPP_MEDIA_RETENTION_DAYS's defaults. */
export const DEFAULT_MEDIA_LIMITS = { maxBytes: 16 * 1024 * 1024, retentionDays: 90 };

/**
 * How long a received file's download may take, the sender's phone asked again included (it may
 * never answer): past it the message keeps a placeholder, and its turn goes to the next file.
 */
export const MEDIA_DOWNLOAD_TIMEOUT_MS = 2 * 60_000;

/**
 * A download stopped at the limit: more bytes came than `maxBytes` (or were declared). Transports
 * throw it from `InboundMedia.download`.
 */
export class MediaTooLarge extends Error {
  constructor(readonly size: number | undefined) {
    super('media larger than the limit');
  }
}

/**
 * A file is held whole in memory while it is downloaded, checked and written: an instance does
 * at most this many at once (as the image library decodes), the others wait their turn.
 */
export const MEDIA_AT_ONCE = 2;

/** The real types kept for each kind of file; a document keeps any type but a page or script. */
const FAMILY: Partial<Record<WhatsAppMediaKind, (mime: string) => boolean>> = {
  image: (mime) =>
    ['image/jpeg', 'image/png', 'image/webp', 'image/gif', 'image/avif'].includes(mime),
  sticker: (mime) => ['image/webp', 'image/png'].includes(mime),
  // WhatsApp's voice notes are Ogg Opus; an audio file may come in an MP4 container (m4a).
  audio: (mime) => mime.startsWith('audio/') || mime === 'video/mp4',
  video: (mime) => mime.startsWith('video/'),
};

/** Types a browser could run as a page, whatever the address says: never kept. */
const UNSAFE_TYPES = new Set([
  'application/xml',
  'image/svg+xml',
  'text/html',
  'application/xhtml+xml',
  'text/xml',
  'application/javascript',
]);

/** Whether a file's real type is one WhatsApp shows as a photo. */
function isPhotoType(mime: string): boolean {
  return (WHATSAPP_PHOTO_TYPES as readonly string[]).includes(mime);
}

/** Whether bytes no signature names look like markup (an HTML page, an SVG, XML): first non-blank byte `<`. */
function looksLikeMarkup(bytes: Buffer): boolean {
  const head = bytes
    .subarray(0, 1024)
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart();
  return head.startsWith('<');
}

export type Inspected =
  { mimetype: string; extension: string } | { unavailable: WhatsAppMediaUnavailable };

/**
 * What a received file really is, from its bytes alone (the sender's type and name are not
 * asked): a type of its kind's family (an image is a raster image within IMAGE_MAX_PIXELS, an
 * audio an audio…), or why it is not kept. A document may be any file but markup (HTML, SVG,
 * XML: a page a browser would run); one whose type no signature tells is kept as
 * `application/octet-stream`, and always served as an attachment.
 */
export async function inspectMedia(kind: WhatsAppMediaKind, bytes: Buffer): Promise<Inspected> {
  const sniffed = await fileTypeFromBuffer(bytes).catch(() => undefined);
  const mime = sniffed?.mime.split(';')[0]!.trim().toLowerCase();
  if ((mime && UNSAFE_TYPES.has(mime)) || (!sniffed && looksLikeMarkup(bytes)))
    return { unavailable: 'unsafe-type' };
  const family = FAMILY[kind];
  if (family) {
    if (!sniffed || !family(mime!)) return { unavailable: 'type-mismatch' };
    if (kind === 'image' || kind === 'sticker') {
      const pixels = await pixelsOf(bytes);
      if (pixels === undefined) return { unavailable: 'type-mismatch' };
      if (pixels > IMAGE_MAX_PIXELS) return { unavailable: 'too-many-pixels' };
    }
  }
  if (!sniffed) return { mimetype: 'application/octet-stream', extension: 'bin' };
  return { mimetype: sniffed.mime, extension: sniffed.ext };
}

/** An image's pixels (every frame's), from its header alone; undefined when it cannot be read. */
async function pixelsOf(bytes: Buffer): Promise<number | undefined> {
  try {
    const { width, height, pages } = await sharp(bytes, { limitInputPixels: false }).metadata();
    const pixels = width * height * (pages ?? 1);
    return pixels > 0 ? pixels : undefined;
  } catch {
    return undefined;
  }
}

/** The longest side of a video's still as kept: a thumbnail in the chat, never more. */
const STILL_SIDE = 480;

/**
 * A video's still as it is kept and shown (`WhatsAppMedia.poster`): the sender's thumbnail read as
 * a photo (JPEG, PNG or WebP, within WHATSAPP_POSTER_MAX_BYTES and IMAGE_MAX_PIXELS), made again
 * as a small JPEG (nothing of the sender's bytes but the picture: no metadata, nothing hidden), as
 * a `data:` address. Undefined when it is not a photo.
 */
export async function stillOf(bytes: Buffer): Promise<string | undefined> {
  if (bytes.length === 0 || bytes.length > WHATSAPP_POSTER_MAX_BYTES) return undefined;
  const sniffed = await fileTypeFromBuffer(bytes).catch(() => undefined);
  if (!sniffed || !isPhotoType(sniffed.mime)) return undefined;
  try {
    const jpeg = await sharp(bytes, { limitInputPixels: IMAGE_MAX_PIXELS })
      .rotate()
      .resize(STILL_SIDE, STILL_SIDE, { fit: 'inside', withoutEnlargement: true })
      .jpeg({ quality: 70 })
      .toBuffer();
    return `data:image/jpeg;base64,${jpeg.toString('base64')}`;
  } catch {
    return undefined;
  }
}

export type MediaFiles = ReturnType<typeof createMediaFiles>;

/** A message's media as kept: its description, and its stored file's name when there is one. */
export type KeptMedia = { media: StoredMedia; file?: string };

/**
 * WhatsApp's received files: under `dir` (DATA_DIR/media, shared by every instance), one directory
 * per account (its deletion takes them all), each file named by the server. Downloads are limited
 * to `maxBytes` and to MEDIA_AT_ONCE at a time; files are served through addresses signed for an
 * hour, so a page's `<img>` and `<audio>` show them without a bearer token.
 */
export function createMediaFiles({
  dir,
  secret,
  logger,
  maxBytes = DEFAULT_MEDIA_LIMITS.maxBytes,
  retentionDays = DEFAULT_MEDIA_LIMITS.retentionDays,
  downloadTimeoutMs = MEDIA_DOWNLOAD_TIMEOUT_MS,
}: {
  dir: string;
  secret: string;
  logger: FastifyBaseLogger;
  maxBytes?: number;
  retentionDays?: number;
  downloadTimeoutMs?: number;
}) {
  const signer = createUrlSigner(secret, 'whatsapp media urls v1');
  const queue = new PQueue({ concurrency: MEDIA_AT_ONCE });
  const accountDir = (userId: string) => {
    if (!/^[0-9a-f-]{36}$/i.test(userId)) throw new Error(`not an account id: ${userId}`);
    return path.join(dir, userId);
  };
  const storeOf = (userId: string) => createFileStore({ dir: accountDir(userId), logger });

  return {
    maxBytes,
    retentionDays,

    /** Runs `work` (a download, a check) when one of the instance's MEDIA_AT_ONCE turns is free. */
    inTurn: <T>(work: () => Promise<T>): Promise<T> => queue.add(work),

    /**
     * A message's media as it is kept: its description, and the stored file's name when its bytes
     * came whole, within `maxBytes`, and are what its kind says (else `unavailable` says why).
     * Nothing is written for a location or a contact card.
     */
    async keep(userId: string, media: InboundMedia): Promise<KeptMedia> {
      const poster =
        media.kind === 'video' && media.poster
          ? await queue.add(() => stillOf(media.poster!))
          : undefined;
      const description: StoredMedia = { ...describeMedia(media), ...(poster ? { poster } : {}) };
      const { download } = media;
      if (!download) return { media: description };
      // Not even asked for: WhatsApp said how large it is.
      if ((media.declaredSize ?? 0) > maxBytes)
        return { media: { ...description, unavailable: 'too-large' } };
      return queue.add(async () => {
        let bytes: Buffer;
        try {
          bytes = await download({ maxBytes, signal: AbortSignal.timeout(downloadTimeoutMs) });
        } catch (error) {
          if (error instanceof MediaTooLarge)
            return {
              media: {
                ...description,
                size: error.size ?? media.declaredSize ?? maxBytes + 1,
                unavailable: 'too-large' as const,
              },
            };
          logger.warn({ err: error, userId }, 'whatsapp: a received file could not be downloaded');
          return { media: { ...description, unavailable: 'download-failed' as const } };
        }
        const inspected = await inspectMedia(media.kind, bytes);
        if ('unavailable' in inspected)
          return { media: { ...description, size: bytes.length, ...inspected } };
        const name = `${randomUUID()}.${inspected.extension}`;
        await storeOf(userId).write(name, bytes);
        return {
          media: { ...description, mimetype: inspected.mimetype, size: bytes.length },
          file: name,
        };
      });
    },

    /**
     * A new path to receive a file the owner sends in, under the account's directory (on the
     * disk its files are kept on); whoever asks removes it (`discard`) unless it is kept.
     */
    async incomingPath(userId: string): Promise<string> {
      const store = storeOf(userId);
      await store.prepare();
      return store.incomingPath();
    },

    /** Removes a received upload, whether or not it was written or kept. */
    discard: (userId: string, file: string): Promise<void> => storeOf(userId).discard(file),

    /**
     * Keeps a file the owner sends, received at `file` (an `incomingPath`) and within `maxBytes`,
     * when its bytes are what `kind` says, read as a contact's file is read: a photo must really
     * be one of WHATSAPP_PHOTO_TYPES, a document anything but markup. Its real type, size and
     * stored file's name; else why it is not kept (the upload stays, for the caller to discard).
     */
    async keepOwn(
      userId: string,
      { kind, file }: { kind: 'image' | 'document'; file: string },
    ): Promise<
      { mimetype: string; size: number; file: string } | { unavailable: WhatsAppMediaUnavailable }
    > {
      return queue.add(async () => {
        const bytes = await fs.readFile(file);
        const inspected = await inspectMedia(kind, bytes);
        if ('unavailable' in inspected) return inspected;
        // WhatsApp shows these as photos; a GIF or an AVIF would reach some phones as nothing.
        if (kind === 'image' && !isPhotoType(inspected.mimetype))
          return { unavailable: 'type-mismatch' as const };
        const name = `${randomUUID()}.${inspected.extension}`;
        await storeOf(userId).adopt(file, name);
        return { mimetype: inspected.mimetype, size: bytes.length, file: name };
      });
    },

    /** Where a stored file of the account is read from (a transport streams it from there). */
    pathOf: (userId: string, name: string): string => storeOf(userId).pathOf(name),

    /** Removes stored files of the account (a failure is logged: a file nobody names is only space). */
    remove: (userId: string, names: string[]): Promise<void> =>
      names.length === 0 ? Promise.resolve() : storeOf(userId).remove(names),

    /** Removes every file of the account: it was deleted. */
    async removeAccount(userId: string): Promise<void> {
      await fs.rm(accountDir(userId), { recursive: true, force: true });
    },

    /**
     * The account's stored files that `named` (the files its messages name) lacks, last written
     * before `before` (ms since the epoch, by the file system's clock): what a process stopped
     * between writing a file and storing its message left. Younger ones are left alone: their
     * message may be being stored right now, on this instance or another. Only those are looked
     * at closer (`stat`), so the hourly sweep does not read every file's details.
     */
    async strays(userId: string, named: ReadonlySet<string>, before: number): Promise<string[]> {
      const dirOf = accountDir(userId);
      const names = await fs.readdir(dirOf).catch(() => [] as string[]);
      const strays: string[] = [];
      for (const name of names) {
        // Dot names are the store's own (`.incoming/`, swept as it is prepared).
        if (name.startsWith('.') || named.has(name)) continue;
        const stat = await fs.stat(path.join(dirOf, name)).catch(() => undefined);
        if (stat?.isFile() && stat.mtimeMs < before) strays.push(name);
      }
      return strays;
    },

    /** The accounts that have a directory of files (for the sweep of deleted accounts' leftovers). */
    async accounts(): Promise<string[]> {
      const names = await fs.readdir(dir).catch(() => [] as string[]);
      return names.filter((name) => /^[0-9a-f-]{36}$/i.test(name));
    },

    /** Opens a stored file to be served; undefined when it is gone. */
    open: (userId: string, name: string) => storeOf(userId).open(name),

    /** The address a message's file is served at, signed for the next hour. */
    urlOf(messageId: string, now: Date): string {
      const { expires, signature } = signer.sign(messageId, now);
      return `/api/whatsapp/media/${messageId}?${new URLSearchParams({ expires, signature })}`;
    },

    /** Seconds a signed address of the message's file has left; null when it is not a valid one. */
    signedFor: (messageId: string, signed: Partial<Signed>, now: Date): number | null =>
      signer.check(messageId, signed, now),
  };
}
