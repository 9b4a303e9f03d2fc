import fs from 'node:fs';
import path from 'node:path';
import { desc } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  defaultSettings,
  type Image,
  type ImageStatsResponse,
  type ListImagesResponse,
  type SystemSettings,
} from '@contrateia/shared';
import { adminAudit } from '@/features/audit/audit.table';
import { images as imagesTable } from './images.table';
import { IMAGE_DECODING } from './images.service';
import { createWorkGate } from '@/lib/work-gate';
import { createTestApp, routesOf, type TestContext, NO_MONITOR } from '../../../test/helpers';
import { get, message, post, registerAndLogin, UNLIMITED_ROUTES } from '../../../test/factories';
import {
  gifScriptPolyglot,
  HOSTILE,
  incomingFiles,
  makeAnimatedGif,
  makeImage,
  PAYLOAD,
  pngHeaderOnly,
  storedFiles,
  upload,
  uploaded,
  uploadForm,
} from '../../../test/images';
import { keepAliveClient, multipartOf, offerHugeUpload } from '../../../test/uploads-over-http';

type Account = Awaited<ReturnType<typeof registerAndLogin>>;

/** Every route of the library's management, with a request it would accept (`:id` an image's). */
const ADMIN_ROUTES: { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; url: string; body?: unknown }[] = [
  { method: 'POST', url: '/api/images/upload' },
  { method: 'GET', url: '/api/images' },
  { method: 'GET', url: '/api/images/stats' },
  { method: 'PUT', url: '/api/images/:id', body: { title: 'Renamed' } },
  { method: 'DELETE', url: '/api/images/:id' },
];

describe('image library', () => {
  const decoding = createWorkGate(IMAGE_DECODING);
  let ctx: TestContext;
  let admin: Account;
  let member: Account;

  beforeAll(async () => {
    ctx = await createTestApp({
      without: NO_MONITOR,
      limits: { routes: UNLIMITED_ROUTES },
      imageDecoding: decoding,
    });
    // The first account of a database is its admin.
    admin = await registerAndLogin(ctx, { name: 'Ana Admin' });
    member = await registerAndLogin(ctx, { name: 'Bruno' });
  });

  /** A new session for the admin (after the clock moved past the last one's idle time). */
  async function signInAgain() {
    admin.token = (
      await post(ctx, '/api/login', { email: admin.email, password: admin.password })
    ).json<{ token: string }>().token;
  }

  /** Runs `check` with the admin's token in user mode (a user, for these routes), then back in admin mode. */
  async function inUserMode(check: (token: string) => Promise<void>) {
    const asUser = (
      await post(ctx, '/api/switch-role', { targetRole: 'user' }, { token: admin.token })
    ).json<{ token: string }>().token;
    try {
      await check(asUser);
    } finally {
      admin.token = (
        await post(ctx, '/api/switch-role', { targetRole: 'admin' }, { token: asUser })
      ).json<{ token: string }>().token;
    }
  }

  afterAll(async () => ctx?.close());

  /** Sets the system settings to the defaults but `changes`. */
  async function setSystem(changes: Partial<SystemSettings>) {
    const res = await post(
      ctx,
      '/api/admin/settings/system',
      { ...defaultSettings().system, ...changes },
      { token: admin.token },
    );
    expect(res.statusCode).toBe(200);
  }

  const rows = () => ctx.database.db.select().from(imagesTable);
  /** The admin audit's latest record. */
  const latestAudit = async () =>
    (await ctx.database.db.select().from(adminAudit).orderBy(desc(adminAudit.at)).limit(1))[0];
  const list = async (query = '') =>
    (await get(ctx, `/api/images${query}`, { token: admin.token })).json<ListImagesResponse>();
  const fileOf = (name: string) => fs.readFileSync(path.join(ctx.imagesDir, name));
  const request = (
    method: string,
    url: string,
    options: { token?: string; headers?: Record<string, string>; body?: unknown } = {},
  ) =>
    ctx.app.inject({
      method: method as 'GET',
      url,
      ...(options.body !== undefined ? { payload: JSON.stringify(options.body) } : {}),
      headers: {
        ...options.headers,
        ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}),
        ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      },
    });

  describe('who may use it', () => {
    let imageId: string;
    beforeAll(async () => {
      imageId = await uploaded(ctx, {
        file: await makeImage('png'),
        name: 'guarded.png',
        token: admin.token,
      });
    });

    it('has exactly these routes under /api/images, and the file route', () => {
      const routes = routesOf(ctx).filter((route) => route.includes(' /api/images'));
      expect(routes.sort()).toEqual(
        [...ADMIN_ROUTES.map((r) => `${r.method} ${r.url}`), 'GET /api/images/:id'].sort(),
      );
    });

    describe.each(ADMIN_ROUTES)('$method $url', (route) => {
      it("answers 401 without a session, 403 to a user and to an admin in user mode, in the caller's language", async () => {
        const url = route.url.replace(':id', imageId);
        const send = async (token?: string, language?: 'pt-BR' | 'es-ES') => {
          const headers: Record<string, string> = language ? { 'accept-language': language } : {};
          if (route.method === 'POST') {
            return ctx.app.inject({
              method: 'POST',
              url,
              payload: uploadForm({ file: await makeImage('png'), name: 'x.png' }),
              headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
            });
          }
          return request(route.method, url, { token, body: route.body, headers });
        };
        const anonymous = await send(undefined, 'pt-BR');
        expect(anonymous.statusCode).toBe(401);
        expect(anonymous.json()).toEqual({
          success: false,
          message: message('pt-BR', 'errors.unauthorized'),
        });
        const asMember = await send(member.token, 'es-ES');
        expect(asMember.statusCode).toBe(403);
        expect(asMember.json()).toEqual({
          success: false,
          message: message('es-ES', 'errors.forbidden'),
        });
        await inUserMode(async (token) => expect((await send(token)).statusCode).toBe(403));
        // Refused before anything was stored or changed.
        expect((await rows()).map((row) => row.id)).toEqual([imageId]);
        expect((await send(admin.token)).statusCode).toBe(200);
        if (route.method === 'POST' || route.method === 'DELETE') {
          // Back to the one image the other routes work on.
          for (const row of await rows())
            if (row.id !== imageId)
              await request('DELETE', `/api/images/${row.id}`, { token: admin.token });
          if (route.method === 'DELETE')
            imageId = await uploaded(ctx, {
              file: await makeImage('png'),
              name: 'guarded.png',
              token: admin.token,
            });
        }
      });
    });

    it('serves a private image to an admin, not to anyone else without a signed address', async () => {
      const url = `/api/images/${imageId}`;
      expect((await request('GET', url)).statusCode).toBe(401);
      expect((await request('GET', url, { token: member.token })).statusCode).toBe(403);
      await inUserMode(async (token) =>
        expect((await request('GET', url, { token })).statusCode).toBe(403),
      );
      const asAdmin = await request('GET', url, { token: admin.token });
      expect(asAdmin.statusCode).toBe(200);
      expect(asAdmin.headers['cache-control']).toBe('private, no-cache');
    });
  });

  describe('upload', () => {
    beforeEach(async () => {
      await setSystem({});
      for (const row of await rows())
        await request('DELETE', `/api/images/${row.id}`, { token: admin.token });
    });

    /** Nothing was kept: no row, no stored file, no upload left half-received. */
    async function expectNothingStored() {
      expect(await rows()).toEqual([]);
      expect(storedFiles(ctx.imagesDir)).toEqual([]);
      expect(incomingFiles(ctx.imagesDir)).toEqual([]);
    }

    it('stores a JPEG re-encoded under a random name, with a thumbnail, the defaults of spec §9 and an audit record', async () => {
      const file = await makeImage('jpeg', { width: 640, height: 480 });
      const res = await upload(ctx, { file, name: 'Férias na praia.JPG', token: admin.token });
      expect(res.statusCode).toBe(200);
      const { success, imageId } = res.json<{ success: boolean; imageId: string }>();
      expect(success).toBe(true);

      const [row] = await rows();
      expect(row).toMatchObject({
        id: imageId,
        originalFilename: 'Férias na praia.JPG',
        category: 'production',
        isPublic: false,
        altText: '',
        title: '',
        mimeType: 'image/jpeg',
        width: 640,
        height: 480,
        uploadedBy: admin.user.id,
      });
      // The client's name is for display only: on disk, the server's names.
      expect(storedFiles(ctx.imagesDir)).toEqual(
        [`${imageId}.jpg`, `${imageId}.thumb.webp`].sort(),
      );
      const stored = fileOf(`${imageId}.jpg`);
      expect(row!.fileSize).toBe(stored.length);
      expect(stored.equals(file)).toBe(false);
      expect((await sharp(stored).metadata()).format).toBe('jpeg');
      const thumbnail = await sharp(fileOf(`${imageId}.thumb.webp`)).metadata();
      expect(thumbnail).toMatchObject({ format: 'webp', width: 320, height: 240 });
      expect(incomingFiles(ctx.imagesDir)).toEqual([]);

      const entry = await latestAudit();
      expect(entry).toMatchObject({
        actorId: admin.user.id,
        action: 'image.upload',
        target: imageId,
        changes: {
          originalFilename: { before: null, after: 'Férias na praia.JPG' },
          width: { before: null, after: 640 },
        },
      });
      const audit = await get(ctx, '/api/admin/audit', { token: admin.token });
      expect(
        audit.json<{ entries: { target: string; targetName: string | null }[] }>().entries[0],
      ).toMatchObject({
        target: imageId,
        targetName: 'Férias na praia.JPG',
      });
    });

    it('takes the fields whether they come before or after the file', async () => {
      const fields = {
        category: 'agent',
        altText: '  Logo da empresa ',
        title: 'Logo',
        isPublic: 'true',
      };
      await uploaded(ctx, {
        file: await makeImage('png'),
        name: 'logo.png',
        fields,
        fieldsFirst: false,
        token: admin.token,
      });
      const [image] = (await list()).images;
      expect(image).toMatchObject({
        category: 'agent',
        altText: 'Logo da empresa',
        title: 'Logo',
        isPublic: true,
        mimeType: 'image/png',
      });
    });

    it.each(['png', 'gif', 'webp', 'avif'] as const)(
      'stores a %s in its own format when its type is allowed',
      async (format) => {
        await setSystem({ allowedFileTypes: ['png', 'gif', 'webp', 'avif'] });
        const id = await uploaded(ctx, {
          file: await makeImage(format),
          name: `picture.${format}`,
          token: admin.token,
        });
        const extension = format;
        expect(storedFiles(ctx.imagesDir)).toContain(`${id}.${extension}`);
        const metadata = await sharp(fileOf(`${id}.${extension}`)).metadata();
        expect(metadata.format).toBe(format === 'avif' ? 'heif' : format);
        expect((await list()).images[0]).toMatchObject({
          mimeType: `image/${format}`,
          width: 64,
          height: 48,
        });
      },
    );

    it('strips EXIF, ICC and XMP and applies the EXIF orientation', async () => {
      const file = await sharp(await makeImage('jpeg', { width: 60, height: 40 }))
        .withExif({ IFD0: { Copyright: 'SECRET-OWNER', Artist: 'Somebody' } })
        .withMetadata({ orientation: 6 })
        .withIccProfile('p3')
        .withXmp(
          '<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description>SECRET-XMP</rdf:Description></rdf:RDF></x:xmpmeta>',
        )
        .jpeg()
        .toBuffer();
      const before = await sharp(file).metadata();
      expect(before).toMatchObject({ orientation: 6, hasProfile: true, width: 60, height: 40 });
      expect(before.exif && before.xmp).toBeTruthy();

      const id = await uploaded(ctx, { file, name: 'camera.jpg', token: admin.token });
      const stored = fileOf(`${id}.jpg`);
      const after = await sharp(stored).metadata();
      expect(after.exif).toBeUndefined();
      expect(after.xmp).toBeUndefined();
      expect(after.icc).toBeUndefined();
      expect(after.orientation).toBeUndefined();
      // Turned a quarter as the camera said: 40 wide, 60 high.
      expect([after.width, after.height]).toEqual([40, 60]);
      expect((await list()).images[0]).toMatchObject({ width: 40, height: 60 });
      expect(stored.includes('SECRET')).toBe(false);
      expect(fileOf(`${id}.thumb.webp`).includes('SECRET')).toBe(false);
    });

    it('keeps an animated GIF animated, every frame re-encoded', async () => {
      await setSystem({ allowedFileTypes: ['gif'] });
      const id = await uploaded(ctx, {
        file: await makeAnimatedGif(3),
        name: 'spinner.gif',
        token: admin.token,
      });
      const stored = await sharp(fileOf(`${id}.gif`), { animated: true }).metadata();
      expect(stored.pages).toBe(3);
      expect((await list()).images[0]).toMatchObject({
        width: 20,
        height: 20,
        mimeType: 'image/gif',
      });
      expect((await sharp(fileOf(`${id}.thumb.webp`)).metadata()).pages ?? 1).toBe(1);
    });

    it('neutralises a JPEG with HTML and a script appended: the stored bytes hold no trace of them', async () => {
      const polyglot = Buffer.concat([
        await makeImage('jpeg'),
        Buffer.from(`<html><body>${PAYLOAD}</body></html>`),
      ]);
      const id = await uploaded(ctx, {
        file: polyglot,
        name: 'innocent.jpg',
        type: 'text/html',
        token: admin.token,
      });
      expect(fileOf(`${id}.jpg`).includes('<script>')).toBe(false);
      expect(fileOf(`${id}.jpg`).includes('alert')).toBe(false);
      expect(fileOf(`${id}.thumb.webp`).includes('alert')).toBe(false);
    });

    it('neutralises a GIF that is also JavaScript', async () => {
      const id = await uploaded(ctx, {
        file: await gifScriptPolyglot(),
        name: 'pixel.gif',
        token: admin.token,
      });
      const stored = fileOf(`${id}.gif`);
      expect(stored.subarray(0, 6).toString('latin1')).toBe('GIF89a');
      expect(stored.includes('alert')).toBe(false);
    });

    it.each([
      ['an SVG renamed .png', HOSTILE.svg, 'drawing.png'],
      ['an HTML page renamed .png', HOSTILE.html, 'page.png'],
      ['a PDF renamed .png', HOSTILE.pdf, 'document.png'],
      ['a PDF with its own extension (allowed by default)', HOSTILE.pdf, 'document.pdf'],
      [
        'random bytes renamed .jpg',
        Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 131) % 256)),
        'noise.jpg',
      ],
    ])('refuses %s as not an image, and keeps nothing', async (_label, file, name) => {
      const res = await upload(ctx, {
        file,
        name,
        type: 'image/png',
        token: admin.token,
        language: 'pt-BR',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        success: false,
        message: message('pt-BR', 'errors.imageInvalid'),
      });
      expect(res.json<{ message: string }>().message).toBe('Selecione um arquivo de imagem válido');
      await expectNothingStored();
    });

    it("refuses a form without a file with the spec's words, in the caller's language", async () => {
      for (const [language, text] of [
        ['en-US', 'Please select a file to upload'],
        ['es-ES', 'Selecciona un archivo para subir'],
      ] as const) {
        const res = await upload(ctx, {
          file: null,
          fields: { title: 'Sem arquivo' },
          token: admin.token,
          language,
        });
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({ success: false, message: text, errors: { image: text } });
      }
      // An empty file input, as a browser sends it, and an empty file.
      const emptyInput = new FormData();
      emptyInput.append('image', new File([], '', { type: 'application/octet-stream' }));
      const empty = await ctx.app.inject({
        method: 'POST',
        url: '/api/images/upload',
        payload: emptyInput,
        headers: { authorization: `Bearer ${admin.token}` },
      });
      expect(empty.json()).toMatchObject({ message: message('pt-BR', 'errors.imageRequired') });
      const zero = await upload(ctx, {
        file: Buffer.alloc(0),
        name: 'empty.png',
        token: admin.token,
      });
      expect(zero.json()).toMatchObject({ message: message('pt-BR', 'errors.imageRequired') });
      // Not a form at all.
      const json = await post(
        ctx,
        '/api/images/upload',
        { image: 'data:image/png;base64,AAAA' },
        { token: admin.token },
      );
      expect(json.statusCode).toBe(400);
      expect(json.json()).toMatchObject({ message: message('pt-BR', 'errors.imageRequired') });
      await expectNothingStored();
    });

    it('refuses a name whose extension is not allowed, or has none, before reading the file', async () => {
      const png = await makeImage('png');
      for (const name of ['drawing.svg', 'script.html', 'photo.png.exe', 'photo']) {
        const res = await upload(ctx, { file: png, name, token: admin.token, language: 'es-ES' });
        expect(res.statusCode, name).toBe(400);
        const key = name === 'photo' ? 'errors.imageNoExtension' : 'errors.imageTypeNotAllowed';
        const extension = name.slice(name.lastIndexOf('.'));
        expect(res.json(), name).toEqual({
          success: false,
          message: message('es-ES', key, { extension, allowed: 'jpg, jpeg, png, gif' }),
        });
      }
      await expectNothingStored();
    });

    it('refuses a real format the admin does not allow, whatever the name says (jpg and jpeg stand for each other)', async () => {
      // WebP and AVIF are not among the default types.
      const webp = await upload(ctx, {
        file: await makeImage('webp'),
        name: 'photo.png',
        token: admin.token,
      });
      expect(webp.statusCode).toBe(400);
      expect(webp.json()).toEqual({
        success: false,
        message: message('pt-BR', 'errors.imageFormatNotAllowed', {
          format: 'WebP',
          allowed: 'jpg, jpeg, png, gif',
        }),
      });
      await setSystem({ allowedFileTypes: ['png'] });
      const gif = await upload(ctx, {
        file: await makeImage('gif'),
        name: 'anim.png',
        token: admin.token,
      });
      expect(gif.json()).toMatchObject({
        message: message('pt-BR', 'errors.imageFormatNotAllowed', {
          format: 'GIF',
          allowed: 'png',
        }),
      });
      await expectNothingStored();

      await setSystem({ allowedFileTypes: ['jpeg'] });
      expect(
        (await upload(ctx, { file: await makeImage('jpeg'), name: 'a.jpg', token: admin.token }))
          .statusCode,
      ).toBe(200);
      await setSystem({ allowedFileTypes: ['jpg'] });
      expect(
        (await upload(ctx, { file: await makeImage('jpeg'), name: 'b.jpeg', token: admin.token }))
          .statusCode,
      ).toBe(200);
      // A PNG named .jpg is a PNG, stored as one, when PNG is allowed too.
      await setSystem({ allowedFileTypes: ['jpg', 'png'] });
      const id = await uploaded(ctx, {
        file: await makeImage('png'),
        name: 'c.jpg',
        token: admin.token,
      });
      expect(storedFiles(ctx.imagesDir)).toContain(`${id}.png`);
    });

    it('refuses a file over the maximum size with 413, streamed (no length announced) or announced, and a change applies at once', async () => {
      await setSystem({ maxFileSize: 1 });
      const jpeg = await makeImage('jpeg');
      const big = Buffer.concat([jpeg, Buffer.alloc(1024 * 1024 + 1 - jpeg.length)]);
      // A FormData body goes out chunked: the limit is met while reading.
      const streamed = await upload(ctx, {
        file: big,
        name: 'big.jpg',
        token: admin.token,
        language: 'pt-BR',
      });
      expect(streamed.statusCode).toBe(413);
      expect(streamed.json()).toEqual({
        success: false,
        message: message('pt-BR', 'errors.imageTooLarge', { size: 1 }),
      });
      // Read to its end (it is within the bound), so the connection may serve the next request.
      expect(streamed.headers.connection).not.toBe('close');
      await expectNothingStored();

      // Exactly at the limit is within it.
      const atLimit = Buffer.concat([jpeg, Buffer.alloc(1024 * 1024 - jpeg.length)]);
      expect(
        (await upload(ctx, { file: atLimit, name: 'exact.jpg', token: admin.token })).statusCode,
      ).toBe(200);

      // A body announced as too large is refused before it is read.
      const announced = await ctx.app.inject({
        method: 'POST',
        url: '/api/images/upload',
        payload: Buffer.alloc(2 * 1024 * 1024),
        headers: {
          authorization: `Bearer ${admin.token}`,
          'content-type': 'multipart/form-data; boundary=x',
        },
      });
      expect(announced.statusCode).toBe(413);
      expect(announced.json()).toMatchObject({
        message: message('pt-BR', 'errors.imageTooLarge', { size: 1 }),
      });

      await setSystem({ maxFileSize: 2 });
      expect(
        (await upload(ctx, { file: big, name: 'big.jpg', token: admin.token })).statusCode,
      ).toBe(200);
    });

    it('stops reading an oversized upload over real HTTP: 413 long before the client has sent it all', async () => {
      await setSystem({ maxFileSize: 1 });
      const offered = 200 * 1024 * 1024;
      const res = await offerHugeUpload(ctx, {
        path: '/api/images/upload',
        field: 'image',
        filename: 'huge.jpg',
        token: admin.token,
        language: 'en-US',
        offered,
      });
      expect(res.status).toBe(413);
      expect(res.connection).toBe('close');
      expect(res.body).toEqual({
        success: false,
        message: message('en-US', 'errors.imageTooLarge', { size: 1 }),
      });
      // What the sockets' buffers took besides the 1 MB read: far from the 200 MB offered.
      expect(res.pulled).toBeLessThan(offered / 4);
      await expectNothingStored();
    });

    it('answers an upload a little over the limit with a 413 the client reads, and the connection goes on', async () => {
      await setSystem({ maxFileSize: 1 });
      const jpeg = await makeImage('jpeg');
      // 1.5 MB against 1 MB, as a browser sends it: announced (refused before a byte is read) and
      // chunked (refused at the limit). The rest of the body is still on its way when the answer
      // is decided: the server reads it to its end (within a bound) instead of closing on it, since
      // a connection closed with bytes unread is reset, and a client may lose the answer with it.
      const form = await multipartOf(
        uploadForm({ file: Buffer.concat([jpeg, Buffer.alloc(1536 * 1024)]), name: 'over.jpg' }),
      );
      const client = await keepAliveClient(ctx, { token: admin.token, language: 'en-US' });
      try {
        expect((await client.send('/api/images/stats')).status).toBe(200);
        for (const chunked of [false, true]) {
          const refused = await client.send('/api/images/upload', { ...form, chunked });
          expect(refused.status).toBe(413);
          expect(JSON.parse(refused.body)).toEqual({
            success: false,
            message: message('en-US', 'errors.imageTooLarge', { size: 1 }),
          });
          expect(refused.connection).not.toBe('close');
          const next = await client.send('/api/images/stats');
          expect(next).toMatchObject({ status: 200, reused: true });
        }
      } finally {
        client.close();
      }
      await expectNothingStored();
    });

    it('decodes at most as many images at once as the gate allows: past its queue, 429 with Retry-After, nothing stored', async () => {
      // The gate this app was built with (2 at once, 4 waiting, in production): here the test takes
      // every slot and place in line itself, as six uploads being decoded would.
      let release!: () => void;
      const busy = new Promise<void>((resolve) => (release = resolve));
      const held = Array.from({ length: 6 }, () => decoding.run(() => busy));
      const refused = await upload(ctx, {
        file: await makeImage('jpeg'),
        name: 'busy.jpg',
        token: admin.token,
        language: 'pt-BR',
      });
      expect(refused.statusCode).toBe(429);
      expect(refused.headers['retry-after']).toBe('5');
      expect(refused.json()).toEqual({
        success: false,
        message: message('pt-BR', 'errors.imagesBusy', { count: 5 }),
      });
      await expectNothingStored();
      release();
      await Promise.all(held);
      expect(
        (
          await upload(ctx, {
            file: await makeImage('jpeg'),
            name: 'after.jpg',
            token: admin.token,
          })
        ).statusCode,
      ).toBe(200);
    });

    it('refuses an image over 40 megapixels, even one whose data is a few bytes', async () => {
      const bomb = pngHeaderOnly(10_000, 10_000);
      expect(bomb.length).toBeLessThan(200);
      const res = await upload(ctx, {
        file: bomb,
        name: 'bomb.png',
        token: admin.token,
        language: 'es-ES',
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        success: false,
        message: message('es-ES', 'errors.imageTooManyPixels', { max: 40 }),
      });
      // An animation counts every frame.
      await expectNothingStored();
    });

    it('refuses a truncated or damaged image', async () => {
      const jpeg = await makeImage('jpeg', { width: 400, height: 300 });
      const png = await makeImage('png', { width: 400, height: 300 });
      // 100 bytes of the middle overwritten.
      const garbled = (file: Buffer) =>
        Buffer.from(file).fill(0xff, file.length >> 1, (file.length >> 1) + 100);
      for (const [file, name] of [
        [jpeg.subarray(0, Math.floor(jpeg.length / 2)), 'half.jpg'],
        [png.subarray(0, Math.floor(png.length / 2)), 'half.png'],
        [garbled(png), 'garbled.png'],
        [garbled(jpeg), 'garbled.jpg'],
        [Buffer.from('GIF89a'), 'signature-only.gif'],
      ] as const) {
        const res = await upload(ctx, { file, name, token: admin.token, language: 'pt-BR' });
        expect(res.statusCode, name).toBe(400);
        expect(res.json(), name).toEqual({
          success: false,
          message: message('pt-BR', 'errors.imageDamaged'),
        });
      }
      await expectNothingStored();
    });

    it("refuses invalid fields, each named in the caller's language", async () => {
      const png = await makeImage('png');
      const cases: [Record<string, string>, string, string][] = [
        [{ category: 'wallpaper' }, 'category', 'adminValidation.imageCategoryInvalid'],
        [{ isPublic: 'yes' }, 'isPublic', 'validation.invalidValue'],
        [{ title: 'x'.repeat(201) }, 'title', 'adminValidation.imageTitleTooLong'],
        [{ altText: 'y'.repeat(501) }, 'altText', 'adminValidation.imageAltTextTooLong'],
        // Cut at 4 KB by the form's limits: too long all the same.
        [{ altText: 'ç'.repeat(50_000) }, 'altText', 'adminValidation.imageAltTextTooLong'],
        [{ owner: 'someone' }, 'general', 'validation.invalidValue'],
      ];
      for (const [fields, field, key] of cases) {
        const res = await upload(ctx, {
          file: png,
          name: 'p.png',
          fields,
          token: admin.token,
          language: 'es-ES',
        });
        expect(res.statusCode, field).toBe(400);
        expect(res.json(), field).toEqual({
          success: false,
          message: message('es-ES', key),
          errors: { [field]: message('es-ES', key) },
        });
      }
      const nul = await upload(ctx, {
        file: png,
        name: 'p.png',
        fields: { title: 'a\0b' },
        token: admin.token,
      });
      expect(nul.json()).toEqual({
        success: false,
        message: message('pt-BR', 'errors.invalidCharacters'),
      });
      await expectNothingStored();
    });

    it('refuses forms with more than one file, too many fields or a repeated field', async () => {
      const png = await makeImage('png');
      const twoFiles = uploadForm({ file: png, name: 'a.png' });
      twoFiles.append('image', new File([png], 'b.png', { type: 'image/png' }));
      const manyFields = uploadForm({ file: png, name: 'a.png', fieldsFirst: false });
      for (let i = 0; i < 20; i++) manyFields.append(`f${i}`, 'x');
      const repeated = uploadForm({ file: png, name: 'a.png', fields: { title: 'one' } });
      repeated.append('title', 'two');
      for (const [form, key] of [
        [twoFiles, 'errors.uploadFormTooLarge'],
        [manyFields, 'errors.uploadFormTooLarge'],
        [repeated, 'errors.uploadFormInvalid'],
      ] as const) {
        const res = await ctx.app.inject({
          method: 'POST',
          url: '/api/images/upload',
          payload: form,
          headers: { authorization: `Bearer ${admin.token}` },
        });
        expect(res.statusCode, key).toBe(400);
        expect(res.json()).toEqual({ success: false, message: message('pt-BR', key) });
      }
      await expectNothingStored();
    });

    it('refuses a malformed multipart body with 400', async () => {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/images/upload',
        payload:
          '--x\r\nContent-Disposition: form-data; name="image"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG',
        headers: {
          authorization: `Bearer ${admin.token}`,
          'content-type': 'multipart/form-data; boundary=x',
        },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        success: false,
        message: message('pt-BR', 'errors.uploadFormInvalid'),
      });
      await expectNothingStored();
    });

    it('keeps a hostile file name for display only, cleaned of paths and control characters', async () => {
      const id = await uploaded(ctx, {
        file: await makeImage('png'),
        name: '..\\..\\etc\\pass\u202ewd\u0007.png',
        token: admin.token,
      });
      const [row] = await rows();
      expect(row!.originalFilename).toBe('passwd.png');
      expect(storedFiles(ctx.imagesDir)).toEqual([`${id}.png`, `${id}.thumb.webp`].sort());
    });
  });

  describe('list, search and stats', () => {
    const uploads: { name: string; fields: Record<string, string> }[] = [
      {
        name: 'acao-de-natal.png',
        fields: { title: 'Ação de Natal', category: 'production', isPublic: 'true' },
      },
      {
        name: 'equipe.png',
        fields: {
          title: 'Equipe',
          altText: 'Fotografía del EQUIPO en la oficina',
          category: 'system',
        },
      },
      { name: 'banner_100%.png', fields: { title: 'Banner', category: 'agent', isPublic: 'true' } },
      { name: 'avatar.png', fields: { category: 'user_upload' } },
      { name: 'logo.png', fields: { title: 'Logotipo', category: 'production' } },
    ];
    let ids: string[];

    beforeAll(async () => {
      await setSystem({});
      for (const row of await rows())
        await request('DELETE', `/api/images/${row.id}`, { token: admin.token });
      ids = [];
      for (const { name, fields } of uploads) {
        ids.push(
          await uploaded(ctx, {
            file: await makeImage('png', { width: 30 + ids.length, height: 20 }),
            name,
            fields,
            token: admin.token,
          }),
        );
        ctx.clock.advance(1000);
      }
    });

    const titles = (response: ListImagesResponse) =>
      response.images.map((image) => image.title || image.originalFilename);

    it('lists every image newest first, a page at a time, with the total', async () => {
      const all = await list();
      expect(all.total).toBe(5);
      expect(all.images.map((image) => image.id)).toEqual([...ids].reverse());
      const page = await list('?limit=2&offset=1');
      expect(page.total).toBe(5);
      expect(titles(page)).toEqual(['avatar.png', 'Banner']);
      expect((await list('?offset=10')).images).toEqual([]);
    });

    it('filters by category and visibility', async () => {
      expect(titles(await list('?category=production'))).toEqual(['Logotipo', 'Ação de Natal']);
      expect(titles(await list('?isPublic=true'))).toEqual(['Banner', 'Ação de Natal']);
      expect(titles(await list('?isPublic=false&category=production'))).toEqual(['Logotipo']);
      expect((await list('?category=agent&isPublic=false')).total).toBe(0);
    });

    it('searches title, alt text and file name, whatever the case and accents', async () => {
      expect(titles(await list('?search=acao'))).toEqual(['Ação de Natal']);
      expect(titles(await list('?search=A%C3%87%C3%83O'))).toEqual(['Ação de Natal']);
      expect(titles(await list('?search=fotografia%20del%20equipo'))).toEqual(['Equipe']);
      expect(titles(await list('?search=AVATAR.PNG'))).toEqual(['avatar.png']);
      // Wildcards are taken literally.
      expect(titles(await list('?search=100%25'))).toEqual(['Banner']);
      expect((await list('?search=%25')).total).toBe(1);
      expect((await list('?search=_')).total).toBe(1);
      expect((await list('?search=nothing-like-it')).images).toEqual([]);
    });

    it('refuses bad filters with 400', async () => {
      for (const query of [
        '?category=wallpaper',
        '?isPublic=yes',
        '?limit=0',
        '?limit=101',
        '?offset=-1',
        `?search=${'x'.repeat(201)}`,
      ]) {
        expect(
          (await get(ctx, `/api/images${query}`, { token: admin.token })).statusCode,
          query,
        ).toBe(400);
      }
    });

    it('answers each image with the fields of spec §3 and its addresses: plain when public, signed when private', async () => {
      const [logo, , banner] = (await list()).images as [Image, Image, Image];
      expect(Object.keys(logo).sort()).toEqual(
        [
          'altText',
          'category',
          'createdAt',
          'fileSize',
          'height',
          'id',
          'isPublic',
          'mimeType',
          'originalFilename',
          'thumbnailUrl',
          'title',
          'url',
          'width',
        ].sort(),
      );
      expect(banner).toMatchObject({
        isPublic: true,
        url: `/api/images/${banner.id}`,
        thumbnailUrl: `/api/images/${banner.id}?size=thumb`,
        width: 32,
        height: 20,
      });
      expect(logo.isPublic).toBe(false);
      expect(logo.url).toMatch(
        new RegExp(`^/api/images/${logo.id}\\?expires=\\d+&signature=[\\w-]+$`),
      );
      expect(logo.thumbnailUrl).toMatch(
        new RegExp(`^/api/images/${logo.id}\\?size=thumb&expires=\\d+&signature=[\\w-]+$`),
      );
      expect(logo.createdAt).toBe(new Date(logo.createdAt).toISOString());
    });

    it('counts the images, their bytes and each category', async () => {
      const res = await get(ctx, '/api/images/stats', { token: admin.token });
      expect(res.statusCode).toBe(200);
      const { stats } = res.json<ImageStatsResponse>();
      const stored = await rows();
      expect(stats).toEqual({
        total: 5,
        totalSize: stored.reduce((sum, row) => sum + row.fileSize, 0),
        byCategory: [
          { category: 'user_upload', count: 1 },
          { category: 'production', count: 2 },
          { category: 'system', count: 1 },
          { category: 'agent', count: 1 },
        ],
      });
    });
  });

  describe('serving', () => {
    let publicId: string;
    let privateId: string;
    let privateImage: Image;

    beforeAll(async () => {
      await setSystem({});
      publicId = await uploaded(ctx, {
        file: await makeImage('jpeg', { width: 500, height: 400 }),
        name: 'Relatório "final"\r\n.jpeg',
        fields: { isPublic: 'true' },
        token: admin.token,
      });
      privateId = await uploaded(ctx, {
        file: await makeImage('png', { width: 500, height: 400 }),
        name: 'secret.png',
        token: admin.token,
      });
      privateImage = (await list()).images.find((image) => image.id === privateId)!;
    });

    it('serves a public image to anyone, with its type, safe headers, ETag and caching', async () => {
      const [row] = (await rows()).filter((r) => r.id === publicId);
      const res = await request('GET', `/api/images/${publicId}`);
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.equals(fileOf(row!.fileName))).toBe(true);
      expect(res.headers).toMatchObject({
        'content-type': 'image/jpeg',
        'content-length': String(row!.fileSize),
        'x-content-type-options': 'nosniff',
        'content-security-policy': "default-src 'none'; sandbox",
        'content-disposition': 'inline; filename="Relatorio_final.jpg"',
        'cache-control': 'public, max-age=3600',
        'cross-origin-resource-policy': 'cross-origin',
      });
      const etag = res.headers.etag as string;
      expect(etag).toMatch(/^"[\w.-]+"$/);

      const again = await request('GET', `/api/images/${publicId}`, {
        headers: { 'if-none-match': etag },
      });
      expect(again.statusCode).toBe(304);
      expect(again.body).toBe('');
      expect(
        (
          await request('GET', `/api/images/${publicId}`, {
            headers: { 'if-none-match': `"other", W/${etag}` },
          })
        ).statusCode,
      ).toBe(304);
      expect(
        (
          await request('GET', `/api/images/${publicId}`, {
            headers: { 'if-none-match': '"other"' },
          })
        ).statusCode,
      ).toBe(200);
    });

    it('serves the thumbnail as WebP', async () => {
      const res = await request('GET', `/api/images/${publicId}?size=thumb`);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/webp');
      expect(res.headers['content-disposition']).toBe(
        'inline; filename="Relatorio_final-thumb.webp"',
      );
      expect(await sharp(res.rawPayload).metadata()).toMatchObject({
        format: 'webp',
        width: 320,
        height: 256,
      });
      expect(res.headers.etag).not.toBe(
        (await request('GET', `/api/images/${publicId}`)).headers.etag,
      );
      expect((await request('GET', `/api/images/${publicId}?size=huge`)).statusCode).toBe(400);
    });

    it('serves a private image to anyone holding its signed address, until it expires', async () => {
      const full = await request('GET', privateImage.url);
      expect(full.statusCode).toBe(200);
      expect(full.headers['content-type']).toBe('image/png');
      expect(full.headers['cross-origin-resource-policy']).toBe('same-origin');
      const maxAge = Number(
        /^private, max-age=(\d+)$/.exec(full.headers['cache-control'] as string)?.[1],
      );
      expect(maxAge).toBeGreaterThan(45 * 60 - 1);
      expect(maxAge).toBeLessThanOrEqual(60 * 60);
      const thumb = await request('GET', privateImage.thumbnailUrl);
      expect(thumb.statusCode).toBe(200);
      expect(thumb.headers['content-type']).toBe('image/webp');

      // Kept no longer than the address lasts.
      ctx.clock.advance((maxAge - 60) * 1000);
      expect((await request('GET', privateImage.url)).headers['cache-control']).toBe(
        'private, max-age=60',
      );
      ctx.clock.advance(60 * 1000);
      // An hour on, the admin's session has lapsed too: signed in again.
      await signInAgain();
      const expired = await request('GET', privateImage.url, {
        headers: { 'accept-language': 'pt-BR' },
      });
      expect(expired.statusCode).toBe(403);
      expect(expired.json()).toEqual({
        success: false,
        message: message('pt-BR', 'errors.imageLinkInvalid'),
      });
      // The list hands out fresh ones.
      const fresh = (await list()).images.find((image) => image.id === privateId)!;
      expect((await request('GET', fresh.url)).statusCode).toBe(200);
      privateImage = fresh;
    });

    it('refuses a signed address that was altered or made for something else', async () => {
      const url = new URL(privateImage.url, 'http://x');
      const { expires, signature } = Object.fromEntries(url.searchParams) as {
        expires: string;
        signature: string;
      };
      const flipped = `${signature.slice(0, -1)}${signature.endsWith('A') ? 'B' : 'A'}`;
      const attempts = [
        `/api/images/${privateId}?expires=${expires}&signature=${flipped}`,
        `/api/images/${privateId}?expires=${Number(expires) + 3600}&signature=${signature}`,
        `/api/images/${privateId}?size=thumb&expires=${expires}&signature=${signature}`,
        `/api/images/${publicId === privateId ? '' : privateId}?expires=${expires}`,
        `/api/images/${privateId}?signature=${signature}`,
        `/api/images/${privateId}?expires=soon&signature=${signature}`,
      ];
      for (const attempt of attempts) {
        const res = await request('GET', attempt);
        expect(res.statusCode, attempt).toBe(403);
        expect(res.json<{ message: string }>().message).toBe(
          message('pt-BR', 'errors.imageLinkInvalid'),
        );
      }
      // Another image's signature opens nothing else.
      const other = await uploaded(ctx, {
        file: await makeImage('png'),
        name: 'other.png',
        token: admin.token,
      });
      expect(
        (await request('GET', `/api/images/${other}?expires=${expires}&signature=${signature}`))
          .statusCode,
      ).toBe(403);
    });

    it('answers 404 in JSON for an unknown or malformed id', async () => {
      for (const id of [
        '0b0e6c4e-1111-4c3a-9a55-9b2d8d1c0f00',
        'not-an-id',
        '..%2F..%2Fetc%2Fpasswd',
        `${publicId}.jpg`,
      ]) {
        const res = await request('GET', `/api/images/${id}`, {
          headers: { 'accept-language': 'es-ES' },
        });
        expect(res.statusCode, id).toBe(404);
        expect(res.json(), id).toEqual({
          success: false,
          message: message('es-ES', 'errors.imageNotFound'),
        });
      }
    });

    it('answers HEAD with the headers alone', async () => {
      const res = await ctx.app.inject({ method: 'HEAD', url: `/api/images/${publicId}` });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('image/jpeg');
      expect(res.body).toBe('');
    });
  });

  describe('edit and delete', () => {
    let id: string;

    beforeEach(async () => {
      await setSystem({});
      id = await uploaded(ctx, {
        file: await makeImage('png'),
        name: 'edit-me.png',
        fields: { title: 'Before', category: 'system' },
        token: admin.token,
      });
    });

    it('changes the fields given, answers the image, and records only what changed', async () => {
      const res = await request('PUT', `/api/images/${id}`, {
        token: admin.token,
        body: { title: '  After ', isPublic: true, category: 'system' },
      });
      expect(res.statusCode).toBe(200);
      const { image } = res.json<{ image: Image }>();
      expect(image).toMatchObject({
        id,
        title: 'After',
        isPublic: true,
        category: 'system',
        altText: '',
        url: `/api/images/${id}`,
      });
      expect((await list()).images.find((i) => i.id === id)).toEqual(image);
      const entry = await latestAudit();
      expect(entry).toMatchObject({
        action: 'image.update',
        target: id,
        actorId: admin.user.id,
        changes: {
          title: { before: 'Before', after: 'After' },
          isPublic: { before: false, after: true },
        },
      });
      expect(Object.keys(entry!.changes).sort()).toEqual(['isPublic', 'title']);
      // Now public: served to anyone.
      expect((await request('GET', `/api/images/${id}`)).statusCode).toBe(200);
    });

    it('refuses an empty or invalid change, and an unknown image', async () => {
      for (const body of [
        {},
        { category: 'wallpaper' },
        { isPublic: 'true' },
        { title: 'x'.repeat(201) },
        { fileName: '../x' },
      ]) {
        expect(
          (await request('PUT', `/api/images/${id}`, { token: admin.token, body })).statusCode,
          JSON.stringify(body),
        ).toBe(400);
      }
      for (const target of ['0b0e6c4e-1111-4c3a-9a55-9b2d8d1c0f00', 'nope']) {
        const res = await request('PUT', `/api/images/${target}`, {
          token: admin.token,
          body: { title: 'x' },
        });
        expect(res.statusCode).toBe(404);
        expect(res.json()).toEqual({
          success: false,
          message: message('pt-BR', 'errors.imageNotFound'),
        });
      }
    });

    it('deletes the row and both files, records it, and answers 404 afterwards', async () => {
      const [row] = (await rows()).filter((r) => r.id === id);
      expect(storedFiles(ctx.imagesDir)).toEqual(
        expect.arrayContaining([row!.fileName, row!.thumbnailName]),
      );
      const res = await request('DELETE', `/api/images/${id}`, { token: admin.token });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ success: true });
      expect((await rows()).some((r) => r.id === id)).toBe(false);
      expect(storedFiles(ctx.imagesDir)).not.toContain(row!.fileName);
      expect(storedFiles(ctx.imagesDir)).not.toContain(row!.thumbnailName);
      const entry = await latestAudit();
      expect(entry).toMatchObject({
        action: 'image.delete',
        target: id,
        changes: { title: { before: 'Before', after: null } },
      });

      expect(
        (await request('DELETE', `/api/images/${id}`, { token: admin.token })).statusCode,
      ).toBe(404);
      expect((await request('GET', `/api/images/${id}`, { token: admin.token })).statusCode).toBe(
        404,
      );
    });
  });
});
