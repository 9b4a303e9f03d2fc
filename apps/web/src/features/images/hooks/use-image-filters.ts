import { IMAGE_CATEGORIES, type ImageCategory } from '@contrateia/shared/images/images.schemas';
import { useCallback, useMemo } from 'react';
import { useLocation, useNavigate } from 'react-router';
import type { ImageFilters } from '@/features/images/api/image-keys';

export type Visibility = 'public' | 'private';

const isCategory = (value: string | null): value is ImageCategory =>
  (IMAGE_CATEGORIES as readonly (string | null)[]).includes(value);

/**
 * The list's filters, kept in the address (`/images?search=logo&category=system&visibility=public`)
 * so that a reload, Back or a shared link shows the same images. Unknown values read as no filter.
 */
export function useImageFilters() {
  // useLocation rather than useSearchParams: that one would add its code to every page's download.
  const { pathname, search } = useLocation();
  const navigate = useNavigate();

  const filters = useMemo((): ImageFilters => {
    const query = new URLSearchParams(search);
    const category = query.get('category');
    const visibility = query.get('visibility');
    return {
      search: (query.get('search') ?? '').trim(),
      category: isCategory(category) ? category : null,
      isPublic: visibility === 'public' ? true : visibility === 'private' ? false : null,
    };
  }, [search]);

  const setFilter = useCallback(
    (name: 'search' | 'category' | 'visibility', value: string) => {
      const next = new URLSearchParams(search);
      if (value) next.set(name, value);
      else next.delete(name);
      const query = next.toString();
      // Narrowing a list is not a trail of pages for Back.
      void navigate({ pathname, search: query ? `?${query}` : '' }, { replace: true });
    },
    [navigate, pathname, search],
  );

  return { filters, setFilter };
}
