import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WhatsAppMessage } from '@contrateia/shared';
import { NO_MONITOR } from '../../../../test/helpers';
import { registerAndLogin, UNLIMITED_ROUTES } from '../../../../test/factories';
import {
  decryptMedia,
  startFakeWhatsApp,
  type FakeWhatsApp,
  type SentMedia,
  type SentText,
} from '../../../../test/fake-whatsapp';
import { startFakeOpenAI, type FakeOpenAI } from '../../../../test/fake-openai';
import { pngHeaderOnly } from '../../../../test/images';
import { photo, posterShown, VIDEO, videoStill, voiceNote } from '../../../../test/media';
import { conversations, linkOnFake } from '../../../../test/whatsapp';
import { nextEvent, startRunning, type Running } from '../../../../test/whatsapp-drivers';

// A photo, voice note, sticker, video and document reach the number as WhatsApp sends them:
// encrypted with a media key, uploaded to a media host, the message carrying the key and the
// hashes; a place and a contact card in the message itself. The real Baileys downloads and
// decrypts the files; a file is kept when it is whole and what it says it is (a page or script,
// whatever it claims, only as a placeholder saying why). The
// owner's photo or document goes the other way: Baileys asks where to upload (`media_conn`),
// uploads it encrypted, and sends the message with its key, which opens what was uploaded.

type Account = Awaited<ReturnType<typeof registerAndLogin>>;

/** How long a download may take here: far more than a local one needs, short enough to wait out. */
const DOWNLOAD_TIMEOUT_MS = 4_000;

const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << >>\n%%EOF\n');

describe('WhatsApp media through Baileys', () => {
  let fake: FakeWhatsApp;
  let running: Running;
  let owner: Account;
  const phone = '5511944440001';
  const contact = '5511955550002';

  beforeAll(async () => {
    fake = await startFakeWhatsApp();
    running = await startRunning({
      without: NO_MONITOR,
      limits: { routes: UNLIMITED_ROUTES },
      whatsapp: {
        transport: 'baileys',
        wsUrl: fake.url,
        mediaUploadAgent: fake.mediaUploadAgent,
        mediaDownloadDispatcher: fake.mediaDownloadDispatcher,
        media: { maxBytes: 64 * 1024, downloadTimeoutMs: DOWNLOAD_TIMEOUT_MS },
      },
    });
    owner = await registerAndLogin(running.ctx, { name: 'Olga' });
    await linkOnFake(running, fake, owner, phone, { answeredBy: null });
  });
  afterAll(async () => {
    await running?.ctx.close();
    await fake?.close();
  });

  /** The message the owner's page hears of next, once stored. */
  async function nextMessage(send: () => Promise<unknown>): Promise<WhatsAppMessage> {
    const since = running.events.length;
    await send();
    const event = await nextEvent(running, owner.user.id, 'whatsapp:new_message', since);
    return (event.payload as unknown as { message: WhatsAppMessage }).message;
  }

  it('downloads and decrypts a photo with its caption, served as the bytes the contact sent', async () => {
    const bytes = await photo();
    const message = await nextMessage(() =>
      fake.deliverMedia({ to: phone, from: contact, kind: 'image', bytes, caption: 'Meu pedido' }),
    );
    expect(message.text).toBe('Meu pedido');
    expect(message.media).toMatchObject({
      kind: 'image',
      mimetype: 'image/jpeg',
      size: bytes.length,
      caption: 'Meu pedido',
    });
    const file = await running.ctx.app.inject({ method: 'GET', url: message.media!.url! });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(bytes)).toBe(true);
  });

  it('asks the contact’s phone again for a photo that expired from the media host, once', async () => {
    const bytes = await photo();
    let id = '';
    const message = await nextMessage(async () => {
      ({ id } = await fake.deliverMedia({
        to: phone,
        from: contact,
        kind: 'image',
        bytes,
        caption: 'Chegou antes de baixar',
        expired: 'reupload',
      }));
    });
    // Kept whole from where the phone uploaded it again: the bytes the contact sent.
    expect(message.media).toMatchObject({ kind: 'image', size: bytes.length });
    expect((await served(message)).equals(bytes)).toBe(true);
    expect(fake.mediaRetries.filter((asked) => asked === id)).toHaveLength(1);
  });

  it('keeps only a placeholder for an expired photo the contact’s phone no longer has', async () => {
    let goneId = '';
    const gone = await nextMessage(async () => {
      ({ id: goneId } = await fake.deliverMedia({
        to: phone,
        from: contact,
        kind: 'image',
        bytes: await photo(),
        expired: 'gone',
      }));
    });
    expect(gone.media).toMatchObject({ kind: 'image', unavailable: 'download-failed' });
    expect(gone.media!.url).toBeUndefined();
    expect(fake.mediaRetries.filter((asked) => asked === goneId)).toHaveLength(1);
  });

  it('gives up on an expired photo whose sender’s phone never answers, and the next file is kept', async () => {
    let silentId = '';
    const silent = await nextMessage(async () => {
      ({ id: silentId } = await fake.deliverMedia({
        to: phone,
        from: contact,
        kind: 'image',
        bytes: await photo(),
        expired: 'silent',
      }));
    });
    // Stored once the download's time is up (DOWNLOAD_TIMEOUT_MS here), not held forever.
    expect(silent.media).toMatchObject({ kind: 'image', unavailable: 'download-failed' });
    expect(fake.mediaRetries.filter((asked) => asked === silentId)).toHaveLength(1);
    const bytes = voiceNote();
    const next = await nextMessage(() =>
      fake.deliverMedia({ to: phone, from: contact, kind: 'voice', bytes, seconds: 2 }),
    );
    expect((await served(next)).equals(bytes)).toBe(true);
  });

  it('keeps a voice note with its duration', async () => {
    const bytes = voiceNote();
    const message = await nextMessage(() =>
      fake.deliverMedia({ to: phone, from: contact, kind: 'voice', bytes, seconds: 4 }),
    );
    expect(message.media).toMatchObject({
      kind: 'audio',
      voice: true,
      seconds: 4,
      mimetype: 'audio/ogg; codecs=opus',
      size: bytes.length,
    });
    const file = await running.ctx.app.inject({ method: 'GET', url: message.media!.url! });
    expect(file.rawPayload.equals(bytes)).toBe(true);
  });

  it('keeps only a placeholder, saying why, for a truncated download, a 2 GB file, or bytes that are not a photo', async () => {
    const truncated = await nextMessage(async () =>
      fake.deliverMedia({
        to: phone,
        from: contact,
        kind: 'image',
        bytes: await photo(),
        upload: (encrypted) => encrypted.subarray(0, encrypted.length - 40),
      }),
    );
    expect(truncated.media).toMatchObject({ kind: 'image', unavailable: 'download-failed' });
    expect(truncated.media!.url).toBeUndefined();

    const huge = await nextMessage(async () =>
      fake.deliverMedia({
        to: phone,
        from: contact,
        kind: 'image',
        bytes: await photo(),
        fileLength: 2 * 1024 ** 3,
      }),
    );
    expect(huge.media).toMatchObject({
      kind: 'image',
      size: 2 * 1024 ** 3,
      unavailable: 'too-large',
    });

    const page = await nextMessage(() =>
      fake.deliverMedia({
        to: phone,
        from: contact,
        kind: 'image',
        bytes: Buffer.from(
          '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
        ),
      }),
    );
    expect(page.media).toMatchObject({ kind: 'image', unavailable: 'unsafe-type' });
    expect(page.media!.url).toBeUndefined();

    // A decompression bomb: 100 million pixels declared in under 200 bytes, never decoded.
    const bomb = await nextMessage(() =>
      fake.deliverMedia({
        to: phone,
        from: contact,
        kind: 'image',
        mimetype: 'image/png',
        bytes: pngHeaderOnly(10_000, 10_000),
      }),
    );
    expect(bomb.media).toMatchObject({ kind: 'image', unavailable: 'too-many-pixels' });
    expect(bomb.media!.url).toBeUndefined();
  });

  /** The owner sends the contact's conversation a file from the pane; what the contact got. */
  async function ownerSends(file: File, caption: string) {
    const [conversation] = await conversations(running.ctx, owner);
    const received = fake.next<SentMedia>('sent-media');
    const form = new FormData();
    form.append('caption', caption);
    form.append('file', file);
    const res = await running.ctx.app.inject({
      method: 'POST',
      url: `/api/whatsapp/conversations/${conversation!.id}/media`,
      payload: form,
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    const stored = res.json<{ data: WhatsAppMessage }>().data;
    expect(stored.status).toBe('pending');
    const sent = await received;
    expect(sent.to).toBe(contact);
    await nextEvent(
      running,
      owner.user.id,
      'whatsapp:message_status',
      0,
      (payload) => payload.messageId === stored.id && payload.status === 'sent',
    );
    return sent.message;
  }

  it('uploads the owner’s photo encrypted and sends it with its type, size and caption', async () => {
    const bytes = await photo();
    const message = await ownerSends(
      new File([bytes], 'vitrine.jpg', { type: 'image/jpeg' }),
      'Chegou seu pedido',
    );
    const image = message.imageMessage!;
    expect(image).toMatchObject({ mimetype: 'image/jpeg', caption: 'Chegou seu pedido' });
    expect(Number(image.fileLength)).toBe(bytes.length);
    const uploaded = fake.uploaded(image.url!);
    expect(uploaded).toBeDefined();
    expect(
      createHash('sha256').update(uploaded!).digest().equals(Buffer.from(image.fileEncSha256!)),
    ).toBe(true);
    expect(decryptMedia(uploaded!, image.mediaKey!, 'image').equals(bytes)).toBe(true);
  });

  it('uploads the owner’s PDF and sends it as a document with its name and caption', async () => {
    const pdf = Buffer.from(
      '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << >>\n%%EOF\n',
    );
    const message = await ownerSends(
      new File([pdf], 'Orçamento.pdf', { type: 'application/pdf' }),
      'Segue o orçamento',
    );
    const document = message.documentMessage!;
    expect(document).toMatchObject({
      mimetype: 'application/pdf',
      fileName: 'Orçamento.pdf',
      caption: 'Segue o orçamento',
    });
    expect(Number(document.fileLength)).toBe(pdf.length);
    expect(
      decryptMedia(fake.uploaded(document.url!)!, document.mediaKey!, 'document').equals(pdf),
    ).toBe(true);
  });
  async function served(message: WhatsAppMessage): Promise<Buffer> {
    const file = await running.ctx.app.inject({ method: 'GET', url: message.media!.url! });
    expect(file.statusCode).toBe(200);
    return file.rawPayload;
  }

  it('keeps a sticker, a video with its length and caption, and a document with its name', async () => {
    const webp = await sharp({
      create: { width: 64, height: 64, channels: 4, background: '#fc0' },
    })
      .webp()
      .toBuffer();
    const sticker = await nextMessage(() =>
      fake.deliverMedia({ to: phone, from: contact, kind: 'sticker', bytes: webp }),
    );
    expect(sticker.media).toMatchObject({
      kind: 'sticker',
      mimetype: 'image/webp',
      size: webp.length,
    });
    expect((await served(sticker)).equals(webp)).toBe(true);

    const video = await nextMessage(async () =>
      fake.deliverMedia({
        to: phone,
        from: contact,
        kind: 'video',
        bytes: VIDEO,
        seconds: 12,
        caption: 'Olha o barulho no dente',
        jpegThumbnail: await videoStill(),
      }),
    );
    expect(video.text).toBe('Olha o barulho no dente');
    expect(video.media).toMatchObject({ kind: 'video', seconds: 12, size: VIDEO.length });
    expect(video.media!.mimetype).toMatch(/^video\/mp4/);
    expect((await served(video)).equals(VIDEO)).toBe(true);
    // Its still, shown before it plays: the sender's thumbnail made again, without its metadata.
    expect(await posterShown(video.media!.poster)).toEqual({
      format: 'jpeg',
      width: 96,
      height: 54,
      exif: false,
    });

    const document = await nextMessage(() =>
      fake.deliverMedia({
        to: phone,
        from: contact,
        kind: 'document',
        bytes: PDF,
        fileName: 'Pedido médico.pdf',
      }),
    );
    expect(document.media).toMatchObject({
      kind: 'document',
      fileName: 'Pedido médico.pdf',
      mimetype: 'application/pdf',
      size: PDF.length,
    });
    expect((await served(document)).equals(PDF)).toBe(true);
  });

  it('keeps a place with its coordinates and name, and a contact card with its number', async () => {
    const place = await nextMessage(() =>
      fake.deliverShared({
        to: phone,
        from: contact,
        location: {
          latitude: -25.4284,
          longitude: -49.2733,
          name: 'Praça Tiradentes',
          address: 'Centro, Curitiba',
        },
      }),
    );
    expect(place.media).toEqual({
      kind: 'location',
      latitude: -25.4284,
      longitude: -49.2733,
      place: 'Praça Tiradentes',
    });

    const card = await nextMessage(() =>
      fake.deliverShared({
        to: phone,
        from: contact,
        contact: {
          displayName: 'Dra. Paula',
          vcard:
            'BEGIN:VCARD\nVERSION:3.0\nFN:Dra. Paula\nTEL;type=CELL;waid=5541999887766:+55 41 99988-7766\nEND:VCARD',
        },
      }),
    );
    expect(card.media).toEqual({
      kind: 'contact',
      contactName: 'Dra. Paula',
      contactNumber: '5541999887766',
    });
  });

  it('keeps only a placeholder for a page or script sent as a document or a sticker', async () => {
    const page = Buffer.from('<!doctype html><script>fetch("/api/auth/me")</script>');
    const asDocument = await nextMessage(() =>
      fake.deliverMedia({
        to: phone,
        from: contact,
        kind: 'document',
        bytes: page,
        fileName: 'fatura.pdf',
      }),
    );
    expect(asDocument.media).toMatchObject({ kind: 'document', unavailable: 'unsafe-type' });
    expect(asDocument.media!.url).toBeUndefined();

    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
    );
    const asSticker = await nextMessage(() =>
      fake.deliverMedia({ to: phone, from: contact, kind: 'sticker', bytes: svg }),
    );
    expect(asSticker.media).toMatchObject({ kind: 'sticker', unavailable: 'unsafe-type' });
    expect(asSticker.media!.url).toBeUndefined();
  });
});

describe('a voice note through Baileys, heard by the transcription model', () => {
  let fake: FakeWhatsApp;
  let ai: FakeOpenAI;
  let running: Running;
  let owner: Account;
  const phone = '5511944440011';
  const contact = '5511955550012';

  beforeAll(async () => {
    fake = await startFakeWhatsApp();
    ai = await startFakeOpenAI({
      chunks: ['Abrimos no sábado das 8h às 12h.'],
      transcription: { text: 'Vocês abrem no sábado?' },
    });
    running = await startRunning({
      without: NO_MONITOR,
      ai: {
        provider: 'openai',
        baseUrl: ai.url,
        model: 'fake-chat',
        timeoutMs: 5_000,
        transcriptionModel: 'whisper-1',
      },
      limits: { routes: UNLIMITED_ROUTES },
      whatsapp: { transport: 'baileys', wsUrl: fake.url, media: { maxBytes: 64 * 1024 } },
    });
    owner = await registerAndLogin(running.ctx, { name: 'Otto' });
    // guia answers the number's contacts.
    await linkOnFake(running, fake, owner, phone);
  });
  afterAll(async () => {
    await running?.ctx.close();
    await fake?.close();
    await ai?.close();
  });

  it('transcribes the voice note Baileys decrypted, keeps its words, and answers them', async () => {
    const bytes = voiceNote();
    const since = running.events.length;
    const replied = fake.next<SentText>('sent');
    await fake.deliverMedia({ to: phone, from: contact, kind: 'voice', bytes, seconds: 3 });

    // The contact's phone gets the answer to what the voice note said.
    const reply = await replied;
    expect(reply).toMatchObject({
      from: phone,
      to: contact,
      text: 'Abrimos no sábado das 8h às 12h.',
    });
    const [heard, ...again] = ai.requests.filter((r) => r.path.endsWith('/audio/transcriptions'));
    expect(again).toEqual([]);
    expect(heard!.multipart!.fields.model).toBe('whisper-1');
    // The very bytes the contact recorded, downloaded and decrypted by Baileys.
    expect(heard!.multipart!.files[0]!.data.equals(bytes)).toBe(true);
    const [asked] = ai.requests.filter((r) => r.path.endsWith('/chat/completions'));
    const turns = (asked!.body as { messages: { role: string; content: unknown }[] }).messages;
    expect(turns.at(-1)).toEqual({ role: 'user', content: 'Vocês abrem no sábado?' });

    // The owner's page heard the words kept with the voice note.
    const updated = await nextEvent(running, owner.user.id, 'whatsapp:message_updated', since);
    expect(
      (updated.payload as unknown as { message: WhatsAppMessage }).message.media,
    ).toMatchObject({ kind: 'audio', voice: true, transcript: 'Vocês abrem no sábado?' });
  });
});
