import fs from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  Language,
  SandboxPhoneEvent,
  ServerEventPayload,
  WhatsAppMessage,
} from '@contrateia/shared';
import { eventually, until } from '../../../test/eventually';
import { createTestApp, NO_MONITOR, type TestContext } from '../../../test/helpers';
import { get, message, post, registerAndLogin, UNLIMITED_ROUTES } from '../../../test/factories';
import { pngHeaderOnly } from '../../../test/images';
import { photo } from '../../../test/media';
import { conversations, linkSandbox, sandboxPhoneEvents } from '../../../test/whatsapp';
import { createEventHub, type HubEvent } from '@/lib/event-hub';
import { SEND_QUEUE_NAME, SEND_TRIES } from './whatsapp.outbox';

// The owner sends a customer a photo or a document from the conversation's pane: stored with the
// message (shown through the same address as a customer's file), sent through the outbox with its
// ticks and its Retry, and the customer's phone gets the file with its caption. What is too large,
// not what it says, or a page a browser would run is refused at once, in the owner's language,
// and nothing is stored or sent.

type Account = Awaited<ReturnType<typeof registerAndLogin>>;
type StatusEvent = ServerEventPayload<'whatsapp:message_status'>;

const SANDBOX_SECRET = 'sandbox-secret-of-the-media-sending-tests';
const bySecret = { 'x-sandbox-secret': SANDBOX_SECRET };
const MAX_BYTES = 64 * 1024;
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << >>\n%%EOF\n');
const SVG = Buffer.from(
  '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(document.cookie)</script></svg>',
);

/** The form the composer sends: the file, then its caption when one was typed. */
function mediaForm({
  name,
  bytes,
  type,
  caption,
}: {
  name: string;
  bytes: Uint8Array;
  type: string;
  caption?: string;
}): FormData {
  const form = new FormData();
  if (caption !== undefined) form.append('caption', caption);
  form.append('file', new File([bytes], name, { type }));
  return form;
}

describe('the owner sends a photo or a document through the sandbox', () => {
  let ctx: TestContext;
  const hub = createEventHub();
  const events: HubEvent[] = [];
  hub.subscribe((event) => events.push(event));
  let ana: Account;
  let bruno: Account;
  let conversationId: string;
  const phone = '5521944440101';
  const customer = '5521977770101@s.whatsapp.net';

  beforeAll(async () => {
    ctx = await createTestApp({
      without: NO_MONITOR,
      limits: { routes: UNLIMITED_ROUTES },
      events: hub,
      whatsapp: {
        transport: 'sandbox',
        sandboxSecret: SANDBOX_SECRET,
        media: { maxBytes: MAX_BYTES, retentionDays: 90 },
      },
    });
    ana = await registerAndLogin(ctx, { name: 'Ana' });
    bruno = await registerAndLogin(ctx, { name: 'Bruno' });
    await linkSandbox(ctx, ana, phone, { answeredBy: null });
    const res = await post(ctx, '/api/whatsapp/sandbox/inbound', {
      to: phone,
      from: customer,
      text: 'Pode me mandar o catálogo?',
    });
    expect(res.statusCode, res.body).toBe(200);
    conversationId = (await conversations(ctx, ana))[0]!.id;
  });
  afterAll(async () => ctx?.close());

  const sendFile = (
    form: FormData,
    {
      account = ana,
      conversation = conversationId,
      language = 'pt-BR',
    }: { account?: Account; conversation?: string; language?: Language } = {},
  ) =>
    ctx.app.inject({
      method: 'POST',
      url: `/api/whatsapp/conversations/${conversation}/media`,
      payload: form,
      headers: { authorization: `Bearer ${account.token}`, 'accept-language': language },
    });

  async function sent(form: FormData): Promise<WhatsAppMessage> {
    const res = await sendFile(form);
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ data: WhatsAppMessage }>().data;
  }

  /** The conversation's messages as Ana's pane opens it. */
  async function shown(): Promise<WhatsAppMessage[]> {
    const res = await get(ctx, `/api/whatsapp/conversations/${conversationId}`, {
      token: ana.token,
    });
    expect(res.statusCode).toBe(200);
    return res.json<{ data: { messages: WhatsAppMessage[] } }>().data.messages;
  }

  /** What the customer's phone got from Ana's number: its sends. */
  async function phoneMessages() {
    const all = await sandboxPhoneEvents(ctx, phone, bySecret);
    return all.filter(
      (e): e is Extract<SandboxPhoneEvent, { type: 'message' }> => e.type === 'message',
    );
  }

  const statuses = (messageId: string) =>
    events
      .filter((e) => e.name === 'whatsapp:message_status')
      .map((e) => e.payload as StatusEvent)
      .filter((p) => p.messageId === messageId)
      .map((p) => p.status);

  /** Waits until Ana's pages heard that the message is `status`. */
  const heard = (messageId: string, status: StatusEvent['status']) =>
    until(() => (statuses(messageId).includes(status) ? true : undefined), {
      changes: (onChange) => hub.subscribe(onChange),
      what: `message ${messageId} ${status}`,
    });

  /** Ana's kept files, and the uploads under way: what a refusal must leave as it was. */
  async function filesOfAna(): Promise<string[]> {
    const dir = path.join(ctx.mediaDir, ana.user.id);
    const kept = await fs.readdir(dir).catch(() => [] as string[]);
    const incoming = await fs.readdir(path.join(dir, '.incoming')).catch(() => [] as string[]);
    return [
      ...kept.filter((name) => name !== '.incoming'),
      ...incoming.map((n) => `.incoming/${n}`),
    ];
  }

  /** The send jobs waiting out their backoff are due now (pg-boss waits seconds between tries). */
  const retriesDue = () =>
    ctx.app.platform.database.execute(
      `UPDATE pgboss.job SET start_after = now() WHERE name = $1 AND state = 'retry'`,
      [SEND_QUEUE_NAME],
    );

  it('sends a photo with its caption: pending, then sent, delivered and read, the phone getting the photo', async () => {
    const bytes = await photo();
    const stored = await sent(
      mediaForm({ name: 'vitrine.jpg', bytes, type: 'image/jpeg', caption: ' Nossa vitrine ' }),
    );
    expect(stored).toMatchObject({
      sender: 'user',
      text: 'Nossa vitrine',
      status: 'pending',
      media: {
        kind: 'image',
        mimetype: 'image/jpeg',
        size: bytes.length,
        caption: 'Nossa vitrine',
      },
    });
    // Shown by the same address as a customer's photo.
    const file = await ctx.app.inject({ method: 'GET', url: stored.media!.url! });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload.equals(bytes)).toBe(true);
    expect(file.headers['content-type']).toBe('image/jpeg');

    await heard(stored.id, 'sent');
    const [delivered] = (await phoneMessages()).filter((e) => e.media?.caption === 'Nossa vitrine');
    expect(delivered).toMatchObject({
      to: customer,
      text: 'Nossa vitrine',
      media: {
        kind: 'image',
        mimetype: 'image/jpeg',
        size: bytes.length,
        caption: 'Nossa vitrine',
      },
    });
    expect(delivered).not.toHaveProperty('failed');
    expect(delivered!.media).not.toHaveProperty('fileName');

    for (const status of ['delivered', 'read'] as const) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: `/api/whatsapp/sandbox/phones/${phone}/receipts`,
        payload: { ids: [delivered!.id], status },
        headers: bySecret,
      });
      expect(res.statusCode).toBe(200);
      await heard(stored.id, status);
    }
    expect(statuses(stored.id)).toEqual(['sent', 'delivered', 'read']);
    expect((await shown()).find((m) => m.id === stored.id)).toMatchObject({
      status: 'read',
      media: { kind: 'image', url: expect.any(String) },
    });
  });

  it('sends a PDF as a document with its name and caption, and a photo without a caption', async () => {
    const pdf = await sent(
      mediaForm({
        name: 'Catálogo março.pdf',
        bytes: PDF,
        type: 'application/pdf',
        caption: 'Segue o catálogo',
      }),
    );
    expect(pdf).toMatchObject({
      text: 'Segue o catálogo',
      status: 'pending',
      media: {
        kind: 'document',
        mimetype: 'application/pdf',
        size: PDF.length,
        fileName: 'Catálogo março.pdf',
        caption: 'Segue o catálogo',
      },
    });
    const download = await ctx.app.inject({ method: 'GET', url: pdf.media!.url! });
    expect(download.rawPayload.equals(PDF)).toBe(true);
    expect(String(download.headers['content-disposition'])).toMatch(/^attachment;/);

    const bare = await sent(
      mediaForm({ name: 'foto.png', bytes: await photoPng(), type: 'image/png' }),
    );
    expect(bare.text).toBe('');
    expect(bare.media).toMatchObject({ kind: 'image', mimetype: 'image/png' });
    expect(bare.media).not.toHaveProperty('caption');

    await heard(pdf.id, 'sent');
    await heard(bare.id, 'sent');
    const phoneGot = await phoneMessages();
    expect(phoneGot.find((e) => e.media?.kind === 'document')).toMatchObject({
      text: 'Segue o catálogo',
      media: {
        kind: 'document',
        mimetype: 'application/pdf',
        size: PDF.length,
        fileName: 'Catálogo março.pdf',
        caption: 'Segue o catálogo',
      },
    });
    const png = phoneGot.find((e) => e.media?.mimetype === 'image/png');
    expect(png).toMatchObject({ text: '', media: { kind: 'image', mimetype: 'image/png' } });
    expect(png!.media).not.toHaveProperty('caption');
  });

  it('refuses a file over WHATSAPP_MEDIA_MAX_MB with a 413 in the owner’s language, storing and sending nothing', async () => {
    const before = { messages: (await shown()).length, files: await filesOfAna() };
    const sentBefore = (await phoneMessages()).length;
    // Just past the limit (found while reading), and far past it (refused from its announced
    // length, before a byte is read).
    for (const extra of [1, 256 * 1024]) {
      const res = await sendFile(
        mediaForm({
          name: 'grande.pdf',
          bytes: Buffer.concat([PDF, Buffer.alloc(MAX_BYTES - PDF.length + extra)]),
          type: 'application/pdf',
          caption: 'Grande demais',
        }),
        { language: 'en-US' },
      );
      expect(res.statusCode).toBe(413);
      // The limit in megabytes, to a tenth (64 KB here).
      expect(res.json().message).toBe(message('en-US', 'whatsappMedia.fileTooLarge', { mb: 0.1 }));
    }
    expect((await shown()).length).toBe(before.messages);
    expect(await filesOfAna()).toEqual(before.files);
    expect((await phoneMessages()).length).toBe(sentBefore);
  });

  it('refuses a "photo" that is a text file, an SVG, an HTML document, a form without its file and a caption too long, saying why', async () => {
    const before = { messages: (await shown()).length, files: await filesOfAna() };
    const refusals: [FormData, number, Language, string][] = [
      [
        mediaForm({
          name: 'foto.jpg',
          bytes: Buffer.from('Isto é só um texto, não uma foto.\n'),
          type: 'image/jpeg',
        }),
        400,
        'pt-BR',
        'whatsappMedia.notAPhoto',
      ],
      [
        mediaForm({ name: 'logo.svg', bytes: SVG, type: 'image/svg+xml' }),
        400,
        'es-ES',
        'whatsappMedia.fileUnsafe',
      ],
      // A decompression bomb: 100 million pixels declared in under 200 bytes, never decoded.
      [
        mediaForm({ name: 'bomba.png', bytes: pngHeaderOnly(10_000, 10_000), type: 'image/png' }),
        400,
        'pt-BR',
        'whatsappMedia.tooManyPixels',
      ],
      // Named as a harmless document: its bytes are what count.
      [
        mediaForm({
          name: 'pedido.txt',
          bytes: Buffer.from('<!doctype html><script>alert(1)</script>'),
          type: 'text/plain',
        }),
        400,
        'en-US',
        'whatsappMedia.fileUnsafe',
      ],
      [
        (() => {
          const form = new FormData();
          form.append('caption', 'Sem arquivo');
          return form;
        })(),
        400,
        'pt-BR',
        'whatsappMedia.fileRequired',
      ],
      [
        mediaForm({
          name: 'catalogo.pdf',
          bytes: PDF,
          type: 'application/pdf',
          caption: 'a'.repeat(4097),
        }),
        400,
        'en-US',
        'validation.whatsappMessageTooLong',
      ],
    ];
    for (const [form, status, language, key] of refusals) {
      const res = await sendFile(form, { language });
      expect(res.statusCode, `${key}: ${res.body}`).toBe(status);
      expect(res.json().message).toBe(message(language, key));
    }
    // Not a form at all.
    const json = await post(
      ctx,
      `/api/whatsapp/conversations/${conversationId}/media`,
      { caption: 'oi' },
      { token: ana.token },
    );
    expect(json.statusCode).toBe(400);
    expect(json.json().message).toBe(message('pt-BR', 'whatsappMedia.fileRequired'));
    expect((await shown()).length).toBe(before.messages);
    expect(await filesOfAna()).toEqual(before.files);
  });

  it('refuses another account’s conversation (404), a stranger (401) and a number not connected (409)', async () => {
    const form = () => mediaForm({ name: 'vitrine.pdf', bytes: PDF, type: 'application/pdf' });
    const others = await sendFile(form(), { account: bruno });
    expect(others.statusCode).toBe(404);
    expect(others.json().message).toBe(message('pt-BR', 'whatsappServer.conversationNotFound'));
    expect((await sendFile(form(), { conversation: 'not-an-id' })).statusCode).toBe(404);
    const stranger = await ctx.app.inject({
      method: 'POST',
      url: `/api/whatsapp/conversations/${conversationId}/media`,
      payload: form(),
    });
    expect(stranger.statusCode).toBe(401);

    // Bruno's own conversation, his number not connected.
    const brunoPhone = '5521944440102';
    await linkSandbox(ctx, bruno, brunoPhone, { answeredBy: null });
    await post(ctx, '/api/whatsapp/sandbox/inbound', {
      to: brunoPhone,
      from: customer,
      text: 'Olá, Bruno',
    });
    const [his] = await conversations(ctx, bruno);
    expect(
      (await post(ctx, '/api/whatsapp/disconnect', {}, { token: bruno.token })).statusCode,
    ).toBe(200);
    const offline = await sendFile(form(), { account: bruno, conversation: his!.id });
    expect(offline.statusCode).toBe(409);
    expect(offline.json().message).toBe(message('pt-BR', 'whatsappServer.notConnected'));
  });

  it('a file WhatsApp refuses every try shows failed, and Retry sends it once', async () => {
    const failing = await ctx.app.inject({
      method: 'POST',
      url: `/api/whatsapp/sandbox/phones/${phone}/fail-sends`,
      payload: { count: SEND_TRIES, code: '463' },
      headers: bySecret,
    });
    expect(failing.statusCode).toBe(200);
    const stored = await sent(
      mediaForm({ name: 'proposta.pdf', bytes: PDF, type: 'application/pdf', caption: 'Proposta' }),
    );
    await eventually(
      async () => {
        await retriesDue();
        return statuses(stored.id).includes('failed');
      },
      'the file failed',
      30_000,
    );
    expect((await shown()).find((m) => m.id === stored.id)).toMatchObject({
      status: 'failed',
      statusError: message('pt-BR', 'whatsappServer.sendError.463'),
      media: { kind: 'document', url: expect.any(String) },
    });
    const retried = await post(
      ctx,
      `/api/whatsapp/conversations/${conversationId}/messages/${stored.id}/retry`,
      {},
      { token: ana.token },
    );
    expect(retried.statusCode).toBe(200);
    expect(retried.json().data).toMatchObject({ id: stored.id, status: 'pending' });
    await heard(stored.id, 'sent');
    const tries = (await phoneMessages()).filter((e) => e.media?.caption === 'Proposta');
    expect(tries).toHaveLength(SEND_TRIES + 1);
    expect(tries.filter((e) => !e.failed)).toHaveLength(1);
    // Every try was the same message to WhatsApp.
    expect(new Set(tries.map((e) => e.id)).size).toBe(1);
  });
});

/** A small real PNG, as a screenshot is sent. */
function photoPng(): Promise<Buffer> {
  return sharp({ create: { width: 20, height: 20, channels: 3, background: '#38c' } })
    .png()
    .toBuffer();
}
