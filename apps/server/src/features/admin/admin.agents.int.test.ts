import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import {
  KNOWLEDGE_ENTRIES_MAX,
  type AdminAgent,
  type AdminAgentResponse,
  type AdminChatTestResponse,
  type Agent,
  type ConversationSummary,
  type CreateAgentInput,
  type Language,
  type SendMessageResponse,
  type UpdateAgentInput,
  type WhatsAppConversationDetail,
  type WhatsAppStatus,
  type AdminAuditResponse,
} from '@contrateia/shared';
import {
  createTestApp,
  createTwoInstances,
  routesOf,
  type TestContext,
  NO_MONITOR,
} from '../../../test/helpers';
import { eventually } from '../../../test/eventually';
import {
  expectAdminOnly,
  get,
  message,
  post,
  registerAndLogin,
  UNLIMITED_ROUTES,
} from '../../../test/factories';
import { startFakeOpenAI, type FakeOpenAI } from '../../../test/fake-openai';
import { repliesOf } from '../../../test/replies';
import { chooseAnsweringAgent, linkSandbox } from '../../../test/whatsapp';
import { agents as agentsTable } from '@/features/agents/agents.table';
import { conversations } from '@/features/chat/chat.table';
import type { Db } from '@/db/client';
import { adminAudit } from '@/features/audit/audit.table';
import { listAudit } from '@/features/audit/audit.service';

type Account = Awaited<ReturnType<typeof registerAndLogin>>;
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
type Options = { token?: string; language?: Language };

/** Any request as the web client sends it: JSON when there is a body. */
function call(
  ctx: TestContext,
  method: Method,
  url: string,
  body?: unknown,
  { token, language }: Options = {},
): Promise<LightMyRequestResponse> {
  return ctx.app.inject({
    method,
    url,
    ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(language ? { 'accept-language': language } : {}),
    },
  });
}

let names = 0;
/** An agent name no other test of this file uses. */
const uniqueName = (prefix = 'agente') => `${prefix}-${++names}`;

const same = (text: string) => ({ 'pt-BR': text, 'en-US': text, 'es-ES': text });

/**
 * A custom agent that knows the shop's opening hours, in each language: what a user's question
 * must be answered from.
 */
function newAgent(name: string, changes: Partial<CreateAgentInput> = {}): CreateAgentInput {
  return {
    name,
    displayName: { 'pt-BR': 'Loja da Rua', 'en-US': 'Street Shop', 'es-ES': 'Tienda de la Calle' },
    description: {
      'pt-BR': 'Responde sobre a loja',
      'en-US': 'Answers about the shop',
      'es-ES': 'Responde sobre la tienda',
    },
    configuration: {
      instructions: 'You answer questions about the Street Shop, briefly and kindly.',
      welcomeMessage: {
        'pt-BR': 'Olá! Pergunte sobre a loja.',
        'en-US': 'Hi! Ask about the shop.',
        'es-ES': '¡Hola! Pregunta por la tienda.',
      },
      model: { model: null, temperature: 0.3, maxReplyLength: 2000 },
      knowledge: [
        {
          language: 'es-ES',
          title: 'Horario de atención',
          content: 'Atendemos de lunes a viernes, de 8 a 17 horas, en la tienda de la calle Mayor.',
          keywords: ['horario', 'abierto', 'atención'],
        },
        {
          language: 'en-US',
          title: 'Opening hours',
          content: 'We are open Monday to Friday, 8 am to 5 pm, at the High Street shop.',
          keywords: ['hours', 'open', 'opening'],
        },
        {
          language: 'pt-BR',
          title: 'Horário de atendimento',
          content: 'Atendemos de segunda a sexta, das 8h às 17h, na loja da Rua Direita.',
          keywords: ['horário', 'aberto', 'atendimento'],
          link: '/dashboard',
        },
      ],
    },
    isActive: true,
    ...changes,
  };
}

/** The body of an edit that leaves the agent as it is, but for `changes`. */
function editOf(agent: AdminAgent, changes: Partial<UpdateAgentInput> = {}): UpdateAgentInput {
  return {
    displayName: agent.displayName,
    description: agent.description,
    configuration: agent.configuration,
    isActive: agent.isActive,
    ...changes,
  };
}

async function createAgent(
  ctx: TestContext,
  admin: Account,
  body: CreateAgentInput,
): Promise<AdminAgent> {
  const res = await post(ctx, '/api/admin/agents', body, { token: admin.token });
  if (res.statusCode !== 200) throw new Error(`create ${body.name}: ${res.statusCode} ${res.body}`);
  return res.json<AdminAgentResponse>().agent;
}

async function adminAgents(ctx: TestContext, admin: Account): Promise<AdminAgent[]> {
  const res = await get(ctx, '/api/admin/agents', { token: admin.token });
  expect(res.statusCode).toBe(200);
  return res.json<{ agents: AdminAgent[] }>().agents;
}

const agentNamed = async (ctx: TestContext, admin: Account, name: string) =>
  (await adminAgents(ctx, admin)).find((a) => a.name === name)!;

const listOf = (res: LightMyRequestResponse) =>
  res.json<{ agents: Agent[] }>().agents.map((a) => a.name);

async function hire(ctx: TestContext, account: Account, agentId: string) {
  const res = await post(ctx, '/api/agents/hire', { agentId }, { token: account.token });
  expect(res.statusCode).toBe(200);
}

function chat(
  ctx: TestContext,
  account: Account,
  body: { message: string; agentName: string; conversationId?: string },
  language: Language = 'en-US',
) {
  return post(ctx, '/api/chat/message', body, { token: account.token, language });
}

function testChat(
  ctx: TestContext,
  admin: Account,
  body: Record<string, unknown>,
  language: Language = 'en-US',
) {
  return post(ctx, '/api/admin/chat/test', body, { token: admin.token, language });
}

const auditCount = async (db: Db) => (await db.select().from(adminAudit)).length;
const agentRows = async (db: Db) => (await db.select().from(agentsTable)).length;
const latestAudit = async (db: Db) => (await listAudit({ db, limit: 1, offset: 0 }))[0];

describe('admin agent management', () => {
  let instances: Awaited<ReturnType<typeof createTwoInstances>>;
  let a: TestContext;
  let b: TestContext;
  /** The database both instances use. */
  let db: Db;
  let admin: Account;
  let member: Account;

  beforeAll(async () => {
    // Two instances behind one load balancer: one database and one shared state.
    instances = await createTwoInstances({
      without: NO_MONITOR,
      limits: { routes: UNLIMITED_ROUTES, chat: { points: 10_000, durationSeconds: 60 } },
    });
    ({ a, b } = instances);
    db = instances.database.db;
    admin = await registerAndLogin(a, { name: 'Ana Admin' }); // the first account is the admin
    member = await registerAndLogin(a, { name: 'Bruno' });
  });
  afterAll(async () => instances?.close());

  describe('access', () => {
    let target: AdminAgent | undefined;
    /** The agent the access checks edit: one of their own, made once. */
    const targetAgent = async () =>
      (target ??= await createAgent(a, admin, newAgent(uniqueName('access-target'))));
    /** Every route of the agent management, with a request an admin would have answered. */
    const ROUTES: {
      method: Method;
      pattern: string;
      url: () => Promise<string>;
      body?: () => unknown;
    }[] = [
      { method: 'GET', pattern: '/api/admin/agents', url: async () => '/api/admin/agents' },
      {
        method: 'POST',
        pattern: '/api/admin/agents',
        url: async () => '/api/admin/agents',
        body: () => newAgent(uniqueName('access')),
      },
      {
        method: 'PUT',
        pattern: '/api/admin/agents/:id',
        url: async () => `/api/admin/agents/${(await targetAgent()).id}`,
        body: () => editOf(target!),
      },
      {
        method: 'PATCH',
        pattern: '/api/admin/agents/:id/status',
        url: async () => `/api/admin/agents/${(await targetAgent()).id}/status`,
        body: () => ({ isActive: true }),
      },
      // A new agent for each call: the admin's own call deletes it.
      {
        method: 'DELETE',
        pattern: '/api/admin/agents/:id',
        url: async () =>
          `/api/admin/agents/${(await createAgent(a, admin, newAgent(uniqueName('gone')))).id}`,
      },
      {
        method: 'POST',
        pattern: '/api/admin/chat/test',
        url: async () => '/api/admin/chat/test',
        body: () => ({ message: 'Olá', agentName: 'guia' }),
      },
    ];

    it('covers every agent-management route the app has', () => {
      const ours = routesOf(a).filter((route) => / \/api\/admin\/(agents|chat)/.test(route));
      expect(ours.sort()).toEqual(ROUTES.map((r) => `${r.method} ${r.pattern}`).sort());
    });

    describe.each(ROUTES)('$method $pattern', (route) => {
      it("answers 401 without a session, 403 to a user and to an admin in user mode, in the caller's language", async () => {
        const url = await route.url();
        const body = route.body?.();
        await expectAdminOnly(a, {
          admin,
          member,
          send: (options) => call(a, route.method, url, body, options),
        });
      });
    });

    it('refuses a user before reading the body: what the routes accept is not told to them', async () => {
      const res = await post(
        a,
        '/api/admin/agents',
        { name: 'Not A Slug' },
        { token: member.token },
      );
      expect(res.statusCode).toBe(403);
      expect(res.json().errors).toBeUndefined();
    });
  });

  describe('the list', () => {
    it('holds every agent, inactive ones too, the seeded ones marked, with hires and conversations counted', async () => {
      const lister = await registerAndLogin(a, { name: 'Carla' });
      const custom = await createAgent(
        a,
        admin,
        newAgent(uniqueName('listed'), { isActive: true }),
      );
      const dormant = await createAgent(
        a,
        admin,
        newAgent(uniqueName('dormant'), { isActive: false }),
      );
      await hire(a, lister, custom.id);
      const before = await agentNamed(a, admin, custom.name);
      expect(before).toMatchObject({
        hires: 1,
        conversations: 0,
        seeded: false,
        adminOnly: false,
        isActive: true,
        editedAt: null,
      });
      expect(
        (await chat(a, lister, { message: 'What are your opening hours?', agentName: custom.name }))
          .statusCode,
      ).toBe(200);
      // A test chat is not a conversation of anyone's.
      expect(
        (
          await testChat(a, admin, {
            message: 'What are your opening hours?',
            agentName: custom.name,
          })
        ).statusCode,
      ).toBe(200);

      const agents = await adminAgents(a, admin);
      expect(agents.find((x) => x.id === custom.id)).toMatchObject({ hires: 1, conversations: 1 });
      expect(agents.find((x) => x.id === dormant.id)).toMatchObject({
        isActive: false,
        hires: 0,
        conversations: 0,
      });
      const seeded = agents
        .filter((x) => x.seeded)
        .map((x) => x.name)
        .sort();
      expect(seeded).toEqual(['administrador', 'assistente', 'auxtrat', 'guia', 'indirect']);
      // Every account has guia hired.
      expect(agents.find((x) => x.name === 'guia')!.hires).toBeGreaterThanOrEqual(3);
      // The whole configuration, for the editor: guia's knowledge, auxtrat's catalogue.
      expect(agents.find((x) => x.name === 'guia')!.configuration.knowledge.length).toBeGreaterThan(
        10,
      );
      expect(agents.find((x) => x.name === 'auxtrat')!.configuration.catalogue?.currency).toBe(
        'BRL',
      );
    });
  });

  describe('creation', () => {
    it("creates an agent users can hire at once, says so in the admin's language, and records it in the audit", async () => {
      const name = uniqueName('loja');
      const res = await post(a, '/api/admin/agents', newAgent(name), {
        token: admin.token,
        language: 'pt-BR',
      });
      expect(res.statusCode).toBe(200);
      const { agent, message: said } = res.json<AdminAgentResponse>();
      expect(said).toBe('Agente Loja da Rua criado');
      expect(agent).toMatchObject({
        name,
        isActive: true,
        seeded: false,
        hires: 0,
        conversations: 0,
        editedAt: null,
      });
      // Entries written without an id get one each, suffixed by their language as the seeded ones are.
      const ids = agent.configuration.knowledge.map((entry) => entry.id);
      expect(new Set(ids).size).toBe(3);
      for (const entry of agent.configuration.knowledge)
        expect(entry.id.endsWith(`.${entry.language}`)).toBe(true);
      expect(agent.configuration.knowledge[2]!.link).toBe('/dashboard');

      // On the other instance within moments.
      const offeredOnB = async () =>
        (await get(b, '/api/agents/available', { token: member.token, language: 'es-ES' }))
          .json<{ agents: Agent[] }>()
          .agents.find((x) => x.name === name);
      await eventually(
        async () => (await offeredOnB()) !== undefined,
        'B offers the new agent',
        1_000,
      );
      expect(await offeredOnB()).toMatchObject({
        displayName: 'Tienda de la Calle',
        isActive: true,
        configuration: { welcomeMessage: '¡Hola! Pregunta por la tienda.' },
      });

      const entry = await latestAudit(db);
      expect(entry).toMatchObject({
        actorId: admin.user.id,
        action: 'agent.create',
        target: agent.id,
      });
      expect(entry!.changes.name).toEqual({ before: null, after: name });
      expect(entry!.changes.displayName).toEqual({
        before: null,
        after: newAgent(name).displayName,
      });
      expect(entry!.ip).toBeTruthy();
      // The panel's list names the agent in the admin's language, not by its id.
      const listed = (
        await get(b, '/api/admin/audit?limit=1', { token: admin.token, language: 'es-ES' })
      ).json<AdminAuditResponse>().entries[0];
      expect(listed).toMatchObject({
        action: 'agent.create',
        target: agent.id,
        targetName: 'Tienda de la Calle',
      });
    });

    it('keeps a display name with markup as plain text', async () => {
      const hostile = '<script>alert(1)</script><img src=x onerror=alert(2)>';
      const agent = await createAgent(
        a,
        admin,
        newAgent(uniqueName('markup'), {
          displayName: same(hostile),
          description: same('<b>bold</b> & "quoted"'),
        }),
      );
      expect(agent.displayName['en-US']).toBe(hostile);
      const offered = (await get(a, '/api/agents/available', { token: member.token })).json<{
        agents: Agent[];
      }>().agents;
      expect(offered.find((x) => x.id === agent.id)).toMatchObject({
        displayName: hostile,
        description: '<b>bold</b> & "quoted"',
      });
      const res = await get(a, '/api/agents/available', { token: member.token });
      expect(res.headers['content-type']).toContain('application/json');
    });

    it("links knowledge only to pages of the app: its pages, an existing agent's page, its own", async () => {
      const other = await createAgent(a, admin, newAgent(uniqueName('linked')));
      const name = uniqueName('linker');
      const knowledge = ['/whatsapp', '/guia', `/agent/${other.name}`, `/agent/${name}`].map(
        (link, index) => ({
          language: 'en-US' as const,
          title: `Page ${index}`,
          content: 'See the page.',
          link,
        }),
      );
      const agent = await createAgent(
        a,
        admin,
        newAgent(name, { configuration: { ...newAgent(name).configuration, knowledge } }),
      );
      expect(agent.configuration.knowledge.map((entry) => entry.link)).toEqual(
        knowledge.map((entry) => entry.link),
      );
    });

    it('needs its texts in Portuguese only: the other languages left blank use them, and the name is made from the display name', async () => {
      const { name: _name, ...unnamed } = newAgent('unused');
      const portugueseOnly = {
        ...unnamed,
        displayName: { 'pt-BR': 'Loja da Praça', 'en-US': '', 'es-ES': '  ' },
        description: { 'pt-BR': 'Responde sobre a loja da praça' },
      };
      const first = await createAgent(a, admin, portugueseOnly as CreateAgentInput);
      expect(first).toMatchObject({
        name: 'loja-da-praca',
        displayName: {
          'pt-BR': 'Loja da Praça',
          'en-US': 'Loja da Praça',
          'es-ES': 'Loja da Praça',
        },
        description: {
          'pt-BR': 'Responde sobre a loja da praça',
          'en-US': 'Responde sobre a loja da praça',
          'es-ES': 'Responde sobre a loja da praça',
        },
      });
      // The same display name again, an empty name sent: the next free one.
      const second = await createAgent(a, admin, {
        ...portugueseOnly,
        name: '',
      } as CreateAgentInput);
      expect(second.name).toBe('loja-da-praca-2');
    });

    it("refuses every failure with 400 'Failed to create agent' and the field's own message, in the caller's language, storing nothing", async () => {
      const taken = await createAgent(a, admin, newAgent(uniqueName('taken')));
      const base = newAgent('never-stored');
      const withKnowledge = (knowledge: unknown[]) => ({
        ...base,
        configuration: { ...base.configuration, knowledge },
      });
      const entry = { language: 'en-US', title: 'Hours', content: 'Open all day.' };
      const cases: { body: unknown; field: string; key: string }[] = [
        { body: { ...base, name: taken.name }, field: 'name', key: 'validation.agentNameTaken' },
        { body: { ...base, name: 'guia' }, field: 'name', key: 'validation.agentNameTaken' },
        {
          body: { ...base, name: 'admin' },
          field: 'name',
          key: 'adminValidation.agentNameReserved',
        },
        {
          body: { ...base, name: 'dashboard' },
          field: 'name',
          key: 'adminValidation.agentNameReserved',
        },
        { body: { ...base, name: 'Loja Nova' }, field: 'name', key: 'validation.agentNameInvalid' },
        {
          body: { ...base, name: '<script>alert(1)</script>' },
          field: 'name',
          key: 'validation.agentNameInvalid',
        },
        { body: { ...base, name: 'x' }, field: 'name', key: 'validation.agentNameInvalid' },
        {
          body: { ...base, name: 'a'.repeat(41) },
          field: 'name',
          key: 'validation.agentNameInvalid',
        },
        {
          body: { ...base, displayName: { 'en-US': 'Shop', 'es-ES': 'Tienda' } },
          field: 'displayName.pt-BR',
          key: 'adminValidation.displayNameRequired',
        },
        {
          body: { ...base, displayName: { ...base.displayName, 'pt-BR': '   ' } },
          field: 'displayName.pt-BR',
          key: 'adminValidation.displayNameRequired',
        },
        {
          body: { ...base, description: { ...base.description, 'pt-BR': '' } },
          field: 'description.pt-BR',
          key: 'adminValidation.descriptionRequired',
        },
        {
          body: { ...base, displayName: { ...base.displayName, 'en-US': 'x'.repeat(81) } },
          field: 'displayName.en-US',
          key: 'adminValidation.displayNameTooLong',
        },
        {
          body: { ...base, description: same('d'.repeat(301)) },
          field: 'description.pt-BR',
          key: 'adminValidation.descriptionTooLong',
        },
        {
          body: { ...base, isActive: 'yes' },
          field: 'isActive',
          key: 'validation.booleanRequired',
        },
        {
          body: withKnowledge([{ ...entry, link: 'https://evil.example/phish' }]),
          field: 'configuration.knowledge.0.link',
          key: 'validation.knowledgeLinkInvalid',
        },
        {
          body: withKnowledge([entry, { ...entry, link: 'javascript:alert(1)' }]),
          field: 'configuration.knowledge.1.link',
          key: 'validation.knowledgeLinkInvalid',
        },
        {
          body: withKnowledge([{ ...entry, link: '//evil.example' }]),
          field: 'configuration.knowledge.0.link',
          key: 'validation.knowledgeLinkInvalid',
        },
        {
          body: withKnowledge([{ ...entry, link: '/admin-secret' }]),
          field: 'configuration.knowledge.0.link',
          key: 'validation.knowledgeLinkInvalid',
        },
        {
          body: withKnowledge([{ ...entry, link: '/agent/nobody-has-this' }]),
          field: 'configuration.knowledge.0.link',
          key: 'validation.knowledgeLinkInvalid',
        },
        {
          body: withKnowledge([{ ...entry, link: '/dashboard?next=//evil.example' }]),
          field: 'configuration.knowledge.0.link',
          key: 'validation.knowledgeLinkInvalid',
        },
        {
          body: withKnowledge([
            { ...entry, id: 'same' },
            { ...entry, id: 'same' },
          ]),
          field: 'configuration.knowledge.1.id',
          key: 'adminValidation.idRepeated',
        },
        {
          body: withKnowledge([{ ...entry, content: 'x'.repeat(4001) }]),
          field: 'configuration.knowledge.0.content',
          key: 'adminValidation.knowledgeContentTooLong',
        },
        {
          body: withKnowledge([{ ...entry, title: '' }]),
          field: 'configuration.knowledge.0.title',
          key: 'validation.titleRequired',
        },
        {
          body: withKnowledge([{ ...entry, language: 'fr-FR' }]),
          field: 'configuration.knowledge.0.language',
          key: 'validation.languageInvalid',
        },
        {
          body: withKnowledge(
            Array.from({ length: KNOWLEDGE_ENTRIES_MAX + 1 }, (_, i) => ({
              ...entry,
              title: `Entry ${i}`,
            })),
          ),
          field: 'configuration.knowledge',
          key: 'adminValidation.knowledgeTooMany',
        },
        {
          body: {
            ...base,
            configuration: { ...base.configuration, instructions: 'i'.repeat(8001) },
          },
          field: 'configuration.instructions',
          key: 'adminValidation.instructionsTooLong',
        },
      ];
      const rows = await agentRows(db);
      const audits = await auditCount(db);
      for (const { body, field, key } of cases) {
        const res = await post(a, '/api/admin/agents', body, {
          token: admin.token,
          language: 'es-ES',
        });
        expect(res.statusCode, `${field}: ${res.body.slice(0, 200)}`).toBe(400);
        expect(res.json().message).toBe(message('es-ES', 'agents.createFailed'));
        expect(res.json().errors[field], field).toBe(message('es-ES', key));
      }
      // An unknown field is refused too (the schema is strict), as is a body that is not an agent.
      const unknown = await post(
        a,
        '/api/admin/agents',
        { ...base, adminOnly: true },
        { token: admin.token, language: 'en-US' },
      );
      expect(unknown.statusCode).toBe(400);
      expect(unknown.json().message).toBe('Failed to create agent');
      expect((await post(a, '/api/admin/agents', [], { token: admin.token })).statusCode).toBe(400);
      expect(await agentRows(db)).toBe(rows);
      expect(await auditCount(db)).toBe(audits);
    });

    it('validates the catalogue: currency, prices, units, repeated items, and its size', async () => {
      const auxtrat = await agentNamed(a, admin, 'auxtrat');
      const catalogue = auxtrat.configuration.catalogue!;
      const item = catalogue.items[0]!;
      const base = newAgent('never-sold', {
        configuration: {
          ...newAgent('x').configuration,
          capabilities: { skills: ['catalogue'], fallback: 'notFound' },
          catalogue,
        },
      });
      const withCatalogue = (changes: object) => ({
        ...base,
        configuration: { ...base.configuration, catalogue: { ...catalogue, ...changes } },
      });
      const cases: { body: unknown; field: string; key: string }[] = [
        {
          body: withCatalogue({ currency: 'real' }),
          field: 'configuration.catalogue.currency',
          key: 'adminValidation.currencyInvalid',
        },
        {
          body: withCatalogue({ items: [{ ...item, price: -1 }] }),
          field: 'configuration.catalogue.items.0.price',
          key: 'adminValidation.priceInvalid',
        },
        {
          body: withCatalogue({ items: [{ ...item, price: 1e12 }] }),
          field: 'configuration.catalogue.items.0.price',
          key: 'adminValidation.priceInvalid',
        },
        {
          body: withCatalogue({ items: [{ ...item, price: '10' }] }),
          field: 'configuration.catalogue.items.0.price',
          key: 'adminValidation.priceInvalid',
        },
        {
          body: withCatalogue({ items: [{ ...item, unit: 'year' }] }),
          field: 'configuration.catalogue.items.0.unit',
          key: 'validation.invalidValue',
        },
        {
          body: withCatalogue({ items: [item, item] }),
          field: 'configuration.catalogue.items.1.id',
          key: 'adminValidation.idRepeated',
        },
        {
          body: withCatalogue({ items: [{ ...item, id: 'has space' }] }),
          field: 'configuration.catalogue.items.0.id',
          key: 'adminValidation.catalogueItemIdInvalid',
        },
        {
          body: withCatalogue({ items: [{ ...item, name: { ...item.name, 'pt-BR': '' } }] }),
          field: 'configuration.catalogue.items.0.name.pt-BR',
          key: 'adminValidation.catalogueItemNameRequired',
        },
        {
          body: withCatalogue({
            items: Array.from({ length: 201 }, (_, i) => ({ ...item, id: `item-${i}` })),
          }),
          field: 'configuration.catalogue.items',
          key: 'adminValidation.catalogueTooMany',
        },
      ];
      for (const { body, field, key } of cases) {
        const res = await post(a, '/api/admin/agents', body, {
          token: admin.token,
          language: 'pt-BR',
        });
        expect(res.statusCode, field).toBe(400);
        expect(res.json().errors[field], field).toBe(message('pt-BR', key));
      }
      // The same catalogue as auxtrat's is a valid one.
      expect(
        (
          await post(
            a,
            '/api/admin/agents',
            { ...base, name: uniqueName('seller') },
            { token: admin.token },
          )
        ).statusCode,
      ).toBe(200);
    });

    it('refuses a body over 1 MB with 413, storing nothing', async () => {
      const rows = await agentRows(db);
      const entries = Array.from({ length: KNOWLEDGE_ENTRIES_MAX }, (_, i) => ({
        language: 'en-US',
        title: `Entry ${i}`,
        content: 'x'.repeat(6000),
      }));
      const base = newAgent(uniqueName('huge'));
      const res = await post(
        a,
        '/api/admin/agents',
        { ...base, configuration: { ...base.configuration, knowledge: entries } },
        { token: admin.token, language: 'en-US' },
      );
      expect(res.statusCode).toBe(413);
      expect(res.json().success).toBe(false);
      expect(await agentRows(db)).toBe(rows);
    });
  });

  describe('a custom agent is a real agent', () => {
    it("is hired by a user and answers from its knowledge entry, in the question's language", async () => {
      const user = await registerAndLogin(a, { name: 'Diego' });
      const agent = await createAgent(a, admin, newAgent(uniqueName('tienda')));
      await hire(a, user, agent.id);
      expect(listOf(await get(a, '/api/agents/user', { token: user.token }))).toContain(agent.name);
      // Asked in Spanish by someone whose interface is in Portuguese: the Spanish entry, in Spanish.
      const es = await chat(
        a,
        user,
        { message: '¿Cuál es el horario de atención de la tienda?', agentName: agent.name },
        'pt-BR',
      );
      expect(es.statusCode).toBe(200);
      expect(es.json<SendMessageResponse>().message.text).toContain(
        'Atendemos de lunes a viernes, de 8 a 17 horas',
      );
      const en = await chat(
        a,
        user,
        { message: 'When is the shop open?', agentName: agent.name },
        'pt-BR',
      );
      expect(en.json<SendMessageResponse>().message.text).toContain('We are open Monday to Friday');
      // The Portuguese entry links to its page.
      const pt = await chat(
        a,
        user,
        { message: 'Qual é o horário de atendimento da loja?', agentName: agent.name },
        'pt-BR',
      );
      expect(pt.json<SendMessageResponse>().message.text).toContain('Atendemos de segunda a sexta');
      expect(pt.json<SendMessageResponse>().message.text).toContain('(/dashboard)');
    });
  });

  describe('edits', () => {
    it("edits a seeded agent's catalogue through one instance, in force on the other within a second", async () => {
      const user = await registerAndLogin(a, { name: 'Elisa' });
      const auxtrat = await agentNamed(a, admin, 'auxtrat');
      await hire(a, user, auxtrat.id);
      const ask = async () =>
        (
          await chat(b, user, {
            message: 'How much is the management consulting?',
            agentName: 'auxtrat',
          })
        ).json<SendMessageResponse>().message.text;
      // B has the catalogue cached before the change.
      expect(await ask()).toContain('R$1,800.00');

      const catalogue = auxtrat.configuration.catalogue!;
      const items = catalogue.items.map((item) =>
        item.id === 'consulting' ? { ...item, price: 2450 } : item,
      );
      const res = await call(
        a,
        'PUT',
        `/api/admin/agents/${auxtrat.id}`,
        editOf(auxtrat, {
          configuration: { ...auxtrat.configuration, catalogue: { ...catalogue, items } },
        }),
        {
          token: admin.token,
          language: 'en-US',
        },
      );
      expect(res.statusCode).toBe(200);
      const saved = res.json<AdminAgentResponse>();
      expect(saved.message).toBe(
        message('en-US', 'agents.updated', { name: auxtrat.displayName['en-US'] }),
      );
      expect(saved.agent.editedAt).not.toBeNull();
      expect(
        saved.agent.configuration.catalogue!.items.find((item) => item.id === 'consulting')!.price,
      ).toBe(2450);

      await eventually(
        async () => (await ask()).includes('R$2,450.00'),
        'B quotes the new price',
        1_000,
      );

      // The audit has the catalogue before and after, and nothing that did not change.
      const entry = await latestAudit(db);
      expect(entry).toMatchObject({
        action: 'agent.update',
        target: auxtrat.id,
        actorId: admin.user.id,
      });
      expect(Object.keys(entry!.changes)).toEqual(['configuration.catalogue']);
      expect(entry!.changes['configuration.catalogue']).toEqual({
        before: catalogue,
        after: { ...catalogue, items },
      });
    });

    it("edits guia's instructions, welcome and knowledge; the next start's seed leaves them as the admin left them", async () => {
      const guia = await agentNamed(a, admin, 'guia');
      const knowledge = [
        ...guia.configuration.knowledge,
        {
          id: 'guia.parking.en-US',
          language: 'en-US' as const,
          title: 'Parking',
          content: 'Visitors park in the blue garage.',
          keywords: ['parking', 'garage'],
        },
      ];
      const edit = editOf(guia, {
        configuration: {
          ...guia.configuration,
          instructions: 'You guide visitors around ContrateIA and its parking.',
          welcomeMessage: {
            ...guia.configuration.welcomeMessage,
            'en-US': 'Welcome, ask me anything.',
          },
          knowledge,
        },
      });
      const res = await call(a, 'PUT', `/api/admin/agents/${guia.id}`, edit, {
        token: admin.token,
      });
      expect(res.statusCode).toBe(200);
      const user = await registerAndLogin(b, { name: 'Fabio' });
      await eventually(
        async () =>
          (await get(b, '/api/agents/user', { token: user.token, language: 'en-US' })).json<{
            agents: Agent[];
          }>().agents[0]?.configuration.welcomeMessage === 'Welcome, ask me anything.',
        'B shows the new welcome',
        1_000,
      );
      const answer = await chat(b, user, { message: 'Where do visitors park?', agentName: 'guia' });
      expect(answer.json<SendMessageResponse>().message.text).toContain(
        'Visitors park in the blue garage.',
      );

      const entry = await latestAudit(db);
      expect(Object.keys(entry!.changes).sort()).toEqual([
        'configuration.instructions',
        'configuration.knowledge',
        'configuration.welcomeMessage',
      ]);

      // A start of the app (whose seed files are newer than nothing the admin wrote) keeps the edit.
      const restarted = await createTestApp(
        { limits: { routes: UNLIMITED_ROUTES } },
        { database: instances.database },
      );
      await restarted.close();
      const [row] = await db.select().from(agentsTable).where(eq(agentsTable.name, 'guia'));
      expect(row!.configuration.instructions).toBe(
        'You guide visitors around ContrateIA and its parking.',
      );
      expect(row!.editedAt).not.toBeNull();
    });

    it('answers 404 for an unknown or malformed id, and 400 with the fields for a bad edit', async () => {
      const agent = await createAgent(a, admin, newAgent(uniqueName('edited')));
      const edit = editOf(agent);
      for (const id of [
        '00000000-0000-4000-8000-000000000000',
        'not-a-uuid',
        "1' or '1'='1",
        'x'.repeat(150),
      ]) {
        const res = await call(a, 'PUT', `/api/admin/agents/${encodeURIComponent(id)}`, edit, {
          token: admin.token,
          language: 'en-US',
        });
        expect(res.statusCode, id).toBe(404);
        expect(res.json()).toEqual({ success: false, message: 'Agent not found' });
      }
      const bad = await call(
        a,
        'PUT',
        `/api/admin/agents/${agent.id}`,
        editOf(agent, {
          configuration: {
            ...agent.configuration,
            knowledge: [{ language: 'en-US', title: 'T', content: 'C', link: '/nowhere' }],
          },
        }),
        { token: admin.token, language: 'en-US' },
      );
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toEqual({
        success: false,
        message: 'Failed to save agent',
        errors: {
          'configuration.knowledge.0.link': message('en-US', 'validation.knowledgeLinkInvalid'),
        },
      });
      // The name is the agent's address: an edit cannot change it.
      const renamed = await call(
        a,
        'PUT',
        `/api/admin/agents/${agent.id}`,
        { ...edit, name: 'other-name' },
        { token: admin.token },
      );
      expect(renamed.statusCode).toBe(400);
      expect((await agentNamed(a, admin, agent.name)).configuration).toEqual(agent.configuration);
    });

    it('an edit without isActive leaves an inactive agent inactive', async () => {
      const agent = await createAgent(
        a,
        admin,
        newAgent(uniqueName('asleep'), { isActive: false }),
      );
      const edit = editOf(agent, { description: same('Still asleep') });
      delete edit.isActive;
      const res = await call(a, 'PUT', `/api/admin/agents/${agent.id}`, edit, {
        token: admin.token,
      });
      expect(res.json<AdminAgentResponse>().agent).toMatchObject({
        isActive: false,
        description: same('Still asleep'),
      });
    });
  });

  describe('activation', () => {
    it("an inactive agent leaves the catalogue and its users' lists and stops answering, on every instance; it comes back when turned on", async () => {
      const user = await registerAndLogin(a, { name: 'Gabi' });
      const agent = await createAgent(a, admin, newAgent(uniqueName('paused')));
      await hire(a, user, agent.id);
      const conversationId = (
        await chat(a, user, { message: 'When is the shop open?', agentName: agent.name })
      ).json<SendMessageResponse>().conversation.id;

      const off = await call(
        a,
        'PATCH',
        `/api/admin/agents/${agent.id}/status`,
        { isActive: false },
        { token: admin.token, language: 'pt-BR' },
      );
      expect(off.statusCode).toBe(200);
      expect(off.json<AdminAgentResponse>()).toMatchObject({
        message: message('pt-BR', 'agents.deactivated', { name: 'Loja da Rua' }),
        agent: { isActive: false, hires: 1 },
      });

      await eventually(
        async () =>
          (await chat(b, user, { message: 'Open?', agentName: agent.name })).statusCode === 400,
        'B refuses the chat',
        1_000,
      );
      const refused = await chat(
        b,
        user,
        { message: 'When is the shop open?', agentName: agent.name, conversationId },
        'es-ES',
      );
      expect(refused.json()).toEqual({
        success: false,
        message: message('es-ES', 'agents.inactive'),
      });
      const short = await post(
        b,
        '/api/chat',
        { message: 'Open?', agentName: agent.name },
        { token: user.token },
      );
      expect(short.statusCode).toBe(400);
      expect(listOf(await get(b, '/api/agents/user', { token: user.token }))).not.toContain(
        agent.name,
      );
      expect(listOf(await get(b, '/api/agents/available', { token: member.token }))).not.toContain(
        agent.name,
      );
      expect(
        (await post(b, '/api/agents/hire', { agentId: agent.id }, { token: member.token }))
          .statusCode,
      ).toBe(400);
      // Its conversations stay readable.
      expect(
        (await get(b, `/api/chat/conversations/${conversationId}`, { token: user.token }))
          .statusCode,
      ).toBe(200);
      // The admin can still try it out.
      expect(
        (await testChat(b, admin, { message: 'When is the shop open?', agentName: agent.name }))
          .statusCode,
      ).toBe(200);

      const entry = await latestAudit(db);
      expect(entry).toMatchObject({
        action: 'agent.status',
        target: agent.id,
        changes: { isActive: { before: true, after: false } },
      });

      const on = await call(
        b,
        'PATCH',
        `/api/admin/agents/${agent.id}/status`,
        { isActive: true },
        { token: admin.token, language: 'en-US' },
      );
      expect(on.json<AdminAgentResponse>().message).toBe(
        message('en-US', 'agents.activated', { name: 'Street Shop' }),
      );
      await eventually(
        async () =>
          (await chat(a, user, { message: 'When is the shop open?', agentName: agent.name }))
            .statusCode === 200,
        'A answers again',
        1_000,
      );
      expect(listOf(await get(a, '/api/agents/user', { token: user.token }))).toContain(agent.name);
    });

    it('keeps guia, where every account lands, active (400), and refuses a status that is not a yes or no', async () => {
      const guia = await agentNamed(a, admin, 'guia');
      const audits = await auditCount(db);
      const res = await call(
        a,
        'PATCH',
        `/api/admin/agents/${guia.id}/status`,
        { isActive: false },
        { token: admin.token, language: 'pt-BR' },
      );
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({
        success: false,
        message: message('pt-BR', 'agents.statusFailed'),
        errors: { isActive: 'Este é o agente com que toda conta começa: não pode ser desativado' },
      });
      const byEdit = await call(
        a,
        'PUT',
        `/api/admin/agents/${guia.id}`,
        editOf(guia, { isActive: false }),
        { token: admin.token },
      );
      expect(byEdit.statusCode).toBe(400);
      for (const body of [
        { isActive: 'no' },
        {},
        { isActive: null },
        { isActive: false, extra: 1 },
      ]) {
        const bad = await call(a, 'PATCH', `/api/admin/agents/${guia.id}/status`, body, {
          token: admin.token,
          language: 'en-US',
        });
        expect(bad.statusCode).toBe(400);
        expect(bad.json().message).toBe('Failed to update agent status');
      }
      expect(await auditCount(db)).toBe(audits);
      expect((await agentNamed(a, admin, 'guia')).isActive).toBe(true);
      const unknown = await call(
        a,
        'PATCH',
        '/api/admin/agents/00000000-0000-4000-8000-000000000000/status',
        { isActive: false },
        { token: admin.token },
      );
      expect(unknown.statusCode).toBe(404);
    });
  });

  describe('deletion', () => {
    it('the seeded agents can only be deactivated', async () => {
      for (const name of ['guia', 'assistente', 'auxtrat', 'administrador', 'indirect']) {
        const agent = await agentNamed(a, admin, name);
        const res = await call(a, 'DELETE', `/api/admin/agents/${agent.id}`, undefined, {
          token: admin.token,
          language: 'es-ES',
        });
        expect(res.statusCode, name).toBe(400);
        expect(res.json()).toEqual({
          success: false,
          message: message('es-ES', 'agents.seededNotDeletable'),
        });
      }
      expect((await adminAgents(a, admin)).filter((x) => x.seeded)).toHaveLength(5);
    });

    it("removes a custom agent from the catalogue and every hire; its users' past conversations stay readable; its name stays taken", async () => {
      const user = await registerAndLogin(a, { name: 'Helena' });
      const agent = await createAgent(a, admin, newAgent(uniqueName('closing')));
      await hire(a, user, agent.id);
      await hire(a, member, agent.id);
      const sent = (
        await chat(a, user, { message: 'When is the shop open?', agentName: agent.name })
      ).json<SendMessageResponse>();

      const res = await call(a, 'DELETE', `/api/admin/agents/${agent.id}`, undefined, {
        token: admin.token,
        language: 'en-US',
      });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({
        success: true,
        message: message('en-US', 'agents.deleted', { name: 'Street Shop' }),
      });

      await eventually(
        async () =>
          !listOf(await get(b, '/api/agents/user', { token: user.token })).includes(agent.name),
        'B drops it from the hires',
        1_000,
      );
      expect(listOf(await get(b, '/api/agents/user', { token: member.token }))).not.toContain(
        agent.name,
      );
      expect(listOf(await get(b, '/api/agents/available', { token: user.token }))).not.toContain(
        agent.name,
      );
      expect((await adminAgents(b, admin)).map((x) => x.id)).not.toContain(agent.id);
      expect(
        (await post(b, '/api/agents/hire', { agentId: agent.id }, { token: user.token }))
          .statusCode,
      ).toBe(404);
      const gone = await chat(
        b,
        user,
        { message: 'Still there?', agentName: agent.name, conversationId: sent.conversation.id },
        'en-US',
      );
      expect(gone.statusCode).toBe(404);
      expect(gone.json().message).toBe('Agent not found');
      expect(
        (await testChat(b, admin, { message: 'Hello', agentName: agent.name })).statusCode,
      ).toBe(404);

      // The conversation, as it was.
      const listed = (await get(b, '/api/chat/conversations', { token: user.token })).json<{
        conversations: ConversationSummary[];
      }>().conversations;
      expect(listed.find((c) => c.id === sent.conversation.id)).toMatchObject({
        agentName: agent.name,
        messageCount: 2,
      });
      const read = await get(b, `/api/chat/conversations/${sent.conversation.id}`, {
        token: user.token,
      });
      expect(read.statusCode).toBe(200);
      expect(read.json().conversation.messages.map((m: { text: string }) => m.text)).toEqual([
        'When is the shop open?',
        sent.message.text,
      ]);

      // Another agent may not take its name: the conversations name it.
      const again = await post(a, '/api/admin/agents', newAgent(agent.name), {
        token: admin.token,
        language: 'en-US',
      });
      expect(again.json().errors).toEqual({ name: message('en-US', 'validation.agentNameTaken') });
      expect(
        (
          await call(a, 'DELETE', `/api/admin/agents/${agent.id}`, undefined, {
            token: admin.token,
          })
        ).statusCode,
      ).toBe(404);

      const entry = await latestAudit(db);
      expect(entry).toMatchObject({
        action: 'agent.delete',
        target: agent.id,
        actorId: admin.user.id,
      });
      expect(entry!.changes.name).toEqual({ before: agent.name, after: null });
    });
  });

  describe('test chat', () => {
    it("answers through the engine, continues a test conversation on any instance, and is no conversation of anyone's", async () => {
      const agent = await createAgent(a, admin, newAgent(uniqueName('trial'), { isActive: false }));
      const rows = (await db.select().from(conversations)).length;
      const stats = (await get(a, '/api/stats', { token: admin.token })).json();
      const before = (await get(a, '/api/chat/conversations', { token: admin.token })).json<{
        conversations: ConversationSummary[];
      }>().conversations;

      const first = await testChat(
        a,
        admin,
        { message: '¿Cuál es el horario de atención de la tienda?', agentName: agent.name },
        'pt-BR',
      );
      expect(first.statusCode).toBe(200);
      const answer = first.json<AdminChatTestResponse>();
      expect(answer.message).toContain('Atendemos de lunes a viernes');
      const next = await testChat(b, admin, {
        message: 'When is the shop open?',
        agentName: agent.name,
        conversationId: answer.conversation.id,
      });
      expect(next.statusCode).toBe(200);
      expect(next.json<AdminChatTestResponse>()).toMatchObject({
        conversation: { id: answer.conversation.id },
      });
      expect(next.json<AdminChatTestResponse>().message).toContain('We are open Monday to Friday');

      expect((await db.select().from(conversations)).length).toBe(rows);
      expect((await get(a, '/api/stats', { token: admin.token })).json()).toEqual(stats);
      expect(
        (await get(a, '/api/chat/conversations', { token: admin.token })).json<{
          conversations: ConversationSummary[];
        }>().conversations,
      ).toEqual(before);
      expect((await agentNamed(a, admin, agent.name)).conversations).toBe(0);
    });

    it('answers 404 for a conversation that is not a test conversation of this agent, and 400 for bad input', async () => {
      const agent = await createAgent(a, admin, newAgent(uniqueName('tester')));
      const started = (
        await testChat(a, admin, { message: 'Hello', agentName: agent.name })
      ).json<AdminChatTestResponse>();
      const user = await registerAndLogin(a, { name: 'Igor' });
      const userConversation = (
        await chat(a, user, { message: 'Hello', agentName: 'guia' })
      ).json<SendMessageResponse>().conversation.id;
      for (const [conversationId, agentName] of [
        ['00000000-0000-4000-8000-000000000000', agent.name],
        [userConversation, 'guia'],
        [started.conversation.id, 'guia'],
      ]) {
        const res = await testChat(
          a,
          admin,
          { message: 'Hello', agentName, conversationId },
          'en-US',
        );
        expect(res.statusCode, `${conversationId} ${agentName}`).toBe(404);
        expect(res.json().message).toBe(message('en-US', 'chat.conversationNotFound'));
      }
      const unknown = await testChat(
        a,
        admin,
        { message: 'Hello', agentName: 'nobody-here' },
        'en-US',
      );
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json().message).toBe('Agent not found');
      const cases: { body: Record<string, unknown>; field: string; key: string }[] = [
        {
          body: { message: '   ', agentName: agent.name },
          field: 'message',
          key: 'validation.messageRequired',
        },
        {
          body: { message: 'x'.repeat(4001), agentName: agent.name },
          field: 'message',
          key: 'validation.messageTooLong',
        },
        {
          body: { message: 'Hi', agentName: '<script>' },
          field: 'agentName',
          key: 'validation.agentNameInvalid',
        },
        {
          body: { message: 'Hi', agentName: agent.name, conversationId: 'abc' },
          field: 'conversationId',
          key: 'validation.conversationIdInvalid',
        },
      ];
      for (const { body, field, key } of cases) {
        const res = await testChat(a, admin, body, 'es-ES');
        expect(res.statusCode, field).toBe(400);
        expect(res.json().errors[field]).toBe(message('es-ES', key));
      }
    });
  });
});

describe('custom agents with an OpenAI-compatible provider', () => {
  let ctx: TestContext;
  let ai: FakeOpenAI;
  let admin: Account;

  beforeAll(async () => {
    ai = await startFakeOpenAI({ chunks: ['Open ', 'from 8 to 17.'] });
    ctx = await createTestApp({
      without: NO_MONITOR,
      limits: { routes: UNLIMITED_ROUTES },
      ai: { provider: 'openai', baseUrl: ai.url, model: 'test-model', timeoutMs: 5_000 },
    });
    admin = await registerAndLogin(ctx, { name: 'Ana Admin' });
  });
  afterAll(async () => {
    await ctx?.close();
    await ai?.close();
  });

  const systemOf = (body: unknown) =>
    (body as { messages: { role: string; content: string }[] }).messages.find(
      (m) => m.role === 'system',
    )!.content;

  it("sends the agent's instructions and its knowledge, for a user's chat and for the admin's test chat with its history", async () => {
    const name = uniqueName('modelled');
    const agent = await createAgent(
      ctx,
      admin,
      newAgent(name, {
        configuration: {
          ...newAgent(name).configuration,
          instructions: 'You are Zeta, the shop assistant. Never mention prices.',
        },
      }),
    );
    const user = await registerAndLogin(ctx, { name: 'Joana' });
    await hire(ctx, user, agent.id);
    const asked = ai.nextRequest();
    const res = await chat(ctx, user, { message: 'When is the shop open?', agentName: name });
    expect(res.statusCode).toBe(200);
    expect(res.json<SendMessageResponse>().message.text).toBe('Open from 8 to 17.');
    const system = systemOf((await asked).body);
    expect(system).toContain('You are Zeta, the shop assistant. Never mention prices.');
    expect(system).toContain('We are open Monday to Friday');

    const first = (
      await testChat(ctx, admin, { message: 'When is the shop open?', agentName: name })
    ).json<AdminChatTestResponse>();
    const continued = ai.nextRequest();
    const second = await testChat(ctx, admin, {
      message: 'And on Saturday?',
      agentName: name,
      conversationId: first.conversation.id,
    });
    expect(second.statusCode).toBe(200);
    const { messages } = (await continued).body as {
      messages: { role: string; content: string }[];
    };
    expect(systemOf((await continued).body)).toContain('You are Zeta');
    expect(messages.filter((m) => m.role !== 'system').map((m) => [m.role, m.content])).toEqual([
      ['user', 'When is the shop open?'],
      ['assistant', 'Open from 8 to 17.'],
      ['user', 'And on Saturday?'],
    ]);
  });

  it("a provider failure in the test chat is a 502 in the admin's language, and keeps nothing", async () => {
    ai.setOptions({ status: 500 });
    try {
      const res = await testChat(ctx, admin, { message: 'Hello', agentName: 'guia' }, 'pt-BR');
      expect(res.statusCode).toBe(502);
      expect(res.json()).toEqual({
        success: false,
        message: message('pt-BR', 'chat.providerFailed'),
      });
    } finally {
      ai.setOptions({ chunks: ['Open ', 'from 8 to 17.'] });
    }
  });
});

describe('WhatsApp auto-replies and the agents an admin turns off or deletes', () => {
  let ctx: TestContext;
  let admin: Account;
  let ana: Account;
  let phone: string;
  /** Resolved by the next settled auto-reply, with how it ended. */
  const nextReply = async () => {
    const replies = repliesOf(ctx);
    return (await replies.settled({ since: replies.count }))[0]!.outcome;
  };

  beforeAll(async () => {
    ctx = await createTestApp({
      without: NO_MONITOR,
      limits: { routes: UNLIMITED_ROUTES },
      whatsapp: { transport: 'sandbox' },
    });
    admin = await registerAndLogin(ctx, { name: 'Ana Admin' });
    ana = await registerAndLogin(ctx, { name: 'Ana Souza' });
    phone = `5511987${String(Date.now() % 1e6).padStart(6, '0')}`;
    await linkSandbox(ctx, ana, phone);
  });
  afterAll(async () => ctx?.close());

  const status = async () =>
    (await get(ctx, '/api/whatsapp/status', { token: ana.token })).json<{ data: WhatsAppStatus }>()
      .data;
  const detail = async (id: string) =>
    (await get(ctx, `/api/whatsapp/conversations/${id}`, { token: ana.token })).json<{
      data: WhatsAppConversationDetail;
    }>().data;
  /** What the contact writes, and the agent whose reply it got. */
  async function answeredBy(
    conversationId: string | undefined,
    text: string,
  ): Promise<{ conversationId: string; agentName: string; reply: string }> {
    const done = nextReply();
    expect(
      (
        await post(ctx, '/api/whatsapp/sandbox/inbound', {
          to: phone,
          from: '5521977776666@s.whatsapp.net',
          text,
          pushName: 'Carla',
        })
      ).statusCode,
    ).toBe(200);
    await done;
    const id =
      conversationId ??
      (await get(ctx, '/api/whatsapp/conversations', { token: ana.token })).json<{
        data: { id: string }[];
      }>().data[0]!.id;
    const last = (await detail(id)).messages.at(-1)!;
    return { conversationId: id, agentName: last.agentName!, reply: last.text };
  }

  it('an inactive agent never answers: its conversations fall back to the default agent; deleted, it is unassigned everywhere', async () => {
    const agent = await createAgent(ctx, admin, newAgent(uniqueName('atendente')));
    await hire(ctx, ana, agent.id);
    const { conversationId } = await answeredBy(undefined, 'Olá, quais agentes vocês têm?');
    expect(
      (
        await post(
          ctx,
          `/api/whatsapp/conversations/${conversationId}/assign-agent`,
          { agentId: agent.id },
          { token: ana.token },
        )
      ).statusCode,
    ).toBe(200);
    const assigned = await answeredBy(conversationId, 'When is the shop open?');
    expect(assigned).toMatchObject({ agentName: agent.name });
    expect(assigned.reply).toContain('We are open Monday to Friday');

    await call(
      ctx,
      'PATCH',
      `/api/admin/agents/${agent.id}/status`,
      { isActive: false },
      { token: admin.token },
    );
    expect((await answeredBy(conversationId, 'Olá, tudo bem?')).agentName).toBe('guia');
    // Nor can it be chosen while off.
    const refused = await post(
      ctx,
      '/api/whatsapp/settings',
      { defaultAgentId: agent.id },
      { token: ana.token },
    );
    expect(refused.statusCode).toBe(400);

    await call(
      ctx,
      'PATCH',
      `/api/admin/agents/${agent.id}/status`,
      { isActive: true },
      { token: admin.token },
    );
    expect(
      (
        await post(
          ctx,
          '/api/whatsapp/settings',
          { defaultAgentId: agent.id },
          { token: ana.token },
        )
      ).statusCode,
    ).toBe(200);
    expect(await status()).toMatchObject({ defaultAgentId: agent.id, agentAssignedCount: 1 });
    expect((await answeredBy(conversationId, 'When is the shop open?')).agentName).toBe(agent.name);

    expect(
      (
        await call(ctx, 'DELETE', `/api/admin/agents/${agent.id}`, undefined, {
          token: admin.token,
        })
      ).statusCode,
    ).toBe(200);
    // Nobody answers the account's contacts until it chooses again (guia never does unasked).
    expect(await status()).toMatchObject({ defaultAgentId: null, agentAssignedCount: 0 });
    expect((await detail(conversationId)).agent_id).toBeNull();
    const unanswered = await answeredBy(conversationId, 'Olá, tudo bem?');
    expect(unanswered.agentName).toBeUndefined();
    expect(unanswered.reply).toBe('Olá, tudo bem?');
  });

  it("a deactivated account's WhatsApp gets no auto-reply until the account is active again", async () => {
    await chooseAnsweringAgent(ctx, ana);
    const inbound = async (text: string) => {
      const settled = nextReply();
      expect(
        (
          await post(ctx, '/api/whatsapp/sandbox/inbound', {
            to: phone,
            from: '5521977776666@s.whatsapp.net',
            text,
            pushName: 'Carla',
          })
        ).statusCode,
      ).toBe(200);
      return settled;
    };
    expect(await inbound('Olá, tudo bem?')).toBe('sent');
    expect(
      (
        await post(
          ctx,
          `/api/admin/users/${ana.user.id}/status`,
          { isActive: false },
          { token: admin.token },
        )
      ).statusCode,
    ).toBe(200);
    expect(await inbound('Ainda estão aí?')).toBe('skipped');
    expect(
      (
        await post(
          ctx,
          `/api/admin/users/${ana.user.id}/status`,
          { isActive: true },
          { token: admin.token },
        )
      ).statusCode,
    ).toBe(200);
    expect(await inbound('Olá de novo!')).toBe('sent');
  });
});
