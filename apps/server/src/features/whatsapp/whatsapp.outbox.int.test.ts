import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  Language,
  SandboxPhoneEvent,
  ServerEventPayload,
  WhatsAppConversationDetail,
  WhatsAppMessage,
} from '@contrateia/shared';
import { eventually, until } from '../../../test/eventually';
import { createTestApp, type TestContext } from '../../../test/helpers';
import { get, message, post, registerAndLogin, UNLIMITED_ROUTES } from '../../../test/factories';
import { startFakeWhatsApp, type FakeWhatsApp, type SentText } from '../../../test/fake-whatsapp';
import { conversations, linkOnFake, linkSandbox, sandboxPhoneEvents } from '../../../test/whatsapp';
import { createEventHub, type HubEvent } from '@/lib/event-hub';
import { outgoingWaId, SEND_QUEUE_NAME, SEND_TRIES } from './whatsapp.outbox';
import { NO_JOB_COMPLETION } from '@/lib/job-statements';
import { markSent, moveStatus } from './whatsapp.repository';
import { whatsappMessages } from './whatsapp.table';

type Account = Awaited<ReturnType<typeof registerAndLogin>>;
type StatusEvent = ServerEventPayload<'whatsapp:message_status'>;

const SANDBOX_SECRET = 'sandbox-secret-of-the-outbox-tests';
const bySecret = { 'x-sandbox-secret': SANDBOX_SECRET };

let phoneSequence = 0;
function newPhone(): string {
  phoneSequence += 1;
  return `55218${String(Date.now() % 1e6).padStart(6, '0')}${String(phoneSequence).padStart(2, '0')}`;
}

/** Every event for the accounts' pages, as they are emitted. */
function watchEvents() {
  const hub = createEventHub();
  const events: HubEvent[] = [];
  hub.subscribe((event) => events.push(event));
  return {
    hub,
    events,
    /** The statuses the page heard of message `messageId`, in order. */
    statuses(messageId: string): StatusEvent[] {
      return events
        .filter((e) => e.name === 'whatsapp:message_status')
        .map((e) => e.payload as StatusEvent)
        .filter((p) => p.messageId === messageId);
    },
    /** Waits until the page heard that message `messageId` is `status`. */
    status(messageId: string, status: StatusEvent['status']): Promise<StatusEvent> {
      return until(
        () =>
          events
            .filter((e) => e.name === 'whatsapp:message_status')
            .map((e) => e.payload as StatusEvent)
            .find((p) => p.messageId === messageId && p.status === status),
        {
          changes: (onChange) => hub.subscribe(onChange),
          what: `message ${messageId} ${status}`,
        },
      );
    },
    nextEvent(userId: string, name: string, since: number): Promise<HubEvent> {
      return until(() => events.slice(since).find((e) => e.userId === userId && e.name === name), {
        changes: (onChange) => hub.subscribe(onChange),
        what: `the event ${name}`,
      });
    },
  };
}

async function messages(
  ctx: TestContext,
  account: Account,
  id: string,
  language?: Language,
): Promise<WhatsAppMessage[]> {
  const res = await get(ctx, `/api/whatsapp/conversations/${id}`, {
    token: account.token,
    language,
  });
  expect(res.statusCode).toBe(200);
  return res.json<{ data: WhatsAppConversationDetail }>().data.messages;
}

async function send(ctx: TestContext, account: Account, conversationId: string, text: string) {
  const res = await post(
    ctx,
    `/api/whatsapp/conversations/${conversationId}/messages`,
    { text },
    { token: account.token },
  );
  expect(res.statusCode).toBe(200);
  return res.json<{ data: WhatsAppMessage }>().data;
}

/**
 * The send jobs waiting out their backoff are due now: the time between tries passes at once
 * (pg-boss's delays are a second and more, doubling).
 */
async function retriesDue(ctx: TestContext) {
  await ctx.app.platform.database.execute(
    `UPDATE pgboss.job SET start_after = now() WHERE name = $1 AND state = 'retry'`,
    [SEND_QUEUE_NAME],
  );
}

describe('the outbox through the sandbox', () => {
  let ctx: TestContext;
  let watch: ReturnType<typeof watchEvents>;
  let ana: Account;
  let phone: string;
  let conversationId: string;
  const customer = '5521977776666@s.whatsapp.net';

  async function phoneEvents(): Promise<SandboxPhoneEvent[]> {
    return sandboxPhoneEvents(ctx, phone, bySecret);
  }
  const sandbox = (path: string, body: unknown, headers: Record<string, string> = bySecret) =>
    ctx.app.inject({
      method: 'POST',
      url: `/api/whatsapp/sandbox/phones/${phone}/${path}`,
      payload: body as Record<string, unknown>,
      headers,
    });

  beforeAll(async () => {
    watch = watchEvents();
    ctx = await createTestApp({
      limits: { routes: UNLIMITED_ROUTES },
      events: watch.hub,
      // The owner's messages here do not pause the agent (the takeover's suite tests that).
      whatsapp: { transport: 'sandbox', sandboxSecret: SANDBOX_SECRET, takeoverMinutes: 0 },
    });
    ana = await registerAndLogin(ctx, { name: 'Ana' });
    phone = newPhone();
    await linkSandbox(ctx, ana, phone);
    // The owner's own message from the phone makes the conversation (and is not answered).
    await ctx.app.inject({
      method: 'POST',
      url: '/api/whatsapp/sandbox/outbound',
      payload: { from: phone, to: customer, text: 'Olá!' },
      headers: bySecret,
    });
    await eventually(async () => (await conversations(ctx, ana)).length === 1, 'the conversation');
    conversationId = (await conversations(ctx, ana))[0]!.id;
  });
  afterAll(async () => {
    await ctx.close();
  });

  it('stores the owner’s message pending, then sent, delivered and read as WhatsApp tells', async () => {
    const stored = await send(ctx, ana, conversationId, 'Seu pedido saiu');
    expect(stored).toMatchObject({ sender: 'user', text: 'Seu pedido saiu', status: 'pending' });
    await watch.status(stored.id, 'sent');
    const [sent] = (await phoneEvents()).filter(
      (e) => e.type === 'message' && e.text === 'Seu pedido saiu',
    );
    expect(sent).toMatchObject({ type: 'message', to: customer, id: expect.any(String) });
    expect(sent).not.toHaveProperty('failed');
    const waId = (sent as { id: string }).id;

    expect((await sandbox('receipts', { ids: [waId], status: 'delivered' })).statusCode).toBe(200);
    await watch.status(stored.id, 'delivered');
    expect((await sandbox('receipts', { ids: [waId], status: 'read' })).statusCode).toBe(200);
    await watch.status(stored.id, 'read');
    // A late "delivered" never takes a read message back.
    await sandbox('receipts', { ids: [waId], status: 'delivered' });
    expect(watch.statuses(stored.id).map((s) => s.status)).toEqual(['sent', 'delivered', 'read']);
    const shown = (await messages(ctx, ana, conversationId)).find((m) => m.id === stored.id);
    expect(shown).toMatchObject({ status: 'read' });
  });

  it('a send failing twice is tried again and sent once', async () => {
    expect((await sandbox('fail-sends', { count: 2, code: '463' })).statusCode).toBe(200);
    const stored = await send(ctx, ana, conversationId, 'Tentando de novo');
    await eventually(
      async () => {
        await retriesDue(ctx);
        return watch.statuses(stored.id).some((s) => s.status === 'sent');
      },
      'the message sent',
      20_000,
    );
    const attempts = (await phoneEvents()).filter(
      (e) => e.type === 'message' && e.text === 'Tentando de novo',
    );
    expect(attempts.map((e) => (e as { failed?: string }).failed ?? 'ok')).toEqual([
      '463',
      '463',
      'ok',
    ]);
    // Every try was the same message to WhatsApp: our id.
    expect(new Set(attempts.map((e) => (e as { id: string }).id)).size).toBe(1);
    expect(watch.statuses(stored.id).map((s) => s.status)).toEqual(['sent']);
  });

  it('a send failing every try shows failed with why, in the reader’s language, and Retry sends it', async () => {
    expect((await sandbox('fail-sends', { count: SEND_TRIES, code: '463' })).statusCode).toBe(200);
    const stored = await send(ctx, ana, conversationId, 'Não vai na primeira');
    await eventually(
      async () => {
        await retriesDue(ctx);
        return watch.statuses(stored.id).some((s) => s.status === 'failed');
      },
      'the message failed',
      30_000,
    );
    const failed = watch.statuses(stored.id).find((s) => s.status === 'failed')!;
    expect(failed.error).toBe(message('pt-BR', 'whatsappServer.sendError.463'));
    const attempts = (await phoneEvents()).filter(
      (e) => e.type === 'message' && e.text === 'Não vai na primeira',
    );
    expect(attempts).toHaveLength(SEND_TRIES);
    for (const language of ['pt-BR', 'en-US', 'es-ES'] as const) {
      const shown = (await messages(ctx, ana, conversationId, language)).find(
        (m) => m.id === stored.id,
      );
      expect(shown).toMatchObject({
        status: 'failed',
        statusError: message(language, 'whatsappServer.sendError.463'),
      });
    }

    // Only the owner, only a failed outgoing message, only by its ids.
    const retryPath = (conversation: string, id: string) =>
      `/api/whatsapp/conversations/${conversation}/messages/${id}/retry`;
    const bruno = await registerAndLogin(ctx, { name: 'Bruno' });
    expect(
      (await post(ctx, retryPath(conversationId, stored.id), {}, { token: bruno.token }))
        .statusCode,
    ).toBe(404);
    expect((await post(ctx, retryPath(conversationId, stored.id), {})).statusCode).toBe(401);
    const malformed = await post(
      ctx,
      retryPath(conversationId, 'not-a-message-id'),
      {},
      { token: ana.token },
    );
    expect(malformed.statusCode).toBe(404);
    expect(malformed.json().message).toBe(message('pt-BR', 'whatsappServer.messageNotFound'));
    expect(
      (
        await post(
          ctx,
          retryPath(conversationId, '00000000-0000-4000-8000-000000000000'),
          {},
          { token: ana.token },
        )
      ).statusCode,
    ).toBe(404);
    const [sentOne] = (await messages(ctx, ana, conversationId)).filter(
      (m) => m.sender === 'user' && m.status === 'read',
    );
    const notFailed = await post(
      ctx,
      retryPath(conversationId, sentOne!.id),
      {},
      {
        token: ana.token,
        language: 'en-US',
      },
    );
    expect(notFailed.statusCode).toBe(400);
    expect(notFailed.json().message).toBe(message('en-US', 'whatsappServer.notRetryable'));

    const retried = await post(ctx, retryPath(conversationId, stored.id), {}, { token: ana.token });
    expect(retried.statusCode).toBe(200);
    expect(retried.json().data).toMatchObject({ id: stored.id, status: 'pending' });
    await watch.status(stored.id, 'sent');
    const shown = (await messages(ctx, ana, conversationId)).find((m) => m.id === stored.id);
    expect(shown).toMatchObject({ status: 'sent' });
    expect(shown).not.toHaveProperty('statusError');
    const delivered = (await phoneEvents()).filter(
      (e) => e.type === 'message' && e.text === 'Não vai na primeira' && !('failed' in e),
    );
    expect(delivered).toHaveLength(1);
  });

  it('Retry pressed the moment the message shows failed (its last try not yet ended) sends it, once', async () => {
    expect((await sandbox('fail-sends', { count: SEND_TRIES, code: '463' })).statusCode).toBe(200);
    let retried: Promise<Awaited<ReturnType<typeof post>>> | undefined;
    let storedId = '';
    // As the page does: the Retry button appears with the failed status, and is pressed at once.
    const unsubscribe = watch.hub.subscribe((event) => {
      const payload = event.payload as StatusEvent;
      if (
        !retried &&
        event.name === 'whatsapp:message_status' &&
        payload.messageId === storedId &&
        payload.status === 'failed'
      )
        retried = post(
          ctx,
          `/api/whatsapp/conversations/${conversationId}/messages/${storedId}/retry`,
          {},
          { token: ana.token },
        );
    });
    try {
      storedId = (await send(ctx, ana, conversationId, 'Na hora do botão')).id;
      await eventually(
        async () => {
          await retriesDue(ctx);
          return retried !== undefined;
        },
        'the message failed, and Retry pressed',
        30_000,
      );
    } finally {
      unsubscribe();
    }
    const res = await retried!;
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ id: storedId, status: 'pending' });
    await watch.status(storedId, 'sent');
    const delivered = (await phoneEvents()).filter(
      (e) => e.type === 'message' && e.text === 'Na hora do botão' && !('failed' in e),
    );
    expect(delivered).toHaveLength(1);
    const shown = (await messages(ctx, ana, conversationId)).find((m) => m.id === storedId);
    expect(shown).toMatchObject({ status: 'sent' });
  });

  it('the agent’s reply goes through the outbox: pending, then sent, then its receipts', async () => {
    const since = watch.events.length;
    const res = await post(ctx, '/api/whatsapp/sandbox/inbound', {
      to: phone,
      from: customer,
      text: 'Como conecto meu WhatsApp?',
    });
    expect(res.statusCode).toBe(200);
    const sentEvent = await watch.nextEvent(ana.user.id, 'whatsapp:message_sent', since);
    const reply = (sentEvent.payload as ServerEventPayload<'whatsapp:message_sent'>).message;
    expect(reply).toMatchObject({ sender: 'user', agentName: 'guia', status: 'pending' });
    await watch.status(reply.id, 'sent');
    // By its WhatsApp id: another reply may say the same (a refusal is one sentence).
    const out = (await phoneEvents()).filter(
      (e) => e.type === 'message' && (e as { id: string }).id === outgoingWaId(reply.id),
    );
    expect(out).toHaveLength(1);
    await sandbox('receipts', { ids: [(out[0] as { id: string }).id], status: 'read' });
    await watch.status(reply.id, 'read');
  });

  it('an agent’s reply still being tried when the owner blocks the contact is never sent, and says why', async () => {
    // Every try but the last fails, so the reply is still being tried whenever the block comes.
    expect((await sandbox('fail-sends', { count: SEND_TRIES - 1, code: '463' })).statusCode).toBe(
      200,
    );
    const since = watch.events.length;
    const res = await post(ctx, '/api/whatsapp/sandbox/inbound', {
      to: phone,
      from: customer,
      text: 'Como eu contrato um agente?',
    });
    expect(res.statusCode).toBe(200);
    const sentEvent = await watch.nextEvent(ana.user.id, 'whatsapp:message_sent', since);
    const reply = (sentEvent.payload as ServerEventPayload<'whatsapp:message_sent'>).message;
    // Each try of this reply, by its WhatsApp id (the same at every try; another reply may say the same).
    const tries = async () =>
      (await phoneEvents()).filter(
        (e) => e.type === 'message' && (e as { id: string }).id === outgoingWaId(reply.id),
      );
    await eventually(async () => (await tries()).length > 0, 'the reply’s first try');
    const block = (blocked: boolean) =>
      post(
        ctx,
        `/api/whatsapp/conversations/${conversationId}/block`,
        { blocked },
        {
          token: ana.token,
        },
      );
    expect((await block(true)).statusCode).toBe(200);
    try {
      await eventually(
        async () => {
          await retriesDue(ctx);
          return watch.statuses(reply.id).some((s) => s.status === 'failed');
        },
        'the reply withheld',
        20_000,
      );
      expect(watch.statuses(reply.id).map((s) => s.status)).toEqual(['failed']);
      expect(watch.statuses(reply.id)[0]!.error).toBe(
        message('pt-BR', 'whatsappServer.sendError.withheld'),
      );
      // Only the tries before the block reached WhatsApp, and each of them failed.
      const made = await tries();
      expect(made.length).toBeLessThan(SEND_TRIES);
      expect(made.every((e) => (e as { failed?: string }).failed === '463')).toBe(true);
      const shown = (await messages(ctx, ana, conversationId, 'en-US')).find(
        (m) => m.id === reply.id,
      );
      expect(shown).toMatchObject({
        status: 'failed',
        statusError: message('en-US', 'whatsappServer.sendError.withheld'),
      });
    } finally {
      expect((await block(false)).statusCode).toBe(200);
      expect((await sandbox('fail-sends', { count: 0, code: '463' })).statusCode).toBe(200);
    }
  });

  it('sends ending together are marked sent together, each its own message only, from pending only', async () => {
    const db = ctx.database.db;
    const bruno = await registerAndLogin(ctx, { name: 'Bruno' });
    const row = (text: string, status: 'pending' | 'failed') => ({
      conversationId,
      sender: 'user' as const,
      text,
      status,
      waId: null,
      createdAt: new Date(),
    });
    const stored = await db
      .insert(whatsappMessages)
      .values([
        row('um', 'pending'),
        row('dois', 'pending'),
        row('três', 'pending'),
        row('quatro', 'failed'),
        row('cinco', 'pending'),
      ])
      .returning({ id: whatsappMessages.id });
    const [one, two, three, four, five] = stored.map(({ id }) => id);
    // Marks of no job (whose send jobs are not this test's).
    const noJob = { params: { ...NO_JOB_COMPLETION, jobQueue: SEND_QUEUE_NAME }, done: () => {} };
    // Called at once: the first goes alone, the rest while it runs, in one statement.
    const marked = await Promise.all([
      markSent({ db, userId: ana.user.id, id: one!, job: noJob }),
      markSent({ db, userId: ana.user.id, id: two!, job: noJob }),
      markSent({ db, userId: ana.user.id, id: three!, job: noJob }),
      // Refused by WhatsApp before the send's mark: stays failed.
      markSent({ db, userId: ana.user.id, id: four!, job: noJob }),
      // Not Bruno's conversation: not his to mark.
      markSent({ db, userId: bruno.user.id, id: five!, job: noJob }),
    ]);
    expect(marked).toEqual([
      [{ id: one, conversationId }],
      [{ id: two, conversationId }],
      [{ id: three, conversationId }],
      [],
      [],
    ]);
    const shown = await messages(ctx, ana, conversationId);
    expect(shown.filter((m) => stored.some(({ id }) => id === m.id)).map((m) => m.status)).toEqual([
      'sent',
      'sent',
      'sent',
      'failed',
      'pending',
    ]);
  });

  it('the sandbox’s new controls check the caller and the input like the others', async () => {
    const bruno = await registerAndLogin(ctx, { name: 'Bruno2' });
    // Nobody: 401; another account: 404, as for a number nobody linked.
    expect(
      (
        await ctx.app.inject({
          method: 'POST',
          url: `/api/whatsapp/sandbox/phones/${phone}/fail-sends`,
          payload: { count: 1, code: '463' },
        })
      ).statusCode,
    ).toBe(401);
    expect(
      (
        await sandbox(
          'receipts',
          { ids: ['x'], status: 'read' },
          { authorization: `Bearer ${bruno.token}` },
        )
      ).statusCode,
    ).toBe(404);
    // The owner may, with their own session.
    expect(
      (
        await sandbox(
          'fail-sends',
          { count: 0, code: '463' },
          { authorization: `Bearer ${ana.token}` },
        )
      ).statusCode,
    ).toBe(200);
    for (const body of [
      {},
      { count: -1, code: '463' },
      { count: 101, code: '463' },
      { count: 1, code: '' },
      { count: 1, code: 'x'.repeat(10_000) },
      { count: 1, code: '<script>' },
      { count: 'many', code: '463' },
    ]) {
      const res = await sandbox('fail-sends', body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
    }
    for (const body of [
      {},
      { ids: [], status: 'read' },
      { ids: ['a'], status: 'played' },
      { ids: Array.from({ length: 101 }, (_, n) => `id${n}`), status: 'read' },
      { ids: ['\ud83d'], status: 'read' },
    ]) {
      const res = await sandbox('receipts', body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
    }
    const refused = await sandbox(
      'fail-sends',
      { count: 1, code: '' },
      {
        ...bySecret,
        'accept-language': 'es-ES',
      },
    );
    expect(refused.json().errors.code).toBe(message('es-ES', 'validation.sandboxFailCode'));
  });
});

describe('the outbox through Baileys and a fake WhatsApp', () => {
  let ctx: TestContext;
  let watch: ReturnType<typeof watchEvents>;
  let fake: FakeWhatsApp;
  beforeAll(async () => {
    fake = await startFakeWhatsApp();
    watch = watchEvents();
    ctx = await createTestApp({
      limits: { routes: UNLIMITED_ROUTES },
      events: watch.hub,
      whatsapp: { transport: 'baileys', wsUrl: fake.url },
    });
  });
  afterAll(async () => {
    await ctx.close();
    await fake.close();
  });

  it('sends the owner’s message with our id, then follows the contact’s receipts: sent, delivered, read', async () => {
    const gil = await registerAndLogin(ctx, { name: 'Gil' });
    const phone = newPhone();
    await linkOnFake({ ctx, ...watch }, fake, gil, phone);

    const rui = newPhone();
    const sent: SentText[] = [];
    const onSent = (text: SentText) => sent.push(text);
    fake.events.on('sent', onSent);
    try {
      // The owner writes from the phone first: the conversation the web then writes in.
      await fake.deliverOwnCopy({ phone, to: rui, text: 'Oi, Rui!' });
      await eventually(
        async () => (await conversations(ctx, gil)).length === 1,
        'the conversation',
      );
      const [only] = await conversations(ctx, gil);
      const stored = await send(ctx, gil, only!.id, 'Seu pedido chega hoje');
      expect(stored.status).toBe('pending');
      await watch.status(stored.id, 'sent');
      await eventually(async () => sent.length === 1, 'the contact received it');
      expect(sent[0]).toMatchObject({ from: phone, to: rui, text: 'Seu pedido chega hoje' });
      const waId = sent[0]!.id;
      // WhatsApp's id is the one made from ours.
      expect(waId).toBe(`3EB0${stored.id.replace(/-/g, '').toUpperCase()}`);

      await fake.receipt({ phone, from: rui, ids: [waId], status: 'delivered' });
      await watch.status(stored.id, 'delivered');
      await fake.receipt({ phone, from: rui, ids: [waId], status: 'read' });
      await watch.status(stored.id, 'read');
      expect(watch.statuses(stored.id).map((s) => s.status)).toEqual(['sent', 'delivered', 'read']);
      const shown = (await messages(ctx, gil, only!.id)).find((m) => m.id === stored.id);
      expect(shown).toMatchObject({ status: 'read' });
    } finally {
      fake.events.off('sent', onSent);
    }
  });

  it('a send WhatsApp refuses in its ack (463) shows failed with why, in the reader’s language; Retry sends it once', async () => {
    const lia = await registerAndLogin(ctx, { name: 'Lia' });
    const phone = newPhone();
    await linkOnFake({ ctx, ...watch }, fake, lia, phone);

    const teo = newPhone();
    const sent: SentText[] = [];
    const onSent = (text: SentText) => sent.push(text);
    const refused: string[] = [];
    const onRefused = ({ id }: { id: string }) => refused.push(id);
    fake.events.on('sent', onSent);
    fake.events.on('refused', onRefused);
    try {
      await fake.deliverOwnCopy({ phone, to: teo, text: 'Oi, Teo!' });
      await eventually(
        async () => (await conversations(ctx, lia)).length === 1,
        'the conversation',
      );
      const [only] = await conversations(ctx, lia);
      fake.refuseSends({ phone, count: 1, code: '463' });
      const stored = await send(ctx, lia, only!.id, 'Seu pedido saiu');
      const failed = await watch.status(stored.id, 'failed');
      expect(failed.error).toBe(message('pt-BR', 'whatsappServer.sendError.463'));
      expect(refused).toEqual([`3EB0${stored.id.replace(/-/g, '').toUpperCase()}`]);
      for (const language of ['pt-BR', 'en-US', 'es-ES'] as const) {
        const shown = (await messages(ctx, lia, only!.id, language)).find(
          (m) => m.id === stored.id,
        );
        expect(shown).toMatchObject({
          status: 'failed',
          statusError: message(language, 'whatsappServer.sendError.463'),
        });
      }
      expect(sent).toEqual([]);
      // The send's own mark, were it to come after the refusal (the ack can be heard first, and on
      // another instance), leaves it failed.
      expect(
        await moveStatus({
          db: ctx.database.db,
          userId: lia.user.id,
          id: stored.id,
          status: 'sent',
        }),
      ).toEqual([]);
      expect((await messages(ctx, lia, only!.id)).find((m) => m.id === stored.id)).toMatchObject({
        status: 'failed',
      });

      const retried = await post(
        ctx,
        `/api/whatsapp/conversations/${only!.id}/messages/${stored.id}/retry`,
        {},
        { token: lia.token },
      );
      expect(retried.statusCode).toBe(200);
      expect(retried.json().data).toMatchObject({ id: stored.id, status: 'pending' });
      await eventually(async () => sent.length === 1, 'the contact received it');
      expect(sent[0]).toMatchObject({
        from: phone,
        to: teo,
        text: 'Seu pedido saiu',
        id: refused[0],
      });
      await eventually(
        async () =>
          (await messages(ctx, lia, only!.id)).find((m) => m.id === stored.id)?.status === 'sent',
        'shown sent',
      );
      const shown = (await messages(ctx, lia, only!.id)).find((m) => m.id === stored.id);
      expect(shown).not.toHaveProperty('statusError');
    } finally {
      fake.events.off('sent', onSent);
      fake.events.off('refused', onRefused);
    }
  });
});
