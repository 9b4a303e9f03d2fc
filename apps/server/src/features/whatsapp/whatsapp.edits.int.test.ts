import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eq } from 'drizzle-orm';
import type {
  Language,
  ServerEventName,
  ServerEventPayload,
  WhatsAppStatus,
} from '@contrateia/shared';
import { until } from '../../../test/eventually';
import { createTestApp, NO_MONITOR, type TestContext } from '../../../test/helpers';
import { startFakeWhatsApp, type FakeWhatsApp, type SentText } from '../../../test/fake-whatsapp';
import { get, message, post, registerAndLogin, UNLIMITED_ROUTES } from '../../../test/factories';
import { createEventHub, type HubEvent } from '@/lib/event-hub';
import { qrText } from '../../../test/qr';
import { repliesOf } from '../../../test/replies';
import {
  conversations,
  conversationDetail as conversation,
  sandboxPhoneEvents,
} from '../../../test/whatsapp';
import { whatsappMessages } from './whatsapp.table';

// A contact's edit, deletion for everyone and reaction change the message in
// place; none is answered nor counted unread.

type Account = Awaited<ReturnType<typeof registerAndLogin>>;

const SANDBOX_SECRET = 'sandbox-secret-of-the-edit-tests';
const bySecret = { 'x-sandbox-secret': SANDBOX_SECRET };
const contact = (digits: string) => `${digits}@s.whatsapp.net`;

let phoneSequence = 0;
function newPhone(): string {
  phoneSequence += 1;
  return `55118${String(Date.now() % 1e6).padStart(6, '0')}${String(phoneSequence).padStart(2, '0')}`;
}

describe('edits, deletions and reactions through the sandbox', () => {
  let ctx: TestContext;
  let ana: Account;
  let anaPhone: string;
  const hub = createEventHub();
  const events: HubEvent[] = [];
  hub.subscribe((event) => events.push(event));
  let replies: ReturnType<typeof repliesOf>;

  const nextEvent = (userId: string, name: ServerEventName, since: number) =>
    until(() => events.slice(since).find((e) => e.userId === userId && e.name === name), {
      changes: (onChange) => hub.subscribe(onChange),
      what: `the event ${name}`,
    });

  beforeAll(async () => {
    ctx = await createTestApp({
      limits: { routes: UNLIMITED_ROUTES },
      events: hub,
      whatsapp: { transport: 'sandbox', sandboxSecret: SANDBOX_SECRET },
    });
    replies = repliesOf(ctx);
    ana = await registerAndLogin(ctx, { name: 'Ana' });
    const connect = await post(ctx, '/api/whatsapp/connect', {}, { token: ana.token });
    const qrCode = connect.json<{ data: WhatsAppStatus }>().data.qrCode!;
    anaPhone = newPhone();
    const pair = await post(ctx, '/api/whatsapp/sandbox/pair', {
      token: new URL(qrText(qrCode)).searchParams.get('pair')!,
      phone: anaPhone,
    });
    expect(pair.statusCode).toBe(200);
  });
  afterAll(async () => ctx?.close());

  /** The contact writes `text` as `id`, and guia's answer to it settles. */
  async function writeAndAnswered(from: string, id: string, text: string) {
    const replied = replies.settled({ userId: ana.user.id, since: replies.count });
    const res = await post(ctx, '/api/whatsapp/sandbox/inbound', { to: anaPhone, from, id, text });
    expect(res.statusCode).toBe(200);
    expect((await replied)[0]!.outcome).toBe('sent');
    const [listed] = (await conversations(ctx, ana)).filter(
      (c) => c.contact_number === from.split('@')[0],
    );
    return listed!;
  }

  it('an edit changes the stored text, marked edited, and is not answered nor unread', async () => {
    const jid = contact('5531911112222');
    const listed = await writeAndAnswered(jid, 'EDIT-1', 'Quero 2 pizzas');
    await conversation(ctx, ana, listed.id); // read: unread back to 0
    const asked = replies.count;
    const since = events.length;
    const edit = await post(ctx, '/api/whatsapp/sandbox/edit', {
      to: anaPhone,
      from: jid,
      id: 'EDIT-1',
      text: 'Quero 3 pizzas',
    });
    expect(edit.statusCode).toBe(200);
    const updated = await nextEvent(ana.user.id, 'whatsapp:message_updated', since);
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
    // Not answered, not unread: no reply asked for, nothing new for the owner to read.
    expect(replies.count).toBe(asked);
    expect((await conversations(ctx, ana)).find((c) => c.id === listed.id)!.unread_count).toBe(0);
    expect(events.slice(since).filter((e) => e.name === 'whatsapp:new_message')).toEqual([]);
  });

  it('a deletion for everyone removes the text from the database, shows "mensagem apagada" and is not answered', async () => {
    const jid = contact('5531933334444');
    const listed = await writeAndAnswered(jid, 'DEL-1', 'Meu CPF é 123.456.789-00');
    // The contact deletes it after the answer; then it is the last message once the owner writes.
    const asked = replies.count;
    const since = events.length;
    const revoke = await post(ctx, '/api/whatsapp/sandbox/revoke', {
      to: anaPhone,
      from: jid,
      id: 'DEL-1',
    });
    expect(revoke.statusCode).toBe(200);
    const updated = await nextEvent(ana.user.id, 'whatsapp:message_updated', since);
    expect(updated.payload).toMatchObject({
      conversationId: listed.id,
      message: { text: '', deleted: true },
    });
    const [row] = await ctx.database.db
      .select()
      .from(whatsappMessages)
      .where(eq(whatsappMessages.waId, 'DEL-1'));
    expect(row!.text).toBe('');
    expect(row!.deletedAt).toBeInstanceOf(Date);
    const detail = await conversation(ctx, ana, listed.id);
    expect(detail.messages[0]).toMatchObject({ text: '', deleted: true });
    expect(replies.count).toBe(asked);
    // An edit of a deleted message brings nothing back.
    await post(ctx, '/api/whatsapp/sandbox/edit', {
      to: anaPhone,
      from: jid,
      id: 'DEL-1',
      text: 'de novo',
    });
    expect((await conversation(ctx, ana, listed.id)).messages[0]).toMatchObject({
      text: '',
      deleted: true,
    });

    // The last message deleted: the list's preview says so, in the reader's language.
    const last = contact('5531955556666');
    const lastListed = await writeAndAnswered(last, 'DEL-2', 'primeira');
    // AI off: the contact's next message stays the last one.
    const off = await post(
      ctx,
      `/api/whatsapp/conversations/${lastListed.id}/ai`,
      { enabled: false },
      { token: ana.token },
    );
    expect(off.statusCode).toBe(200);
    const second = await post(ctx, '/api/whatsapp/sandbox/inbound', {
      to: anaPhone,
      from: last,
      id: 'DEL-3',
      text: 'segunda',
    });
    expect(second.statusCode).toBe(200);
    const sinceDeleted = events.length;
    await post(ctx, '/api/whatsapp/sandbox/revoke', { to: anaPhone, from: last, id: 'DEL-3' });
    await nextEvent(ana.user.id, 'whatsapp:conversation_changed', sinceDeleted);
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
    const jid = contact('5531977778888');
    const listed = await writeAndAnswered(jid, 'REACT-1', 'Vocês abrem sábado?');
    const reply = (await sandboxPhoneEvents(ctx, anaPhone, bySecret)).findLast(
      (e) => e.type === 'message' && e.to === jid,
    );
    if (reply?.type !== 'message') throw new Error('no reply sent');
    const asked = replies.count;
    const react = (emoji: string) =>
      post(ctx, '/api/whatsapp/sandbox/react', { to: anaPhone, from: jid, id: reply.id, emoji });

    const since = events.length;
    expect((await react('👍')).statusCode).toBe(200);
    const updated = await nextEvent(ana.user.id, 'whatsapp:message_updated', since);
    expect(updated.payload).toMatchObject({
      conversationId: listed.id,
      message: {
        sender: 'user',
        agentName: 'guia',
        reactions: [{ sender: 'contact', emoji: '👍' }],
      },
    });
    // A new reaction of the same contact replaces its last.
    expect((await react('❤️')).statusCode).toBe(200);
    let detail = await conversation(ctx, ana, listed.id);
    expect(detail.messages[1]!.reactions).toEqual([{ sender: 'contact', emoji: '❤️' }]);
    // Its own message too.
    expect(
      (
        await post(ctx, '/api/whatsapp/sandbox/react', {
          to: anaPhone,
          from: jid,
          id: 'REACT-1',
          emoji: '😂',
        })
      ).statusCode,
    ).toBe(200);
    detail = await conversation(ctx, ana, listed.id);
    expect(detail.messages[0]!.reactions).toEqual([{ sender: 'contact', emoji: '😂' }]);
    // Taken back.
    expect((await react('')).statusCode).toBe(200);
    detail = await conversation(ctx, ana, listed.id);
    expect(detail.messages[1]!.reactions).toBeUndefined();
    expect(replies.count).toBe(asked);
    expect((await conversations(ctx, ana)).find((c) => c.id === listed.id)!.unread_count).toBe(0);
  });

  it('refuses bad input with 400 and an unknown message with 404, in the caller’s language', async () => {
    const jid = contact('5531999990000');
    await writeAndAnswered(jid, 'BAD-1', 'oi');
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
    const other = contact('5531900001111');
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

describe('edits, deletions and reactions through Baileys and a fake WhatsApp', () => {
  let ctx: TestContext;
  let fake: FakeWhatsApp;
  const hub = createEventHub();
  const events: HubEvent[] = [];
  hub.subscribe((event) => events.push(event));
  let replies: ReturnType<typeof repliesOf>;

  const nextEvent = (userId: string, name: ServerEventName, since: number) =>
    until(() => events.slice(since).find((e) => e.userId === userId && e.name === name), {
      changes: (onChange) => hub.subscribe(onChange),
      what: `the event ${name}`,
    });

  beforeAll(async () => {
    fake = await startFakeWhatsApp();
    ctx = await createTestApp({
      without: NO_MONITOR,
      limits: { routes: UNLIMITED_ROUTES },
      events: hub,
      whatsapp: { transport: 'baileys', wsUrl: fake.url },
    });
    replies = repliesOf(ctx);
  });
  afterAll(async () => {
    await ctx?.close();
    await fake?.close();
  });

  it("decodes a contact's edit, deletion for everyone and reaction as WhatsApp sends them: shown, never answered", async () => {
    const gil = await registerAndLogin(ctx, { name: 'Gil' });
    const phone = newPhone();
    const linking = events.length;
    expect((await post(ctx, '/api/whatsapp/connect', {}, { token: gil.token })).statusCode).toBe(
      200,
    );
    const { qrCode } = (await nextEvent(gil.user.id, 'whatsapp:qr', linking)).payload as {
      qrCode: string;
    };
    await fake.scan(qrText(qrCode), phone);
    await nextEvent(gil.user.id, 'whatsapp:ready', linking);

    const rui = newPhone();
    const sent: SentText[] = [];
    const onSent = (text: SentText) => sent.push(text);
    fake.events.on('sent', onSent);
    try {
      const answered = replies.settled({ userId: gil.user.id, since: replies.count, count: 2 });
      const first = await fake.deliverText({ to: phone, from: rui, text: 'Quero 2 pizzas' });
      const second = await fake.deliverText({ to: phone, from: rui, text: 'Meu CPF é 123' });
      // One reply for the two, made by either message's job (the other finds nothing left).
      expect((await answered).map((r) => r.outcome).sort()).toEqual(['sent', 'skipped']);
      await vi.waitFor(() => expect(sent).toHaveLength(1));
      const [listed] = await conversations(ctx, gil);
      // Opened: nothing unread.
      const opened = await conversation(ctx, gil, listed!.id);
      const asked = replies.count;

      // The edit.
      let since = events.length;
      await fake.deliverChange({ to: phone, from: rui, id: first.id, text: 'Quero 3 pizzas' });
      expect(
        (await nextEvent(gil.user.id, 'whatsapp:message_updated', since)).payload,
      ).toMatchObject({
        conversationId: listed!.id,
        message: { sender: 'contact', text: 'Quero 3 pizzas', editedAt: expect.any(String) },
      });

      // The deletion for everyone.
      since = events.length;
      await fake.deliverChange({ to: phone, from: rui, id: second.id });
      expect(
        (await nextEvent(gil.user.id, 'whatsapp:message_updated', since)).payload,
      ).toMatchObject({
        message: { text: '', deleted: true },
      });
      const [row] = await ctx.database.db
        .select()
        .from(whatsappMessages)
        .where(eq(whatsappMessages.waId, second.id));
      expect(row!.text).toBe('');

      // The contact reacts to guia's reply (our outgoing WhatsApp id), then takes it back.
      const reply = opened.messages.find((m) => m.agentName === 'guia')!;
      since = events.length;
      await fake.deliverReaction({
        to: phone,
        from: rui,
        id: sent[0]!.id,
        emoji: '👍',
        ofContact: false,
      });
      expect(
        (await nextEvent(gil.user.id, 'whatsapp:message_updated', since)).payload,
      ).toMatchObject({
        message: { id: reply.id, reactions: [{ sender: 'contact', emoji: '👍' }] },
      });
      since = events.length;
      await fake.deliverReaction({
        to: phone,
        from: rui,
        id: sent[0]!.id,
        emoji: '',
        ofContact: false,
      });
      const removed = (await nextEvent(gil.user.id, 'whatsapp:message_updated', since))
        .payload as ServerEventPayload<'whatsapp:message_updated'>;
      expect(removed.message.id).toBe(reply.id);
      expect(removed.message.reactions).toBeUndefined();

      const { messages } = await conversation(ctx, gil, listed!.id);
      expect(
        messages.map((m) => [m.sender, m.text, Boolean(m.editedAt), Boolean(m.deleted)]),
      ).toEqual([
        ['contact', 'Quero 3 pizzas', true, false],
        ['contact', '', false, true],
        ['user', reply.text, false, false],
      ]);
      // None of them was answered, none is unread, and the phone sent nothing more.
      expect(replies.count).toBe(asked);
      expect((await conversations(ctx, gil))[0]!.unread_count).toBe(0);
      expect(sent).toHaveLength(1);
    } finally {
      fake.events.off('sent', onSent);
    }
  });
});
