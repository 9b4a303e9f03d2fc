import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  Agent,
  ConversationResponse,
  Language,
  SendMessageResponse,
  WhatsAppPlatform,
} from '@contrateia/shared';
import { settles } from '../../../test/eventually';
import { NO_MONITOR } from '../../../test/helpers';
import { startFakeOpenAI, type FakeOpenAI } from '../../../test/fake-openai';
import { get, message, post, registerAndLogin, UNLIMITED_ROUTES } from '../../../test/factories';
import { qrText } from '../../../test/qr';
import { conversations } from '../../../test/whatsapp';
import {
  nextEvent,
  startRunning,
  transportDrivers,
  type Running,
} from '../../../test/whatsapp-drivers';

// auxtrat's Sync Agent: the QR of a conversation opens a chat with the platform's number (the
// linked WhatsApp of WHATSAPP_PLATFORM_ACCOUNT, by default the first admin) with a one-time code
// written; sent, it pairs that chat with the conversation, which then goes on there: auxtrat
// answers with the conversation's history, and the web chat gets the turns live. On both
// transports: the sandbox and Baileys against the fake WhatsApp.

type Account = Awaited<ReturnType<typeof registerAndLogin>>;

const { drivers } = transportDrivers({
  secret: 'sandbox-secret-of-the-platform-tests',
  phonePrefix: '55427',
});

describe.each(drivers)('Sync Agent through the platform’s number ($name)', (driver) => {
  let running: Running;
  let ai: FakeOpenAI;
  let admin: Account;
  let bruno: Account;
  let phone: string;
  /** bruno's auxtrat conversation on the web. */
  let conversationId: string;
  let auxtrat: string;
  let sequence = 0;
  /** A contact's number (digits) not used before in this suite. */
  const newContact = () => `55119777${String(Date.now() % 1e4).padStart(4, '0')}${++sequence}`;

  beforeAll(async () => {
    ai = await startFakeOpenAI({ chunks: ['Anotado.'] });
    running = await startRunning({
      without: NO_MONITOR,
      limits: { routes: UNLIMITED_ROUTES },
      whatsapp: driver.whatsapp(),
      ai: { provider: 'openai', baseUrl: ai.url, model: 'test-model', timeoutMs: 5000 },
    });
    // The first account is the admin: its number is the platform's.
    admin = await registerAndLogin(running.ctx, { name: 'Admin' });
    bruno = await registerAndLogin(running.ctx, { name: 'Bruno' });
    const available = await get(running.ctx, '/api/agents/available', {
      token: bruno.token,
      language: 'pt-BR',
    });
    const agent = available.json<{ agents: Agent[] }>().agents.find((a) => a.name === 'auxtrat')!;
    auxtrat = agent.displayName;
    expect(
      (await post(running.ctx, '/api/agents/hire', { agentId: agent.id }, { token: bruno.token }))
        .statusCode,
    ).toBe(200);
    const sent = await post(
      running.ctx,
      '/api/chat/message',
      { message: 'Meu nome é Bruno e vendo bolos.', agentName: 'auxtrat' },
      { token: bruno.token, language: 'pt-BR' },
    );
    expect(sent.statusCode, sent.body).toBe(200);
    conversationId = sent.json<SendMessageResponse>().conversation.id;
  });
  afterAll(async () => {
    await running?.ctx.close();
    await ai?.close();
  });

  const qr = (account: Account, language: Language = 'pt-BR', id = conversationId) =>
    post(
      running.ctx,
      '/api/auxtrat/qr-code',
      { sessionId: id, agentName: 'auxtrat' },
      { token: account.token, language },
    );
  const platform = async () => {
    const res = await get(running.ctx, '/api/admin/whatsapp/platform', { token: admin.token });
    expect(res.statusCode).toBe(200);
    return res.json<{ data: WhatsAppPlatform }>().data;
  };
  /** A new code's text, as its QR code's link writes it. */
  async function scannedText() {
    const res = await qr(bruno);
    expect(res.statusCode, res.body).toBe(200);
    const link = qrText(res.json<{ qrCode: string }>().qrCode);
    expect(link).toBe(res.json<{ link: string }>().link);
    const url = new URL(link);
    expect(`${url.origin}${url.pathname}`).toBe(`https://wa.me/${phone}`);
    return url.searchParams.get('text')!;
  }
  /** What the number last told the contact (digits), once it is `expected`. */
  const told = (contact: string, expected: string) =>
    settles(async () =>
      expect((await driver.sentTo(running, phone, contact)).at(-1)).toBe(expected),
    );
  /** The contact's message with a code, once answered; resolves with their chat. */
  async function sendCode(contact: string, text: string) {
    const since = running.replies.count;
    const eventsSince = running.events.length;
    await driver.contactWrites(running, phone, contact, text);
    const shown = await nextEvent(running, admin.user.id, 'whatsapp:new_message', eventsSince);
    const chat = (shown.payload as { conversation: { id: string } }).conversation.id;
    const [reply] = await running.replies.settled({ conversationId: chat, since });
    expect(reply!.outcome).toBe('sent');
    return chat;
  }
  /** The contact writes in a paired chat (`chat`); resolves once the number's answer was sent. */
  async function writePaired(contact: string, chat: string, text: string) {
    const since = running.replies.count;
    await driver.contactSends(running, phone, contact, text);
    const [reply] = await running.replies.settled({ conversationId: chat, since });
    expect(reply!.outcome).toBe('sent');
  }
  const webConversation = async () => {
    const res = await get(running.ctx, `/api/chat/conversations/${conversationId}`, {
      token: bruno.token,
    });
    expect(res.statusCode).toBe(200);
    return res.json<ConversationResponse>().conversation;
  };

  it('without a connected platform number, no QR is made and the admin panel says so', async () => {
    const refused = await qr(bruno, 'en-US');
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual({
      success: false,
      message: message('en-US', 'whatsappServer.syncPairing.unavailable'),
    });
    expect(await platform()).toEqual({
      account: admin.email,
      phone: null,
      connected: false,
    });
    // Only an admin sees whose number it is.
    const asUser = await get(running.ctx, '/api/admin/whatsapp/platform', { token: bruno.token });
    expect(asUser.statusCode).toBe(403);

    phone = await driver.link(running, admin);
    expect(await platform()).toEqual({ account: admin.email, phone, connected: true });
  });

  it('a scanned code continues the conversation on WhatsApp, with its history, live on the web', async () => {
    const text = await scannedText();
    expect(text).toMatch(/^Quero continuar minha conversa .* Código: CTIA-[A-Za-z0-9_-]{32}$/);
    const contact = newContact();
    const chat = await sendCode(contact, text);
    await told(contact, message('pt-BR', 'whatsappServer.syncPairing.paired', { agent: auxtrat }));
    // The chat is bruno's conversation now, not the admin's: it leaves the admin's list.
    expect((await conversations(running.ctx, admin)).map((c) => c.id)).not.toContain(chat);
    expect(
      (await get(running.ctx, `/api/whatsapp/conversations/${chat}`, { token: admin.token }))
        .statusCode,
    ).toBe(404);

    ai.setOptions({ chunks: ['Você vende bolos, Bruno.'] });
    const asked = ai.nextRequest(10_000, (r) => r.path.endsWith('/chat/completions'));
    const eventsSince = running.events.length;
    await writePaired(contact, chat, 'O que eu vendo?');
    await told(contact, 'Você vende bolos, Bruno.');
    // auxtrat read the web conversation's history, and bruno's page is told of the new turn.
    expect(JSON.stringify((await asked).body)).toContain('Meu nome é Bruno e vendo bolos.');
    await nextEvent(
      running,
      bruno.user.id,
      'chat:message',
      eventsSince,
      (p) => p.conversationId === conversationId,
    );
    const turns = (await webConversation()).messages.map((m) => [m.sender, m.text]);
    expect(turns.slice(-2)).toEqual([
      ['user', 'O que eu vendo?'],
      ['bot', 'Você vende bolos, Bruno.'],
    ]);
    // Nothing of it reached the admin's pages.
    expect(
      running.events
        .slice(eventsSince)
        .filter((e) => e.userId === admin.user.id && e.name.startsWith('whatsapp:'))
        .map((e) => e.name)
        .filter((name) => name !== 'whatsapp:message_status'),
    ).toEqual([]);

    // The same code again from the same chat pairs nothing new and says it is paired.
    await writePaired(contact, chat, text);
    await settles(async () =>
      expect(await driver.sentTo(running, phone, contact)).toEqual([
        message('pt-BR', 'whatsappServer.syncPairing.paired', { agent: auxtrat }),
        'Você vende bolos, Bruno.',
        message('pt-BR', 'whatsappServer.syncPairing.paired', { agent: auxtrat }),
      ]),
    );
  });

  it('a code works once: a second scan, an expired code and a replaced one are told so', async () => {
    const text = await scannedText();
    const first = newContact();
    await sendCode(first, text);
    await told(first, message('pt-BR', 'whatsappServer.syncPairing.paired', { agent: auxtrat }));
    const second = newContact();
    const used = await sendCode(second, text);
    await told(second, message('pt-BR', 'whatsappServer.syncPairing.used'));
    // Not paired: an ordinary contact of the admin's, in the admin's list.
    expect((await conversations(running.ctx, admin)).map((c) => c.id)).toContain(used);

    const replaced = await scannedText();
    await scannedText();
    const third = newContact();
    await sendCode(third, replaced);
    await told(third, message('pt-BR', 'whatsappServer.syncPairing.unknown'));

    const late = await scannedText();
    running.ctx.clock.advance(10 * 60_000 + 1000);
    const fourth = newContact();
    await sendCode(fourth, late);
    await told(fourth, message('pt-BR', 'whatsappServer.syncPairing.expired'));
  });

  it('a conversation deleted takes its WhatsApp chat with it: the admin never gets it as theirs', async () => {
    const started = await post(
      running.ctx,
      '/api/chat/message',
      { message: 'Um segredo meu: vou abrir uma filial.', agentName: 'auxtrat' },
      { token: bruno.token, language: 'pt-BR' },
    );
    const secret = started.json<SendMessageResponse>().conversation.id;
    const res = await qr(bruno, 'pt-BR', secret);
    const text = new URL(res.json<{ link: string }>().link).searchParams.get('text')!;
    const contact = newContact();
    const chat = await sendCode(contact, text);
    await told(contact, message('pt-BR', 'whatsappServer.syncPairing.paired', { agent: auxtrat }));
    await writePaired(contact, chat, 'E a filial?');

    const deleted = await running.ctx.app.inject({
      method: 'DELETE',
      url: `/api/chat/conversations/${secret}`,
      headers: { authorization: `Bearer ${bruno.token}` },
    });
    expect(deleted.statusCode).toBe(200);
    expect((await conversations(running.ctx, admin)).map((c) => c.id)).not.toContain(chat);
    // Writing again, the person is a new contact of the number, with nothing of before.
    const since = running.events.length;
    const replies = running.replies.count;
    await driver.contactWrites(running, phone, contact, 'oi');
    const shown = await nextEvent(running, admin.user.id, 'whatsapp:new_message', since);
    const again = shown.payload as { conversation: { id: string }; message: { text: string } };
    expect(again.conversation.id).not.toBe(chat);
    const detail = await get(running.ctx, `/api/whatsapp/conversations/${again.conversation.id}`, {
      token: admin.token,
    });
    expect(detail.body).not.toContain('filial');
    // guia answers it, as any contact of the admin's number.
    const [reply] = await running.replies.settled({
      conversationId: again.conversation.id,
      since: replies,
    });
    expect(reply!.outcome).toBe('sent');
  });

  it("refuses another user's conversation", async () => {
    expect((await qr(admin)).statusCode).toBe(403);
  });
});
