import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  ClientToServerEvents,
  ServerEventName,
  ServerEventPayload,
  ServerToClientEvents,
} from '@contrateia/shared';
import { eventually, within } from '../../../test/eventually';
import { createTestApp, type TestContext, NO_MONITOR } from '../../../test/helpers';
import { get, post, registerAndLogin, UNLIMITED_ROUTES } from '../../../test/factories';
import { qrText } from '../../../test/qr';
import { chooseAnsweringAgent, linkSandbox } from '../../../test/whatsapp';

// The whole path a browser sees: a contact's message through the sandbox, the service, the event
// hub and Socket.IO, to the owner's socket, and to no one else's.

type ClientSocket = Socket<ServerToClientEvents, ClientToServerEvents>;

/** A signed-in browser's socket, joined to its WhatsApp room, recording what it hears. */
async function browser(url: string, token: string) {
  const socket: ClientSocket = io(url, {
    transports: ['websocket'],
    auth: { token },
    reconnection: false,
    forceNew: true,
  });
  const heard: { event: string; payload: unknown }[] = [];
  const waiting: { event: string; resolve: (payload: unknown) => void }[] = [];
  socket.onAny((event: string, payload: unknown) => {
    heard.push({ event, payload });
    for (let i = waiting.length - 1; i >= 0; i -= 1) {
      if (waiting[i]!.event !== event) continue;
      waiting[i]!.resolve(payload);
      waiting.splice(i, 1);
    }
  });
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('connect_error', reject);
  });
  expect(await new Promise((resolve) => socket.emit('join-whatsapp', resolve))).toEqual({
    ok: true,
  });
  /** The next `event` heard from now on. */
  const next = <E extends ServerEventName>(event: E) =>
    within(
      new Promise<ServerEventPayload<E>>((resolve) =>
        waiting.push({ event, resolve: resolve as (payload: unknown) => void }),
      ),
      `the event ${event} on the browser's socket`,
    );
  return { socket, heard, next };
}

describe("WhatsApp events reach the owner's browser over Socket.IO", () => {
  let ctx: TestContext;
  let url: string;
  beforeAll(async () => {
    ctx = await createTestApp({
      without: NO_MONITOR,
      limits: { routes: UNLIMITED_ROUTES },
      whatsapp: { transport: 'sandbox' },
    });
    url = await ctx.app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => ctx.close());

  it("QR, ready, the contact's message and the agent's reply reach the owner; another account hears nothing", async () => {
    const ana = await registerAndLogin(ctx, { name: 'Ana' });
    const bia = await registerAndLogin(ctx, { name: 'Bia' });
    const anas = await browser(url, ana.token);
    const bias = await browser(url, bia.token);

    await chooseAnsweringAgent(ctx, ana);
    const qr = anas.next('whatsapp:qr');
    expect((await post(ctx, '/api/whatsapp/connect', {}, { token: ana.token })).statusCode).toBe(
      200,
    );
    const token = new URL(qrText((await qr).qrCode)).searchParams.get('pair')!;
    const ready = anas.next('whatsapp:ready');
    expect(
      (await post(ctx, '/api/whatsapp/sandbox/pair', { token, phone: '5511900001111' })).statusCode,
    ).toBe(200);
    expect(await ready).toEqual({ phone: '5511900001111' });

    const arrived = anas.next('whatsapp:new_message');
    const replied = anas.next('whatsapp:message_sent');
    const inbound = await post(ctx, '/api/whatsapp/sandbox/inbound', {
      to: '5511900001111',
      from: '5511988887777@s.whatsapp.net',
      text: 'Olá, tudo bem?',
      pushName: 'Carla',
    });
    expect(inbound.statusCode).toBe(200);
    const { conversation, message } = await arrived;
    expect(message).toMatchObject({ sender: 'contact', text: 'Olá, tudo bem?' });
    expect(conversation).toMatchObject({
      contact_name: 'Carla',
      contact_number: '5511988887777',
      unread_count: 1,
    });
    const reply = await replied;
    expect(reply.conversationId).toBe(conversation.id);
    expect(reply.message).toMatchObject({ sender: 'user', agentName: 'guia' });
    // What the browser shows is what the contact's phone receives: the reply is shown once
    // stored, and its send job sends it then.
    const phoneGot = async () =>
      (
        await get(ctx, '/api/whatsapp/sandbox/phones/5511900001111/events', { token: ana.token })
      ).json<{ events: { type: string; to?: string; text?: string }[] }>().events;
    await eventually(
      async () => (await phoneGot()).some((e) => e.type === 'message'),
      "the reply on the contact's phone",
      15_000,
    );
    expect(await phoneGot()).toContainEqual(
      expect.objectContaining({
        type: 'message',
        to: '5511988887777@s.whatsapp.net',
        text: reply.message.text,
      }),
    );

    // Bia's own QR is the first thing her browser hears: nothing of Ana's came before it.
    const hers = bias.next('whatsapp:qr');
    expect((await post(ctx, '/api/whatsapp/connect', {}, { token: bia.token })).statusCode).toBe(
      200,
    );
    await hers;
    expect(bias.heard.map((h) => h.event)).toEqual(['whatsapp:qr']);
    anas.socket.close();
    bias.socket.close();
  });

  it("changes made in one tab reach the owner's other tabs: whitelist, agent, settings, delete; nobody else's", async () => {
    const caio = await registerAndLogin(ctx, { name: 'Caio' });
    const dani = await registerAndLogin(ctx, { name: 'Dani' });
    const caios = await browser(url, caio.token);
    const danis = await browser(url, dani.token);
    const ready = caios.next('whatsapp:ready');
    await linkSandbox(ctx, caio, '5511900002222');
    await ready;
    const arrived = caios.next('whatsapp:new_message');
    await post(ctx, '/api/whatsapp/sandbox/inbound', {
      to: '5511900002222',
      from: '5511977776666@s.whatsapp.net',
      text: 'Oi',
    });
    const conversationId = (await arrived).conversation.id;
    const as = { token: caio.token };

    const whitelisted = caios.next('whatsapp:conversation_changed');
    expect(
      (
        await post(
          ctx,
          `/api/whatsapp/conversations/${conversationId}/whitelist`,
          { isWhitelisted: true },
          as,
        )
      ).statusCode,
    ).toBe(200);
    expect(await whitelisted).toEqual({ conversationId });

    const agentId = (await get(ctx, '/api/whatsapp/agents/available', as)).json().data[0]
      .id as string;
    const assigned = caios.next('whatsapp:conversation_changed');
    expect(
      (
        await post(
          ctx,
          `/api/whatsapp/conversations/${conversationId}/assign-agent`,
          { agentId },
          as,
        )
      ).statusCode,
    ).toBe(200);
    expect(await assigned).toEqual({ conversationId });

    const settings = caios.next('whatsapp:settings_changed');
    expect(
      (await post(ctx, '/api/whatsapp/settings', { whitelistMode: true }, as)).statusCode,
    ).toBe(200);
    expect(await settings).toEqual({ whitelistMode: true });

    const deleted = caios.next('whatsapp:conversation_deleted');
    expect(
      (
        await ctx.app.inject({
          method: 'DELETE',
          url: `/api/whatsapp/conversations/${conversationId}`,
          headers: { authorization: `Bearer ${caio.token}` },
        })
      ).statusCode,
    ).toBe(200);
    expect(await deleted).toEqual({ conversationId });

    // Dani's own change is the first thing her browser hears.
    const hers = danis.next('whatsapp:settings_changed');
    await post(ctx, '/api/whatsapp/settings', { whitelistMode: false }, { token: dani.token });
    await hers;
    expect(danis.heard.map((h) => h.event)).toEqual(['whatsapp:settings_changed']);
    caios.socket.close();
    danis.socket.close();
  });
});
