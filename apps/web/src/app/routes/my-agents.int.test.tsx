// @vitest-environment happy-dom
import fs from 'node:fs';
import path from 'node:path';
import {
  MY_AGENTS_MAX,
  myAgentInputSchema,
  type MyAgent,
  type MyAgentInput,
  type SendMessageInput,
} from '@contrateia/shared';
import type { UserEvent } from '@testing-library/user-event';
import { screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import MyAgentRoute from '@/app/routes/my-agent';
import MyAgentsRoute from '@/app/routes/my-agents';
import { errorResponse, startFakeServer, type FakeServer } from '@/test/fake-server';
import { renderWithProviders } from '@/test/render-with-providers';

// "Meus agentes" (/my-agents, /my-agents/new, /my-agents/{id}) against a stand-in for the API
// that keeps the account's own agents as the server does (features/agents/my-agents.ts): the
// list and its empty state, creating the example clinic through the form, refusals next to
// their fields, editing with the test chat beside the form, and deleting after a question.
// The journey against the real server is e2e/my-agents.spec.ts.

/** The example business (a dental clinic in Curitiba), exactly a valid POST /api/my-agents body. */
const CLINIC = JSON.parse(
  fs.readFileSync(
    path.resolve(import.meta.dirname, '../../../../server/test/examples/clinica-sorriso.json'),
    'utf8',
  ),
) as MyAgentInput;
/** The example as the server reads it: trimmed, defaults filled in. */
const CLINIC_CONTENT = myAgentInputSchema.parse(CLINIC);

const CLINIC_ID = '7a0c5a52-3f4e-4c1b-9d7e-2b1f0c9e8d01';

/** The server's answers, in the caller's language (shared locales: agents.*). */
const SAID = {
  'pt-BR': {
    created: (name: string) => `Agente ${name} criado`,
    updated: (name: string) => `Agente ${name} salvo`,
    deleted: (name: string) => `Agente ${name} excluído`,
    saveFailed: 'Falha ao salvar o agente',
  },
  'es-ES': {
    created: (name: string) => `Agente ${name} creado`,
    updated: (name: string) => `Agente ${name} guardado`,
    deleted: (name: string) => `Agente ${name} eliminado`,
    saveFailed: 'No se ha podido guardar el agente',
  },
} as const;
type TestLanguage = keyof typeof SAID;

/** The chat page's slug of a display name, as the server makes it (my-agents.ts slugOf). */
const slugOf = (displayName: string) =>
  displayName
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');

/** An own agent as the server answers it, made from a request body. */
function agentOf(id: string, body: MyAgentInput, name = slugOf(body.displayName)): MyAgent {
  const at = '2026-03-02T12:00:00.000Z';
  return { id, name, ...myAgentInputSchema.parse(body), createdAt: at, updatedAt: at };
}

/**
 * The account's own agents on the stand-in server: listed, read, created (named from the display
 * name), replaced and deleted as agents.routes.ts does, with its messages; every body the page
 * sent is kept.
 */
function keepAgents(server: FakeServer, initial: MyAgent[] = []) {
  const agents = [...initial];
  const sent: { method: string; body: MyAgentInput }[] = [];
  const said = (language: string | null) => SAID[(language ?? 'pt-BR') as TestLanguage];
  const notFound = () => errorResponse(404, { message: 'Agente não encontrado' });
  const idOf = (url: string) => url.split('/').at(-1)!;

  server.on('GET /api/my-agents', () => ({ agents: [...agents] }));
  server.on('GET /api/my-agents/:id', (request) => {
    const agent = agents.find((a) => a.id === idOf(request.url));
    return agent ? { agent } : notFound();
  });
  server.on('POST /api/my-agents', (request) => {
    sent.push({ method: 'POST', body: request.body });
    const agent = agentOf(`${CLINIC_ID.slice(0, -2)}${String(agents.length + 10)}`, request.body);
    agents.push(agent);
    const message = said(request.headers.get('Accept-Language')).created(agent.displayName);
    return { success: true, message, agent };
  });
  server.on('PUT /api/my-agents/:id', (request) => {
    sent.push({ method: 'PUT', body: request.body });
    const index = agents.findIndex((a) => a.id === idOf(request.url));
    if (index < 0) return notFound();
    const agent = agentOf(agents[index]!.id, request.body, agents[index]!.name);
    agents[index] = agent;
    const message = said(request.headers.get('Accept-Language')).updated(agent.displayName);
    return { success: true, message, agent };
  });
  // A saved agent's page reads its documents (my-agent-documents.int.test.tsx covers them).
  server.on('GET /api/my-agents/:id/documents', () => []);
  server.on('DELETE /api/my-agents/:id', (request) => {
    const index = agents.findIndex((a) => a.id === idOf(request.url));
    if (index < 0) return notFound();
    const [agent] = agents.splice(index, 1);
    const message = said(request.headers.get('Accept-Language')).deleted(agent!.displayName);
    return { success: true, message, agent: agent! };
  });
  return { agents, sent };
}

/** The pages as app/router.tsx serves them, opened at `route`, with their texts. */
async function openPages(
  route: string,
  {
    agents = [],
    language = 'pt-BR',
    before,
  }: {
    agents?: MyAgent[];
    language?: TestLanguage;
    /** Changes the stand-in before the page opens (an endpoint that fails). */
    before?: (server: FakeServer) => void;
  } = {},
) {
  const server = startFakeServer();
  const kept = keepAgents(server, agents);
  before?.(server);
  const view = await renderWithProviders(
    <Routes>
      <Route index element={<MyAgentsRoute />} />
      <Route path="new" element={<MyAgentRoute />} />
      <Route path=":id" element={<MyAgentRoute />} />
    </Routes>,
    { route, path: '/my-agents/*', language, texts: ['app', 'my-agents'] },
  );
  return { server, ...kept, ...view };
}

/** Replaces a field's text as typing it would, in one go (the texts are long). */
async function fill(user: UserEvent, field: HTMLElement, text: string) {
  await user.clear(field);
  if (!text) return;
  await user.click(field);
  await user.paste(text);
}

const WEEKDAYS = [
  'Domingo',
  'Segunda-feira',
  'Terça-feira',
  'Quarta-feira',
  'Quinta-feira',
  'Sexta-feira',
  'Sábado',
];

/**
 * The fields of a group of the form ("Segunda-feira", "Item 3", "Pergunta 2"…), found by its
 * name's text: role queries weigh every element of a form this long, many times over.
 */
function part(name: string) {
  const title = screen.getByText(name, { selector: 'legend, h3' });
  return within(title.closest<HTMLElement>('fieldset, [role="group"]')!);
}

/** Writes `agent` into the form of a new agent, section by section, as a person would. */
async function fillAgent(user: UserEvent, agent: MyAgentInput) {
  const { business } = agent;
  const negocio = within(screen.getByRole('region', { name: 'Negócio' }));
  await fill(user, negocio.getByLabelText('Nome do negócio'), business.name);
  await fill(user, negocio.getByLabelText('Sobre o negócio'), business.about);
  await fill(user, negocio.getByLabelText('Endereço (opcional)'), business.address ?? '');
  await fill(user, negocio.getByLabelText('Telefone (opcional)'), business.phone ?? '');
  await fill(user, negocio.getByLabelText('Site (opcional)'), business.website ?? '');
  await user.selectOptions(negocio.getByLabelText('Fuso horário'), business.timeZone!);

  for (const { day, open, close } of business.hours ?? []) {
    const weekday = part(WEEKDAYS[day]!);
    await user.click(weekday.getByRole('button', { name: `Adicionar horário: ${WEEKDAYS[day]}` }));
    await fill(user, weekday.getAllByLabelText(/Abre$/).at(-1)!, open);
    await fill(user, weekday.getAllByLabelText(/Fecha$/).at(-1)!, close);
  }
  const dates = within(screen.getByRole('group', { name: 'Datas fechadas' }));
  for (const date of business.closedDates ?? []) {
    await user.click(dates.getByRole('button', { name: 'Adicionar data' }));
    await fill(user, dates.getAllByLabelText(/^Data fechada \d+$/).at(-1)!, date);
  }

  for (const [index, item] of (agent.catalogue ?? []).entries()) {
    await user.click(screen.getByRole('button', { name: 'Adicionar item' }));
    const row = part(`Item ${index + 1}`);
    await fill(user, row.getByLabelText('Nome'), item.name);
    await fill(user, row.getByLabelText('Preço (R$)'), String(item.price).replace('.', ','));
    await fill(user, row.getByLabelText('Unidade (opcional)'), item.unit ?? '');
    await fill(user, row.getByLabelText('Descrição (opcional)'), item.description ?? '');
  }

  for (const [index, entry] of (agent.faq ?? []).entries()) {
    await user.click(screen.getByRole('button', { name: 'Adicionar pergunta' }));
    const row = part(`Pergunta ${index + 1}`);
    await fill(user, row.getByLabelText('Pergunta'), entry.question);
    await fill(user, row.getByLabelText('Resposta'), entry.answer);
    await fill(
      user,
      row.getByLabelText('Outras formas de perguntar (opcional)'),
      (entry.alternates ?? []).join('\n'),
    );
  }

  const instrucoes = within(screen.getByRole('region', { name: 'Instruções' }));
  await fill(user, instrucoes.getByLabelText('Nome do agente'), agent.displayName);
  await fill(user, instrucoes.getByLabelText('Descrição (opcional)'), agent.description ?? '');
  await fill(user, instrucoes.getByLabelText('Instruções (opcional)'), agent.instructions ?? '');
  await fill(
    user,
    instrucoes.getByLabelText('Mensagem de transferência (opcional)'),
    business.handoffMessage ?? '',
  );
}

describe('the list of own agents', () => {
  it('explains what an own agent is when there is none yet, and leads to the form', async () => {
    const { server } = await openPages('/my-agents');
    expect(screen.getByRole('heading', { level: 1, name: 'Meus agentes' })).toBeVisible();
    const empty = await screen.findByRole('region', {
      name: 'Você ainda não tem agentes próprios',
    });
    expect(empty).toHaveTextContent('Um agente próprio atende em nome do seu negócio.');
    expect(within(empty).getByRole('link', { name: 'Criar agente' })).toHaveAttribute(
      'href',
      '/my-agents/new',
    );
    expect(screen.queryByRole('list', { name: 'Seus agentes' })).not.toBeInTheDocument();
    expect(server.calls()).toEqual(['GET /api/my-agents']);
  });

  it('shows each agent with its business, its form and its chat page; at the limit, Create is off and says why', async () => {
    const agents = Array.from({ length: MY_AGENTS_MAX }, (_, i) =>
      agentOf(`${CLINIC_ID.slice(0, -2)}${String(i + 20)}`, {
        ...CLINIC,
        displayName: `Clínica ${i + 1}`,
      }),
    );
    await openPages('/my-agents', { agents });
    const list = await screen.findByRole('list', { name: 'Seus agentes' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(MY_AGENTS_MAX);
    const first = within(list).getByRole('listitem', { name: 'Clínica 1' });
    expect(first).toHaveTextContent(CLINIC.business.name);
    expect(first).toHaveTextContent(CLINIC.description!);
    expect(first).toHaveTextContent('Catálogo11 itens');
    expect(within(first).getByRole('link', { name: 'Editar Clínica 1' })).toHaveAttribute(
      'href',
      `/my-agents/${agents[0]!.id}`,
    );
    expect(within(first).getByRole('link', { name: 'Conversar com Clínica 1' })).toHaveAttribute(
      'href',
      '/agent/clinica-1',
    );
    const create = screen.getByRole('button', { name: 'Criar agente' });
    expect(create).toBeDisabled();
    expect(create).toHaveAccessibleDescription(
      'Você chegou ao limite de 10 agentes. Exclua um para criar outro.',
    );
  });

  it('says when the list cannot be read, and reads it again on Retry', async () => {
    let fail = true;
    const { server, user } = await openPages('/my-agents', {
      before: (stand) => {
        const answer = () => ({ agents: [agentOf(CLINIC_ID, CLINIC)] });
        stand.on('GET /api/my-agents', () =>
          fail ? errorResponse(500, { message: 'Erro no servidor' }) : answer(),
        );
      },
    });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Não foi possível carregar seus agentes: Erro no servidor',
    );
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Tentar novamente' }));
    expect(await screen.findByRole('listitem', { name: 'Clínica Sorriso' })).toBeVisible();
    expect(server.calls()).toEqual(['GET /api/my-agents', 'GET /api/my-agents']);
  });

  it('deletes an agent only once asked, and says so with the server’s message', async () => {
    const clinic = agentOf(CLINIC_ID, CLINIC);
    const { server, user, agents } = await openPages('/my-agents', { agents: [clinic] });
    const card = await screen.findByRole('listitem', { name: 'Clínica Sorriso' });

    await user.click(within(card).getByRole('button', { name: 'Excluir Clínica Sorriso' }));
    let dialog = screen.getByRole('dialog', { name: 'Excluir Clínica Sorriso?' });
    expect(dialog).toHaveTextContent('deixa de responder, inclusive no WhatsApp');
    await user.click(within(dialog).getByRole('button', { name: 'Cancelar' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(server.calls()).toEqual(['GET /api/my-agents']);

    await user.click(within(card).getByRole('button', { name: 'Excluir Clínica Sorriso' }));
    dialog = screen.getByRole('dialog', { name: 'Excluir Clínica Sorriso?' });
    await user.click(within(dialog).getByRole('button', { name: 'Excluir' }));
    expect(await screen.findByRole('status')).toHaveTextContent('Agente Clínica Sorriso excluído');
    expect(
      screen.getByRole('region', { name: 'Você ainda não tem agentes próprios' }),
    ).toBeVisible();
    expect(screen.getByRole('heading', { level: 1, name: 'Meus agentes' })).toHaveFocus();
    expect(agents).toEqual([]);
    expect(server.calls()).toContain(`DELETE /api/my-agents/${CLINIC_ID}`);
  });
});

describe('the form of an own agent', () => {
  it('creates the example clinic from what is typed: the request is the example, and the agent opens on its page', async () => {
    const { user, sent, location } = await openPages('/my-agents/new');
    expect(screen.getByRole('heading', { level: 1, name: 'Criar agente' })).toBeVisible();
    expect(screen.getByLabelText('Fuso horário')).toHaveValue('America/Sao_Paulo');
    // A new agent has nothing to test yet.
    expect(screen.queryByRole('region', { name: /^Testar/ })).not.toBeInTheDocument();

    await fillAgent(user, CLINIC);
    await user.click(screen.getByRole('button', { name: 'Criar agente' }));

    // The whole example is checked and sent first: on a machine shared with other work that
    // alone can take longer than the default wait.
    await screen.findByRole(
      'heading',
      { level: 1, name: 'Editar Clínica Sorriso' },
      { timeout: 15_000 },
    );
    expect(sent).toHaveLength(1);
    expect(sent[0]!.method).toBe('POST');
    expect(myAgentInputSchema.parse(sent[0]!.body)).toEqual(CLINIC_CONTENT);
    expect(location().pathname).toMatch(/^\/my-agents\/[0-9a-f-]{36}$/);
    expect(screen.getByText('Agente Clínica Sorriso criado')).toBeVisible();
    // Saved: now it can be tried beside its form.
    expect(screen.getByRole('region', { name: 'Testar Clínica Sorriso' })).toBeVisible();
    // The whole example typed field by field: a long test on a loaded machine (42 s seen).
  }, 90_000);

  it('refuses what the shared schema refuses next to its field, in the page’s language, sending nothing', async () => {
    const { user, server } = await openPages('/my-agents/new');
    await user.click(screen.getByRole('button', { name: 'Criar agente' }));

    const businessName = screen.getByLabelText('Nome do negócio');
    await waitFor(() =>
      expect(businessName).toHaveAccessibleDescription('O nome do negócio é obrigatório'),
    );
    expect(businessName).toHaveAttribute('aria-invalid', 'true');
    expect(businessName).toHaveFocus();
    expect(screen.getByLabelText('Sobre o negócio')).toHaveAccessibleDescription(
      /Conte em poucas palavras o que o negócio faz/,
    );
    expect(screen.getByLabelText('Nome do agente')).toHaveAccessibleDescription(
      /O nome do agente é obrigatório/,
    );
    expect(screen.getByText('Revise os campos marcados.')).toBeVisible();
    // The parts holding errors say so in the form's nav.
    const nav = within(screen.getByRole('navigation', { name: 'Partes do formulário' }));
    expect(nav.getByRole('link', { name: 'Negócio · revisar' })).toBeVisible();
    expect(nav.getByRole('link', { name: 'Instruções · revisar' })).toBeVisible();
    expect(nav.getByRole('link', { name: 'Catálogo' })).toBeVisible();

    // A period closing before it opens, a price that is no number: each on its own field.
    await fill(user, businessName, 'Padaria Pão Quente');
    const monday = part('Segunda-feira');
    await user.click(monday.getByRole('button', { name: 'Adicionar horário: Segunda-feira' }));
    await fill(user, monday.getByLabelText(/Abre$/), '13:00');
    await fill(user, monday.getByLabelText(/Fecha$/), '12:00');
    await user.click(screen.getByRole('button', { name: 'Adicionar item' }));
    await fill(user, part('Item 1').getByLabelText('Nome'), 'Pão francês');
    await fill(user, part('Item 1').getByLabelText('Preço (R$)'), 'dois reais');
    await user.click(screen.getByRole('button', { name: 'Criar agente' }));

    await waitFor(() =>
      expect(monday.getByLabelText(/Fecha$/)).toHaveAccessibleDescription(
        'O horário de fechamento deve ser depois do de abertura',
      ),
    );
    expect(part('Item 1').getByLabelText('Preço (R$)')).toHaveAccessibleDescription(
      'O preço é um número de 0 a 1.000.000.000',
    );
    expect(businessName).not.toHaveAttribute('aria-invalid');
    expect(screen.getByLabelText('Sobre o negócio')).toHaveFocus();
    expect(server.calls()).toEqual([]);
  });

  it('words the refusals in Spanish on a Spanish page', async () => {
    const { user } = await openPages('/my-agents/new', { language: 'es-ES' });
    await user.click(screen.getByRole('button', { name: 'Crear agente' }));
    await waitFor(() =>
      expect(screen.getByLabelText('Nombre del negocio')).toHaveAccessibleDescription(
        'El nombre del negocio es obligatorio',
      ),
    );
    expect(screen.getByLabelText('Nombre del agente')).toHaveAccessibleDescription(
      /El nombre del agente es obligatorio/,
    );
  });

  it('edits a saved agent: what changed is saved with PUT, and the test chat beside it talks to the saved agent', async () => {
    const clinic = agentOf(CLINIC_ID, CLINIC);
    const { user, sent, server } = await openPages(`/my-agents/${CLINIC_ID}`, {
      agents: [clinic],
    });
    await screen.findByRole('heading', { level: 1, name: 'Editar Clínica Sorriso' });
    expect(screen.getByRole('link', { name: '/agent/clinica-sorriso' })).toHaveAttribute(
      'href',
      '/agent/clinica-sorriso',
    );
    // What was saved, in its fields.
    expect(screen.getByLabelText('Nome do negócio')).toHaveValue(CLINIC.business.name);
    expect(
      part('Segunda-feira')
        .getAllByLabelText(/Abre$/)
        .map((field) => (field as HTMLInputElement).value),
    ).toEqual(['08:00', '13:00']);
    expect(part('Domingo').getByText('Fechado')).toBeVisible();
    expect(part('Item 2').getByLabelText('Preço (R$)')).toHaveValue('180');
    expect(part('Pergunta 1').getByLabelText('Outras formas de perguntar (opcional)')).toHaveValue(
      CLINIC.faq![0]!.alternates!.join('\n'),
    );
    expect(screen.queryByText('Há alterações não salvas.')).not.toBeInTheDocument();

    // A new price with a comma, one question fewer, Sunday mornings open.
    await fill(user, part('Item 2').getByLabelText('Preço (R$)'), '189,90');
    await user.click(screen.getByRole('button', { name: 'Remover pergunta 15' }));
    expect(screen.getByRole('button', { name: 'Adicionar pergunta' })).toHaveFocus();
    await user.click(screen.getByRole('button', { name: 'Adicionar horário: Domingo' }));
    expect(part('Domingo').getByLabelText(/Abre$/)).toHaveFocus();
    expect(screen.getByText('Há alterações não salvas.')).toBeVisible();
    const tester = screen.getByRole('region', { name: 'Testar Clínica Sorriso' });
    expect(tester).toHaveTextContent('Ele responde com o que foi salvo por último.');
    expect(tester).toHaveTextContent('Você tem alterações não salvas');

    await user.click(screen.getByRole('button', { name: 'Salvar' }));
    expect(await screen.findByText('Agente Clínica Sorriso salvo')).toBeVisible();
    expect(sent.map((request) => request.method)).toEqual(['PUT']);
    const catalogue = CLINIC.catalogue!.map((item, i) =>
      i === 1 ? { ...item, price: 189.9 } : item,
    );
    expect(myAgentInputSchema.parse(sent[0]!.body)).toEqual(
      myAgentInputSchema.parse({
        ...CLINIC,
        business: {
          ...CLINIC.business,
          hours: [...CLINIC.business.hours!, { day: 0, open: '09:00', close: '18:00' }],
        },
        catalogue,
        faq: CLINIC.faq!.slice(0, 14),
      }),
    );
    expect(screen.queryByText('Há alterações não salvas.')).not.toBeInTheDocument();
    expect(tester).not.toHaveTextContent('Você tem alterações não salvas');

    // The test chat: the agent's own chat API, in a conversation of its own, continued.
    const asked: SendMessageInput[] = [];
    server.on('POST /api/chat/message', (request) => {
      asked.push(request.body);
      return {
        success: true,
        message: {
          id: `m${asked.length}`,
          text: 'A **Limpeza com aplicação de flúor** custa R$ 189,90 por sessão.',
          sender: 'bot',
          timestamp: '2026-03-02T12:00:00.000Z',
        },
        conversation: {
          id: 'c0ffee00-0000-4000-8000-000000000001',
          title: 'quanto custa a limpeza?',
        },
      };
    });
    const box = within(tester).getByRole('textbox', { name: 'Mensagem para Clínica Sorriso' });
    await user.type(box, 'quanto custa a limpeza?{Enter}');
    const log = within(tester).getByRole('log', { name: 'Conversa de teste com Clínica Sorriso' });
    await waitFor(() => expect(log).toHaveTextContent('custa R$ 189,90 por sessão'));
    await user.type(box, 'e o clareamento?{Enter}');
    await waitFor(() => expect(asked).toHaveLength(2));
    expect(asked).toEqual([
      { agentName: 'clinica-sorriso', message: 'quanto custa a limpeza?' },
      {
        agentName: 'clinica-sorriso',
        message: 'e o clareamento?',
        conversationId: 'c0ffee00-0000-4000-8000-000000000001',
      },
    ]);
    // A new conversation starts without the old one's id.
    await waitFor(() => expect(within(log).getAllByRole('listitem')).toHaveLength(4));
    await user.click(within(tester).getByRole('button', { name: 'Nova conversa' }));
    expect(within(log).queryAllByRole('listitem')).toHaveLength(0);
    await user.type(box, 'oi{Enter}');
    await waitFor(() => expect(asked).toHaveLength(3));
    expect(asked[2]).toEqual({ agentName: 'clinica-sorriso', message: 'oi' });
  });

  it("puts the server's refusal of a field on that field", async () => {
    const clinic = agentOf(CLINIC_ID, CLINIC);
    const { user } = await openPages(`/my-agents/${CLINIC_ID}`, {
      agents: [clinic],
      before: (stand) =>
        stand.on('PUT /api/my-agents/:id', () =>
          errorResponse(400, {
            message: SAID['pt-BR'].saveFailed,
            errors: {
              // One line of a list edited as one text: on the whole text's field.
              'faq.0.alternates.1': 'Perguntas podem ter no máximo 200 caracteres',
              'catalogue.2.name': 'O nome do item é obrigatório',
            },
          }),
        ),
    });
    await screen.findByRole('heading', { level: 1, name: 'Editar Clínica Sorriso' });
    await fill(user, screen.getByLabelText('Nome do agente'), 'Clínica Sorriso Centro');
    await user.click(screen.getByRole('button', { name: 'Salvar' }));

    const alternates = part('Pergunta 1').getByLabelText('Outras formas de perguntar (opcional)');
    await waitFor(() =>
      expect(alternates).toHaveAccessibleDescription(
        /Perguntas podem ter no máximo 200 caracteres/,
      ),
    );
    expect(part('Item 3').getByLabelText('Nome')).toHaveAccessibleDescription(
      'O nome do item é obrigatório',
    );
    // The first of them in the page's order gets focus.
    expect(part('Item 3').getByLabelText('Nome')).toHaveFocus();
    expect(screen.getByText('Revise os campos marcados.')).toBeVisible();
    expect(screen.getByText('Há alterações não salvas.')).toBeVisible();
  });

  it('says so when the agent does not exist (another account’s, or deleted)', async () => {
    await openPages('/my-agents/0b9c9d0e-0000-4000-8000-00000000dead');
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Agente não encontrado' }),
    ).toBeVisible();
    expect(screen.getByRole('alert')).toHaveTextContent('Este agente não existe ou foi excluído.');
    expect(screen.getByRole('link', { name: 'Meus agentes' })).toHaveAttribute(
      'href',
      '/my-agents',
    );
  });
});
