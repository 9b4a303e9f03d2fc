import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import type { WhatsAppConversationDetail } from '@contrateia/shared';
import { NO_MONITOR } from '../../../test/helpers';
import { get, post, registerAndLogin, UNLIMITED_ROUTES } from '../../../test/factories';
import { fakeLidOf } from '../../../test/fake-whatsapp';
import { eventually } from '../../../test/eventually';
import { createGate, startFakeOpenAI, type FakeOpenAI } from '../../../test/fake-openai';
import { repliesOf } from '../../../test/replies';
import { learnLidMapping } from './whatsapp.repository';
import { conversations, conversationDetail as detail } from '../../../test/whatsapp';
import {
  nextEvent,
  startRunning,
  transportDrivers,
  type Running,
  type TransportDriver,
} from '../../../test/whatsapp-drivers';

// WhatsApp names many contacts by a LID (`<digits>@lid`) instead of their phone number, and
// tells which LID is which number. A contact is one conversation whichever address its messages
// come from, and two conversations found to be one contact later become one. The same cases run
// on both transports: the sandbox (its inbound and lid-mapping endpoints) and Baileys against the
// fake WhatsApp server (a message from a LID sender, the linked-profiles notification).

type Account = Awaited<ReturnType<typeof registerAndLogin>>;

const { sandbox, drivers, newPhone } = transportDrivers({
  secret: 'sandbox-secret-of-the-lid-tests',
  phonePrefix: '55116',
});

/** An app of the test on the driver's transport, with `deps` of its own. */
function startApp(driver: TransportDriver, deps: Parameters<typeof startRunning>[0] = {}) {
  return startRunning({
    without: NO_MONITOR,
    limits: { routes: UNLIMITED_ROUTES },
    whatsapp: driver.whatsapp(),
    ...deps,
  });
}

describe.each(drivers)('one contact, one conversation ($name)', (driver) => {
  let running: Running;
  let owner: Account;
  let phone: string;
  beforeAll(async () => {
    running = await startApp(driver);
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
    await driver.lidWrites(running, phone, { lid, text: 'Oi, vocês abrem amanhã?' });
    minute();
    await driver.contactWrites(running, phone, pn, 'E no domingo?');
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
    await driver.lidWrites(running, phone, { lid, text: 'A1', pushName: 'Bruna' });
    minute();
    await driver.contactWrites(running, phone, pn, 'B1');
    minute();
    await driver.lidWrites(running, phone, { lid, text: 'A2', pushName: 'Bruna' });
    minute();
    await driver.contactWrites(running, phone, pn, 'B2');
    minute();
    await driver.contactWrites(running, phone, pn, 'B3');

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
    await driver.contactWrites(running, phone, pn, 'B4');
    minute();
    await driver.lidWrites(running, phone, { lid, text: 'A3' });
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
    running = await startApp(sandbox);
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
    await sandbox.lidWrites(running, phone, { lid, text: 'primeira' });
    running.ctx.clock.advance(60_000);
    await sandbox.contactWrites(running, phone, pn, 'segunda');
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

describe.each(drivers)(
  'a contact’s message whose reply is in the making when its conversation is merged ($name)',
  (driver) => {
    let ai: FakeOpenAI;
    let running: Running;
    beforeAll(async () => {
      ai = await startFakeOpenAI();
      running = await startApp(driver, {
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
      await driver.lidWrites(running, phone, { lid, text: 'Oi', pushName: 'Bruna' });
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
      await driver.contactWrites(running, phone, pn, 'Que horas vocês abrem?');
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
      running = await startApp(sandbox);
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
      await sandbox.lidWrites(running, phone, { lid, text: 'pelo LID' });
      ctx.clock.advance(60_000);
      await sandbox.contactWrites(running, phone, pn, 'pelo número');
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

describe.each(drivers)('a contact’s allowance across a merge ($name)', (driver) => {
  it('what it wrote from both addresses counts as one contact’s: one over the allowance, it is blocked', async () => {
    const running = await startApp(driver, {
      limits: {
        routes: UNLIMITED_ROUTES,
        whatsappContact: { points: 3, durationSeconds: 60, blockSeconds: 600 },
      },
    });
    try {
      const owner = await registerAndLogin(running.ctx, { name: 'Vera' });
      const phone = await driver.link(running, owner);
      // Whitelist mode: nothing is answered, so that only the count is at work.
      const settings = await post(
        running.ctx,
        '/api/whatsapp/settings',
        { whitelistMode: true },
        { token: owner.token },
      );
      expect(settings.statusCode).toBe(200);
      const pn = newPhone();
      const lid = fakeLidOf(pn);
      // Two from each address, before WhatsApp tells they are one: within the allowance of each.
      await driver.lidWrites(running, phone, { lid, text: 'A1' });
      await driver.lidWrites(running, phone, { lid, text: 'A2' });
      await driver.contactWrites(running, phone, pn, 'B1');
      await driver.contactWrites(running, phone, pn, 'B2');
      const before = await conversations(running.ctx, owner);
      expect(before.map((c) => c.status)).toEqual(['pending', 'pending']);

      const since = running.events.length;
      await driver.mapping(running, owner, phone, { lid, pn });
      await nextEvent(running, owner.user.id, 'whatsapp:conversation_merged', since);
      // The fifth message of the minute from one contact: over its three.
      await driver.contactWrites(running, phone, pn, 'B3');
      const [only, ...others] = await conversations(running.ctx, owner);
      expect(others).toEqual([]);
      expect(only).toMatchObject({ status: 'blocked', blocked_reason: 'flood' });
    } finally {
      await running.ctx.close();
    }
  });
});
