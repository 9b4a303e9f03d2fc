import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { WhatsAppConversationDetail } from '@contrateia/shared';
import { createTestApp, NO_MONITOR, type TestContext } from '../../../test/helpers';
import { get, post, registerAndLogin, UNLIMITED_ROUTES } from '../../../test/factories';
import { startFakeWhatsApp, fakeLidOf, type FakeWhatsApp } from '../../../test/fake-whatsapp';
import { qrText } from '../../../test/qr';
import { createEventHub, type HubEvent } from '@/lib/event-hub';
import { eventually, until } from '../../../test/eventually';
import { createGate, startFakeOpenAI, type FakeOpenAI } from '../../../test/fake-openai';
import { repliesOf } from '../../../test/replies';
import { learnLidMapping } from './whatsapp.repository';
import { conversations, conversationDetail as detail, linkSandbox } from '../../../test/whatsapp';

// WhatsApp names many contacts by a LID (`<digits>@lid`) instead of their phone number, and
// tells which LID is which number. A contact is one conversation whichever address its messages
// come from, and two conversations found to be one contact later become one. The same cases run
// on both transports: the sandbox (its inbound and lid-mapping endpoints) and Baileys against the
// fake WhatsApp server (a message from a LID sender, the linked-profiles notification).

type Account = Awaited<ReturnType<typeof registerAndLogin>>;
const SANDBOX_SECRET = 'sandbox-secret-of-the-lid-tests';

let sequence = 0;
function newPhone(): string {
  sequence += 1;
  return `55116${String(Date.now() % 1e6).padStart(6, '0')}${String(sequence).padStart(2, '0')}`;
}

type Running = { ctx: TestContext; hub: ReturnType<typeof createEventHub>; events: HubEvent[] };

/** An app of the test, with what it emitted for accounts' browsers. */
async function startApp(deps: Parameters<typeof createTestApp>[0]): Promise<Running> {
  const hub = createEventHub();
  const events: HubEvent[] = [];
  hub.subscribe((event) => events.push(event));
  return { ctx: await createTestApp({ ...deps, events: hub }), hub, events };
}

/** How a case drives its transport. Each resolves once the server has shown what it did. */
type Driver = {
  name: string;
  deps: () => Parameters<typeof createTestApp>[0];
  link: (running: Running, account: Account) => Promise<string>;
  /** The contact known by `lid` (digits) writes; with `pn` (digits) WhatsApp says its number too. */
  fromLid: (
    running: Running,
    account: Account,
    phone: string,
    input: { lid: string; pn?: string; text: string; pushName?: string },
  ) => Promise<void>;
  /** The contact writes from its phone number `pn` (digits). */
  fromPhone: (
    running: Running,
    account: Account,
    phone: string,
    input: { pn: string; text: string },
  ) => Promise<void>;
  /** WhatsApp tells the number that `lid` is `pn` (digits both); resolves once sent. */
  mapping: (
    running: Running,
    account: Account,
    phone: string,
    input: { lid: string; pn: string },
  ) => Promise<void>;
};

/** The first event `name` of the account from `since` on, as soon as it is emitted. */
function nextEvent(
  { hub, events }: Running,
  userId: string,
  name: string,
  since: number,
  match: (payload: Record<string, unknown>) => boolean = () => true,
) {
  return until(
    () =>
      events
        .slice(since)
        .find(
          (e) =>
            e.userId === userId &&
            e.name === name &&
            match(e.payload as unknown as Record<string, unknown>),
        ),
    { what: `the event ${name}`, changes: (onChange) => hub.subscribe(onChange) },
  );
}

/** The message `text` shown to the account (its `whatsapp:new_message`). */
const shown = (running: Running, account: Account, since: number, text: string) =>
  nextEvent(
    running,
    account.user.id,
    'whatsapp:new_message',
    since,
    (p) => (p.message as { text: string }).text === text,
  );

const sandbox: Driver = {
  name: 'sandbox',
  deps: () => ({
    without: NO_MONITOR,
    limits: { routes: UNLIMITED_ROUTES },
    whatsapp: { transport: 'sandbox', sandboxSecret: SANDBOX_SECRET },
  }),
  async link({ ctx }, account) {
    const phone = newPhone();
    await linkSandbox(ctx, account, phone);
    return phone;
  },
  async fromLid(running, account, phone, { lid, pn, text, pushName }) {
    const since = running.events.length;
    const res = await post(running.ctx, '/api/whatsapp/sandbox/inbound', {
      to: phone,
      from: `${lid}@lid`,
      ...(pn ? { fromAlt: `${pn}@s.whatsapp.net` } : {}),
      text,
      ...(pushName ? { pushName } : {}),
    });
    expect(res.statusCode).toBe(200);
    await shown(running, account, since, text);
  },
  async fromPhone(running, account, phone, { pn, text }) {
    const since = running.events.length;
    const res = await post(running.ctx, '/api/whatsapp/sandbox/inbound', {
      to: phone,
      from: `${pn}@s.whatsapp.net`,
      text,
    });
    expect(res.statusCode).toBe(200);
    await shown(running, account, since, text);
  },
  async mapping({ ctx }, account, phone, { lid, pn }) {
    const res = await post(
      ctx,
      '/api/whatsapp/sandbox/lid-mapping',
      { to: phone, lid: `${lid}@lid`, pn: `${pn}@s.whatsapp.net` },
      { token: account.token },
    );
    expect(res.statusCode).toBe(200);
  },
};

let fake: FakeWhatsApp;

const baileys: Driver = {
  name: 'Baileys and a fake WhatsApp',
  deps: () => ({
    without: NO_MONITOR,
    limits: { routes: UNLIMITED_ROUTES },
    whatsapp: { transport: 'baileys', wsUrl: fake.url },
  }),
  async link(running, account) {
    const phone = newPhone();
    const since = running.events.length;
    expect(
      (await post(running.ctx, '/api/whatsapp/connect', {}, { token: account.token })).statusCode,
    ).toBe(200);
    const qr = (await nextEvent(running, account.user.id, 'whatsapp:qr', since)).payload as {
      qrCode: string;
    };
    const ready = nextEvent(running, account.user.id, 'whatsapp:ready', since);
    await fake.scan(qrText(qr.qrCode), phone);
    await ready;
    return phone;
  },
  async fromLid(running, account, phone, { lid, pn, text, pushName }) {
    const since = running.events.length;
    await fake.deliverFromLid({
      to: phone,
      lid,
      ...(pn ? { pn } : {}),
      text,
      ...(pushName ? { pushName } : {}),
      sentAt: running.ctx.clock.now(),
    });
    await shown(running, account, since, text);
  },
  async fromPhone(running, account, phone, { pn, text }) {
    const since = running.events.length;
    await fake.deliverText({ to: phone, from: pn, text, sentAt: running.ctx.clock.now() });
    await shown(running, account, since, text);
  },
  async mapping(_running, _account, phone, { lid, pn }) {
    await fake.linkedProfile({ phone, lid, pn });
  },
};

beforeAll(async () => {
  fake = await startFakeWhatsApp();
});
afterAll(async () => fake.close());

describe.each([sandbox, baileys])('one contact, one conversation ($name)', (driver) => {
  let running: Running;
  let owner: Account;
  let phone: string;
  beforeAll(async () => {
    running = await startApp(driver.deps());
    owner = await registerAndLogin(running.ctx, { name: 'Olga' });
    phone = await driver.link(running, owner);
    // Whitelist mode: the contacts are pending and never answered, so that the conversations
    // hold only what the contacts wrote.
    const settings = await post(
      running.ctx,
      '/api/whatsapp/settings',
      { whitelistMode: true },
      { token: owner.token },
    );
    expect(settings.statusCode).toBe(200);
  });
  afterAll(async () => running.ctx.close());

  const minute = () => running.ctx.clock.advance(60_000);

  it('a contact WhatsApp mapped is one conversation from its LID and from its number, shown by its number', async () => {
    const pn = newPhone();
    const lid = fakeLidOf(pn);
    const since = running.events.length;
    await driver.mapping(running, owner, phone, { lid, pn });
    await driver.fromLid(running, owner, phone, { lid, text: 'Oi, vocês abrem amanhã?' });
    minute();
    await driver.fromPhone(running, owner, phone, { pn, text: 'E no domingo?' });
    const mine = (await conversations(running.ctx, owner)).filter(
      (c) => c.last_message?.text === 'E no domingo?' || c.contact_number === pn,
    );
    // No push name: the page shows the number (never the LID's digits).
    expect(mine).toEqual([
      expect.objectContaining({ contact_name: pn, contact_number: pn, unread_count: 2 }),
    ]);
    const opened = await detail(running.ctx, owner, mine[0]!.id);
    expect(opened.messages.map((m) => m.text)).toEqual([
      'Oi, vocês abrem amanhã?',
      'E no domingo?',
    ]);
    expect(
      running.events
        .slice(since)
        .filter((e) => e.userId === owner.user.id && e.name === 'whatsapp:conversation_merged'),
    ).toEqual([]);
  });

  it('two conversations found to be one contact are merged: messages in order, paging intact, the older one’s settings kept', async () => {
    const pn = newPhone();
    const lid = fakeLidOf(pn);
    await driver.fromLid(running, owner, phone, { lid, text: 'A1', pushName: 'Bruna' });
    minute();
    await driver.fromPhone(running, owner, phone, { pn, text: 'B1' });
    minute();
    await driver.fromLid(running, owner, phone, { lid, text: 'A2', pushName: 'Bruna' });
    minute();
    await driver.fromPhone(running, owner, phone, { pn, text: 'B2' });
    minute();
    await driver.fromPhone(running, owner, phone, { pn, text: 'B3' });

    const listed = await conversations(running.ctx, owner);
    const byLid = listed.find((c) => c.contact_name === 'Bruna')!;
    const byNumber = listed.find((c) => c.contact_number === pn && c.contact_name !== 'Bruna')!;
    // Known apart so far: the LID's conversation has no number to show.
    expect(byLid).toMatchObject({ contact_number: '', unread_count: 2 });
    expect(byNumber).toMatchObject({ contact_name: pn, unread_count: 3 });
    // The surviving (older) conversation's settings stay as they were.
    const off = await post(
      running.ctx,
      `/api/whatsapp/conversations/${byLid.id}/ai`,
      { enabled: false },
      { token: owner.token },
    );
    expect(off.statusCode).toBe(200);

    const since = running.events.length;
    await driver.mapping(running, owner, phone, { lid, pn });
    const merged = await nextEvent(running, owner.user.id, 'whatsapp:conversation_merged', since);
    expect(merged.payload).toEqual({ from: byNumber.id, into: byLid.id });

    const after = (await conversations(running.ctx, owner)).filter((c) =>
      [byLid.id, byNumber.id].includes(c.id),
    );
    expect(after).toEqual([
      expect.objectContaining({
        id: byLid.id,
        contact_name: 'Bruna',
        contact_number: pn,
        unread_count: 5,
        ai_enabled: false,
        last_message: expect.objectContaining({ text: 'B3' }),
      }),
    ]);
    const gone = await get(running.ctx, `/api/whatsapp/conversations/${byNumber.id}`, {
      token: owner.token,
    });
    expect(gone.statusCode).toBe(404);

    const opened = await detail(running.ctx, owner, byLid.id);
    expect(opened.messages.map((m) => m.text)).toEqual(['A1', 'B1', 'A2', 'B2', 'B3']);
    // A page at a time, newest first, each page oldest first: every message once, in order.
    const seen: string[] = [];
    let cursor: string | null = null;
    do {
      const res = await get(
        running.ctx,
        `/api/whatsapp/conversations/${byLid.id}?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
        { token: owner.token },
      );
      expect(res.statusCode).toBe(200);
      const page = res.json<{ data: WhatsAppConversationDetail; nextCursor: string | null }>();
      seen.unshift(...page.data.messages.map((m) => m.text));
      cursor = page.nextCursor;
    } while (cursor);
    expect(seen).toEqual(['A1', 'B1', 'A2', 'B2', 'B3']);

    // Later messages by either address go to the one conversation.
    minute();
    await driver.fromPhone(running, owner, phone, { pn, text: 'B4' });
    minute();
    await driver.fromLid(running, owner, phone, { lid, text: 'A3' });
    expect(
      (await detail(running.ctx, owner, byLid.id)).messages.map((m) => m.text).slice(-2),
    ).toEqual(['B4', 'A3']);
    expect(
      (await conversations(running.ctx, owner)).filter((c) => c.contact_number === pn),
    ).toHaveLength(1);
  });
});

describe('the sandbox’s LID mapping told twice at once', () => {
  let running: Running;
  beforeAll(async () => {
    running = await startApp(sandbox.deps());
  });
  afterAll(async () => running.ctx.close());

  it('merges once: the second finds one conversation and does nothing', async () => {
    const owner = await registerAndLogin(running.ctx, { name: 'Rita' });
    const phone = await sandbox.link(running, owner);
    await post(
      running.ctx,
      '/api/whatsapp/settings',
      { whitelistMode: true },
      { token: owner.token },
    );
    const pn = newPhone();
    const lid = fakeLidOf(pn);
    await sandbox.fromLid(running, owner, phone, { lid, text: 'primeira' });
    running.ctx.clock.advance(60_000);
    await sandbox.fromPhone(running, owner, phone, { pn, text: 'segunda' });
    const before = await conversations(running.ctx, owner);
    // Known by its LID alone, no push name: no name and no number (the page says it is hidden),
    // never the LID's digits.
    expect(before.map((c) => [c.contact_name, c.contact_number]).sort()).toEqual([
      ['', ''],
      [pn, pn],
    ]);
    const since = running.events.length;
    await Promise.all([
      sandbox.mapping(running, owner, phone, { lid, pn }),
      sandbox.mapping(running, owner, phone, { lid, pn }),
    ]);
    const [only] = await conversations(running.ctx, owner);
    expect(await conversations(running.ctx, owner)).toHaveLength(1);
    expect(only).toMatchObject({ contact_number: pn, unread_count: 2 });
    expect(
      running.events
        .slice(since)
        .filter((e) => e.userId === owner.user.id && e.name === 'whatsapp:conversation_merged'),
    ).toHaveLength(1);
    expect((await detail(running.ctx, owner, only!.id)).messages.map((m) => m.text)).toEqual([
      'primeira',
      'segunda',
    ]);
  });
});

describe.each([sandbox, baileys])(
  'a contact’s message whose reply is in the making when its conversation is merged ($name)',
  (driver) => {
    let ai: FakeOpenAI;
    let running: Running;
    beforeAll(async () => {
      ai = await startFakeOpenAI();
      running = await startApp({
        ...driver.deps(),
        ai: { provider: 'openai', baseUrl: ai.url, model: 'fake-model', timeoutMs: 20_000 },
      });
    });
    afterAll(async () => {
      await running.ctx.close();
      await ai.close();
    });

    it('is answered once, in the conversation that stays', async () => {
      const { ctx } = running;
      const replies = repliesOf(ctx);
      const owner = await registerAndLogin(ctx, { name: 'Teresa' });
      const phone = await driver.link(running, owner);
      const pn = newPhone();
      const lid = fakeLidOf(pn);
      ai.setOptions({ chunks: ['Olá, Bruna!'] });
      await driver.fromLid(running, owner, phone, { lid, text: 'Oi', pushName: 'Bruna' });
      expect(await replies.settled({ userId: owner.user.id })).toEqual([
        expect.objectContaining({ outcome: 'sent' }),
      ]);
      const byLid = (await conversations(ctx, owner)).find((c) => c.contact_name === 'Bruna')!;

      // The contact writes from its number: a second conversation, whose reply is being made
      // (the provider holds it) when WhatsApp tells the number they are one contact.
      ctx.clock.advance(60_000);
      const gate = createGate();
      ai.setOptions({ chunks: ['Abrimos às 9h.'], hold: { afterChunks: 0, until: gate.opened } });
      const asked = ai.nextRequest();
      const since = replies.count;
      await driver.fromPhone(running, owner, phone, { pn, text: 'Que horas vocês abrem?' });
      await asked;
      const byNumber = (await conversations(ctx, owner)).find((c) => c.id !== byLid.id)!;
      const sinceEvent = running.events.length;
      await driver.mapping(running, owner, phone, { lid, pn });
      await nextEvent(running, owner.user.id, 'whatsapp:conversation_merged', sinceEvent);
      ai.setOptions({ chunks: ['Abrimos às 9h.'] });
      gate.open();

      // The merged-away conversation's reply finds it gone; the one that stays answers.
      expect(await replies.settled({ userId: owner.user.id, since, count: 2 })).toEqual([
        expect.objectContaining({ conversationId: byNumber.id, outcome: 'skipped' }),
        expect.objectContaining({ conversationId: byLid.id, outcome: 'sent' }),
      ]);
      const opened = await detail(ctx, owner, byLid.id);
      expect(opened.messages.map((m) => [m.sender, m.text])).toEqual([
        ['contact', 'Oi'],
        ['user', 'Olá, Bruna!'],
        ['contact', 'Que horas vocês abrem?'],
        ['user', 'Abrimos às 9h.'],
      ]);
      expect(replies.count).toBe(since + 2);
    });
  },
);

describe.runIf(process.env.TEST_DATABASE_URL)(
  'a contact’s message stored while its conversation is being merged (PostgreSQL)',
  () => {
    let running: Running;
    beforeAll(async () => {
      running = await startApp(sandbox.deps());
    });
    afterAll(async () => running.ctx.close());

    it('goes to the conversation that stays, not lost with the one merged away', async () => {
      const { ctx } = running;
      const owner = await registerAndLogin(ctx, { name: 'Ines' });
      const phone = await sandbox.link(running, owner);
      const settings = await post(
        ctx,
        '/api/whatsapp/settings',
        { whitelistMode: true },
        { token: owner.token },
      );
      expect(settings.statusCode).toBe(200);
      const pn = newPhone();
      const lid = fakeLidOf(pn);
      await sandbox.fromLid(running, owner, phone, { lid, text: 'pelo LID' });
      ctx.clock.advance(60_000);
      await sandbox.fromPhone(running, owner, phone, { pn, text: 'pelo número' });
      const listed = await conversations(ctx, owner);
      const byLid = listed.find((c) => c.contact_number === '')!;
      const byNumber = listed.find((c) => c.contact_number === pn)!;
      ctx.clock.advance(60_000);

      // The merge holds the conversation by number while the contact's next message, from the
      // number, is being stored in it; then deletes it.
      const { db } = ctx.database;
      let storing: Promise<{ statusCode: number }> | undefined;
      await db.transaction(async (tx) => {
        await tx.execute(
          sql`select id from whatsapp_conversations where id = ${byNumber.id} for update`,
        );
        storing = post(ctx, '/api/whatsapp/sandbox/inbound', {
          to: phone,
          from: `${pn}@s.whatsapp.net`,
          text: 'durante a fusão',
        });
        await eventually(async () => {
          // (The statement's text as the server shows it is cut short: its start names it.)
          const { rows } = await ctx.database.execute(
            `select 1 from pg_stat_activity where datname = current_database()
               and wait_event_type = 'Lock' and query like 'with "found" as (select * from "whatsapp_conversations"%'`,
          );
          return rows.length > 0;
        }, 'the message waiting for the conversation held by the merge');
        await learnLidMapping({
          db: tx as unknown as typeof db,
          userId: owner.user.id,
          lid: `${lid}@lid`,
          pn: `${pn}@s.whatsapp.net`,
          number: pn,
          now: ctx.clock.now(),
        });
      });
      expect((await storing!).statusCode).toBe(200);
      expect(await conversations(ctx, owner)).toEqual([
        expect.objectContaining({ id: byLid.id, unread_count: 3 }),
      ]);
      expect((await detail(ctx, owner, byLid.id)).messages.map((m) => m.text)).toEqual([
        'pelo LID',
        'pelo número',
        'durante a fusão',
      ]);
    });
  },
);
