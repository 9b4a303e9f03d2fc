import {
  imageResponseSchema,
  type Image,
  type UpdateImageInput,
} from '@contrateia/shared/images/images.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { imageKeys, imagePath } from '@/features/images/api/image-keys';
import { apiRequest } from '@/lib/api-client';

/** PUT /api/images/{id} {altText, title, isPublic, category}: the image as now stored. */
export async function updateImage({
  id,
  changes,
}: {
  id: string;
  changes: UpdateImageInput;
}): Promise<Image> {
  const body = await apiRequest<unknown>(imagePath(id), { method: 'PUT', body: changes });
  return imageResponseSchema.parse(body).image;
}

/** A change of category or visibility moves the image between filters and figures: read again. */
export function useUpdateImage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateImage,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: imageKeys.all }),
  });
}
