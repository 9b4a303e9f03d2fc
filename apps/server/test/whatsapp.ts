import { expect } from 'vitest';
import {
  DEFAULT_AGENT_NAME,
  type SandboxPhoneEvent,
  type WhatsAppConversation,
  type WhatsAppAgent,
  type WhatsAppConversationDetail,
  type WhatsAppStatus,
} from '@contrateia/shared';
import type { createEventHub, HubEvent } from '@/lib/event-hub';
import { until } from './eventually';
import { get, post, type registerAndLogin } from './factories';
import type { FakeWhatsApp } from './fake-whatsapp';
import type { TestContext } from './helpers';
import { qrText } from './qr';

type Account = Awaited<ReturnType<typeof registerAndLogin>>;

/** The account's WhatsApp conversations, as its page lists them (first page). */
export async function conversations(
  ctx: TestContext,
  account: Account,
): Promise<WhatsAppConversation[]> {
  const res = await get(ctx, '/api/whatsapp/conversations', { token: account.token });
  expect(res.statusCode).toBe(200);
  return res.json<{ data: WhatsAppConversation[] }>().data;
}

/** One of the account's WhatsApp conversations with its latest messages, as its pane opens it. */
export async function conversationDetail(
  ctx: TestContext,
  account: Account,
  id: string,
): Promise<WhatsAppConversationDetail> {
  const res = await get(ctx, `/api/whatsapp/conversations/${id}`, { token: account.token });
  expect(res.statusCode).toBe(200);
  return res.json<{ data: WhatsAppConversationDetail }>().data;
}

/** What the sandbox phone `phone` saw (sends, presence, reads), read with the sandbox secret's `headers`. */
export async function sandboxPhoneEvents(
  ctx: TestContext,
  phone: string,
  headers: Record<string, string>,
): Promise<SandboxPhoneEvent[]> {
  const res = await ctx.app.inject({
    method: 'GET',
    url: `/api/whatsapp/sandbox/phones/${phone}/events`,
    headers,
  });
  expect(res.statusCode).toBe(200);
  return res.json<{ events: SandboxPhoneEvent[] }>().events;
}

/**
 * Chooses who answers the account's contacts ("Quem atende seus clientes?"): the available agent
 * named `name` (guia, which every account has hired, unless told). Until then nobody answers.
 */
export async function chooseAnsweringAgent(
  ctx: TestContext,
  account: Account,
  name: string = DEFAULT_AGENT_NAME,
) {
  const available = await get(ctx, '/api/whatsapp/agents/available', { token: account.token });
  expect(available.statusCode, available.body).toBe(200);
  const agent = available.json<{ data: WhatsAppAgent[] }>().data.find((a) => a.name === name);
  expect(agent, `${name} may answer the account's contacts`).toBeDefined();
  const res = await post(
    ctx,
    '/api/whatsapp/settings',
    { defaultAgentId: agent!.id },
    { token: account.token },
  );
  expect(res.statusCode, res.body).toBe(200);
}

/** Whom a link leaves answering the account's contacts: an agent's name, or nobody (`null`). */
export type LinkOptions = { answeredBy?: string | null };

/**
 * Links the sandbox number `phone` to the account, as its phone page does with the QR's token,
 * with guia chosen to answer its contacts unless `answeredBy` says otherwise.
 */
export async function linkSandbox(
  ctx: TestContext,
  account: Account,
  phone: string,
  { answeredBy = DEFAULT_AGENT_NAME }: LinkOptions = {},
) {
  if (answeredBy !== null) await chooseAnsweringAgent(ctx, account, answeredBy);
  const connect = await post(ctx, '/api/whatsapp/connect', {}, { token: account.token });
  expect(connect.statusCode, connect.body).toBe(200);
  const token = new URL(
    qrText(connect.json<{ data: WhatsAppStatus }>().data.qrCode!),
  ).searchParams.get('pair')!;
  const pair = await post(ctx, '/api/whatsapp/sandbox/pair', { token, phone });
  expect(pair.statusCode, pair.body).toBe(200);
}

/**
 * Links `phone` to the account through Baileys and the fake WhatsApp: the QR the account's
 * browser hears (`events`, from the app's `hub`) is scanned, and the number is ready; guia is
 * chosen to answer its contacts unless `answeredBy` says otherwise.
 */
export async function linkOnFake(
  {
    ctx,
    hub,
    events,
  }: { ctx: TestContext; hub: ReturnType<typeof createEventHub>; events: HubEvent[] },
  fake: FakeWhatsApp,
  account: Account,
  phone: string,
  { answeredBy = DEFAULT_AGENT_NAME }: LinkOptions = {},
) {
  if (answeredBy !== null) await chooseAnsweringAgent(ctx, account, answeredBy);
  const since = events.length;
  expect((await post(ctx, '/api/whatsapp/connect', {}, { token: account.token })).statusCode).toBe(
    200,
  );
  const qr = await until(
    () =>
      events.slice(since).find((e) => e.userId === account.user.id && e.name === 'whatsapp:qr')
        ?.payload as { qrCode: string } | undefined,
    { what: 'the QR', changes: (onChange) => hub.subscribe(onChange) },
  );
  const ready = until(
    () =>
      events.slice(since).find((e) => e.userId === account.user.id && e.name === 'whatsapp:ready'),
    { what: 'ready', changes: (onChange) => hub.subscribe(onChange) },
  );
  await fake.scan(qrText(qr.qrCode), phone);
  await ready;
}
