import {
  IMAGE_PAGE_LIMIT,
  listImagesResponseSchema,
  type ListImagesResponse,
} from '@contrateia/shared/images/images.schemas';
import { keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { imageKeys, type ImageFilters } from '@/features/images/api/image-keys';
import { apiRequest } from '@/lib/api-client';

/** 50 images a page, the list's default. */
export const IMAGES_PER_PAGE = IMAGE_PAGE_LIMIT.default;

/**
 * GET /api/images?category=&isPublic=&search=&limit=&offset=: a page of the library, newest
 * first, and how many images match.
 */
export async function getImages({
  filters,
  offset,
}: {
  filters: ImageFilters;
  offset: number;
}): Promise<ListImagesResponse> {
  const query = new URLSearchParams({ limit: String(IMAGES_PER_PAGE), offset: String(offset) });
  if (filters.category) query.set('category', filters.category);
  if (filters.isPublic !== null) query.set('isPublic', String(filters.isPublic));
  if (filters.search) query.set('search', filters.search);
  const body = await apiRequest<unknown>(`/images?${query.toString()}`);
  return listImagesResponseSchema.parse(body);
}

/**
 * The images matching `filters`, a page at a time: "Load more" adds the next page under the ones
 * already shown (offset paging). While other filters load, the previous images stay on screen.
 */
export function useImages(filters: ImageFilters) {
  return useInfiniteQuery({
    queryKey: imageKeys.list(filters),
    queryFn: ({ pageParam }) => getImages({ filters, offset: pageParam }),
    initialPageParam: 0,
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((count, page) => count + page.images.length, 0);
      return last.images.length > 0 && loaded < last.total ? loaded : undefined;
    },
    placeholderData: keepPreviousData,
  });
}
