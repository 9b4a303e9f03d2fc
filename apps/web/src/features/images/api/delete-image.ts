import { deleteImageResponseSchema } from '@contrateia/shared/images/images.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { imageKeys, imagePath } from '@/features/images/api/image-keys';
import { apiRequest } from '@/lib/api-client';

/** DELETE /api/images/{id}: the image and its files are gone. */
export async function deleteImage(id: string): Promise<void> {
  const body = await apiRequest<unknown>(imagePath(id), { method: 'DELETE' });
  deleteImageResponseSchema.parse(body);
}

export function useDeleteImage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: deleteImage,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: imageKeys.all }),
  });
}
