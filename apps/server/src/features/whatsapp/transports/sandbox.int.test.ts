import { randomBytes } from 'node:crypto';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../../../../test/helpers';
import { insertAccountRow } from '../../../../test/factories';
import { systemClock } from '@/lib/clock';
import { createSharedState, type SharedState } from '@/lib/shared-state';
import { createSandboxTransport, type SandboxTransport } from './sandbox';
import type { TransportEvent } from './transport';

// The sandbox writes what the linked numbers send (typing, replies, read receipts) in group
// commits: the writes that come while one is under way go together in the next statement. One
// account's write that the database refuses must not take the others' with it.

describe('the sandbox phones', () => {
  let database: Awaited<ReturnType<typeof createTestDatabase>>;
  let state: SharedState;
  let sandbox: SandboxTransport;
  const events: { accountId: string; event: TransportEvent }[] = [];
  let ana: string;
  let bruno: string;
  const anaPhone = '5511911110001';
  const brunoPhone = '5511911110002';
  const contact = '5511988887777@s.whatsapp.net';

  /** Links the account as its phone would: connect, read the QR's pairing code, pair. */
  async function link(accountId: string, phone: string) {
    await sandbox.connect(accountId);
    const qr = events.findLast((e) => e.accountId === accountId && e.event.type === 'qr')?.event;
    if (qr?.type !== 'qr') throw new Error('no QR shown');
    await sandbox.pair({ token: new URL(qr.qr).searchParams.get('pair')!, phone });
  }

  const sentTexts = async (phone: string) =>
    (await sandbox.phoneEvents({ phone })).events.flatMap((event) =>
      event.type === 'message' ? [event.text] : [],
    );

  beforeAll(async () => {
    database = await createTestDatabase();
    state = createSharedState({ keyPrefix: `test-${randomBytes(6).toString('hex')}` });
    sandbox = createSandboxTransport({
      db: database.db,
      clock: systemClock,
      state,
      publicUrl: 'https://contrateia.test',
      onEvent: (accountId, event) => void events.push({ accountId, event }),
      logger: pino({ level: 'silent' }),
    });
    ana = await insertAccountRow(database.db, 'ana');
    bruno = await insertAccountRow(database.db, 'bruno');
    await link(ana, anaPhone);
    await link(bruno, brunoPhone);
  });
  afterAll(async () => {
    await sandbox?.close();
    await state?.close();
    await database?.drop();
  });

  it("records one account's reply when another's, written in the same statement, is refused", async () => {
    // Ana's "typing" goes out at once; what comes meanwhile waits for it and goes out together.
    const typing = sandbox.sendPresence(ana, contact, 'composing');
    // Half an emoji: jsonb cannot hold it (22P02). Its refusal is awaited from the start: it may
    // come before the typing's statement ends.
    const bad = expect(
      sandbox.sendText(bruno, contact, `Olá ${'\ud83d'}`, sendId()),
    ).rejects.toThrow();
    const reply = sandbox.sendText(ana, contact, 'Bom dia! Abrimos às 8h.', sendId());
    const answer = sandbox.sendText(bruno, contact, 'Até logo', sendId());
    await typing;
    await bad;
    expect(await reply).toEqual({ id: expect.stringMatching(/^3EB0/) });
    expect(await answer).toEqual({ id: expect.stringMatching(/^3EB0/) });
    expect(await sentTexts(anaPhone)).toEqual(['Bom dia! Abrimos às 8h.']);
    // Bruno's own next reply is not lost with the one refused.
    expect(await sentTexts(brunoPhone)).toEqual(['Até logo']);
  });

  it('keeps the order of what one number sent, with another number’s refused send among them', async () => {
    const typing = sandbox.sendPresence(bruno, contact, 'composing');
    const writes = Promise.allSettled([
      sandbox.sendText(ana, contact, 'um', sendId()),
      sandbox.sendText(bruno, contact, `\ude00`, sendId()),
      sandbox.sendText(ana, contact, 'dois', sendId()),
      sandbox.sendText(ana, contact, 'três', sendId()),
    ]);
    await typing;
    const results = await writes;
    expect(results.map((r) => r.status)).toEqual([
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
    ]);
    expect((await sentTexts(anaPhone)).slice(-3)).toEqual(['um', 'dois', 'três']);
  });

  it('writes going out together keep their order; sends fail in order while the number’s fail-sends last; one delivered already is not sent again', async () => {
    const doneBy = async (phone: string) =>
      (await sandbox.phoneEvents({ phone })).events.map((event) =>
        event.type === 'message'
          ? [event.text, event.failed ?? null]
          : event.type === 'presence'
            ? [event.state]
            : [event.type],
      );
    const delivered = sendId();
    await sandbox.sendText(bruno, contact, 'antes', delivered);
    await sandbox.failSends({ phone: brunoPhone, count: 2, code: '463' });
    const before = (await doneBy(brunoPhone)).length;
    // Ana's send goes at once; Bruno's, made meanwhile, wait for it and go in one statement.
    const first = sandbox.sendText(ana, contact, 'primeiro', sendId());
    const results = await Promise.allSettled([
      sandbox.sendText(bruno, contact, 'a', sendId()),
      sandbox.sendPresence(bruno, contact, 'composing'),
      sandbox.sendText(bruno, contact, 'antes', delivered),
      sandbox.sendText(bruno, contact, 'b', sendId()),
      sandbox.sendText(bruno, contact, 'c', sendId()),
    ]);
    await first;
    expect(results.map((r) => r.status)).toEqual([
      'rejected',
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
    ]);
    expect((await doneBy(brunoPhone)).slice(before)).toEqual([
      ['a', '463'],
      ['composing'],
      ['b', '463'],
      ['c', null],
    ]);
    // Its two failures are used up: the next send goes.
    await sandbox.sendText(bruno, contact, 'd', sendId());
    expect((await doneBy(brunoPhone)).at(-1)).toEqual(['d', null]);
  });

  it('shows the messages a send answers read after it, and none after a send WhatsApp refused', async () => {
    const what = async () =>
      (await sandbox.phoneEvents({ phone: anaPhone })).events
        .slice(-2)
        .map((event) =>
          event.type === 'message'
            ? ['message', event.text, event.failed ?? null]
            : event.type === 'read'
              ? ['read', event.ids]
              : [event.type],
        );
    await sandbox.sendText(ana, contact, 'Abrimos às 8h.', {
      ...sendId(),
      read: ['3EB0A', '3EB0B'],
    });
    expect(await what()).toEqual([
      ['message', 'Abrimos às 8h.', null],
      ['read', ['3EB0A', '3EB0B']],
    ]);
    await sandbox.failSends({ phone: anaPhone, count: 1, code: '463' });
    const refused = sendId();
    await expect(
      sandbox.sendText(ana, contact, 'Até amanhã.', { ...refused, read: ['3EB0C'] }),
    ).rejects.toThrow(/error 463/);
    expect((await what()).at(-1)).toEqual(['message', 'Até amanhã.', '463']);
    // Tried again, it goes: then the contact's message shows read.
    await sandbox.sendText(ana, contact, 'Até amanhã.', { ...refused, read: ['3EB0C'] });
    expect(await what()).toEqual([
      ['message', 'Até amanhã.', null],
      ['read', ['3EB0C']],
    ]);
  });
});

/** A message id of ours, as the outbox gives each send. */
function sendId() {
  return { id: `3EB0${randomBytes(16).toString('hex').toUpperCase()}` };
}
