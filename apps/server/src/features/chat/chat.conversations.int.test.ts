import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { ConversationSummary, Language, SendMessageResponse } from '@contrateia/shared';
import { createTestApp, type TestContext, NO_MONITOR } from '../../../test/helpers';
import { get, post, registerAndLogin, UNLIMITED_ROUTES } from '../../../test/factories';
import { conversations, messages } from './chat.table';

type Account = Awaited<ReturnType<typeof registerAndLogin>>;

/** Conversations as a user manages them: titles, search, rename, delete. */
describe('conversation list, search, rename and delete', () => {
  let ctx: TestContext;
  let ana: Account;
  let bruno: Account;

  beforeAll(async () => {
    ctx = await createTestApp({
      without: NO_MONITOR,
      limits: { routes: UNLIMITED_ROUTES, chat: { points: 1000, durationSeconds: 60 } },
    });
    await registerAndLogin(ctx, { name: 'Admin' });
    ana = await registerAndLogin(ctx, { name: 'Ana' });
    bruno = await registerAndLogin(ctx, { name: 'Bruno' });
  });
  afterAll(async () => ctx.close());

  async function start(
    account: Account,
    message: string,
    conversationId?: string,
  ): Promise<string> {
    const res = await post(
      ctx,
      '/api/chat/message',
      { message, agentName: 'guia', conversationId },
      { token: account.token, language: 'en-US' },
    );
    expect(res.statusCode).toBe(200);
    // The clock stands still otherwise: each exchange a second later than the one before.
    ctx.clock.advance(1000);
    return res.json<SendMessageResponse>().conversation.id;
  }

  async function list(account: Account, query = ''): Promise<ConversationSummary[]> {
    const res = await get(ctx, `/api/chat/conversations?agentName=guia${query}`, {
      token: account.token,
      language: 'en-US',
    });
    expect(res.statusCode).toBe(200);
    return res.json<{ conversations: ConversationSummary[] }>().conversations;
  }

  function rename(account: Account, id: string, body: unknown, language: Language = 'en-US') {
    return ctx.app.inject({
      method: 'PATCH',
      url: `/api/chat/conversations/${id}`,
      payload: JSON.stringify(body),
      headers: {
        authorization: `Bearer ${account.token}`,
        'content-type': 'application/json',
        'accept-language': language,
      },
    });
  }

  function remove(account: Account, id: string) {
    return ctx.app.inject({
      method: 'DELETE',
      url: `/api/chat/conversations/${id}`,
      headers: { authorization: `Bearer ${account.token}`, 'accept-language': 'en-US' },
    });
  }

  it('titles each conversation from its first message, one line, cut at a word; newest activity first', async () => {
    const long =
      'Could you explain, step by step and with examples, how   hiring\nan agent works and what it costs?';
    const first = await start(ana, long);
    const second = await start(ana, 'How do I sign out?');
    const titles = (await list(ana)).map((c) => [c.id, c.title]);
    expect(titles).toEqual([
      [second, 'How do I sign out?'],
      [first, 'Could you explain, step by step and with examples, how…'],
    ]);
    // Continuing the older one brings it to the top; its title stays that of its first message.
    await start(ana, 'and something else entirely', first);
    const [top] = await list(ana);
    expect([top!.id, top!.title, top!.messageCount]).toEqual([
      first,
      'Could you explain, step by step and with examples, how…',
      4,
    ]);
    const one = (await get(ctx, `/api/chat/conversations/${first}`, { token: ana.token })).json<{
      conversation: { title: string };
    }>();
    expect(one.conversation.title).toBe(top!.title);
  });

  it('searches titles and every message, case-insensitively, taking % and _ literally', async () => {
    const pricing = await start(ana, 'What does the PREMIUM plan include?');
    const later = await start(ana, 'hello there');
    await start(ana, 'I also want to know about refunds', later);
    const renamed = await start(ana, 'just a question');
    expect((await rename(ana, renamed, { title: 'Refund talk' })).statusCode).toBe(200);

    expect((await list(ana, '&q=premium')).map((c) => c.id)).toEqual([pricing]);
    // A later message, and a renamed title, both match.
    expect((await list(ana, '&q=REFUND')).map((c) => c.id).sort()).toEqual([later, renamed].sort());
    // The agent's replies are messages too: guia's answer to "How do I sign out?" names Logout.
    expect((await list(ana, `&q=${encodeURIComponent('sign out')}`)).length).toBeGreaterThan(0);
    expect(await list(ana, '&q=%25')).toEqual([]);
    expect(await list(ana, '&q=_')).toEqual([]);
    expect(await list(ana, '&q=nothing-like-this')).toEqual([]);
    // Bruno's search never finds Ana's conversations.
    expect(await list(bruno, '&q=premium')).toEqual([]);
    // A blank search is no search.
    expect((await list(ana, '&q=%20%20')).length).toBe((await list(ana)).length);
    const tooLong = await get(ctx, `/api/chat/conversations?q=${'a'.repeat(201)}`, {
      token: ana.token,
      language: 'en-US',
    });
    expect([tooLong.statusCode, tooLong.json()]).toEqual([
      400,
      {
        success: false,
        message: 'Validation error',
        errors: { q: 'Searches can have at most 200 characters' },
      },
    ]);
  });

  it('renames: the stored title is shown, trimmed; the conversation keeps its place (a rename is not activity)', async () => {
    const id = await start(ana, 'something to rename');
    const newer = await start(ana, 'a newer one');
    const res = await rename(ana, id, { title: '  Plans for Monday  ' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      success: true,
      conversation: { id, agentName: 'guia', title: 'Plans for Monday', messageCount: 2 },
    });
    const [top, second] = await list(ana);
    expect([top!.id, second!.id, second!.title]).toEqual([newer, id, 'Plans for Monday']);
    // Unicode and plain punctuation are fine, up to 100 characters.
    const fine = `Orçamento – “ação” & <3 ${'x'.repeat(76)}`;
    expect(fine.length).toBe(100);
    expect((await rename(ana, id, { title: fine })).statusCode).toBe(200);
    expect((await list(ana)).find((c) => c.id === id)!.title).toBe(fine);
  });

  it.each([
    ['empty', '', 'Please enter a title'],
    ['blank', ' \t  ', 'Please enter a title'],
    ['missing', undefined, 'Please enter a title'],
    ['not text', 42, 'Please enter a title'],
    ['huge', 'x'.repeat(101), 'Titles can have at most 100 characters'],
    [
      'a line break',
      'one\ntwo',
      'Titles can only hold plain text: no line breaks, hidden characters or HTML tags',
    ],
    [
      'a bidirectional override',
      'invoice\u202Efdp.exe',
      'Titles can only hold plain text: no line breaks, hidden characters or HTML tags',
    ],
    [
      'a zero-width space',
      'a\u200Bb',
      'Titles can only hold plain text: no line breaks, hidden characters or HTML tags',
    ],
    [
      'HTML',
      '<img src=x onerror=alert(1)>',
      'Titles can only hold plain text: no line breaks, hidden characters or HTML tags',
    ],
  ])(
    'refuses a title that is %s with 400 and a field message, changing nothing',
    async (_name, title, message) => {
      const id = await start(ana, 'keep my title');
      const before = await ctx.database.db
        .select()
        .from(conversations)
        .where(eq(conversations.id, id));
      const res = await rename(ana, id, title === undefined ? {} : { title });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        success: false,
        message: 'Validation error',
        errors: { title: message },
      });
      expect(
        await ctx.database.db.select().from(conversations).where(eq(conversations.id, id)),
      ).toEqual(before);
    },
  );

  it("words the refusal in the caller's language", async () => {
    const id = await start(ana, 'em português');
    const pt = await rename(ana, id, { title: '' }, 'pt-BR');
    expect(pt.json()).toEqual({
      success: false,
      message: 'Erro de validação',
      errors: { title: 'Digite um título' },
    });
    const es = await rename(ana, id, { title: 'x'.repeat(101) }, 'es-ES');
    expect(es.json().errors).toEqual({
      title: 'Los títulos pueden tener como máximo 100 caracteres',
    });
  });

  it('deletes a conversation with its messages; it is gone from the list and from GET', async () => {
    const id = await start(ana, 'delete me please');
    const kept = await start(ana, 'keep me');
    const res = await remove(ana, id);
    expect([res.statusCode, res.json()]).toEqual([200, { success: true }]);
    expect((await list(ana)).map((c) => c.id)).not.toContain(id);
    expect((await list(ana)).map((c) => c.id)).toContain(kept);
    expect(
      await ctx.database.db.select().from(messages).where(eq(messages.conversationId, id)),
    ).toEqual([]);
    const gone = await get(ctx, `/api/chat/conversations/${id}`, {
      token: ana.token,
      language: 'en-US',
    });
    expect(gone.statusCode).toBe(404);
    // Deleting again: nothing there.
    expect((await remove(ana, id)).statusCode).toBe(404);
    // Sending into it does not bring it back.
    const revived = await post(
      ctx,
      '/api/chat/message',
      { message: 'hi', agentName: 'guia', conversationId: id },
      { token: ana.token, language: 'en-US' },
    );
    expect(revived.statusCode).toBe(404);
  });

  it("answers 404 for another user's conversation and for a malformed id, for GET, PATCH and DELETE, changing nothing", async () => {
    const id = await start(ana, 'private matters');
    const notFound = { success: false, message: 'Conversation not found' };
    const before = await ctx.database.db
      .select()
      .from(conversations)
      .where(eq(conversations.id, id));
    const attempts = [
      await get(ctx, `/api/chat/conversations/${id}`, { token: bruno.token, language: 'en-US' }),
      await rename(bruno, id, { title: 'mine now' }),
      await remove(bruno, id),
      await get(ctx, '/api/chat/conversations/not-a-uuid', { token: ana.token, language: 'en-US' }),
      await rename(ana, 'not-a-uuid', { title: 'x' }),
      await remove(ana, 'not-a-uuid'),
      await remove(ana, '00000000-0000-4000-8000-000000000000'),
    ];
    expect(attempts.map((res) => [res.statusCode, res.json()])).toEqual(
      attempts.map(() => [404, notFound]),
    );
    expect(
      await ctx.database.db.select().from(conversations).where(eq(conversations.id, id)),
    ).toEqual(before);
    expect(
      (await ctx.database.db.select().from(messages).where(eq(messages.conversationId, id))).length,
    ).toBe(2);
  });

  it('requires sign-in for rename and delete', async () => {
    const id = await start(ana, 'signed in only');
    const anonymous = await ctx.app.inject({
      method: 'DELETE',
      url: `/api/chat/conversations/${id}`,
    });
    expect(anonymous.statusCode).toBe(401);
    const anonymousRename = await ctx.app.inject({
      method: 'PATCH',
      url: `/api/chat/conversations/${id}`,
      payload: JSON.stringify({ title: 'x' }),
      headers: { 'content-type': 'application/json' },
    });
    expect(anonymousRename.statusCode).toBe(401);
  });

  it.each([
    ['en-US', 'how do I rename a conversation?', '**Rename a conversation**'],
    ['pt-BR', 'como excluo uma conversa?', '**Excluir uma conversa**'],
    ['es-ES', '¿cómo busco una conversación antigua?', '**Tus conversaciones con un agente**'],
    ['en-US', 'how do I stop a reply?', '**Stop a reply**'],
    ['pt-BR', 'como copio uma resposta?', '**Copiar uma resposta**'],
  ] as const)('guia knows the conversation tasks (%s: %s)', async (language, question, title) => {
    const res = await post(
      ctx,
      '/api/chat/message',
      { message: question, agentName: 'guia' },
      { token: bruno.token, language },
    );
    expect(res.statusCode).toBe(200);
    expect(res.json<SendMessageResponse>().message.text.startsWith(`${title}\n`)).toBe(true);
  });
});
