import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WhatsAppConversation } from '@contrateia/shared';
import type { TestContext } from '../../../test/helpers';
import {
  get,
  login,
  message,
  post,
  registerAndLogin,
  UNLIMITED_ROUTES,
} from '../../../test/factories';
import { createGate, startFakeOpenAI, type FakeOpenAI } from '../../../test/fake-openai';
import { conversations, conversationDetail as detail } from '../../../test/whatsapp';
import {
  nextEvent,
  startRunning,
  transportDrivers,
  type Running,
  type TransportDriver,
} from '../../../test/whatsapp-drivers';
import { settles } from '../../../test/eventually';

// Human takeover: a message the owner writes to a contact, from the web or
// from the phone itself, pauses the agent in that conversation for WHATSAPP_TAKEOVER_MINUTES.
// The same cases run on both transports: the sandbox, and Baileys against the fake WhatsApp.

type Account = Awaited<ReturnType<typeof registerAndLogin>>;
const TAKEOVER_MINUTES = 30;
/** What the contact's phone got, or the owner's copy stored: through a socket, so not at once. */
const WAIT = { timeout: 10_000, interval: 50 };

const { drivers, newPhone } = transportDrivers({
  secret: 'sandbox-secret-of-the-takeover-tests',
  phonePrefix: '55317',
});

function start(driver: TransportDriver, ai: FakeOpenAI, takeoverMinutes = TAKEOVER_MINUTES) {
  return startRunning({
    limits: { routes: UNLIMITED_ROUTES },
    whatsapp: driver.whatsapp({ takeoverMinutes }),
    ai: { provider: 'openai', baseUrl: ai.url, model: 'test-model', timeoutMs: 5000 },
  });
}

describe.each(drivers)('human takeover ($name)', (driver) => {
  let ai: FakeOpenAI;
  let running: Running;
  let ctx: TestContext;
  let ana: Account;
  let bruno: Account;
  let phone: string;
  beforeAll(async () => {
    ai = await startFakeOpenAI({ chunks: ['Resposta do agente.'] });
    running = await start(driver, ai);
    ctx = running.ctx;
    ana = await registerAndLogin(ctx, { name: 'Ana' });
    bruno = await registerAndLogin(ctx, { name: 'Bruno' });
    phone = await driver.link(running, ana);
  });
  afterAll(async () => {
    await ctx.close();
    await ai.close();
  });

  /** A contact's message, once stored, and what came of its auto-reply. */
  async function write(from: string, text: string) {
    const since = running.replies.count;
    await driver.contactWrites(running, phone, from, text);
    return (await running.replies.settled({ userId: ana.user.id, since }))[0]!.outcome;
  }

  async function conversationWith(digits: string): Promise<WhatsAppConversation> {
    const found = (await conversations(ctx, ana)).find((c) => c.contact_number === digits);
    expect(found).toBeDefined();
    return found!;
  }

  async function signedInAgain(account: Account): Promise<Account> {
    const res = await login(ctx, { identifier: account.email, password: account.password });
    expect(res.statusCode).toBe(200);
    return { ...account, token: res.json<{ token: string }>().token };
  }

  const sendFromWeb = (id: string, text: string) =>
    post(ctx, `/api/whatsapp/conversations/${id}/messages`, { text }, { token: ana.token });
  const resume = (account: Account, id: string) =>
    post(ctx, `/api/whatsapp/conversations/${id}/resume`, {}, { token: account.token });

  it('a reply from the web pauses the agent: the contact’s next message is stored and shown, not answered; Resume answers the next one alone', async () => {
    const carla = newPhone();
    expect(await write(carla, 'Oi, vocês abrem hoje?')).toBe('sent');
    const { id } = await conversationWith(carla);
    expect((await conversationWith(carla)).paused_until).toBeNull();

    const since = running.events.length;
    expect((await sendFromWeb(id, 'Oi Carla, aqui é a Ana: abrimos às 10h.')).statusCode).toBe(200);
    expect(
      (await nextEvent(running, ana.user.id, 'whatsapp:conversation_changed', since)).payload,
    ).toEqual({ conversationId: id });
    const paused = await conversationWith(carla);
    expect(paused.paused_until).toBe(
      new Date(ctx.clock.now().getTime() + TAKEOVER_MINUTES * 60_000).toISOString(),
    );
    expect((await detail(ctx, ana, id)).paused_until).toBe(paused.paused_until);

    expect(await write(carla, 'Ótimo, obrigada! E amanhã?')).toBe('skipped');
    expect((await detail(ctx, ana, id)).messages.map((m) => [m.sender, m.text])).toEqual([
      ['contact', 'Oi, vocês abrem hoje?'],
      ['user', 'Resposta do agente.'],
      ['user', 'Oi Carla, aqui é a Ana: abrimos às 10h.'],
      ['contact', 'Ótimo, obrigada! E amanhã?'],
    ]);
    await settles(
      async () =>
        expect(await driver.sentTo(running, phone, carla)).toEqual([
          'Resposta do agente.',
          'Oi Carla, aqui é a Ana: abrimos às 10h.',
        ]),
      WAIT,
    );

    // Resumed: not paused any more, and the next message is answered alone (what came during the
    // pause stays the owner's to answer).
    const resumed = await resume(ana, id);
    expect(resumed.statusCode).toBe(200);
    expect(resumed.json<{ data: WhatsAppConversation }>().data).toMatchObject({
      id,
      paused_until: null,
    });
    const asked = ai.nextRequest();
    expect(await write(carla, 'Vocês entregam?')).toBe('sent');
    const { messages } = (await asked).body as { messages: { role: string; content: string }[] };
    expect(messages.at(-1)).toEqual({ role: 'user', content: 'Vocês entregam?' });
    await settles(
      async () =>
        expect(await driver.sentTo(running, phone, carla)).toEqual([
          'Resposta do agente.',
          'Oi Carla, aqui é a Ana: abrimos às 10h.',
          'Resposta do agente.',
        ]),
      WAIT,
    );
  });

  it('a reply from the phone pauses the agent too, stored as the owner’s; the pause ends by itself', async () => {
    const davi = newPhone();
    expect(await write(davi, 'Bom dia!')).toBe('sent');
    const { id } = await conversationWith(davi);

    const since = running.events.length;
    await driver.ownerWritesFromPhone(running, ana, phone, davi, 'Bom dia, Davi! Sou a Ana.');
    await nextEvent(running, ana.user.id, 'whatsapp:conversation_changed', since);
    const paused = await conversationWith(davi);
    expect(paused.paused_until).not.toBeNull();
    expect(new Date(paused.paused_until!).getTime()).toBeGreaterThan(ctx.clock.now().getTime());

    expect(await write(davi, 'Preciso de um orçamento.')).toBe('skipped');
    const shown = (await detail(ctx, ana, id)).messages;
    expect(shown.map((m) => [m.sender, m.text, m.agentName ?? null])).toEqual([
      ['contact', 'Bom dia!', null],
      ['user', 'Resposta do agente.', 'guia'],
      ['user', 'Bom dia, Davi! Sou a Ana.', null],
      ['contact', 'Preciso de um orçamento.', null],
    ]);

    // Past the pause: the next message is answered, the one of the pause never is. (The
    // sessions' time passes too: signed in again.)
    ctx.clock.advance((TAKEOVER_MINUTES + 1) * 60_000);
    ana = await signedInAgain(ana);
    bruno = await signedInAgain(bruno);
    expect((await conversationWith(davi)).paused_until).toBeNull();
    const asked = ai.nextRequest();
    expect(await write(davi, 'Ainda estão aí?')).toBe('sent');
    const { messages } = (await asked).body as { messages: { role: string; content: string }[] };
    expect(messages.at(-1)).toEqual({ role: 'user', content: 'Ainda estão aí?' });
    await settles(
      async () =>
        // What the number sent besides what the owner typed on the phone (the sandbox's phone
        // lists that too): the two replies.
        expect(
          (await driver.sentTo(running, phone, davi)).filter(
            (text) => text !== 'Bom dia, Davi! Sou a Ana.',
          ),
        ).toEqual(['Resposta do agente.', 'Resposta do agente.']),
      WAIT,
    );
  });

  it('turning AI on resumes at once', async () => {
    const eva = newPhone();
    expect(await write(eva, 'Olá')).toBe('sent');
    const { id } = await conversationWith(eva);
    expect((await sendFromWeb(id, 'Olá Eva, é a Ana.')).statusCode).toBe(200);
    expect((await conversationWith(eva)).paused_until).not.toBeNull();
    const on = await post(
      ctx,
      `/api/whatsapp/conversations/${id}/ai`,
      { enabled: true },
      { token: ana.token },
    );
    expect(on.statusCode).toBe(200);
    expect(on.json<{ data: WhatsAppConversation }>().data).toMatchObject({
      ai_enabled: true,
      paused_until: null,
    });
    expect(await write(eva, 'Qual o preço?')).toBe('sent');
  });

  it('a reply in the making when the owner writes is never sent', async () => {
    const fabio = newPhone();
    expect(await write(fabio, 'primeira')).toBe('sent');
    const { id } = await conversationWith(fabio);
    const gate = createGate();
    ai.setOptions({ chunks: ['Resposta tardia.'], hold: { afterChunks: 0, until: gate.opened } });
    try {
      const since = running.replies.count;
      const asked = ai.nextRequest();
      await driver.contactWrites(running, phone, fabio, 'segunda');
      // The provider is writing the reply (held) when the owner answers by hand.
      await asked;
      expect((await sendFromWeb(id, 'Deixa comigo, Fábio.')).statusCode).toBe(200);
      gate.open();
      expect((await running.replies.settled({ userId: ana.user.id, since }))[0]!.outcome).toBe(
        'skipped',
      );
    } finally {
      ai.setOptions({ chunks: ['Resposta do agente.'] });
    }
    await settles(
      async () =>
        expect(await driver.sentTo(running, phone, fabio)).toEqual([
          'Resposta do agente.',
          'Deixa comigo, Fábio.',
        ]),
      WAIT,
    );
    expect((await detail(ctx, ana, id)).messages.map((m) => m.text)).toEqual([
      'primeira',
      'Resposta do agente.',
      'segunda',
      'Deixa comigo, Fábio.',
    ]);
  });

  it('Resume is the owner’s only: another account’s, or a conversation that does not exist, is a 404', async () => {
    const gil = newPhone();
    await write(gil, 'oi');
    const { id } = await conversationWith(gil);
    expect((await sendFromWeb(id, 'oi, Gil')).statusCode).toBe(200);
    const other = await resume(bruno, id);
    expect(other.statusCode).toBe(404);
    expect(other.json().message).toBe(message('pt-BR', 'whatsappServer.conversationNotFound'));
    expect((await resume(ana, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
    expect((await post(ctx, `/api/whatsapp/conversations/${id}/resume`, {})).statusCode).toBe(401);
    // Still paused: nobody else's word moved it.
    expect((await conversationWith(gil)).paused_until).not.toBeNull();
  });
});

describe.each(drivers)('WHATSAPP_TAKEOVER_MINUTES=0 ($name)', (driver) => {
  let ai: FakeOpenAI;
  let running: Running;
  beforeAll(async () => {
    ai = await startFakeOpenAI({ chunks: ['Resposta.'] });
    running = await start(driver, ai, 0);
  });
  afterAll(async () => {
    await running.ctx.close();
    await ai.close();
  });

  it('never pauses: after the owner’s replies from the web and the phone the contact is answered', async () => {
    const { ctx, replies } = running;
    const ana = await registerAndLogin(ctx, { name: 'Ana' });
    const phone = await driver.link(running, ana);
    const hugo = newPhone();
    const write = async (text: string) => {
      const since = replies.count;
      await driver.contactWrites(running, phone, hugo, text);
      return (await replies.settled({ userId: ana.user.id, since }))[0]!.outcome;
    };
    expect(await write('oi')).toBe('sent');
    const [only] = await conversations(ctx, ana);
    expect(
      (
        await post(
          ctx,
          `/api/whatsapp/conversations/${only!.id}/messages`,
          { text: 'Oi Hugo!' },
          { token: ana.token },
        )
      ).statusCode,
    ).toBe(200);
    expect((await conversations(ctx, ana))[0]!.paused_until).toBeNull();
    expect(await write('tudo bem?')).toBe('sent');
    await driver.ownerWritesFromPhone(running, ana, phone, hugo, 'Tudo ótimo!');
    await settles(
      async () =>
        expect((await detail(ctx, ana, only!.id)).messages.at(-1)?.text).toBe('Tudo ótimo!'),
      WAIT,
    );
    expect((await conversations(ctx, ana))[0]!.paused_until).toBeNull();
    expect(await write('e o pedido?')).toBe('sent');
    expect(
      (await get(ctx, `/api/whatsapp/conversations/${only!.id}`, { token: ana.token })).json<{
        data: WhatsAppConversation;
      }>().data.paused_until,
    ).toBeNull();
  });
});
