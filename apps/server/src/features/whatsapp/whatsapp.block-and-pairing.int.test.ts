import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Language, ServerEventName, WhatsAppStatus } from '@contrateia/shared';
import { until } from '../../../test/eventually';
import { createTestApp, type TestContext } from '../../../test/helpers';
import { get, message, post, registerAndLogin, UNLIMITED_ROUTES } from '../../../test/factories';
import { createGate, startFakeOpenAI, type FakeOpenAI } from '../../../test/fake-openai';
import { startFakeWhatsApp, type FakeWhatsApp } from '../../../test/fake-whatsapp';
import { conversations, conversationDetail as detail } from '../../../test/whatsapp';
import {
  nextEvent,
  startRunning,
  transportDrivers,
  type Running,
} from '../../../test/whatsapp-drivers';
import { createEventHub, type HubEvent } from '@/lib/event-hub';

type Account = Awaited<ReturnType<typeof registerAndLogin>>;

const SANDBOX_SECRET = 'sandbox-secret-of-the-block-tests';
const bySecret = { 'x-sandbox-secret': SANDBOX_SECRET };
const { drivers, newPhone } = transportDrivers({ secret: SANDBOX_SECRET, phonePrefix: '55419' });
const LANGUAGES: Language[] = ['pt-BR', 'en-US', 'es-ES'];

/** Every event for the accounts' browsers, and a wait for the next of them. */
function observe() {
  const hub = createEventHub();
  const events: HubEvent[] = [];
  hub.subscribe((event) => events.push(event));
  return {
    hub,
    events,
    next(userId: string, name: ServerEventName, since = events.length): Promise<HubEvent> {
      return until(() => events.slice(since).find((e) => e.userId === userId && e.name === name), {
        changes: (onChange) => hub.subscribe(onChange),
        what: `the event ${name} for ${userId}`,
      });
    },
  };
}

async function status(ctx: TestContext, account: Account): Promise<WhatsAppStatus> {
  const res = await get(ctx, '/api/whatsapp/status', { token: account.token });
  expect(res.statusCode).toBe(200);
  return res.json<{ data: WhatsAppStatus }>().data;
}

describe.each(drivers)('blocking a contact ($name)', (driver) => {
  let running: Running;
  let ctx: TestContext;
  let ai: FakeOpenAI;
  let ana: Account;
  let bruno: Account;
  let phone: string;
  beforeAll(async () => {
    ai = await startFakeOpenAI({ chunks: ['Resposta.'] });
    running = await startRunning({
      limits: {
        routes: UNLIMITED_ROUTES,
        whatsappContact: { points: 3, durationSeconds: 60, blockSeconds: 600 },
      },
      whatsapp: driver.whatsapp(),
      ai: { provider: 'openai', baseUrl: ai.url, model: 'test-model', timeoutMs: 5000 },
    });
    ctx = running.ctx;
    ana = await registerAndLogin(ctx, { name: 'Ana' });
    bruno = await registerAndLogin(ctx, { name: 'Bruno' });
    phone = await driver.link(running, ana);
  });
  afterAll(async () => {
    await ctx.close();
    await ai.close();
  });

  /**
   * A contact's (digits) message, once stored, and what came of its auto-reply: the reply job of
   * its own conversation, whatever other reply the account is asked meanwhile.
   */
  async function write(from: string, text: string) {
    const since = running.replies.count;
    const eventsSince = running.events.length;
    await driver.contactWrites(running, phone, from, text);
    const [conversationId] = running.events
      .slice(eventsSince)
      .flatMap((e) =>
        e.name === 'whatsapp:new_message' &&
        e.payload.message.text === text &&
        e.payload.conversation.contact_number === from
          ? [e.payload.conversation.id]
          : [],
      );
    expect(conversationId, `"${text}" shown to the owner`).toBeDefined();
    return (await running.replies.settled({ userId: ana.user.id, conversationId, since }))[0]!
      .outcome;
  }
  const next = (name: ServerEventName, since: number) =>
    nextEvent(running, ana.user.id, name, since);

  const block = (account: Account, id: string, blocked: unknown, language?: Language) =>
    post(
      ctx,
      `/api/whatsapp/conversations/${id}/block`,
      { blocked },
      { token: account.token, language },
    );

  it('a blocked contact is stored and shown, never answered; unblocked, only what comes after is answered', async () => {
    const number = '5541988880001';
    expect(await write(number, 'oi')).toBe('sent');
    const [carla] = await conversations(ctx, ana);
    expect(carla).toMatchObject({ status: 'active', blocked_reason: null, blocked_until: null });

    const since = running.events.length;
    const blocked = await block(ana, carla!.id, true);
    expect(blocked.statusCode).toBe(200);
    expect(blocked.json().data).toMatchObject({
      id: carla!.id,
      status: 'blocked',
      blocked_reason: 'owner',
      blocked_until: null,
    });
    expect((await next('whatsapp:conversation_changed', since)).payload).toEqual({
      conversationId: carla!.id,
    });

    const shown = running.events.length;
    expect(await write(number, 'ainda aí?')).toBe('skipped');
    expect((await next('whatsapp:new_message', shown)).payload).toMatchObject({
      conversation: { id: carla!.id, status: 'blocked', blocked_reason: 'owner' },
      message: { text: 'ainda aí?', sender: 'contact' },
    });
    expect((await detail(ctx, ana, carla!.id)).messages.map((m) => m.text)).toEqual([
      'oi',
      'Resposta.',
      'ainda aí?',
    ]);
    expect(await driver.sentTo(running, phone, number)).toEqual(['Resposta.']);

    // Unblocked a moment later: active again, what came while blocked stays unanswered, the next
    // (a moment after) is answered alone.
    ctx.clock.advance(1000);
    const unblocked = await block(ana, carla!.id, false);
    expect(unblocked.json().data).toMatchObject({ status: 'active', blocked_reason: null });
    ctx.clock.advance(1000);
    const asked = ai.nextRequest();
    expect(await write(number, 'e agora?')).toBe('sent');
    const { messages } = (await asked).body as { messages: { role: string; content: string }[] };
    // What came while blocked is history, not part of the question.
    expect(messages.at(-1)).toEqual({ role: 'user', content: 'e agora?' });
    expect(await driver.sentTo(running, phone, number)).toEqual(['Resposta.', 'Resposta.']);
  });

  it('unblocking follows the whitelist: pending when whitelist mode is on and the contact is not on it', async () => {
    const number = '5541988880002';
    await write(number, 'olá');
    const dora = (await conversations(ctx, ana)).find((c) => c.contact_number === '5541988880002')!;
    expect((await block(ana, dora.id, true)).statusCode).toBe(200);
    const on = await post(
      ctx,
      '/api/whatsapp/settings',
      { whitelistMode: true },
      { token: ana.token },
    );
    expect(on.statusCode).toBe(200);
    try {
      expect((await block(ana, dora.id, false)).json().data.status).toBe('pending');
      const listed = await post(
        ctx,
        `/api/whatsapp/conversations/${dora.id}/whitelist`,
        { isWhitelisted: true },
        { token: ana.token },
      );
      expect(listed.json().data.status).toBe('active');
    } finally {
      await post(ctx, '/api/whatsapp/settings', { whitelistMode: false }, { token: ana.token });
    }
  });

  /** The last turn the provider is asked to answer for the next message `text` of `number`. */
  async function questionOf(number: string, text: string) {
    const asked = ai.nextRequest();
    expect(await write(number, text)).toBe('sent');
    const { messages } = (await asked).body as { messages: { role: string; content: string }[] };
    return messages.at(-1);
  }

  it('a reply in the making for a contact blocked meanwhile is never sent, nor asked again once unblocked', async () => {
    const number = '5541988880003';
    expect(await write(number, 'primeira')).toBe('sent');
    const eva = (await conversations(ctx, ana)).find((c) => c.contact_number === '5541988880003')!;
    const gate = createGate();
    ai.setOptions({ chunks: ['Resposta tardia.'], hold: { afterChunks: 0, until: gate.opened } });
    try {
      const since = running.replies.count;
      const asked = ai.nextRequest();
      await driver.contactWrites(running, phone, number, 'segunda');
      // The provider is writing the reply (held) when the owner blocks the contact.
      await asked;
      expect((await block(ana, eva.id, true)).statusCode).toBe(200);
      gate.open();
      expect((await running.replies.settled({ userId: ana.user.id, since }))[0]!.outcome).toBe(
        'skipped',
      );
    } finally {
      ai.setOptions({ chunks: ['Resposta.'] });
    }
    expect(await driver.sentTo(running, phone, number)).not.toContain('Resposta tardia.');
    expect((await detail(ctx, ana, eva.id)).messages.map((m) => m.text)).toEqual([
      'primeira',
      'Resposta.',
      'segunda',
    ]);
    // Unblocked at once (the contact's next message in the same second, as WhatsApp stamps it):
    // the message the block cut short is history, not part of the next question.
    expect((await block(ana, eva.id, false)).statusCode).toBe(200);
    expect(await questionOf(number, 'terceira')).toEqual({ role: 'user', content: 'terceira' });
  });

  it('a contact that writes too fast says why it is blocked and until when; the owner may lift it', async () => {
    const number = '5541988880004';
    for (const text of ['1', '2', '3']) expect(await write(number, text)).toBe('sent');
    expect(await write(number, '4')).toBe('skipped');
    const fabio = (await conversations(ctx, ana)).find(
      (c) => c.contact_number === '5541988880004',
    )!;
    expect(fabio).toMatchObject({ status: 'blocked', blocked_reason: 'flood' });
    // Ten minutes (the limit's block) from the message one too many.
    expect(fabio.blocked_until).toBe(new Date(ctx.clock.now().getTime() + 600_000).toISOString());

    expect((await block(ana, fabio.id, false)).json().data).toMatchObject({
      status: 'active',
      blocked_reason: null,
      blocked_until: null,
    });
    // Lifted in the same second as the contact's next message: answered, and alone (the message
    // one too many is not asked again).
    expect(await questionOf(number, '5')).toEqual({ role: 'user', content: '5' });
  });

  it('another account’s conversation is a 404, and bad input a 400 in the caller’s language that changes nothing', async () => {
    const number = '5541988880005';
    await write(number, 'oi');
    const gabi = (await conversations(ctx, ana)).find((c) => c.contact_number === '5541988880005')!;
    for (const language of LANGUAGES) {
      const theirs = await block(bruno, gabi.id, true, language);
      expect(theirs.statusCode).toBe(404);
      expect(theirs.json().message).toBe(message(language, 'whatsappServer.conversationNotFound'));
      for (const body of [{}, { blocked: 'yes' }, { blocked: 1 }, { blocked: null }]) {
        const res = await post(ctx, `/api/whatsapp/conversations/${gabi.id}/block`, body, {
          token: ana.token,
          language,
        });
        expect(res.statusCode, JSON.stringify(body)).toBe(400);
        expect(res.json().errors.blocked).toBe(message(language, 'validation.booleanRequired'));
      }
    }
    const huge = await ctx.app.inject({
      method: 'POST',
      url: `/api/whatsapp/conversations/${gabi.id}/block`,
      payload: JSON.stringify({ blocked: true, pad: 'x'.repeat(2_000_000) }),
      headers: { authorization: `Bearer ${ana.token}`, 'content-type': 'application/json' },
    });
    expect(huge.statusCode).toBeGreaterThanOrEqual(400);
    expect(huge.statusCode).toBeLessThan(500);
    for (const id of ['abc', '1%27%20or%201%3D1', 'x'.repeat(150)]) {
      expect((await block(ana, id, true)).statusCode).toBe(404);
    }
    expect(
      (await post(ctx, `/api/whatsapp/conversations/${gabi.id}/block`, { blocked: true }))
        .statusCode,
    ).toBe(401);
    expect((await conversations(ctx, ana)).find((c) => c.id === gabi.id)!.status).toBe('active');
  });
});

describe('linking by pairing code (sandbox)', () => {
  let ctx: TestContext;
  let watch: ReturnType<typeof observe>;
  beforeAll(async () => {
    watch = observe();
    ctx = await createTestApp({
      limits: { routes: UNLIMITED_ROUTES },
      events: watch.hub,
      whatsapp: { transport: 'sandbox', sandboxSecret: SANDBOX_SECRET },
    });
  });
  afterAll(async () => ctx.close());

  it('shows an 8-character code for the number; typed on that phone, the account is ready and the code gone', async () => {
    const ivo = await registerAndLogin(ctx, { name: 'Ivo' });
    const phone = newPhone();
    const since = watch.events.length;
    const asked = await post(ctx, '/api/whatsapp/pairing-code', { phone }, { token: ivo.token });
    expect(asked.statusCode).toBe(200);
    const first = asked.json<{ data: WhatsAppStatus }>().data;
    expect(first).toMatchObject({ state: 'qr', isReady: false });
    expect(first.pairingCode).toMatch(/^[1-9A-HJ-NP-TV-Z]{8}$/);
    expect((await watch.next(ivo.user.id, 'whatsapp:pairing_code', since)).payload).toEqual({
      pairingCode: first.pairingCode,
    });
    expect((await status(ctx, ivo)).pairingCode).toBe(first.pairingCode);

    // Asked again: a new code replaces the first, which no longer links.
    const second = (
      await post(ctx, '/api/whatsapp/pairing-code', { phone }, { token: ivo.token })
    ).json<{ data: WhatsAppStatus }>().data.pairingCode!;
    expect(second).not.toBe(first.pairingCode);
    for (const language of LANGUAGES) {
      const stale = await post(
        ctx,
        '/api/whatsapp/sandbox/pairing-code',
        { code: first.pairingCode, phone },
        { token: ivo.token, language },
      );
      expect(stale.statusCode).toBe(404);
      expect(stale.json().message).toBe(
        message(language, 'whatsappServer.sandboxPairingCodeNotFound'),
      );
    }
    // The right code on another number does not link either.
    const elsewhere = await post(
      ctx,
      '/api/whatsapp/sandbox/pairing-code',
      { code: second, phone: newPhone() },
      { token: ivo.token },
    );
    expect(elsewhere.statusCode).toBe(404);

    // Typed as WhatsApp shows it, in two groups of four.
    const ready = watch.events.length;
    const typed = await post(
      ctx,
      '/api/whatsapp/sandbox/pairing-code',
      { code: `${second.slice(0, 4)}-${second.slice(4).toLowerCase()}`, phone },
      { token: ivo.token },
    );
    expect(typed.statusCode).toBe(200);
    expect((await watch.next(ivo.user.id, 'whatsapp:ready', ready)).payload).toEqual({ phone });
    expect(await status(ctx, ivo)).toMatchObject({
      state: 'ready',
      phone,
      pairingCode: null,
      qrCode: null,
    });
    const again = await post(
      ctx,
      '/api/whatsapp/sandbox/pairing-code',
      { code: second, phone },
      { token: ivo.token },
    );
    expect(again.statusCode).toBe(404);
    // Connected: asking for a code changes nothing.
    const connected = await post(
      ctx,
      '/api/whatsapp/pairing-code',
      { phone },
      { token: ivo.token },
    );
    expect(connected.json().data).toMatchObject({ state: 'ready', pairingCode: null });
  });

  it('only the account the code is for (or the sandbox secret) may type it', async () => {
    const jo = await registerAndLogin(ctx, { name: 'Jo' });
    const lu = await registerAndLogin(ctx, { name: 'Lu' });
    const phone = newPhone();
    const code = (
      await post(ctx, '/api/whatsapp/pairing-code', { phone }, { token: jo.token })
    ).json<{ data: WhatsAppStatus }>().data.pairingCode!;
    expect(
      (await post(ctx, '/api/whatsapp/sandbox/pairing-code', { code, phone })).statusCode,
    ).toBe(401);
    expect(
      (await post(ctx, '/api/whatsapp/sandbox/pairing-code', { code, phone }, { token: lu.token }))
        .statusCode,
    ).toBe(404);
    expect((await status(ctx, jo)).state).toBe('qr');
    const bySecretRes = await ctx.app.inject({
      method: 'POST',
      url: '/api/whatsapp/sandbox/pairing-code',
      payload: JSON.stringify({ code, phone }),
      headers: { ...bySecret, 'content-type': 'application/json' },
    });
    expect(bySecretRes.statusCode).toBe(200);
    expect((await status(ctx, jo)).state).toBe('ready');
    expect((await status(ctx, lu)).state).toBe('disconnected');
  });

  it('gives an account at most 5 codes in 10 minutes: the next is a 429 saying the wait, and WhatsApp is not asked', async () => {
    const ana = await registerAndLogin(ctx, { name: 'Ana' });
    const phone = newPhone();
    const codes: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      const asked = await post(ctx, '/api/whatsapp/pairing-code', { phone }, { token: ana.token });
      expect(asked.statusCode).toBe(200);
      codes.push(asked.json<{ data: WhatsAppStatus }>().data.pairingCode!);
    }
    expect(new Set(codes).size).toBe(5);
    const refused = await post(
      ctx,
      '/api/whatsapp/pairing-code',
      { phone },
      { token: ana.token, language: 'pt-BR' },
    );
    expect(refused.statusCode).toBe(429);
    const retryAfter = Number(refused.headers['retry-after']);
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(600);
    expect(refused.json()).toEqual({
      success: false,
      message: `Muitas requisições. Tente novamente em ${retryAfter} segundos.`,
    });
    // The last code given still stands; another account is not held back by this one.
    expect((await status(ctx, ana)).pairingCode).toBe(codes[4]);
    const bia = await registerAndLogin(ctx, { name: 'Bia' });
    expect(
      (await post(ctx, '/api/whatsapp/pairing-code', { phone: newPhone() }, { token: bia.token }))
        .statusCode,
    ).toBe(200);
  });

  it('refuses a bad number or code with a 400 in the caller’s language, and asks WhatsApp nothing', async () => {
    const kim = await registerAndLogin(ctx, { name: 'Kim' });
    for (const language of LANGUAGES) {
      for (const phone of [
        '',
        '123',
        '+55 41 99999-8888',
        '5541999998888'.repeat(3),
        5541999998888,
        null,
        '٥٥٤١٩٩٩٩٩٨٨٨٨',
      ]) {
        const res = await post(
          ctx,
          '/api/whatsapp/pairing-code',
          { phone },
          { token: kim.token, language },
        );
        expect(res.statusCode, JSON.stringify(phone)).toBe(400);
        expect(res.json().message).toBe(message(language, 'errors.validation'));
        if (typeof phone === 'string')
          expect(res.json().errors.phone).toBe(message(language, 'validation.phoneInvalid'));
      }
      for (const code of ['', 'ABC', 'ABCD-EFG!', 'x'.repeat(10_000), 12345678]) {
        const res = await post(
          ctx,
          '/api/whatsapp/sandbox/pairing-code',
          { code, phone: '5541999998888' },
          { token: kim.token, language },
        );
        expect(res.statusCode, String(code).slice(0, 20)).toBe(400);
        if (typeof code === 'string')
          expect(res.json().errors.code).toBe(message(language, 'validation.pairingCodeInvalid'));
      }
    }
    expect(
      (await post(ctx, '/api/whatsapp/pairing-code', { phone: '5541999998888' })).statusCode,
    ).toBe(401);
    expect(await status(ctx, kim)).toMatchObject({ state: 'disconnected', pairingCode: null });
  });
});

describe('linking by pairing code (Baileys and a fake WhatsApp)', () => {
  let ctx: TestContext;
  let watch: ReturnType<typeof observe>;
  let fake: FakeWhatsApp;
  beforeAll(async () => {
    fake = await startFakeWhatsApp();
    watch = observe();
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

  it('asks WhatsApp for the code once the QR is up, shows it, and the phone typing it links the number', async () => {
    const lia = await registerAndLogin(ctx, { name: 'Lia' });
    const phone = newPhone();
    const since = watch.events.length;
    const askedOfWhatsApp = fake.next('pairing-code-asked');
    const asked = await post(ctx, '/api/whatsapp/pairing-code', { phone }, { token: lia.token });
    expect(asked.statusCode).toBe(200);
    const { pairingCode } = (await watch.next(lia.user.id, 'whatsapp:pairing_code', since))
      .payload as { pairingCode: string };
    expect(pairingCode).toMatch(/^[0-9A-Z]{8}$/);
    expect((await askedOfWhatsApp).linkCode?.phone).toBe(phone);
    expect(await status(ctx, lia)).toMatchObject({ state: 'qr', pairingCode });
    // The QR shows beside it, as on WhatsApp Web.
    expect((await status(ctx, lia)).qrCode).toMatch(/^data:image\/png;base64,/);

    await fake.enterPairingCode(pairingCode, phone);
    expect((await watch.next(lia.user.id, 'whatsapp:ready', since)).payload).toEqual({ phone });
    expect(await status(ctx, lia)).toMatchObject({
      state: 'ready',
      phone,
      pairingCode: null,
      qrCode: null,
    });
  });
});
