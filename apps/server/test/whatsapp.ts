import { expect } from 'vitest';
import type {
  SandboxPhoneEvent,
  WhatsAppConversation,
  WhatsAppConversationDetail,
} from '@contrateia/shared';
import { get, type registerAndLogin } from './factories';
import type { TestContext } from './helpers';

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
