import type { ServerResponse } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Agent, ConversationSummary, SendMessageResponse } from '@contrateia/shared';
import { createTestApp, type TestContext, NO_MONITOR } from '../../../test/helpers';
import { createGate, startFakeOpenAI, type FakeOpenAI } from '../../../test/fake-openai';
import { get, post, registerAndLogin, UNLIMITED_ROUTES } from '../../../test/factories';
import { insertExchange } from './chat.repository';
import { users } from '@/features/auth/auth.table';
import { conversations, messages } from './chat.table';
import { settles } from '../../../test/eventually';

type Account = Awaited<ReturnType<typeof registerAndLogin>>;

/** The public origin the chat tests' app is configured with (PUBLIC_URL). */
const PUBLIC_URL = 'https://app.contrateia.test';

async function hire(ctx: TestContext, account: Account, name: string) {
  const available = (await get(ctx, '/api/agents/available', { token: account.token })).json<{
    agents: Agent[];
  }>().agents;
  const agent = available.find((a) => a.name === name);
  if (!agent) throw new Error(`${name} is not available`);
  const res = await post(ctx, '/api/agents/hire', { agentId: agent.id }, { token: account.token });
  if (res.statusCode !== 200) throw new Error(`hire ${name}: ${res.body}`);
}

function send(
  ctx: TestContext,
  account: Account,
  body: Record<string, unknown>,
  language = 'en-US' as const,
) {
  return post(ctx, '/api/chat/message', body, { token: account.token, language });
}

/** Sends a message asking for the reply as server-sent events. */
function sendStreamed(
  ctx: TestContext,
  account: Account,
  body: Record<string, unknown>,
  language: string,
) {
  return ctx.app.inject({
    method: 'POST',
    url: '/api/chat/message',
    headers: {
      authorization: `Bearer ${account.token}`,
      'content-type': 'application/json',
      accept: 'text/event-stream',
      'accept-language': language,
    },
    payload: JSON.stringify(body),
  });
}

/** Parses a text/event-stream body into its events. */
function parseEvents(body: string): { event: string; data: unknown }[] {
  return body
    .split('\n\n')
    .filter((block) => block.trim())
    .map((block) => {
      const event = /^event: (.*)$/m.exec(block)?.[1] ?? 'message';
      const data = JSON.parse(/^data: (.*)$/m.exec(block)?.[1] ?? 'null') as unknown;
      return { event, data };
    });
}

describe('chat with the builtin engine', () => {
  let ctx: TestContext;
  let admin: Account;
  let ana: Account;
  let bruno: Account;

  beforeAll(async () => {
    ctx = await createTestApp({
      without: NO_MONITOR,
      publicUrl: PUBLIC_URL,
      limits: { routes: UNLIMITED_ROUTES, chat: { points: 1000, durationSeconds: 60 } },
    });
    admin = await registerAndLogin(ctx, { name: 'Admin' });
    ana = await registerAndLogin(ctx, { name: 'Ana' });
    bruno = await registerAndLogin(ctx, { name: 'Bruno' });
    await hire(ctx, ana, 'auxtrat');
  });
  afterAll(async () => ctx.close());

  it('answers, creating a conversation that is stored and listed', async () => {
    const res = await send(ctx, ana, { message: '  How do I hire an agent?  ', agentName: 'guia' });
    expect(res.statusCode).toBe(200);
    const body = res.json<SendMessageResponse>();
    expect(body.success).toBe(true);
    expect(body.message.sender).toBe('bot');
    expect(body.message.text).toMatch(/^\*\*Hire an agent\*\*\n/);
    expect(new Date(body.message.timestamp).toString()).not.toBe('Invalid Date');

    const list = (await get(ctx, '/api/chat/conversations', { token: ana.token })).json<{
      conversations: ConversationSummary[];
    }>();
    const listed = list.conversations.find((c) => c.id === body.conversation.id);
    expect(listed).toMatchObject({ agentName: 'guia', messageCount: 2 });

    const one = await get(ctx, `/api/chat/conversations/${body.conversation.id}`, {
      token: ana.token,
    });
    expect(one.statusCode).toBe(200);
    const conversation = one.json().conversation;
    expect(conversation.agentName).toBe('guia');
    expect(
      conversation.messages.map((m: { sender: string; text: string }) => [m.sender, m.text]),
    ).toEqual([
      ['user', 'How do I hire an agent?'],
      ['bot', body.message.text],
    ]);
  });

  it("never writes into another user's conversation, even when asked to directly: nothing is stored", async () => {
    const mine = (
      await send(ctx, ana, { message: 'hello', agentName: 'guia' })
    ).json<SendMessageResponse>();
    const [conversation] = await ctx.database.db
      .select()
      .from(conversations)
      .where(eq(conversations.id, mine.conversation.id));
    const before = await ctx.database.db
      .select()
      .from(messages)
      .where(eq(messages.conversationId, mine.conversation.id));
    const at = new Date();
    // The conversation is not touched, so the messages get no conversation id: the statement fails.
    await expect(
      insertExchange({
        db: ctx.database.db,
        conversation: {
          id: mine.conversation.id,
          userId: bruno.user.id,
          agentId: conversation!.agentId,
        },
        userText: 'not yours',
        botText: 'not yours either',
        userAt: at,
        botAt: new Date(at.getTime() + 1),
      }),
    ).rejects.toMatchObject({ cause: { code: '23502', column: 'conversation_id' } });
    expect(
      await ctx.database.db
        .select()
        .from(messages)
        .where(eq(messages.conversationId, mine.conversation.id)),
    ).toEqual(before);
    const [after] = await ctx.database.db
      .select()
      .from(conversations)
      .where(eq(conversations.id, mine.conversation.id));
    expect(after).toEqual(conversation);
  });

  it('continues a conversation and keeps its order; newest conversations first, filterable by agent', async () => {
    const first = (
      await send(ctx, ana, { message: 'hello', agentName: 'auxtrat' })
    ).json<SendMessageResponse>();
    const second = await send(ctx, ana, {
      message: 'how much is the consulting?',
      agentName: 'auxtrat',
      conversationId: first.conversation.id,
    });
    expect(second.statusCode).toBe(200);
    expect(second.json<SendMessageResponse>().conversation.id).toBe(first.conversation.id);
    ctx.clock.advance(1000); // the test clock stands still otherwise
    const newer = (
      await send(ctx, ana, { message: 'hi again', agentName: 'auxtrat' })
    ).json<SendMessageResponse>();

    // Ana also has conversations with guia (the tests above): the filter leaves them out.
    const all = (
      await get(ctx, '/api/chat/conversations?agentName=auxtrat', { token: ana.token })
    ).json<{ conversations: ConversationSummary[] }>().conversations;
    expect(all.map((c) => [c.id, c.agentName, c.messageCount])).toEqual([
      [newer.conversation.id, 'auxtrat', 2],
      [first.conversation.id, 'auxtrat', 4],
    ]);
    const stored = (
      await get(ctx, `/api/chat/conversations/${first.conversation.id}`, { token: ana.token })
    ).json().conversation.messages as { sender: string; text: string }[];
    expect(stored.map((m) => m.sender)).toEqual(['user', 'bot', 'user', 'bot']);
    expect([stored[0]!.text, stored[2]!.text]).toEqual(['hello', 'how much is the consulting?']);
    expect(stored[3]!.text).toBe(second.json<SendMessageResponse>().message.text);
  });

  it("hides another user's conversation, and refuses it for another agent (404)", async () => {
    const mine = (
      await send(ctx, ana, { message: 'hello', agentName: 'guia' })
    ).json<SendMessageResponse>();
    const notFound = { success: false, message: 'Conversation not found' };
    const hidden = await get(ctx, `/api/chat/conversations/${mine.conversation.id}`, {
      token: bruno.token,
      language: 'en-US',
    });
    expect([hidden.statusCode, hidden.json()]).toEqual([404, notFound]);
    const theirs = await send(ctx, bruno, {
      message: 'hi',
      agentName: 'guia',
      conversationId: mine.conversation.id,
    });
    expect([theirs.statusCode, theirs.json()]).toEqual([404, notFound]);
    const otherAgent = await send(ctx, ana, {
      message: 'hi',
      agentName: 'auxtrat',
      conversationId: mine.conversation.id,
    });
    expect([otherAgent.statusCode, otherAgent.json()]).toEqual([404, notFound]);
    const malformed = await get(ctx, '/api/chat/conversations/not-a-uuid', {
      token: ana.token,
      language: 'en-US',
    });
    expect([malformed.statusCode, malformed.json()]).toEqual([404, notFound]);
    // Bruno has no conversation of his own yet: his list is empty, not merely without Ana's.
    const list = (await get(ctx, '/api/chat/conversations', { token: bruno.token })).json<{
      conversations: ConversationSummary[];
    }>().conversations;
    expect(list).toEqual([]);
  });

  it('checks the agent: unknown 404, not hired 403', async () => {
    const unknown = await send(ctx, ana, { message: 'hi', agentName: 'nobody' });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('Agent not found');
    const notHired = await send(ctx, bruno, { message: 'hi', agentName: 'auxtrat' });
    expect(notHired.statusCode).toBe(403);
    expect(notHired.json().message).toBe("You don't have access to this agent");
    const short = await post(
      ctx,
      '/api/chat',
      { message: 'hi', agentName: 'auxtrat' },
      { token: bruno.token, language: 'en-US' },
    );
    expect(short.statusCode).toBe(403);
    expect(short.json()).toEqual({
      success: false,
      message: "You don't have access to this agent",
    });
  });

  it('refuses blank, oversized and malformed messages with field errors, storing nothing', async () => {
    const before = (await ctx.database.db.select().from(messages)).length;
    const blank = await send(ctx, ana, { message: '   \n ', agentName: 'guia' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().errors.message).toBe('Please type a message');
    const huge = await send(ctx, ana, { message: 'a'.repeat(4001), agentName: 'guia' });
    expect(huge.statusCode).toBe(400);
    expect(huge.json().errors.message).toBe('Messages can have at most 4,000 characters');
    expect(
      (await send(ctx, ana, { message: 'a'.repeat(4000), agentName: 'guia' })).statusCode,
    ).toBe(200);
    const refusals: [Record<string, unknown>, Record<string, string>][] = [
      [{}, { message: 'Please type a message', agentName: 'Agent name is required' }],
      [{ message: 12, agentName: 'guia' }, { message: 'Please type a message' }],
      [{ message: 'x', agentName: '../etc' }, { agentName: 'Invalid agent name' }],
      [
        { message: 'x', agentName: 'guia', conversationId: 'nope' },
        { conversationId: 'Invalid conversation' },
      ],
    ];
    for (const [body, errors] of refusals) {
      const res = await send(ctx, ana, body);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ success: false, message: 'Validation error', errors });
    }
    expect((await ctx.database.db.select().from(messages)).length).toBe(before + 2);
  });

  it('streams the reply as server-sent events, then the stored message', async () => {
    const res = await sendStreamed(
      ctx,
      ana,
      { message: 'como conecto meu whatsapp?', agentName: 'guia' },
      'pt-BR',
    );
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/event-stream');
    const events = parseEvents(res.body);
    const deltas = events
      .filter((e) => e.event === 'delta')
      .map((e) => (e.data as { text: string }).text);
    expect(deltas.length).toBeGreaterThan(1);
    const done = events.at(-1)!;
    expect(done.event).toBe('done');
    const stored = (done.data as SendMessageResponse).message;
    expect(deltas.join('').trim()).toBe(stored.text);
    expect(stored.text).toMatch(/^\*\*Conectar o WhatsApp\*\*\n/);
  });

  it('limits chat calls per user (429)', async () => {
    const limited = await createTestApp({
      without: NO_MONITOR,
      limits: { routes: UNLIMITED_ROUTES, chat: { points: 2, durationSeconds: 60 } },
    });
    try {
      const someone = await registerAndLogin(limited);
      const windowStarted = Date.now();
      expect((await send(limited, someone, { message: 'a', agentName: 'guia' })).statusCode).toBe(
        200,
      );
      expect((await send(limited, someone, { message: 'b', agentName: 'guia' })).statusCode).toBe(
        200,
      );
      const third = await send(limited, someone, { message: 'c', agentName: 'guia' });
      expect(third.statusCode).toBe(429);
      // The rest of the minute that began with the first message (on the real clock), in the
      // header and in the message alike.
      const elapsed = Math.ceil((Date.now() - windowStarted) / 1000);
      const retryAfter = Number(third.headers['retry-after']);
      expect(retryAfter).toBeGreaterThanOrEqual(60 - elapsed);
      expect(retryAfter).toBeLessThanOrEqual(60);
      expect(third.json()).toEqual({
        success: false,
        message: `Too many requests. Please try again in ${retryAfter} seconds.`,
      });
    } finally {
      await limited.close();
    }
  });

  it('short form POST /api/chat continues the latest conversation with the agent', async () => {
    const res = await post(
      ctx,
      '/api/chat',
      { message: 'thanks!', agentName: 'guia' },
      { token: bruno.token, language: 'en-US' },
    );
    expect(res.statusCode).toBe(200);
    const again = await post(
      ctx,
      '/api/chat',
      { message: 'how do I sign out?', agentName: 'guia' },
      { token: bruno.token },
    );
    expect(again.statusCode).toBe(200);
    const list = (
      await get(ctx, '/api/chat/conversations?agentName=guia', { token: bruno.token })
    ).json<{ conversations: ConversationSummary[] }>().conversations;
    expect(list).toHaveLength(1);
    expect(list[0]!.messageCount).toBe(4);
    // Each answer is the reply stored in that one conversation.
    const stored = (
      await get(ctx, `/api/chat/conversations/${list[0]!.id}`, { token: bruno.token })
    ).json().conversation.messages as { sender: string; text: string }[];
    expect(stored.map((m) => m.sender)).toEqual(['user', 'bot', 'user', 'bot']);
    expect([stored[0]!.text, stored[2]!.text]).toEqual(['thanks!', 'how do I sign out?']);
    expect(res.json()).toEqual({ response: stored[1]!.text });
    expect(again.json()).toEqual({ response: stored[3]!.text });
  });

  it("reports the user's own figures", async () => {
    const someone = await registerAndLogin(ctx);
    expect((await get(ctx, '/api/stats', { token: someone.token })).json()).toEqual({
      hiredAgents: 1,
      conversations: 0,
      messages: 0,
    });
    await send(ctx, someone, { message: 'hi', agentName: 'guia' });
    expect((await get(ctx, '/api/stats', { token: someone.token })).json()).toEqual({
      hiredAgents: 1,
      conversations: 1,
      messages: 2,
    });
  });

  it("tells the time in the zone the web app sends, else the language's default", async () => {
    const someone = await registerAndLogin(ctx);
    await hire(ctx, someone, 'assistente');
    const ask = async (zone: string | undefined) => {
      const res = await ctx.app.inject({
        method: 'POST',
        url: '/api/chat/message',
        payload: JSON.stringify({ message: 'what time is it?', agentName: 'assistente' }),
        headers: {
          authorization: `Bearer ${someone.token}`,
          'content-type': 'application/json',
          'accept-language': 'en-US',
          ...(zone ? { 'x-time-zone': zone } : {}),
        },
      });
      return res.json<SendMessageResponse>().message.text;
    };
    expect(await ask('Asia/Tokyo')).toContain('(Japan Standard Time)');
    expect(await ask('Not/AZone')).toContain('(Coordinated Universal Time)');
    expect(await ask(undefined)).toContain('(Coordinated Universal Time)');
  });

  it('administrador answers with live figures for admins', async () => {
    await hire(ctx, admin, 'administrador');
    const res = await send(ctx, admin, {
      message: 'How many users are there?',
      agentName: 'administrador',
    });
    expect(res.statusCode).toBe(200);
    const count = await ctx.database.db.$count(users);
    expect(res.json<SendMessageResponse>().message.text).toContain(String(count));
  });
});

describe('chat with an OpenAI-compatible provider', () => {
  let ctx: TestContext;
  let ai: FakeOpenAI;
  let ana: Account;

  beforeAll(async () => {
    ai = await startFakeOpenAI({ chunks: ['Olá', ', tudo', ' bem?'], delayMs: 20 });
    ctx = await createTestApp({
      without: NO_MONITOR,
      limits: { routes: UNLIMITED_ROUTES, chat: { points: 1000, durationSeconds: 60 } },
      ai: { provider: 'openai', baseUrl: ai.url, model: 'test-model', timeoutMs: 1500 },
    });
    ana = await registerAndLogin(ctx, { name: 'Ana' });
  });
  afterAll(async () => {
    await ctx.close();
    await ai.close();
  });

  const countMessages = async () => (await ctx.database.db.select().from(messages)).length;

  it('stores the streamed reply', async () => {
    ai.setOptions({ chunks: ['Olá', ', tudo', ' bem?'], delayMs: 5 });
    const res = await send(ctx, ana, { message: 'oi', agentName: 'guia' }, 'en-US');
    expect(res.statusCode).toBe(200);
    expect(res.json<SendMessageResponse>().message.text).toBe('Olá, tudo bem?');
  });

  it("sends the provider the conversation's newest turns that fit the history budget, in order", async () => {
    ai.setOptions({ chunks: ['ok'], delayMs: 1 });
    // Four questions of 3,500 characters, each answered 'ok': 14,008 characters, over the 12,000
    // budget. The newest turns that fit run back to the first answer; the first question is cut.
    const question = (n: number) => String(n).repeat(3500);
    let conversationId: string | undefined;
    for (let n = 1; n <= 4; n += 1) {
      const res = await send(ctx, ana, { message: question(n), agentName: 'guia', conversationId });
      expect(res.statusCode).toBe(200);
      conversationId = res.json<SendMessageResponse>().conversation.id;
    }
    expect(
      (await send(ctx, ana, { message: 'and now?', agentName: 'guia', conversationId })).statusCode,
    ).toBe(200);
    const sent = (ai.requests.at(-1)!.body as { messages: { role: string; content: string }[] })
      .messages;
    expect(sent.slice(1)).toEqual([
      { role: 'assistant', content: 'ok' },
      { role: 'user', content: question(2) },
      { role: 'assistant', content: 'ok' },
      { role: 'user', content: question(3) },
      { role: 'assistant', content: 'ok' },
      { role: 'user', content: question(4) },
      { role: 'assistant', content: 'ok' },
      { role: 'user', content: 'and now?' },
    ]);
    expect(sent[0]!.role).toBe('system');
  });

  it('produces one reply at a time per conversation (409 for a second send meanwhile)', async () => {
    ai.setOptions({ chunks: ['one'], delayMs: 5 });
    const start = (
      await send(ctx, ana, { message: 'hello', agentName: 'guia' })
    ).json<SendMessageResponse>();
    // The provider holds the first reply until the second send has been answered.
    const gate = createGate();
    ai.setOptions({
      chunks: ['a', ' held', ' reply'],
      hold: { afterChunks: 1, until: gate.opened },
    });
    const received = ai.nextRequest();
    const first = send(ctx, ana, {
      message: 'first',
      agentName: 'guia',
      conversationId: start.conversation.id,
    });
    await received; // the provider has the request: the first reply is being produced
    const second = await send(ctx, ana, {
      message: 'second',
      agentName: 'guia',
      conversationId: start.conversation.id,
    });
    expect(second.statusCode).toBe(409);
    expect(second.json()).toEqual({
      success: false,
      message: 'Please wait for the current reply to finish',
    });
    gate.open();
    const firstReply = await first;
    expect(firstReply.statusCode).toBe(200);
    expect(firstReply.json<SendMessageResponse>().message.text).toBe('a held reply');
    // Once it is done, the conversation takes messages again.
    ai.setOptions({ chunks: ['ok'], delayMs: 1 });
    expect(
      (
        await send(ctx, ana, {
          message: 'third',
          agentName: 'guia',
          conversationId: start.conversation.id,
        })
      ).statusCode,
    ).toBe(200);
  });

  it.each([
    ['a 500', { status: 500, errorBody: 'boom' }, 'status-5xx'],
    ['a 401', { status: 401, errorBody: '{"error":"bad key"}' }, 'status-401'],
    ['a 429', { status: 429, errorBody: '{"error":"slow down"}' }, 'status-429'],
    ['a malformed stream', { rawEvents: ['not json'] }, 'malformed'],
    ['no first byte in time', { hang: true }, 'timeout'],
  ])('answers %s from the provider with 502, storing nothing', async (_name, options, reason) => {
    ai.setOptions(options);
    const before = await countMessages();
    const logged = ctx.logs.length;
    const res = await send(ctx, ana, { message: 'hello', agentName: 'guia' });
    expect(res.statusCode).toBe(502);
    expect(res.json()).toEqual({
      success: false,
      message: 'The AI service did not answer. Please try again.',
    });
    expect(await countMessages()).toBe(before);
    // This case's own log lines only (the capture holds every earlier case's too): one failure, with its reason.
    const failures = ctx.logs
      .slice(logged)
      .map((line) => JSON.parse(line) as { msg?: string; reason?: string; agent?: string })
      .filter((entry) => entry.msg === 'agent engine failed');
    expect(failures.map(({ reason, agent }) => ({ reason, agent }))).toEqual([
      { reason, agent: 'guia' },
    ]);
  });

  it('ends a streamed reply with an error event when the provider fails midway, storing nothing', async () => {
    ai.setOptions({ chunks: ['partial', 'never'], stallAfterChunks: 1 });
    const before = await countMessages();
    const res = await sendStreamed(ctx, ana, { message: 'hello', agentName: 'guia' }, 'en-US');
    const events = parseEvents(res.body);
    expect(events[0]!.event).toBe('start');
    expect(events[1]).toEqual({ event: 'delta', data: { text: 'partial' } });
    expect(events.at(-1)).toEqual({
      event: 'error',
      data: { success: false, message: 'The AI service did not answer. Please try again.' },
    });
    expect(await countMessages()).toBe(before);
  });

  /** Starts a streamed reply over real HTTP; the provider holds it after its first chunk until `gate` opens. */
  async function streamOverHttp(
    message: string,
    conversationId?: string,
    path = '/api/chat/message',
  ) {
    const address = await ctx.app
      .listen({ port: 0, host: '127.0.0.1' })
      .catch(() => `http://127.0.0.1:${(ctx.app.server.address() as { port: number }).port}`);
    const serverSawClose = new Promise<void>((resolve) => {
      ctx.app.server.once('request', (_request, response: ServerResponse) =>
        response.once('close', () => resolve()),
      );
    });
    const abort = new AbortController();
    const res = await fetch(`${address}${path}`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${ana.token}`,
        'content-type': 'application/json',
        accept: 'text/event-stream',
        'accept-language': 'en-US',
      },
      body: JSON.stringify({ message, agentName: 'guia', conversationId }),
      signal: abort.signal,
    });
    const reader = res.body!.getReader();
    let received = '';
    /** Reads until the body holds `text`. */
    const readUntil = async (text: string) => {
      while (!received.includes(text)) {
        const { value, done } = await reader.read();
        if (done) throw new Error(`the stream ended before ${text}`);
        received += new TextDecoder().decode(value);
      }
      return received;
    };
    return { abort, serverSawClose, readUntil };
  }

  it('Stop (the client going away mid-reply) ends the reply and stores what arrived, marked stopped; the next message works', async () => {
    const gate = createGate();
    ai.setOptions({
      chunks: ['first ', 'second ', 'third'],
      hold: { afterChunks: 1, until: gate.opened },
    });
    const providerAborted = ai.nextRequest();
    const { abort, serverSawClose, readUntil } = await streamOverHttp('tell me three things');
    const body = await readUntil('"first "');
    // The conversation's id comes first, so that a stopped first reply still continues one conversation.
    const started = parseEvents(body)[0]!;
    expect(started.event).toBe('start');
    const conversationId = (started.data as { conversation: { id: string } }).conversation.id;
    expect(parseEvents(body)[1]).toEqual({ event: 'delta', data: { text: 'first ' } });
    await providerAborted;
    abort.abort();
    await serverSawClose;
    // Stored without the provider ever sending the rest (the gate is still closed).
    await settles(
      async () => {
        const rows = await ctx.database.db
          .select()
          .from(messages)
          .where(eq(messages.conversationId, conversationId));
        expect(rows.map((r) => [r.sender, r.text, r.stopped])).toEqual([
          ['user', 'tell me three things', false],
          ['bot', 'first', true],
        ]);
      },
      { timeout: 10_000, interval: 20 },
    );
    // As the conversation reads back: the reply says it was stopped.
    const stored = (
      await get(ctx, `/api/chat/conversations/${conversationId}`, { token: ana.token })
    ).json().conversation.messages;
    expect(stored[1]).toMatchObject({ sender: 'bot', text: 'first', stopped: true });
    expect(stored[0].stopped).toBeUndefined();
    gate.open();
    // The conversation's reply slot was released: the next message is answered in it.
    ai.setOptions({ chunks: ['ok'], delayMs: 1 });
    const next = await send(ctx, ana, { message: 'go on', agentName: 'guia', conversationId });
    expect(next.statusCode).toBe(200);
    expect(next.json<SendMessageResponse>().message).not.toHaveProperty('stopped');
    const all = (
      await get(ctx, `/api/chat/conversations/${conversationId}`, { token: ana.token })
    ).json().conversation.messages as { text: string }[];
    expect(all.map((m) => m.text)).toEqual(['tell me three things', 'first', 'go on', 'ok']);
  });

  it("the dashboard's short form streams when asked, into the latest conversation, and Stop keeps what arrived", async () => {
    const listed = async () =>
      (await get(ctx, '/api/chat/conversations?agentName=guia', { token: ana.token })).json<{
        conversations: ConversationSummary[];
      }>().conversations;
    ai.setOptions({ chunks: ['fine'], delayMs: 1 });
    await send(ctx, ana, { message: 'the latest one', agentName: 'guia' });
    const latest = (await listed())[0]!;

    const gate = createGate();
    ai.setOptions({ chunks: ['a short ', 'never'], hold: { afterChunks: 1, until: gate.opened } });
    const received = ai.nextRequest();
    const { abort, serverSawClose, readUntil } = await streamOverHttp(
      'a quick question',
      undefined,
      '/api/chat',
    );
    const body = await readUntil('"a short "');
    expect(parseEvents(body).slice(0, 2)).toEqual([
      { event: 'start', data: { conversation: { id: latest.id } } },
      { event: 'delta', data: { text: 'a short ' } },
    ]);
    await received;
    abort.abort();
    await serverSawClose;
    // The list read at once has the stopped exchange, as the page's refresh after Stop reads it.
    expect((await listed())[0]).toMatchObject({
      id: latest.id,
      messageCount: latest.messageCount + 2,
    });
    const stored = (
      await get(ctx, `/api/chat/conversations/${latest.id}`, { token: ana.token })
    ).json().conversation.messages as { text: string; stopped?: boolean }[];
    expect(stored.slice(-2).map((m) => [m.text, m.stopped ?? false])).toEqual([
      ['a quick question', false],
      ['a short', true],
    ]);
    gate.open();

    // Without asking for a stream, the answer is the whole reply, as the specification has it.
    ai.setOptions({ chunks: ['all ', 'of it'], delayMs: 1 });
    const whole = await post(
      ctx,
      '/api/chat',
      { message: 'and once more', agentName: 'guia' },
      { token: ana.token },
    );
    expect(whole.statusCode).toBe(200);
    expect(whole.json()).toEqual({ response: 'all of it' });
  });

  it('a list read right after Stop has the stopped reply, with the new count', async () => {
    const gate = createGate();
    ai.setOptions({ chunks: ['half ', 'never'], hold: { afterChunks: 1, until: gate.opened } });
    const received = ai.nextRequest();
    const { abort, serverSawClose, readUntil } = await streamOverHttp('a question to stop');
    const body = await readUntil('"half "');
    const conversationId = (parseEvents(body)[0]!.data as { conversation: { id: string } })
      .conversation.id;
    await received;
    abort.abort();
    await serverSawClose;
    // Read as soon as the server has seen the Stop, while the stopped reply may still be being
    // written: the list has this new conversation all the same.
    const listed = (
      await get(ctx, '/api/chat/conversations?agentName=guia', { token: ana.token })
    ).json<{ conversations: ConversationSummary[] }>().conversations;
    expect(listed.find((c) => c.id === conversationId)).toMatchObject({
      id: conversationId,
      messageCount: 2,
      title: 'a question to stop',
    });
    gate.open();
  });

  it('a message sent at once after Stop is answered after the stopped reply, which the provider gets as history', async () => {
    const gate = createGate();
    ai.setOptions({ chunks: ['partial ', 'never'], hold: { afterChunks: 1, until: gate.opened } });
    const received = ai.nextRequest();
    const { abort, serverSawClose, readUntil } = await streamOverHttp('first question');
    const body = await readUntil('"partial "');
    const conversationId = (parseEvents(body)[0]!.data as { conversation: { id: string } })
      .conversation.id;
    await received;
    ai.setOptions({ chunks: ['second answer'], delayMs: 1 });
    abort.abort();
    await serverSawClose;
    // No waiting for the store: the next message goes straight away.
    const next = await send(ctx, ana, {
      message: 'second question',
      agentName: 'guia',
      conversationId,
    });
    expect(next.statusCode).toBe(200);
    gate.open();
    const all = (
      await get(ctx, `/api/chat/conversations/${conversationId}`, { token: ana.token })
    ).json().conversation.messages as { text: string; stopped?: boolean }[];
    expect(all.map((m) => [m.text, m.stopped ?? false])).toEqual([
      ['first question', false],
      ['partial', true],
      ['second question', false],
      ['second answer', false],
    ]);
    // The provider was given the stopped reply as history.
    const sent = (ai.requests.at(-1)!.body as { messages: { role: string; content: string }[] })
      .messages;
    expect(sent.slice(1)).toEqual([
      { role: 'user', content: 'first question' },
      { role: 'assistant', content: 'partial' },
      { role: 'user', content: 'second question' },
    ]);
  });

  it('Stop before any text arrived keeps the question and an empty stopped reply', async () => {
    const gate = createGate();
    ai.setOptions({ chunks: ['never', ' sent'], hold: { afterChunks: 0, until: gate.opened } });
    const received = ai.nextRequest();
    const { abort, serverSawClose, readUntil } = await streamOverHttp('a question stopped at once');
    const body = await readUntil('event: start');
    const conversationId = (parseEvents(body)[0]!.data as { conversation: { id: string } })
      .conversation.id;
    await received;
    abort.abort();
    await serverSawClose;
    await settles(
      async () => {
        const rows = await ctx.database.db
          .select()
          .from(messages)
          .where(eq(messages.conversationId, conversationId));
        expect(rows.map((r) => [r.sender, r.text, r.stopped])).toEqual([
          ['user', 'a question stopped at once', false],
          ['bot', '', true],
        ]);
      },
      { timeout: 10_000, interval: 20 },
    );
    gate.open();
  });

  it('a reply the client reads to the end is stored whole, not marked stopped', async () => {
    ai.setOptions({ chunks: ['all ', 'of ', 'it'], delayMs: 1 });
    const res = await sendStreamed(
      ctx,
      ana,
      { message: 'everything please', agentName: 'guia' },
      'en-US',
    );
    const done = parseEvents(res.body).at(-1)!;
    expect(done.event).toBe('done');
    const stored = (done.data as SendMessageResponse).message;
    expect(stored.text).toBe('all of it');
    expect(stored).not.toHaveProperty('stopped');
  });

  it('refuses to delete a conversation while its reply is being produced (409), then deletes it', async () => {
    ai.setOptions({ chunks: ['ok'], delayMs: 1 });
    const { conversation } = (
      await send(ctx, ana, { message: 'hello', agentName: 'guia' })
    ).json<SendMessageResponse>();
    const gate = createGate();
    ai.setOptions({ chunks: ['held'], hold: { afterChunks: 0, until: gate.opened } });
    const received = ai.nextRequest();
    const pending = send(ctx, ana, {
      message: 'more',
      agentName: 'guia',
      conversationId: conversation.id,
    });
    await received;
    const del = () =>
      ctx.app.inject({
        method: 'DELETE',
        url: `/api/chat/conversations/${conversation.id}`,
        headers: { authorization: `Bearer ${ana.token}`, 'accept-language': 'en-US' },
      });
    const refused = await del();
    expect([refused.statusCode, refused.json()]).toEqual([
      409,
      { success: false, message: 'Please wait for the current reply to finish' },
    ]);
    gate.open();
    expect((await pending).statusCode).toBe(200);
    expect((await del()).statusCode).toBe(200);
    expect(
      await ctx.database.db
        .select()
        .from(messages)
        .where(eq(messages.conversationId, conversation.id)),
    ).toEqual([]);
  });
});
