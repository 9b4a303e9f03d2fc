import fs from 'node:fs/promises';
import sharp from 'sharp';
import { startFakeOpenAI, type FakeOpenAI } from '../../server/test/fake-openai';
import { VIDEO, voiceNote } from '../../server/test/media';
import { signedInUser } from './chat-helpers';
import { expect, startServer, test as base, type Api, type TestServer } from './fixtures';
import {
  chatMessages,
  connectByQr,
  conversationItem,
  newNumber,
  openButton,
  shot,
} from './whatsapp-helpers';

// A customer's photo, voice note and document, as the owner sees them in the WhatsApp pane: the
// photo as a thumbnail that opens full size, the voice note as a player with what was said (heard
// by the provider's transcription model, the fake one here, and answered by the agent), the
// document to download; and the owner's own photo sent from the paper clip. Contacts write
// through the sandbox's control API, with the files' bytes.

const test = base.extend<object, { ai: FakeOpenAI; server: TestServer }>({
  ai: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const ai = await startFakeOpenAI();
      await use(ai);
      await ai.close();
    },
    { scope: 'worker' },
  ],
  server: [
    async ({ ai }, use) => {
      const { server, stop } = await startServer({
        WHATSAPP_TRANSPORT: 'sandbox',
        WHATSAPP_DEBOUNCE_MS: '0',
        WHATSAPP_TYPING_MS_PER_CHAR: '0',
        AI_PROVIDER: 'openai',
        AI_BASE_URL: ai.url,
        AI_MODEL: 'fake-model',
        AI_TRANSCRIPTION_MODEL: 'fake-whisper',
      });
      await use(server);
      await stop();
    },
    { scope: 'worker', timeout: 90_000 },
  ],
});

/** A photo as a phone's camera gives one: a real JPEG with something to see in it. */
function photo(): Promise<Buffer> {
  const drawing = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="640" height="480">
      <rect width="640" height="480" fill="#7ec8e3"/>
      <circle cx="320" cy="250" r="150" fill="#fff8e7" stroke="#c9a66b" stroke-width="8"/>
      <rect x="250" y="180" width="140" height="40" rx="12" fill="#e8b4b8"/>
    </svg>`,
  );
  return sharp(drawing).jpeg({ quality: 80 }).toBuffer();
}

/** A video's still, as a phone makes one: small, with something to see in it. */
function still(): Promise<Buffer> {
  const drawing = Buffer.from(
    `<svg xmlns="http://www.w3.org/2000/svg" width="320" height="180">
      <rect width="320" height="180" fill="#2d6a4f"/>
      <polygon points="140,60 140,120 190,90" fill="#fff"/>
    </svg>`,
  );
  return sharp(drawing).jpeg({ quality: 70 }).toBuffer();
}

const PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << >>\n%%EOF\n'.padEnd(2048, ' '),
);

async function contactSends(
  api: Api,
  phone: string,
  contact: string,
  body: Record<string, unknown>,
): Promise<void> {
  const res = await api.post('/api/whatsapp/sandbox/inbound', {
    to: phone,
    from: `${contact}@s.whatsapp.net`,
    pushName: 'Marina',
    ...body,
  });
  if (res.status !== 200) throw new Error(`inbound ${res.status}: ${JSON.stringify(res.body)}`);
}

test('a customer’s photo opens full size, a PDF downloads whole, a voice note plays; the owner sends a photo with a caption (1280 and 375 px)', async ({
  page,
  context,
  api,
}, testInfo) => {
  const { session } = await signedInUser(page, api, { prefix: 'zapmidia' });
  await page.goto('/whatsapp');
  const phone = newNumber();
  // Nobody answers: this journey is about what the owner sees.
  await connectByQr(page, context, phone, testInfo, null);
  const marina = newNumber();

  const jpeg = await photo();
  await contactSends(api, phone, marina, {
    text: 'Esse é o aparelho que quebrou',
    media: { kind: 'image', mimetype: 'image/jpeg', dataBase64: jpeg.toString('base64') },
  });
  const item = conversationItem(page, 'Marina');
  await expect(item).toContainText('Esse é o aparelho que quebrou');
  await openButton(item, 'Marina').click();
  const bubble = chatMessages(page).nth(0);
  const thumbnail = bubble.getByRole('img', { name: 'Esse é o aparelho que quebrou' });
  await expect(thumbnail).toBeVisible();
  // Really shown: the browser decoded the served bytes.
  await expect
    .poll(() => thumbnail.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth))
    .toBe(640);
  await bubble.getByRole('button', { name: 'Foto: ver em tamanho real' }).click();
  const viewer = page.getByRole('dialog', { name: 'Foto' });
  await expect(viewer.getByRole('img')).toBeVisible();
  await shot(page, testInfo, 'media-photo-viewer', { fullPage: false });
  await page.keyboard.press('Escape');
  await expect(viewer).toHaveCount(0);

  await contactSends(api, phone, marina, {
    media: {
      kind: 'document',
      mimetype: 'application/pdf',
      fileName: 'Orçamento aparelho.pdf',
      dataBase64: PDF.toString('base64'),
    },
  });
  const pdf = chatMessages(page).nth(1);
  await expect(pdf).toContainText('Orçamento aparelho.pdf');
  await expect(pdf).toContainText('2 kB · PDF');
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    pdf.getByRole('link', { name: 'Baixar Orçamento aparelho.pdf' }).click(),
  ]);
  expect(download.suggestedFilename()).toBe('Orçamento aparelho.pdf');
  expect(await fs.readFile(await download.path())).toEqual(PDF);

  await contactSends(api, phone, marina, {
    media: {
      kind: 'audio',
      voice: true,
      mimetype: 'audio/ogg; codecs=opus',
      seconds: 14,
      dataBase64: voiceNote().toString('base64'),
    },
  });
  const voice = chatMessages(page).nth(2);
  await expect(voice).toContainText('Mensagem de voz · 0:14');
  await expect(voice.locator('audio')).toHaveAttribute('src', /\/api\/whatsapp\/media\//);
  // A voice note without a word of text is named in the list, as WhatsApp does.
  await expect(item).toContainText('Mensagem de voz');
  await shot(page, testInfo, 'media-desktop', { fullPage: false });

  // A video shows the still its sender's phone made, until it plays.
  await contactSends(api, phone, marina, {
    media: {
      kind: 'video',
      mimetype: 'video/mp4',
      seconds: 12,
      dataBase64: VIDEO.toString('base64'),
      posterBase64: (await still()).toString('base64'),
    },
  });
  const video = chatMessages(page).nth(3);
  await expect(video).toContainText('Vídeo · 0:12');
  await expect(video.locator('video')).toHaveAttribute('poster', /^data:image\/jpeg;base64,/);
  await video.scrollIntoViewIfNeeded();
  await shot(page, testInfo, 'media-video-poster', { fullPage: false });

  // An iPhone's HEIC is no photo to WhatsApp: the page says it goes as a document, before it goes.
  const [heic] = await Promise.all([
    page.waitForEvent('filechooser'),
    page.getByRole('button', { name: 'Anexar foto ou documento' }).click(),
  ]);
  await heic.setFiles({ name: 'IMG_0412.HEIC', mimeType: 'image/heic', buffer: jpeg });
  await expect(
    page.getByText('Vai como documento: o WhatsApp mostra como foto só imagens JPEG, PNG e WebP.'),
  ).toBeVisible();
  await shot(page, testInfo, 'media-heic-as-document', { fullPage: false });
  await page.getByRole('button', { name: 'Remover IMG_0412.HEIC' }).click();

  // The owner answers with a photo of their own, from the paper clip, with a caption.
  const [chooser] = await Promise.all([
    page.waitForEvent('filechooser'),
    page.getByRole('button', { name: 'Anexar foto ou documento' }).click(),
  ]);
  await chooser.setFiles({ name: 'modelo-aparelho.jpg', mimeType: 'image/jpeg', buffer: jpeg });
  await expect(page.getByRole('group', { name: 'Arquivo anexado' })).toContainText(
    'modelo-aparelho.jpg',
  );
  await page.getByRole('textbox', { name: 'Mensagem para Marina' }).fill('É este o modelo?');
  await page.getByRole('button', { name: 'Enviar' }).click();
  const mine = chatMessages(page).nth(4);
  await expect(mine.getByRole('img', { name: 'É este o modelo?' })).toBeVisible();
  await expect(mine.getByRole('img', { name: 'Enviada' })).toBeVisible();
  // What Marina's phone got: the photo, its type and size, and the caption.
  await expect
    .poll(async () => {
      const res = await api.get<{ events: { type: string; to: string; media?: unknown }[] }>(
        `/api/whatsapp/sandbox/phones/${phone}/events`,
        session.token,
      );
      return res.body.events.filter((event) => event.media).map((event) => event.media);
    })
    .toEqual([
      { kind: 'image', mimetype: 'image/jpeg', size: jpeg.length, caption: 'É este o modelo?' },
    ]);

  await page.setViewportSize({ width: 375, height: 740 });
  await expect(voice).toBeVisible();
  await shot(page, testInfo, 'media-phone', { fullPage: false });
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  expect(overflow).toBeLessThanOrEqual(0);
});

test('a voice note is heard: its words show under the player, and the agent answers them on the customer’s phone', async ({
  page,
  context,
  api,
  ai,
}, testInfo) => {
  const { session } = await signedInUser(page, api, { prefix: 'zapvoz' });
  await page.goto('/whatsapp');
  const phone = newNumber();
  await connectByQr(page, context, phone, testInfo);
  const caio = newNumber();
  ai.setOptions({
    chunks: ['Temos horário amanhã às 9h. Posso confirmar?'],
    transcription: { text: 'Oi, queria marcar uma limpeza para amanhã cedo.' },
  });
  await contactSends(api, phone, caio, {
    pushName: 'Caio',
    media: {
      kind: 'audio',
      voice: true,
      mimetype: 'audio/ogg; codecs=opus',
      seconds: 6,
      dataBase64: voiceNote().toString('base64'),
    },
  });
  const item = conversationItem(page, 'Caio');
  await openButton(item, 'Caio').click();
  const voice = chatMessages(page).nth(0);
  await expect(voice).toContainText('Mensagem de voz · 0:06');
  await expect(voice.getByRole('blockquote')).toContainText(
    'Transcrição' + 'Oi, queria marcar uma limpeza para amanhã cedo.',
  );
  await expect(chatMessages(page).nth(1)).toContainText(
    'Temos horário amanhã às 9h. Posso confirmar?',
  );
  // Caio's phone got the answer to what he said.
  await expect
    .poll(async () => {
      const res = await api.get<{ events: { type: string; text: string }[] }>(
        `/api/whatsapp/sandbox/phones/${phone}/events`,
        session.token,
      );
      return res.body.events.filter((event) => event.type === 'message').map((e) => e.text);
    })
    .toEqual(['Temos horário amanhã às 9h. Posso confirmar?']);
  // The provider heard the very file Caio sent.
  const heard = ai.requests.find((request) => request.path.endsWith('/audio/transcriptions'));
  expect(heard?.multipart?.files[0]?.data.equals(voiceNote())).toBe(true);
  await shot(page, testInfo, 'media-voice-transcript', { fullPage: false });
});
