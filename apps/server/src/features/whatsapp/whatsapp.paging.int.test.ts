import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { WhatsAppConversation, WhatsAppConversationDetail } from '@contrateia/shared';
import { createTestApp, type TestContext, NO_MONITOR } from '../../../test/helpers';
import { get, message, post, registerAndLogin, UNLIMITED_ROUTES } from '../../../test/factories';
import { linkSandbox } from '../../../test/whatsapp';
import { insertConversation, insertMessage } from './whatsapp.repository';

// One stranger's conversation could grow to megabytes, and many strangers made a list as large. Lists and conversations are read a page at a time; list entries carry a
// short preview; a blocked contact's flood beyond a day's allowance is counted, not stored.
// Point 9: the owner's own sends are limited per user.

type Account = Awaited<ReturnType<typeof registerAndLogin>>;
type Page<T> = { success: true; data: T; nextCursor: string | null };

let digits = 0;
const newNumber = () =>
  `55119${String(Date.now() % 1e5).padStart(5, '0')}${String((digits += 1)).padStart(3, '0')}`;

/** A conversation of `count` messages written straight to the database (`m1`…), one a second. */
async function conversationWith(
  ctx: TestContext,
  account: Account,
  count: number,
  text = (n: number) => `m${n}`,
) {
  const number = newNumber();
  const start = Date.now() - count * 1000;
  const conversation = await insertConversation({
    db: ctx.database.db,
    values: {
      userId: account.user.id,
      contactJid: `${number}@s.whatsapp.net`,
      contactAltJid: null,
      contactName: `Contato ${number.slice(-3)}`,
      contactNumber: number,
      createdAt: new Date(start),
      updatedAt: new Date(start),
    },
  });
  for (let n = 1; n <= count; n += 1) {
    await insertMessage({
      db: ctx.database.db,
      values: {
        conversationId: conversation.id,
        waId: `W${n}`,
        sender: n % 2 ? 'contact' : 'user',
        text: text(n),
        agentName: null,
        error: null,
        createdAt: new Date(start + n * 1000),
      },
      unread: false,
    });
  }
  return conversation.id;
}

describe('WhatsApp lists read a page at a time', () => {
  let ctx: TestContext;
  let ana: Account;
  let long: string;
  beforeAll(async () => {
    ctx = await createTestApp({
      without: NO_MONITOR,
      limits: { routes: UNLIMITED_ROUTES },
      whatsapp: { transport: 'sandbox' },
    });
    ana = await registerAndLogin(ctx, { name: 'Ana' });
    long = await conversationWith(ctx, ana, 250);
  });
  afterAll(async () => ctx.close());

  const open = (id: string, query = '') =>
    get(ctx, `/api/whatsapp/conversations/${id}${query}`, { token: ana.token });

  it('opens a conversation of 250 messages with its newest 50, oldest first, and a cursor to the older ones', async () => {
    const res = await open(long);
    expect(res.statusCode).toBe(200);
    const page = res.json<Page<WhatsAppConversationDetail>>();
    expect(page.success).toBe(true);
    expect(page.data.messages.map((m) => m.text)).toEqual(
      Array.from({ length: 50 }, (_, i) => `m${201 + i}`),
    );
    expect(page.nextCursor).toEqual(expect.any(String));
    // The conversation's own fields are all there beside its messages.
    expect(page.data).toMatchObject({ id: long, last_message: { text: 'm250' }, status: 'active' });
  });

  it('walking the cursor yields every message exactly once, in order; at most 200 a page', async () => {
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res = await open(
        long,
        `?limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`,
      );
      expect(res.statusCode).toBe(200);
      const page: Page<WhatsAppConversationDetail> = res.json();
      expect(page.data.messages.length).toBeLessThanOrEqual(200);
      seen.unshift(...page.data.messages.map((m) => m.text));
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor);
    expect(pages).toBe(2);
    expect(seen).toEqual(Array.from({ length: 250 }, (_, i) => `m${i + 1}`));
  });

  it('a message arriving while the user pages back neither repeats nor hides one', async () => {
    const id = await conversationWith(ctx, ana, 30);
    const first = (await open(id, '?limit=10')).json<Page<WhatsAppConversationDetail>>();
    await insertMessage({
      db: ctx.database.db,
      values: {
        conversationId: id,
        waId: 'NEW',
        sender: 'contact',
        text: 'nova',
        agentName: null,
        error: null,
        createdAt: new Date(),
      },
      unread: true,
    });
    const second = (
      await open(id, `?limit=10&cursor=${encodeURIComponent(first.nextCursor!)}`)
    ).json<Page<WhatsAppConversationDetail>>();
    expect(second.data.messages.map((m) => m.text)).toEqual(
      Array.from({ length: 10 }, (_, i) => `m${11 + i}`),
    );
  });

  it('refuses a limit over 200, a limit under 1 and a cursor it did not make, with 400 in the caller’s language', async () => {
    for (const query of [
      '?limit=500',
      '?limit=0',
      '?limit=abc',
      '?cursor=bogus',
      '?cursor=eyJ4IjoxfQ',
    ]) {
      for (const url of [
        `/api/whatsapp/conversations/${long}${query}`,
        `/api/whatsapp/conversations${query}`,
      ]) {
        const res = await get(ctx, url, { token: ana.token, language: 'es-ES' });
        expect(res.statusCode, url).toBe(400);
        expect(res.json().message).toBe(message('es-ES', 'errors.validation'));
      }
    }
  });

  it('lists 50 conversations by default, newest first, and the cursor walks the rest once each', async () => {
    const bia = await registerAndLogin(ctx, { name: 'Bia' });
    const made: string[] = [];
    for (let n = 0; n < 70; n += 1)
      made.push(await conversationWith(ctx, bia, 1, () => 'x'.repeat(5000)));
    const first = (await get(ctx, '/api/whatsapp/conversations', { token: bia.token })).json<
      Page<WhatsAppConversation[]>
    >();
    expect(first.data).toHaveLength(50);
    expect(first.nextCursor).toEqual(expect.any(String));
    // Each entry's preview is at most 200 characters, not the 5,000 of the message.
    for (const entry of first.data)
      expect(entry.last_message!.text.length).toBeLessThanOrEqual(200);
    expect(first.data[0]!.last_message!.text.startsWith('xxxx')).toBe(true);
    const ids = first.data.map((c) => c.id);
    let cursor = first.nextCursor;
    while (cursor) {
      const page = (
        await get(ctx, `/api/whatsapp/conversations?limit=7&cursor=${encodeURIComponent(cursor)}`, {
          token: bia.token,
        })
      ).json<Page<WhatsAppConversation[]>>();
      ids.push(...page.data.map((c) => c.id));
      cursor = page.nextCursor;
    }
    expect(ids).toHaveLength(70);
    expect(new Set(ids)).toEqual(new Set(made));
    expect(ids).toEqual([...made].reverse());
  });
});

describe('the limits of a flood', () => {
  let ctx: TestContext;
  let gil: Account;
  let phone: string;
  beforeAll(async () => {
    ctx = await createTestApp({
      without: NO_MONITOR,
      limits: {
        routes: UNLIMITED_ROUTES,
        whatsappContact: { points: 2, durationSeconds: 60, blockSeconds: 600 },
        whatsappSendPerMinute: 3,
      },
      whatsapp: { transport: 'sandbox' },
    });
    gil = await registerAndLogin(ctx, { name: 'Gil' });
    phone = newNumber();
    await linkSandbox(ctx, gil, phone);
  });
  afterAll(async () => ctx.close());

  it('a blocked contact’s messages beyond 100 a day are counted, not stored', async () => {
    const from = `${newNumber()}@s.whatsapp.net`;
    // Two are allowed a minute; the third blocks the contact.
    for (let n = 1; n <= 3; n += 1)
      expect(
        (await post(ctx, '/api/whatsapp/sandbox/inbound', { to: phone, from, text: `a${n}` }))
          .statusCode,
      ).toBe(200);
    const [entry] = (await get(ctx, '/api/whatsapp/conversations', { token: gil.token })).json<
      Page<WhatsAppConversation[]>
    >().data;
    expect(entry!.status).toBe('blocked');
    for (let n = 1; n <= 101; n += 1)
      expect(
        (await post(ctx, '/api/whatsapp/sandbox/inbound', { to: phone, from, text: `b${n}` }))
          .statusCode,
      ).toBe(200);
    const detail = (
      await get(ctx, `/api/whatsapp/conversations/${entry!.id}?limit=200`, { token: gil.token })
    ).json<Page<WhatsAppConversationDetail>>();
    const texts = detail.data.messages.filter((m) => m.text.startsWith('b')).map((m) => m.text);
    expect(texts).toEqual(Array.from({ length: 100 }, (_, i) => `b${i + 1}`));
    // The owner sees how many were left out.
    expect(detail.data.dropped_count).toBe(1);
    const listed = (await get(ctx, '/api/whatsapp/conversations', { token: gil.token })).json<
      Page<WhatsAppConversation[]>
    >().data;
    expect(listed.find((c) => c.id === entry!.id)!.dropped_count).toBe(1);
  });

  it('the owner’s own sends are limited per user: 429 with the wait', async () => {
    const from = `${newNumber()}@s.whatsapp.net`;
    await post(ctx, '/api/whatsapp/sandbox/inbound', { to: phone, from, text: 'oi' });
    const list = (await get(ctx, '/api/whatsapp/conversations', { token: gil.token })).json<
      Page<WhatsAppConversation[]>
    >().data;
    const id = list.find((c) => c.contact_number === from.split('@')[0])!.id;
    for (let n = 1; n <= 3; n += 1)
      expect(
        (
          await post(
            ctx,
            `/api/whatsapp/conversations/${id}/messages`,
            { text: `r${n}` },
            { token: gil.token },
          )
        ).statusCode,
      ).toBe(200);
    const refused = await post(
      ctx,
      `/api/whatsapp/conversations/${id}/messages`,
      { text: 'r4' },
      { token: gil.token, language: 'pt-BR' },
    );
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused.json().message).toBe(
      message('pt-BR', 'errors.tooManyRequests', { count: Number(refused.headers['retry-after']) }),
    );
    const detail = (await get(ctx, `/api/whatsapp/conversations/${id}`, { token: gil.token })).json<
      Page<WhatsAppConversationDetail>
    >();
    expect(detail.data.messages.map((m) => m.text)).not.toContain('r4');
  });
});
