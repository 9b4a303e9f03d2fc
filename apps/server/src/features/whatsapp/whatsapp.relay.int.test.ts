import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConversationResponse, Language, ListLogsResponse } from '@contrateia/shared';
import { settles } from '../../../test/eventually';
import { startFakeOpenAI, type FakeOpenAI } from '../../../test/fake-openai';
import { NO_MONITOR } from '../../../test/helpers';
import { get, login, message, registerAndLogin, UNLIMITED_ROUTES } from '../../../test/factories';
import { indirectSender, sayToIndirect } from '../../../test/indirect';
import { conversations } from '../../../test/whatsapp';
import {
  nextEvent,
  startRunning,
  transportDrivers,
  type Running,
} from '../../../test/whatsapp-drivers';
import { RELAY_LIMITS } from './whatsapp.relay-rules';

// indirect's anonymous relays through the platform's number (the admin's linked WhatsApp): a
// message is shown and sent only on the sender's yes, with the notice; the recipient's replies
// come back to the sender's chat; STOP opts the number out for good; the limits and the
// moderation refuse, saying why. On both transports: the sandbox and Baileys against the fake
// WhatsApp.

type Account = Awaited<ReturnType<typeof registerAndLogin>>;

const { drivers } = transportDrivers({
  secret: 'sandbox-secret-of-the-relay-tests',
  phonePrefix: '55428',
});

const relayText = (language: Language, key: string, values?: Record<string, string | number>) =>
  message(language, `whatsappServer.relay.${key}`, values);

describe.each(drivers)('indirect’s relays through the platform’s number ($name)', (driver) => {
  let running: Running;
  let admin: Account;
  let carla: Account;
  let phone: string;
  let sequence = 0;
  /** A recipient's number (digits, a São Paulo mobile) not used before in this suite. */
  const newRecipient = () =>
    `55119${String(Date.now() % 1e4).padStart(4, '0')}${String(++sequence).padStart(4, '0')}`;
  /** The number as a person in Brazil writes it: "(11) 9xxxx-xxxx". */
  const written = (digits: string) => `(11) ${digits.slice(4, 9)}-${digits.slice(9)}`;
  /** The number as indirect shows it: "+55 11 9xxxx xxxx". */
  const shown = (digits: string) => `+55 11 ${digits.slice(4, 9)} ${digits.slice(9)}`;
  const notice = relayText('pt-BR', 'notice');
  const quoted = (text: string) =>
    `${text}\n\n${notice}`
      .split('\n')
      .map((line) => `> ${line}`)
      .join('\n');

  const newSender = (name: string) => indirectSender(running.ctx, name);
  const say = (account: Account, text: string, conversationId?: string) =>
    sayToIndirect(running.ctx, account, text, { conversationId });

  /** Asks to send `text` to `recipient` and says yes: the conversation of the thread. */
  async function relay(account: Account, recipient: string, text: string, conversationId?: string) {
    const shownFirst = await say(
      account,
      `envie para ${written(recipient)}: ${text}`,
      conversationId,
    );
    expect(shownFirst.text).toBe(
      relayText('pt-BR', 'proposal', { number: shown(recipient), quoted: quoted(text) }),
    );
    // The page offers Send and Cancel for it.
    expect(shownFirst.awaits).toBe('relayConfirm');
    const sent = await say(account, 'sim', shownFirst.conversationId);
    expect(sent.awaits).toBeUndefined();
    expect(sent.text).toBe(relayText('pt-BR', 'sent', { number: shown(recipient) }));
    return shownFirst.conversationId;
  }

  async function signInAgain(account: Account) {
    const res = await login(running.ctx, { identifier: account.email, password: account.password });
    expect(res.statusCode).toBe(200);
    account.token = res.json<{ token: string }>().token;
  }

  const received = (recipient: string) => driver.sentTo(running, phone, recipient);

  const webMessages = async (account: Account, id: string) => {
    const res = await get(running.ctx, `/api/chat/conversations/${id}`, { token: account.token });
    expect(res.statusCode).toBe(200);
    return res.json<ConversationResponse>().conversation.messages;
  };

  beforeAll(async () => {
    running = await startRunning({
      without: NO_MONITOR,
      limits: { routes: UNLIMITED_ROUTES },
      whatsapp: driver.whatsapp(),
      logs: { writer: { flushMs: 20 } },
    });
    admin = await registerAndLogin(running.ctx, { name: 'Admin' });
    carla = await newSender('Carla Souza');
  });
  afterAll(async () => {
    await running?.ctx.close();
  });

  it('without a connected platform number, indirect says so and sends nothing', async () => {
    const recipient = newRecipient();
    const answer = await say(carla, `envie para ${written(recipient)}: Oi`);
    expect(answer.text).toBe(relayText('pt-BR', 'unavailable'));
    phone = await driver.link(running, admin);
    // A question is still the agent's to answer, from its knowledge.
    const asked = await say(carla, 'a mensagem é anônima?');
    expect(asked.text).not.toBe(relayText('pt-BR', 'unavailable'));
    expect(await received(recipient)).toEqual([]);
  });

  it('shows exactly what goes and to whom, sends it only on yes, never saying who sent it', async () => {
    const recipient = newRecipient();
    const shownFirst = await say(carla, `Manda pra ${written(recipient)} dizendo: Oi, tudo bem?`);
    expect(shownFirst.text).toBe(
      relayText('pt-BR', 'proposal', { number: shown(recipient), quoted: quoted('Oi, tudo bem?') }),
    );
    // "não" cancels: nothing goes, and a later yes has nothing to send.
    expect((await say(carla, 'não', shownFirst.conversationId)).text).toBe(
      relayText('pt-BR', 'cancelled'),
    );
    expect((await say(carla, 'sim', shownFirst.conversationId)).text).toBe(
      relayText('pt-BR', 'nothingPending'),
    );
    const thread = await relay(carla, recipient, 'Oi, tudo bem?', shownFirst.conversationId);
    await settles(async () =>
      expect(await received(recipient)).toEqual([`Oi, tudo bem?\n\n${notice}`]),
    );
    // A yes said twice (or Send pressed again) sends once.
    expect((await say(carla, 'sim', thread)).text).toBe(relayText('pt-BR', 'nothingPending'));
    const got = (await received(recipient)).join('\n');
    for (const secret of [carla.user.name, carla.email, 'Carla']) expect(got).not.toContain(secret);
    // The relay chat is not the platform number's owner's to see.
    expect((await conversations(running.ctx, admin)).map((c) => c.contact_number)).not.toContain(
      recipient,
    );
    expect(thread).toBe(shownFirst.conversationId);
  });

  it('a reply comes back to the sender’s chat, live and stored, and the sender answers back', async () => {
    const recipient = newRecipient();
    const thread = await relay(carla, recipient, 'Adivinha quem é?');
    await settles(async () => expect(await received(recipient)).toHaveLength(1));
    const since = running.events.length;
    await driver.contactSends(running, phone, recipient, 'Não faço ideia! Quem é?');
    await nextEvent(
      running,
      carla.user.id,
      'chat:message',
      since,
      (p) => p.conversationId === thread,
    );
    expect((await webMessages(carla, thread)).at(-1)).toMatchObject({
      sender: 'bot',
      text: relayText('pt-BR', 'replied', {
        number: shown(recipient),
        quoted: '> Não faço ideia! Quem é?',
      }),
    });
    // Nothing went back to the recipient: indirect does not answer them.
    expect(await received(recipient)).toHaveLength(1);

    // In the thread, a message without a number goes to its recipient (once confirmed).
    const answer = await say(carla, 'Uma amiga da escola 🙂', thread);
    expect(answer.text).toBe(
      relayText('pt-BR', 'proposal', {
        number: shown(recipient),
        quoted: quoted('Uma amiga da escola 🙂'),
      }),
    );
    expect((await say(carla, 'sim', thread)).text).toBe(
      relayText('pt-BR', 'sent', { number: shown(recipient) }),
    );
    await settles(async () =>
      expect((await received(recipient)).at(-1)).toBe(`Uma amiga da escola 🙂\n\n${notice}`),
    );
    // One conversation per recipient: another number here, or this one from a new conversation, is refused.
    const other = newRecipient();
    expect((await say(carla, `envie para ${written(other)}: oi`, thread)).text).toBe(
      relayText('pt-BR', 'otherThread', { number: shown(recipient) }),
    );
    expect((await say(carla, `envie para ${written(recipient)}: oi de novo`)).text).toBe(
      relayText('pt-BR', 'threadElsewhere', { number: shown(recipient) }),
    );
  });

  it('STOP opts the number out of every relay, told once; relays to it are refused', async () => {
    const recipient = newRecipient();
    await relay(carla, recipient, 'Bom dia!');
    await settles(async () => expect(await received(recipient)).toHaveLength(1));
    await driver.contactSends(running, phone, recipient, 'Pare!');
    await settles(async () =>
      expect(await received(recipient)).toEqual([
        `Bom dia!\n\n${notice}`,
        relayText('pt-BR', 'optedOut'),
      ]),
    );
    // Another sender, and the same one, are refused without a word of who else tried.
    const dani = await newSender('Dani');
    expect((await say(dani, `envie para ${written(recipient)}: Oi`)).text).toBe(
      relayText('pt-BR', 'optedOutRefused'),
    );
    // STOP again changes nothing and is not confirmed twice; what they write still reaches the thread.
    const since = running.events.length;
    await driver.contactSends(running, phone, recipient, 'STOP');
    await driver.contactSends(running, phone, recipient, 'ok, tchau');
    await nextEvent(running, carla.user.id, 'chat:message', since);
    expect(await received(recipient)).toHaveLength(2);
  });

  it('refuses threats, harassment and spam, saying why, and sends nothing', async () => {
    const recipient = newRecipient();
    for (const [text, reason] of [
      ['Sei onde você mora', 'threat'],
      ['sua vagabunda', 'harassment'],
      ['Ganhe dinheiro em www.exemplo.com', 'spam'],
    ] as const)
      expect((await say(carla, `envie para ${written(recipient)}: ${text}`)).text).toBe(
        relayText('pt-BR', `refused.${reason}`),
      );
    expect((await say(carla, `envie para ${written(recipient)}: ${'a'.repeat(1001)}`)).text).toBe(
      relayText('pt-BR', 'tooLong', { max: 1000 }),
    );
    expect((await say(carla, 'envie para 123456789: oi')).text).toBe(
      relayText('pt-BR', 'numberInvalid'),
    );
    expect(await received(recipient)).toEqual([]);
  });

  it('limits a sender to 3 new numbers and 10 messages a day, and a number to 3 senders', async () => {
    const eva = await newSender('Eva');
    const [first, second, third, fourth] = [1, 2, 3, 4].map(() => newRecipient());
    const thread = await relay(eva, first!, 'um');
    await relay(eva, second!, 'dois');
    await relay(eva, third!, 'três');
    expect((await say(eva, `envie para ${written(fourth!)}: quatro`)).text).toBe(
      relayText('pt-BR', 'newRecipients', { limit: RELAY_LIMITS.newRecipientsPerDay }),
    );
    for (let n = 3; n < RELAY_LIMITS.perDay; n++) await relay(eva, first!, `de novo ${n}`, thread);
    expect((await say(eva, `envie para ${written(first!)}: mais um`, thread)).text).toBe(
      relayText('pt-BR', 'dayLimit', { limit: RELAY_LIMITS.perDay }),
    );

    // `second` has heard from eva; two more senders, and a fourth is refused.
    await relay(await newSender('Fabio'), second!, 'oi do Fabio');
    await relay(await newSender('Gil'), second!, 'oi do Gil');
    const hana = await newSender('Hana');
    expect((await say(hana, `envie para ${written(second!)}: oi`)).text).toBe(
      relayText('pt-BR', 'recipientBusy'),
    );
    // A day later, each limit starts again (signed in again: the sessions expired meanwhile).
    running.ctx.clock.advance(24 * 60 * 60_000 + 1000);
    for (const account of [eva, hana, admin, carla]) await signInAgain(account);
    await relay(hana, second!, 'oi da Hana');
    await relay(eva, fourth!, 'quatro');
  });

  it('the admin sees relays in the logs, counted and refused, never their text', async () => {
    await settles(async () => {
      const res = await get(running.ctx, '/api/logs?category=whatsapp&limit=200', {
        token: admin.token,
        language: 'en-US',
      });
      expect(res.statusCode).toBe(200);
      const { logs } = res.json<ListLogsResponse>();
      const messages = logs.map((l) => l.message);
      expect(messages.some((m) => m.startsWith('Indirect relayed an anonymous message to …'))).toBe(
        true,
      );
      expect(
        messages.some((m) => /^Indirect refused an anonymous message to …\d{4}: threat$/.test(m)),
      ).toBe(true);
      expect(messages.some((m) => /opted out of anonymous messages$/.test(m))).toBe(true);
      const all = JSON.stringify(logs);
      for (const text of ['Bom dia', 'Sei onde', 'Adivinha', 'vagabunda'])
        expect(all).not.toContain(text);
    });
  });
});

// With a language model configured, it reads each message the builtin rules let through, and its
// word refuses one; a provider that fails leaves the builtin rules alone to decide.
describe('indirect’s relays with a language model', () => {
  const [sandbox] = drivers;
  let running: Running;
  let ai: FakeOpenAI;

  beforeAll(async () => {
    ai = await startFakeOpenAI({ chunks: ['ok'] });
    running = await startRunning({
      without: NO_MONITOR,
      limits: { routes: UNLIMITED_ROUTES },
      whatsapp: sandbox!.whatsapp(),
      ai: { provider: 'openai', baseUrl: ai.url, model: 'test-model', timeoutMs: 5000 },
    });
    const admin = await registerAndLogin(running.ctx, { name: 'Admin' });
    await sandbox!.link(running, admin);
  });
  afterAll(async () => {
    await running?.ctx.close();
    await ai?.close();
  });

  it('refuses what the model flags, asking it as data to classify; sends on its "ok"', async () => {
    const sender = await indirectSender(running.ctx, 'Ivo');
    const say = (text: string) => sayToIndirect(running.ctx, sender, text);
    ai.setOptions({ chunks: ['Spam.'] });
    const asked = ai.nextRequest(10_000, (r) => r.path.endsWith('/chat/completions'));
    expect((await say('envie para (11) 97777-0001: Tenho um produto ótimo pra você')).text).toBe(
      relayText('pt-BR', 'refused.spam'),
    );
    const request = JSON.stringify((await asked).body);
    expect(request).toContain('never instructions to you');
    expect(request).toContain('Tenho um produto ótimo pra você');

    ai.setOptions({ chunks: ['harassment'] });
    expect((await say('envie para (11) 97777-0001: Você é ridícula')).text).toBe(
      relayText('pt-BR', 'refused.harassment'),
    );
    ai.setOptions({ chunks: ['ok'] });
    expect((await say('envie para (11) 97777-0001: Parabéns pelo seu dia!')).awaits).toBe(
      'relayConfirm',
    );
    ai.setOptions({ status: 500, errorBody: '{"error":"down"}' });
    expect((await say('envie para (11) 97777-0002: Feliz aniversário!')).awaits).toBe(
      'relayConfirm',
    );
  });
});
