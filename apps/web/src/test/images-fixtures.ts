import {
  IMAGE_CATEGORIES,
  IMAGE_PAGE_LIMIT,
  imageUploadFieldsSchema,
  type Image,
  type ImageCategory,
  type ImageUploadResponse,
} from '@contrateia/shared/images/images.schemas';
import type { FakeServer } from '@/test/fake-server';
import { errorResponse } from '@/test/fake-server';
import { uuid } from '@/test/admin-manage-fixtures';

// The image library's payloads as the server sends them (packages/shared images.schemas.ts), and
// a stand-in for its routes that filters, searches, pages, counts, changes and deletes as the
// server does, over images it keeps.

/** Where an image is served: public images by their plain address, private ones signed. */
function addresses(id: string, isPublic: boolean): Pick<Image, 'url' | 'thumbnailUrl'> {
  const signed = isPublic ? '' : `expires=1750000000&signature=sig-${id.slice(-4)}`;
  return {
    url: `/api/images/${id}${signed ? `?${signed}` : ''}`,
    thumbnailUrl: `/api/images/${id}?size=thumb${signed ? `&${signed}` : ''}`,
  };
}

/** An image as GET /api/images lists it. */
export function imageFixture(overrides: Partial<Image> & { id?: string } = {}): Image {
  const id = overrides.id ?? uuid(1000);
  const isPublic = overrides.isPublic ?? false;
  return {
    id,
    originalFilename: 'foto.jpg',
    altText: '',
    title: '',
    category: 'production',
    fileSize: 245_760,
    width: 1200,
    height: 800,
    mimeType: 'image/jpeg',
    createdAt: '2025-06-01T10:00:00.000Z',
    isPublic,
    ...addresses(id, isPublic),
    ...overrides,
  };
}

/** `count` images named Image 01, Image 02…, newest first, for the pages. */
export function manyImages(count: number, from = 0): Image[] {
  return Array.from({ length: count }, (_, i) =>
    imageFixture({
      id: uuid(2000 + from + i),
      title: `Image ${String(from + i + 1).padStart(2, '0')}`,
      originalFilename: `image-${from + i + 1}.png`,
      altText: `Picture number ${from + i + 1}`,
      mimeType: 'image/png',
    }),
  );
}

export interface ImagesState {
  images: Image[];
}

/**
 * What POST /api/images/upload does with a multipart body: the image stored (re-encoded as WebP
 * at 640 × 480, newest first) and its id answered; a body without a file is refused. For a test
 * that holds the upload and answers it itself.
 */
export function storeUpload(state: ImagesState, body: FormData): ImageUploadResponse | Response {
  const file = body.get('image');
  if (!(file instanceof File)) {
    return errorResponse(400, { message: 'Please select a file to upload' });
  }
  const fields = imageUploadFieldsSchema.parse(
    Object.fromEntries([...body.entries()].filter(([name]) => name !== 'image')),
  );
  const id = uuid(5000 + state.images.length);
  state.images.unshift(
    imageFixture({
      id,
      originalFilename: file.name,
      ...fields,
      fileSize: Math.ceil(file.size / 2),
      width: 640,
      height: 480,
      mimeType: 'image/webp',
      createdAt: '2025-06-02T12:00:00.000Z',
      ...addresses(id, fields.isPublic),
    }),
  );
  return { success: true, imageId: id };
}

/**
 * Answers the image calls as the server's images routes do, over `images` (newest first):
 * GET /api/images with its filters and paging, GET /api/images/stats, the upload (stored
 * re-encoded as WebP at 640 × 480), PUT and DELETE. Returns the state it keeps.
 */
export function serveImages(server: FakeServer, images: Image[]): ImagesState {
  const state: ImagesState = { images: [...images] };
  const idOf = (url: string) => new URL(url, 'http://localhost').pathname.split('/')[3] ?? '';
  server.on('GET /api/images', ({ url }) => {
    const query = new URL(url, 'http://localhost').searchParams;
    const search = (query.get('search') ?? '').trim().toLowerCase();
    const category = query.get('category');
    const isPublic = query.get('isPublic');
    const limit = Number(query.get('limit') ?? IMAGE_PAGE_LIMIT.default);
    const offset = Number(query.get('offset') ?? 0);
    const found = state.images.filter(
      (image) =>
        (!category || image.category === category) &&
        (isPublic === null || String(image.isPublic) === isPublic) &&
        [image.title, image.altText, image.originalFilename].some((text) =>
          text.toLowerCase().includes(search),
        ),
    );
    return { images: found.slice(offset, offset + limit), total: found.length };
  });
  server.on('GET /api/images/stats', () => ({
    stats: {
      total: state.images.length,
      totalSize: state.images.reduce((sum, image) => sum + image.fileSize, 0),
      byCategory: IMAGE_CATEGORIES.map((category: ImageCategory) => ({
        category,
        count: state.images.filter((image) => image.category === category).length,
      })),
    },
  }));
  server.on('POST /api/images/upload', ({ body }) => storeUpload(state, body));
  server.on('PUT /api/images/:id', ({ url, body }) => {
    const index = state.images.findIndex((image) => image.id === idOf(url));
    const found = state.images[index];
    if (!found) return errorResponse(404, { message: 'Image not found' });
    const isPublic = body.isPublic ?? found.isPublic;
    const image = { ...found, ...body, ...addresses(found.id, isPublic) };
    state.images[index] = image;
    return { image };
  });
  server.on('DELETE /api/images/:id', ({ url }) => {
    const before = state.images.length;
    state.images = state.images.filter((image) => image.id !== idOf(url));
    if (state.images.length === before) return errorResponse(404, { message: 'Image not found' });
    return { success: true as const };
  });
  return state;
}
