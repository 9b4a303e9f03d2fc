import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  Agent,
  Language,
  MyAgent,
  MyAgentInput,
  SendMessageResponse,
} from '@contrateia/shared';
import { createTestApp, type TestContext, NO_MONITOR } from '../../../test/helpers';
import { get, message, post, registerAndLogin, UNLIMITED_ROUTES } from '../../../test/factories';
import { agents as agentsTable } from './agents.table';
import { refreshOwnAgents, slugOf } from './my-agents';

type Account = Awaited<ReturnType<typeof registerAndLogin>>;

/** The example business: a dental clinic in Curitiba, as a `POST /api/my-agents` body. */
const CLINIC = JSON.parse(
  fs.readFileSync(
    path.resolve(import.meta.dirname, '../../../test/examples/clinica-sorriso.json'),
    'utf8',
  ),
) as MyAgentInput;

/** A small business of another kind, for the cases that need many agents. */
const bakery = (displayName: string): MyAgentInput => ({
  displayName,
  business: { name: 'Padaria Pão Quente', about: 'Pães e bolos feitos todo dia.' },
  catalogue: [{ name: 'Pão francês', price: 0.9, unit: 'unidade' }],
  faq: [{ question: 'Vocês entregam?', answer: 'Entregamos no bairro até as 18h.' }],
});

describe('an account’s own agents', () => {
  let ctx: TestContext;
  let admin: Account;
  let clara: Account;
  let davi: Account;

  beforeAll(async () => {
    ctx = await createTestApp({ without: NO_MONITOR, limits: { routes: UNLIMITED_ROUTES } });
    admin = await registerAndLogin(ctx, { name: 'Admin' }); // the first account is the admin
    clara = await registerAndLogin(ctx, { name: 'Clara' });
    davi = await registerAndLogin(ctx, { name: 'Davi' });
  });
  afterAll(async () => ctx.close());

  const send = (
    method: 'PUT' | 'DELETE',
    url: string,
    token: string,
    body?: unknown,
    language: Language = 'pt-BR',
  ) =>
    ctx.app.inject({
      method,
      url,
      headers: {
        authorization: `Bearer ${token}`,
        'accept-language': language,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
    });
  const create = (account: Account, body: unknown, language: Language = 'pt-BR') =>
    post(ctx, '/api/my-agents', body, { token: account.token, language });
  const mine = async (account: Account) => {
    const res = await get(ctx, '/api/my-agents', { token: account.token });
    expect(res.statusCode).toBe(200);
    return res.json<{ agents: MyAgent[] }>().agents;
  };
  const hired = async (account: Account) =>
    (await get(ctx, '/api/agents/user', { token: account.token, language: 'pt-BR' }))
      .json<{ agents: Agent[] }>()
      .agents.map((a) => a.name);
  const ask = (account: Account, agentName: string, text: string) =>
    post(
      ctx,
      '/api/chat/message',
      { agentName, message: text },
      { token: account.token, language: 'pt-BR' },
    );
  const rowCount = async () => (await ctx.database.db.select().from(agentsTable)).length;

  it('makes the clinic from the example as written, hired by its owner at once, and answers from it', async () => {
    const res = await create(clara, CLINIC);
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    const { agent, message: said } = res.json<{ agent: MyAgent; message: string }>();
    expect(said).toBe('Agente Clínica Sorriso criado');
    expect(agent).toMatchObject({
      name: 'clinica-sorriso',
      displayName: 'Clínica Sorriso',
      instructions: CLINIC.instructions,
      business: { name: 'Clínica Sorriso Odontologia', timeZone: 'America/Sao_Paulo' },
    });
    expect(agent.business.hours).toHaveLength(11);
    expect(agent.catalogue).toHaveLength(11);
    expect(agent.faq).toHaveLength(15);
    expect(await mine(clara)).toEqual([agent]);
    const one = await get(ctx, `/api/my-agents/${agent.id}`, { token: clara.token });
    expect(one.json()).toEqual({ agent });
    // Hired at once: in the owner's agents, with its chat page at /agent/clinica-sorriso.
    expect(await hired(clara)).toEqual(['guia', 'clinica-sorriso']);
    // The owner's data: "Download my data" carries it whole.
    const exported = await get(ctx, '/api/account/export', { token: clara.token });
    expect(exported.json().myAgents).toEqual([{ ...agent, documents: [] }]);

    // Chatting with it: answers from the clinic's own questions and prices, in Portuguese.
    const insurance = await ask(clara, 'clinica-sorriso', 'vocês atendem convênio?');
    expect(insurance.statusCode, insurance.body.slice(0, 300)).toBe(200);
    expect(insurance.json<SendMessageResponse>().message.text).toContain('Odontoprev');
    const price = await ask(clara, 'clinica-sorriso', 'quanto custa a extração de siso?');
    expect(price.json<SendMessageResponse>().message.text).toMatch(
      /Preço: R\$\s480,00 por dente\./,
    );
  });

  it('an agent made the old way is made again at start: it answers the new way, its owner’s save untouched', async () => {
    const [clinic] = await mine(clara);
    const [row] = await ctx.database.db
      .select()
      .from(agentsTable)
      .where(eq(agentsTable.id, clinic!.id));
    // What an earlier server made of the same profile: no hours, no revision.
    const { business: _hours, ownRevision: _revision, ...older } = row!.configuration;
    await ctx.database.db
      .update(agentsTable)
      .set({ configuration: older })
      .where(eq(agentsTable.id, clinic!.id));
    const closed = await ask(clara, 'clinica-sorriso', 'vcs abrem domingo?');
    expect(closed.json<SendMessageResponse>().message.text).not.toContain('Domingo: fechado');

    expect(await refreshOwnAgents({ db: ctx.database.db, now: ctx.clock.now })).toBe(1);
    const [after] = await ctx.database.db
      .select()
      .from(agentsTable)
      .where(eq(agentsTable.id, clinic!.id));
    const { stamp, ...made } = after!.configuration;
    expect(made).toEqual({ ...row!.configuration, stamp: undefined });
    expect(stamp).not.toBe(row!.configuration.stamp);
    expect(after!.updatedAt).toEqual(row!.updatedAt);
    const answered = await ask(clara, 'clinica-sorriso', 'vcs abrem domingo?');
    expect(answered.json<SendMessageResponse>().message.text).toMatch(/^Domingo: fechado\./);
    // Nothing left to make again.
    expect(await refreshOwnAgents({ db: ctx.database.db, now: ctx.clock.now })).toBe(0);
  });

  it('knows the business in the language its owner wrote it in, whatever the interface', async () => {
    // A Brazilian on the English interface writes the clinic in Portuguese.
    const res = await create(davi, { ...CLINIC, displayName: 'Clínica do Davi' }, 'en-US');
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    const { agent } = res.json<{ agent: MyAgent }>();
    const [row] = await ctx.database.db
      .select()
      .from(agentsTable)
      .where(eq(agentsTable.id, agent.id));
    expect(new Set(row!.configuration.knowledge.map((entry) => entry.language))).toEqual(
      new Set(['pt-BR']),
    );
    const answer = await post(
      ctx,
      '/api/chat/message',
      { agentName: agent.name, message: 'vocês atendem convênio?' },
      { token: davi.token, language: 'en-US' },
    );
    expect(answer.json<SendMessageResponse>().message.text).toContain('Odontoprev');
    expect((await send('DELETE', `/api/my-agents/${agent.id}`, davi.token)).statusCode).toBe(200);
  });

  it('is another account’s to see by no route: 404 everywhere, and absent from its lists', async () => {
    const [clinic] = await mine(clara);
    expect(await mine(davi)).toEqual([]);
    for (const res of [
      await get(ctx, `/api/my-agents/${clinic!.id}`, { token: davi.token, language: 'en-US' }),
      await send('PUT', `/api/my-agents/${clinic!.id}`, davi.token, bakery('X'), 'en-US'),
      await send('DELETE', `/api/my-agents/${clinic!.id}`, davi.token, undefined, 'en-US'),
      await post(
        ctx,
        '/api/agents/hire',
        { agentId: clinic!.id },
        { token: davi.token, language: 'en-US' },
      ),
      await post(
        ctx,
        '/api/chat/message',
        { agentName: 'clinica-sorriso', message: 'oi' },
        { token: davi.token, language: 'en-US' },
      ),
    ]) {
      expect(res.statusCode, res.body.slice(0, 200)).toBe(404);
      expect(res.json().message).toBe(message('en-US', 'agents.notFound'));
    }
    expect(await hired(davi)).toEqual(['guia']);
    const available = await get(ctx, '/api/agents/available', { token: davi.token });
    expect(available.json<{ agents: Agent[] }>().agents.map((a) => a.name)).not.toContain(
      'clinica-sorriso',
    );
    // Unchanged by any of it.
    expect((await mine(clara))[0]).toEqual(clinic);
    // An id that is no id is a 404 too, never a database error; one past a path's length a 414.
    for (const id of ['nope', "1' or '1'='1", 'a'.repeat(90)]) {
      const res = await get(ctx, `/api/my-agents/${encodeURIComponent(id)}`, {
        token: clara.token,
      });
      expect(res.statusCode).toBe(404);
    }
    const long = await get(ctx, `/api/my-agents/${'a'.repeat(300)}`, { token: clara.token });
    expect(long.statusCode).toBe(414);
  });

  it('gives each agent a name of its own within the account, never a catalogue agent’s', async () => {
    expect(slugOf('Clínica Sorriso')).toBe('clinica-sorriso');
    expect(slugOf('  Açaí & Cia. — Loja 2!  ')).toBe('acai-cia-loja-2');
    expect(slugOf('😀')).toBe('agente');
    const again = await create(clara, { ...CLINIC, displayName: 'Clínica  SORRISO' });
    expect(again.json<{ agent: MyAgent }>().agent.name).toBe('clinica-sorriso-2');
    const guia = await create(clara, bakery('Guia'));
    expect(guia.json<{ agent: MyAgent }>().agent.name).toBe('guia-2');
    // Another account may use the same name for its own.
    const davis = await create(davi, CLINIC);
    expect(davis.json<{ agent: MyAgent }>().agent.name).toBe('clinica-sorriso');
    // Each owner's page means its own agent.
    const answer = await ask(davi, 'clinica-sorriso', 'tem estacionamento?');
    expect(answer.json<SendMessageResponse>().message.text).toContain('Estacionamento Central');
  });

  it('replaces what the agent knows on save, keeping its name; deleted, it is gone from every list', async () => {
    const [clinic] = await mine(clara);
    const changed = {
      ...CLINIC,
      faq: [
        {
          question: 'Tem estacionamento?',
          answer: 'Agora temos estacionamento próprio, no subsolo.',
          alternates: [],
        },
      ],
    };
    const saved = await send('PUT', `/api/my-agents/${clinic!.id}`, clara.token, changed);
    expect(saved.statusCode, saved.body.slice(0, 300)).toBe(200);
    expect(saved.json<{ agent: MyAgent }>().agent).toMatchObject({
      id: clinic!.id,
      name: 'clinica-sorriso',
      faq: changed.faq,
    });
    const answer = await ask(clara, 'clinica-sorriso', 'tem estacionamento?');
    expect(answer.json<SendMessageResponse>().message.text).toContain('subsolo');

    // Offered to answer the account's WhatsApp contacts, and chosen to.
    const offered = await get(ctx, '/api/whatsapp/agents/available', { token: clara.token });
    expect(offered.json<{ data: { id: string }[] }>().data.map((a) => a.id)).toContain(clinic!.id);
    const chosen = await post(
      ctx,
      '/api/whatsapp/settings',
      { defaultAgentId: clinic!.id },
      { token: clara.token },
    );
    expect(chosen.statusCode, chosen.body.slice(0, 200)).toBe(200);
    expect(chosen.json().data.defaultAgentId).toBe(clinic!.id);
    // Another account may not choose it.
    const theirs = await post(
      ctx,
      '/api/whatsapp/settings',
      { defaultAgentId: clinic!.id },
      { token: davi.token },
    );
    expect(theirs.statusCode).toBe(400);

    const deleted = await send('DELETE', `/api/my-agents/${clinic!.id}`, clara.token);
    expect(deleted.statusCode).toBe(200);
    expect(deleted.json().message).toBe('Agente Clínica Sorriso excluído');
    expect((await mine(clara)).map((a) => a.name)).not.toContain('clinica-sorriso');
    expect(await hired(clara)).not.toContain('clinica-sorriso');
    expect(
      (await get(ctx, `/api/my-agents/${clinic!.id}`, { token: clara.token })).statusCode,
    ).toBe(404);
    expect((await ask(clara, 'clinica-sorriso', 'oi')).statusCode).toBe(404);
    // WhatsApp let go of it: nobody answers the account's contacts until it chooses again.
    const status = await get(ctx, '/api/whatsapp/status', { token: clara.token });
    expect(status.json().data.defaultAgentId).toBeNull();
    // And no longer names it as the account's choice.
    const { rows } = await ctx.app.platform.database.execute(
      'SELECT default_agent_id FROM whatsapp_accounts WHERE user_id = $1',
      [clara.user.id],
    );
    expect(rows[0]?.default_agent_id).toBeNull();
    // Its name stays taken in the account: its past conversations name it.
    const next = await create(clara, CLINIC);
    expect(next.json<{ agent: MyAgent }>().agent.name).toBe('clinica-sorriso-3');
  });

  it('holds an account to ten agents of its own, in every language, changing nothing past them', async () => {
    const eva = await registerAndLogin(ctx, { name: 'Eva' });
    const made = await Promise.all(
      Array.from({ length: 12 }, (_, i) => create(eva, bakery(`Padaria ${i + 1}`))),
    );
    // Twelve at once: exactly ten made, whatever the order.
    expect(made.filter((res) => res.statusCode === 200)).toHaveLength(10);
    expect(made.filter((res) => res.statusCode === 400)).toHaveLength(2);
    expect(await mine(eva)).toHaveLength(10);
    const rows = await rowCount();
    for (const language of ['pt-BR', 'en-US', 'es-ES'] as const) {
      const res = await create(eva, bakery('Mais uma'), language);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe(message(language, 'myAgents.limit'));
    }
    expect(await rowCount()).toBe(rows);
  });

  it('refuses wrong, missing, huge and hostile input on its field, in the caller’s language, storing nothing', async () => {
    const base = bakery('Padaria Válida');
    const cases: Array<{ body: unknown; field: string; key: string }> = [
      {
        body: { ...base, displayName: '   ' },
        field: 'displayName',
        key: 'myAgentValidation.displayNameRequired',
      },
      {
        body: { ...base, displayName: 'x'.repeat(61) },
        field: 'displayName',
        key: 'myAgentValidation.displayNameTooLong',
      },
      {
        body: { ...base, displayName: 'Pão \ud83d' },
        field: 'displayName',
        key: 'validation.textInvalid',
      },
      {
        body: { ...base, business: { ...base.business, name: '' } },
        field: 'business.name',
        key: 'myAgentValidation.businessNameRequired',
      },
      {
        body: { ...base, business: { ...base.business, timeZone: 'Mars/Olympus' } },
        field: 'business.timeZone',
        key: 'myAgentValidation.timeZoneInvalid',
      },
      {
        body: {
          ...base,
          business: { ...base.business, hours: [{ day: 7, open: '08:00', close: '12:00' }] },
        },
        field: 'business.hours.0.day',
        key: 'myAgentValidation.dayInvalid',
      },
      {
        body: {
          ...base,
          business: { ...base.business, hours: [{ day: 1, open: '8h', close: '12:00' }] },
        },
        field: 'business.hours.0.open',
        key: 'myAgentValidation.timeInvalid',
      },
      {
        body: {
          ...base,
          business: { ...base.business, hours: [{ day: 1, open: '13:00', close: '12:00' }] },
        },
        field: 'business.hours.0.close',
        key: 'myAgentValidation.closeBeforeOpen',
      },
      {
        body: { ...base, business: { ...base.business, closedDates: ['2026-02-30'] } },
        field: 'business.closedDates.0',
        key: 'myAgentValidation.dateInvalid',
      },
      {
        body: { ...base, catalogue: [{ name: 'Bolo', price: -1 }] },
        field: 'catalogue.0.price',
        key: 'myAgentValidation.priceInvalid',
      },
      {
        body: { ...base, catalogue: [{ name: 'Bolo', price: '10' }] },
        field: 'catalogue.0.price',
        key: 'myAgentValidation.priceInvalid',
      },
      {
        body: {
          ...base,
          catalogue: Array.from({ length: 201 }, () => ({ name: 'Pão', price: 1 })),
        },
        field: 'catalogue',
        key: 'myAgentValidation.catalogueTooMany',
      },
      {
        body: {
          ...base,
          faq: Array.from({ length: 301 }, () => ({ question: 'P?', answer: 'R.' })),
        },
        field: 'faq',
        key: 'myAgentValidation.faqTooMany',
      },
      {
        body: { ...base, faq: [{ question: 'P?', answer: 'r'.repeat(4001) }] },
        field: 'faq.0.answer',
        key: 'myAgentValidation.itemTextTooLong',
      },
    ];
    const rows = await rowCount();
    for (const language of ['pt-BR', 'es-ES'] as const) {
      for (const { body, field, key } of cases) {
        const res = await create(davi, body, language);
        expect(res.statusCode, `${field}: ${res.body.slice(0, 200)}`).toBe(400);
        expect(res.json().message).toBe(message(language, 'agents.createFailed'));
        expect(res.json().errors[field], field).toBe(message(language, key));
      }
    }
    // No business at all, an unknown field, a body that is no agent: refused too.
    for (const body of [
      { displayName: 'Sem negócio' },
      { ...base, ownerId: clara.user.id },
      [],
      'x',
      null,
    ]) {
      expect((await create(davi, body)).statusCode, JSON.stringify(body).slice(0, 60)).toBe(400);
    }
    expect(await rowCount()).toBe(rows);
    // Without a session: 401, and nothing read.
    expect((await get(ctx, '/api/my-agents')).statusCode).toBe(401);
    expect((await post(ctx, '/api/my-agents', base)).statusCode).toBe(401);
  });
  it('offers an account’s own agents first to answer its WhatsApp contacts, never an admin-only agent', async () => {
    const offered = async (account: Account) =>
      (await get(ctx, '/api/whatsapp/agents/available', { token: account.token }))
        .json<{ data: { id: string; name: string; own: boolean }[] }>()
        .data.map(({ name, own }) => ({ name, own }));
    const choose = (account: Account, defaultAgentId: string | null) =>
      post(ctx, '/api/whatsapp/settings', { defaultAgentId }, { token: account.token });

    const elena = await registerAndLogin(ctx, { name: 'Elena' });
    expect(
      (await post(ctx, '/api/agents/hire', { agentId: 'assistente' }, { token: elena.token }))
        .statusCode,
    ).toBe(200);
    expect((await create(elena, bakery('Padaria da Elena'))).statusCode).toBe(200);
    expect(await offered(elena)).toEqual([
      { name: 'padaria-da-elena', own: true },
      { name: 'assistente', own: false },
      { name: 'guia', own: false },
    ]);

    // The admin hired administrador: it answers the admin, never the admin's contacts.
    expect(
      (await post(ctx, '/api/agents/hire', { agentId: 'administrador' }, { token: admin.token }))
        .statusCode,
    ).toBe(200);
    expect(await hired(admin)).toContain('administrador');
    expect((await offered(admin)).map((a) => a.name)).not.toContain('administrador');
    const [administrador] = await ctx.database.db
      .select({ id: agentsTable.id })
      .from(agentsTable)
      .where(eq(agentsTable.name, 'administrador'));
    const refused = await choose(admin, administrador!.id);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toBe(message('pt-BR', 'whatsappServer.agentNotAvailable'));

    // Chosen, then nobody again (null): the status says so each time.
    const [own] = await mine(elena);
    const chosen = await choose(elena, own!.id);
    expect(chosen.json().data.defaultAgentId).toBe(own!.id);
    const nobody = await choose(elena, null);
    expect(nobody.statusCode, nobody.body.slice(0, 200)).toBe(200);
    expect(nobody.json().data.defaultAgentId).toBeNull();
  });
});
