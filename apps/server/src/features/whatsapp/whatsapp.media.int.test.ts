import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WhatsAppMessage } from '@contrateia/shared';
import { createTestApp, type TestContext, NO_MONITOR } from '../../../test/helpers';
import {
  get,
  login,
  message,
  post,
  registerAndLogin,
  UNLIMITED_ROUTES,
} from '../../../test/factories';
import { pngHeaderOnly } from '../../../test/images';
import { photo, posterShown, VIDEO, videoStill, voiceNote } from '../../../test/media';
import { conversationDetail, conversations, linkSandbox } from '../../../test/whatsapp';
import { MEDIA_RETENTION_QUEUE } from './whatsapp.service';

// A customer's photo, voice note, document, location or contact card is kept with its message
// and shown to the owner; what is not what it claims, too large or a page a browser would run is
// refused by the sandbox's control API with a clear 400, and nothing is stored.

type Account = Awaited<ReturnType<typeof registerAndLogin>>;

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << >>\n%%EOF\n');
const SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script></svg>',
);
const MAX_BYTES = 64 * 1024;

describe('WhatsApp media received through the sandbox', () => {
  let ctx: TestContext;
  let ana: Account;
  let bruno: Account;
  const anaPhone = '5511933330001';
  const customer = '5511977776666@s.whatsapp.net';

  beforeAll(async () => {
    ctx = await createTestApp({
      without: NO_MONITOR,
      limits: { routes: UNLIMITED_ROUTES },
      whatsapp: { transport: 'sandbox', media: { maxBytes: MAX_BYTES, retentionDays: 90 } },
    });
    ana = await registerAndLogin(ctx, { name: 'Ana' });
    bruno = await registerAndLogin(ctx, { name: 'Bruno' });
    // Nobody answers: these tests are about what is kept.
    await linkSandbox(ctx, ana, anaPhone, { answeredBy: null });
  });
  afterAll(async () => ctx?.close());

  const inbound = (body: Record<string, unknown>) =>
    post(ctx, '/api/whatsapp/sandbox/inbound', { to: anaPhone, from: customer, ...body });

  /** The customer's conversation as Ana's pane opens it. */
  async function customerMessages(): Promise<WhatsAppMessage[]> {
    const [conversation] = await conversations(ctx, ana);
    if (!conversation) return [];
    return (await conversationDetail(ctx, ana, conversation.id)).messages;
  }

  async function received(body: Record<string, unknown>): Promise<WhatsAppMessage> {
    const res = await inbound(body);
    expect(res.statusCode, res.body).toBe(200);
    return (await customerMessages()).at(-1)!;
  }

  it('keeps a photo with its caption, its real type and size, served by its signed address to anyone holding it', async () => {
    const bytes = await photo();
    const shown = await received({
      text: 'Olha o modelo que eu quero',
      media: { kind: 'image', mimetype: 'image/png', dataBase64: bytes.toString('base64') },
    });
    expect(shown.text).toBe('Olha o modelo que eu quero');
    expect((await conversations(ctx, ana))[0]!.last_message).toEqual({
      text: 'Olha o modelo que eu quero',
      media: 'image',
    });
    expect(shown.media).toMatchObject({
      kind: 'image',
      // Read from the bytes, not taken from the sender.
      mimetype: 'image/jpeg',
      size: bytes.length,
      caption: 'Olha o modelo que eu quero',
    });
    const file = await ctx.app.inject({ method: 'GET', url: shown.media!.url! });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(bytes)).toBe(true);
    expect(file.headers['content-type']).toBe('image/jpeg');
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(file.headers['content-security-policy']).toBe("default-src 'none'; sandbox");
    expect(String(file.headers['content-disposition'])).toMatch(/^inline;/);

    // Without its signature: only Ana's own session.
    const bare = shown.media!.url!.split('?')[0]!;
    expect((await get(ctx, bare)).statusCode).toBe(401);
    expect((await get(ctx, bare, { token: bruno.token })).statusCode).toBe(404);
    const own = await get(ctx, bare, { token: ana.token });
    expect(own.statusCode).toBe(200);
    expect(own.rawPayload.equals(bytes)).toBe(true);
    // A forged signature is refused, saying why.
    const forged = await ctx.app.inject({
      method: 'GET',
      url: shown.media!.url!.replace(/signature=[^&]+/, 'signature=AAAA'),
      headers: { 'accept-language': 'en-US' },
    });
    expect(forged.statusCode).toBe(403);
    expect(forged.json().message).toBe(message('en-US', 'whatsappMedia.linkInvalid'));
  });

  it('keeps a voice note, a document, a location and a contact card, each with what the pane shows', async () => {
    const voice = await received({
      media: {
        kind: 'audio',
        voice: true,
        mimetype: 'audio/ogg; codecs=opus',
        seconds: 7,
        dataBase64: voiceNote().toString('base64'),
      },
    });
    expect(voice.text).toBe('');
    // The list names what came, as WhatsApp's does, for a message without a word of text.
    expect((await conversations(ctx, ana))[0]!.last_message).toEqual({ text: '', media: 'voice' });
    expect(voice.media).toMatchObject({
      kind: 'audio',
      voice: true,
      seconds: 7,
      mimetype: 'audio/ogg; codecs=opus',
    });
    const audio = await ctx.app.inject({ method: 'GET', url: voice.media!.url! });
    expect(audio.statusCode).toBe(200);
    expect(String(audio.headers['content-disposition'])).toMatch(/^inline;/);

    const document = await received({
      media: {
        kind: 'document',
        mimetype: 'application/pdf',
        fileName: 'Orçamento março.pdf',
        dataBase64: PDF.toString('base64'),
      },
    });
    expect(document.media).toMatchObject({
      kind: 'document',
      fileName: 'Orçamento março.pdf',
      mimetype: 'application/pdf',
      size: PDF.length,
    });
    const pdf = await ctx.app.inject({ method: 'GET', url: document.media!.url! });
    expect(pdf.statusCode).toBe(200);
    // Downloaded, never shown in the app's origin.
    expect(pdf.headers['content-disposition']).toBe(
      `attachment; filename="Orcamento_marco.pdf"; filename*=UTF-8''${encodeURIComponent('Orçamento março.pdf')}`,
    );

    const location = await received({
      media: { kind: 'location', latitude: -23.5613, longitude: -46.6565, place: 'Av. Paulista' },
    });
    expect(location.media).toEqual({
      kind: 'location',
      latitude: -23.5613,
      longitude: -46.6565,
      place: 'Av. Paulista',
    });
    const card = await received({
      media: { kind: 'contact', contactName: 'Carla Souza', contactNumber: '+55 11 91234-5678' },
    });
    expect(card.media).toEqual({
      kind: 'contact',
      contactName: 'Carla Souza',
      contactNumber: '+55 11 91234-5678',
    });
    expect((await conversations(ctx, ana))[0]!.last_message).toEqual({
      text: '',
      media: 'contact',
    });
  });

  it("keeps a video with its length and the sender's still, made again without its metadata", async () => {
    const video = await received({
      media: {
        kind: 'video',
        mimetype: 'video/mp4',
        seconds: 12,
        dataBase64: VIDEO.toString('base64'),
        posterBase64: (await videoStill()).toString('base64'),
      },
    });
    expect(video.media).toMatchObject({ kind: 'video', seconds: 12, size: VIDEO.length });
    expect(await posterShown(video.media!.poster)).toEqual({
      format: 'jpeg',
      width: 96,
      height: 54,
      exif: false,
    });
    // A large still is made small: a thumbnail in the chat, never more.
    const large = await sharp({
      create: { width: 1920, height: 1080, channels: 3, background: '#345' },
    })
      .webp({ quality: 10 })
      .toBuffer();
    const second = await received({
      media: {
        kind: 'video',
        mimetype: 'video/mp4',
        dataBase64: VIDEO.toString('base64'),
        posterBase64: large.toString('base64'),
      },
    });
    expect(await posterShown(second.media!.poster)).toMatchObject({ width: 480, height: 270 });
  });

  it('refuses with a clear 400, storing nothing, a file that is not what it claims, too large, a page or script, or malformed', async () => {
    const before = (await customerMessages()).length;
    const refusals: [Record<string, unknown>, string, Record<string, string | number>?][] = [
      [
        { kind: 'image', mimetype: 'image/jpeg', dataBase64: PDF.toString('base64') },
        'sandboxValidation.mediaNotWhatItSays',
        { kind: 'image' },
      ],
      [
        { kind: 'image', mimetype: 'image/svg+xml', dataBase64: SVG.toString('base64') },
        'sandboxValidation.mediaUnsafe',
      ],
      // A decompression bomb: 100 million pixels declared in under 200 bytes.
      [
        {
          kind: 'image',
          mimetype: 'image/png',
          dataBase64: pngHeaderOnly(10_000, 10_000).toString('base64'),
        },
        'sandboxValidation.mediaTooManyPixels',
      ],
      [
        {
          kind: 'document',
          mimetype: 'text/html',
          fileName: 'fatura.html',
          dataBase64: Buffer.from('<!doctype html><script>fetch("/api")</script>').toString(
            'base64',
          ),
        },
        'sandboxValidation.mediaUnsafe',
      ],
      [
        {
          kind: 'document',
          mimetype: 'application/pdf',
          dataBase64: Buffer.alloc(MAX_BYTES + 1, 1).toString('base64'),
        },
        'sandboxValidation.mediaTooLarge',
        { mb: 0 },
      ],
      [{ kind: 'image', mimetype: 'image/jpeg', dataBase64: '%%%' }, 'sandboxValidation.mediaData'],
      [{ kind: 'image', mimetype: 'image/jpeg' }, 'sandboxValidation.mediaData'],
      [{ kind: 'location', latitude: 91, longitude: 0 }, 'sandboxValidation.mediaLocation'],
      [{ kind: 'hologram', dataBase64: '' }, 'sandboxValidation.mediaKind'],
      // A video's still is a photo, of a video.
      [
        {
          kind: 'video',
          mimetype: 'video/mp4',
          dataBase64: VIDEO.toString('base64'),
          posterBase64: SVG.toString('base64'),
        },
        'sandboxValidation.mediaPoster',
      ],
      [
        {
          kind: 'video',
          mimetype: 'video/mp4',
          dataBase64: VIDEO.toString('base64'),
          posterBase64: pngHeaderOnly(10_000, 10_000).toString('base64'),
        },
        'sandboxValidation.mediaPoster',
      ],
      [
        {
          kind: 'image',
          mimetype: 'image/jpeg',
          dataBase64: (await photo()).toString('base64'),
          posterBase64: (await photo()).toString('base64'),
        },
        'sandboxValidation.mediaPoster',
      ],
    ];
    for (const [media, key, params] of refusals) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/whatsapp/sandbox/inbound',
        headers: { 'accept-language': 'en-US' },
        payload: { to: anaPhone, from: customer, media },
      });
      expect(res.statusCode, JSON.stringify(media).slice(0, 80)).toBe(400);
      expect(JSON.stringify(res.json()), key).toContain(
        JSON.stringify(message('en-US', key, params)).slice(1, -1),
      );
    }
    expect((await customerMessages()).length).toBe(before);
  });

  it("removes the files with the conversation, and lists them in the account's data", async () => {
    const bytes = await photo();
    const shown = await received({
      media: { kind: 'image', mimetype: 'image/jpeg', dataBase64: bytes.toString('base64') },
    });
    const exported = await get(ctx, '/api/account/export', { token: ana.token });
    expect(exported.statusCode).toBe(200);
    const files = exported.json<{ whatsapp: { media: { messageId: string }[] } }>().whatsapp.media;
    expect(files.find((file) => file.messageId === shown.id)).toMatchObject({
      kind: 'image',
      mimetype: 'image/jpeg',
      size: bytes.length,
      kept: true,
    });
    const dir = path.join(ctx.mediaDir, ana.user.id);
    expect(fs.readdirSync(dir).length).toBeGreaterThan(0);
    const [conversation] = await conversations(ctx, ana);
    const res = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/whatsapp/conversations/${conversation!.id}`,
      headers: { authorization: `Bearer ${ana.token}` },
    });
    expect(res.statusCode).toBe(200);
    expect(fs.readdirSync(dir)).toEqual([]);
    expect((await ctx.app.inject({ method: 'GET', url: shown.media!.url! })).statusCode).toBe(404);
  });

  it('lets a file go after WHATSAPP_MEDIA_RETENTION_DAYS: its message stays, saying it expired', async () => {
    const shown = await received({
      media: {
        kind: 'image',
        mimetype: 'image/jpeg',
        dataBase64: (await photo()).toString('base64'),
      },
    });
    ctx.clock.advance(91 * 24 * 60 * 60_000);
    // Ninety days on, Ana signs in again.
    const signedIn = await login(ctx, { identifier: ana.email, password: ana.password });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    ana = { ...ana, token: signedIn.json<{ token: string }>().token };
    const { id } = await ctx.app.jobs.send(MEDIA_RETENTION_QUEUE, {});
    await ctx.jobs.settledJob(MEDIA_RETENTION_QUEUE.name, id);
    const after = (await customerMessages()).find((m) => m.id === shown.id)!;
    expect(after.media).toMatchObject({ kind: 'image', unavailable: 'expired' });
    expect(after.media!.url).toBeUndefined();
    expect(fs.readdirSync(path.join(ctx.mediaDir, ana.user.id))).toEqual([]);
  });

  it("removes an account's files with the account", async () => {
    const cris = await registerAndLogin(ctx, { name: 'Cris' });
    await linkSandbox(ctx, cris, '5511933330002', { answeredBy: null });
    const res = await post(ctx, '/api/whatsapp/sandbox/inbound', {
      to: '5511933330002',
      from: customer,
      media: {
        kind: 'image',
        mimetype: 'image/jpeg',
        dataBase64: (await photo()).toString('base64'),
      },
    });
    expect(res.statusCode, res.body).toBe(200);
    const dir = path.join(ctx.mediaDir, cris.user.id);
    expect(fs.readdirSync(dir).length).toBe(1);
    const deleted = await post(
      ctx,
      '/api/account/delete',
      { password: cris.password },
      { token: cris.token },
    );
    expect(deleted.statusCode, deleted.body).toBe(200);
    expect(fs.existsSync(dir)).toBe(false);
  });
});
