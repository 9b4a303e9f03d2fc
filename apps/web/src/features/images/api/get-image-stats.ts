import {
  imageStatsResponseSchema,
  type ImageStatsResponse,
} from '@contrateia/shared/images/images.schemas';
import { useQuery } from '@tanstack/react-query';
import { imageKeys } from '@/features/images/api/image-keys';
import { apiRequest } from '@/lib/api-client';

/** GET /api/images/stats: how many images, their bytes, and how many in each category. */
export async function getImageStats(): Promise<ImageStatsResponse['stats']> {
  const body = await apiRequest<unknown>('/images/stats');
  return imageStatsResponseSchema.parse(body).stats;
}

export function useImageStats() {
  return useQuery({ queryKey: imageKeys.stats, queryFn: getImageStats });
}
