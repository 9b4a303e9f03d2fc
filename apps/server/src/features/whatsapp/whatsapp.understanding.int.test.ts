import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import type { AiSettingsInput, WhatsAppMessage } from '@contrateia/shared';
import { NO_MONITOR } from '../../../test/helpers';
import { startFakeOpenAI, type FakeOpenAI } from '../../../test/fake-openai';
import { get, post, registerAndLogin, UNLIMITED_ROUTES } from '../../../test/factories';
import { photo, voiceNote } from '../../../test/media';
import { conversationDetail, conversations } from '../../../test/whatsapp';
import {
  jidOf,
  nextEvent,
  startRunning,
  transportDrivers,
  type Running,
} from '../../../test/whatsapp-drivers';

// A contact's voice note, photo, document or location, answered as far as the model can take it
// in: a voice note through the provider's transcription model (its words kept with it and
// answered like text), a photo through a model that sees; without that, the contact is told so
// once, in their language; a document or location goes to the owner, never described. The
// provider is the fake OpenAI server, speaking the real API (multipart transcriptions included).

type Account = Awaited<ReturnType<typeof registerAndLogin>>;

const HEARD_NOTHING_PT = 'Recebi seu áudio, mas ainda não consigo ouvir áudios. Pode escrever?';
const HEARD_NOTHING_EN =
  "I got your voice message, but I can't listen to audio yet. Could you type it instead?";
const SAW_NOTHING_PT =
  'Recebi sua imagem, mas ainda não consigo ver imagens. Pode me dizer por escrito o que precisa?';
const HANDOFF_PT = 'Vou chamar alguém da equipe para te responder.';
const PDF = Buffer.from('%PDF-1.4\n1 0 obj << /Type /Catalog >> endobj\ntrailer << >>\n%%EOF\n');

const { sandbox, newPhone } = transportDrivers({
  secret: 'sandbox-secret-of-the-understanding-tests',
  phonePrefix: '55316',
});

describe('a contact’s files, answered as far as the model can take them in (sandbox)', () => {
  let ai: FakeOpenAI;
  let running: Running;
  let ana: Account;
  let phone: string;

  beforeAll(async () => {
    ai = await startFakeOpenAI();
    running = await startRunning({
      without: NO_MONITOR,
      ai: { provider: 'openai', baseUrl: ai.url, model: 'fake-chat', timeoutMs: 5_000 },
      limits: { routes: UNLIMITED_ROUTES },
      // A burst is answered once, after the last of its messages.
      whatsapp: sandbox.whatsapp({ pacing: { debounceMs: 1500 } }),
    });
    // The first account is the admin, who sets the AI tab; guia answers its contacts.
    ana = await registerAndLogin(running.ctx, { name: 'Ana' });
    phone = await sandbox.link(running, ana);
  });
  afterAll(async () => {
    await running?.ctx.close();
    await ai?.close();
  });

  /** Saves the AI tab as the admin would. */
  async function configure(changes: Partial<AiSettingsInput>) {
    const res = await post(
      running.ctx,
      '/api/admin/ai',
      {
        provider: 'openai',
        baseUrl: ai.url,
        model: 'fake-chat',
        timeoutMs: 5_000,
        transcriptionModel: '',
        vision: false,
        ...changes,
      },
      { token: ana.token },
    );
    expect(res.statusCode, res.body).toBe(200);
  }

  /**
   * The contact's burst (each entry one message: text, media or both), once each message's reply
   * job has settled: the outcome of the burst's one reply ('skipped' when there was none).
   */
  async function burst(contact: string, messages: Record<string, unknown>[]) {
    const since = running.replies.count;
    for (const body of messages) {
      const res = await post(running.ctx, '/api/whatsapp/sandbox/inbound', {
        to: phone,
        from: jidOf(contact),
        ...body,
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    const settled = await running.replies.settled({
      userId: ana.user.id,
      since,
      count: messages.length,
    });
    return settled.some((reply) => reply.outcome === 'sent')
      ? 'sent'
      : (settled.find((reply) => reply.outcome !== 'skipped')?.outcome ?? 'skipped');
  }

  const voice = (bytes = voiceNote()) => ({
    media: {
      kind: 'audio',
      voice: true,
      mimetype: 'audio/ogg; codecs=opus',
      seconds: 4,
      dataBase64: bytes.toString('base64'),
    },
  });
  const image = (bytes: Buffer, mimetype = 'image/jpeg') => ({
    media: { kind: 'image', mimetype, dataBase64: bytes.toString('base64') },
  });

  const sentTo = (contact: string) => sandbox.sentTo(running, phone, contact);
  const transcriptions = (since: number) =>
    ai.requests.slice(since).filter((r) => r.path.endsWith('/audio/transcriptions'));
  const completions = (since: number) =>
    ai.requests.slice(since).filter((r) => r.path.endsWith('/chat/completions'));
  /** The last user turn of a completion request, as the model read it. */
  const question = (request: { body: unknown }) =>
    (request.body as { messages: { role: string; content: unknown }[] }).messages
      .filter((m) => m.role === 'user')
      .at(-1)!.content;

  async function messagesOf(contact: string): Promise<WhatsAppMessage[]> {
    const conversation = (await conversations(running.ctx, ana)).find(
      (c) => c.contact_number === contact,
    );
    return (await conversationDetail(running.ctx, ana, conversation!.id)).messages;
  }

  it('transcribes a voice note, keeps its words with it for the owner at once, and answers them like text', async () => {
    await configure({ transcriptionModel: 'whisper-1' });
    ai.setOptions({
      chunks: ['A limpeza custa R$ 180,00.'],
      transcription: { text: 'Quanto custa a limpeza dos dentes?' },
    });
    const carla = newPhone();
    const since = ai.requests.length;
    const events = running.events.length;
    const bytes = voiceNote();
    expect(await burst(carla, [voice(bytes)])).toBe('sent');

    // The provider got the real file, as a multipart upload it can read the format of.
    const [heard, ...more] = transcriptions(since);
    expect(more).toEqual([]);
    expect(heard!.multipart!.fields).toMatchObject({ model: 'whisper-1' });
    expect(heard!.multipart!.files).toHaveLength(1);
    const [file] = heard!.multipart!.files;
    expect(file).toMatchObject({ field: 'file', filename: 'audio.ogg', mimeType: 'audio/ogg' });
    expect(file!.data.equals(bytes)).toBe(true);

    // Its words went to the model as the contact's question; its answer to the contact.
    const [asked] = completions(since);
    expect(question(asked!)).toBe('Quanto custa a limpeza dos dentes?');
    expect(await sentTo(carla)).toEqual(['A limpeza custa R$ 180,00.']);

    // Kept with the voice note: the owner's open page heard it, and the conversation shows it.
    const updated = await nextEvent(running, ana.user.id, 'whatsapp:message_updated', events);
    const shown = (updated.payload as unknown as { message: WhatsAppMessage }).message;
    expect(shown.media).toMatchObject({
      kind: 'audio',
      voice: true,
      transcript: 'Quanto custa a limpeza dos dentes?',
    });
    const [note, reply] = await messagesOf(carla);
    expect(note).toMatchObject({
      sender: 'contact',
      text: '',
      media: { kind: 'audio', transcript: 'Quanto custa a limpeza dos dentes?' },
    });
    expect(note!.media!.url).toBeDefined();
    expect(reply).toMatchObject({ sender: 'user', text: 'A limpeza custa R$ 180,00.' });

    // Later, what the voice note said is part of the conversation the model reads.
    ai.setOptions({ chunks: ['Pode sim.'] });
    const later = ai.requests.length;
    expect(await burst(carla, [{ text: 'E posso pagar no cartão?' }])).toBe('sent');
    const turns = (completions(later)[0]!.body as { messages: { role: string; content: string }[] })
      .messages;
    expect(turns.filter((m) => m.role !== 'system')).toEqual([
      { role: 'user', content: 'Quanto custa a limpeza dos dentes?' },
      { role: 'assistant', content: 'A limpeza custa R$ 180,00.' },
      { role: 'user', content: 'E posso pagar no cartão?' },
    ]);
  });

  it('without a transcription model, a burst of two voice notes gets the honest note once, and the model is not asked', async () => {
    await configure({ transcriptionModel: '' });
    const davi = newPhone();
    const since = ai.requests.length;
    expect(await burst(davi, [voice(), voice()])).toBe('sent');
    expect(await sentTo(davi)).toEqual([HEARD_NOTHING_PT]);
    expect(ai.requests.slice(since)).toEqual([]);
    const messages = await messagesOf(davi);
    expect(messages.map((m) => m.media?.transcript)).toEqual([undefined, undefined, undefined]);
  });

  it('tells an English-speaking contact in English', async () => {
    await configure({ transcriptionModel: '' });
    ai.setOptions({ chunks: ['Yes, we open on Saturdays from 8 to 12.'] });
    const joe = newPhone();
    expect(await burst(joe, [{ text: 'Hi! Do you open on Saturdays?' }])).toBe('sent');
    const since = ai.requests.length;
    expect(await burst(joe, [voice()])).toBe('sent');
    expect(await sentTo(joe)).toEqual([
      'Yes, we open on Saturdays from 8 to 12.',
      HEARD_NOTHING_EN,
    ]);
    expect(ai.requests.slice(since)).toEqual([]);
  });

  it('answers the text of a burst, then says the voice note beside it was not heard', async () => {
    await configure({ transcriptionModel: '' });
    ai.setOptions({ chunks: ['A limpeza custa R$ 180,00.'] });
    const eva = newPhone();
    const since = ai.requests.length;
    expect(await burst(eva, [{ text: 'Quanto custa a limpeza?' }, voice()])).toBe('sent');
    expect(question(completions(since)[0]!)).toBe('Quanto custa a limpeza?');
    expect(await sentTo(eva)).toEqual([`A limpeza custa R$ 180,00.\n\n${HEARD_NOTHING_PT}`]);
  });

  it('tries a failing transcription again with the reply, then answers honestly', async () => {
    await configure({ transcriptionModel: 'whisper-1' });
    ai.setOptions({ transcription: { status: 500 } });
    const fabio = newPhone();
    const since = ai.requests.length;
    expect(await burst(fabio, [voice()])).toBe('sent');
    // Every try of the reply asked again; after the last, the contact is told.
    expect(transcriptions(since)).toHaveLength(3);
    expect(completions(since)).toEqual([]);
    expect(await sentTo(fabio)).toEqual([HEARD_NOTHING_PT]);
    expect((await messagesOf(fabio))[0]!.media!.transcript).toBeUndefined();
    expect(running.ctx.logs.join('\n')).toContain('a voice note could not be transcribed');
  });

  it('the builtin engine cannot hear: a transcription model kept for later is not used', async () => {
    await configure({
      provider: 'builtin',
      baseUrl: '',
      model: '',
      transcriptionModel: 'whisper-1',
    });
    const gil = newPhone();
    const since = ai.requests.length;
    expect(await burst(gil, [voice()])).toBe('sent');
    expect(await sentTo(gil)).toEqual([HEARD_NOTHING_PT]);
    expect(ai.requests.slice(since)).toEqual([]);
  });

  it('shows a photo and its caption to a model that sees, as an image_url data URL of its real type', async () => {
    await configure({ vision: true });
    ai.setOptions({ chunks: ['Temos sim, nas cores azul e branca.'] });
    const hana = newPhone();
    const bytes = await photo();
    const since = ai.requests.length;
    // Sent as a PNG by the phone; its bytes say JPEG.
    const shown = { ...image(bytes, 'image/png'), text: 'Vocês têm esse modelo?' };
    expect(await burst(hana, [shown])).toBe('sent');
    const [asked] = completions(since);
    expect(question(asked!)).toEqual([
      { type: 'text', text: 'Vocês têm esse modelo?' },
      {
        type: 'image_url',
        image_url: { url: `data:image/jpeg;base64,${bytes.toString('base64')}` },
      },
    ]);
    expect(await sentTo(hana)).toEqual(['Temos sim, nas cores azul e branca.']);

    // A large picture goes scaled to the model's size, whatever it was sent as.
    const large = await sharp({
      create: { width: 2400, height: 1800, channels: 3, background: '#3a6' },
    })
      .png()
      .toBuffer();
    const next = ai.requests.length;
    expect(await burst(hana, [image(large, 'image/png')])).toBe('sent');
    const [url, ...others] = completions(next)[0]!.images;
    expect(others).toEqual([]);
    expect(url).toMatch(/^data:image\/jpeg;base64,/);
    const seen = await sharp(Buffer.from(url!.split(',')[1]!, 'base64')).metadata();
    expect([seen.width, seen.height]).toEqual([1024, 768]);
  });

  it('shows the model the last four photos of a burst of five, and says which it looked at', async () => {
    await configure({ vision: true });
    ai.setOptions({ chunks: ['Esse conserto sai por R$ 250,00.'] });
    const joana = newPhone();
    const colours = ['#a00', '#0a0', '#00a', '#aa0', '#0aa'];
    const photos = await Promise.all(
      colours.map((background) =>
        sharp({ create: { width: 32, height: 24, channels: 3, background } })
          .jpeg()
          .toBuffer(),
      ),
    );
    const since = ai.requests.length;
    const sent = photos.map((bytes, n) => ({
      ...image(bytes),
      ...(n === 4 ? { text: 'Quanto fica o conserto?' } : {}),
    }));
    expect(await burst(joana, sent)).toBe('sent');
    const [asked, ...more] = completions(since);
    expect(more).toEqual([]);
    expect(asked!.images).toEqual(
      photos.slice(1).map((bytes) => `data:image/jpeg;base64,${bytes.toString('base64')}`),
    );
    expect(await sentTo(joana)).toEqual([
      'Esse conserto sai por R$ 250,00.\n\nRecebi 5 fotos e olhei as últimas 4. Se alguma das outras for importante, pode mandar de novo?',
    ]);
  });

  it('without vision, answers the caption and says the photo was not seen; a photo alone gets the note alone', async () => {
    await configure({ vision: false });
    ai.setOptions({ chunks: ['A limpeza custa R$ 180,00.'] });
    const ines = newPhone();
    const bytes = await photo();
    const since = ai.requests.length;
    expect(await burst(ines, [{ ...image(bytes), text: 'Quanto custa a limpeza?' }])).toBe('sent');
    const [asked, ...more] = completions(since);
    expect(more).toEqual([]);
    expect(question(asked!)).toBe('Quanto custa a limpeza?');
    expect(asked!.images).toEqual([]);
    const after = ai.requests.length;
    expect(await burst(ines, [image(bytes)])).toBe('sent');
    expect(ai.requests.slice(after)).toEqual([]);
    expect(await sentTo(ines)).toEqual([
      `A limpeza custa R$ 180,00.\n\n${SAW_NOTHING_PT}`,
      SAW_NOTHING_PT,
    ]);
  });

  it('hands a document or a location with nothing written to the owner, saying nothing about it', async () => {
    await configure({});
    for (const media of [
      {
        kind: 'document',
        mimetype: 'application/pdf',
        fileName: 'Orçamento.pdf',
        dataBase64: PDF.toString('base64'),
      },
      { kind: 'location', latitude: -23.5613, longitude: -46.6565, place: 'Av. Paulista' },
    ]) {
      const contact = newPhone();
      const since = ai.requests.length;
      expect(await burst(contact, [{ media }])).toBe('sent');
      // The model was never asked about it: nothing to invent from.
      expect(ai.requests.slice(since)).toEqual([]);
      expect(await sentTo(contact)).toEqual([HANDOFF_PT]);
      const conversation = (await conversations(running.ctx, ana)).find(
        (c) => c.contact_number === contact,
      );
      expect(conversation).toMatchObject({ needs_human: true });
    }
  });

  it('answers the caption of a document as text', async () => {
    await configure({});
    ai.setOptions({ chunks: ['Recebido! Vamos conferir o orçamento.'] });
    const joao = newPhone();
    const since = ai.requests.length;
    const document = {
      text: 'Segue o orçamento, podem conferir?',
      media: {
        kind: 'document',
        mimetype: 'application/pdf',
        fileName: 'Orçamento.pdf',
        dataBase64: PDF.toString('base64'),
      },
    };
    expect(await burst(joao, [document])).toBe('sent');
    expect(question(completions(since)[0]!)).toBe('Segue o orçamento, podem conferir?');
    expect(await sentTo(joao)).toEqual(['Recebido! Vamos conferir o orçamento.']);
  });

  it('still transcribes a voice note for the owner when the agent does not answer the conversation', async () => {
    await configure({ transcriptionModel: 'whisper-1' });
    ai.setOptions({ transcription: { text: 'Pode me ligar amanhã?' } });
    const lia = newPhone();
    expect(await burst(lia, [{ text: 'Oi' }])).toBe('sent');
    const [conversation] = (await conversations(running.ctx, ana)).filter(
      (c) => c.contact_number === lia,
    );
    const off = await post(
      running.ctx,
      `/api/whatsapp/conversations/${conversation!.id}/ai`,
      { enabled: false },
      { token: ana.token },
    );
    expect(off.statusCode, off.body).toBe(200);
    const since = ai.requests.length;
    expect(await burst(lia, [voice()])).toBe('skipped');
    expect(transcriptions(since)).toHaveLength(1);
    expect(completions(since)).toEqual([]);
    expect((await messagesOf(lia)).at(-1)!.media).toMatchObject({
      transcript: 'Pode me ligar amanhã?',
    });
    expect(await sentTo(lia)).toHaveLength(1);
    // The API answers nothing of the provider's own (the key, the model) with it.
    const res = await get(running.ctx, `/api/whatsapp/conversations/${conversation!.id}`, {
      token: ana.token,
    });
    expect(res.body).not.toContain('whisper-1');
  });
});
