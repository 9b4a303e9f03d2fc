import { expect } from 'vitest';
import type { WhatsAppConversation, WhatsAppConversationDetail } from '@contrateia/shared';
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
