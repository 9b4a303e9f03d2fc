import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  AdminAuditResponse,
  AdminUser,
  AdminUserResponse,
  AdminUsersResponse,
  Agent,
  Language,
  User,
} from '@contrateia/shared';
import type { Database } from '@/db/client';
import { agents as agentsTable } from '@/features/agents/agents.table';
import { sessions, users } from '@/features/auth/auth.table';
import { eventually } from '../../../test/eventually';
import {
  DEFAULT_PASSWORD,
  get,
  login,
  message,
  post,
  registerAndLogin,
  uniqueEmail,
  UNLIMITED_ROUTES,
} from '../../../test/factories';
import { codeFromMail } from '../../../test/smtp';
import {
  createTestApp,
  createTwoInstances,
  type TestContext,
  NO_MONITOR,
} from '../../../test/helpers';
import { adminAudit } from '@/features/audit/audit.table';

type Account = Awaited<ReturnType<typeof registerAndLogin>>;

const LIMITS = { routes: UNLIMITED_ROUTES, login: { perIp: 10_000, perAccount: 1_000 } };

/** The id of a seeded agent, as the admin panel sends it. */
async function agentId(database: Database, name: string): Promise<string> {
  const [row] = await database.db
    .select({ id: agentsTable.id })
    .from(agentsTable)
    .where(eq(agentsTable.name, name));
  if (!row) throw new Error(`no agent ${name}`);
  return row.id;
}

const auditRows = (database: Database) => database.db.select().from(adminAudit);
const userCount = async (database: Database) =>
  (await database.db.select({ id: users.id }).from(users)).length;

/**
 * The admin's accounts: single-agent accounts, the list, activation and roles,
 * each recorded in the audit. Two instances share the database and the shared state (PostgreSQL
 * and Redis in CI): what is done through one is in force on the other.
 */
describe('admin users', () => {
  let instances: Awaited<ReturnType<typeof createTwoInstances>>;
  let database: Database;
  let a: TestContext;
  let b: TestContext;
  let admin: Account;

  beforeAll(async () => {
    instances = await createTwoInstances({ without: NO_MONITOR, limits: LIMITS });
    ({ a, b, database } = instances);
    // The first account of a database is its admin.
    admin = await registerAndLogin(a, { name: 'Ana Admin' });
  });

  afterAll(async () => instances?.close());

  const createSingle = (body: Record<string, unknown>, language: Language = 'en-US') =>
    post(a, '/api/admin/users/single-agent', body, { token: admin.token, language });
  const setStatus = (
    ctx: TestContext,
    id: string,
    isActive: unknown,
    language: Language = 'en-US',
  ) => post(ctx, `/api/admin/users/${id}/status`, { isActive }, { token: admin.token, language });
  const setRole = (
    ctx: TestContext,
    id: string,
    role: unknown,
    token = admin.token,
    language: Language = 'en-US',
  ) => post(ctx, `/api/admin/users/${id}/role`, { role }, { token, language });
  const userOn = (ctx: TestContext, token: string) => get(ctx, '/api/user', { token });
  const signIn = (
    ctx: TestContext,
    account: { email: string; password: string },
    language: Language = 'en-US',
  ) => login(ctx, { identifier: account.email, password: account.password, language });
  const listUsers = async (query: string) => {
    const res = await get(a, `/api/admin/users?${query}`, {
      token: admin.token,
      language: 'en-US',
    });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<AdminUsersResponse>();
  };
  const latestAudit = async () =>
    (await get(a, '/api/admin/audit?limit=1', { token: admin.token })).json<AdminAuditResponse>()
      .entries[0]!;

  describe('single-agent accounts', () => {
    it('creates a verified user with exactly that agent: it signs in, cannot hire, and GET /api/user names its agent', async () => {
      const auxtrat = await agentId(database, 'auxtrat');
      const email = uniqueEmail('Loja.Centro');
      const res = await createSingle({
        name: '  Loja Centro  ',
        email,
        password: 'Loja-secret-1',
        agentId: auxtrat,
      });
      expect(res.statusCode, res.body).toBe(200);
      const created = res.json<AdminUserResponse>();
      expect(created).toEqual({
        success: true,
        message: message('en-US', 'adminUsers.created', { name: 'Loja Centro' }),
        user: {
          id: expect.any(String),
          name: 'Loja Centro',
          email: email.toLowerCase(),
          // Made from the e-mail as registration makes it.
          username: email.split('@')[0]!.toLowerCase(),
          role: 'user',
          originalRole: 'user',
          singleAgent: { id: auxtrat, name: 'auxtrat', displayName: 'Auxtrat' },
          createdAt: expect.any(String),
          lastSeenAt: null,
          isActive: true,
        },
      });

      // Signs in at once (no code to confirm), on either instance, and is told its agent.
      const signedIn = await signIn(b, { email, password: 'Loja-secret-1' });
      expect(signedIn.statusCode, signedIn.body).toBe(200);
      const { token, user } = signedIn.json<{ token: string; user: User }>();
      expect(user).toMatchObject({ id: created.user.id, role: 'user', singleAgentName: 'auxtrat' });
      expect((await userOn(a, token)).json<{ user: User }>().user.singleAgentName).toBe('auxtrat');

      // Exactly that agent, not even guia; nothing offered, and hiring refused.
      const hired = (await get(a, '/api/agents/user', { token })).json<{ agents: Agent[] }>()
        .agents;
      expect(hired.map((agent) => agent.name)).toEqual(['auxtrat']);
      expect(
        (await get(a, '/api/agents/available', { token })).json<{ agents: Agent[] }>().agents,
      ).toEqual([]);
      const hire = await post(
        a,
        '/api/agents/hire',
        { agentId: 'guia' },
        { token, language: 'es-ES' },
      );
      expect(hire.statusCode).toBe(403);
      expect(hire.json()).toEqual({
        success: false,
        message: message('es-ES', 'agents.singleAgent'),
      });
      expect(
        (await post(a, '/api/chat/message', { message: 'Oi', agentName: 'guia' }, { token }))
          .statusCode,
      ).toBe(403);

      // Its sign-in shows in the list as its last activity.
      const listed = (await listUsers(`search=${encodeURIComponent(email)}`)).users;
      expect(listed).toHaveLength(1);
      // The clock of these instances stands still: the sign-in was at its time.
      expect(listed[0]!.lastSeenAt).toBe(instances.clock.now().toISOString());
    });

    it('records the creation in the audit with who, the fields and the IP, never the password or its hash', async () => {
      const email = uniqueEmail('audited');
      const res = await createSingle({
        name: 'Audited Person',
        email,
        password: 'Very-secret-pass-9',
        agentId: 'assistente',
      });
      expect(res.statusCode, res.body).toBe(200);
      const { user } = res.json<AdminUserResponse>();

      const entry = await latestAudit();
      expect(entry).toMatchObject({
        actor: { id: admin.user.id, name: 'Ana Admin', email: admin.email },
        action: 'user.create',
        target: user.id,
        changes: {
          name: { before: null, after: 'Audited Person' },
          email: { before: null, after: email },
          username: { before: null, after: user.username },
          role: { before: null, after: 'user' },
          singleAgent: { before: null, after: 'assistente' },
          isActive: { before: null, after: true },
        },
      });
      expect(entry.ip).toBeTruthy();
      const [row] = await database.db
        .select({ hash: users.passwordHash })
        .from(users)
        .where(eq(users.id, user.id));
      const stored = JSON.stringify(await auditRows(database));
      expect(stored).not.toContain('Very-secret-pass-9');
      expect(stored).not.toContain(row!.hash);
      expect(stored).not.toMatch(/password/i);
    });

    it('derives a free username as registration does', async () => {
      const first = await createSingle({
        name: 'Sol Um',
        email: 'sol@um.example.com',
        password: DEFAULT_PASSWORD,
        agentId: 'guia',
      });
      const second = await createSingle({
        name: 'Sol Dois',
        email: 'SOL@dois.example.com',
        password: DEFAULT_PASSWORD,
        agentId: 'guia',
      });
      expect(first.json<AdminUserResponse>().user.username).toBe('sol');
      expect(second.json<AdminUserResponse>().user.username).toBe('sol2');
    });

    it('refuses an e-mail that has an account, in any case, with a field error, and makes nothing', async () => {
      const before = {
        users: await userCount(database),
        audit: (await auditRows(database)).length,
      };
      const res = await createSingle(
        {
          name: 'Copy',
          email: admin.email.toUpperCase(),
          password: DEFAULT_PASSWORD,
          agentId: 'guia',
        },
        'pt-BR',
      );
      expect(res.statusCode).toBe(409);
      const text = message('pt-BR', 'adminUsers.emailTaken');
      expect(res.json()).toEqual({ success: false, message: text, errors: { email: text } });
      expect({
        users: await userCount(database),
        audit: (await auditRows(database)).length,
      }).toEqual(before);
    });

    it.each([
      ['an unknown id', () => '00000000-0000-4000-8000-000000000000'],
      ['an unknown name', () => 'made-up'],
      ['an admin-only agent', () => 'administrador'],
      ['SQL in the id', () => "' or 1=1 --"],
    ])(
      'refuses %s as the agent with a field error on agentId, and makes nothing',
      async (_label, agent) => {
        const before = await userCount(database);
        const res = await createSingle(
          { name: 'Nobody', email: uniqueEmail(), password: DEFAULT_PASSWORD, agentId: agent() },
          'es-ES',
        );
        expect(res.statusCode).toBe(400);
        const text = message('es-ES', 'adminUsers.agentUnavailable');
        expect(res.json()).toEqual({ success: false, message: text, errors: { agentId: text } });
        expect(await userCount(database)).toBe(before);
      },
    );

    it('keeps a single-agent account and its agent together: no deactivating or deleting the agent under it, no admin role, no reactivation without it', async () => {
      const same = (text: string) => ({ 'pt-BR': text, 'en-US': text, 'es-ES': text });
      const created = await post(
        a,
        '/api/admin/agents',
        {
          name: `kiosk-${Date.now()}`,
          displayName: same('Kiosk'),
          description: same('Answers at the kiosk'),
          isActive: true,
          configuration: {
            instructions: '',
            welcomeMessage: same(''),
            model: { model: null, temperature: 0.3, maxReplyLength: 2000 },
            knowledge: [],
          },
        },
        { token: admin.token },
      );
      expect(created.statusCode, created.body).toBe(200);
      const kiosk = created.json<{ agent: { id: string; name: string } }>().agent;
      const email = uniqueEmail('kiosk');
      const account = (
        await createSingle({
          name: 'Kiosk Account',
          email,
          password: DEFAULT_PASSWORD,
          agentId: kiosk.id,
        })
      ).json<AdminUserResponse>().user;
      const agentCall = (
        ctx: TestContext,
        method: 'PATCH' | 'DELETE',
        language: Language = 'en-US',
      ) =>
        ctx.app.inject({
          method,
          url:
            method === 'PATCH'
              ? `/api/admin/agents/${kiosk.id}/status`
              : `/api/admin/agents/${kiosk.id}`,
          headers: { authorization: `Bearer ${admin.token}`, 'accept-language': language },
          ...(method === 'PATCH' ? { payload: { isActive: false } } : {}),
        });

      // The agent is all the account has: it stays, and the admin is told why, on either instance.
      const auditBefore = (await auditRows(database)).length;
      for (const [ctx, method, language] of [
        [a, 'PATCH', 'en-US'],
        [b, 'DELETE', 'pt-BR'],
      ] as const) {
        const refused = await agentCall(ctx, method, language);
        expect(refused.statusCode).toBe(400);
        const reason = message(language, 'agents.onlyAgentOfAccounts', { count: 1 });
        expect(refused.json()).toEqual(
          method === 'PATCH'
            ? {
                success: false,
                message: message(language, 'agents.statusFailed'),
                errors: { isActive: reason },
              }
            : { success: false, message: reason },
        );
      }
      expect((await auditRows(database)).length).toBe(auditBefore);
      const signedIn = (await signIn(a, { email, password: DEFAULT_PASSWORD })).json<{
        token: string;
      }>();
      expect(
        (await get(a, '/api/agents/user', { token: signedIn.token }))
          .json<{ agents: Agent[] }>()
          .agents.map((agent) => agent.name),
      ).toEqual([kiosk.name]);

      // It has no dashboard, catalogue or panel to administer from: it stays a user.
      const promoted = await setRole(b, account.id, 'admin', admin.token, 'es-ES');
      expect(promoted.statusCode).toBe(400);
      expect(promoted.json().message).toBe(message('es-ES', 'adminUsers.singleAgentNotAdmin'));
      expect((await userOn(a, signedIn.token)).json<{ user: User }>().user.role).toBe('user');

      // With the account off, the agent may go; the account then cannot come back without it.
      expect((await setStatus(a, account.id, false)).statusCode).toBe(200);
      expect((await agentCall(b, 'PATCH')).statusCode).toBe(200);
      const reactivated = await setStatus(a, account.id, true);
      expect(reactivated.statusCode).toBe(400);
      expect(reactivated.json().message).toBe(
        message('en-US', 'adminUsers.singleAgentInactive', { agent: kiosk.name }),
      );
      expect((await signIn(b, { email, password: DEFAULT_PASSWORD })).statusCode).toBe(403);
      expect(
        (await auditRows(database)).filter(
          (row) => row.target === account.id && row.action === 'user.status',
        ),
      ).toHaveLength(1);
    });

    it('refuses an agent deactivated while the account was being made: no account, no hire, no audit record', async () => {
      const indirect = await agentId(database, 'indirect');
      // Deactivated behind the catalogue's back: every instance still has it as active, so only
      // the check inside the creating transaction can see it.
      await database.db
        .update(agentsTable)
        .set({ isActive: false })
        .where(eq(agentsTable.id, indirect));
      try {
        const email = uniqueEmail('late');
        const before = {
          users: await userCount(database),
          audit: (await auditRows(database)).length,
        };
        const res = await createSingle({
          name: 'Too Late',
          email,
          password: DEFAULT_PASSWORD,
          agentId: indirect,
        });
        expect(res.statusCode).toBe(400);
        expect(res.json().errors).toEqual({
          agentId: message('en-US', 'adminUsers.agentUnavailable'),
        });
        expect({
          users: await userCount(database),
          audit: (await auditRows(database)).length,
        }).toEqual(before);
        expect((await signIn(a, { email, password: DEFAULT_PASSWORD })).statusCode).toBe(401);
      } finally {
        await database.db
          .update(agentsTable)
          .set({ isActive: true })
          .where(eq(agentsTable.id, indirect));
      }
    });

    it.each<[string, Record<string, unknown>, Record<string, string>]>([
      [
        'nothing',
        {},
        {
          name: 'validation.nameRequired',
          email: 'validation.emailRequired',
          password: 'validation.passwordRequired',
          agentId: 'validation.agentIdRequired',
        },
      ],
      ['a one-letter name', { name: ' A ' }, { name: 'validation.nameTooShort' }],
      ['a name of 101 characters', { name: 'x'.repeat(101) }, { name: 'validation.nameTooLong' }],
      ['an e-mail without a domain', { email: 'maria@' }, { email: 'validation.emailInvalid' }],
      [
        'an e-mail hiding a zero-width space',
        { email: 'ma\u200Bria@example.com' },
        { email: 'validation.emailInvalid' },
      ],
      [
        'a five-letter password',
        { password: '12345' },
        { password: 'validation.passwordTooShort' },
      ],
      [
        'a password of 129 characters',
        { password: 'p'.repeat(129) },
        { password: 'validation.passwordTooLong' },
      ],
      ['an empty agent', { agentId: '   ' }, { agentId: 'validation.agentIdRequired' }],
      [
        'an agent id of 101 characters',
        { agentId: 'a'.repeat(101) },
        { agentId: 'validation.agentIdInvalid' },
      ],
      ['a number as the agent', { agentId: 42 }, { agentId: 'validation.agentIdRequired' }],
    ])(
      "refuses %s with the field named in the caller's language",
      async (_label, change, expected) => {
        const body =
          Object.keys(change).length === 0
            ? {}
            : {
                name: 'Valid Name',
                email: uniqueEmail(),
                password: DEFAULT_PASSWORD,
                agentId: 'guia',
                ...change,
              };
        const res = await createSingle(body, 'pt-BR');
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({
          success: false,
          message: message('pt-BR', 'errors.validation'),
          errors: Object.fromEntries(
            Object.entries(expected).map(([field, key]) => [field, message('pt-BR', key)]),
          ),
        });
      },
    );

    it('refuses a body that tries to choose the role, a NUL character, and a body over 1 MB', async () => {
      const valid = {
        name: 'Valid Name',
        email: uniqueEmail(),
        password: DEFAULT_PASSWORD,
        agentId: 'guia',
      };
      const before = await userCount(database);
      expect((await createSingle({ ...valid, role: 'admin' })).statusCode).toBe(400);
      expect((await createSingle({ ...valid, name: 'Nul\u0000Name' })).statusCode).toBe(400);
      const huge = await createSingle({ ...valid, name: 'x'.repeat(1024 * 1024) });
      expect(huge.statusCode).toBe(413);
      expect(huge.json()).toMatchObject({ success: false });
      expect(await userCount(database)).toBe(before);
    });

    it('keeps hostile text as text: markup in the name comes back as it was written', async () => {
      const name = '<img src=x onerror=alert(1)> "Robert\'); DROP TABLE users;--';
      const res = await createSingle({
        name,
        email: uniqueEmail('bobby'),
        password: DEFAULT_PASSWORD,
        agentId: 'guia',
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<AdminUserResponse>().user.name).toBe(name);
      expect(
        (await listUsers(`search=${encodeURIComponent('DROP TABLE')}`)).users.map((u) => u.name),
      ).toEqual([name]);
    });
  });

  describe('GET /api/admin/users', () => {
    let made: AdminUser[];

    beforeAll(async () => {
      // Six accounts sharing a marker, made one after the other: the newest last.
      made = [];
      for (const [i, name] of [
        'Zeta Um',
        'Zeta Dois',
        'Zeta Três',
        'Zeta 100% Quatro',
        'Zeta_Cinco',
        'Zeta Seis',
      ].entries()) {
        const res = await createSingle({
          name,
          email: `zeta.person${i}@zeta-list.example.com`,
          password: DEFAULT_PASSWORD,
          agentId: 'guia',
        });
        expect(res.statusCode, res.body).toBe(200);
        made.push(res.json<AdminUserResponse>().user);
      }
    });

    it('lists the accounts newest first, a page at a time, with the total', async () => {
      const all = await listUsers('search=zeta-list');
      expect(all.total).toBe(6);
      expect(all.users.map((u) => u.name)).toEqual([...made].reverse().map((u) => u.name));
      expect(all.users[0]).toEqual(made.at(-1));

      const page = await listUsers('search=zeta-list&limit=2&offset=2');
      expect(page.total).toBe(6);
      expect(page.users.map((u) => u.name)).toEqual(['Zeta 100% Quatro', 'Zeta Três']);
      expect(
        (await listUsers('search=zeta-list&limit=5&offset=5')).users.map((u) => u.name),
      ).toEqual(['Zeta Um']);
      expect((await listUsers('search=zeta-list&offset=6')).users).toEqual([]);

      // Without a search: every account, 20 a page by default, the admin among them.
      const first = await listUsers('');
      expect(first.total).toBe(await userCount(database));
      expect(first.users.length).toBe(Math.min(20, first.total));
      const everyone = await listUsers('limit=100');
      expect(everyone.users.find((u) => u.id === admin.user.id)).toMatchObject({
        role: 'admin',
        originalRole: 'admin',
        singleAgent: null,
        isActive: true,
      });
    });

    it('searches name, e-mail and username, in any case and accents as written', async () => {
      expect((await listUsers('search=ZETA%20TR%C3%8AS')).users.map((u) => u.name)).toEqual([
        'Zeta Três',
      ]);
      expect((await listUsers('search=zeta.person1%40')).users.map((u) => u.name)).toEqual([
        'Zeta Dois',
      ]);
      expect((await listUsers(`search=${made[5]!.username}`)).users.map((u) => u.name)).toEqual([
        'Zeta Seis',
      ]);
      expect((await listUsers('search=%20%20zeta%20seis%20%20')).users.map((u) => u.name)).toEqual([
        'Zeta Seis',
      ]);
    });

    it('takes % and _ in a search as the characters themselves', async () => {
      expect((await listUsers('search=100%25')).users.map((u) => u.name)).toEqual([
        'Zeta 100% Quatro',
      ]);
      expect((await listUsers('search=zeta_')).users.map((u) => u.name)).toEqual(['Zeta_Cinco']);
      expect((await listUsers('search=%25%25%25')).total).toBe(0);
      expect((await listUsers('search=%5C')).total).toBe(0);
    });

    it.each([
      ['limit=0', 'limit'],
      ['limit=101', 'limit'],
      ['limit=two', 'limit'],
      ['limit=1.5', 'limit'],
      ['offset=-1', 'offset'],
      [`search=${'x'.repeat(201)}`, 'search'],
      ['search=a&search=b', 'search'],
    ])('refuses ?%s with 400 on that field', async (query, field) => {
      const res = await get(a, `/api/admin/users?${query}`, {
        token: admin.token,
        language: 'en-US',
      });
      expect(res.statusCode).toBe(400);
      expect(Object.keys(res.json<{ errors: Record<string, string> }>().errors)).toEqual([field]);
    });
  });

  describe('POST /api/admin/users/{id}/status', () => {
    it('deactivating ends every session at once on every instance and refuses the sign-in; reactivating lets it sign in again', async () => {
      const account = await registerAndLogin(a, { name: 'Carla' });
      const other = (await signIn(b, account)).json<{ token: string }>().token;
      // Both sessions cached on both instances.
      for (const ctx of [a, b])
        for (const token of [account.token, other])
          expect((await userOn(ctx, token)).statusCode).toBe(200);

      const res = await setStatus(a, account.user.id, false);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json<AdminUserResponse>()).toMatchObject({
        success: true,
        message: message('en-US', 'adminUsers.deactivated', { name: 'Carla' }),
        user: { id: account.user.id, isActive: false },
      });
      expect((await userOn(a, account.token)).statusCode).toBe(401);
      expect((await userOn(a, other)).statusCode).toBe(401);
      await eventually(
        async () =>
          (await userOn(b, account.token)).statusCode === 401 &&
          (await userOn(b, other)).statusCode === 401,
        'B refuses both sessions',
      );

      for (const [ctx, language] of [
        [a, 'pt-BR'],
        [b, 'es-ES'],
        [b, 'en-US'],
      ] as const) {
        const refused = await signIn(ctx, account, language);
        expect(refused.statusCode).toBe(403);
        expect(refused.json()).toEqual({
          success: false,
          message: message(language, 'auth.accountDisabled'),
        });
      }
      // The wrong password is still only a wrong password: the answer tells a stranger nothing.
      expect((await signIn(a, { ...account, password: 'not-the-password' })).statusCode).toBe(401);

      expect(await latestAudit()).toMatchObject({
        action: 'user.status',
        target: account.user.id,
        changes: { isActive: { before: true, after: false } },
      });

      const back = await setStatus(b, account.user.id, true);
      expect(back.json<AdminUserResponse>()).toMatchObject({
        message: message('en-US', 'adminUsers.activated', { name: 'Carla' }),
        user: { isActive: true },
      });
      const again = await signIn(b, account);
      expect(again.statusCode).toBe(200);
      expect((await userOn(a, again.json<{ token: string }>().token)).statusCode).toBe(200);
      // The sessions it had stay ended.
      expect((await userOn(a, account.token)).statusCode).toBe(401);
    });

    it('a deactivated account gets nothing from a session that escaped the revocation, nor from a password reset', async () => {
      const account = await registerAndLogin(a, { name: 'Davi' });
      expect((await setStatus(a, account.user.id, false)).statusCode).toBe(200);

      // A sign-in that raced the deactivation could leave a live session behind: it is refused all the same.
      await database.db
        .update(sessions)
        .set({ revokedAt: null })
        .where(eq(sessions.userId, account.user.id));
      expect((await userOn(b, account.token)).statusCode).toBe(401);

      const since = a.smtp.messages.length;
      expect((await post(a, '/api/forgot-password', { email: account.email })).statusCode).toBe(
        200,
      );
      const code = codeFromMail(await a.smtp.waitForMail(account.email, { since }));
      const reset = await post(
        a,
        '/api/reset-password',
        {
          email: account.email,
          otp: code,
          password: 'Brand-new-pass-1',
          confirmPassword: 'Brand-new-pass-1',
        },
        { language: 'pt-BR' },
      );
      expect(reset.statusCode).toBe(403);
      expect(reset.json()).toEqual({
        success: false,
        message: message('pt-BR', 'auth.accountDisabled'),
      });
      // The old password is still the one, and it still opens nothing.
      expect((await signIn(a, { ...account, password: 'Brand-new-pass-1' })).statusCode).toBe(401);
      expect((await signIn(a, account)).statusCode).toBe(403);
    });

    it('changes nothing and records nothing when the account already is so', async () => {
      const account = await registerAndLogin(a, { name: 'Elisa' });
      const audits = (await auditRows(database)).length;
      const res = await setStatus(a, account.user.id, true);
      expect(res.statusCode).toBe(200);
      expect(res.json<AdminUserResponse>().user.isActive).toBe(true);
      expect((await auditRows(database)).length).toBe(audits);
      expect((await userOn(b, account.token)).statusCode).toBe(200);
    });

    it('refuses an admin deactivating themselves, in their language', async () => {
      const res = await setStatus(a, admin.user.id, false, 'pt-BR');
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        success: false,
        message: message('pt-BR', 'adminUsers.selfDeactivate'),
      });
      expect((await userOn(b, admin.token)).statusCode).toBe(200);
    });

    it.each([
      ['an unknown id', '00000000-0000-4000-8000-000000000000', 404],
      ['an id that is no id', 'not-a-user', 404],
      ['SQL in the id', encodeURIComponent("1' or '1'='1"), 404],
      ["an id over the router's limit", 'x'.repeat(300), 414],
    ])('answers %s with %i', async (_label, id, status) => {
      const res = await setStatus(a, id, false, 'es-ES');
      expect(res.statusCode).toBe(status);
      if (status === 404)
        expect(res.json()).toEqual({
          success: false,
          message: message('es-ES', 'adminUsers.notFound'),
        });
    });

    it.each([['yes'], [1], [null]])('refuses isActive = %j with 400', async (value) => {
      const res = await setStatus(a, admin.user.id, value);
      expect(res.statusCode).toBe(400);
      expect(res.json().errors).toEqual({
        isActive: message('en-US', 'validation.booleanRequired'),
      });
    });
  });

  describe('POST /api/admin/users/{id}/role', () => {
    it('makes a user an admin and back, ending its sessions each time on every instance', async () => {
      const account = await registerAndLogin(a, { name: 'Fábio' });
      expect((await userOn(b, account.token)).statusCode).toBe(200);

      const promoted = await setRole(a, account.user.id, 'admin');
      expect(promoted.statusCode, promoted.body).toBe(200);
      expect(promoted.json<AdminUserResponse>()).toMatchObject({
        message: message('en-US', 'adminUsers.madeAdmin', { name: 'Fábio' }),
        user: { role: 'admin', originalRole: 'admin' },
      });
      expect(await latestAudit()).toMatchObject({
        action: 'user.role',
        target: account.user.id,
        changes: {
          role: { before: 'user', after: 'admin' },
          originalRole: { before: 'user', after: 'admin' },
        },
      });
      await eventually(
        async () => (await userOn(b, account.token)).statusCode === 401,
        'B refuses the old session',
      );

      // Signed in again, it is an admin: the admin routes open on both instances.
      const asAdmin = (await signIn(a, account)).json<{ token: string; user: User }>();
      expect(asAdmin.user).toMatchObject({ role: 'admin', originalRole: 'admin' });
      expect((await get(b, '/api/admin/users', { token: asAdmin.token })).statusCode).toBe(200);

      const demoted = await setRole(b, account.user.id, 'user');
      expect(demoted.json<AdminUserResponse>()).toMatchObject({
        message: message('en-US', 'adminUsers.madeUser', { name: 'Fábio' }),
        user: { role: 'user', originalRole: 'user' },
      });
      await eventually(
        async () => (await userOn(a, asAdmin.token)).statusCode === 401,
        'A refuses the admin session',
      );
      const asUser = (await signIn(b, account)).json<{ token: string }>().token;
      expect((await get(a, '/api/admin/users', { token: asUser })).statusCode).toBe(403);
    });

    it('makes an admin in user mode an admin in both, and changes nothing when the account already has the role', async () => {
      const account = await registerAndLogin(a, { name: 'Gabi' });
      await setRole(a, account.user.id, 'admin');
      const session = (await signIn(a, account)).json<{ token: string }>().token;
      const inUserMode = (
        await post(a, '/api/switch-role', { targetRole: 'user' }, { token: session })
      ).json<{ token: string }>().token;

      const audits = (await auditRows(database)).length;
      // In user mode it is made an admin in both, mode and origin: a change, which ends its session.
      const same = await setRole(a, account.user.id, 'admin');
      expect(same.json<AdminUserResponse>().user).toMatchObject({
        role: 'admin',
        originalRole: 'admin',
      });
      expect((await latestAudit()).changes).toEqual({ role: { before: 'user', after: 'admin' } });
      expect((await auditRows(database)).length).toBe(audits + 1);
      expect((await userOn(a, inUserMode)).statusCode).toBe(401);

      const relogged = (await signIn(a, account)).json<{ token: string }>().token;
      const unchanged = await setRole(a, account.user.id, 'admin');
      expect(unchanged.json<AdminUserResponse>().user).toMatchObject({
        role: 'admin',
        originalRole: 'admin',
      });
      expect((await auditRows(database)).length).toBe(audits + 1);
      expect((await userOn(a, relogged)).statusCode).toBe(200);

      await setRole(a, account.user.id, 'user');
      expect((await userOn(a, relogged)).statusCode).toBe(401);
    });

    it('refuses an admin demoting themselves', async () => {
      const res = await setRole(a, admin.user.id, 'user', admin.token, 'es-ES');
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        success: false,
        message: message('es-ES', 'adminUsers.selfDemote'),
      });
      expect((await get(b, '/api/admin/users', { token: admin.token })).statusCode).toBe(200);
    });

    it('refuses an unknown account (404), an unknown role and a missing one (400)', async () => {
      expect((await setRole(a, '00000000-0000-4000-8000-000000000000', 'admin')).statusCode).toBe(
        404,
      );
      expect((await setRole(a, 'nobody', 'admin')).json()).toEqual({
        success: false,
        message: message('en-US', 'adminUsers.notFound'),
      });
      for (const role of ['root', 'ADMIN', undefined]) {
        const res = await setRole(a, admin.user.id, role);
        expect(res.statusCode).toBe(400);
        expect(Object.keys(res.json().errors)).toEqual(['role']);
      }
    });
  });

  describe('GET /api/admin/audit', () => {
    it('lists the changes newest first, a page at a time, with the actor and the total', async () => {
      const account = await registerAndLogin(a, { name: 'Helena' });
      await setStatus(a, account.user.id, false);
      await setStatus(a, account.user.id, true);
      await setRole(a, account.user.id, 'admin');

      const res = await get(b, '/api/admin/audit?limit=3', { token: admin.token });
      expect(res.statusCode).toBe(200);
      const { entries, total } = res.json<AdminAuditResponse>();
      expect(total).toBe((await auditRows(database)).length);
      expect(entries.map((e) => [e.action, e.changes])).toEqual([
        [
          'user.role',
          {
            role: { before: 'user', after: 'admin' },
            originalRole: { before: 'user', after: 'admin' },
          },
        ],
        ['user.status', { isActive: { before: false, after: true } }],
        ['user.status', { isActive: { before: true, after: false } }],
      ]);
      for (const entry of entries) {
        expect(entry).toMatchObject({
          actor: { id: admin.user.id, name: 'Ana Admin', email: admin.email },
          target: account.user.id,
          // Named as the account is called, never a bare id.
          targetName: `Helena (${account.email})`,
        });
        expect(Date.parse(entry.at)).not.toBeNaN();
      }
      expect(Date.parse(entries[0]!.at)).toBeGreaterThanOrEqual(Date.parse(entries[2]!.at));

      const next = (
        await get(a, '/api/admin/audit?limit=2&offset=1', { token: admin.token })
      ).json<AdminAuditResponse>();
      expect(next.entries.map((e) => e.id)).toEqual(entries.slice(1, 3).map((e) => e.id));
      expect(next.total).toBe(total);
      expect(
        (
          await get(a, `/api/admin/audit?offset=${total}`, { token: admin.token })
        ).json<AdminAuditResponse>().entries,
      ).toEqual([]);
    });

    it.each(['limit=0', 'limit=101', 'offset=-1', 'limit=abc'])(
      'refuses ?%s with 400',
      async (query) => {
        expect((await get(a, `/api/admin/audit?${query}`, { token: admin.token })).statusCode).toBe(
          400,
        );
      },
    );
  });
});

/**
 * The last administrator: whatever the order of requests, at least one active administrator
 * remains. A database of its own, where who is an admin changes.
 */
describe('admin users: the last administrator', () => {
  let ctx: TestContext;
  let first: Account;

  beforeAll(async () => {
    ctx = await createTestApp({ without: NO_MONITOR, limits: LIMITS });
    first = await registerAndLogin(ctx, { name: 'First Admin' });
  });

  afterAll(async () => ctx?.close());

  const changeRole = (id: string, role: string, token: string) =>
    post(ctx, `/api/admin/users/${id}/role`, { role }, { token, language: 'pt-BR' });
  const signedIn = async (account: Account): Promise<Account> => {
    const res = await login(ctx, { identifier: account.email, password: account.password });
    expect(res.statusCode, res.body).toBe(200);
    return { ...account, token: res.json<{ token: string }>().token };
  };

  /** Another admin, made one by `by`, signed in again as such. */
  async function anotherAdmin(by: Account, name: string): Promise<Account> {
    const account = await registerAndLogin(ctx, { name });
    expect((await changeRole(account.user.id, 'admin', by.token)).statusCode).toBe(200);
    return signedIn(account);
  }

  const activeAdminIds = async () =>
    (
      await ctx.database.db
        .select({ id: users.id, role: users.originalRole, active: users.isActive })
        .from(users)
    )
      .filter((u) => u.role === 'admin' && u.active)
      .map((u) => u.id);

  it('refuses to demote, deactivate or delete the last active admin, even for an admin whose own account was just deactivated', async () => {
    const second = await anotherAdmin(first, 'Second Admin');
    // The first admin's account deactivated behind its caches' backs (as by a change committing
    // while this request is under way): its session still passes, but it no longer counts, so
    // the second is the last active admin.
    await ctx.database.db.update(users).set({ isActive: false }).where(eq(users.id, first.user.id));
    try {
      for (const [path, body] of [
        ['role', { role: 'user' }],
        ['status', { isActive: false }],
      ] as const) {
        const res = await post(ctx, `/api/admin/users/${second.user.id}/${path}`, body, {
          token: first.token,
          language: 'pt-BR',
        });
        expect(res.statusCode, path).toBe(400);
        expect(res.json()).toEqual({
          success: false,
          message: message('pt-BR', 'adminUsers.lastAdmin'),
        });
      }
      expect(await activeAdminIds()).toEqual([second.user.id]);
      // Nor can it delete its own account while it is the last active one.
      const deletion = await post(
        ctx,
        '/api/account/delete',
        { password: second.password },
        { token: second.token, language: 'en-US' },
      );
      expect(deletion.statusCode).toBe(409);
      expect(deletion.json().message).toBe(message('en-US', 'account.lastAdmin'));
    } finally {
      await ctx.database.db
        .update(users)
        .set({ isActive: true })
        .where(eq(users.id, first.user.id));
      await ctx.app.forgetUser(first.user.id);
    }
    // With two active admins, the first demotes the second.
    expect((await changeRole(second.user.id, 'user', first.token)).statusCode).toBe(200);
    expect(await activeAdminIds()).toEqual([first.user.id]);
  });

  it('of two admins demoting each other at the same moment, one wins and one admin remains', async () => {
    const third = await anotherAdmin(first, 'Third Admin');
    const results = await Promise.all([
      changeRole(third.user.id, 'user', first.token),
      changeRole(first.user.id, 'user', third.token),
    ]);
    const statuses = results.map((r) => r.statusCode).sort();
    // The loser is refused as the last admin; or, when its request came after the winner's
    // change ended its session, as signed out; or, when it came after the commit but before its
    // instance forgot the session (sessions are forgotten once committed, then the user), as the
    // user it now is: its session still cached, its account read anew. Never both changed.
    expect([
      [200, 400],
      [200, 401],
      [200, 403],
    ]).toContainEqual(statuses);
    const remaining = await activeAdminIds();
    expect(remaining).toHaveLength(1);
    first = remaining[0] === first.user.id ? await signedIn(first) : await signedIn(third);
  });

  it('names a deleted actor as null in the audit, and keeps its entries', async () => {
    const leaving = await anotherAdmin(first, 'Leaving Admin');
    const someone = await registerAndLogin(ctx, { name: 'Someone' });
    expect(
      (
        await post(
          ctx,
          `/api/admin/users/${someone.user.id}/status`,
          { isActive: false },
          { token: leaving.token },
        )
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await post(
          ctx,
          '/api/account/delete',
          { password: leaving.password },
          { token: leaving.token },
        )
      ).statusCode,
    ).toBe(200);

    const { entries } = (
      await get(ctx, '/api/admin/audit?limit=100', { token: first.token })
    ).json<AdminAuditResponse>();
    expect(
      entries.find((e) => e.action === 'user.status' && e.target === someone.user.id),
    ).toMatchObject({
      actor: null,
      changes: { isActive: { before: true, after: false } },
    });
    // The entries of the admin still there keep their actor.
    expect(
      entries.find((e) => e.action === 'user.role' && e.target === leaving.user.id)?.actor,
    ).toMatchObject({ id: first.user.id });
  });
});
