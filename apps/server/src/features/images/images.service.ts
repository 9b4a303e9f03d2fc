import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import sharp from 'sharp';
import type { z } from 'zod';
import {
  IMAGE_CATEGORIES,
  IMAGE_FORMATS,
  type Image,
  type ImageStatsResponse,
  type listImagesQuerySchema,
  type SystemSettings,
  type UpdateImageInput,
  type ImageCategory,
} from '@contrateia/shared';
import type { Db } from '@/db/client';
import type { Clock } from '@/lib/clock';
import type { MaybePromise } from '@/lib/maybe-promise';
import { createWorkGate, type WorkGate } from '@/lib/work-gate';
import { encodeImage, FORMATS, inspectImage, THUMBNAIL_MIME } from './images.processing';
import * as repo from './images.repository';
import { createUrlSigner, type ImageSize, type Signed } from './images.signing';
import { createFileStore } from '@/lib/file-store';
import type { ImageRow } from './images.table';
import { isUuid } from '@/lib/uuid';
import { recordAudit, type AuditActor, type AuditChanges } from '@/features/audit/audit.service';
import {
  imageFormatNotAllowed,
  imageNoExtension,
  imageNotFound,
  imageTypeNotAllowed,
} from './images.errors';

/** What an upload must keep to, as the admin's system settings say at the moment it arrives. */
export type UploadPolicy = { maxBytes: number; maxFileSizeMb: number; allowedFileTypes: string[] };

/** The text fields of an upload, once valid (imageUploadFieldsSchema's output). */
export type UploadFields = {
  category: ImageCategory;
  altText: string;
  title: string;
  isPublic: boolean;
};

/** How long browsers and proxies may keep a public image before asking again. */
export const PUBLIC_MAX_AGE_SECONDS = 60 * 60;

/** The fields of a row an audit record names. */
function audited(row: ImageRow): Record<string, unknown> {
  return {
    originalFilename: row.originalFilename,
    title: row.title,
    altText: row.altText,
    category: row.category,
    isPublic: row.isPublic,
    mimeType: row.mimeType,
    fileSize: row.fileSize,
    width: row.width,
    height: row.height,
  };
}

const whole = (row: ImageRow, side: 'before' | 'after'): AuditChanges =>
  Object.fromEntries(
    Object.entries(audited(row)).map(([field, value]) => [
      field,
      side === 'after' ? { before: null, after: value } : { before: value, after: null },
    ]),
  );

/**
 * A client's file name as it may be shown: its last path segment, without control or
 * direction-changing characters, 255 characters at most (its extension kept). Never used on disk.
 * Browsers send a name's `"`, CR and LF as %22, %0D and %0A (the HTML form encoding): read back.
 */
export function cleanFilename(name: string): string {
  const decoded = name.replace(/%(22|0a|0d)/gi, (_, code: string) =>
    String.fromCharCode(parseInt(code, 16)),
  );
  const base = (decoded.split(/[/\\]/).pop() ?? '')
    .normalize('NFC')
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, '')
    .trim();
  if (!base) return 'image';
  const chars = [...base];
  if (chars.length <= 255) return base;
  const dot = base.lastIndexOf('.');
  const extension = dot > 0 ? [...base.slice(dot)].slice(0, 16).join('') : '';
  return chars.slice(0, 255 - extension.length).join('') + extension;
}

/** The extension of a file name, lower-case, without its dot ('' when it has none). */
function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1).toLowerCase() : '';
}

/**
 * A name for Content-Disposition: ASCII letters, digits, dots, dashes and underscores only (no
 * quote, backslash or line break can reach the header), then `suffix` and the stored format's
 * extension.
 */
export function downloadName(original: string, extension: string, suffix = ''): string {
  const dot = original.lastIndexOf('.');
  const stem = (dot > 0 ? original.slice(0, dot) : original)
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^[._]+|_+$/g, '')
    .slice(0, 100);
  return `${stem || 'image'}${suffix}.${extension}`;
}

export type ImagesService = ReturnType<typeof createImagesService>;

/**
 * The image library: uploads checked from their bytes and stored re-encoded with a
 * thumbnail, the list with its filters and signed addresses, stats, edits and deletion (each
 * recorded in the admin audit in its transaction), and what serving a file needs. The files live
 * in `dir`, which every instance shares; the rows in the database.
 */
/**
 * Decoding and re-encoding an image takes a core for up to seconds: an instance does at most 2 at
 * once and lets 4 more wait; past that an upload is told to come back (429, Retry-After).
 */
export const IMAGE_DECODING = {
  running: 2,
  waiting: 4,
  retryAfterSeconds: 5,
  key: 'errors.imagesBusy',
};

export function createImagesService({
  db,
  dir,
  secret,
  clock,
  systemSettings,
  logger,
  decoding = createWorkGate(IMAGE_DECODING),
}: {
  db: Db;
  dir: string;
  /** The app's secret: signed addresses are keyed from it. */
  secret: string;
  clock: Clock;
  /** The admin's system settings in force (upload size and types are read at each upload). */
  systemSettings: () => MaybePromise<SystemSettings>;
  logger: FastifyBaseLogger;
  /** Where the decoding waits its turn (IMAGE_DECODING's gate unless given one). */
  decoding?: WorkGate;
}) {
  const store = createFileStore({ dir, logger });
  const signer = createUrlSigner(secret);
  // libvips keeps recently opened files and results for reuse: every upload is a new file, read
  // once and deleted, so the cache would only hold deleted files open.
  sharp.cache(false);

  /** A private image's address at `size`, signed for the next hour; a public one's, plain. */
  function urlOf(row: ImageRow, size: ImageSize, now: Date): string {
    const base = `/api/images/${row.id}`;
    const query = new URLSearchParams(size === 'thumb' ? { size } : {});
    if (!row.isPublic) {
      const { expires, signature } = signer.sign(row.id, size, now);
      query.set('expires', expires);
      query.set('signature', signature);
    }
    const text = query.toString();
    return text ? `${base}?${text}` : base;
  }

  function toImage(row: ImageRow, now: Date): Image {
    return {
      id: row.id,
      originalFilename: row.originalFilename,
      altText: row.altText,
      title: row.title,
      category: row.category,
      fileSize: row.fileSize,
      width: row.width,
      height: row.height,
      mimeType: row.mimeType,
      createdAt: row.createdAt.toISOString(),
      isPublic: row.isPublic,
      url: urlOf(row, 'full', now),
      thumbnailUrl: urlOf(row, 'thumb', now),
    };
  }

  /** The row of `id`, or a 404 (for any text that is not an image's id too). */
  async function rowOf(id: string): Promise<ImageRow> {
    const row = isUuid(id) ? await repo.findImage({ db, id }) : undefined;
    if (!row) throw imageNotFound();
    return row;
  }

  /** The image extensions among the allowed types, for the refusals' messages. */
  const allowedImageTypes = (policy: UploadPolicy): string =>
    policy.allowedFileTypes
      .filter((type) => IMAGE_FORMATS.some((format) => FORMATS[format].extensions.includes(type)))
      .join(', ') || '-';

  /** Whether an extension is allowed; jpg and jpeg stand for each other. */
  function allows(policy: UploadPolicy, extension: string): boolean {
    const same = FORMATS.jpeg.extensions.includes(extension)
      ? FORMATS.jpeg.extensions
      : [extension];
    return same.some((type) => policy.allowedFileTypes.includes(type));
  }

  return {
    /** Makes the images directory and clears what interrupted uploads left (at start). */
    prepare: () => store.prepare(),

    /** The size and types an upload may have, as the admin's settings say now. */
    async uploadPolicy(): Promise<UploadPolicy> {
      const { maxFileSize, allowedFileTypes } = await systemSettings();
      return { maxBytes: maxFileSize * 1024 * 1024, maxFileSizeMb: maxFileSize, allowedFileTypes };
    },

    /** A 429 when the decoding's slots and line are full: asked before an upload's body is read. */
    assertDecodingRoom: decoding.assertRoom,

    /** A new path to receive an upload in, and its removal (the receiver removes it in any case). */
    incomingPath: store.incomingPath,
    discard: store.discard,

    /**
     * The client's file name, cleaned for display, once its extension is one the admin allows:
     * checked as soon as the upload names its file, before its bytes are read. A 400 otherwise.
     */
    checkFileName(name: string, policy: UploadPolicy): string {
      const cleaned = cleanFilename(name);
      const extension = extensionOf(cleaned);
      const allowed = allowedImageTypes(policy);
      if (!extension) throw imageNoExtension(allowed);
      if (!allows(policy, extension))
        throw imageTypeNotAllowed({ extension: `.${extension}`, allowed });
      return cleaned;
    },

    /**
     * Stores a received upload (`file`, its size already within the policy): its real format read
     * from its bytes must be an allowed raster format within the pixel limit, and it is stored
     * re-encoded with its thumbnail, then its row and audit record in one transaction. Nothing is
     * kept when any step fails.
     */
    async upload({
      file,
      originalFilename,
      fields,
      policy,
      actor,
    }: {
      file: string;
      originalFilename: string;
      fields: UploadFields;
      policy: UploadPolicy;
      actor: AuditActor;
    }): Promise<{ imageId: string }> {
      const { format, image, thumbnail } = await decoding.run(async () => {
        const inspection = await inspectImage(file);
        if (!FORMATS[inspection.format].extensions.some((extension) => allows(policy, extension))) {
          throw imageFormatNotAllowed({
            format: FORMATS[inspection.format].label,
            allowed: allowedImageTypes(policy),
          });
        }
        return { format: inspection.format, ...(await encodeImage(file, inspection)) };
      });
      const id = randomUUID();
      const fileName = `${id}.${FORMATS[format].extensions[0]}`;
      const thumbnailName = `${id}.thumb.webp`;
      try {
        await Promise.all([
          store.write(fileName, image.data),
          store.write(thumbnailName, thumbnail.data),
        ]);
        await db.transaction(async (tx) => {
          const now = clock.now();
          const row = await repo.insertImage({
            db: tx,
            row: {
              id,
              originalFilename,
              ...fields,
              fileName,
              thumbnailName,
              mimeType: FORMATS[format].mime,
              fileSize: image.data.length,
              width: image.width,
              height: image.height,
              uploadedBy: actor.actorId,
              createdAt: now,
            },
          });
          await recordAudit(tx, {
            actor,
            at: now,
            action: 'image.upload',
            target: id,
            changes: whole(row, 'after'),
          });
        });
      } catch (error) {
        await store.remove([fileName, thumbnailName]);
        throw error;
      }
      return { imageId: id };
    },

    /** A page of the library, newest first, each image with its (signed, if private) addresses. */
    async list(
      query: z.output<typeof listImagesQuerySchema>,
    ): Promise<{ images: Image[]; total: number }> {
      const { rows, total } = await repo.listImages({
        db,
        filters: { category: query.category, isPublic: query.isPublic, search: query.search },
        limit: query.limit,
        offset: query.offset,
      });
      const now = clock.now();
      return { images: rows.map((row) => toImage(row, now)), total };
    },

    /** How many images, their bytes, and how many in each category (all of them, in order). */
    async stats(): Promise<ImageStatsResponse['stats']> {
      const { total, totalSize, byCategory } = await repo.imageStats({ db });
      const counts = new Map(byCategory.map((entry) => [entry.category, entry.count]));
      return {
        total,
        totalSize,
        byCategory: IMAGE_CATEGORIES.map((category) => ({
          category,
          count: counts.get(category) ?? 0,
        })),
      };
    },

    /** Changes an image's texts, category or visibility; the audit names the fields changed. */
    async update({
      id,
      input,
      actor,
    }: {
      id: string;
      input: UpdateImageInput;
      actor: AuditActor;
    }): Promise<{ image: Image }> {
      if (!isUuid(id)) throw imageNotFound();
      const row = await db.transaction(async (tx) => {
        const before = await repo.findImageForUpdate({ db: tx, id });
        if (!before) throw imageNotFound();
        const after = (await repo.updateImage({ db: tx, id, changes: input }))!;
        const changes: AuditChanges = {};
        const was = audited(before);
        for (const [field, value] of Object.entries(audited(after))) {
          const old = was[field];
          if (old !== value) changes[field] = { before: old, after: value };
        }
        if (Object.keys(changes).length > 0)
          await recordAudit(tx, {
            actor,
            at: clock.now(),
            action: 'image.update',
            target: id,
            targetName: after.title || after.originalFilename,
            changes,
          });
        return after;
      });
      return { image: toImage(row, clock.now()) };
    },

    /** Deletes an image: its row (and audit record) first, then both files. */
    async remove({ id, actor }: { id: string; actor: AuditActor }): Promise<void> {
      if (!isUuid(id)) throw imageNotFound();
      const row = await db.transaction(async (tx) => {
        const deleted = await repo.deleteImage({ db: tx, id });
        if (!deleted) throw imageNotFound();
        await recordAudit(tx, {
          actor,
          at: clock.now(),
          action: 'image.delete',
          target: id,
          changes: whole(deleted, 'before'),
        });
        return deleted;
      });
      await store.remove([row.fileName, row.thumbnailName]);
    },

    /** The image `id` as served: a 404 for what is not one. */
    find: rowOf,

    /**
     * Seconds a signed address of `id` at `size` has left, or null when it is not a valid one
     * (the signature not ours for it, or its time past).
     */
    signedFor: (id: string, size: ImageSize, signed: Partial<Signed>): number | null =>
      signer.check(id, size, signed, clock.now()),

    /**
     * Opens an image's file at `size` to be sent: a handle, its size, its media type, and the
     * name it is offered under; a 404 when the file is gone (deleted meanwhile on another instance).
     */
    async open(row: ImageRow, size: ImageSize) {
      const thumb = size === 'thumb';
      const opened = await store.open(thumb ? row.thumbnailName : row.fileName);
      if (!opened) throw imageNotFound();
      return {
        ...opened,
        mimeType: thumb ? THUMBNAIL_MIME : row.mimeType,
        filename: downloadName(
          row.originalFilename,
          extensionOf(thumb ? row.thumbnailName : row.fileName),
          thumb ? '-thumb' : '',
        ),
        // The stored file never changes: its name (random, one per upload) identifies its bytes.
        etag: `"${thumb ? row.thumbnailName : row.fileName}"`,
      };
    },

    /** Each existing image's name as the audit shows it: its title, else its file name. */
    async namesOf(ids: string[]): Promise<Map<string, string>> {
      const rows = await repo.findImages({ db, ids: ids.filter((id) => isUuid(id)) });
      return new Map(rows.map((row) => [row.id, row.title || row.originalFilename]));
    },
  };
}
