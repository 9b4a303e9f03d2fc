import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { SandboxPhoneEvent } from '@contrateia/shared';
import {
  createTestClock,
  createTestDatabase,
  createTwoInstances,
  type TestContext,
} from '../../../test/helpers';
import { eventually, settles, until } from '../../../test/eventually';
import { repliesOf } from '../../../test/replies';
import { message, post, registerAndLogin, UNLIMITED_ROUTES } from '../../../test/factories';
import { createSharedState, type SharedState } from '@/lib/shared-state';
import { DEFAULT_CONTACT_LIMIT } from './whatsapp.deps';
import { insertConversation, insertMessage } from './whatsapp.repository';
import {
  conversations,
  conversationDetail as detail,
  sandboxPhoneEvents,
} from '../../../test/whatsapp';
import {
  jidOf,
  startRunning,
  transportDrivers,
  watchedHub,
  type Running,
  type TransportDriver,
} from '../../../test/whatsapp-drivers';

// Messages that reached the number while it was not connected (the server down or restarting,
// the link down) are handed over on connect: stored in order, answered once per contact when at
// most WHATSAPP_CATCHUP_MINUTES old, shown as not answered when older. The same cases run on both
// transports: the sandbox (its phone's network switched off) and Baileys against the fake
// WhatsApp server (which keeps what comes for a number that is not connected).

type Account = Awaited<ReturnType<typeof registerAndLogin>>;
const WINDOW_MINUTES = 10;
/**
 * How long the reply to a backlog may take after a restart: over Baileys the number reconnects,
 * then the backlog is delivered, decrypted and stored before the reply job is sent. That took
 * 47 s of a test on CI's loaded 2 cores (the jobs' 20 s default failed it); a deadline is for a
 * reply that never comes.
 */
const CATCH_UP_MS = 60_000;

const transports = transportDrivers({
  secret: 'sandbox-secret-of-the-catchup-tests',
  phonePrefix: '55117',
});
const { newPhone, bySecret } = transports;

/** A driver of the suite: the shared steps, and how the number goes away on its transport. */
type Driver = TransportDriver & {
  /**
   * The number goes away with `running` (the app then closes), and contacts write meanwhile:
   * each message is sent at the app's clock time when written; `advance` moves it.
   */
  whileAway: (
    running: Running,
    phone: string,
    writes: ({ from: string; text: string } | { advanceMs: number })[],
  ) => Promise<void>;
};

function start(
  driver: Driver,
  secret: string,
  options: { database?: TestContext['database']; at?: Date; state?: SharedState } = {},
): Promise<Running> {
  return startRunning(
    {
      limits: { routes: UNLIMITED_ROUTES },
      whatsapp: driver.whatsapp({ catchupMinutes: WINDOW_MINUTES }),
      secret,
      ...(options.at ? { clock: createTestClock(options.at) } : {}),
      ...(options.state ? { state: options.state } : {}),
    },
    { database: options.database },
  );
}

async function sandboxEvents(ctx: TestContext, phone: string): Promise<SandboxPhoneEvent[]> {
  return sandboxPhoneEvents(ctx, phone, bySecret);
}

const network = (ctx: TestContext, phone: string, body: unknown, headers = bySecret) =>
  ctx.app.inject({
    method: 'POST',
    url: `/api/whatsapp/sandbox/phones/${phone}/network`,
    headers,
    payload: body as Record<string, unknown>,
  });

const sandbox: Driver = {
  ...transports.sandbox,
  async whileAway({ ctx }, phone, writes) {
    const off = await network(ctx, phone, { online: false });
    expect(off.statusCode).toBe(200);
    for (const write of writes) {
      if ('advanceMs' in write) ctx.clock.advance(write.advanceMs);
      else
        expect(
          (
            await post(ctx, '/api/whatsapp/sandbox/inbound', {
              to: phone,
              from: jidOf(write.from),
              text: write.text,
            })
          ).statusCode,
        ).toBe(200);
    }
    await ctx.app.close();
  },
};

const baileys: Driver = {
  ...transports.baileys,
  async whileAway({ ctx }, phone, writes) {
    // The server stops: its socket closes, and WhatsApp keeps what comes for the number.
    await ctx.app.close();
    for (const write of writes) {
      if ('advanceMs' in write) ctx.clock.advance(write.advanceMs);
      else
        await transports.fake().deliverText({
          to: phone,
          from: write.from,
          text: write.text,
          sentAt: ctx.clock.now(),
        });
    }
  },
};

/**
 * A case across a restart: the owner's number linked on a first app; `body` gets them, and
 * `restart` starts a second app on the same database, its clock at `at`. Both are closed after.
 */
async function acrossRestart(
  driver: Driver,
  body: (started: {
    first: Running;
    owner: Account;
    phone: string;
    restart: (at: Date) => Promise<Running>;
  }) => Promise<void>,
) {
  const secret = randomBytes(32).toString('hex');
  const first = await start(driver, secret);
  let second: Running | undefined;
  try {
    const owner = await registerAndLogin(first.ctx, { name: 'Olga' });
    const phone = await driver.link(first, owner);
    const restart = async (at: Date) =>
      (second = await start(driver, secret, { database: first.ctx.database, at }));
    await body({ first, owner, phone, restart });
  } finally {
    await second?.ctx.close();
    await first.ctx.close();
  }
}

describe.each([sandbox, baileys])('messages that waited for the number ($name)', (driver) => {
  it('are stored in order after a restart; a contact’s recent ones get one reply, an older one is shown unanswered and never answered', () =>
    acrossRestart(driver, async ({ first, owner, phone, restart }) => {
      const [early, late] = [newPhone(), newPhone()];
      await driver.whileAway(first, phone, [
        { from: early, text: 'Vocês entregam no sábado?' },
        { advanceMs: (WINDOW_MINUTES + 1) * 60_000 },
        { from: late, text: 'Oi!' },
        { from: late, text: 'Quero fazer um pedido.' },
        { from: late, text: 'Vocês aceitam pix?' },
      ]);

      // Started again on the same database, when the late contact has just written.
      const second = await restart(first.ctx.clock.now());
      const [reply] = await second.replies.settled({
        userId: owner.user.id,
        timeoutMs: CATCH_UP_MS,
      });
      expect(reply!.outcome).toBe('sent');
      await settles(async () => expect(await conversations(second.ctx, owner)).toHaveLength(2));
      const listed = await conversations(second.ctx, owner);
      const byNumber = (digits: string) => listed.find((c) => c.contact_number === digits)!;

      const answered = await detail(second.ctx, owner, byNumber(late).id);
      expect(answered.messages.map((m) => [m.sender, m.text, m.unanswered ?? false])).toEqual([
        ['contact', 'Oi!', false],
        ['contact', 'Quero fazer um pedido.', false],
        ['contact', 'Vocês aceitam pix?', false],
        ['user', answered.messages[3]!.text, false],
      ]);
      expect(answered.messages[3]!.agentName).toBe('guia');

      const old = await detail(second.ctx, owner, byNumber(early).id);
      expect(old.messages).toEqual([
        expect.objectContaining({
          sender: 'contact',
          text: 'Vocês entregam no sábado?',
          unanswered: true,
        }),
      ]);
      // One reply in all, to the late contact only; the phones got just that.
      expect(second.replies.all.filter((r) => r.userId === owner.user.id)).toEqual([
        { userId: owner.user.id, conversationId: byNumber(late).id },
      ]);
      await settles(async () =>
        expect(await driver.sentTo(second, phone, late)).toEqual([answered.messages[3]!.text]),
      );
      expect(await driver.sentTo(second, phone, early)).toEqual([]);
    }));

  it('a contact’s backlog longer than its allowance a minute is no flood: all stored, one reply, never blocked', () =>
    acrossRestart(driver, async ({ first, owner, phone, restart }) => {
      const contact = newPhone();
      const texts = Array.from(
        { length: DEFAULT_CONTACT_LIMIT.points + 5 },
        (_, n) => `Mensagem ${n + 1}`,
      );
      await driver.whileAway(
        first,
        phone,
        texts.map((text) => ({ from: contact, text })),
      );

      const second = await restart(first.ctx.clock.now());
      const [reply] = await second.replies.settled({
        userId: owner.user.id,
        timeoutMs: CATCH_UP_MS,
      });
      expect(reply!.outcome).toBe('sent');
      const [only] = await conversations(second.ctx, owner);
      expect(only).toMatchObject({ status: 'active', blocked_reason: null });
      const { messages } = await detail(second.ctx, owner, only!.id);
      expect(messages.filter((m) => m.sender === 'contact').map((m) => m.text)).toEqual(texts);
      await settles(async () =>
        expect(await driver.sentTo(second, phone, contact)).toHaveLength(1),
      );
      // One reply in all, for the whole backlog.
      expect(second.replies.all.filter((r) => r.userId === owner.user.id)).toHaveLength(1);
    }));
});

describe.each([sandbox, baileys])('a catch-up cut short ($name)', (driver) => {
  it('what it stored without its reply is answered once when the number connects again', () =>
    acrossRestart(driver, async ({ first, owner, phone, restart }) => {
      await driver.whileAway(first, phone, []);
      // What a process killed in the middle of a catch-up leaves: the contact's first messages
      // stored, and no reply job (it goes with the batch's last message, never stored).
      const contact = newPhone();
      const { db } = first.ctx.database;
      const at = first.ctx.clock.now();
      const conversation = await insertConversation({
        db,
        values: {
          userId: owner.user.id,
          contactJid: jidOf(contact),
          contactAltJid: null,
          contactName: 'Dora',
          contactNumber: contact,
          createdAt: at,
          updatedAt: at,
        },
      });
      for (const [n, text] of ['Oi!', 'Quero fazer um pedido.'].entries())
        await insertMessage({
          db,
          values: {
            conversationId: conversation.id,
            waId: `CUT${n}${contact}`,
            sender: 'contact',
            text,
            agentName: null,
            error: null,
            createdAt: at,
          },
          unread: true,
        });

      const second = await restart(at);
      const [reply] = await second.replies.settled({
        userId: owner.user.id,
        timeoutMs: CATCH_UP_MS,
      });
      expect(reply).toEqual(
        expect.objectContaining({ conversationId: conversation.id, outcome: 'sent' }),
      );
      const answered = await detail(second.ctx, owner, conversation.id);
      expect(answered.messages.map((m) => [m.sender, m.text])).toEqual([
        ['contact', 'Oi!'],
        ['contact', 'Quero fazer um pedido.'],
        ['user', answered.messages[2]!.text],
      ]);
      await settles(async () =>
        expect(await driver.sentTo(second, phone, contact)).toEqual([answered.messages[2]!.text]),
      );
      expect(second.replies.all.filter((r) => r.userId === owner.user.id)).toHaveLength(1);
    }));
});

describe('the sandbox phone’s network', () => {
  let running: Running;
  let owner: Account;
  let phone: string;
  beforeAll(async () => {
    running = await start(sandbox, randomBytes(32).toString('hex'));
    owner = await registerAndLogin(running.ctx, { name: 'Paula' });
    phone = await sandbox.link(running, owner);
  });
  afterAll(async () => running.ctx.close());

  it('while down keeps contacts’ messages from the account; back up, they are delivered and answered once', async () => {
    const { ctx } = running;
    expect((await network(ctx, phone, { online: false })).json()).toEqual({
      success: true,
      online: false,
    });
    const contact = newPhone();
    for (const text of ['Bom dia', 'Quero conectar o WhatsApp', 'Como conecto meu WhatsApp?'])
      expect(
        (
          await post(ctx, '/api/whatsapp/sandbox/inbound', {
            to: phone,
            from: jidOf(contact),
            text,
          })
        ).statusCode,
      ).toBe(200);
    // Nothing reached the account yet.
    expect(await conversations(ctx, owner)).toEqual([]);
    expect(running.events.filter((e) => e.name === 'whatsapp:new_message')).toEqual([]);

    const since = running.replies.count;
    expect((await network(ctx, phone, { online: true })).json()).toEqual({
      success: true,
      online: true,
    });
    // Stored by the time the switch answers.
    const [only] = await conversations(ctx, owner);
    expect(only!.unread_count).toBe(3);
    const [reply] = await running.replies.settled({ userId: owner.user.id, since });
    expect(reply!.outcome).toBe('sent');
    expect(running.replies.count - since).toBe(1);
    const { messages } = await detail(ctx, owner, only!.id);
    expect(messages.map((m) => m.sender)).toEqual(['contact', 'contact', 'contact', 'user']);
    expect(await sandbox.sentTo(running, phone, contact)).toEqual([messages[3]!.text]);

    // Back up, a message is live again.
    const live = running.replies.count;
    await post(ctx, '/api/whatsapp/sandbox/inbound', {
      to: phone,
      from: jidOf(contact),
      text: 'Obrigado!',
    });
    expect(
      (await running.replies.settled({ userId: owner.user.id, since: live }))[0]!.outcome,
    ).toBe('sent');
  });

  it('while down keeps contacts’ edits, deletions and reactions too; back up, each applies after what came before it, and none is answered', async () => {
    const { ctx } = running;
    const contact = newPhone();
    const write = async (id: string, text: string) =>
      expect(
        (
          await post(ctx, '/api/whatsapp/sandbox/inbound', {
            to: phone,
            from: jidOf(contact),
            id,
            text,
          })
        ).statusCode,
      ).toBe(200);
    const change = async (path: string, body: Record<string, string>) =>
      expect(
        (
          await post(ctx, `/api/whatsapp/sandbox/${path}`, {
            to: phone,
            from: jidOf(contact),
            ...body,
          })
        ).statusCode,
      ).toBe(200);
    // Each answered before the next, so that the conversation reads message, reply, message, reply.
    for (const [id, text] of [
      ['NET-1', 'Como eu contrato um agente?'],
      ['NET-2', 'Como conecto meu WhatsApp?'],
    ] as const) {
      const asked = running.replies.count;
      await write(id, text);
      const [answered] = await running.replies.settled({ userId: owner.user.id, since: asked });
      expect(answered!.outcome).toBe('sent');
    }
    const replies = (await sandboxEvents(ctx, phone)).flatMap((e) =>
      e.type === 'message' && e.to === jidOf(contact) ? [e] : [],
    );
    expect(replies).toHaveLength(2);
    const reply = replies[1]!;

    expect((await network(ctx, phone, { online: false })).statusCode).toBe(200);
    const since = running.events.length;
    const asked = running.replies.count;
    await change('edit', { id: 'NET-1', text: 'Como eu contrato dois agentes?' });
    await change('revoke', { id: 'NET-2' });
    await change('react', { id: reply.id, emoji: '👍' });
    await write('NET-3', 'E um refrigerante');
    // Nothing of it reached the account while the link was down.
    expect(running.events.slice(since).filter((e) => e.userId === owner.user.id)).toEqual([]);
    const listed = (await conversations(ctx, owner)).find((c) => c.contact_number === contact)!;
    expect((await detail(ctx, owner, listed.id)).messages.map((m) => m.text)).toEqual([
      'Como eu contrato um agente?',
      replies[0]!.text,
      'Como conecto meu WhatsApp?',
      reply.text,
    ]);

    expect((await network(ctx, phone, { online: true })).statusCode).toBe(200);
    const { messages } = await detail(ctx, owner, listed.id);
    expect(messages.slice(0, 5)).toEqual([
      expect.objectContaining({
        text: 'Como eu contrato dois agentes?',
        editedAt: expect.any(String),
      }),
      expect.objectContaining({ sender: 'user', text: replies[0]!.text }),
      expect.objectContaining({ text: '', deleted: true }),
      expect.objectContaining({ sender: 'user', reactions: [{ sender: 'contact', emoji: '👍' }] }),
      expect.objectContaining({ sender: 'contact', text: 'E um refrigerante' }),
    ]);
    // Only the new message asked for a reply.
    const [next] = await running.replies.settled({ userId: owner.user.id, since: asked });
    expect(next!.outcome).toBe('sent');
    expect(running.replies.count - asked).toBe(1);
  });

  it('never stores or answers a history sync, even handed over on connect with recent messages', async () => {
    const { ctx } = running;
    const contact = jidOf(newPhone());
    const before = await conversations(ctx, owner);
    const since = running.replies.count;
    await ctx.app.whatsapp.handleTransportEvent(owner.user.id, {
      type: 'offline-messages',
      messages: [
        // The history sync notification (a protocol message): Baileys emits its messages apart.
        {
          id: 'HISTORY-1',
          remoteJid: jidOf(phone),
          fromMe: true,
          protocol: true,
          timestamp: ctx.clock.now(),
        },
        {
          id: 'HISTORY-2',
          remoteJid: contact,
          fromMe: false,
          protocol: true,
          text: 'um texto antigo',
          timestamp: ctx.clock.now(),
        },
      ],
    });
    expect(await conversations(ctx, owner)).toEqual(before);
    expect(running.replies.count).toBe(since);
  });

  it('refuses a body that is not {online: boolean} with a 400 in the caller’s language, and changes nothing', async () => {
    const { ctx } = running;
    for (const body of [
      {},
      { online: 'false' },
      { online: 0 },
      { online: null },
      { online: ['x'.repeat(10_000)] },
    ]) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: `/api/whatsapp/sandbox/phones/${phone}/network`,
        headers: { ...bySecret, 'accept-language': 'en-US' },
        payload: body,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().errors).toEqual({
        online: message('en-US', 'validation.booleanRequired'),
      });
    }
    for (const bad of ['abc', '1'.repeat(200), '%3Cscript%3E']) {
      const res = await network(ctx, bad, { online: false });
      expect(res.statusCode).toBe(400);
    }
    // Still online: a contact's message goes straight through.
    const since = running.replies.count;
    await post(ctx, '/api/whatsapp/sandbox/inbound', {
      to: phone,
      from: jidOf(newPhone()),
      text: 'Olá',
    });
    expect((await running.replies.settled({ userId: owner.user.id, since }))[0]!.outcome).toBe(
      'sent',
    );
  });
});

describe('a hand-over too long for one event (the sandbox, two messages an event)', () => {
  let running: Running;
  let owner: Account;
  let phone: string;
  beforeAll(async () => {
    running = await startRunning({
      limits: { routes: UNLIMITED_ROUTES },
      whatsapp: sandbox.whatsapp({ catchupMinutes: WINDOW_MINUTES, sandboxOfflineBatch: 2 }),
      secret: randomBytes(32).toString('hex'),
    });
    owner = await registerAndLogin(running.ctx, { name: 'Renata' });
    phone = await sandbox.link(running, owner);
  });
  afterAll(async () => running.ctx.close());

  it('answers each contact once, with everything they wrote, whichever part their last message came in', async () => {
    const { ctx } = running;
    expect((await network(ctx, phone, { online: false })).statusCode).toBe(200);
    const [ana, bruno] = [newPhone(), newPhone()];
    // Handed over as [Ana, Ana], [Bruno, Ana], [Ana]: Ana's messages span the three parts, and
    // Bruno's only one is in the middle part.
    const writes = [
      [ana, 'Oi, tudo bem?'],
      [ana, 'Vocês abrem sábado?'],
      [bruno, 'Quanto custa o corte?'],
      [ana, 'E domingo?'],
      [ana, 'Queria marcar para as 10h'],
    ] as const;
    for (const [from, text] of writes)
      expect(
        (await post(ctx, '/api/whatsapp/sandbox/inbound', { to: phone, from: jidOf(from), text }))
          .statusCode,
      ).toBe(200);

    const since = running.replies.count;
    expect((await network(ctx, phone, { online: true })).statusCode).toBe(200);
    const replies = await running.replies.settled({ userId: owner.user.id, since, count: 2 });
    expect(replies.map((reply) => reply.outcome)).toEqual(['sent', 'sent']);
    const list = await conversations(ctx, owner);
    const senders = async (number: string) => {
      const conversation = list.find((c) => c.contact_number === number)!;
      return (await detail(ctx, owner, conversation.id)).messages.map((m) => m.sender);
    };
    // Ana: her four messages in order, then one reply; Bruno: his, then one reply.
    expect(await senders(ana)).toEqual(['contact', 'contact', 'contact', 'contact', 'user']);
    expect(await senders(bruno)).toEqual(['contact', 'user']);
    expect(await sandbox.sentTo(running, phone, ana)).toHaveLength(1);
    expect(await sandbox.sentTo(running, phone, bruno)).toHaveLength(1);
    // Every reply was asked by the time the switch answered: no part had a reply of its own.
    expect(running.replies.count - since).toBe(2);
  });
});

describe('a hand-over Baileys lets out in parts (longer than its 30 s hold of events)', () => {
  it(
    'answers each contact once, with everything they wrote, whichever part their messages came in',
    () =>
      acrossRestart(baileys, async ({ first, owner, phone, restart }) => {
        const [ana, bruno] = [newPhone(), newPhone()];
        await baileys.whileAway(first, phone, [
          { from: ana, text: 'Oi, tudo bem?' },
          { from: ana, text: 'Vocês abrem sábado?' },
          { from: bruno, text: 'Quanto custa o corte?' },
          { from: ana, text: 'E domingo?' },
        ]);
        // WhatsApp hands Ana's first two over, then waits: Baileys lets them out after 30 s, as
        // one upsert, before it knows the rest. The rest comes once they are stored.
        let release = () => {};
        const paused = new Promise<void>((resolve) => (release = resolve));
        transports.fake().pauseHandOver({ phone, after: 2, until: paused });

        const second = await restart(first.ctx.clock.now());
        await until(
          () =>
            second.events.find(
              (e) =>
                e.name === 'whatsapp:new_message' &&
                (e.payload as { message: { text: string } }).message.text === 'Vocês abrem sábado?',
            ),
          {
            changes: (onChange) => second.hub.subscribe(onChange),
            what: 'the first part stored',
            ms: 60_000,
          },
        );
        release();
        const replies = await second.replies.settled({
          userId: owner.user.id,
          count: 2,
          timeoutMs: CATCH_UP_MS,
        });
        expect(replies.map((reply) => reply.outcome)).toEqual(['sent', 'sent']);
        const list = await conversations(second.ctx, owner);
        const shown = async (number: string) => {
          const conversation = list.find((c) => c.contact_number === number)!;
          return (await detail(second.ctx, owner, conversation.id)).messages.map((m) => m.sender);
        };
        // Ana: her three messages, then one reply; Bruno: his, then one reply.
        expect(await shown(ana)).toEqual(['contact', 'contact', 'contact', 'user']);
        expect(await shown(bruno)).toEqual(['contact', 'user']);
        await settles(async () =>
          expect(await baileys.sentTo(second, phone, bruno)).toHaveLength(1),
        );
        expect(await baileys.sentTo(second, phone, ana)).toHaveLength(1);
        expect(second.replies.all.filter((r) => r.userId === owner.user.id)).toHaveLength(2);
      }),
    120_000,
  );
});

describe('a catch-up on two instances (Baileys and a fake WhatsApp)', () => {
  it('what came while both were down is stored once, in order, and answered once, whichever instance holds the number', async () => {
    const deps = {
      limits: { routes: UNLIMITED_ROUTES },
      whatsapp: baileys.whatsapp({ catchupMinutes: WINDOW_MINUTES }),
      // One signing key for both pairs, as JWT_SECRET gives it: the owner stays signed in.
      secret: randomBytes(32).toString('hex'),
    };
    const hubs = { a: watchedHub(), b: watchedHub() };
    const each = (instance: 'a' | 'b') => ({ events: hubs[instance].hub });
    // One database for both pairs: the second is the first started again (a deploy).
    const database = await createTestDatabase();
    let first: Awaited<ReturnType<typeof createTwoInstances>> | undefined;
    let second: Awaited<ReturnType<typeof createTwoInstances>> | undefined;
    try {
      first = await createTwoInstances(deps, each, { database });
      const owner = await registerAndLogin(first.a, { name: 'Olga' });
      const phone = await baileys.link(
        { ctx: first.a, ...hubs.a, replies: repliesOf(first.a) },
        owner,
      );
      const down = first;
      first = undefined;
      await down.close();

      // Both down: WhatsApp keeps what the contact writes meanwhile.
      const contact = newPhone();
      const texts = ['Bom dia!', 'Vocês fazem entrega?', 'Moro no centro.'];
      for (const text of texts)
        await transports.fake().deliverText({ to: phone, from: contact, text, sentAt: new Date() });

      const again = { a: watchedHub(), b: watchedHub() };
      second = await createTwoInstances(deps, (instance) => ({ events: again[instance].hub }), {
        database,
      });
      const { a, b } = second;
      const replies = () =>
        transports.baileys.sentTo({ ctx: a, ...again.a, replies: repliesOf(a) }, phone, contact);
      await eventually(async () => (await replies()).length > 0, 'the catch-up answered', 30_000);
      // Nothing more to do on either instance, and still one reply.
      await eventually(
        async () => {
          const { rows } = await a.app.platform.database.execute(
            `SELECT count(*)::int AS n FROM pgboss.job WHERE name IN ('whatsapp-reply', 'whatsapp-send') AND state < 'completed'`,
          );
          return Number(rows[0]?.n) === 0;
        },
        'every reply and send done',
        30_000,
      );
      const sent = await replies();
      expect(sent).toHaveLength(1);
      // Read through either instance: the three messages once, in order, then the one reply.
      for (const ctx of [a, b]) {
        const [only, ...others] = await conversations(ctx, owner);
        expect(others).toEqual([]);
        const { messages } = await detail(ctx, owner, only!.id);
        expect(messages.map((m) => [m.sender, m.text])).toEqual([
          ...texts.map((text) => ['contact', text]),
          ['user', sent[0]],
        ]);
      }
    } finally {
      await first?.close();
      await second?.close();
      await database.drop();
    }
  }, 90_000);
});

describe('the sandbox phone’s network while another instance delivers what waited', () => {
  it('back up, what the contact wrote is delivered once that instance lets go (it may have died delivering it), and answered once', async () => {
    // A state the test shares with the app, as another instance would through Redis.
    const state = createSharedState({ keyPrefix: `test-${randomBytes(6).toString('hex')}` });
    const running = await start(sandbox, randomBytes(32).toString('hex'), { state });
    try {
      const { ctx } = running;
      const owner = await registerAndLogin(ctx, { name: 'Rosa' });
      const phone = await sandbox.link(running, owner);
      expect((await network(ctx, phone, { online: false })).statusCode).toBe(200);
      const contact = newPhone();
      for (const text of ['Boa noite', 'Ainda dá para pedir?'])
        expect(
          (
            await post(ctx, '/api/whatsapp/sandbox/inbound', {
              to: phone,
              from: jidOf(contact),
              text,
            })
          ).statusCode,
        ).toBe(200);
      // The lease on the number's queued messages, as the instance delivering them holds it.
      const held = await state.tryLock(`whatsapp-sandbox-offline:${owner.user.id}`);
      expect(held).toBeDefined();

      expect((await network(ctx, phone, { online: true })).statusCode).toBe(200);
      expect(await conversations(ctx, owner)).toEqual([]);
      // Let go without delivering them: what an instance that died leaves once its lease lapses.
      await held!.release();
      await vi.waitFor(async () => expect(await conversations(ctx, owner)).toHaveLength(1), {
        timeout: 15_000,
      });
      const [reply] = await running.replies.settled({ userId: owner.user.id });
      expect(reply!.outcome).toBe('sent');
      const [only] = await conversations(ctx, owner);
      expect((await detail(ctx, owner, only!.id)).messages.map((m) => m.sender)).toEqual([
        'contact',
        'contact',
        'user',
      ]);
      expect(running.replies.count).toBe(1);
    } finally {
      await running.ctx.close();
      await state.close();
    }
  });
});
