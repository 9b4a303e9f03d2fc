import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SandboxPhoneEvent, WhatsAppStatus } from '@contrateia/shared';
import {
  createTestApp,
  createTwoInstances,
  type TestContext,
  NO_MONITOR,
} from '../../../../test/helpers';
import { get, message, post, registerAndLogin, UNLIMITED_ROUTES } from '../../../../test/factories';
import { qrText } from '../../../../test/qr';
import { repliesOf } from '../../../../test/replies';
import { chooseAnsweringAgent } from '../../../../test/whatsapp';

// The sandbox's control API is the sandbox's alone. What a linked number did
// (`/phones/{phone}/*`) answers only the account that linked it, or whoever holds SANDBOX_SECRET;
// contacts' messages are limited per IP; a number linked again by another account shows none of
// the previous account's events.

type Account = Awaited<ReturnType<typeof registerAndLogin>>;
const SECRET = 's'.repeat(40);

let digits = 0;
const newNumber = () =>
  `55118${String(Date.now() % 1e5).padStart(5, '0')}${String((digits += 1)).padStart(3, '0')}`;

/** Connect, read the QR, pair `phone`: the account is ready on it. */
async function link(ctx: TestContext, account: Account, phone: string) {
  await chooseAnsweringAgent(ctx, account);
  const connect = await post(ctx, '/api/whatsapp/connect', {}, { token: account.token });
  const token = new URL(
    qrText(connect.json<{ data: WhatsAppStatus }>().data.qrCode!),
  ).searchParams.get('pair')!;
  expect((await post(ctx, '/api/whatsapp/sandbox/pair', { token, phone })).statusCode).toBe(200);
}

const withSecret = (secret: string) => ({ 'x-sandbox-secret': secret });

describe('the sandbox control API', () => {
  let ctx: TestContext;
  let ana: Account;
  let bruno: Account;
  let phone: string;
  beforeAll(async () => {
    ctx = await createTestApp({
      without: NO_MONITOR,
      limits: { routes: UNLIMITED_ROUTES, sandboxInboundPerMinute: 10_000 },
      whatsapp: { transport: 'sandbox', sandboxSecret: SECRET },
    });
    const replies = repliesOf(ctx);
    ana = await registerAndLogin(ctx, { name: 'Ana' });
    bruno = await registerAndLogin(ctx, { name: 'Bruno' });
    phone = newNumber();
    await link(ctx, ana, phone);
    await post(ctx, '/api/whatsapp/sandbox/inbound', {
      to: phone,
      from: `${newNumber()}@s.whatsapp.net`,
      text: 'oi',
    });
    await replies.settled({});
  });
  afterAll(async () => ctx.close());

  const events = (headers: Record<string, string>, token?: string, at = phone) =>
    ctx.app.inject({
      method: 'GET',
      url: `/api/whatsapp/sandbox/phones/${at}/events`,
      headers: { ...headers, ...(token ? { authorization: `Bearer ${token}` } : {}) },
    });

  it('answers the linked account’s session and the secret', async () => {
    const own = await events({}, ana.token);
    expect(own.statusCode).toBe(200);
    expect(
      own.json<{ events: SandboxPhoneEvent[] }>().events.some((e) => e.type === 'message'),
    ).toBe(true);
    const bySecret = await events(withSecret(SECRET));
    expect(bySecret.statusCode).toBe(200);
    expect(bySecret.json()).toEqual(own.json());
  });

  it('refuses anonymous callers with 401 before reading the path, and other accounts with 404', async () => {
    for (const res of [
      await events({}),
      await events(withSecret('wrong')),
      await events({}, undefined, 'abc'),
    ]) {
      expect(res.statusCode).toBe(401);
    }
    const others = await events({}, bruno.token);
    expect(others.statusCode).toBe(404);
    expect(others.json().message).toBe(message('pt-BR', 'whatsappServer.sandboxPhoneNotLinked'));
    const logout = await post(
      ctx,
      `/api/whatsapp/sandbox/phones/${phone}/logout`,
      {},
      { token: bruno.token },
    );
    expect(logout.statusCode).toBe(404);
    expect((await post(ctx, `/api/whatsapp/sandbox/phones/${phone}/logout`, {})).statusCode).toBe(
      401,
    );
    // Nor take its link down (and its contacts' messages with it).
    const network = `/api/whatsapp/sandbox/phones/${phone}/network`;
    expect((await post(ctx, network, { online: false })).statusCode).toBe(401);
    expect((await post(ctx, network, { online: false }, { token: bruno.token })).statusCode).toBe(
      404,
    );
    const wrongSecret = await ctx.app.inject({
      method: 'POST',
      url: network,
      headers: withSecret('wrong'),
      payload: { online: false },
    });
    expect(wrongSecret.statusCode).toBe(401);
    expect((await post(ctx, network, { online: true }, { token: ana.token })).statusCode).toBe(200);
    // Nor may anyone else write as the owner from the phone.
    const outbound = { from: phone, to: `${newNumber()}@s.whatsapp.net`, text: 'sou eu' };
    expect((await post(ctx, '/api/whatsapp/sandbox/outbound', outbound)).statusCode).toBe(401);
    expect(
      (await post(ctx, '/api/whatsapp/sandbox/outbound', outbound, { token: bruno.token }))
        .statusCode,
    ).toBe(404);
    expect(
      (await post(ctx, '/api/whatsapp/sandbox/outbound', outbound, { token: ana.token }))
        .statusCode,
    ).toBe(200);
    // The same by the phone's path (the owner answers from the phone: the agent pauses).
    const ownMessage = `/api/whatsapp/sandbox/phones/${phone}/own-message`;
    const own = { to: outbound.to, text: 'sou eu de novo' };
    expect((await post(ctx, ownMessage, own)).statusCode).toBe(401);
    expect((await post(ctx, ownMessage, own, { token: bruno.token })).statusCode).toBe(404);
    expect(
      (await post(ctx, ownMessage, { to: 'x', text: '' }, { token: ana.token })).statusCode,
    ).toBe(400);
    expect((await post(ctx, ownMessage, own, { token: ana.token })).statusCode).toBe(200);
    // Still linked to Ana: nothing the others tried logged her out.
    expect(
      (await get(ctx, '/api/whatsapp/status', { token: ana.token })).json<{
        data: WhatsAppStatus;
      }>().data.isReady,
    ).toBe(true);
  });

  it('tells a phone a contact’s LID only for its account or the secret’s holder, and refuses a bad LID or number with 400', async () => {
    const url = '/api/whatsapp/sandbox/lid-mapping';
    const body = { to: phone, lid: '20011112222333@lid', pn: `${newNumber()}@s.whatsapp.net` };
    expect((await post(ctx, url, body)).statusCode).toBe(401);
    const wrongSecret = await ctx.app.inject({
      method: 'POST',
      url,
      headers: withSecret('wrong'),
      payload: body,
    });
    expect(wrongSecret.statusCode).toBe(401);
    const other = await post(ctx, url, body, { token: bruno.token });
    expect(other.statusCode).toBe(404);
    expect(other.json().message).toBe(message('pt-BR', 'whatsappServer.sandboxPhoneNotLinked'));
    expect((await post(ctx, url, body, { token: ana.token })).statusCode).toBe(200);
    const bySecret = await ctx.app.inject({
      method: 'POST',
      url,
      headers: withSecret(SECRET),
      payload: body,
    });
    expect(bySecret.statusCode).toBe(200);
    for (const [wrong, field, key] of [
      [{ lid: '5511987654321@s.whatsapp.net' }, 'lid', 'validation.lidInvalid'],
      [{ lid: "1' or 1=1@lid" }, 'lid', 'validation.lidInvalid'],
      [{ lid: undefined }, 'lid', 'validation.lidInvalid'],
      [{ pn: '20011112222333@lid' }, 'pn', 'validation.pnJidInvalid'],
      [{ pn: '5511987654321' }, 'pn', 'validation.pnJidInvalid'],
      [{ pn: 42 }, 'pn', 'validation.pnJidInvalid'],
    ] as const) {
      const res = await post(
        ctx,
        url,
        { ...body, ...wrong },
        { token: ana.token, language: 'en-US' },
      );
      expect(res.statusCode).toBe(400);
      expect(res.json().errors).toEqual({ [field]: message('en-US', key) });
    }
    const nobody = await post(ctx, url, { ...body, to: newNumber() }, { token: ana.token });
    expect(nobody.statusCode).toBe(404);
  });

  it('a number linked again by another account shows none of the previous account’s events', async () => {
    expect(
      (await post(ctx, `/api/whatsapp/sandbox/phones/${phone}/logout`, {}, { token: ana.token }))
        .statusCode,
    ).toBe(200);
    await link(ctx, bruno, phone);
    for (const res of [await events({}, bruno.token), await events(withSecret(SECRET))]) {
      expect(res.statusCode).toBe(200);
      expect(res.json<{ events: SandboxPhoneEvent[] }>().events).toEqual([]);
    }
    expect((await events({}, ana.token)).statusCode).toBe(404);
  });
});

describe('the sandbox without SANDBOX_SECRET', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp({
      without: NO_MONITOR,
      limits: { routes: UNLIMITED_ROUTES },
      whatsapp: { transport: 'sandbox' },
    });
  });
  afterAll(async () => ctx.close());

  it('opens a phone’s routes to its linked account only: no secret opens them', async () => {
    const ana = await registerAndLogin(ctx, { name: 'Ana' });
    const phone = newNumber();
    await link(ctx, ana, phone);
    const url = `/api/whatsapp/sandbox/phones/${phone}/events`;
    expect((await ctx.app.inject({ method: 'GET', url, headers: withSecret('') })).statusCode).toBe(
      401,
    );
    expect(
      (await ctx.app.inject({ method: 'GET', url, headers: withSecret('undefined') })).statusCode,
    ).toBe(401);
    expect((await get(ctx, url, { token: ana.token })).statusCode).toBe(200);
  });
});

describe('the sandbox’s inbound limit per IP', () => {
  it('answers 429 with the wait beyond SANDBOX_INBOUND_PER_MINUTE, counted across instances', async () => {
    const instances = await createTwoInstances(
      { limits: { routes: UNLIMITED_ROUTES, sandboxInboundPerMinute: 4 } },
      () => ({ whatsapp: { transport: 'sandbox' } }),
    );
    try {
      const { a, b } = instances;
      const ana = await registerAndLogin(a, { name: 'Ana' });
      const phone = newNumber();
      await link(a, ana, phone);
      const body = { to: phone, from: `${newNumber()}@s.whatsapp.net`, text: 'oi' };
      const ip = '203.0.113.7';
      const statuses: number[] = [];
      for (const instance of [a, b, a, b])
        statuses.push(
          (await post(instance, '/api/whatsapp/sandbox/inbound', body, { remoteAddress: ip }))
            .statusCode,
        );
      expect(statuses).toEqual([200, 200, 200, 200]);
      const refused = await post(b, '/api/whatsapp/sandbox/inbound', body, {
        remoteAddress: ip,
        language: 'en-US',
      });
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
      expect(refused.json().message).toBe(
        message('en-US', 'errors.tooManyRequests', {
          count: Number(refused.headers['retry-after']),
        }),
      );
      // A contact's edit, deletion for everyone and reaction are counted with its messages.
      for (const [path, change] of [
        ['edit', { text: 'oi!' }],
        ['revoke', {}],
        ['react', { emoji: '👍' }],
      ] as const)
        expect(
          (
            await post(
              a,
              `/api/whatsapp/sandbox/${path}`,
              { to: phone, from: body.from, id: 'ANY-ID', ...change },
              { remoteAddress: ip },
            )
          ).statusCode,
        ).toBe(429);
      // Another address is counted on its own.
      expect(
        (await post(a, '/api/whatsapp/sandbox/inbound', body, { remoteAddress: '203.0.113.8' }))
          .statusCode,
      ).toBe(200);
    } finally {
      await instances.close();
    }
  });
});
