import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Language } from '@contrateia/shared';
import type { TestContext } from '../../../test/helpers';
import { get, message, post, registerAndLogin, UNLIMITED_ROUTES } from '../../../test/factories';
import { settles } from '../../../test/eventually';
import { conversations, conversationDetail as conversation } from '../../../test/whatsapp';
import {
  jidOf,
  nextEvent,
  startRunning,
  transportDrivers,
  type Running,
} from '../../../test/whatsapp-drivers';
import { whatsappMessages } from './whatsapp.table';

// A contact's edit, deletion for everyone and reaction change the message in place; none is
// answered nor counted unread. The same cases run on both transports: the sandbox (its edit,
// revoke and react controls) and Baileys decoding them as the fake WhatsApp sends them.

type Account = Awaited<ReturnType<typeof registerAndLogin>>;

const { drivers, sandbox } = transportDrivers({
  secret: 'sandbox-secret-of-the-edit-tests',
  phonePrefix: '55118',
});

describe.each(drivers)('edits, deletions and reactions ($name)', (driver) => {
  let running: Running;
  let ctx: TestContext;
  let ana: Account;
  let phone: string;
  beforeAll(async () => {
    running = await startRunning({
      limits: { routes: UNLIMITED_ROUTES },
      whatsapp: driver.whatsapp(),
    });
    ctx = running.ctx;
    ana = await registerAndLogin(ctx, { name: 'Ana' });
    phone = await driver.link(running, ana);
  });
  afterAll(async () => ctx?.close());

  const next = (
    name: 'whatsapp:message_updated' | 'whatsapp:conversation_changed',
    since: number,
  ) => nextEvent(running, ana.user.id, name, since);

  /**
   * The contact (digits) writes `text` and guia's answer to it reaches the contact: its id, the
   * conversation and the answer. A reply is sent once WhatsApp's server has it; the contact's
   * phone may hear it a moment later on a loaded machine, so that is waited for too.
   */
  async function writeAndAnswered(from: string, text: string) {
    const heard = (await driver.sent(running, phone, from)).length;
    const replied = running.replies.settled({ userId: ana.user.id, since: running.replies.count });
    const id = await driver.contactWrites(running, phone, from, text);
    expect((await replied)[0]!.outcome).toBe('sent');
    const reply = await settles(async () => {
      const sent = await driver.sent(running, phone, from);
      expect(sent.length, 'the answer reaches the contact').toBeGreaterThan(heard);
      return sent.at(-1)!;
    });
    const [listed] = (await conversations(ctx, ana)).filter((c) => c.contact_number === from);
    return { id, listed: listed!, reply };
  }

  it('an edit changes the stored text, marked edited, and is not answered nor unread', async () => {
    const number = '5531911112222';
    const { id, listed } = await writeAndAnswered(number, 'Quero 2 pizzas');
    await conversation(ctx, ana, listed.id); // read: unread back to 0
    const asked = running.replies.count;
    const sent = (await driver.sent(running, phone, number)).length;
    const since = running.events.length;
    await driver.contactChanges(running, phone, number, {
      kind: 'edit',
      id,
      text: 'Quero 3 pizzas',
    });
    const updated = await next('whatsapp:message_updated', since);
    expect(updated.payload).toMatchObject({
      conversationId: listed.id,
      message: { sender: 'contact', text: 'Quero 3 pizzas', editedAt: expect.any(String) },
    });
    const detail = await conversation(ctx, ana, listed.id);
    expect(detail.messages[0]).toMatchObject({
      text: 'Quero 3 pizzas',
      editedAt: expect.any(String),
    });
    expect(detail.messages.map((m) => m.sender)).toEqual(['contact', 'user']);
    // Not answered, not unread: no reply asked for, nothing new for the owner to read, nothing sent.
    expect(running.replies.count).toBe(asked);
    expect((await conversations(ctx, ana)).find((c) => c.id === listed.id)!.unread_count).toBe(0);
    expect(running.events.slice(since).filter((e) => e.name === 'whatsapp:new_message')).toEqual(
      [],
    );
    expect(await driver.sent(running, phone, number)).toHaveLength(sent);
  });

  it('a deletion for everyone removes the text from the database, shows "mensagem apagada" and is not answered', async () => {
    const number = '5531933334444';
    const { id, listed } = await writeAndAnswered(number, 'Como conecto meu WhatsApp?');
    // The contact deletes it after the answer; then it is the last message once the owner writes.
    const asked = running.replies.count;
    const since = running.events.length;
    await driver.contactChanges(running, phone, number, { kind: 'revoke', id });
    const updated = await next('whatsapp:message_updated', since);
    expect(updated.payload).toMatchObject({
      conversationId: listed.id,
      message: { text: '', deleted: true },
    });
    const [row] = await ctx.database.db
      .select()
      .from(whatsappMessages)
      .where(eq(whatsappMessages.waId, id));
    expect(row!.text).toBe('');
    expect(row!.deletedAt).toBeInstanceOf(Date);
    const detail = await conversation(ctx, ana, listed.id);
    expect(detail.messages[0]).toMatchObject({ text: '', deleted: true });
    expect(running.replies.count).toBe(asked);
    // An edit of a deleted message brings nothing back (the contact's next message, answered,
    // comes after the edit on the same connection).
    await driver.contactChanges(running, phone, number, { kind: 'edit', id, text: 'de novo' });
    await writeAndAnswered(number, 'Como eu contrato um agente?');
    expect((await conversation(ctx, ana, listed.id)).messages[0]).toMatchObject({
      text: '',
      deleted: true,
    });

    // The last message deleted: the list's preview says so, in the reader's language.
    const last = '5531955556666';
    const { listed: lastListed } = await writeAndAnswered(last, 'Olá, tudo bem?');
    // AI off: the contact's next message stays the last one.
    const off = await post(
      ctx,
      `/api/whatsapp/conversations/${lastListed.id}/ai`,
      { enabled: false },
      { token: ana.token },
    );
    expect(off.statusCode).toBe(200);
    const second = await driver.contactWrites(running, phone, last, 'segunda');
    const sinceDeleted = running.events.length;
    await driver.contactChanges(running, phone, last, { kind: 'revoke', id: second });
    await next('whatsapp:conversation_changed', sinceDeleted);
    for (const language of ['pt-BR', 'en-US', 'es-ES'] as Language[]) {
      const res = await get(ctx, '/api/whatsapp/conversations', { token: ana.token, language });
      const entry = res
        .json<{ data: { id: string; last_message: { text: string } | null }[] }>()
        .data.find((c) => c.id === lastListed.id);
      expect(entry!.last_message).toEqual({
        text: message(language, 'whatsappServer.messageDeleted'),
      });
    }
    expect(message('pt-BR', 'whatsappServer.messageDeleted')).toBe('mensagem apagada');
  });

  it("the contact's reaction to the agent's reply shows on it, one per party, and an empty emoji removes it", async () => {
    const number = '5531977778888';
    const { id: own, listed, reply } = await writeAndAnswered(number, 'Vocês abrem sábado?');
    const asked = running.replies.count;
    const react = async (id: string, emoji: string, ofContact = false) => {
      const since = running.events.length;
      await driver.contactChanges(running, phone, number, { kind: 'react', id, emoji, ofContact });
      return next('whatsapp:message_updated', since);
    };

    expect((await react(reply.id, '👍')).payload).toMatchObject({
      conversationId: listed.id,
      message: {
        sender: 'user',
        agentName: 'guia',
        reactions: [{ sender: 'contact', emoji: '👍' }],
      },
    });
    // A new reaction of the same contact replaces its last.
    await react(reply.id, '❤️');
    let detail = await conversation(ctx, ana, listed.id);
    expect(detail.messages[1]!.reactions).toEqual([{ sender: 'contact', emoji: '❤️' }]);
    // Its own message too.
    await react(own, '😂', true);
    detail = await conversation(ctx, ana, listed.id);
    expect(detail.messages[0]!.reactions).toEqual([{ sender: 'contact', emoji: '😂' }]);
    // Taken back.
    await react(reply.id, '');
    detail = await conversation(ctx, ana, listed.id);
    expect(detail.messages[1]!.reactions).toBeUndefined();
    expect(running.replies.count).toBe(asked);
    expect((await conversations(ctx, ana)).find((c) => c.id === listed.id)!.unread_count).toBe(0);
  });
});

describe('the sandbox’s edit, revoke and react controls', () => {
  let running: Running;
  let ctx: TestContext;
  let ana: Account;
  let anaPhone: string;
  beforeAll(async () => {
    running = await startRunning({
      limits: { routes: UNLIMITED_ROUTES },
      whatsapp: sandbox.whatsapp(),
    });
    ctx = running.ctx;
    ana = await registerAndLogin(ctx, { name: 'Ana' });
    anaPhone = await sandbox.link(running, ana);
  });
  afterAll(async () => ctx?.close());

  it('refuses bad input with 400 and an unknown message with 404, in the caller’s language', async () => {
    const jid = jidOf('5531999990000');
    const replied = running.replies.settled({ userId: ana.user.id });
    expect(
      (
        await post(ctx, '/api/whatsapp/sandbox/inbound', {
          to: anaPhone,
          from: jid,
          id: 'BAD-1',
          text: 'oi',
        })
      ).statusCode,
    ).toBe(200);
    expect((await replied)[0]!.outcome).toBe('sent');
    const cases: Array<[string, unknown, string]> = [
      ['edit', { to: anaPhone, from: jid, id: 'BAD-1', text: '' }, 'text'],
      ['edit', { to: anaPhone, from: jid, text: 'x' }, 'id'],
      ['edit', { to: anaPhone, from: 'nobody', id: 'BAD-1', text: 'x' }, 'from'],
      ['revoke', { to: 'abc', from: jid, id: 'BAD-1' }, 'to'],
      ['revoke', { to: anaPhone, from: jid, id: '' }, 'id'],
      ['react', { to: anaPhone, from: jid, id: 'BAD-1', emoji: 'x'.repeat(33) }, 'emoji'],
      ['react', { to: anaPhone, from: jid, id: 'BAD-1' }, 'emoji'],
    ];
    for (const language of ['pt-BR', 'en-US', 'es-ES'] as Language[]) {
      for (const [path, body, field] of cases) {
        const res = await post(ctx, `/api/whatsapp/sandbox/${path}`, body, { language });
        expect(res.statusCode, `${path} ${JSON.stringify(body)}`).toBe(400);
        expect(res.json()).toMatchObject({
          success: false,
          message: message(language, 'errors.validation'),
        });
        expect(Object.keys(res.json().errors)).toContain(field);
      }
      const unknown = await post(
        ctx,
        '/api/whatsapp/sandbox/edit',
        { to: anaPhone, from: jid, id: 'NO-SUCH-ID', text: 'x' },
        { language },
      );
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().message).toBe(
        message(language, 'whatsappServer.sandboxMessageNotFound'),
      );
    }
    // Another contact's message, or the agent's, cannot be edited or deleted by this one.
    const other = jidOf('5531900001111');
    for (const [path, body] of [
      ['edit', { to: anaPhone, from: other, id: 'BAD-1', text: 'x' }],
      ['revoke', { to: anaPhone, from: other, id: 'BAD-1' }],
      ['react', { to: anaPhone, from: other, id: 'BAD-1', emoji: '👍' }],
    ] as const) {
      expect((await post(ctx, `/api/whatsapp/sandbox/${path}`, body)).statusCode).toBe(404);
    }
    // To a number nobody linked: 404.
    expect(
      (
        await post(ctx, '/api/whatsapp/sandbox/revoke', {
          to: '5599900000000',
          from: jid,
          id: 'BAD-1',
        })
      ).statusCode,
    ).toBe(404);
  });
});
