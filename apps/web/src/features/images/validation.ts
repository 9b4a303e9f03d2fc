import { zodResolver } from '@hookform/resolvers/zod';
import {
  imageUploadFieldsSchema,
  updateImageSchema,
  type ImageCategory,
} from '@contrateia/shared/images/images.schemas';
import type { Resolver } from 'react-hook-form';
import { z } from 'zod';

// The dialogs' resolvers, from the shared schemas the server validates with.

/** The fields both dialogs show (upload and edit), as the form holds them. */
export interface ImageFieldValues {
  category: ImageCategory;
  altText: string;
  title: string;
  isPublic: boolean;
}

/**
 * Each schema takes the four fields, some optional or with defaults; the forms always hold all
 * four, which the schemas accept. Resolver's type is invariant in its values, so it says so here.
 */
function fieldsResolver<Output>(resolver: object): Resolver<ImageFieldValues, unknown, Output> {
  return resolver as Resolver<ImageFieldValues, unknown, Output>;
}

/**
 * The upload's text fields. The multipart form sends isPublic as text ('true'/'false'); the
 * form holds the checkbox's boolean.
 */
const uploadFormSchema = imageUploadFieldsSchema.extend({ isPublic: z.boolean() });

export const uploadFieldsResolver = fieldsResolver<z.output<typeof uploadFormSchema>>(
  zodResolver(uploadFormSchema),
);

/** PUT /api/images/{id}: the same four fields. */
export const editImageResolver = fieldsResolver<z.output<typeof updateImageSchema>>(
  zodResolver(updateImageSchema),
);
