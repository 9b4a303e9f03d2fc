import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WhatsAppMessage } from '@contrateia/shared';
import { NO_MONITOR } from '../../../../test/helpers';
import { registerAndLogin, UNLIMITED_ROUTES } from '../../../../test/factories';
import { startFakeWhatsApp, type FakeWhatsApp } from '../../../../test/fake-whatsapp';
import { photo, voiceNote } from '../../../../test/media';
import { linkOnFake } from '../../../../test/whatsapp';
import { nextEvent, startRunning, type Running } from '../../../../test/whatsapp-drivers';

// A photo and a voice note reach the number as WhatsApp sends them: encrypted with a media key,
// uploaded to a media host, the message carrying the key and the hashes. The real Baileys
// downloads and decrypts them; the file is kept when it is whole and what it says it is.

type Account = Awaited<ReturnType<typeof registerAndLogin>>;

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
      whatsapp: { transport: 'baileys', wsUrl: fake.url, media: { maxBytes: 64 * 1024 } },
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
  });
});
