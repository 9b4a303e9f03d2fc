import { z } from 'zod';
import { textInput } from '../text/text.schemas';

/**
 * The image library: its images, their upload and the calls that list, edit and delete them.
 * Management is for admins; GET /api/images/{id} serves public images to anyone and private ones
 * through the signed, expiring URLs the list answers (an `<img>` cannot send a bearer token).
 * Messages are translation keys, as in auth.schemas.ts.
 */

export const IMAGE_CATEGORIES = ['user_upload', 'production', 'system', 'agent'] as const;
export type ImageCategory = (typeof IMAGE_CATEGORIES)[number];

/** An upload with no category is `production`, and not public. */
export const IMAGE_UPLOAD_DEFAULTS = {
  category: 'production',
  isPublic: false,
} as const satisfies {
  category: ImageCategory;
  isPublic: boolean;
};

/** The raster formats an upload may be, as sharp reads them from the bytes. */
export const IMAGE_FORMATS = ['jpeg', 'png', 'gif', 'webp', 'avif'] as const;
export type ImageFormat = (typeof IMAGE_FORMATS)[number];

/** The largest image accepted, in pixels (width × height). */
export const IMAGE_MAX_PIXELS = 40_000_000;
export const IMAGE_TITLE_MAX = 200;
export const IMAGE_ALT_TEXT_MAX = 500;
/** The list's page size: the default and the most a request may ask. */
export const IMAGE_PAGE_LIMIT = { default: 50, max: 100 };

const booleanText = z
  .enum(['true', 'false'], { error: 'validation.invalidValue' })
  .transform((value) => value === 'true');

const imageTexts = {
  altText: textInput({ error: 'validation.invalidValue' })
    .trim()
    .max(IMAGE_ALT_TEXT_MAX, 'adminValidation.imageAltTextTooLong'),
  title: textInput({ error: 'validation.invalidValue' })
    .trim()
    .max(IMAGE_TITLE_MAX, 'adminValidation.imageTitleTooLong'),
};
const category = z.enum(IMAGE_CATEGORIES, { error: 'adminValidation.imageCategoryInvalid' });

/**
 * POST /api/images/upload: the multipart form's text fields (the file is the `image` part). Each
 * may be absent: category `production`, not public, no alt text or title.
 */
export const imageUploadFieldsSchema = z.strictObject({
  category: category.default(IMAGE_UPLOAD_DEFAULTS.category),
  altText: imageTexts.altText.default(''),
  title: imageTexts.title.default(''),
  isPublic: booleanText.default(false),
});
export type ImageUploadFields = z.input<typeof imageUploadFieldsSchema>;

export const imageUploadResponseSchema = z.object({
  success: z.literal(true),
  imageId: z.string(),
});
export type ImageUploadResponse = z.infer<typeof imageUploadResponseSchema>;

/** PUT /api/images/{id}: what an admin may change; at least one field. */
export const updateImageSchema = z
  .strictObject({
    altText: imageTexts.altText.optional(),
    title: imageTexts.title.optional(),
    isPublic: z.boolean({ error: 'validation.invalidValue' }).optional(),
    category: category.optional(),
  })
  .refine((input) => Object.keys(input).length > 0, 'validation.invalidValue');
export type UpdateImageInput = z.input<typeof updateImageSchema>;

/** GET /api/images?category=&isPublic=&search=&limit=50&offset=0 (search: title, alt text, file name). */
export const listImagesQuerySchema = z.object({
  category: category.optional(),
  isPublic: booleanText.optional(),
  search: textInput().trim().max(200, 'validation.searchTooLong').default(''),
  limit: z.coerce
    .number({ error: 'validation.invalidValue' })
    .int('validation.invalidValue')
    .min(1, 'validation.invalidValue')
    .max(IMAGE_PAGE_LIMIT.max, 'validation.invalidValue')
    .default(IMAGE_PAGE_LIMIT.default),
  offset: z.coerce
    .number({ error: 'validation.invalidValue' })
    .int('validation.invalidValue')
    .min(0, 'validation.invalidValue')
    .max(1_000_000, 'validation.invalidValue')
    .default(0),
});
export type ListImagesQuery = z.input<typeof listImagesQuerySchema>;

/** An image as the list and PUT answer it, its fields in camelCase. */
export const imageSchema = z.object({
  id: z.string(),
  /** The client's file name, for display only: the file on disk has a random name. */
  originalFilename: z.string(),
  altText: z.string(),
  title: z.string(),
  category: z.enum(IMAGE_CATEGORIES),
  /** Bytes of the stored (re-encoded) image. */
  fileSize: z.number().int(),
  width: z.number().int(),
  height: z.number().int(),
  /** The stored format's media type, e.g. image/webp. */
  mimeType: z.string(),
  createdAt: z.string(),
  isPublic: z.boolean(),
  /**
   * Where the image can be fetched: for a public image its plain address (/api/images/{id}); for a
   * private one a signed address that expires (`expires` and `signature` in the query).
   */
  url: z.string(),
  /** The same for the thumbnail (`size=thumb`). */
  thumbnailUrl: z.string(),
});
export type Image = z.infer<typeof imageSchema>;

export const listImagesResponseSchema = z.object({
  images: z.array(imageSchema),
  total: z.number().int(),
});
export type ListImagesResponse = z.infer<typeof listImagesResponseSchema>;

export const imageResponseSchema = z.object({ image: imageSchema });
export type ImageResponse = z.infer<typeof imageResponseSchema>;

/** GET /api/images/stats. */
export const imageStatsResponseSchema = z.object({
  stats: z.object({
    total: z.number().int(),
    /** Bytes of every stored image (thumbnails aside). */
    totalSize: z.number().int(),
    /** Every category, with 0 for the empty ones, in IMAGE_CATEGORIES' order. */
    byCategory: z.array(z.object({ category: z.enum(IMAGE_CATEGORIES), count: z.number().int() })),
  }),
});
export type ImageStatsResponse = z.infer<typeof imageStatsResponseSchema>;

/** GET /api/images/{id}?size=thumb&expires=&signature=. */
export const imageFileQuerySchema = z.object({
  size: z.enum(['full', 'thumb'], { error: 'validation.invalidValue' }).default('full'),
  expires: textInput().max(20).optional(),
  signature: textInput().max(200).optional(),
});
export type ImageFileQuery = z.input<typeof imageFileQuerySchema>;

/** DELETE /api/images/{id}. */
export const deleteImageResponseSchema = z.object({ success: z.literal(true) });
