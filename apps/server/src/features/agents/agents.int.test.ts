import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  Agent,
  ConversationSummary,
  Language,
  SeededAgentName,
  SendMessageResponse,
} from '@contrateia/shared';
import { eq } from 'drizzle-orm';
import { createTestApp, type TestContext, NO_MONITOR } from '../../../test/helpers';
import { get, post, registerAndLogin, UNLIMITED_ROUTES } from '../../../test/factories';
import { createTranslator } from '@/lib/i18n';
import { users } from '@/features/auth/auth.table';
import { markAgentEdited } from './agents.repository';
import { loadSeededAgents, type SeededAgent } from './agents.seed';
import { agents as agentsTable } from './agents.table';

const SEEDS = new Map(loadSeededAgents().map((agent) => [agent.name, agent]));
const seedOf = (name: SeededAgentName): SeededAgent => SEEDS.get(name)!;

describe('agents: catalogue and hiring', () => {
  let ctx: TestContext;
  let admin: Awaited<ReturnType<typeof registerAndLogin>>;
  let user: Awaited<ReturnType<typeof registerAndLogin>>;

  beforeAll(async () => {
    ctx = await createTestApp({ without: NO_MONITOR, limits: { routes: UNLIMITED_ROUTES } });
    admin = await registerAndLogin(ctx, { name: 'Ana Admin' }); // the first account is the admin
    user = await registerAndLogin(ctx, { name: 'Bruno' });
  });
  afterAll(async () => ctx.close());

  const names = (agents: Agent[]) => agents.map((a) => a.name).sort();

  it('seeds the five agents, and every new account has guia hired', async () => {
    const rows = await ctx.database.db.select().from(agentsTable);
    expect(rows.map((r) => r.name).sort()).toEqual([
      'administrador',
      'assistente',
      'auxtrat',
      'guia',
      'indirect',
    ]);
    // Each stored as its seed file has it: names, texts, instructions, welcome, knowledge.
    for (const row of rows) {
      const seed = seedOf(row.name as SeededAgentName);
      expect(row).toMatchObject({
        seedVersion: seed.seedVersion,
        adminOnly: seed.adminOnly,
        isActive: true,
        editedAt: null,
      });
      expect(row.displayName).toEqual(seed.displayName);
      expect(row.description).toEqual(seed.description);
      expect(row.configuration).toEqual(seed.configuration);
    }
    const res = await get(ctx, '/api/agents/user', { token: user.token, language: 'en-US' });
    expect(res.statusCode).toBe(200);
    const hired = res.json<{ agents: Agent[] }>().agents;
    expect(names(hired)).toEqual(['guia']);
    expect(hired[0]).toMatchObject({ isHired: true, isActive: true });
    expect(Object.keys(hired[0]!).sort()).toEqual([
      'configuration',
      'createdAt',
      'description',
      'displayName',
      'id',
      'isActive',
      'isHired',
      'name',
    ]);
    // Instructions and knowledge stay on the server.
    expect(Object.keys(hired[0]!.configuration)).toEqual(['welcomeMessage']);
  });

  it('gives texts in the caller language', async () => {
    const [pt, es] = await Promise.all([
      get(ctx, '/api/agents/user', { token: user.token, language: 'pt-BR' }),
      get(ctx, '/api/agents/user', { token: user.token, language: 'es-ES' }),
    ]);
    const guiaPt = pt.json<{ agents: Agent[] }>().agents[0]!;
    const guiaEs = es.json<{ agents: Agent[] }>().agents[0]!;
    expect(guiaPt.configuration.welcomeMessage).not.toBe(guiaEs.configuration.welcomeMessage);
  });

  it('offers administrador to admins only', async () => {
    const forUser = await get(ctx, '/api/agents/available', { token: user.token });
    expect(names(forUser.json<{ agents: Agent[] }>().agents)).toEqual([
      'assistente',
      'auxtrat',
      'indirect',
    ]);
    const forAdmin = await get(ctx, '/api/agents/available', { token: admin.token });
    expect(names(forAdmin.json<{ agents: Agent[] }>().agents)).toEqual([
      'administrador',
      'assistente',
      'auxtrat',
      'indirect',
    ]);
    for (const agent of forAdmin.json<{ agents: Agent[] }>().agents)
      expect(agent.isHired).toBe(false);
  });

  it('hires an agent, idempotently, moving it from available to hired', async () => {
    const available = (await get(ctx, '/api/agents/available', { token: user.token })).json<{
      agents: Agent[];
    }>().agents;
    const auxtrat = available.find((a) => a.name === 'auxtrat')!;
    const first = await post(
      ctx,
      '/api/agents/hire',
      { agentId: auxtrat.id },
      { token: user.token, language: 'en-US' },
    );
    expect(first.statusCode).toBe(200);
    expect(first.json()).toMatchObject({
      success: true,
      agent: { name: 'auxtrat', isHired: true },
    });
    const again = await post(
      ctx,
      '/api/agents/hire',
      { agentId: auxtrat.id },
      { token: user.token },
    );
    expect(again.statusCode).toBe(200);
    const hired = (await get(ctx, '/api/agents/user', { token: user.token })).json<{
      agents: Agent[];
    }>().agents;
    expect(names(hired)).toEqual(['auxtrat', 'guia']);
    const left = (await get(ctx, '/api/agents/available', { token: user.token })).json<{
      agents: Agent[];
    }>().agents;
    expect(names(left)).toEqual(['assistente', 'indirect']);
  });

  it('refuses unknown, inactive and admin-only agents', async () => {
    const unknown = await post(
      ctx,
      '/api/agents/hire',
      { agentId: '00000000-0000-4000-8000-000000000000' },
      { token: user.token, language: 'en-US' },
    );
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ success: false, message: 'Agent not found' });

    const [administrador] = await ctx.database.db
      .select()
      .from(agentsTable)
      .where(eq(agentsTable.name, 'administrador'));
    const forbidden = await post(
      ctx,
      '/api/agents/hire',
      { agentId: administrador!.id },
      { token: user.token },
    );
    expect(forbidden.statusCode).toBe(403);
    expect(
      (await post(ctx, '/api/agents/hire', { agentId: administrador!.id }, { token: admin.token }))
        .statusCode,
    ).toBe(200);

    // The catalogue is cached: an app started after the change sees it (as after an admin edit).
    await ctx.database.db
      .update(agentsTable)
      .set({ isActive: false })
      .where(eq(agentsTable.name, 'indirect'));
    const second = await createTestApp({
      without: NO_MONITOR,
      database: ctx.database,
      limits: { routes: UNLIMITED_ROUTES },
    });
    try {
      const someone = await registerAndLogin(second);
      const available = (
        await get(second, '/api/agents/available', { token: someone.token })
      ).json<{ agents: Agent[] }>().agents;
      expect(names(available)).not.toContain('indirect');
      const [indirect] = await ctx.database.db
        .select()
        .from(agentsTable)
        .where(eq(agentsTable.name, 'indirect'));
      const inactive = await post(
        second,
        '/api/agents/hire',
        { agentId: indirect!.id },
        { token: someone.token, language: 'en-US' },
      );
      expect(inactive.statusCode).toBe(400);
      expect(inactive.json().message).toBe('This agent is not available right now');
    } finally {
      await second.close();
      await ctx.database.db
        .update(agentsTable)
        .set({ isActive: true })
        .where(eq(agentsTable.name, 'indirect'));
    }
  });

  it('refuses hiring to an account made for a single agent (403), and offers it nothing', async () => {
    const single = await registerAndLogin(ctx, { name: 'Solo' });
    await ctx.database.db
      .update(users)
      .set({ singleAgentName: 'guia' })
      .where(eq(users.id, single.user.id));
    const available = await get(ctx, '/api/agents/available', { token: single.token });
    expect(available.json<{ agents: Agent[] }>().agents).toEqual([]);
    const res = await post(
      ctx,
      '/api/agents/hire',
      { agentId: 'auxtrat' },
      { token: single.token, language: 'en-US' },
    );
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe('Your account works with one agent only');
  });

  it('answers 400 for a missing agentId and 401 without a token', async () => {
    const missing = await post(
      ctx,
      '/api/agents/hire',
      {},
      { token: user.token, language: 'en-US' },
    );
    expect(missing.statusCode).toBe(400);
    expect(missing.json().errors.agentId).toBe('Agent is required');
    expect((await get(ctx, '/api/agents/user')).statusCode).toBe(401);
    expect((await post(ctx, '/api/agents/hire', { agentId: 'guia' })).statusCode).toBe(401);
  });
});

describe('agents: an admin in user mode is a user for every agent', () => {
  let ctx: TestContext;
  let admin: Awaited<ReturnType<typeof registerAndLogin>>;

  beforeAll(async () => {
    ctx = await createTestApp({ without: NO_MONITOR, limits: { routes: UNLIMITED_ROUTES } });
    admin = await registerAndLogin(ctx, { name: 'Ana Admin' }); // the first account is the admin
  });
  afterAll(async () => ctx.close());

  const names = (res: { json: <T>() => T }) =>
    res
      .json<{ agents: Agent[] }>()
      .agents.map((a) => a.name)
      .sort();
  const conversationIds = (res: { json: <T>() => T }) =>
    res.json<{ conversations: ConversationSummary[] }>().conversations.map((c) => c.id);
  async function switchTo(token: string, targetRole: 'admin' | 'user'): Promise<string> {
    const res = await post(ctx, '/api/switch-role', { targetRole }, { token });
    expect(res.statusCode).toBe(200);
    return res.json<{ token: string }>().token;
  }
  const ask = (token: string, body: Record<string, unknown> = {}) =>
    post(
      ctx,
      '/api/chat/message',
      { message: 'How many users are there?', agentName: 'administrador', ...body },
      { token, language: 'en-US' },
    );
  const conversation = (token: string, method: 'GET' | 'PATCH' | 'DELETE', id: string) =>
    ctx.app.inject({
      method,
      url: `/api/chat/conversations/${id}`,
      headers: {
        authorization: `Bearer ${token}`,
        'accept-language': 'en-US',
        ...(method === 'PATCH' ? { 'content-type': 'application/json' } : {}),
      },
      ...(method === 'PATCH' ? { payload: JSON.stringify({ title: 'Figures' }) } : {}),
    });

  it('refuses administrador in user mode as for any user, and gives it back in admin mode', async () => {
    // In admin mode: hired, and a conversation with it that holds live figures.
    expect(
      (await post(ctx, '/api/agents/hire', { agentId: 'administrador' }, { token: admin.token }))
        .statusCode,
    ).toBe(200);
    const first = await ask(admin.token);
    expect(first.statusCode).toBe(200);
    const { id } = first.json<SendMessageResponse>().conversation;

    const asUser = await switchTo(admin.token, 'user');
    const noAccess = { success: false, message: "You don't have access to this agent" };

    // Chat: a new conversation, the one from admin mode, the dashboard's short form, streamed or not.
    for (const res of [
      await ask(asUser),
      await ask(asUser, { conversationId: id }),
      await post(
        ctx,
        '/api/chat',
        { message: 'How many users are there?', agentName: 'administrador' },
        { token: asUser, language: 'en-US' },
      ),
      await ctx.app.inject({
        method: 'POST',
        url: '/api/chat/message',
        payload: JSON.stringify({
          message: 'How many users are there?',
          agentName: 'administrador',
        }),
        headers: {
          authorization: `Bearer ${asUser}`,
          'content-type': 'application/json',
          accept: 'text/event-stream',
          'accept-language': 'en-US',
        },
      }),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual(noAccess);
    }

    // Its conversations, and what was said in them, are out of reach too.
    expect(
      conversationIds(
        await get(ctx, '/api/chat/conversations?agentName=administrador', { token: asUser }),
      ),
    ).toEqual([]);
    expect(
      conversationIds(await get(ctx, '/api/chat/conversations', { token: asUser })),
    ).not.toContain(id);
    for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
      const res = await conversation(asUser, method, id);
      expect(res.statusCode, method).toBe(403);
      expect(res.json()).toEqual(noAccess);
    }

    // Neither hired nor on offer, and not counted among the hired.
    expect(names(await get(ctx, '/api/agents/user', { token: asUser }))).toEqual(['guia']);
    expect(names(await get(ctx, '/api/agents/available', { token: asUser }))).not.toContain(
      'administrador',
    );
    expect(
      (await post(ctx, '/api/agents/hire', { agentId: 'administrador' }, { token: asUser }))
        .statusCode,
    ).toBe(403);
    expect((await get(ctx, '/api/stats', { token: asUser })).json()).toMatchObject({
      hiredAgents: 1,
    });

    // Back in admin mode, all of it works again, the conversation included.
    const asAdmin = await switchTo(asUser, 'admin');
    expect(names(await get(ctx, '/api/agents/user', { token: asAdmin }))).toEqual([
      'administrador',
      'guia',
    ]);
    expect((await get(ctx, '/api/stats', { token: asAdmin })).json()).toMatchObject({
      hiredAgents: 2,
    });
    expect(
      conversationIds(
        await get(ctx, '/api/chat/conversations?agentName=administrador', { token: asAdmin }),
      ),
    ).toEqual([id]);
    expect((await conversation(asAdmin, 'GET', id)).statusCode).toBe(200);
    const again = await ask(asAdmin, { conversationId: id });
    expect(again.statusCode).toBe(200);
    expect(again.json<SendMessageResponse>().message.text).toBe('There is 1 registered user.');
  });
});

describe('agents: seed versions reach existing databases', () => {
  let ctx: TestContext;
  const rowOf = async (name: SeededAgentName) =>
    (await ctx.database.db.select().from(agentsTable).where(eq(agentsTable.name, name)))[0];
  /** Rewrites a stored agent as an older release (or an admin) might have left it. */
  const store = (
    name: SeededAgentName,
    change: Partial<typeof agentsTable.$inferInsert> & { instructions?: string },
  ) => {
    const { instructions, ...columns } = change;
    const configuration = {
      ...seedOf(name).configuration,
      ...(instructions ? { instructions } : {}),
    };
    return ctx.database.db
      .update(agentsTable)
      .set({ configuration, ...columns })
      .where(eq(agentsTable.name, name));
  };

  beforeAll(async () => {
    ctx = await createTestApp({ without: NO_MONITOR, limits: { routes: UNLIMITED_ROUTES } });
    // A database as an older release left it, then a start of this one on it.
    await store('guia', {
      seedVersion: seedOf('guia').seedVersion - 1,
      instructions: 'Old guide.',
      isActive: false,
    });
    await store('assistente', {
      seedVersion: null,
      instructions: 'Before versions.',
      displayName: { 'pt-BR': 'A', 'en-US': 'A', 'es-ES': 'A' },
    });
    await store('auxtrat', {
      seedVersion: seedOf('auxtrat').seedVersion - 1,
      instructions: "The admin's own.",
    });
    const auxtrat = await rowOf('auxtrat');
    await markAgentEdited({
      db: ctx.database.db,
      agentId: auxtrat!.id,
      at: new Date('2026-01-02T03:04:05Z'),
    });
    await store('indirect', { instructions: 'Changed in place, same version.' });
    await ctx.database.db.delete(agentsTable).where(eq(agentsTable.name, 'administrador'));
    const next = await createTestApp({
      without: NO_MONITOR,
      database: ctx.database,
      limits: { routes: UNLIMITED_ROUTES },
    });
    await next.close();
  });
  afterAll(async () => ctx.close());

  it('updates a seeded agent whose stored version is older than its file, but not whether it is active', async () => {
    for (const name of ['guia', 'assistente'] as const) {
      const row = await rowOf(name);
      const seed = seedOf(name);
      expect(row).toMatchObject({
        seedVersion: seed.seedVersion,
        displayName: seed.displayName,
        description: seed.description,
        adminOnly: seed.adminOnly,
        configuration: seed.configuration,
        editedAt: null,
      });
    }
    expect((await rowOf('guia'))!.isActive).toBe(false);
  });

  it('leaves an agent an admin has edited as the admin left it', async () => {
    const row = await rowOf('auxtrat');
    expect(row!.configuration.instructions).toBe("The admin's own.");
    expect(row!.seedVersion).toBe(seedOf('auxtrat').seedVersion - 1);
    expect(row!.editedAt?.toISOString()).toBe('2026-01-02T03:04:05.000Z');
  });

  it('does not rewrite an agent whose version is current', async () => {
    const row = await rowOf('indirect');
    expect(row!.configuration.instructions).toBe('Changed in place, same version.');
    expect(row!.seedVersion).toBe(seedOf('indirect').seedVersion);
  });

  it('adds a seeded agent that is missing, at its version', async () => {
    const row = await rowOf('administrador');
    expect(row).toMatchObject({
      seedVersion: seedOf('administrador').seedVersion,
      adminOnly: true,
      isActive: true,
      editedAt: null,
    });
    expect(row!.configuration).toEqual(seedOf('administrador').configuration);
  });
});

// The seeded content, end to end: each agent, asked typical questions in each language through
// the chat API, answers from its own seed file. (The engine's behaviour is tested with small
// fixtures in features/ai; this checks the texts we ship.)
describe('the seeded agents answer from their data', () => {
  let ctx: TestContext;
  let admin: Awaited<ReturnType<typeof registerAndLogin>>;
  const translate = createTranslator();

  beforeAll(async () => {
    ctx = await createTestApp({
      without: NO_MONITOR,
      limits: { routes: UNLIMITED_ROUTES, chat: { points: 10_000, durationSeconds: 60 } },
    });
    admin = await registerAndLogin(ctx, { name: 'Ana Admin' }); // the first account, so an admin
    for (const name of ['assistente', 'auxtrat', 'administrador', 'indirect']) {
      expect(
        (await post(ctx, '/api/agents/hire', { agentId: name }, { token: admin.token })).statusCode,
      ).toBe(200);
    }
  });
  afterAll(async () => ctx.close());

  type Expected =
    | { entry: string } // the knowledge entry with this topic id, in the question's language
    | { item: string; price: RegExp } // the catalogue item with this id, with its price
    | { list: true } // the whole catalogue
    | { text: string } // exactly this
    | { engine: string }; // the engine's own sentence (engine.*), at the start

  it.each<[SeededAgentName, Language, string, Expected]>([
    ['guia', 'pt-BR', 'como conecto meu whatsapp?', { entry: 'guia.whatsapp' }],
    ['guia', 'pt-BR', 'COMO CONECTO MEU WHATSAPP', { entry: 'guia.whatsapp' }],
    ['guia', 'pt-BR', 'conectar whatsap', { entry: 'guia.whatsapp' }],
    ['guia', 'pt-BR', 'como contrato um agente?', { entry: 'guia.hire' }],
    ['guia', 'pt-BR', 'quero trocar o idioma', { entry: 'guia.language' }],
    ['guia', 'pt-BR', 'idiona', { entry: 'guia.language' }],
    ['guia', 'pt-BR', 'como saio da conta', { entry: 'guia.signout' }],
    ['guia', 'pt-BR', 'nao recebi o codigo de verificacao', { entry: 'guia.register' }],
    ['guia', 'pt-BR', 'como limpo a conversa?', { entry: 'guia.clear' }],
    ['guia', 'pt-BR', 'o que é o sincronizar agente?', { entry: 'guia.auxtrat' }],
    [
      'guia',
      'pt-BR',
      'como desligo a IA de uma conversa do whatsapp',
      { entry: 'guia.whatsappConversations' },
    ],
    ['guia', 'pt-BR', 'como alterno para o modo usuário?', { entry: 'guia.roleMode' }],
    ['guia', 'pt-BR', 'Oi guia, tudo bem? Como envio uma mensagem?', { entry: 'guia.chat' }],
    ['guia', 'en-US', 'how do I hire an agent', { entry: 'guia.hire' }],
    ['guia', 'en-US', 'hiring an agemt', { entry: 'guia.hire' }],
    ['guia', 'en-US', 'How do I connect my WhatsApp?', { entry: 'guia.whatsapp' }],
    ['guia', 'en-US', 'change language', { entry: 'guia.language' }],
    ['guia', 'en-US', 'how do I sign out', { entry: 'guia.signout' }],
    ['guia', 'en-US', "I didn't get the verification code", { entry: 'guia.register' }],
    ['guia', 'en-US', 'where is the admin panel?', { entry: 'guia.admin' }],
    ['guia', 'en-US', 'how do I switch to user mode', { entry: 'guia.roleMode' }],
    ['guia', 'es-ES', '¿cómo cambio el idioma?', { entry: 'guia.language' }],
    ['guia', 'es-ES', 'idiona', { entry: 'guia.language' }],
    ['guia', 'es-ES', '¿Cómo conecto mi WhatsApp?', { entry: 'guia.whatsapp' }],
    ['guia', 'es-ES', 'conectar whatsap', { entry: 'guia.whatsapp' }],
    ['guia', 'es-ES', 'quiero contratar un agente', { entry: 'guia.hire' }],
    ['guia', 'es-ES', '¿cómo me registro?', { entry: 'guia.register' }],
    ['guia', 'es-ES', 'cómo limpio el chat', { entry: 'guia.clear' }],
    ['guia', 'es-ES', 'cerrar sesion', { entry: 'guia.signout' }],
    [
      'auxtrat',
      'pt-BR',
      'quanto custa a consultoria?',
      { item: 'consulting', price: /R\$\s1\.800,00 \(por mês\)/ },
    ],
    [
      'auxtrat',
      'pt-BR',
      'qual o preço do site institucional?',
      { item: 'website', price: /R\$\s2\.400,00 \(pagamento único\)/ },
    ],
    [
      'auxtrat',
      'en-US',
      'how much is the consulting?',
      { item: 'consulting', price: /R\$1,800\.00 \(per month\)/ },
    ],
    [
      'auxtrat',
      'en-US',
      'how much does payroll cost?',
      { item: 'payroll', price: /R\$45\.00 \(per employee, per month\)/ },
    ],
    [
      'auxtrat',
      'es-ES',
      '¿cuánto cuesta la consultoría?',
      { item: 'consulting', price: /1800,00\sR\$ \(al mes\)/ },
    ],
    [
      'auxtrat',
      'es-ES',
      'precio del registro de marca',
      { item: 'trademark', price: /1350,00\sR\$ \(pago único\)/ },
    ],
    ['auxtrat', 'pt-BR', 'quais serviços vocês oferecem?', { list: true }],
    ['auxtrat', 'en-US', 'what services do you offer?', { list: true }],
    ['auxtrat', 'es-ES', '¿qué productos tienen?', { list: true }],
    ['auxtrat', 'en-US', 'do you sell used cars?', { engine: 'notFound' }],
    ['administrador', 'pt-BR', 'quantos usuários temos?', { text: 'Há 1 usuário cadastrado.' }],
    [
      'administrador',
      'en-US',
      'how many users are there?',
      { text: 'There is 1 registered user.' },
    ],
    ['administrador', 'es-ES', '¿cuántos usuarios hay?', { text: 'Hay 1 usuario registrado.' }],
    // Counted from the database in the caller's zone: the one account was registered this week.
    [
      'administrador',
      'en-US',
      'how many users this week?',
      { text: '1 account was registered this week.' },
    ],
    ['administrador', 'pt-BR', 'onde vejo os logs?', { entry: 'administrador.logs' }],
    ['administrador', 'en-US', 'how do I configure openai?', { entry: 'administrador.model' }],
    ['administrador', 'es-ES', '¿dónde veo los logs?', { entry: 'administrador.logs' }],
    [
      'administrador',
      'pt-BR',
      'qual é o número da plataforma no whatsapp?',
      { entry: 'administrador.platform' },
    ],
    [
      'administrador',
      'en-US',
      'which is the platform number?',
      { entry: 'administrador.platform' },
    ],
    ['assistente', 'pt-BR', 'por que suas respostas são limitadas?', { entry: 'assistente.model' }],
    ['assistente', 'en-US', 'why are your answers so limited?', { entry: 'assistente.model' }],
    [
      'assistente',
      'es-ES',
      '¿por qué tus respuestas son limitadas?',
      { entry: 'assistente.model' },
    ],
    ['assistente', 'pt-BR', 'quanto é 2 + 3 * (4 - 1)?', { text: '2 + 3 × (4 - 1) = **11**' }],
    ['assistente', 'en-US', 'write me a poem about the sea', { engine: 'cannotYet' }],
    ['indirect', 'pt-BR', 'a mensagem é anônima?', { entry: 'indirect.how' }],
    // A send request, answered before the engine: no platform number is connected here.
    [
      'indirect',
      'en-US',
      'send "miss you" to +55 11 98765-4321',
      { text: translate('en-US')('whatsappServer.relay.unavailable') },
    ],
    [
      'indirect',
      'es-ES',
      '¿cuándo estará disponible el envío?',
      { entry: 'indirect.availability' },
    ],
  ])('%s, %s: %s', async (name, language, question, expected) => {
    const res = await post(
      ctx,
      '/api/chat/message',
      { message: question, agentName: name },
      { token: admin.token, language },
    );
    expect(res.statusCode).toBe(200);
    const text = res.json<SendMessageResponse>().message.text;
    const { configuration } = seedOf(name);
    const t = translate(language);
    if ('entry' in expected) {
      const entry = configuration.knowledge.find((e) => e.id === `${expected.entry}.${language}`);
      if (!entry) throw new Error(`no entry ${expected.entry}.${language}`);
      expect(text).toContain(`**${entry.title}**\n\n${entry.content}`);
      if (entry.link) expect(text).toContain(`[${entry.link}](${entry.link})`);
    } else if ('item' in expected) {
      const item = configuration.catalogue!.items.find((i) => i.id === expected.item)!;
      expect(
        text.startsWith(`**${item.name[language]}**\n\n${item.description[language]}\n\n`),
      ).toBe(true);
      expect(text).toMatch(expected.price);
    } else if ('list' in expected) {
      const items = configuration.catalogue!.items;
      // The sample catalogue: ten services and two monthly plans.
      expect(items).toHaveLength(12);
      expect(text.startsWith(t('engine.catalogue.intro'))).toBe(true);
      for (const item of items) expect(text).toContain(`- ${item.name[language]}`);
    } else if ('text' in expected) {
      expect(text).toBe(expected.text);
    } else {
      // An honest refusal, which does not quote the question back.
      expect(text.startsWith(t(`engine.${expected.engine}`)), text).toBe(true);
    }
  });
});
