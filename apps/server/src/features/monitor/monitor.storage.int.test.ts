import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestContext } from '../../../test/helpers';
import { post, registerAndLogin, UNLIMITED_ROUTES } from '../../../test/factories';
import { photo } from '../../../test/media';
import { FIRST_SAMPLE_MS, QUICK_MONITOR, statusWhen } from '../../../test/monitor';
import { conversations, linkSandbox } from '../../../test/whatsapp';

// The monitor shows the media the WhatsApp accounts keep: how many files and their bytes, every
// instance's together, counted in the database; /metrics tells the same.

const METRICS_TOKEN = 'prometheus-scraper-token-5678';

type Account = Awaited<ReturnType<typeof registerAndLogin>>;

describe('the monitor: media storage', () => {
  let ctx: TestContext;
  let admin: Account;
  const phone = '5511966660001';

  beforeAll(async () => {
    ctx = await createTestApp({
      limits: { routes: UNLIMITED_ROUTES },
      whatsapp: { transport: 'sandbox' },
      monitor: QUICK_MONITOR,
      metricsToken: METRICS_TOKEN,
    });
    // The first account of a database is its admin.
    admin = await registerAndLogin(ctx, { name: 'Ana Admin' });
    await linkSandbox(ctx, admin, phone, { answeredBy: null });
  });
  afterAll(async () => ctx?.close());

  const storageIs = (mediaFiles: number, mediaBytes: number, what: string) =>
    statusWhen(
      ctx,
      admin,
      ({ storage }) => storage?.mediaFiles === mediaFiles && storage.mediaBytes === mediaBytes,
      what,
      FIRST_SAMPLE_MS,
    );

  it('counts the files kept and their bytes, and counts them no more once deleted', async () => {
    await storageIs(0, 0, 'no file kept yet');
    const sizes: number[] = [];
    for (const from of ['5511977773331@s.whatsapp.net', '5511977773332@s.whatsapp.net']) {
      const bytes = await photo();
      sizes.push(bytes.length);
      const res = await post(ctx, '/api/whatsapp/sandbox/inbound', {
        to: phone,
        from,
        media: { kind: 'image', mimetype: 'image/jpeg', dataBase64: bytes.toString('base64') },
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    // A location keeps no file: not counted.
    await post(ctx, '/api/whatsapp/sandbox/inbound', {
      to: phone,
      from: '5511977773331@s.whatsapp.net',
      media: { kind: 'location', latitude: -23.5, longitude: -46.6 },
    });
    await storageIs(2, sizes[0]! + sizes[1]!, 'both photos counted');
    const metrics = await ctx.app.inject({
      method: 'GET',
      url: '/metrics',
      headers: { authorization: `Bearer ${METRICS_TOKEN}` },
    });
    expect(metrics.statusCode).toBe(200);
    expect(metrics.body).toMatch(/^contrateia_media_files 2$/m);
    expect(metrics.body).toMatch(
      new RegExp(`^contrateia_media_bytes ${sizes[0]! + sizes[1]!}$`, 'm'),
    );

    const [conversation] = await conversations(ctx, admin);
    const deleted = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/whatsapp/conversations/${conversation!.id}`,
      headers: { authorization: `Bearer ${admin.token}` },
    });
    expect(deleted.statusCode).toBe(200);
    await storageIs(1, sizes[1]!, "the deleted conversation's photo no longer counted");
  });
});
