import { expect } from 'vitest';
import type { Agent, Language, SendMessageResponse } from '@contrateia/shared';
import { get, post, registerAndLogin } from './factories';
import type { TestContext } from './helpers';

// indirect's relays in tests: senders who hired it, and what they write to it.

type Account = Awaited<ReturnType<typeof registerAndLogin>>;

/** A new account that hired indirect (when it is not hired already). */
export async function indirectSender(ctx: TestContext, name: string): Promise<Account> {
  const account = await registerAndLogin(ctx, { name });
  const available = await get(ctx, '/api/agents/available', { token: account.token });
  const indirect = available.json<{ agents: Agent[] }>().agents.find((a) => a.name === 'indirect');
  if (indirect) {
    const hired = await post(
      ctx,
      '/api/agents/hire',
      { agentId: indirect.id },
      { token: account.token },
    );
    expect(hired.statusCode).toBe(200);
  }
  return account;
}

/** `account` writes `text` to indirect (in `conversationId`); resolves with its answer and the conversation. */
export async function sayToIndirect(
  ctx: TestContext,
  account: Account,
  text: string,
  { conversationId, language = 'pt-BR' }: { conversationId?: string; language?: Language } = {},
): Promise<{ text: string; conversationId: string; awaits: string | undefined }> {
  const res = await post(
    ctx,
    '/api/chat/message',
    { message: text, agentName: 'indirect', ...(conversationId ? { conversationId } : {}) },
    { token: account.token, language },
  );
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json<SendMessageResponse>();
  return {
    text: body.message.text,
    conversationId: body.conversation.id,
    awaits: body.message.awaits,
  };
}
