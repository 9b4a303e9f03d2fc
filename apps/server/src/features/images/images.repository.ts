import { and, count, desc, eq, inArray, sql, type SQL } from 'drizzle-orm';
import type { ImageCategory } from '@contrateia/shared';
import type { Db } from '@/db/client';
import { foldedContains } from '@/lib/like';
import { images, type ImageRow } from './images.table';

export type NewImageRow = typeof images.$inferInsert;

/** What the list may be narrowed by; an empty search matches everything. */
export type ImageFilters = { category?: ImageCategory; isPublic?: boolean; search: string };

function whereOf({ category, isPublic, search }: ImageFilters): SQL | undefined {
  return and(
    category ? eq(images.category, category) : undefined,
    isPublic === undefined ? undefined : eq(images.isPublic, isPublic),
    search
      ? foldedContains([images.title, images.altText, images.originalFilename], search)
      : undefined,
  );
}

/** A page of the images that pass `filters`, newest first, and how many pass in all. */
export async function listImages({
  db,
  filters,
  limit,
  offset,
}: {
  db: Db;
  filters: ImageFilters;
  limit: number;
  offset: number;
}): Promise<{ rows: ImageRow[]; total: number }> {
  const where = whereOf(filters);
  const [rows, [total]] = await Promise.all([
    db
      .select()
      .from(images)
      .where(where)
      .orderBy(desc(images.createdAt), desc(images.id))
      .limit(limit)
      .offset(offset),
    db.select({ n: count() }).from(images).where(where),
  ]);
  return { rows, total: total?.n ?? 0 };
}

export async function findImage({ db, id }: { db: Db; id: string }): Promise<ImageRow | undefined> {
  const [row] = await db.select().from(images).where(eq(images.id, id));
  return row;
}

/** The rows of these ids that exist (ids that are not an image's are left out). */
export async function findImages({ db, ids }: { db: Db; ids: string[] }): Promise<ImageRow[]> {
  if (ids.length === 0) return [];
  return db.select().from(images).where(inArray(images.id, ids));
}

/** In a transaction, the row stays locked until it ends. */
export async function findImageForUpdate({
  db,
  id,
}: {
  db: Db;
  id: string;
}): Promise<ImageRow | undefined> {
  const [row] = await db.select().from(images).where(eq(images.id, id)).for('update');
  return row;
}

export async function insertImage({ db, row }: { db: Db; row: NewImageRow }): Promise<ImageRow> {
  const [inserted] = await db.insert(images).values(row).returning();
  return inserted!;
}

export async function updateImage({
  db,
  id,
  changes,
}: {
  db: Db;
  id: string;
  changes: Partial<Pick<ImageRow, 'altText' | 'title' | 'isPublic' | 'category'>>;
}): Promise<ImageRow | undefined> {
  const [row] = await db.update(images).set(changes).where(eq(images.id, id)).returning();
  return row;
}

export async function deleteImage({
  db,
  id,
}: {
  db: Db;
  id: string;
}): Promise<ImageRow | undefined> {
  const [row] = await db.delete(images).where(eq(images.id, id)).returning();
  return row;
}

/** How many images there are, their bytes, and how many in each category that has any. */
export async function imageStats({ db }: { db: Db }) {
  const [[totals], byCategory] = await Promise.all([
    db
      .select({
        total: count(),
        totalSize: sql<number>`coalesce(sum(${images.fileSize}), 0)::bigint`.mapWith(Number),
      })
      .from(images),
    db.select({ category: images.category, count: count() }).from(images).groupBy(images.category),
  ]);
  return { total: totals?.total ?? 0, totalSize: totals?.totalSize ?? 0, byCategory };
}
