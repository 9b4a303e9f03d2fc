import { randomBytes } from 'node:crypto';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { WebSocketServer } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type {
  Language,
  SandboxPhoneEvent,
  ServerEventName,
  ServerEventPayload,
  WhatsAppConversationDetail,
  WhatsAppStatus,
} from '@contrateia/shared';
import { settles, until } from '../../../test/eventually';
import { createTestApp, type TestContext, NO_MONITOR } from '../../../test/helpers';
import { get, message, post, registerAndLogin, UNLIMITED_ROUTES } from '../../../test/factories';
import { createGate, startFakeOpenAI, type FakeOpenAI } from '../../../test/fake-openai';
import { createEventHub, type HubEvent } from '@/lib/event-hub';
import { whatsappMessages } from './whatsapp.table';
import { findReplyContext, insertMessage, listReplyHistory } from './whatsapp.repository';
import { DEFAULT_HISTORY_BUDGET_CHARS } from '@/features/ai/ai.service';
import { qrText } from '../../../test/qr';
import { startFakeWhatsApp, type FakeWhatsApp, type SentText } from '../../../test/fake-whatsapp';
import { repliesOf, type Reply } from '../../../test/replies';
import {
  conversations,
  conversationDetail as conversation,
  chooseAnsweringAgent,
  linkSandbox,
  sandboxPhoneEvents,
} from '../../../test/whatsapp';

type Account = Awaited<ReturnType<typeof registerAndLogin>>;

/** What the tests watch: every event for accounts' browsers, and every auto-reply asked for. */
function observers() {
  const hub = createEventHub();
  const events: HubEvent[] = [];
  hub.subscribe((event) => events.push(event));
  let followed: ReturnType<typeof repliesOf> | undefined;
  const replies = () => {
    if (!followed) throw new Error('observers: call follow(ctx) once the app is made');
    return followed;
  };
  /** The first event (from `since` on) matching, as soon as it is emitted. */
  function nextEvent(
    userId: string,
    name: ServerEventName,
    since = events.length,
  ): Promise<HubEvent> {
    return until(() => events.slice(since).find((e) => e.userId === userId && e.name === name), {
      changes: (onChange) => hub.subscribe(onChange),
      what: `the event ${name} for ${userId}`,
    });
  }
  /** The account's `count` replies asked for from the `since`th on, once settled. */
  function settled(userId: string, since = replies().count, count = 1): Promise<Reply[]> {
    return replies().settled({ userId, since, count });
  }
  return {
    hub,
    events,
    /** The auto-replies asked for so far (one per message that may be answered). */
    get replies() {
      return replies().all;
    },
    nextEvent,
    settled,
    /** Follows the auto-replies of `ctx`, the app just made with these observers. */
    follow(ctx: TestContext) {
      followed = repliesOf(ctx);
    },
  };
}

type Observers = ReturnType<typeof observers>;

/** SANDBOX_SECRET: the tests read any linked phone's events with it (sandbox.access.int.test.ts tests who else may). */
const SANDBOX_SECRET = 'sandbox-secret-of-the-tests';
const bySecret = { 'x-sandbox-secret': SANDBOX_SECRET };

function sandboxDeps(
  watch: Observers,
  qr?: { refreshMs: number; limit: number },
): Parameters<typeof createTestApp>[0] {
  return {
    limits: { routes: UNLIMITED_ROUTES },
    events: watch.hub,
    // The owner's messages here do not pause the agent: the takeover has its own
    // suite, whatsapp.takeover.int.test.ts.
    whatsapp: { transport: 'sandbox', qr, sandboxSecret: SANDBOX_SECRET, takeoverMinutes: 0 },
  };
}

const tokenOf = (qrText: string) => new URL(qrText).searchParams.get('pair')!;

let phoneSequence = 0;
/** A sandbox number no other test uses. */
function newPhone(): string {
  phoneSequence += 1;
  return `55119${String(Date.now() % 1e6).padStart(6, '0')}${String(phoneSequence).padStart(2, '0')}`;
}

async function status(ctx: TestContext, account: Account): Promise<WhatsAppStatus> {
  const res = await get(ctx, '/api/whatsapp/status', { token: account.token });
  expect(res.statusCode).toBe(200);
  return res.json<{ data: WhatsAppStatus }>().data;
}

/** Connect, read the QR, pair the phone: the account is ready on it. */
async function link(ctx: TestContext, account: Account, phone = newPhone()): Promise<string> {
  await linkSandbox(ctx, account, phone);
  expect((await status(ctx, account)).isReady).toBe(true);
  return phone;
}

const inbound = (ctx: TestContext, body: Record<string, unknown>) =>
  post(ctx, '/api/whatsapp/sandbox/inbound', body);

async function phoneEvents(ctx: TestContext, phone: string): Promise<SandboxPhoneEvent[]> {
  return sandboxPhoneEvents(ctx, phone, bySecret);
}

const contact = (digits: string) => `${digits}@s.whatsapp.net`;

describe('WhatsApp through the sandbox', () => {
  let ctx: TestContext;
  let watch: Observers;
  let ana: Account;
  let bruno: Account;
  let anaPhone: string;
  beforeAll(async () => {
    watch = observers();
    ctx = await createTestApp(sandboxDeps(watch));
    watch.follow(ctx);
    ana = await registerAndLogin(ctx, { name: 'Ana' });
    bruno = await registerAndLogin(ctx, { name: 'Bruno' });
    await chooseAnsweringAgent(ctx, ana);
  });
  afterAll(async () => ctx.close());

  it('pairs by QR: the QR carries a one-time link on PUBLIC_URL, and the account is ready on the number', async () => {
    expect(
      ctx.logs.filter(
        (line) => line.includes('WHATSAPP_TRANSPORT=sandbox') && line.includes('"level":40'),
      ),
    ).toHaveLength(1);
    expect(await status(ctx, ana)).toMatchObject({ state: 'disconnected', lastCloseReason: null });
    const since = watch.events.length;
    const connect = await post(ctx, '/api/whatsapp/connect', {}, { token: ana.token });
    expect(connect.statusCode).toBe(200);
    const data = connect.json<{ data: WhatsAppStatus }>().data;
    expect(data).toMatchObject({ state: 'qr', isReady: false, whitelistMode: false, phone: null });
    const text = qrText(data.qrCode!);
    expect(text).toMatch(/^https:\/\/contrateia\.test\/sandbox\/phone\?pair=[A-Za-z0-9_-]{32}$/);
    expect((await watch.nextEvent(ana.user.id, 'whatsapp:qr', since)).payload).toEqual({
      qrCode: data.qrCode,
    });

    // Connecting again while the QR waits changes nothing.
    const again = await post(ctx, '/api/whatsapp/connect', {}, { token: ana.token });
    expect(again.json<{ data: WhatsAppStatus }>().data.qrCode).toBe(data.qrCode);

    const wrong = await post(
      ctx,
      '/api/whatsapp/sandbox/pair',
      { token: 'x'.repeat(32), phone: '5511900000000' },
      { language: 'en-US' },
    );
    expect(wrong.statusCode).toBe(404);
    expect(wrong.json().message).toBe(message('en-US', 'whatsappServer.sandboxPairNotFound'));

    anaPhone = newPhone();
    const pair = await post(ctx, '/api/whatsapp/sandbox/pair', {
      token: tokenOf(text),
      phone: anaPhone,
    });
    expect(pair.statusCode).toBe(200);
    expect((await watch.nextEvent(ana.user.id, 'whatsapp:ready', since)).payload).toEqual({
      phone: anaPhone,
    });
    expect(await status(ctx, ana)).toMatchObject({
      isReady: true,
      state: 'ready',
      phone: anaPhone,
      qrCode: null,
      conversationsCount: 0,
      lastCloseReason: null,
    });

    const used = await post(
      ctx,
      '/api/whatsapp/sandbox/pair',
      { token: tokenOf(text), phone: anaPhone },
      { language: 'es-ES' },
    );
    expect(used.statusCode).toBe(404);
    expect(used.json().message).toBe(message('es-ES', 'whatsappServer.sandboxPairNotFound'));
    // Connecting once ready stays ready, with no new QR.
    const ready = await post(ctx, '/api/whatsapp/connect', {}, { token: ana.token });
    expect(ready.json<{ data: WhatsAppStatus }>().data).toMatchObject({
      state: 'ready',
      qrCode: null,
    });
    // The other account sees none of it.
    expect(await status(ctx, bruno)).toMatchObject({
      state: 'disconnected',
      phone: null,
      qrCode: null,
    });
  });

  it('stores a direct message once, counts it unread, shows it, and guia answers it in the contact language', async () => {
    const jid = contact('5521988887777');
    const since = watch.events.length;
    const replied = watch.settled(ana.user.id);
    const first = await inbound(ctx, {
      to: anaPhone,
      from: jid,
      text: 'Olá, quais agentes vocês têm disponíveis?',
      id: 'WA-1',
      pushName: 'Carla',
    });
    expect(first.statusCode).toBe(200);
    expect(first.json().id).toBe('WA-1');
    const again = await inbound(ctx, {
      to: anaPhone,
      from: jid,
      text: 'Olá, quais agentes vocês têm disponíveis?',
      id: 'WA-1',
      pushName: 'Carla',
    });
    expect(again.statusCode).toBe(200);
    expect((await replied)[0]!.outcome).toBe('sent');

    const [listed, ...rest] = await conversations(ctx, ana);
    expect(rest).toEqual([]);
    expect(listed).toMatchObject({
      contact_name: 'Carla',
      contact_number: '5521988887777',
      ai_enabled: true,
      is_whitelisted: false,
      status: 'active',
      unread_count: 1,
      agent_id: null,
    });
    const newMessages = watch.events.slice(since).filter((e) => e.name === 'whatsapp:new_message');
    expect(newMessages).toHaveLength(1);
    const sent = await watch.nextEvent(ana.user.id, 'whatsapp:message_sent', since);
    expect(sent.payload).toMatchObject({
      conversationId: listed!.id,
      message: { sender: 'user', agentName: 'guia' },
    });

    // What the number sent: composing, then the reply (which ends the typing) to the contact's
    // JID as received, then the contact's message marked read (answered, it is read).
    await settles(async () =>
      expect((await phoneEvents(ctx, anaPhone)).map((e) => e.type)).toContain('read'),
    );
    const out = await phoneEvents(ctx, anaPhone);
    expect(out.map((e) => (e.type === 'presence' ? e.state : e.type))).toEqual([
      'composing',
      'message',
      'read',
    ]);
    expect(out[2]).toMatchObject({ type: 'read', from: jid, ids: ['WA-1'] });
    const reply = out.find((e) => e.type === 'message');
    expect(reply).toMatchObject({ to: jid });
    // Written as WhatsApp shows text: no Markdown marks or links; the page it names, as a full address.
    const replyText = reply?.type === 'message' ? reply.text : '';
    expect(replyText).not.toMatch(/\*\*|\]\(/);
    expect(replyText).toContain('https://contrateia.test/dashboard');

    const detail = await conversation(ctx, ana, listed!.id);
    expect(detail.unread_count).toBe(0);
    expect(detail.messages.map((m) => m.sender)).toEqual(['contact', 'user']);
    expect(detail.messages[1]!.text).toBe(reply!.type === 'message' ? reply!.text : '');
    expect(detail.messages[1]!.agentName).toBe('guia');
    // Opening it sent the read receipt.
    expect((await phoneEvents(ctx, anaPhone)).at(-1)).toMatchObject({
      type: 'read',
      from: jid,
      ids: ['WA-1'],
    });
    expect(
      await ctx.database.db
        .select()
        .from(whatsappMessages)
        .where(eq(whatsappMessages.waId, 'WA-1')),
    ).toHaveLength(1);
  });

  it('never stores or answers groups, statuses, broadcasts or channels', async () => {
    const before = await conversations(ctx, ana);
    const eventsBefore = (await phoneEvents(ctx, anaPhone)).length;
    for (const body of [
      { from: '120363025246125486@g.us', participant: contact('5521977776666'), text: 'oi grupo' },
      { from: 'status@broadcast', participant: contact('5521977776666'), text: 'meu status' },
      { from: '1234567890@broadcast', text: 'lista de transmissão' },
      { from: '120363111111111111@newsletter', text: 'canal' },
    ]) {
      const res = await inbound(ctx, { to: anaPhone, ...body });
      expect(res.statusCode).toBe(200);
    }
    expect(await conversations(ctx, ana)).toEqual(before);
    expect(await phoneEvents(ctx, anaPhone)).toHaveLength(eventsBefore);
  });

  it('knows a contact by @lid and phone JID as one conversation, and answers the JID as received', async () => {
    const lid = '184467440737095@lid';
    const phoneJid = contact('5531966665555');
    const since = watch.replies.length;
    await inbound(ctx, {
      to: anaPhone,
      from: lid,
      fromAlt: phoneJid,
      text: 'Hello, what can you do for me?',
      pushName: 'Dan',
    });
    await watch.settled(ana.user.id, since);
    await inbound(ctx, { to: anaPhone, from: phoneJid, text: 'And how much does it cost?' });
    await watch.settled(ana.user.id, since, 2);
    const dans = (await conversations(ctx, ana)).filter((c) => c.contact_name === 'Dan');
    expect(dans).toHaveLength(1);
    expect(dans[0]!.contact_number).toBe('5531966665555');
    const replies = (await phoneEvents(ctx, anaPhone)).filter(
      (e) => e.type === 'message' && (e.to === lid || e.to === phoneJid),
    );
    expect(replies.map((e) => (e.type === 'message' ? e.to : ''))).toEqual([lid, lid]);
  });

  it('many contacts at once: each is answered once, and the phone sent each one typing, then the reply, in that order', async () => {
    const since = watch.replies.length;
    const numbers = Array.from(
      { length: 12 },
      (_, i) => `55479100000${String(i).padStart(2, '0')}`,
    );
    const before = (await phoneEvents(ctx, anaPhone)).length;
    await Promise.all(
      numbers.map((digits) =>
        inbound(ctx, { to: anaPhone, from: contact(digits), text: 'Como eu contrato um agente?' }),
      ),
    );
    const done = await watch.settled(ana.user.id, since, numbers.length);
    expect(done.map((d) => d.outcome)).toEqual(numbers.map(() => 'sent'));
    // Each contact: typing, the reply, then its message marked read.
    await settles(async () =>
      expect((await phoneEvents(ctx, anaPhone)).slice(before)).toHaveLength(numbers.length * 3),
    );
    const sent = (await phoneEvents(ctx, anaPhone)).slice(before);
    expect(sent).toHaveLength(numbers.length * 3);
    for (const digits of numbers)
      expect(sent.filter((e) => e.type === 'read' && e.from === contact(digits))).toHaveLength(1);
    for (const digits of numbers) {
      const toContact = sent.filter((e) => e.type !== 'read' && e.to === contact(digits));
      expect(toContact.map((e) => (e.type === 'presence' ? e.state : e.type))).toEqual([
        'composing',
        'message',
      ]);
    }
  });

  it('learns what WhatsApp tells of a contact later (its number, its other JID, a new name) and shows it with the message', async () => {
    const lid = '99887766554433@lid';
    const phoneJid = contact('5541977776666');
    const since = watch.replies.length;
    const events = watch.events.length;
    await inbound(ctx, { to: anaPhone, from: lid, text: 'Oi, tudo bem?', pushName: 'Lia' });
    await watch.settled(ana.user.id, since);
    const [first] = (await conversations(ctx, ana)).filter((c) => c.contact_name === 'Lia');
    expect(first).toMatchObject({ contact_number: '', unread_count: 1 });

    await inbound(ctx, {
      to: anaPhone,
      from: lid,
      fromAlt: phoneJid,
      text: 'Vocês têm agentes de vendas?',
      pushName: 'Lia Souza',
    });
    await watch.settled(ana.user.id, since, 2);
    const shown = watch.events
      .slice(events)
      .filter((e) => e.name === 'whatsapp:new_message' && e.userId === ana.user.id);
    expect(shown.at(-1)!.payload).toMatchObject({
      conversation: {
        id: first!.id,
        contact_name: 'Lia Souza',
        contact_number: '5541977776666',
        unread_count: 2,
      },
      message: { sender: 'contact', text: 'Vocês têm agentes de vendas?' },
    });
    // Known by the phone JID alone now too: the same conversation.
    await inbound(ctx, { to: anaPhone, from: phoneJid, text: 'E quanto custa?' });
    await watch.settled(ana.user.id, since, 3);
    const lias = (await conversations(ctx, ana)).filter((c) => c.contact_name === 'Lia Souza');
    expect(lias).toEqual([expect.objectContaining({ id: first!.id, unread_count: 3 })]);
  });

  it('in whitelist mode, a contact not on the list is pending and not answered; AI off is not answered either', async () => {
    const settings = await post(
      ctx,
      '/api/whatsapp/settings',
      { whitelistMode: true },
      { token: ana.token },
    );
    expect(settings.statusCode).toBe(200);
    expect(settings.json().data.whitelistMode).toBe(true);
    const jid = contact('5541955554444');
    let since = watch.replies.length;
    await inbound(ctx, { to: anaPhone, from: jid, text: 'Oi, alguém aí?', pushName: 'Eva' });
    expect((await watch.settled(ana.user.id, since))[0]!.outcome).toBe('skipped');
    const eva = (await conversations(ctx, ana)).find((c) => c.contact_name === 'Eva')!;
    expect(eva.status).toBe('pending');
    expect((await conversation(ctx, ana, eva.id)).messages.map((m) => m.sender)).toEqual([
      'contact',
    ]);

    const whitelisted = await post(
      ctx,
      `/api/whatsapp/conversations/${eva.id}/whitelist`,
      { isWhitelisted: true },
      { token: ana.token },
    );
    expect(whitelisted.json().data).toMatchObject({ is_whitelisted: true, status: 'active' });
    const toggled = watch.events.length;
    const off = await post(
      ctx,
      `/api/whatsapp/conversations/${eva.id}/ai`,
      { enabled: false },
      { token: ana.token },
    );
    expect(off.json().data.ai_enabled).toBe(false);
    expect((await watch.nextEvent(ana.user.id, 'whatsapp:ai_toggled', toggled)).payload).toEqual({
      conversationId: eva.id,
      enabled: false,
    });
    since = watch.replies.length;
    await inbound(ctx, { to: anaPhone, from: jid, text: 'Oi de novo' });
    expect((await watch.settled(ana.user.id, since))[0]!.outcome).toBe('skipped');
    expect((await conversation(ctx, ana, eva.id)).messages.map((m) => m.sender)).toEqual([
      'contact',
      'contact',
    ]);

    await post(ctx, '/api/whatsapp/settings', { whitelistMode: false }, { token: ana.token });
    expect((await conversations(ctx, ana)).every((c) => c.status === 'active')).toBe(true);
  });

  it('the assigned agent answers; only the caller’s hired, active agents may be assigned', async () => {
    const hire = await post(
      ctx,
      '/api/agents/hire',
      { agentId: 'assistente' },
      { token: ana.token },
    );
    expect(hire.statusCode).toBe(200);
    const available = (
      await get(ctx, '/api/whatsapp/agents/available', { token: ana.token })
    ).json().data as { id: string; name: string }[];
    expect(available.map((a) => a.name).sort()).toEqual(['assistente', 'guia']);
    const assistente = available.find((a) => a.name === 'assistente')!;
    const brunoAgents = (
      await get(ctx, '/api/whatsapp/agents/available', { token: bruno.token })
    ).json().data as { name: string }[];
    expect(brunoAgents.map((a) => a.name)).toEqual(['guia']);

    const jid = contact('5551944443333');
    let since = watch.replies.length;
    await inbound(ctx, { to: anaPhone, from: jid, text: 'Bom dia', pushName: 'Fabio' });
    await watch.settled(ana.user.id, since);
    const fabio = (await conversations(ctx, ana)).find((c) => c.contact_name === 'Fabio')!;

    const refused = await post(
      ctx,
      `/api/whatsapp/conversations/${fabio.id}/assign-agent`,
      { agentId: randomUUIDv4() },
      { token: ana.token, language: 'pt-BR' },
    );
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(message('pt-BR', 'whatsappServer.agentNotAvailable'));
    const assigned = await post(
      ctx,
      `/api/whatsapp/conversations/${fabio.id}/assign-agent`,
      { agentId: assistente.id },
      { token: ana.token, language: 'en-US' },
    );
    expect(assigned.statusCode).toBe(200);
    expect(assigned.json().data).toMatchObject({
      agent_id: assistente.id,
      agent_display_name: expect.any(String),
    });
    // Bruno has not hired assistente: he may not make it his default.
    const brunoDefault = await post(
      ctx,
      '/api/whatsapp/settings',
      { defaultAgentId: assistente.id },
      { token: bruno.token },
    );
    expect(brunoDefault.statusCode).toBe(400);
    expect(brunoDefault.json().errors).toEqual({
      defaultAgentId: message('pt-BR', 'whatsappServer.agentNotAvailable'),
    });

    const sent = watch.events.length;
    since = watch.replies.length;
    await inbound(ctx, {
      to: anaPhone,
      from: jid,
      text: 'Como vocês podem me ajudar com meus estudos?',
    });
    expect((await watch.settled(ana.user.id, since))[0]!.outcome).toBe('sent');
    expect(
      (await watch.nextEvent(ana.user.id, 'whatsapp:message_sent', sent)).payload,
    ).toMatchObject({ message: { agentName: 'assistente' } });
    const unassigned = await post(
      ctx,
      `/api/whatsapp/conversations/${fabio.id}/assign-agent`,
      { agentId: null },
      { token: ana.token },
    );
    expect(unassigned.json().data.agent_id).toBeNull();
  });

  it('sends what the owner types, stores what the owner writes from the phone without answering it', async () => {
    const [latest] = await conversations(ctx, ana);
    const before = (await conversation(ctx, ana, latest!.id)).messages.length;
    const sending = watch.events.length;
    const sent = await post(
      ctx,
      `/api/whatsapp/conversations/${latest!.id}/messages`,
      { text: '  Já te respondo!  ' },
      { token: ana.token },
    );
    expect(sent.statusCode).toBe(200);
    expect(sent.json().data).toMatchObject({ sender: 'user', text: 'Já te respondo!' });
    // Stored first, then sent by its job: the page hears when it went.
    expect(
      (await watch.nextEvent(ana.user.id, 'whatsapp:message_status', sending)).payload,
    ).toEqual({ conversationId: latest!.id, messageId: sent.json().data.id, status: 'sent' });
    const out = (await phoneEvents(ctx, anaPhone)).at(-1);
    expect(out).toMatchObject({ type: 'message', text: 'Já te respondo!' });

    const jid = contact('5561933332222');
    const since = watch.events.length;
    const own = await post(
      ctx,
      '/api/whatsapp/sandbox/outbound',
      { from: anaPhone, to: jid, text: 'Oi, sou eu pelo celular' },
      { token: ana.token },
    );
    expect(own.statusCode).toBe(200);
    const shown = await watch.nextEvent(ana.user.id, 'whatsapp:new_message', since);
    expect(shown.payload).toMatchObject({
      message: { sender: 'user', text: 'Oi, sou eu pelo celular' },
    });
    const mine = (await conversations(ctx, ana)).find((c) => c.contact_number === '5561933332222')!;
    expect(mine.unread_count).toBe(0);
    expect((await conversation(ctx, ana, mine.id)).messages.map((m) => m.sender)).toEqual(['user']);
    expect((await conversation(ctx, ana, latest!.id)).messages).toHaveLength(before + 1);
    // Never answered: nothing went to that contact but the owner's own words.
    expect(
      (await phoneEvents(ctx, anaPhone)).filter((e) => e.type === 'message' && e.to === jid),
    ).toHaveLength(1);
  });

  it('keeps another account’s conversations out of reach', async () => {
    const [theirs] = await conversations(ctx, ana);
    expect(await conversations(ctx, bruno)).toEqual([]);
    const url = `/api/whatsapp/conversations/${theirs!.id}`;
    const calls = [
      get(ctx, url, { token: bruno.token, language: 'es-ES' }),
      ctx.app.inject({
        method: 'DELETE',
        url,
        headers: { authorization: `Bearer ${bruno.token}`, 'accept-language': 'es-ES' },
      }),
      post(ctx, `${url}/ai`, { enabled: false }, { token: bruno.token, language: 'es-ES' }),
      post(
        ctx,
        `${url}/whitelist`,
        { isWhitelisted: true },
        { token: bruno.token, language: 'es-ES' },
      ),
      post(
        ctx,
        `${url}/assign-agent`,
        { agentId: null },
        { token: bruno.token, language: 'es-ES' },
      ),
      post(ctx, `${url}/messages`, { text: 'oi' }, { token: bruno.token, language: 'es-ES' }),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe(message('es-ES', 'whatsappServer.conversationNotFound'));
    }
    expect((await conversation(ctx, ana, theirs!.id)).ai_enabled).toBe(theirs!.ai_enabled);
    const unauthenticated = await get(ctx, '/api/whatsapp/status');
    expect(unauthenticated.statusCode).toBe(401);
  });

  it('refuses bad input on every endpoint with 400, in the caller’s language', async () => {
    const [one] = await conversations(ctx, ana);
    const url = `/api/whatsapp/conversations/${one!.id}`;
    const cases: Array<[string, unknown, string?]> = [
      [`${url}/ai`, { enabled: 'yes' }, 'enabled'],
      [`${url}/ai`, {}, 'enabled'],
      [`${url}/whitelist`, { isWhitelisted: 1 }, 'isWhitelisted'],
      [`${url}/assign-agent`, { agentId: 'guia' }, 'agentId'],
      [`${url}/assign-agent`, { agentId: 42 }, 'agentId'],
      [`${url}/messages`, { text: '' }, 'text'],
      [`${url}/messages`, { text: '\u200B ' }, 'text'],
      [`${url}/messages`, { text: 'a'.repeat(4097) }, 'text'],
      [`${url}/messages`, { text: ['oi'] }, 'text'],
      ['/api/whatsapp/settings', { whitelistMode: 'on' }, 'whitelistMode'],
      ['/api/whatsapp/settings', { defaultAgentId: '../../etc' }, 'defaultAgentId'],
      ['/api/whatsapp/sandbox/pair', { token: 'abc', phone: '123' }, 'phone'],
      ['/api/whatsapp/sandbox/pair', { token: '', phone: '5511999998888' }, 'token'],
      [
        '/api/whatsapp/sandbox/inbound',
        { to: anaPhone, from: '<script>@s.whatsapp.net', text: 'oi' },
        'from',
      ],
      [
        '/api/whatsapp/sandbox/inbound',
        { to: anaPhone, from: "5511' or 1=1@lid", text: 'oi' },
        'from',
      ],
      [
        '/api/whatsapp/sandbox/inbound',
        { to: anaPhone, from: `${'9'.repeat(200)}@s.whatsapp.net`, text: 'oi' },
        'from',
      ],
      [
        '/api/whatsapp/sandbox/inbound',
        { to: anaPhone, from: contact('5511999998888'), text: 'a'.repeat(65_537) },
        'text',
      ],
      [
        '/api/whatsapp/sandbox/inbound',
        { to: anaPhone, from: contact('5511999998888'), text: '' },
        'text',
      ],
      [
        '/api/whatsapp/sandbox/inbound',
        { to: 'abc', from: contact('5511999998888'), text: 'oi' },
        'to',
      ],
      [
        '/api/whatsapp/sandbox/inbound',
        { to: anaPhone, from: contact('5511999998888'), text: 'oi', fromAlt: 'x@example.com' },
        'fromAlt',
      ],
      ['/api/whatsapp/sandbox/outbound', { from: anaPhone, to: 'nobody', text: 'oi' }, 'to'],
    ];
    const before = await conversations(ctx, ana);
    for (const language of ['pt-BR', 'en-US', 'es-ES'] as Language[]) {
      for (const [path, body, field] of cases) {
        const res = await post(ctx, path, body, { token: ana.token, language });
        expect(res.statusCode, `${path} ${JSON.stringify(body).slice(0, 80)}`).toBe(400);
        const json = res.json();
        expect(json).toMatchObject({
          success: false,
          message: message(language, 'errors.validation'),
        });
        if (field) expect(Object.keys(json.errors)).toContain(field);
      }
      const phoneError = (
        await post(ctx, '/api/whatsapp/sandbox/pair', { token: 'abc', phone: '12' }, { language })
      ).json().errors.phone;
      expect(phoneError).toBe(message(language, 'validation.phoneInvalid'));
      const tooLong = (
        await post(
          ctx,
          `${url}/messages`,
          { text: 'a'.repeat(4097) },
          { token: ana.token, language },
        )
      ).json().errors.text;
      expect(tooLong).toBe(message(language, 'validation.whatsappMessageTooLong'));
      const contactText = (
        await post(
          ctx,
          '/api/whatsapp/sandbox/inbound',
          { to: anaPhone, from: contact('5511999998888'), text: 'a'.repeat(65_537) },
          { language },
        )
      ).json().errors.text;
      expect(contactText).toBe(message(language, 'validation.sandboxTextLength'));
    }
    expect(await conversations(ctx, ana)).toEqual(before);
    // Ids that are not UUIDs name nothing: 404, never 500.
    for (const id of ['abc', '1%27%20or%201%3D1', 'x'.repeat(150)]) {
      expect(
        (await get(ctx, `/api/whatsapp/conversations/${id}`, { token: ana.token })).statusCode,
      ).toBe(404);
    }
    expect(
      (await get(ctx, '/api/whatsapp/sandbox/phones/abc/events', { token: ana.token })).statusCode,
    ).toBe(400);
    // To a number nobody linked: 404.
    const unlinked = await inbound(ctx, {
      to: '5599900000000',
      from: contact('5511999998888'),
      text: 'oi',
    });
    expect(unlinked.statusCode).toBe(404);
  });

  it('a phone that logs out disconnects the account: sending is refused with 409 and nothing is stored', async () => {
    const [one] = await conversations(ctx, ana);
    const before = (await conversation(ctx, ana, one!.id)).messages.length;
    const since = watch.events.length;
    expect(
      (await post(ctx, `/api/whatsapp/sandbox/phones/${anaPhone}/logout`, {}, { token: ana.token }))
        .statusCode,
    ).toBe(200);
    expect((await watch.nextEvent(ana.user.id, 'whatsapp:disconnected', since)).payload).toEqual({
      reason: 'logged-out',
    });
    // Why it ended is kept: a page opened later says it too.
    expect(await status(ctx, ana)).toMatchObject({
      isReady: false,
      state: 'disconnected',
      phone: null,
      lastCloseReason: 'logged-out',
    });
    for (const language of ['pt-BR', 'en-US', 'es-ES'] as Language[]) {
      const res = await post(
        ctx,
        `/api/whatsapp/conversations/${one!.id}/messages`,
        { text: 'oi' },
        { token: ana.token, language },
      );
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe(message(language, 'whatsappServer.notConnected'));
    }
    expect((await conversation(ctx, ana, one!.id)).messages).toHaveLength(before);
    // The number is unlinked: messages to it go nowhere.
    expect(
      (await inbound(ctx, { to: anaPhone, from: contact('5511999998888'), text: 'oi' })).statusCode,
    ).toBe(404);
    // The conversations stay; one can be deleted.
    const del = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/whatsapp/conversations/${one!.id}`,
      headers: { authorization: `Bearer ${ana.token}` },
    });
    expect(del.statusCode).toBe(200);
    expect(
      (await get(ctx, `/api/whatsapp/conversations/${one!.id}`, { token: ana.token })).statusCode,
    ).toBe(404);
    expect((await conversations(ctx, ana)).some((c) => c.id === one!.id)).toBe(false);
  });

  it('serves the phone page in the caller’s language, a plain form with no script', async () => {
    const res = await ctx.app.inject({
      method: 'GET',
      url: '/sandbox/phone?pair=abc%22%3E%3Cscript%3E',
      headers: { 'accept-language': 'es-ES' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/html/);
    expect(res.body).toContain(message('es-ES', 'whatsappServer.sandboxPhone.link'));
    expect(res.body).not.toContain('<script');
    expect(String(res.headers['content-security-policy'])).toContain("script-src 'self'");
    const wrong = await ctx.app.inject({
      method: 'POST',
      url: '/sandbox/phone',
      payload: 'pair=nothing&phone=5511900001111',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'accept-language': 'en-US' },
    });
    expect(wrong.statusCode).toBe(404);
    expect(wrong.body).toContain(message('en-US', 'whatsappServer.sandboxPairNotFound'));
  });
});

describe('the sandbox QR codes', () => {
  let ctx: TestContext;
  let watch: Observers;
  beforeAll(async () => {
    watch = observers();
    ctx = await createTestApp(sandboxDeps(watch, { refreshMs: 30, limit: 5 }));
    watch.follow(ctx);
  });
  afterAll(async () => ctx.close());

  it('refresh on a timer, each replacing the last one’s code, and stop after five: disconnected until connected again', async () => {
    const cleo = await registerAndLogin(ctx, { name: 'Cleo' });
    const since = watch.events.length;
    const disconnected = watch.nextEvent(cleo.user.id, 'whatsapp:disconnected', since);
    const connect = await post(ctx, '/api/whatsapp/connect', {}, { token: cleo.token });
    const first = tokenOf(qrText(connect.json<{ data: WhatsAppStatus }>().data.qrCode!));
    expect((await disconnected).payload).toEqual({ reason: 'qr-limit' });
    const codes = watch.events
      .slice(since)
      .filter((e) => e.userId === cleo.user.id && e.name === 'whatsapp:qr');
    expect(codes).toHaveLength(5);
    const tokens = codes.map((e) => tokenOf(qrText((e.payload as { qrCode: string }).qrCode)));
    expect(new Set(tokens).size).toBe(5);
    expect(tokens[0]).toBe(first);
    for (const token of [first, tokens[4]!]) {
      expect(
        (await post(ctx, '/api/whatsapp/sandbox/pair', { token, phone: newPhone() })).statusCode,
      ).toBe(404);
    }
    expect(await status(ctx, cleo)).toMatchObject({
      state: 'disconnected',
      qrCode: null,
      isReady: false,
      lastCloseReason: 'qr-limit',
    });

    // Connecting again starts over with a new code, and the reason of the last end is over.
    const again = await post(ctx, '/api/whatsapp/connect', {}, { token: cleo.token });
    const restarted = again.json<{ data: WhatsAppStatus }>().data;
    expect(restarted).toMatchObject({ state: 'qr', lastCloseReason: null });
    expect(tokens).not.toContain(tokenOf(qrText(restarted.qrCode!)));
  });
});

describe('a server restarted mid-conversation', () => {
  it('resumes the linked account without a new QR and answers the next message', async () => {
    const secret = randomBytes(32).toString('hex');
    const watchA = observers();
    const first = await createTestApp({ without: NO_MONITOR, ...sandboxDeps(watchA), secret });
    watchA.follow(first);
    let second: TestContext | undefined;
    try {
      const dora = await registerAndLogin(first, { name: 'Dora' });
      const phone = await link(first, dora);
      const jid = contact('5571922221111');
      let since = watchA.replies.length;
      await inbound(first, {
        to: phone,
        from: jid,
        text: 'Olá, tudo bem?',
        pushName: 'Gil',
      });
      expect((await watchA.settled(dora.user.id, since))[0]!.outcome).toBe('sent');
      await first.app.close();

      const watchB = observers();
      second = await createTestApp(
        { ...sandboxDeps(watchB), secret },
        { database: first.database },
      );
      watchB.follow(second);
      expect(await status(second, dora)).toMatchObject({
        state: 'ready',
        isReady: true,
        phone,
        qrCode: null,
      });
      expect(watchB.events.some((e) => e.name === 'whatsapp:qr')).toBe(false);
      since = watchB.replies.length;
      await inbound(second, { to: phone, from: jid, text: 'Como conecto meu WhatsApp?' });
      expect((await watchB.settled(dora.user.id, since))[0]!.outcome).toBe('sent');
      const [gil] = await conversations(second, dora);
      expect((await conversation(second, dora, gil!.id)).messages.map((m) => m.sender)).toEqual([
        'contact',
        'user',
        'contact',
        'user',
      ]);
      expect((await phoneEvents(second, phone)).filter((e) => e.type === 'message')).toHaveLength(
        2,
      );
    } finally {
      await second?.close();
      await first.close();
    }
  });
});

describe('WhatsApp with the Baileys transport', () => {
  let ctx: TestContext;
  let ws: WebSocketServer;
  beforeAll(async () => {
    // A WebSocket server that answers no one: Baileys connects to it and waits, as it would on
    // a slow network (its own tests, with a fake WhatsApp, are in transports/baileys.int.test.ts).
    ws = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await once(ws, 'listening');
    const { port } = ws.address() as AddressInfo;
    ctx = await createTestApp({
      without: NO_MONITOR,
      limits: { routes: UNLIMITED_ROUTES },
      whatsapp: { transport: 'baileys', wsUrl: `ws://127.0.0.1:${port}/ws/chat` },
    });
  });
  afterAll(async () => {
    await ctx.close();
    ws.close();
  });

  it('connects to WHATSAPP_WS_URL through Baileys and disconnects; the sandbox paths do not exist', async () => {
    const eli = await registerAndLogin(ctx, { name: 'Eli' });
    const reached = once(ws, 'connection');
    const res = await post(ctx, '/api/whatsapp/connect', {}, { token: eli.token });
    expect(res.statusCode).toBe(200);
    await reached;
    // The transport's "connecting" is stored as it is handled, after the socket has opened.
    await settles(async () =>
      expect(await status(ctx, eli)).toMatchObject({
        state: 'connecting',
        isReady: false,
        qrCode: null,
      }),
    );

    expect((await post(ctx, '/api/whatsapp/disconnect', {}, { token: eli.token })).statusCode).toBe(
      200,
    );
    expect(await status(ctx, eli)).toMatchObject({
      state: 'disconnected',
      isReady: false,
      lastCloseReason: 'requested',
    });
    expect(
      (
        await post(ctx, '/api/whatsapp/sandbox/inbound', {
          to: '5511999998888',
          from: contact('5511999997777'),
          text: 'oi',
        })
      ).statusCode,
    ).toBe(404);
    expect(
      (await post(ctx, '/api/whatsapp/sandbox/pair', { token: 'abc', phone: '5511999998888' }))
        .statusCode,
    ).toBe(404);
    expect(ctx.logs.some((line) => line.includes('WHATSAPP_TRANSPORT=sandbox'))).toBe(false);
  });
});

describe('WhatsApp with the Baileys transport and a fake WhatsApp', () => {
  let ctx: TestContext;
  let watch: Observers;
  let fake: FakeWhatsApp;
  beforeAll(async () => {
    fake = await startFakeWhatsApp();
    watch = observers();
    ctx = await createTestApp({
      without: NO_MONITOR,
      limits: { routes: UNLIMITED_ROUTES },
      events: watch.hub,
      // The owner's copy from the phone does not pause the agent here (see the takeover's suite).
      whatsapp: { transport: 'baileys', wsUrl: fake.url, takeoverMinutes: 0 },
    });
    watch.follow(ctx);
  });
  afterAll(async () => {
    await ctx.close();
    await fake.close();
  });

  /** Connect, scan the QR as the phone `phone`, and wait until the account is ready on it. */
  async function linkThroughFake(account: Account, phone: string) {
    await chooseAnsweringAgent(ctx, account);
    const since = watch.events.length;
    expect(
      (await post(ctx, '/api/whatsapp/connect', {}, { token: account.token })).statusCode,
    ).toBe(200);
    const { qrCode } = (await watch.nextEvent(account.user.id, 'whatsapp:qr', since)).payload as {
      qrCode: string;
    };
    await fake.scan(qrText(qrCode), phone);
    await watch.nextEvent(account.user.id, 'whatsapp:ready', since);
  }

  it('a number WhatsApp bans says so in every status read, until it is linked again', async () => {
    const fia = await registerAndLogin(ctx, { name: 'Fia' });
    const phone = newPhone();
    await linkThroughFake(fia, phone);

    // WhatsApp refuses the login after a restart: banned.
    fake.loginAnswer = { kind: 'failure', reason: 403 };
    const banned = watch.events.length;
    await fake.streamErrorAll(515);
    expect((await watch.nextEvent(fia.user.id, 'whatsapp:auth_failure', banned)).payload).toEqual({
      message: 'banned',
    });
    expect(await status(ctx, fia)).toMatchObject({
      state: 'failed',
      isReady: false,
      lastCloseReason: 'banned',
    });
    expect(await status(ctx, fia)).toMatchObject({ lastCloseReason: 'banned' });

    // Lifted: connecting again logs in with the stored link, and the reason is over.
    fake.loginAnswer = { kind: 'success' };
    const lifted = watch.events.length;
    expect((await post(ctx, '/api/whatsapp/connect', {}, { token: fia.token })).statusCode).toBe(
      200,
    );
    await watch.nextEvent(fia.user.id, 'whatsapp:ready', lifted);
    expect(await status(ctx, fia)).toMatchObject({ state: 'ready', phone, lastCloseReason: null });
  });

  it('stores what the owner wrote from the phone once, as theirs, and never answers it; the contact is answered once', async () => {
    const gil = await registerAndLogin(ctx, { name: 'Gil' });
    const phone = newPhone();
    await linkThroughFake(gil, phone);
    const rui = newPhone();
    const sent: SentText[] = [];
    const onSent = (text: SentText) => sent.push(text);
    fake.events.on('sent', onSent);
    try {
      // The owner writes first, from the phone: WhatsApp hands the linked device its copy.
      const since = watch.events.length;
      const own = await fake.deliverOwnCopy({
        phone,
        to: rui,
        text: 'Oi, Rui! Seu pedido saiu.',
        pushName: 'Gil',
      });
      const first = (await watch.nextEvent(gil.user.id, 'whatsapp:new_message', since))
        .payload as ServerEventPayload<'whatsapp:new_message'>;
      expect(first.message).toMatchObject({ sender: 'user', text: 'Oi, Rui! Seu pedido saiu.' });
      expect(first.message.agentName).toBeUndefined();
      // The conversation is the contact's (not named after the owner), and nothing is unread.
      expect(first.conversation).toMatchObject({
        contact_name: rui,
        contact_number: rui,
        unread_count: 0,
      });
      // WhatsApp delivers the same copy again: the same message, not a second one.
      await fake.deliverOwnCopy({
        phone,
        to: rui,
        text: 'Oi, Rui! Seu pedido saiu.',
        id: own.id,
        pushName: 'Gil',
      });

      // The contact answers (handled after the copies: one chat's messages go in order).
      const replies = watch.replies.length;
      await fake.deliverText({
        to: phone,
        from: rui,
        text: 'Obrigado! Chega hoje?',
        pushName: 'Rui',
      });
      expect((await watch.settled(gil.user.id, replies)).map((done) => done.outcome)).toEqual([
        'sent',
      ]);
      const [only, ...others] = await conversations(ctx, gil);
      expect(others).toEqual([]);
      const { messages } = await conversation(ctx, gil, only!.id);
      expect(messages.map((m) => [m.sender, m.agentName ?? null])).toEqual([
        ['user', null],
        ['contact', null],
        ['user', 'guia'],
      ]);
      expect(messages[1]!.text).toBe('Obrigado! Chega hoje?');
      // One reply was made, for the contact's message; the phone sent only that.
      expect(watch.replies.filter((done) => done.userId === gil.user.id)).toHaveLength(1);
      await settles(() => expect(sent).toHaveLength(1));
      expect(sent).toEqual([
        { from: phone, to: rui, id: expect.any(String), text: messages[2]!.text },
      ]);
    } finally {
      fake.events.off('sent', onSent);
    }
  });

  it("deleting the account unlinks its number: the phone's linked device is removed", async () => {
    // The first account is the administrator, who cannot leave: Ivo is another.
    await registerAndLogin(ctx, { name: 'Ana' });
    const ivo = await registerAndLogin(ctx, { name: 'Ivo' });
    const phone = newPhone();
    await linkThroughFake(ivo, phone);
    const connection = [...fake.connections].find(
      (c) => !c.closed && c.hello.kind === 'login' && c.hello.username === phone,
    );
    if (!connection) throw new Error(`no open connection logged in as ${phone}`);
    const removal = connection.waitFor(
      (node) => node.tag === 'iq' && node.attrs.xmlns === 'md',
      'the request to remove the device',
    );

    const deleted = await post(
      ctx,
      '/api/account/delete',
      { password: ivo.password },
      { token: ivo.token },
    );
    expect(deleted.statusCode).toBe(200);
    expect((await removal).content).toMatchObject([{ tag: 'remove-companion-device' }]);
  });
});

describe('WhatsApp replies from an OpenAI-compatible provider', () => {
  let ctx: TestContext;
  let watch: Observers;
  let ai: FakeOpenAI;
  beforeAll(async () => {
    ai = await startFakeOpenAI({ chunks: ['Claro', ', posso ajudar.'] });
    watch = observers();
    ctx = await createTestApp({
      without: NO_MONITOR,
      ...sandboxDeps(watch),
      ai: { provider: 'openai', baseUrl: ai.url, model: 'test-model', timeoutMs: 1500 },
    });
    watch.follow(ctx);
  });
  afterAll(async () => {
    await ctx.close();
    await ai.close();
  });

  it('sends the streamed reply with the history; a provider failure sends nothing and shows the error', async () => {
    const flor = await registerAndLogin(ctx, { name: 'Flor' });
    const phone = await link(ctx, flor);
    const jid = contact('5581911110000');
    let since = watch.replies.length;
    await inbound(ctx, { to: phone, from: jid, text: 'Vocês podem me ajudar?', pushName: 'Hugo' });
    expect((await watch.settled(flor.user.id, since))[0]!.outcome).toBe('sent');
    expect(
      (await phoneEvents(ctx, phone))
        .filter((e) => e.type === 'message')
        .map((e) => (e.type === 'message' ? e.text : '')),
    ).toEqual(['Claro, posso ajudar.']);

    ai.setOptions({ status: 500 });
    const asked = ai.nextRequest();
    since = watch.replies.length;
    await inbound(ctx, { to: phone, from: jid, text: 'E quanto custa?' });
    expect((await watch.settled(flor.user.id, since))[0]!.outcome).toBe('failed');
    // The provider was given the conversation so far.
    expect(JSON.stringify((await asked).body)).toContain('Claro, posso ajudar.');
    expect((await phoneEvents(ctx, phone)).filter((e) => e.type === 'message')).toHaveLength(1);
    const [hugo] = await conversations(ctx, flor);
    for (const language of ['pt-BR', 'en-US', 'es-ES'] as Language[]) {
      const res = await get(ctx, `/api/whatsapp/conversations/${hugo!.id}`, {
        token: flor.token,
        language,
      });
      const messages = res.json<{ data: WhatsAppConversationDetail }>().data.messages;
      expect(messages.map((m) => m.sender)).toEqual(['contact', 'user', 'contact', 'user']);
      expect(messages.at(-1)!.text).toBe(message(language, 'whatsappServer.replyFailed'));
    }
  });

  it('gives the provider the newest turns that fit the history budget, each turn and the question to their first 4,000 characters', async () => {
    ai.setOptions({ chunks: ['Claro', ', posso ajudar.'] });
    const lara = await registerAndLogin(ctx, { name: 'Lara' });
    const phone = await link(ctx, lara);
    const jid = contact('5581922220000');
    // Three turns of about 5,000 characters each, then a question longer than the whole budget (12,000).
    const turn = (label: string) => `${label} ${'palavra '.repeat(620)}`.trim();
    for (const label of ['PRIMEIRA', 'SEGUNDA', 'TERCEIRA']) {
      const since = watch.replies.length;
      await inbound(ctx, { to: phone, from: jid, text: turn(label) });
      expect((await watch.settled(lara.user.id, since))[0]!.outcome).toBe('sent');
    }
    const [conversationOfLara] = await conversations(ctx, lara);
    // What a reply through a model reads: the turns before the question, within the budget, then it.
    const readForReply = async () => {
      const { recent } = (await findReplyContext({
        db: ctx.database.db,
        id: conversationOfLara!.id,
        limit: 200,
      }))!;
      const history = await listReplyHistory({
        db: ctx.database.db,
        conversationId: conversationOfLara!.id,
        beforeSeq: recent[0]?.seq ?? Number.MAX_SAFE_INTEGER,
        limit: 200 - recent.length,
        budgetChars: DEFAULT_HISTORY_BUDGET_CHARS,
      });
      return [...history, ...recent].map((m) => m.text.split(' ')[0]);
    };
    // The database leaves out what does not fit: a long conversation is not read whole for every reply.
    expect(await readForReply()).toEqual(['Claro,', 'SEGUNDA', 'Claro,', 'TERCEIRA', 'Claro,']);
    const question = `PERGUNTA ${'longa '.repeat(2200)}`.trim();
    const asked = ai.nextRequest();
    const since = watch.replies.length;
    await inbound(ctx, { to: phone, from: jid, text: question });
    expect((await watch.settled(lara.user.id, since))[0]!.outcome).toBe('sent');
    const { messages } = (await asked).body as { messages: { role: string; content: string }[] };
    const said = messages.filter((m) => m.role !== 'system').map((m) => m.content);
    // The oldest turn did not fit beside the two after it and their replies; a turn is read to
    // its first 4,000 characters, the question too: every engine input is bounded.
    const reply = 'Claro, posso ajudar.';
    const first4000 = (text: string) => text.slice(0, 4_000);
    expect(said).toEqual([
      reply,
      first4000(turn('SEGUNDA')),
      reply,
      first4000(turn('TERCEIRA')),
      reply,
      first4000(question),
    ]);
    // Answered now, the long question is history, and nothing before it fits beside it.
    expect(await readForReply()).toEqual(['Claro,']);

    // For an engine that reads no history (the builtin), only what the contact wrote since the
    // last reply is read: nothing now, then the two messages written after it.
    const readQuestion = async () =>
      (await findReplyContext({
        db: ctx.database.db,
        id: conversationOfLara!.id,
        limit: 200,
      }))!.recent.map((m) => m.text);
    expect(await readQuestion()).toEqual([]);
    for (const text of ['E mais', 'uma coisa']) {
      const values = {
        conversationId: conversationOfLara!.id,
        waId: `typed-${text}`,
        sender: 'contact' as const,
        text,
        agentName: null,
        error: null,
        createdAt: new Date(),
      };
      await insertMessage({ db: ctx.database.db, values, unread: true });
    }
    expect(await readQuestion()).toEqual(['E mais', 'uma coisa']);
    expect(await readForReply()).toEqual(['Claro,', 'E', 'uma']);
  });
});

describe('a contact that writes too fast', () => {
  let ctx: TestContext;
  let watch: Observers;
  let ai: FakeOpenAI;
  beforeAll(async () => {
    ai = await startFakeOpenAI({ chunks: ['Resposta.'] });
    watch = observers();
    const deps = sandboxDeps(watch);
    ctx = await createTestApp({
      without: NO_MONITOR,
      ...deps,
      limits: {
        routes: UNLIMITED_ROUTES,
        whatsappContact: { points: 3, durationSeconds: 60, blockSeconds: 600 },
      },
      ai: { provider: 'openai', baseUrl: ai.url, model: 'test-model', timeoutMs: 5000 },
    });
    watch.follow(ctx);
  });
  afterAll(async () => {
    await ctx.close();
    await ai.close();
  });

  it('is blocked: kept and shown in red, never answered, until the block ends; then only what came after it is answered', async () => {
    const gil = await registerAndLogin(ctx, { name: 'Gil' });
    const phone = await link(ctx, gil);
    const jid = contact('5531977776666');
    const texts = ['um', 'dois', 'três'];
    for (const text of texts) {
      const since = watch.replies.length;
      await inbound(ctx, { to: phone, from: jid, text, pushName: 'Iara' });
      expect((await watch.settled(gil.user.id, since))[0]!.outcome).toBe('sent');
    }
    const [iara] = await conversations(ctx, gil);
    expect(iara!.status).toBe('active');

    // The fourth message within the minute is one too many; the fifth comes during the block.
    for (const text of ['quatro', 'cinco']) {
      const since = watch.replies.length;
      const shown = watch.events.length;
      expect((await inbound(ctx, { to: phone, from: jid, text })).statusCode).toBe(200);
      expect((await watch.settled(gil.user.id, since))[0]!.outcome).toBe('skipped');
      const event = await watch.nextEvent(gil.user.id, 'whatsapp:new_message', shown);
      expect(event.payload).toMatchObject({
        conversation: { id: iara!.id, status: 'blocked' },
        message: { text },
      });
    }
    const blocked = await conversation(ctx, gil, iara!.id);
    expect(blocked.status).toBe('blocked');
    expect(blocked.messages.map((m) => m.text)).toEqual([
      'um',
      'Resposta.',
      'dois',
      'Resposta.',
      'três',
      'Resposta.',
      'quatro',
      'cinco',
    ]);
    expect((await phoneEvents(ctx, phone)).filter((e) => e.type === 'message')).toHaveLength(3);
    // Another contact of the same account is not touched.
    const since = watch.replies.length;
    await inbound(ctx, { to: phone, from: contact('5531900001111'), text: 'oi', pushName: 'Juca' });
    expect((await watch.settled(gil.user.id, since))[0]!.outcome).toBe('sent');

    ctx.clock.advance(600_000 + 1);
    expect((await conversations(ctx, gil)).find((c) => c.id === iara!.id)!.status).toBe('active');
    const asked = ai.nextRequest();
    const after = watch.replies.length;
    await inbound(ctx, { to: phone, from: jid, text: 'seis' });
    expect((await watch.settled(gil.user.id, after))[0]!.outcome).toBe('sent');
    const { messages } = (await asked).body as { messages: { role: string; content: string }[] };
    // What came during the block is history, not part of the question.
    expect(messages.at(-1)).toEqual({ role: 'user', content: 'seis' });
  });

  it('ten 64 K one-word messages at once: those over the limit are counted before any engine work, and the engine reads 4,000 characters', async () => {
    const lia = await registerAndLogin(ctx, { name: 'Lia' });
    const phone = await link(ctx, lia);
    const jid = contact('5531955554444');
    // Ten words of 65,536 letters, each told by its first letter.
    const words = Array.from(
      { length: 10 },
      (_, i) => `${String.fromCharCode(97 + i)}${'x'.repeat(65_535)}`,
    );
    const gate = createGate();
    ai.setOptions({ chunks: ['Resposta.'], hold: { afterChunks: 0, until: gate.opened } });
    const asked = ai.requests.length;
    const first = ai.nextRequest();
    const since = watch.replies.length;
    const settled = watch.settled(lia.user.id, since, words.length);
    expect((await inbound(ctx, { to: phone, from: jid, text: words[0]! })).statusCode).toBe(200);
    // The first word's reply reaches the provider (the engine neither throws nor stalls on it), and
    // stays under way while the nine others come at once: two within the limit of 3, seven over it.
    const request = await Promise.race([
      first,
      watch.settled(lia.user.id, since).then(() => undefined),
    ]);
    expect(request).toBeDefined();
    const statuses = await Promise.all(
      words
        .slice(1)
        .map((text) => inbound(ctx, { to: phone, from: jid, text }).then((res) => res.statusCode)),
    );
    expect(statuses).toEqual(Array(9).fill(200));
    gate.open();
    const outcomes = (await settled).map((done) => done.outcome);
    expect(outcomes).toEqual(['sent', ...Array(9).fill('skipped')]);
    // The provider was asked once, with the first 4,000 characters of the first word: none of the
    // messages counted over the limit (nor those the block then held back) reached the engine.
    expect(ai.requests.length - asked).toBe(1);
    const { messages } = request!.body as { messages: { role: string; content: string }[] };
    expect(messages.at(-1)).toEqual({ role: 'user', content: words[0]!.slice(0, 4_000) });
    const [shown] = await conversations(ctx, lia);
    expect(shown!.status).toBe('blocked');
    ai.setOptions({ chunks: ['Resposta.'] });
  });
});

function randomUUIDv4(): string {
  const b = randomBytes(16);
  b[6] = (b[6]! & 0x0f) | 0x40;
  b[8] = (b[8]! & 0x3f) | 0x80;
  const h = b.toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
