import {
  imageUploadResponseSchema,
  type ImageCategory,
  type ImageUploadResponse,
} from '@contrateia/shared/images/images.schemas';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { imageKeys } from '@/features/images/api/image-keys';
import { apiUpload, type UploadProgress } from '@/lib/api-upload';

export interface UploadImageInput {
  file: File;
  category: ImageCategory;
  altText: string;
  title: string;
  isPublic: boolean;
  onProgress?: (progress: UploadProgress) => void;
  signal?: AbortSignal;
}

/**
 * POST /api/images/upload, multipart: the text fields first, so the server has them when the
 * file's bytes stream in, then the `image` part. Reports the upload's progress.
 */
export async function uploadImage({
  file,
  category,
  altText,
  title,
  isPublic,
  onProgress,
  signal,
}: UploadImageInput): Promise<ImageUploadResponse> {
  const body = new FormData();
  body.set('category', category);
  body.set('altText', altText);
  body.set('title', title);
  body.set('isPublic', String(isPublic));
  body.set('image', file, file.name);
  const answer = await apiUpload<unknown>('/images/upload', { body, onProgress, signal });
  return imageUploadResponseSchema.parse(answer);
}

/** An upload; once stored, the lists and the figures are read again. */
export function useUploadImage() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: uploadImage,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: imageKeys.all }),
  });
}
