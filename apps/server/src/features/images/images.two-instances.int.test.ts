import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  defaultSettings,
  type AdminSettingsResponse,
  type ListImagesResponse,
  type SystemSettings,
} from '@contrateia/shared';
import { eventually } from '../../../test/eventually';
import { get, message, post, registerAndLogin, UNLIMITED_ROUTES } from '../../../test/factories';
import { createTwoInstances, type TestContext, NO_MONITOR } from '../../../test/helpers';
import { makeImage, storedFiles, upload, uploaded } from '../../../test/images';

type Account = Awaited<ReturnType<typeof registerAndLogin>>;

/**
 * Two instances behind one load balancer share the database, the shared state and the images
 * directory (DATA_DIR/images on a shared volume): an image uploaded through one is listed, served
 * and deleted through the other, and the admin's upload limits saved on one are obeyed by both.
 */
describe('image library on two instances', () => {
  let instances: Awaited<ReturnType<typeof createTwoInstances>>;
  let a: TestContext;
  let b: TestContext;
  let admin: Account;

  beforeAll(async () => {
    instances = await createTwoInstances({
      without: NO_MONITOR,
      limits: { routes: UNLIMITED_ROUTES },
    });
    ({ a, b } = instances);
    admin = await registerAndLogin(a, { name: 'Ana Admin' });
  });

  afterAll(async () => instances?.close());

  /** Saves the system settings through A (defaults but `changes`), and waits until B has them. */
  async function setSystem(changes: Partial<SystemSettings>) {
    const system = { ...defaultSettings().system, ...changes };
    expect(
      (await post(a, '/api/admin/settings/system', system, { token: admin.token })).statusCode,
    ).toBe(200);
    await eventually(
      async () =>
        JSON.stringify(
          (
            await get(b, '/api/admin/settings', { token: admin.token })
          ).json<AdminSettingsResponse>().systemSettings,
        ) === JSON.stringify(system),
      'B has the new system settings',
      2_000,
    );
  }

  beforeEach(async () => setSystem({}));

  it('both instances keep their files in one directory', () => {
    expect(a.imagesDir).toBe(b.imagesDir);
  });

  it('an upload through A is listed and served by B; deleted through B, its files are gone and A answers 404', async () => {
    const publicId = await uploaded(a, {
      file: await makeImage('jpeg'),
      name: 'shared.jpg',
      fields: { isPublic: 'true', title: 'Shared' },
      token: admin.token,
    });
    // One after the other: the list is newest first.
    instances.clock.advance(1000);
    const privateId = await uploaded(a, {
      file: await makeImage('png'),
      name: 'private.png',
      token: admin.token,
    });

    const listed = (await get(b, '/api/images', { token: admin.token })).json<ListImagesResponse>();
    expect(listed.images.map((image) => image.id)).toEqual([privateId, publicId]);
    const publicFile = await b.app.inject({ method: 'GET', url: `/api/images/${publicId}` });
    expect(publicFile.statusCode).toBe(200);
    expect(
      publicFile.rawPayload.equals(fs.readFileSync(path.join(a.imagesDir, `${publicId}.jpg`))),
    ).toBe(true);

    // A's signed address opens on B: both sign with the app's one secret.
    const signed = (await get(a, '/api/images', { token: admin.token }))
      .json<ListImagesResponse>()
      .images.find((image) => image.id === privateId)!;
    expect((await b.app.inject({ method: 'GET', url: signed.url })).statusCode).toBe(200);
    expect(
      (await b.app.inject({ method: 'GET', url: signed.thumbnailUrl })).headers['content-type'],
    ).toBe('image/webp');

    expect(
      (
        await b.app.inject({
          method: 'DELETE',
          url: `/api/images/${publicId}`,
          headers: { authorization: `Bearer ${admin.token}` },
        })
      ).statusCode,
    ).toBe(200);
    expect(storedFiles(a.imagesDir)).toEqual(
      [`${privateId}.png`, `${privateId}.thumb.webp`].sort(),
    );
    const gone = await a.app.inject({
      method: 'GET',
      url: `/api/images/${publicId}`,
      headers: { 'accept-language': 'es-ES' },
    });
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toEqual({
      success: false,
      message: message('es-ES', 'errors.imageNotFound'),
    });
    expect(
      (await get(a, '/api/images/stats', { token: admin.token })).json<{
        stats: { total: number };
      }>().stats.total,
    ).toBe(1);
  });

  it('a smaller maximum size saved through A is obeyed by B', async () => {
    const jpeg = await makeImage('jpeg');
    const file = Buffer.concat([jpeg, Buffer.alloc(1536 * 1024 - jpeg.length)]);
    expect((await upload(b, { file, name: 'before.jpg', token: admin.token })).statusCode).toBe(
      200,
    );

    await setSystem({ maxFileSize: 1 });
    const refused = await upload(b, {
      file,
      name: 'after.jpg',
      token: admin.token,
      language: 'en-US',
    });
    expect(refused.statusCode).toBe(413);
    expect(refused.json()).toEqual({
      success: false,
      message: message('en-US', 'errors.imageTooLarge', { size: 1 }),
    });
  });

  it('allowed types saved through A are obeyed by B', async () => {
    const webp = await makeImage('webp');
    expect(
      (await upload(b, { file: webp, name: 'photo.webp', token: admin.token })).statusCode,
    ).toBe(400);

    await setSystem({ allowedFileTypes: ['webp'] });
    expect(
      (await upload(b, { file: webp, name: 'photo.webp', token: admin.token })).statusCode,
    ).toBe(200);
    const png = await upload(b, {
      file: await makeImage('png'),
      name: 'photo.png',
      token: admin.token,
      language: 'pt-BR',
    });
    expect(png.statusCode).toBe(400);
    expect(png.json()).toEqual({
      success: false,
      message: message('pt-BR', 'errors.imageTypeNotAllowed', {
        extension: '.png',
        allowed: 'webp',
      }),
    });
  });
});
