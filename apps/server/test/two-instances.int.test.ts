import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { eq } from 'drizzle-orm';
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SendMessageResponse, User } from '@contrateia/shared';
import { createAgentsService } from '@/features/agents/agents.service';
import { agents as agentsTable } from '@/features/agents/agents.table';
import { sessions } from '@/features/auth/auth.table';
import { REDIS_OPTIONS } from '@/lib/redis';
import { createSharedState } from '@/lib/shared-state';
import { createGate, startFakeOpenAI, type FakeOpenAI } from './fake-openai';
import { get, login, post, register, registerAndLogin, UNLIMITED_ROUTES } from './factories';
import { eventually } from './eventually';
import { createTwoInstances, type TestClock, type TestContext, NO_MONITOR } from './helpers';
import { systemClock } from '@/lib/clock';

/**
 * Two app instances behind one load balancer, as production runs them: one database and one
 * shared state. With TEST_DATABASE_URL and TEST_REDIS_URL that is PostgreSQL and Redis, each
 * instance with its own connections; on PGlite alone, the two share one database and one
 * in-memory state, which stands for Redis as a process's memory stands for it in a single
 * instance. Either way a change made through one instance must be in force on the other.
 */

type Database = Awaited<ReturnType<typeof createTwoInstances>>['database'];

describe('two instances sharing the database and the shared state', () => {
  let instances: Awaited<ReturnType<typeof createTwoInstances>>;
  let database: Database;
  let ai: FakeOpenAI;
  let a: TestContext;
  let b: TestContext;
  let admin: Awaited<ReturnType<typeof registerAndLogin>>;
  let keyPrefix: string;
  // One time for both, as machines share it.
  let clock: TestClock;

  beforeAll(async () => {
    ai = await startFakeOpenAI();
    instances = await createTwoInstances({
      without: NO_MONITOR,
      ai: { provider: 'openai' as const, baseUrl: ai.url, model: 'fake-model', timeoutMs: 20_000 },
      limits: {
        routes: UNLIMITED_ROUTES,
        login: { perAccount: 3, baseDelaySeconds: 600, maxDelaySeconds: 600, perIp: 10_000 },
        chat: { points: 5, durationSeconds: 60 },
        codes: { perAddress: 3 },
      },
    });
    ({ a, b, database, keyPrefix, clock } = instances);
    // The first account on the database is the admin.
    admin = await registerAndLogin(a, { name: 'Admin' });
  });

  afterAll(async () => {
    await instances?.close();
    await ai?.close();
  });

  const userOn = (ctx: TestContext, token: string) => get(ctx, '/api/user', { token });

  it('a sign-out through A is in force on B, which had the session cached', async () => {
    const account = await registerAndLogin(a);
    expect((await userOn(a, account.token)).statusCode).toBe(200);
    expect((await userOn(b, account.token)).statusCode).toBe(200);

    // Revoked in the database behind the instances' backs, the session is still served from the
    // instances' caches: they do not re-read it on every request...
    const [row] = await database.db
      .select({ id: sessions.id })
      .from(sessions)
      .where(eq(sessions.userId, account.user.id));
    await database.db
      .update(sessions)
      .set({ revokedAt: new Date() })
      .where(eq(sessions.id, row!.id));
    expect((await userOn(b, account.token)).statusCode).toBe(200);

    // ...so it is the sign-out's message that reaches B.
    expect((await post(a, '/api/logout', {}, { token: account.token })).statusCode).toBe(200);
    await eventually(
      async () => (await userOn(b, account.token)).statusCode === 401,
      'B refuses the signed-out token',
    );
    expect((await userOn(a, account.token)).statusCode).toBe(401);
  });

  it('a role switch through A: B refuses the old token and sees the new role with the new one', async () => {
    expect((await userOn(b, admin.token)).json<{ user: User }>().user.role).toBe('admin');

    const switched = await post(
      a,
      '/api/switch-role',
      { targetRole: 'user' },
      { token: admin.token },
    );
    expect(switched.statusCode).toBe(200);
    const { token } = switched.json<{ token: string }>();

    await eventually(
      async () => (await userOn(b, admin.token)).statusCode === 401,
      'B refuses the replaced token',
    );
    // B had the admin cached as an admin: the new token must show the user mode.
    await eventually(
      async () => (await userOn(b, token)).json<{ user?: User }>().user?.role === 'user',
      'B sees the user mode',
    );
    admin = { ...admin, token };
  });

  it('a password change through A: B refuses the other session at once, the changing one works on both', async () => {
    const account = await registerAndLogin(a);
    const other = (await login(b, { identifier: account.email, password: account.password })).json<{
      token: string;
    }>().token;
    // Both sessions cached on B.
    expect((await userOn(b, account.token)).statusCode).toBe(200);
    expect((await userOn(b, other)).statusCode).toBe(200);

    const changed = await post(
      a,
      '/api/change-password',
      {
        currentPassword: account.password,
        newPassword: 'A-new-password-7',
        confirmPassword: 'A-new-password-7',
      },
      { token: account.token },
    );
    expect(changed.statusCode).toBe(200);

    await eventually(
      async () => (await userOn(b, other)).statusCode === 401,
      'B refuses the other session',
    );
    expect((await userOn(b, account.token)).statusCode).toBe(200);
    expect((await userOn(a, account.token)).statusCode).toBe(200);
  });

  it("counts an account's failed sign-ins on both instances together, by e-mail and by username", async () => {
    const { email, password } = await register(a);
    const username = email.split('@')[0]!;
    const tries: [TestContext, string][] = [
      [a, email],
      [b, username],
      [a, email.toUpperCase()],
    ];
    for (const [ctx, identifier] of tries) {
      expect((await login(ctx, { identifier, password: 'wrong-password' })).statusCode).toBe(401);
    }
    // Three failures, spread over A and B and both names, spend the account's three tries on
    // both: the next attempt waits, even with the right password.
    const locked = await login(b, { identifier: email, password });
    expect(locked.statusCode).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(590);
    expect((await login(a, { identifier: username, password })).statusCode).toBe(429);
  });

  it('counts the codes sent to one address on both instances together', async () => {
    const email = `daily-${randomBytes(4).toString('hex')}@example.com`;
    const statuses: number[] = [];
    for (const ctx of [a, b, a, b]) {
      clock.advance(60_000); // past the resend cooldown
      statuses.push(
        (await post(ctx, '/api/send-otp', { email, purpose: 'registration' })).statusCode,
      );
    }
    // Three a day in all, not three on each instance.
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect((await post(a, '/api/send-otp', { email, purpose: 'registration' })).statusCode).toBe(
      429,
    );
  });

  it('counts one chat limit for a user across instances', async () => {
    const account = await registerAndLogin(a);
    ai.setOptions({ chunks: ['ok'] });
    const statuses: number[] = [];
    for (const ctx of [a, b, a, b, a, b]) {
      statuses.push(
        (
          await post(
            ctx,
            '/api/chat/message',
            { message: 'oi', agentName: 'guia' },
            { token: account.token },
          )
        ).statusCode,
      );
    }
    // Five per minute in all, not five on each instance.
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
  });

  it('an own agent changed through A is answered by its change on B at once, not by what B kept', async () => {
    const owner = await registerAndLogin(a, { name: 'Dona' });
    const bakery = {
      displayName: 'Padaria da Dona',
      business: {
        name: 'Padaria da Dona',
        about: 'Pães e bolos feitos todo dia.',
        hours: [{ day: 6, open: '08:00', close: '12:00' }],
      },
      catalogue: [],
      faq: [{ question: 'Vocês entregam?', answer: 'Entregamos no bairro.' }],
    };
    const created = await post(a, '/api/my-agents', bakery, { token: owner.token });
    expect(created.statusCode, created.body.slice(0, 200)).toBe(200);
    const { agent } = created.json<{ agent: { id: string; name: string } }>();
    /** What the model on B was told, asked the same question each time. */
    const toldOnB = async () => {
      ai.setOptions({ chunks: ['ok'] });
      const asked = ai.nextRequest();
      const res = await post(
        b,
        '/api/chat/message',
        { agentName: agent.name, message: 'vocês abrem domingo? e entregam?' },
        { token: owner.token, language: 'pt-BR' },
      );
      expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
      const { body } = await asked;
      return (body as { messages: { content: string }[] }).messages[0]!.content;
    };
    const before = await toldOnB();
    expect(before).toContain('- Domingo: fechado');
    expect(before).toContain('Entregamos no bairro.');

    const saved = await a.app.inject({
      method: 'PUT',
      url: `/api/my-agents/${agent.id}`,
      payload: {
        ...bakery,
        business: {
          ...bakery.business,
          hours: [...bakery.business.hours, { day: 0, open: '09:00', close: '12:00' }],
        },
        faq: [{ question: 'Vocês entregam?', answer: 'Entregamos em toda a cidade.' }],
      },
      headers: { authorization: `Bearer ${owner.token}`, 'accept-language': 'pt-BR' },
    });
    expect(saved.statusCode, saved.body.slice(0, 200)).toBe(200);
    const after = await toldOnB();
    expect(after).toContain('- Domingo: 9:00–12:00');
    expect(after).toContain('Entregamos em toda a cidade.');
    expect(after).not.toContain('Entregamos no bairro.');
  });

  it('gives one reply at a time per conversation when the two sends reach different instances', async () => {
    const account = await registerAndLogin(a);
    const send = (ctx: TestContext, message: string, conversationId?: string) =>
      post(
        ctx,
        '/api/chat/message',
        { message, agentName: 'guia', conversationId },
        { token: account.token },
      );

    ai.setOptions({ chunks: ['first reply'] });
    const started = await send(a, 'hello');
    expect(started.statusCode).toBe(200);
    const conversationId = started.json<SendMessageResponse>().conversation.id;

    const gate = createGate();
    ai.setOptions({
      chunks: ['a', ' held', ' reply'],
      hold: { afterChunks: 1, until: gate.opened },
    });
    const received = ai.nextRequest();
    const onA = send(a, 'first', conversationId);
    await received; // A's reply is being produced

    const onB = await send(b, 'second', conversationId);
    expect(onB.statusCode).toBe(409);
    expect(onB.json()).toEqual({ success: false, message: 'Aguarde a resposta atual terminar' });

    gate.open();
    const fromA = await onA;
    expect(fromA.statusCode).toBe(200);
    expect(fromA.json<SendMessageResponse>().message.text).toBe('a held reply');

    // Once A's reply is stored, B takes the conversation's next message.
    ai.setOptions({ chunks: ['ok'] });
    const next = await send(b, 'third', conversationId);
    expect(next.statusCode).toBe(200);
    expect(next.json<SendMessageResponse>().conversation.id).toBe(conversationId);
  });

  it('a list on B read right after a Stop on A has the stopped reply; a reply in progress holds no list', async () => {
    const account = await registerAndLogin(a);
    ai.setOptions({ chunks: ['first reply'] });
    const started = await post(
      a,
      '/api/chat/message',
      { message: 'hello', agentName: 'guia' },
      { token: account.token },
    );
    const conversationId = started.json<SendMessageResponse>().conversation.id;

    const gate = createGate();
    ai.setOptions({
      chunks: ['a', ' held', ' reply'],
      hold: { afterChunks: 1, until: gate.opened },
    });
    const received = ai.nextRequest();
    // Streamed from A over HTTP, as the page does, so that Stop is the client going away.
    const address = await a.app.listen({ port: 0, host: '127.0.0.1' });
    const serverSawClose = new Promise<void>((resolve) => {
      a.app.server.once('request', (_request, response: ServerResponse) =>
        response.once('close', () => resolve()),
      );
    });
    const stop = new AbortController();
    const streamed = await fetch(`${address}/api/chat/message`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${account.token}`,
        'content-type': 'application/json',
        accept: 'text/event-stream',
      },
      body: JSON.stringify({ message: 'again', agentName: 'guia', conversationId }),
      signal: stop.signal,
    });
    const reader = streamed.body!.getReader();
    let body = '';
    while (!body.includes('event: delta')) {
      const { value, done } = await reader.read();
      if (done) throw new Error('the stream ended before its first piece');
      body += new TextDecoder().decode(value);
    }
    await received; // A holds the conversation's reply slot, in the shared state

    type Listed = { conversations: { id: string; messageCount: number }[] };
    const listOnB = async () =>
      (
        await get(b, '/api/chat/conversations?agentName=guia', { token: account.token })
      ).json<Listed>().conversations;
    // While A's reply goes on, a list on B answers at once, with the count before it.
    expect(await listOnB()).toEqual([
      expect.objectContaining({ id: conversationId, messageCount: 2 }),
    ]);
    stop.abort();
    await serverSawClose;
    // Read on B as soon as A has seen the Stop: the stopped exchange is in it.
    expect(await listOnB()).toEqual([
      expect.objectContaining({ id: conversationId, messageCount: 4 }),
    ]);
    gate.open();
    // Nothing is left waiting: B takes the conversation's next message.
    ai.setOptions({ chunks: ['ok'] });
    const next = await post(
      b,
      '/api/chat/message',
      { message: 'and now', agentName: 'guia', conversationId },
      { token: account.token },
    );
    expect(next.statusCode).toBe(200);
  });

  it('a role switch sent to both instances at once with one token gives one new session', async () => {
    const signedIn = await login(a, { identifier: admin.email, password: admin.password });
    const { token, user } = signedIn.json<{ token: string; user: User }>();
    const targetRole = user.role === 'admin' ? 'user' : 'admin';
    // The session cached on both instances, as after a few requests through each.
    expect((await userOn(a, token)).statusCode).toBe(200);
    expect((await userOn(b, token)).statusCode).toBe(200);
    const countSessions = () => database.db.$count(sessions, eq(sessions.userId, user.id));
    const before = await countSessions();

    const results = await Promise.all(
      [a, b, a, b, a, b].map((ctx) => post(ctx, '/api/switch-role', { targetRole }, { token })),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 401, 401, 401, 401, 401]);
    expect(await countSessions()).toBe(before + 1);
    await eventually(
      async () =>
        (await userOn(b, token)).statusCode === 401 && (await userOn(a, token)).statusCode === 401,
      'both refuse the old token',
    );
    admin = {
      ...admin,
      token: results.find((r) => r.statusCode === 200)!.json<{ token: string }>().token,
    };
  });

  it("drops every instance's copy of the agents catalogue when an agent changes", async () => {
    // The agents service of each instance, as app.ts builds it, each on its own connection to
    // the shared state. (No route edits agents yet: the admin panel will, through invalidate().)
    const redis = process.env.TEST_REDIS_URL
      ? [
          new Redis(process.env.TEST_REDIS_URL, REDIS_OPTIONS),
          new Redis(process.env.TEST_REDIS_URL, REDIS_OPTIONS),
        ]
      : [];
    const states = redis.length
      ? redis.map((client) => createSharedState({ redis: client, keyPrefix }))
      : [instances.memoryState!, instances.memoryState!];
    const [onA, onB] = states.map((state) =>
      createAgentsService({
        db: database.db,
        isSingleAgentUser: async () => false,
        state,
        logger: pino({ level: 'silent' }),
        events: { emit: async () => {} },
        clock: systemClock,
      }),
    );
    try {
      await Promise.all(states.map((state) => state.ready()));
      const user = { ...admin.user, role: 'user' as const };
      const offered = async () =>
        (await onB!.listAvailable({ user, language: 'en-US' })).map((agent) => agent.name);
      expect(await offered()).toContain('indirect'); // B has the catalogue cached now

      await database.db
        .update(agentsTable)
        .set({ isActive: false })
        .where(eq(agentsTable.name, 'indirect'));
      expect(await offered()).toContain('indirect'); // a write alone does not reach B's copy...
      await onA!.invalidate(); // ...the change's announcement does
      await eventually(
        async () => !(await offered()).includes('indirect'),
        'B stops offering the deactivated agent',
      );
    } finally {
      await database.db
        .update(agentsTable)
        .set({ isActive: true })
        .where(eq(agentsTable.name, 'indirect'));
      if (redis.length) {
        await Promise.all(states.map((state) => state.close()));
        await Promise.all(redis.map((client) => client.quit()));
      }
    }
  });
});
