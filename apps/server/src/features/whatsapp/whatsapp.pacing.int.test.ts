import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../../test/eventually';
import { startFakeOpenAI, type FakeOpenAI } from '../../../test/fake-openai';
import { post, registerAndLogin, UNLIMITED_ROUTES } from '../../../test/factories';
import { createTwoInstances, TEST_WHATSAPP_PACING, type TestContext } from '../../../test/helpers';
import { repliesOf } from '../../../test/replies';
import { conversationDetail, conversations, sandboxPhoneEvents } from '../../../test/whatsapp';
import {
  startRunning,
  transportDrivers,
  watchedHub,
  type Running,
  type TransportDriver,
} from '../../../test/whatsapp-drivers';
import type { Pacing } from './whatsapp.deps';
import { REPLY_QUEUE_NAME } from './whatsapp.reply';
import { SEND_QUEUE_NAME } from './whatsapp.outbox';

// Bursts and pacing, on both transports: a contact's burst answered
// once after its last message; typing shown, the reply waited for, sent, then the contact's
// messages read; a long reply in three messages; the number's sends per minute shared, the one
// over them waiting its turn. Small values keep the tests short.

/** A burst waits this long after its last message; typing waits its floor (a second). */
const PACED: Pacing = { debounceMs: 1500, typingMsPerChar: 1, sendsPerMinute: 1000 };

const { drivers, sandbox, newPhone, bySecret } = transportDrivers({
  secret: 'sandbox-secret-of-the-pacing-tests',
  phonePrefix: '55319',
});

let ai: FakeOpenAI;

function start(driver: TransportDriver, pacing: Partial<Pacing>) {
  return startRunning({
    ai: { provider: 'openai', baseUrl: ai.url, model: 'fake-model', timeoutMs: 20_000 },
    limits: { routes: UNLIMITED_ROUTES },
    whatsapp: driver.whatsapp({ pacing }),
  });
}

/** The texts of the messages the provider was asked to answer (the last user turn of each request). */
function questions(since: number): string[] {
  return ai.requests.slice(since).map((request) => {
    const { messages } = request.body as { messages: { role: string; content: string }[] };
    return messages.filter((m) => m.role === 'user').at(-1)?.content ?? '';
  });
}

/** The jobs of `queue` not finished yet (waiting, due later, or running), on the app's database. */
async function unfinished(ctx: TestContext, queue: string): Promise<number> {
  const { rows } = await ctx.app.platform.database.execute(
    `SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1 AND state < 'completed'`,
    [queue],
  );
  return Number(rows[0]?.n);
}

beforeAll(async () => {
  ai = await startFakeOpenAI();
});
afterAll(async () => ai?.close());

describe.each(drivers)('bursts and pacing ($name)', (driver) => {
  let running: Running;
  beforeAll(async () => {
    running = await start(driver, PACED);
  }, 60_000);
  afterAll(async () => running?.ctx.close());

  it('a burst of five messages within the wait is answered once, as one question, after the last', async () => {
    const { ctx } = running;
    const owner = await registerAndLogin(ctx, { name: 'Bia' });
    const phone = await driver.link(running, owner);
    const contact = newPhone();
    ai.setOptions({ chunks: ['Claro! Anotei tudo.'] });
    const asked = ai.requests.length;
    const burst = ['Oi', 'Quero um bolo', 'de chocolate', 'para sábado', 'entregam no centro?'];
    for (const text of burst) await driver.contactWrites(running, phone, contact, text);

    await eventually(
      async () => (await driver.seen(running, phone, contact)).some((s) => s.kind === 'message'),
      'the reply sent',
      15_000,
    );
    await eventually(
      async () =>
        (await unfinished(ctx, REPLY_QUEUE_NAME)) === 0 &&
        (await unfinished(ctx, SEND_QUEUE_NAME)) === 0,
      'every reply and send done',
      15_000,
    );
    // One question to the provider, holding the five messages in order.
    const [question, ...more] = questions(asked);
    expect(more).toEqual([]);
    expect(question!.split('\n')).toEqual(burst);
    const [conversation] = await conversations(ctx, owner);
    const detail = await conversationDetail(ctx, owner, conversation!.id);
    expect(detail.messages.map((m) => [m.sender, m.text])).toEqual([
      ...burst.map((text) => ['contact', text]),
      ['user', 'Claro! Anotei tudo.'],
    ]);
    expect(
      (await driver.seen(running, phone, contact)).filter((s) => s.kind === 'message'),
    ).toEqual([{ kind: 'message', text: 'Claro! Anotei tudo.' }]);
  }, 90_000);

  it('typing is shown, the reply waits for it, is sent, then the contact’s messages are read; a long reply goes in three messages, in order', async () => {
    const { ctx } = running;
    const owner = await registerAndLogin(ctx, { name: 'Caio' });
    const phone = await driver.link(running, owner);
    const contact = newPhone();
    const paragraphs = [1, 2, 3, 4, 5].map(
      (n) => `Parágrafo ${n}: ${'uma explicação com bastante detalhe '.repeat(5).trim()}.`,
    );
    ai.setOptions({ chunks: [paragraphs.join('\n\n')] });
    const startedAt = Date.now();
    await driver.contactWrites(running, phone, contact, 'Como funciona a entrega?');

    await eventually(
      async () =>
        (await driver.seen(running, phone, contact)).filter((s) => s.kind === 'message').length ===
        3,
      'the three parts sent',
      20_000,
    );
    const elapsed = Date.now() - startedAt;
    const parts = [paragraphs[0]!, paragraphs[1]!, paragraphs.slice(2).join('\n\n')];
    await eventually(
      async () => (await driver.seen(running, phone, contact)).some((s) => s.kind === 'read'),
      'the contact’s message read',
    );
    // Typing (said again before each part), each part after it, and the read after the first.
    const seen = (await driver.seen(running, phone, contact)).filter((s, n, all) => {
      const before = all[n - 1];
      return !(s.kind === 'presence' && before?.kind === 'presence' && before.state === s.state);
    });
    expect(seen).toEqual([
      { kind: 'presence', state: 'composing' },
      { kind: 'message', text: parts[0] },
      { kind: 'read', ids: [expect.any(String)] },
      { kind: 'presence', state: 'composing' },
      { kind: 'message', text: parts[1] },
      { kind: 'presence', state: 'composing' },
      { kind: 'message', text: parts[2] },
    ]);
    // Each part waited its typing (a second at least, at 1 ms a character).
    expect(elapsed).toBeGreaterThanOrEqual(3 * 1000);
    // Stored as three messages of the agent's, in order (the owner opening it reads it too).
    const [conversation] = await conversations(ctx, owner);
    const detail = await conversationDetail(ctx, owner, conversation!.id);
    expect(detail.messages.map((m) => [m.sender, m.text])).toEqual([
      ['contact', 'Como funciona a entrega?'],
      ...parts.map((text) => ['user', text]),
    ]);
  }, 90_000);
});

describe.each(drivers)('the number’s sends per minute ($name)', (driver) => {
  it('over the rate, a send waits its turn (never dropped), then all arrive once, in order', async () => {
    const running = await start(driver, { ...TEST_WHATSAPP_PACING, sendsPerMinute: 2 });
    const { ctx } = running;
    try {
      const owner = await registerAndLogin(ctx, { name: 'Duda' });
      const phone = await driver.link(running, owner);
      const contact = newPhone();
      ai.setOptions({ chunks: ['Olá! Como posso ajudar?'] });
      await driver.contactWrites(running, phone, contact, 'Oi');
      const sentTexts = async () =>
        (await driver.seen(running, phone, contact)).flatMap((s) =>
          s.kind === 'message' ? [s.text] : [],
        );
      await eventually(async () => (await sentTexts()).length === 1, 'the reply sent', 15_000);
      const [conversation] = await conversations(ctx, owner);
      // The agent's reply was the first send of the minute; the owner sends two more.
      for (const text of ['Primeira do dono', 'Segunda do dono']) {
        const res = await post(
          ctx,
          `/api/whatsapp/conversations/${conversation!.id}/messages`,
          { text },
          { token: owner.token },
        );
        expect(res.statusCode).toBe(200);
      }
      await eventually(
        async () => (await sentTexts()).length === 2,
        'two sends within the rate',
        15_000,
      );
      // The third waits for the minute to pass: pending, its job due later, not sent.
      await eventually(async () => {
        const { rows } = await ctx.app.platform.database.execute(
          `SELECT count(*)::int AS n FROM pgboss.job WHERE name = $1 AND state = 'created'
             AND start_after > now() + interval '20 seconds'`,
          [SEND_QUEUE_NAME],
        );
        return Number(rows[0]?.n) === 1;
      }, 'the third send waiting its turn');
      expect(await sentTexts()).toEqual(['Olá! Como posso ajudar?', 'Primeira do dono']);
      const third = (await conversationDetail(ctx, owner, conversation!.id)).messages.at(-1)!;
      expect([third.text, third.status]).toEqual(['Segunda do dono', 'pending']);

      // The minute passes: the count starts again, and the waiting send is due.
      await ctx.app.platform.state
        .counter({ name: 'whatsapp-number-send', points: 2, durationSeconds: 60 })
        .delete(owner.user.id);
      await ctx.app.platform.database.execute(
        `UPDATE pgboss.job SET start_after = now() WHERE name = $1 AND state = 'created'`,
        [SEND_QUEUE_NAME],
      );
      await eventually(async () => (await sentTexts()).length === 3, 'the third sent', 15_000);
      expect(await sentTexts()).toEqual([
        'Olá! Como posso ajudar?',
        'Primeira do dono',
        'Segunda do dono',
      ]);
      await eventually(
        async () => (await unfinished(ctx, SEND_QUEUE_NAME)) === 0,
        'every send done',
      );
      expect(await sentTexts()).toHaveLength(3);
    } finally {
      await ctx.close();
    }
  }, 90_000);
});

describe('a burst split across two instances', () => {
  let instances: Awaited<ReturnType<typeof createTwoInstances>>;
  const hubs = { a: watchedHub(), b: watchedHub() };
  beforeAll(async () => {
    instances = await createTwoInstances(
      {
        ai: { provider: 'openai', baseUrl: ai.url, model: 'fake-model', timeoutMs: 20_000 },
        limits: { routes: UNLIMITED_ROUTES },
      },
      (instance) => ({ events: hubs[instance].hub, whatsapp: sandbox.whatsapp({ pacing: PACED }) }),
    );
  }, 90_000);
  afterAll(async () => instances?.close(), 30_000);

  it('is answered once, as one question', async () => {
    const { a, b } = instances;
    const onA: Running = { ctx: a, ...hubs.a, replies: repliesOf(a) };
    const onB: Running = { ctx: b, ...hubs.b, replies: repliesOf(b) };
    const owner = await registerAndLogin(a, { name: 'Edu' });
    const phone = await sandbox.link(onA, owner);
    const contact = newPhone();
    ai.setOptions({ chunks: ['Tudo certo, anotado.'] });
    const asked = ai.requests.length;
    const burst = ['Boa tarde', 'queria saber', 'o preço', 'do plano anual'];
    for (const [n, text] of burst.entries())
      await sandbox.contactWrites(n % 2 === 0 ? onA : onB, phone, contact, text);
    await eventually(
      async () => (await sandboxPhoneEvents(a, phone, bySecret)).some((e) => e.type === 'message'),
      'the reply sent',
      15_000,
    );
    await eventually(
      async () =>
        (await unfinished(a, REPLY_QUEUE_NAME)) === 0 &&
        (await unfinished(a, SEND_QUEUE_NAME)) === 0,
      'every reply and send done',
      15_000,
    );
    const [question, ...more] = questions(asked);
    expect(more).toEqual([]);
    expect(question!.split('\n')).toEqual(burst);
    expect(
      (await sandboxPhoneEvents(b, phone, bySecret)).flatMap((e) =>
        e.type === 'message' ? [e.text] : [],
      ),
    ).toEqual(['Tudo certo, anotado.']);
  }, 90_000);
});

describe('a long reply stored whole or not at all', () => {
  it('when its last part cannot be stored, no part is: the try comes back and the contact gets all three, once, in order', async () => {
    const running = await start(sandbox, TEST_WHATSAPP_PACING);
    const { ctx } = running;
    const database = ctx.app.platform.database;
    try {
      // The third part's insert fails once (a sequence counts across the rollback), as a write
      // cut short by a crash or a lost connection would leave the reply.
      await database.execute(`CREATE SEQUENCE third_part_tries`);
      await database.execute(`CREATE FUNCTION refuse_third_part_once() RETURNS trigger
        LANGUAGE plpgsql AS $$ BEGIN
          IF NEW.text LIKE 'Parte 3:%' AND nextval('third_part_tries') = 1 THEN
            RAISE EXCEPTION 'the third part cannot be stored now';
          END IF;
          RETURN NEW;
        END $$`);
      await database.execute(`CREATE TRIGGER refuse_third_part_once BEFORE INSERT
        ON whatsapp_messages FOR EACH ROW EXECUTE FUNCTION refuse_third_part_once()`);
      const owner = await registerAndLogin(ctx, { name: 'Elis' });
      const phone = await sandbox.link(running, owner);
      const contact = newPhone();
      const parts = [1, 2, 3].map(
        (n) => `Parte ${n}: ${'uma explicação com bastante detalhe '.repeat(8).trim()}.`,
      );
      ai.setOptions({ chunks: [parts.join('\n\n')] });
      await sandbox.contactWrites(running, phone, contact, 'Como funciona a entrega?');

      await eventually(
        async () => {
          // The reply job's next try is due now (its backoff passes at once).
          await database.execute(
            `UPDATE pgboss.job SET start_after = now() WHERE name = $1 AND state = 'retry'`,
            [REPLY_QUEUE_NAME],
          );
          return (
            (await unfinished(ctx, REPLY_QUEUE_NAME)) === 0 &&
            (await unfinished(ctx, SEND_QUEUE_NAME)) === 0 &&
            (await sandbox.seen(running, phone, contact)).some((s) => s.kind === 'message')
          );
        },
        'the reply made again and sent',
        30_000,
      );
      const { rows } = await database.execute(`SELECT last_value FROM third_part_tries`);
      expect(Number(rows[0]?.last_value)).toBe(2);
      expect(
        (await sandbox.seen(running, phone, contact)).filter((s) => s.kind === 'message'),
      ).toEqual(parts.map((text) => ({ kind: 'message', text })));
      const [conversation] = await conversations(ctx, owner);
      const detail = await conversationDetail(ctx, owner, conversation!.id);
      expect(detail.messages.map((m) => [m.sender, m.text, m.status])).toEqual([
        ['contact', 'Como funciona a entrega?', undefined],
        ...parts.map((text) => ['user', text, 'sent']),
      ]);
    } finally {
      await ctx.close();
    }
  }, 90_000);
});
