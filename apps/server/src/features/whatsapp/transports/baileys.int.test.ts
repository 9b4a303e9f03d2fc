import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { EventEmitter, once } from 'node:events';
import { createServer, type Socket } from 'node:net';
import { Redis } from 'ioredis';
import { proto, type BinaryNode } from '@whiskeysockets/baileys';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  countKeys,
  deleteAuth,
  linkedAccountIds,
  readCreds,
  writeCreds,
} from '@/features/whatsapp/whatsapp-auth.repository';
import { createSharedState, type SharedState } from '@/lib/shared-state';
import {
  decryptMedia,
  startFakeWhatsApp,
  type FakeConnection,
  type FakeWhatsApp,
  type SentMedia,
  type SentText,
} from '../../../../test/fake-whatsapp';
import { photo } from '../../../../test/media';
import { within, withCleanup } from '../../../../test/eventually';
import { insertAccountRow } from '../../../../test/factories';
import { createTestDatabase } from '../../../../test/helpers';
import { whenLapsed } from '../../../../test/locks';
import { whatsappConversations, whatsappMessages } from '../whatsapp.table';
import { createBaileysTransport, sentMessageOf, type BaileysTransportOptions } from './baileys';
import { createBaileysTransportOnDemand } from './baileys-on-demand';
import { accountLease } from './baileys-owner';
import type { TransportEvent, WhatsAppTransport } from './transport';

// The Baileys transport against a local fake of WhatsApp's WebSocket server (test/fake-whatsapp.ts),
// on a real database. Timers are shortened through the transport's options; every wait is on an event.

const PHONE = '5511999990000';
const CONTACT = '5511988887777';

let database: Awaited<ReturnType<typeof createTestDatabase>>;
let fake: FakeWhatsApp;
const transports: WhatsAppTransport[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database.drop();
});
beforeEach(async () => {
  fake = await startFakeWhatsApp();
});
afterEach(async () => {
  await Promise.all(transports.splice(0).map((t) => t.close()));
  await fake.close();
});

const createAccount = () => insertAccountRow(database.db, 'wa');

/** Every event the transport reported, and a way to wait for the next one of an account. */
function recorder() {
  const events: { accountId: string; event: TransportEvent }[] = [];
  const emitter = new EventEmitter();
  const cursor = new Map<string, number>();
  return {
    events,
    onEvent: (accountId: string, event: TransportEvent) => {
      events.push({ accountId, event });
      emitter.emit('event');
    },
    of: (accountId: string) => events.filter((e) => e.accountId === accountId).map((e) => e.event),
    /**
     * The account's next event after the last one waited for; it must be of `type` (anything
     * else on the way fails the test, unless listed in `skip`).
     */
    next<T extends TransportEvent['type']>(
      accountId: string,
      type: T,
      { skip = [] }: { skip?: TransportEvent['type'][] } = {},
    ): Promise<Extract<TransportEvent, { type: T }>> {
      const found = async () => {
        for (;;) {
          const mine = events.filter((e) => e.accountId === accountId);
          let index = cursor.get(accountId) ?? 0;
          while (index < mine.length) {
            const event = mine[index]!.event;
            index += 1;
            cursor.set(accountId, index);
            if (event.type === type) return event as Extract<TransportEvent, { type: T }>;
            if (!skip.includes(event.type)) {
              throw new Error(`expected ${type}, got ${JSON.stringify(event)}`);
            }
          }
          await once(emitter, 'event');
        }
      };
      return within(found(), `the ${type} event of account ${accountId}`);
    },
  };
}

function makeTransport(
  onEvent: BaileysTransportOptions['onEvent'],
  options: Partial<BaileysTransportOptions> = {},
  create: (options: BaileysTransportOptions) => WhatsAppTransport = createBaileysTransport,
) {
  const transport = create({
    db: database.db,
    logger: pino({ level: 'silent' }),
    onEvent,
    wsUrl: fake.url,
    backoff: { baseMs: 20, maxMs: 100 },
    // The watchdog keeps its own default (60 s): shorter, a login slowed by a loaded machine would
    // be cut before it opened. The tests of the watchdog set their own.
    // WhatsApp Web's version page cannot be reached from a test: Baileys' bundled version is used.
    fetchVersion: () => Promise.resolve(undefined),
    ...options,
  });
  transports.push(transport);
  return transport;
}

/** A logger whose lines can be waited for: `seen(text)` resolves at the first line that has it. */
function logWatch(level: pino.Level = 'info') {
  const lines = new EventEmitter();
  lines.setMaxListeners(0);
  return {
    logger: pino({ level }, { write: (line: string) => void lines.emit('line', line) }),
    seen: (text: string, times = 1) => {
      let stop = () => {};
      const found = new Promise<void>((resolve) => {
        let count = 0;
        const onLine = (line: string) => {
          if (!line.includes(text) || (count += 1) < times) return;
          stop();
          resolve();
        };
        stop = () => void lines.off('line', onLine);
        lines.on('line', onLine);
      });
      return withCleanup(within(found, `${times} log lines with "${text}"`), () => stop());
    },
  };
}

/** The contact's conversation of `accountId`, as the service stores one. */
async function contactConversation(accountId: string, now: Date) {
  const [conversation] = await database.db
    .insert(whatsappConversations)
    .values({
      userId: accountId,
      contactJid: `${CONTACT}@s.whatsapp.net`,
      contactName: 'Ana',
      contactNumber: CONTACT,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  return conversation!;
}

/** Links `accountId` through a QR scan, as in the first test, and returns once it is ready. */
async function link(
  transport: WhatsAppTransport,
  events: ReturnType<typeof recorder>,
  accountId: string,
) {
  await transport.connect(accountId);
  await events.next(accountId, 'connecting');
  const { qr } = await events.next(accountId, 'qr');
  await fake.scan(qr, PHONE);
  await events.next(accountId, 'ready', { skip: ['connecting'] });
}

describe('Baileys transport', () => {
  it("shows a QR; after the scan and WhatsApp's 515 restart it logs in with the stored creds and is ready", async () => {
    const events = recorder();
    const transport = makeTransport(events.onEvent);
    const accountId = await createAccount();
    const logins: FakeConnection[] = [];
    fake.events.on('logged-in', (c: FakeConnection) => logins.push(c));

    await transport.connect(accountId);
    await events.next(accountId, 'connecting');
    const { qr } = await events.next(accountId, 'qr');
    expect(qr).toMatch(/^https:\/\/wa\.me\/settings\/linked_devices#ref-/);

    await fake.scan(qr, PHONE);
    await events.next(accountId, 'connecting');
    expect(await events.next(accountId, 'ready')).toEqual({ type: 'ready', phone: PHONE });

    // The second connection was a login of the credentials the pairing stored, not a new QR.
    expect(logins.map((c) => c.hello)).toEqual([{ kind: 'login', username: PHONE, device: 1 }]);
    const creds = JSON.parse((await readCreds({ db: database.db, accountId }))!) as {
      me?: { id: string };
    };
    expect(creds.me?.id).toBe(`${PHONE}:1@s.whatsapp.net`);
    expect(await linkedAccountIds({ db: database.db })).toContain(accountId);
    // WhatsApp had no pre-keys for the new device: Baileys made and stored them, in one write.
    expect(await countKeys({ db: database.db, accountId, type: 'pre-key' })).toBeGreaterThan(0);
  });

  it('resumes a linked account after a restart of the app, without a QR', async () => {
    const before = recorder();
    const first = makeTransport(before.onEvent);
    const accountId = await createAccount();
    await link(first, before, accountId);

    await first.close();
    expect(await before.next(accountId, 'closed')).toEqual({
      type: 'closed',
      reason: { kind: 'requested' },
    });

    const after = recorder();
    const second = makeTransport(after.onEvent);
    expect(await second.linkedAccounts()).toContain(accountId);
    const login = fake.next('connection');
    await second.connect(accountId);
    await after.next(accountId, 'connecting');
    expect(await after.next(accountId, 'ready')).toEqual({ type: 'ready', phone: PHONE });
    expect((await login).hello).toEqual({ kind: 'login', username: PHONE, device: 1 });
    expect(after.of(accountId).map((e) => e.type)).not.toContain('qr');
  });

  it('401 (unlinked on the phone) deletes the stored auth state and ends disconnected', async () => {
    const events = recorder();
    const transport = makeTransport(events.onEvent);
    const accountId = await createAccount();
    await link(transport, events, accountId);
    expect(await countKeys({ db: database.db, accountId })).toBeGreaterThan(0);

    await fake.streamErrorAll(401);
    expect(await events.next(accountId, 'closed')).toEqual({
      type: 'closed',
      reason: { kind: 'logged-out' },
    });
    expect(await readCreds({ db: database.db, accountId })).toBeUndefined();
    expect(await countKeys({ db: database.db, accountId })).toBe(0);
    expect(await transport.linkedAccounts()).not.toContain(accountId);
  });

  it('440 (replaced by another session) backs off, and stops once it repeats', async () => {
    const events = recorder();
    const transport = makeTransport(events.onEvent, { replaced: { limit: 3 } });
    const accountId = await createAccount();
    await link(transport, events, accountId);

    fake.loginAnswer = { kind: 'stream-error', code: 440 };
    await fake.streamErrorAll(440);
    expect(await events.next(accountId, 'reconnecting')).toMatchObject({ attempt: 1 });
    expect(await events.next(accountId, 'reconnecting', { skip: ['connecting'] })).toMatchObject({
      attempt: 2,
    });
    expect(await events.next(accountId, 'closed', { skip: ['connecting'] })).toEqual({
      type: 'closed',
      reason: { kind: 'replaced' },
    });
    // The auth state stays: the user can take the number back. No instance takes it over by itself,
    // nor resumes it at start.
    expect(await linkedAccountIds({ db: database.db })).toContain(accountId);
    expect(await linkedAccountIds({ db: database.db, resumable: true })).not.toContain(accountId);
    expect(await transport.linkedAccounts()).not.toContain(accountId);
  });

  /**
   * An account stopped for good keeps its auth state, but no instance takes it over by itself
   * (no sweep, no retry past the backoff) until the account asks to connect again.
   */
  async function stoppedUntilAskedAgain(
    transport: WhatsAppTransport,
    events: ReturnType<typeof recorder>,
    accountId: string,
  ) {
    expect(await linkedAccountIds({ db: database.db })).toContain(accountId);
    expect(await linkedAccountIds({ db: database.db, resumable: true })).not.toContain(accountId);
    // Not resumed at start either (a restart used to connect it again, and so lift the stop).
    expect(await transport.linkedAccounts()).not.toContain(accountId);
    fake.loginAnswer = { kind: 'success' };
    await transport.connect(accountId);
    await events.next(accountId, 'connecting');
    await events.next(accountId, 'ready');
    expect(await linkedAccountIds({ db: database.db, resumable: true })).toContain(accountId);
  }

  it('403 (banned) stops and says so', async () => {
    const events = recorder();
    const transport = makeTransport(events.onEvent);
    const accountId = await createAccount();
    await link(transport, events, accountId);

    fake.loginAnswer = { kind: 'failure', reason: 403 };
    await fake.streamErrorAll(515);
    await events.next(accountId, 'connecting');
    expect(await events.next(accountId, 'closed')).toEqual({
      type: 'closed',
      reason: { kind: 'banned' },
    });
    await stoppedUntilAskedAgain(transport, events, accountId);
  });

  it('unreachable after every attempt, a linked account stops for good until asked again', async () => {
    const events = recorder();
    const transport = makeTransport(events.onEvent, {
      backoff: { baseMs: 10, maxMs: 20, maxAttempts: 2 },
    });
    const accountId = await createAccount();
    await link(transport, events, accountId);

    fake.loginAnswer = { kind: 'failure', reason: 503 };
    await fake.streamErrorAll(515);
    for (let attempt = 1; attempt <= 2; attempt += 1) {
      await events.next(accountId, 'connecting');
      expect(await events.next(accountId, 'reconnecting')).toMatchObject({ attempt });
    }
    await events.next(accountId, 'connecting');
    expect(await events.next(accountId, 'closed')).toMatchObject({
      type: 'closed',
      reason: { kind: 'failed' },
    });
    await stoppedUntilAskedAgain(transport, events, accountId);
  });

  it('503 and other codes reconnect with backoff, then resume', async () => {
    const events = recorder();
    const transport = makeTransport(events.onEvent);
    const accountId = await createAccount();
    await link(transport, events, accountId);

    await fake.streamErrorAll(503);
    expect(await events.next(accountId, 'reconnecting')).toMatchObject({ attempt: 1 });
    await events.next(accountId, 'connecting');
    expect(await events.next(accountId, 'ready')).toEqual({ type: 'ready', phone: PHONE });
  });

  it('with nothing listening it retries with growing, jittered delays, then gives up', async () => {
    const port = await freePort();
    const events = recorder();
    const transport = makeTransport(events.onEvent, {
      wsUrl: `ws://127.0.0.1:${port}/ws/chat`,
      backoff: { baseMs: 10, maxMs: 40, maxAttempts: 4 },
    });
    const accountId = await createAccount();
    await transport.connect(accountId);

    const delays: number[] = [];
    for (let attempt = 1; attempt <= 4; attempt += 1) {
      await events.next(accountId, 'connecting');
      const event = await events.next(accountId, 'reconnecting');
      expect(event.attempt).toBe(attempt);
      delays.push(event.delayMs);
    }
    await events.next(accountId, 'connecting');
    expect(await events.next(accountId, 'closed')).toMatchObject({ reason: { kind: 'failed' } });
    // Each delay lies between half and all of 10·2^(n−1) ms, capped at 40.
    [10, 20, 40, 40].forEach((ceiling, i) => {
      expect(delays[i]).toBeGreaterThanOrEqual(ceiling / 2);
      expect(delays[i]).toBeLessThanOrEqual(ceiling);
    });
  });

  it('a server that takes the connection and never answers: the watchdog ends it and backs off', async () => {
    const silent = createServer();
    const accepted = new Set<Socket>();
    silent.on('connection', (socket) => accepted.add(socket));
    silent.listen(0, '127.0.0.1');
    await once(silent, 'listening');
    const { port } = silent.address() as { port: number };
    try {
      const events = recorder();
      const transport = makeTransport(events.onEvent, {
        wsUrl: `ws://127.0.0.1:${port}/ws/chat`,
        watchdogMs: 200,
      });
      const accountId = await createAccount();
      await transport.connect(accountId);
      await events.next(accountId, 'connecting');
      expect(await events.next(accountId, 'reconnecting')).toMatchObject({ attempt: 1 });
      await events.next(accountId, 'connecting');
      expect(await events.next(accountId, 'reconnecting')).toMatchObject({ attempt: 2 });
      expect(accepted.size).toBeGreaterThanOrEqual(1);
      await transport.close();
    } finally {
      for (const socket of accepted) socket.destroy();
      silent.close();
    }
  });

  it('an upgrade answered with HTTP 403 leaves Baileys connecting: the watchdog ends it and retries', async () => {
    fake.upgradeStatus = 403;
    const events = recorder();
    // Long enough for a QR on a busy machine, short enough for the test.
    const transport = makeTransport(events.onEvent, { watchdogMs: 1000 });
    const accountId = await createAccount();
    await transport.connect(accountId);

    await events.next(accountId, 'connecting');
    expect(await events.next(accountId, 'reconnecting')).toMatchObject({ attempt: 1 });
    expect(fake.attempts).toBe(1);

    fake.upgradeStatus = undefined;
    await events.next(accountId, 'connecting');
    // A machine slow enough to miss the watchdog once more only tries again.
    await events.next(accountId, 'qr', { skip: ['reconnecting', 'connecting'] });
  });

  it('refreshes the QR code up to the limit, then ends disconnected until asked again', async () => {
    const events = recorder();
    const transport = makeTransport(events.onEvent, { qrLimit: 3, qrTimeoutMs: 30 });
    const accountId = await createAccount();
    await transport.connect(accountId);

    await events.next(accountId, 'connecting');
    const qrs = [
      await events.next(accountId, 'qr'),
      await events.next(accountId, 'qr'),
      await events.next(accountId, 'qr'),
    ];
    expect(new Set(qrs.map((e) => e.qr)).size).toBe(3);
    expect(await events.next(accountId, 'closed')).toEqual({
      type: 'closed',
      reason: { kind: 'qr-limit' },
    });
    expect(await transport.linkedAccounts()).not.toContain(accountId);

    await transport.connect(accountId);
    await events.next(accountId, 'connecting');
    await events.next(accountId, 'qr');
  });

  it('reports a text message a contact sends, decrypted with the stored keys', async () => {
    const events = recorder();
    const transport = makeTransport(events.onEvent);
    const accountId = await createAccount();
    await link(transport, events, accountId);
    const preKeys = await countKeys({ db: database.db, accountId, type: 'pre-key' });

    const { id } = await fake.deliverText({
      to: PHONE,
      from: '5511988887777',
      text: 'Oi, tudo bem?',
      pushName: 'Ana',
    });
    const { message } = await events.next(accountId, 'message');
    expect(message).toMatchObject({
      id,
      remoteJid: '5511988887777@s.whatsapp.net',
      fromMe: false,
      pushName: 'Ana',
      text: 'Oi, tudo bem?',
    });
    // The one-time pre-key the contact used is gone; the session it started is stored.
    expect(await countKeys({ db: database.db, accountId, type: 'pre-key' })).toBe(preKeys - 1);
    expect(await countKeys({ db: database.db, accountId, type: 'session' })).toBeGreaterThan(0);
  });

  it('hands over what came while it was away on its next login: one offline-messages event, in order', async () => {
    const events = recorder();
    const transport = makeTransport(events.onEvent);
    const accountId = await createAccount();
    await link(transport, events, accountId);

    // The device is away: its socket ends, and WhatsApp refuses its logins for now.
    const [connection] = fake.connections;
    const gone = once(connection!, 'close');
    fake.loginAnswer = { kind: 'stream-error', code: 503 };
    await fake.streamErrorAll(503);
    await gone;
    const sentAt = new Date(Date.now() - 3 * 60_000);
    const ids: string[] = [];
    for (const text of ['Oi', 'Vocês abrem hoje?', 'Até que horas?'])
      ids.push((await fake.deliverText({ to: PHONE, from: CONTACT, text, sentAt })).id);
    const live = events.events.filter((e) => e.event.type === 'message');
    expect(live).toEqual([]);

    fake.loginAnswer = { kind: 'success' };
    const { messages } = await events.next(accountId, 'offline-messages', {
      skip: ['reconnecting', 'connecting', 'ready'],
    });
    expect(messages.map((m) => [m.id, m.text, m.remoteJid, m.fromMe])).toEqual([
      [ids[0], 'Oi', `${CONTACT}@s.whatsapp.net`, false],
      [ids[1], 'Vocês abrem hoje?', `${CONTACT}@s.whatsapp.net`, false],
      [ids[2], 'Até que horas?', `${CONTACT}@s.whatsapp.net`, false],
    ]);
    // When the contact sent them, not when they arrived.
    expect(messages[0]!.timestamp.getTime()).toBe(Math.floor(sentAt.getTime() / 1000) * 1000);
    // Nothing of it came as a live message.
    expect(events.of(accountId).filter((e) => e.type === 'message')).toEqual([]);
  });

  it("a contact's retry receipt after a restart gets the stored text again, under the same id", async () => {
    const events = recorder();
    const first = makeTransport(events.onEvent);
    const accountId = await createAccount();
    await link(first, events, accountId);
    const sent = fake.next<SentText>('sent');
    const { id } = await first.sendText(
      accountId,
      `${CONTACT}@s.whatsapp.net`,
      'Abrimos às 9h.',
      sendId(),
    );
    expect(await sent).toMatchObject({ id, text: 'Abrimos às 9h.' });
    // Stored as the service stores a reply it sent.
    const now = new Date();
    const conversation = await contactConversation(accountId, now);
    await database.db.insert(whatsappMessages).values({
      conversationId: conversation.id,
      waId: id,
      sender: 'user',
      text: 'Abrimos às 9h.',
      createdAt: now,
    });

    // The server restarts: nothing of what it sent is left in memory.
    await first.close();
    await events.next(accountId, 'closed');
    const second = makeTransport(events.onEvent);
    await second.connect(accountId);
    await events.next(accountId, 'ready', { skip: ['connecting'] });
    const [connection] = [...fake.connections].filter((c) => c.loggedIn && !c.closed);

    // The contact's phone could not decrypt it and asks for it again.
    const again = fake.next<SentText>('sent');
    const t = String(Math.floor(Date.now() / 1000));
    await connection!.send({
      tag: 'receipt',
      attrs: { from: `${CONTACT}@s.whatsapp.net`, id, type: 'retry', t },
      content: [{ tag: 'retry', attrs: { count: '1', id, t, v: '1' } }],
    });
    expect(await again).toEqual({ from: PHONE, to: CONTACT, id, text: 'Abrimos às 9h.' });
  });

  it("a contact's retry receipt after a restart gets the owner's photo again: the same upload, under the same id", async () => {
    const events = recorder();
    const first = makeTransport(events.onEvent, { mediaUploadAgent: fake.mediaUploadAgent });
    const accountId = await createAccount();
    await link(first, events, accountId);
    // Stored as the outbox stores the owner's photo before it is sent.
    const { id } = sendId();
    const now = new Date();
    const conversation = await contactConversation(accountId, now);
    const bytes = await photo();
    await database.db.insert(whatsappMessages).values({
      conversationId: conversation.id,
      waId: id,
      sender: 'user',
      text: 'Chegou seu pedido',
      media: { kind: 'image', mimetype: 'image/jpeg', size: bytes.length },
      createdAt: now,
    });
    const file = path.join(os.tmpdir(), `${randomUUID()}.jpg`);
    await fs.writeFile(file, bytes);
    const sent = fake.next<SentMedia>('sent-media');
    await first.sendMedia(
      accountId,
      `${CONTACT}@s.whatsapp.net`,
      {
        kind: 'image',
        path: file,
        mimetype: 'image/jpeg',
        size: bytes.length,
        caption: 'Chegou seu pedido',
      },
      { id },
    );
    const image = (await sent).message.imageMessage!;
    await fs.rm(file);

    // The server restarts: nothing of what it sent is left in memory (Baileys' cache of recent
    // messages included), and the file itself is not read again.
    await first.close();
    await events.next(accountId, 'closed');
    const second = makeTransport(events.onEvent, { mediaUploadAgent: fake.mediaUploadAgent });
    await second.connect(accountId);
    await events.next(accountId, 'ready', { skip: ['connecting'] });

    const again = fake.next<SentMedia>('sent-media');
    await fake.askAgain({ to: PHONE, from: CONTACT, id });
    const resent = await again;
    expect(resent.id).toBe(id);
    expect(resent.message.imageMessage).toMatchObject({
      url: image.url,
      caption: 'Chegou seu pedido',
      mimetype: 'image/jpeg',
    });
    const key = resent.message.imageMessage!.mediaKey!;
    expect(decryptMedia(fake.uploaded(image.url!)!, key, 'image').equals(bytes)).toBe(true);
  });

  it("getMessage answers a retry with the stored text or sent file message of the account's own message, and nothing for any other", async () => {
    // A photo as Baileys sent it: the upload's address and key, and its caption.
    const PHOTO_SENT: proto.IMessage = {
      imageMessage: {
        url: 'https://mmg.whatsapp.net/o1/v/t62/abc',
        directPath: '/o1/v/t62/abc',
        mediaKey: randomBytes(32),
        fileSha256: randomBytes(32),
        fileEncSha256: randomBytes(32),
        fileLength: 10,
        mimetype: 'image/jpeg',
        caption: 'Chegou',
      },
    };
    const accountId = await createAccount();
    const otherId = await createAccount();
    const now = new Date();
    const conversationOf = async (userId: string) =>
      (
        await database.db
          .insert(whatsappConversations)
          .values({
            userId,
            contactJid: `${CONTACT}@s.whatsapp.net`,
            contactName: 'Ana',
            contactNumber: CONTACT,
            createdAt: now,
            updatedAt: now,
          })
          .returning()
      )[0]!.id;
    const [mine, theirs] = [await conversationOf(accountId), await conversationOf(otherId)];
    await database.db.insert(whatsappMessages).values([
      {
        conversationId: mine,
        waId: 'SENT-1',
        sender: 'user',
        text: 'Abrimos às 9h.',
        createdAt: now,
      },
      { conversationId: mine, waId: 'GOT-1', sender: 'contact', text: 'Oi', createdAt: now },
      { conversationId: theirs, waId: 'SENT-2', sender: 'user', text: 'De outro.', createdAt: now },
      // The owner's photo, as it was sent; and one whose sent form is not kept (its file expired).
      {
        conversationId: mine,
        waId: 'PHOTO-1',
        sender: 'user',
        text: 'Chegou',
        media: { kind: 'image', mimetype: 'image/jpeg', size: 10 },
        sentContent: Buffer.from(proto.Message.encode(PHOTO_SENT).finish()).toString('base64'),
        createdAt: now,
      },
      {
        conversationId: mine,
        waId: 'PHOTO-2',
        sender: 'user',
        text: 'Legenda só',
        media: { kind: 'image', mimetype: 'image/jpeg', size: 10, unavailable: 'expired' },
        createdAt: now,
      },
    ]);
    const getMessage = sentMessageOf(database.db, accountId);
    expect(await getMessage({ id: 'SENT-1' })).toEqual({ conversation: 'Abrimos às 9h.' });
    expect(proto.Message.toObject((await getMessage({ id: 'PHOTO-1' })) as proto.Message)).toEqual(
      proto.Message.toObject(proto.Message.fromObject(PHOTO_SENT)),
    );
    // Never its caption alone, as if it were a text.
    expect(await getMessage({ id: 'PHOTO-2' })).toBeUndefined();
    // What the contact wrote, another account's message, an unknown id: nothing to send again.
    expect(await getMessage({ id: 'GOT-1' })).toBeUndefined();
    expect(await getMessage({ id: 'SENT-2' })).toBeUndefined();
    expect(await getMessage({ id: 'UNKNOWN' })).toBeUndefined();
    expect(await getMessage({})).toBeUndefined();
  });

  it("reports what the owner wrote from the phone (WhatsApp's copy for the linked device) as their own, in the contact's chat", async () => {
    const events = recorder();
    const transport = makeTransport(events.onEvent);
    const accountId = await createAccount();
    await link(transport, events, accountId);

    const { id } = await fake.deliverOwnCopy({
      phone: PHONE,
      to: CONTACT,
      text: 'Chego às 10h.',
      pushName: 'Dona',
    });
    const { message } = await events.next(accountId, 'message');
    expect(message).toMatchObject({
      id,
      remoteJid: `${CONTACT}@s.whatsapp.net`,
      fromMe: true,
      text: 'Chego às 10h.',
    });
    expect(message.protocol).toBeUndefined();
  });

  it('sends a text: the contact reads it, encrypted for its device with the keys WhatsApp handed out', async () => {
    const events = recorder();
    const transport = makeTransport(events.onEvent);
    const accountId = await createAccount();
    await link(transport, events, accountId);

    const sent = fake.next<SentText>('sent');
    const { id } = await transport.sendText(
      accountId,
      `${CONTACT}@s.whatsapp.net`,
      'Olá, Ana!',
      sendId(),
    );
    expect(await sent).toEqual({ from: PHONE, to: CONTACT, id, text: 'Olá, Ana!' });
    // The session made from those keys is stored.
    expect(await countKeys({ db: database.db, accountId, type: 'session' })).toBeGreaterThan(0);
  });

  it('logout unlinks the device, deletes the auth state and ends with closed: requested', async () => {
    const events = recorder();
    const transport = makeTransport(events.onEvent);
    const accountId = await createAccount();
    await link(transport, events, accountId);
    const [connection] = fake.connections;
    const removal = connection!.waitFor(
      (node) => node.tag === 'iq' && node.attrs.xmlns === 'md',
      'the request to remove the device',
    );

    await transport.logout(accountId);
    expect(await events.next(accountId, 'closed')).toEqual({
      type: 'closed',
      reason: { kind: 'requested' },
    });
    expect((await removal).content).toMatchObject([{ tag: 'remove-companion-device' }]);
    expect(await readCreds({ db: database.db, accountId })).toBeUndefined();
    expect(await countKeys({ db: database.db, accountId })).toBe(0);
  });

  it('connect is idempotent: one socket per account', async () => {
    const events = recorder();
    const transport = makeTransport(events.onEvent);
    const accountId = await createAccount();
    await Promise.all([transport.connect(accountId), transport.connect(accountId)]);
    await events.next(accountId, 'connecting');
    await events.next(accountId, 'qr');
    await transport.connect(accountId);
    expect(fake.attempts).toBe(1);
    expect(events.of(accountId).filter((e) => e.type === 'connecting')).toHaveLength(1);
  });
});

describe('Baileys transport on two instances', () => {
  // Redis when the run has one (as in production), else the in-process state both share.
  let redis: Redis | undefined;
  let shared: SharedState;
  beforeEach(async () => {
    redis = process.env.TEST_REDIS_URL ? new Redis(process.env.TEST_REDIS_URL) : undefined;
    shared = createSharedState({ redis, keyPrefix: `test-${randomBytes(6).toString('hex')}` });
    // A sweep takes over every linked account it finds: the earlier tests' are gone.
    for (const accountId of await linkedAccountIds({ db: database.db }))
      await deleteAuth({ db: database.db, accountId });
  });
  afterEach(async () => {
    await Promise.all(transports.splice(0).map((t) => t.close()));
    await shared.close();
    redis?.disconnect();
  });

  const JID = `${CONTACT}@s.whatsapp.net`;
  const instance = (
    events: ReturnType<typeof recorder>,
    options: Partial<BaileysTransportOptions> = {},
  ) => makeTransport(events.onEvent, { shared, ...options });
  /** An instance as app.ts makes it: Baileys loaded on demand, and the sweep for orphaned accounts. */
  const sweepingInstance = (
    events: ReturnType<typeof recorder>,
    options: Partial<BaileysTransportOptions> = {},
  ) =>
    makeTransport(
      events.onEvent,
      { shared, sweepIntervalMs: 50, ...options },
      createBaileysTransportOnDemand,
    );

  it('connects an account on one instance only; another takes it over once the owner lets go', async () => {
    const eventsA = recorder();
    const eventsB = recorder();
    const a = instance(eventsA);
    // B's log says when it stood back: the point to check that it made no socket.
    const logsB = logWatch();
    const b = instance(eventsB, { logger: logsB.logger });
    const accountId = await createAccount();
    await link(a, eventsA, accountId);

    const stoodBack = logsB.seen('owned by another instance');
    await b.connect(accountId);
    await stoodBack;
    expect(fake.connections.size).toBe(1);
    expect(fake.attempts).toBe(2);
    expect(eventsB.of(accountId)).toEqual([]);

    await a.close();
    await eventsA.next(accountId, 'closed');
    await b.connect(accountId);
    await eventsB.next(accountId, 'connecting');
    expect(await eventsB.next(accountId, 'ready')).toEqual({ type: 'ready', phone: PHONE });
  });

  it("logout on an instance that does not hold the account unlinks the device through the owner's socket", async () => {
    const eventsA = recorder();
    const eventsB = recorder();
    const a = instance(eventsA);
    const b = instance(eventsB);
    const accountId = await createAccount();
    await link(a, eventsA, accountId);
    const [connection] = fake.connections;
    const removal = connection!.waitFor(
      (node) => node.tag === 'iq' && node.attrs.xmlns === 'md',
      'the request to remove the device',
    );
    const socketClosed = once(connection!, 'close');

    await b.logout(accountId);
    expect((await removal).content).toMatchObject([{ tag: 'remove-companion-device' }]);
    await socketClosed;
    expect(await eventsA.next(accountId, 'closed')).toEqual({
      type: 'closed',
      reason: { kind: 'requested' },
    });
    // The owner reports it; B adds nothing.
    expect(eventsB.of(accountId)).toEqual([]);
    expect(await readCreds({ db: database.db, accountId })).toBeUndefined();
    expect(await countKeys({ db: database.db, accountId })).toBe(0);
  });

  it('a logout that found nobody holding the account, taken over just then, still unlinks it through the new owner', async () => {
    const eventsA = recorder();
    const eventsB = recorder();
    const a = instance(eventsA);
    const accountId = await createAccount();
    await link(a, eventsA, accountId);
    // B asks whether anyone holds the account just before A (a sweep, say) takes it: nobody.
    let asked = false;
    const askedEarly = new Proxy(shared, {
      get(target, property) {
        if (property === 'isLocked') {
          return async (name: string) => {
            if (!asked && name === accountLease(accountId)) {
              asked = true;
              return false;
            }
            return target.isLocked(name);
          };
        }
        const value: unknown = Reflect.get(target, property, target);
        return typeof value === 'function'
          ? (value as (...args: unknown[]) => unknown).bind(target)
          : value;
      },
    });
    const b = instance(eventsB, { shared: askedEarly });
    const [connection] = fake.connections;
    const removal = connection!.waitFor(
      (node) => node.tag === 'iq' && node.attrs.xmlns === 'md',
      'the request to remove the device',
    );

    await b.logout(accountId);
    expect(asked).toBe(true);
    expect((await removal).content).toMatchObject([{ tag: 'remove-companion-device' }]);
    expect(await eventsA.next(accountId, 'closed')).toEqual({
      type: 'closed',
      reason: { kind: 'requested' },
    });
    expect(eventsB.of(accountId)).toEqual([]);
    expect(await readCreds({ db: database.db, accountId })).toBeUndefined();
  });

  it("read receipts, typing and a text asked of another instance go out on the owner's socket", async () => {
    const eventsA = recorder();
    const a = instance(eventsA);
    const b = instance(recorder());
    const accountId = await createAccount();
    await link(a, eventsA, accountId);
    const [connection] = fake.connections;

    const receipt = connection!.waitFor((node) => node.tag === 'receipt', 'a read receipt');
    await b.markRead(accountId, JID, ['3EB0AAA', '3EB0BBB']);
    expect(await receipt).toMatchObject({
      attrs: { to: JID, id: '3EB0AAA', type: 'read' },
      content: [{ tag: 'list', content: [{ tag: 'item', attrs: { id: '3EB0BBB' } }] }],
    });

    const typing = connection!.waitFor((node) => node.tag === 'chatstate', 'a typing state');
    await b.sendPresence(accountId, JID, 'composing');
    expect(await typing).toMatchObject({ attrs: { to: JID }, content: [{ tag: 'composing' }] });

    const sent = fake.next<SentText>('sent');
    const { id } = await b.sendText(accountId, JID, 'Enviado pela instância B', sendId());
    expect(await sent).toEqual({ from: PHONE, to: CONTACT, id, text: 'Enviado pela instância B' });

    // The owner's error comes back as it is.
    const error = await a.sendText(accountId, 'not a jid', 'x', sendId()).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error).toBeInstanceOf(Error);
    await expect(b.sendText(accountId, 'not a jid', 'x', sendId())).rejects.toThrow(error!.message);
    // One socket did all of it.
    expect(fake.connections.size).toBe(1);
    expect(fake.attempts).toBe(2);
  });

  it('an instance that holds no account passes commands to the owner without loading Baileys', async () => {
    const eventsA = recorder();
    const a = instance(eventsA);
    const accountId = await createAccount();
    await link(a, eventsA, accountId);
    const lines: string[] = [];
    const b = makeTransport(
      recorder().onEvent,
      {
        shared,
        logger: pino({ level: 'debug' }, { write: (line: string) => void lines.push(line) }),
      },
      createBaileysTransportOnDemand,
    );
    const [connection] = fake.connections;

    const sent = fake.next<SentText>('sent');
    const { id } = await b.sendText(accountId, JID, 'Pela instância B', sendId());
    expect(await sent).toEqual({ from: PHONE, to: CONTACT, id, text: 'Pela instância B' });
    const typing = connection!.waitFor((node) => node.tag === 'chatstate', 'a typing state');
    await b.sendPresence(accountId, JID, 'paused');
    expect(await typing).toMatchObject({ attrs: { to: JID }, content: [{ tag: 'paused' }] });
    const receipt = connection!.waitFor((node) => node.tag === 'receipt', 'a read receipt');
    await b.markRead(accountId, JID, ['3EB0CCC']);
    expect(await receipt).toMatchObject({ attrs: { to: JID, id: '3EB0CCC', type: 'read' } });
    // The owner's error comes back as it is.
    await expect(b.sendText(accountId, 'not a jid', 'x', sendId())).rejects.toThrow(/./);
    expect(lines.filter((line) => line.includes('Baileys loaded'))).toEqual([]);

    // For an account nobody holds, Baileys' transport answers as before (and is loaded for it).
    await expect(b.sendText(await createAccount(), JID, 'x', sendId())).rejects.toThrow(
      'WhatsApp is not connected',
    );
    expect(lines.filter((line) => line.includes('Baileys loaded'))).toHaveLength(1);
  });

  it('a command for an account nobody holds fails at once; one whose holder does not answer, after the wait', async () => {
    const accountId = await createAccount();
    // Were it to wait for an answer, the test would time out.
    const patient = instance(recorder(), { commandTimeoutMs: { answerMs: 60_000 } });
    await expect(patient.markRead(accountId, JID, ['3EB0AAA'])).rejects.toThrow(/not connected/);
    await expect(patient.sendText(accountId, JID, 'Oi', sendId())).rejects.toThrow(/not connected/);

    // An owner that died with its lease not yet lapsed holds the account and answers nothing.
    const dead = await shared.tryLock(accountLease(accountId));
    const eventsB = recorder();
    const b = instance(eventsB, { commandTimeoutMs: { answerMs: 200 } });
    const asked = Date.now();
    await expect(b.sendText(accountId, JID, 'Oi', sendId())).rejects.toThrow(/not connected/);
    await expect(b.sendPresence(accountId, JID, 'paused')).rejects.toThrow(/not connected/);
    expect(Date.now() - asked).toBeGreaterThanOrEqual(2 * 190);

    // A logout nobody answers still forgets the stored link.
    await writeCreds({
      db: database.db,
      accountId,
      creds: '{}',
      meId: `${PHONE}:1@s.whatsapp.net`,
    });
    await b.logout(accountId);
    expect(await eventsB.next(accountId, 'closed')).toEqual({
      type: 'closed',
      reason: { kind: 'requested' },
    });
    expect(await readCreds({ db: database.db, accountId })).toBeUndefined();
    await dead!.release();
  });

  it('commands that are not well formed are ignored', async () => {
    const eventsA = recorder();
    const logsA = logWatch('warn');
    const a = instance(eventsA, { logger: logsA.logger });
    const accountId = await createAccount();
    await link(a, eventsA, accountId);
    const [connection] = fake.connections;
    // What a command would make the socket send: a text, a receipt, typing, an unlink.
    const commanded: BinaryNode[] = [];
    connection!.on('node', (node: BinaryNode) => {
      if (['message', 'receipt', 'chatstate'].includes(node.tag) || node.attrs.xmlns === 'md')
        commanded.push(node);
    });

    const ignored = logsA.seen('whatsapp command ignored: malformed', 3);
    await shared.ready();
    await shared.publish('whatsapp:commands', 'not json');
    await shared.publish(
      'whatsapp:commands',
      JSON.stringify({ id: 'x', accountId, command: { op: 'logout' } }),
    );
    await shared.publish(
      'whatsapp:commands',
      JSON.stringify({
        id: randomUUID(),
        from: randomUUID(),
        accountId,
        command: { op: 'sendText', jid: JID },
      }),
    );
    await ignored;
    expect(commanded).toEqual([]);
    expect(connection!.closed).toBe(false);
    expect(eventsA.of(accountId).at(-1)).toEqual({ type: 'ready', phone: PHONE });
  });

  it("when the owner dies, its lease lapses and another instance's sweep takes the account over, without a QR", async () => {
    const eventsA = recorder();
    const accountId = await createAccount();
    // A's keep-alive never runs: its lease lapses 500 ms after A last took it. A waits long before
    // it would reconnect.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const a = instance(eventsA, { leaseTtlMs: 500, backoff: { baseMs: 60_000 } });
      await link(a, eventsA, accountId);
    } finally {
      vi.useRealTimers();
    }
    // A is gone: so is its socket.
    const [connection] = fake.connections;
    connection!.terminate();
    await eventsA.next(accountId, 'reconnecting');

    const eventsB = recorder();
    sweepingInstance(eventsB);
    const login = fake.next('connection');
    await eventsB.next(accountId, 'connecting');
    expect(await eventsB.next(accountId, 'ready')).toEqual({ type: 'ready', phone: PHONE });
    expect((await login).hello).toEqual({ kind: 'login', username: PHONE, device: 1 });
    expect(eventsB.of(accountId).map((e) => e.type)).toEqual(['connecting', 'ready']);
  });

  it("when the owner shuts down, another instance's sweep takes the account over at once", async () => {
    const eventsA = recorder();
    const a = instance(eventsA);
    const accountId = await createAccount();
    await link(a, eventsA, accountId);
    await a.close();
    await eventsA.next(accountId, 'closed');

    const eventsB = recorder();
    sweepingInstance(eventsB);
    await eventsB.next(accountId, 'connecting');
    expect(await eventsB.next(accountId, 'ready')).toEqual({ type: 'ready', phone: PHONE });
  });

  it('the sweep leaves alone an account that was banned, and one that was logged out', async () => {
    const eventsA = recorder();
    const a = instance(eventsA);
    const [loggedOut, banned] = [await createAccount(), await createAccount()];
    await link(a, eventsA, loggedOut);
    await a.logout(loggedOut);
    await eventsA.next(loggedOut, 'closed');
    await link(a, eventsA, banned);
    fake.loginAnswer = { kind: 'failure', reason: 403 };
    await fake.streamErrorAll(515);
    await eventsA.next(banned, 'connecting');
    expect(await eventsA.next(banned, 'closed')).toEqual({
      type: 'closed',
      reason: { kind: 'banned' },
    });
    const attempts = fake.attempts;

    const eventsB = recorder();
    const logsB = logWatch('debug');
    // Two whole sweeps after B starts.
    const swept = logsB.seen('whatsapp sweep for orphaned accounts done', 2);
    sweepingInstance(eventsB, { logger: logsB.logger });
    await swept;
    expect(eventsB.events).toEqual([]);
    expect(fake.attempts).toBe(attempts);
  });

  it('an owner whose lease another instance took ends its socket at once, keeps the auth state and says nothing', async () => {
    const eventsA = recorder();
    const logsA = logWatch();
    // Renewed every 100 ms.
    const a = instance(eventsA, { leaseTtlMs: 300, logger: logsA.logger });
    const accountId = await createAccount();
    await link(a, eventsA, accountId);
    const [connection] = fake.connections;
    const socketClosed = once(connection!, 'close');
    const noticed = logsA.seen('lease taken by another instance');
    const ended = logsA.seen('whatsapp connection closed');

    // A paused past its lease's TTL, and another instance took the lease meanwhile.
    const other = await whenLapsed(shared, accountLease(accountId), () =>
      shared.tryLock(accountLease(accountId)),
    );
    expect(other).toBeDefined();
    await noticed;
    await socketClosed;
    await ended;
    expect(eventsA.of(accountId).at(-1)).toEqual({ type: 'ready', phone: PHONE });
    expect(fake.connections.size).toBe(0);
    expect(await linkedAccountIds({ db: database.db, resumable: true })).toContain(accountId);

    // Asked to connect again, A stands back while the other holds the account.
    const stoodBack = logsA.seen('owned by another instance');
    await a.connect(accountId);
    await stoodBack;
    expect(fake.connections.size).toBe(0);
    await other!.release();
  });
});

async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** A message id of ours, as the outbox gives each send. */
function sendId() {
  return { id: `3EB0${randomBytes(16).toString('hex').toUpperCase()}` };
}
describe('Baileys transport: linking by pairing code', () => {
  let redis: Redis | undefined;
  let shared: SharedState;
  beforeEach(async () => {
    redis = process.env.TEST_REDIS_URL ? new Redis(process.env.TEST_REDIS_URL) : undefined;
    shared = createSharedState({ redis, keyPrefix: `test-${randomBytes(6).toString('hex')}` });
  });
  afterEach(async () => {
    await Promise.all(transports.splice(0).map((t) => t.close()));
    await shared.close();
    redis?.disconnect();
  });

  it('asks for the code on the socket that shows a QR; the phone typing it links the number', async () => {
    const events = recorder();
    const transport = makeTransport(events.onEvent);
    const accountId = await createAccount();
    const asked = fake.next('pairing-code-asked');
    await transport.requestPairingCode(accountId, PHONE);
    await events.next(accountId, 'connecting');
    await events.next(accountId, 'qr');
    const { code } = await events.next(accountId, 'pairing-code', { skip: ['qr'] });
    expect(code).toMatch(/^[0-9A-Z]{8}$/);
    expect((await asked).linkCode?.phone).toBe(PHONE);
    // Asked again for the same number, the code in force stays: the phone is not notified again.
    await transport.requestPairingCode(accountId, PHONE);
    expect(events.of(accountId).filter((e) => e.type === 'pairing-code')).toEqual([
      { type: 'pairing-code', code },
    ]);

    await fake.enterPairingCode(code, PHONE);
    expect(await events.next(accountId, 'ready', { skip: ['qr', 'connecting'] })).toEqual({
      type: 'ready',
      phone: PHONE,
    });
    expect(await linkedAccountIds({ db: database.db, accountId })).toEqual([accountId]);
  });

  it('an attempt that ends before the phone typed the code leaves no link behind', async () => {
    const events = recorder();
    const transport = makeTransport(events.onEvent);
    const accountId = await createAccount();
    await transport.requestPairingCode(accountId, PHONE);
    await events.next(accountId, 'pairing-code', { skip: ['connecting', 'qr'] });
    await transport.close();
    await events.next(accountId, 'closed', { skip: ['qr'] });
    // Asking wrote the number into the credentials: resumed, it would log in and be refused.
    expect(await linkedAccountIds({ db: database.db, accountId })).toEqual([]);
  });

  it('asked through an instance that does not hold the account, the owner asks on its socket and reports the code', async () => {
    const eventsA = recorder();
    const eventsB = recorder();
    const a = makeTransport(eventsA.onEvent, { shared });
    const b = makeTransport(eventsB.onEvent, { shared });
    const accountId = await createAccount();
    await a.connect(accountId);
    await eventsA.next(accountId, 'connecting');
    await eventsA.next(accountId, 'qr');

    const asked = fake.next('pairing-code-asked');
    await b.requestPairingCode(accountId, PHONE);
    const { code } = await eventsA.next(accountId, 'pairing-code', { skip: ['qr'] });
    // Asked on A's socket, the only one: B made none.
    expect(await asked).toBe([...fake.connections][0]);
    expect(fake.connections.size).toBe(1);
    await fake.enterPairingCode(code, PHONE);
    await eventsA.next(accountId, 'ready', { skip: ['qr', 'connecting'] });
    expect(eventsB.of(accountId)).toEqual([]);
  });
});
