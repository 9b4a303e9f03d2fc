import { boolean, index, integer, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import type { ImageCategory } from '@contrateia/shared';
import { users } from '@/features/auth/auth.table';

/**
 * The image library. Each row names two files under the images directory, both with
 * names the server made (`<id>.<ext>` and `<id>.thumb.webp`): the upload re-encoded, and its
 * thumbnail. The client's file name is kept for display only.
 */
export const images = pgTable(
  'images',
  {
    id: uuid('id').primaryKey(),
    /** The client's file name, cleaned of paths and control characters; never used on disk. */
    originalFilename: text('original_filename').notNull(),
    altText: text('alt_text').notNull().default(''),
    title: text('title').notNull().default(''),
    category: text('category').$type<ImageCategory>().notNull(),
    isPublic: boolean('is_public').notNull().default(false),
    /** The stored image's file name in the images directory. */
    fileName: text('file_name').notNull(),
    /** The thumbnail's file name in the images directory. */
    thumbnailName: text('thumbnail_name').notNull(),
    /** The stored image's media type, e.g. image/jpeg. */
    mimeType: text('mime_type').notNull(),
    /** Bytes of the stored image (not of the upload, nor the thumbnail). */
    fileSize: integer('file_size').notNull(),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
    /** Null once the uploader's account is deleted; the image stays. */
    uploadedBy: uuid('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('images_created_idx').on(t.createdAt, t.id),
    index('images_category_idx').on(t.category, t.createdAt),
  ],
);

export type ImageRow = typeof images.$inferSelect;
