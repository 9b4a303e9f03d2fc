import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  ClientToServerEvents,
  SandboxPhoneEvent,
  ServerEventPayload,
  ServerToClientEvents,
  WhatsAppConversation,
  WhatsAppConversationDetail,
  WhatsAppMessage,
  WhatsAppStatus,
} from '@contrateia/shared';
import { createEventHub } from '@/lib/event-hub';
import { createTwoInstances, type TestContext } from '../../../test/helpers';
import { get, post, registerAndLogin, UNLIMITED_ROUTES } from '../../../test/factories';
import {
  decryptMedia,
  startFakeWhatsApp,
  type FakeWhatsApp,
  type SentMedia,
} from '../../../test/fake-whatsapp';
import { photo } from '../../../test/media';
import { repliesOf, type Reply } from '../../../test/replies';
import {
  conversationDetail,
  conversations as conversationsOf,
  linkOnFake,
  linkSandbox,
} from '../../../test/whatsapp';
import { nextEvent, watchedHub } from '../../../test/whatsapp-drivers';

/**
 * WhatsApp in sandbox mode on two app instances behind one load balancer: one database and one
 * shared state (PostgreSQL and Redis with TEST_DATABASE_URL and TEST_REDIS_URL, else one PGlite
 * and one in-memory state). Whichever instance a request or a contact's message reaches, the
 * account's WhatsApp is the same one.
 */

type Account = Awaited<ReturnType<typeof registerAndLogin>>;

/**
 * The auto-replies the messages through one instance asked for (either instance may make them),
 * and a promise for the next ones, once settled.
 */
function replyWatch() {
  let followed: ReturnType<typeof repliesOf> | undefined;
  const replies = () => {
    if (!followed) throw new Error('replyWatch: follow(ctx) first');
    return followed;
  };
  return {
    follow(ctx: TestContext) {
      followed = repliesOf(ctx);
    },
    /** The `count` replies asked for from the `since`th on. */
    settled(since: number, count = 1): Promise<Reply[]> {
      return replies().settled({ since, count });
    },
    get count() {
      return replies().count;
    },
  };
}

const PHONE = `55119${String(Date.now() % 1e6).padStart(6, '0')}77`;
const CONTACT = '5511987650001@s.whatsapp.net';

describe('WhatsApp on two instances sharing the database and the shared state', () => {
  let instances: Awaited<ReturnType<typeof createTwoInstances>>;
  let a: TestContext;
  let b: TestContext;
  const watchA = replyWatch();
  const watchB = replyWatch();
  let owner: Account;
  let conversationId: string;

  beforeAll(async () => {
    instances = await createTwoInstances(
      // Six messages a minute per contact: the other tests' contact writes five.
      { limits: { routes: UNLIMITED_ROUTES, whatsappContact: { points: 6 } } },
      () => ({ events: createEventHub(), whatsapp: { transport: 'sandbox' } }),
    );
    ({ a, b } = instances);
    watchA.follow(a);
    watchB.follow(b);
    owner = await registerAndLogin(a, { name: 'Ana' });
  });

  afterAll(async () => instances?.close());

  const status = async (ctx: TestContext) =>
    (await get(ctx, '/api/whatsapp/status', { token: owner.token })).json<{
      data: WhatsAppStatus;
    }>().data;
  const conversations = async (ctx: TestContext) =>
    (await get(ctx, '/api/whatsapp/conversations', { token: owner.token })).json<{
      data: WhatsAppConversation[];
    }>().data;
  const detail = async (ctx: TestContext) =>
    (await get(ctx, `/api/whatsapp/conversations/${conversationId}`, { token: owner.token })).json<{
      data: WhatsAppConversationDetail;
    }>().data;
  const sentTexts = async (ctx: TestContext) =>
    (await get(ctx, `/api/whatsapp/sandbox/phones/${PHONE}/events`, { token: owner.token }))
      .json<{ events: SandboxPhoneEvent[] }>()
      .events.filter((e) => e.type === 'message');
  const inbound = (ctx: TestContext, body: Record<string, unknown>) =>
    post(ctx, '/api/whatsapp/sandbox/inbound', { to: PHONE, from: CONTACT, ...body });

  it('pairs through A and is ready through B', async () => {
    await linkSandbox(a, owner, PHONE);
    expect(await status(b)).toMatchObject({ isReady: true, state: 'ready', phone: PHONE });
  });

  it('a message through B is stored once and answered once, also when it comes again through A', async () => {
    const since = watchB.count;
    expect(
      (await inbound(b, { text: 'Olá, como contrato um agente?', id: 'WA-ONE', pushName: 'Carla' }))
        .statusCode,
    ).toBe(200);
    expect((await watchB.settled(since))[0]!.outcome).toBe('sent');
    // WhatsApp delivers the same message again, this time to the other instance.
    expect(
      (await inbound(a, { text: 'Olá, como contrato um agente?', id: 'WA-ONE', pushName: 'Carla' }))
        .statusCode,
    ).toBe(200);
    const [conversation] = await conversations(a);
    conversationId = conversation!.id;
    expect((await detail(a)).messages.map((m) => m.sender)).toEqual(['contact', 'user']);
    expect(await sentTexts(a)).toHaveLength(1);
    expect(watchA.count).toBe(0);
  });

  it('status and conversations read through B match A', async () => {
    expect(await status(b)).toEqual(await status(a));
    expect(await conversations(b)).toEqual(await conversations(a));
    expect(await detail(b)).toEqual(await detail(a));
    expect((await status(b)).conversationsCount).toBe(1);
  });

  it('AI turned off through B: a message through A is stored and not answered', async () => {
    const off = await post(
      b,
      `/api/whatsapp/conversations/${conversationId}/ai`,
      { enabled: false },
      { token: owner.token },
    );
    expect(off.statusCode).toBe(200);
    const since = watchA.count;
    expect((await inbound(a, { text: 'Ainda está aí?' })).statusCode).toBe(200);
    expect((await watchA.settled(since))[0]!.outcome).toBe('skipped');
    expect((await detail(b)).messages.map((m) => m.sender)).toEqual(['contact', 'user', 'contact']);
    expect(await sentTexts(b)).toHaveLength(1);
    const on = await post(
      a,
      `/api/whatsapp/conversations/${conversationId}/ai`,
      { enabled: true },
      { token: owner.token },
    );
    expect(on.statusCode).toBe(200);
  });

  it('two messages of one contact at A and B at once: one reply at a time, never two for the same messages', async () => {
    const [sinceA, sinceB] = [watchA.count, watchB.count];
    const [first, second] = await Promise.all([
      inbound(a, { text: 'Quanto custa?' }),
      inbound(b, { text: 'E como pago?' }),
    ]);
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    const outcomes = [...(await watchA.settled(sinceA)), ...(await watchB.settled(sinceB))].map(
      (d) => d.outcome,
    );
    const senders = (await detail(a)).messages.map((m) => m.sender);
    // Each reply answers what came before it: the agent never speaks twice in a row.
    for (let i = 1; i < senders.length; i += 1)
      expect(`${senders[i - 1]} ${senders[i]}`).not.toBe('user user');
    expect(senders.at(-1)).toBe('user');
    const replies = outcomes.filter((o) => o === 'sent').length;
    expect(replies).toBeGreaterThanOrEqual(1);
    expect(await sentTexts(a)).toHaveLength(1 + replies);
    expect(senders.filter((s) => s === 'user')).toHaveLength(1 + replies);
  });

  it('a contact writing through A and B in turn is counted once: the seventh message blocks it', async () => {
    const fast = '5511987650002@s.whatsapp.net';
    for (let n = 1; n <= 7; n += 1) {
      const [ctx, watch] = n % 2 ? [a, watchA] : [b, watchB];
      const since = watch.count;
      expect(
        (await inbound(ctx, { from: fast, text: `Mensagem ${n}`, pushName: 'Rui' })).statusCode,
      ).toBe(200);
      await watch.settled(since);
    }
    const rui = (await conversations(b)).find((c) => c.contact_name === 'Rui')!;
    expect(rui.status).toBe('blocked');
    expect((await conversations(a)).find((c) => c.id === rui.id)!.status).toBe('blocked');
  });

  it.runIf(process.env.TEST_REDIS_URL)(
    'a socket on B hears of a message that arrived through A',
    async () => {
      const urlB = await b.app.listen({ host: '127.0.0.1', port: 0 });
      const socket: Socket<ServerToClientEvents, ClientToServerEvents> = io(urlB, {
        transports: ['websocket'],
        auth: { token: owner.token },
        reconnection: false,
        forceNew: true,
      });
      try {
        await new Promise<void>((resolve, reject) => {
          socket.once('connect', resolve);
          socket.once('connect_error', reject);
        });
        expect(await new Promise((resolve) => socket.emit('join-whatsapp', resolve))).toEqual({
          ok: true,
        });
        const heard = new Promise<ServerEventPayload<'whatsapp:new_message'>>((resolve) =>
          socket.once('whatsapp:new_message', resolve),
        );
        expect((await inbound(a, { text: 'Mensagem pela instância A' })).statusCode).toBe(200);
        const { conversation, message } = await heard;
        expect(conversation.id).toBe(conversationId);
        expect(message).toMatchObject({ sender: 'contact', text: 'Mensagem pela instância A' });
      } finally {
        socket.close();
      }
    },
  );

  it('the phone offline: messages through A and B wait; back online through B, they are stored once, in order, and answered once', async () => {
    const lia = '5511987650003@s.whatsapp.net';
    const network = (ctx: TestContext, online: boolean) =>
      post(
        ctx,
        `/api/whatsapp/sandbox/phones/${PHONE}/network`,
        { online },
        { token: owner.token },
      );
    expect((await network(a, false)).statusCode).toBe(200);
    const texts = ['Bom dia', 'Tem horário amanhã?', 'De manhã, se possível'];
    for (const [n, text] of texts.entries())
      expect((await inbound(n % 2 ? b : a, { from: lia, text, pushName: 'Lia' })).statusCode).toBe(
        200,
      );
    expect((await conversations(b)).some((c) => c.contact_name === 'Lia')).toBe(false);

    const [sinceA, sinceB] = [watchA.count, watchB.count];
    expect((await network(b, true)).statusCode).toBe(200);
    // Delivered as the switch answers, through B: B asks for the reply (either may make it).
    const [reply] = await watchB.settled(sinceB);
    expect(reply!.outcome).toBe('sent');
    expect(watchA.count).toBe(sinceA);
    expect(watchB.count).toBe(sinceB + 1);
    const conversation = (await conversations(a)).find((c) => c.contact_name === 'Lia')!;
    const messages = (
      await get(a, `/api/whatsapp/conversations/${conversation.id}`, { token: owner.token })
    ).json<{ data: WhatsAppConversationDetail }>().data.messages;
    expect(messages.map((m) => [m.sender, m.sender === 'contact' ? m.text : 'reply'])).toEqual([
      ...texts.map((text) => ['contact', text]),
      ['user', 'reply'],
    ]);
    // To Lia, that reply alone (the earlier contact's replies may still be going out).
    const sent = (await sentTexts(b)).filter((e) => e.type === 'message' && e.to === lia);
    expect(sent).toEqual([expect.objectContaining({ to: lia, text: messages[3]!.text })]);
  });

  it('the phone logs out through A: B says why, and a new code through B ends it for A', async () => {
    expect(
      (await post(a, `/api/whatsapp/sandbox/phones/${PHONE}/logout`, {}, { token: owner.token }))
        .statusCode,
    ).toBe(200);
    expect(await status(b)).toMatchObject({
      state: 'disconnected',
      isReady: false,
      lastCloseReason: 'logged-out',
    });
    expect(await status(a)).toEqual(await status(b));
    const connect = await post(b, '/api/whatsapp/connect', {}, { token: owner.token });
    expect(connect.json<{ data: WhatsAppStatus }>().data).toMatchObject({
      state: 'qr',
      lastCloseReason: null,
    });
    expect(await status(a)).toMatchObject({ state: 'qr', lastCloseReason: null });
  });
  it('a pairing code asked through A while B shows the QR, typed through B, links the number for both; a block through B holds A’s replies', async () => {
    const asked = await post(
      a,
      '/api/whatsapp/pairing-code',
      { phone: PHONE },
      { token: owner.token },
    );
    const code = asked.json<{ data: WhatsAppStatus }>().data.pairingCode!;
    expect(code).toMatch(/^[0-9A-Z]{8}$/);
    expect((await status(b)).pairingCode).toBe(code);
    const typed = await post(
      b,
      '/api/whatsapp/sandbox/pairing-code',
      { code, phone: PHONE },
      { token: owner.token },
    );
    expect(typed.statusCode).toBe(200);
    expect(await status(a)).toMatchObject({ state: 'ready', phone: PHONE, pairingCode: null });

    const blocked = await post(
      b,
      `/api/whatsapp/conversations/${conversationId}/block`,
      { blocked: true },
      { token: owner.token },
    );
    expect(blocked.json().data).toMatchObject({ status: 'blocked', blocked_reason: 'owner' });
    const before = (await sentTexts(a)).length;
    const since = watchA.count;
    expect((await inbound(a, { text: 'Ainda estou aqui' })).statusCode).toBe(200);
    expect((await watchA.settled(since))[0]!.outcome).toBe('skipped');
    expect(await sentTexts(b)).toHaveLength(before);
    const unblocked = await post(
      a,
      `/api/whatsapp/conversations/${conversationId}/block`,
      { blocked: false },
      { token: owner.token },
    );
    expect(unblocked.json().data.status).toBe('active');
  });
});

describe('WhatsApp through Baileys on two instances: a photo sent through the one that does not hold the number', () => {
  let fake: FakeWhatsApp;
  let instances: Awaited<ReturnType<typeof createTwoInstances>>;
  // One page's view of both: in production Socket.IO's adapter carries each instance's events to
  // the owner's page wherever it is connected.
  const page = watchedHub();
  let owner: Account;
  const phone = `55119${String(Date.now() % 1e6).padStart(6, '0')}78`;
  const contact = '5511987650009';

  beforeAll(async () => {
    fake = await startFakeWhatsApp();
    instances = await createTwoInstances({ limits: { routes: UNLIMITED_ROUTES } }, () => ({
      events: page.hub,
      whatsapp: {
        transport: 'baileys',
        wsUrl: fake.url,
        mediaUploadAgent: fake.mediaUploadAgent,
        mediaDownloadDispatcher: fake.mediaDownloadDispatcher,
      },
    }));
    owner = await registerAndLogin(instances.a, { name: 'Bia' });
    await linkOnFake({ ctx: instances.a, ...page }, fake, owner, phone, { answeredBy: null });
  });
  afterAll(async () => {
    await instances?.close();
    await fake?.close();
  });

  it('the contact gets it once, with its caption, and its ticks reach the page', async () => {
    const { a, b } = instances;
    // The contact writes first: its conversation is there for the owner to answer.
    let since = page.events.length;
    await fake.deliverText({ to: phone, from: contact, text: 'Pode mandar a foto do produto?' });
    await nextEvent(page, owner.user.id, 'whatsapp:new_message', since);
    const [conversation] = await conversationsOf(b, owner);

    const received: SentMedia[] = [];
    fake.events.on('sent-media', (sent: SentMedia) => received.push(sent));
    const arrived = fake.next<SentMedia>('sent-media');
    const bytes = await photo();
    const form = new FormData();
    form.append('caption', 'Aqui está');
    form.append('file', new File([bytes], 'produto.jpg', { type: 'image/jpeg' }));
    since = page.events.length;
    const res = await b.app.inject({
      method: 'POST',
      url: `/api/whatsapp/conversations/${conversation!.id}/media`,
      payload: form,
      headers: { authorization: `Bearer ${owner.token}` },
    });
    expect(res.statusCode, res.body).toBe(200);
    const stored = res.json<{ data: WhatsAppMessage }>().data;

    const sent = await arrived;
    expect(sent).toMatchObject({ from: phone, to: contact });
    const image = sent.message.imageMessage!;
    expect(image.caption).toBe('Aqui está');
    expect(decryptMedia(fake.uploaded(image.url!)!, image.mediaKey!, 'image').equals(bytes)).toBe(
      true,
    );
    const ticked = (status: string) =>
      nextEvent(
        page,
        owner.user.id,
        'whatsapp:message_status',
        since,
        (payload) => payload.messageId === stored.id && payload.status === status,
      );
    await ticked('sent');
    await fake.receipt({ phone, from: contact, ids: [sent.id], status: 'read' });
    await ticked('read');

    // Read again through either instance, the photo is shown read.
    for (const ctx of [a, b]) {
      const shown = (await conversationDetail(ctx, owner, conversation!.id)).messages.find(
        (m) => m.id === stored.id,
      );
      expect(shown).toMatchObject({ status: 'read', text: 'Aqui está' });
    }
    expect(received).toHaveLength(1);
    // A held the number's one connection throughout.
    expect(fake.connections.size).toBe(1);
  });

  it("a file B's transport is asked to send goes out on A's socket, read from the disk both share", async () => {
    const { a, b } = instances;
    // Whichever instance runs a send job: here B, which does not hold the number, by construction.
    expect(a.app.whatsapp.transport).not.toBe(b.app.whatsapp.transport);
    const bytes = await photo();
    const dir = path.join(b.mediaDir, owner.user.id);
    await fs.mkdir(dir, { recursive: true });
    const file = path.join(dir, `${randomUUID()}.jpg`);
    await fs.writeFile(file, bytes);
    const arrived = fake.next<SentMedia>('sent-media');
    const { id } = await b.app.whatsapp.transport.sendMedia(
      owner.user.id,
      `${contact}@s.whatsapp.net`,
      { kind: 'image', path: file, mimetype: 'image/jpeg', size: bytes.length, caption: 'Pelo B' },
      { id: `3EB0${randomBytes(10).toString('hex').toUpperCase()}` },
    );
    const sent = await arrived;
    expect(sent).toMatchObject({ id, from: phone, to: contact });
    const image = sent.message.imageMessage!;
    expect(image.caption).toBe('Pelo B');
    expect(decryptMedia(fake.uploaded(image.url!)!, image.mediaKey!, 'image').equals(bytes)).toBe(
      true,
    );
    // B opened no connection of its own: A sent it.
    expect(fake.connections.size).toBe(1);
  });
});
