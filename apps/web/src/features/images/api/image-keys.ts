import type { ImageCategory } from '@contrateia/shared/images/images.schemas';

/** What the list is narrowed to: the search text, a category, public or private images. */
export interface ImageFilters {
  search: string;
  category: ImageCategory | null;
  isPublic: boolean | null;
}

/**
 * The image library's query keys, in one place so that every change invalidates what it
 * affects: an upload, an edit or a deletion changes the lists and the figures alike.
 */
export const imageKeys = {
  all: ['images'] as const,
  list: (filters: ImageFilters) => ['images', 'list', filters] as const,
  stats: ['images', 'stats'] as const,
};

/** `/images/{id}`, the id encoded: it comes from the server, but a path is no place to trust it. */
export const imagePath = (id: string) => `/images/${encodeURIComponent(id)}`;
