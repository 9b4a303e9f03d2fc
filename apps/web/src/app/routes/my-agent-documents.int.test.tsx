// @vitest-environment happy-dom
import {
  MY_AGENT_DOCUMENT_ACCEPT,
  MY_AGENT_DOCUMENT_FIELD,
  myAgentInputSchema,
  type MyAgent,
  type MyAgentDocument,
} from '@contrateia/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { Route, Routes } from 'react-router';
import { describe, expect, it } from 'vitest';
import MyAgentRoute from '@/app/routes/my-agent';
import { errorResponse, jsonResponse, startFakeServer, type FakeServer } from '@/test/fake-server';
import { renderWithProviders } from '@/test/render-with-providers';

// The "Documentos" section of an own agent's page (features/my-agents/components/
// documents-section.tsx) against a stand-in for the API that keeps the agent's documents as
// the server does (features/agents/my-agent-documents.ts): a new agent is asked to be saved
// first; a saved one lists its documents, takes a file through the picker with its progress,
// shows the server's refusal in the user's language, and removes a document after a question.

const AGENT_ID = '7a0c5a52-3f4e-4c1b-9d7e-2b1f0c9e8d01';
const AT = '2026-03-02T12:00:00.000Z';

const AGENT: MyAgent = {
  id: AGENT_ID,
  name: 'clinica-sorriso',
  ...myAgentInputSchema.parse({
    displayName: 'Clínica Sorriso',
    business: { name: 'Clínica Sorriso', about: 'Clínica odontológica em Curitiba.' },
  }),
  createdAt: AT,
  updatedAt: AT,
};

/** A document as the server answers an upload of `name`. */
const documentOf = (id: string, name: string, pages: number | null): MyAgentDocument => ({
  id,
  filename: name,
  pages,
  characters: 12_345,
  createdAt: AT,
});

/** The agent and its documents on the stand-in server, as the documents' routes keep them. */
function keepDocuments(server: FakeServer, initial: MyAgentDocument[] = []) {
  const documents = [...initial];
  const idOf = (url: string) => url.split('/').at(-1)!;
  server.on('GET /api/my-agents/:id', () => ({ agent: AGENT }));
  server.on('GET /api/my-agents/:id/documents', () => [...documents]);
  server.on('DELETE /api/my-agents/:id/documents/:documentId', (request) => {
    const index = documents.findIndex((d) => d.id === idOf(request.url));
    if (index < 0) return errorResponse(404, { message: 'Documento não encontrado' });
    documents.splice(index, 1);
    return new Response(null, { status: 204 });
  });
  return documents;
}

async function openAgent(
  route: string,
  initial: MyAgentDocument[] = [],
  language = 'pt-BR' as const,
) {
  const server = startFakeServer();
  const documents = keepDocuments(server, initial);
  const view = await renderWithProviders(
    <Routes>
      <Route path="new" element={<MyAgentRoute />} />
      <Route path=":id" element={<MyAgentRoute />} />
    </Routes>,
    { route, path: '/my-agents/*', language, texts: ['app', 'my-agents'] },
  );
  // The form, and the section with it, once the agent is read.
  await screen.findByRole('region', { name: 'Documentos' });
  return { server, documents, ...view };
}

const section = () => within(screen.getByRole('region', { name: 'Documentos' }));
const fileInput = () =>
  screen.getByLabelText<HTMLInputElement>('Adicionar documento', { selector: 'input' });

describe('an own agent’s documents on its page', () => {
  it('asks a new agent to be saved first, and reads nothing', async () => {
    const { server } = await openAgent('/my-agents/new');
    expect(
      section().getByText('Salve o agente primeiro: depois você pode adicionar documentos aqui.'),
    ).toBeTruthy();
    expect(section().queryByRole('button', { name: 'Adicionar documento' })).toBeNull();
    // The section nav leads to it, between the questions and the instructions.
    const nav = within(screen.getByRole('navigation', { name: 'Partes do formulário' }));
    expect(nav.getAllByRole('link').map((link) => link.textContent)).toEqual([
      'Negócio',
      'Horários',
      'Catálogo',
      'Perguntas frequentes',
      'Documentos',
      'Instruções',
    ]);
    expect(server.calls().filter((call) => call.includes('/documents'))).toEqual([]);
  });

  it('lists none, then takes a file through the picker with its progress, and lists it', async () => {
    const { server, documents, user } = await openAgent(`/my-agents/${AGENT_ID}`);
    expect(await section().findByText('Nenhum documento ainda.')).toBeTruthy();
    // The picker offers the four kinds; the button that opens it is a button, in the tab order.
    expect(fileInput().accept).toBe(MY_AGENT_DOCUMENT_ACCEPT);
    const button = section().getByRole('button', { name: 'Adicionar documento' });
    expect(button.tabIndex).toBe(0);
    expect(fileInput().tabIndex).toBe(-1);

    const uploads = server.hold('POST /api/my-agents/:id/documents');
    await user.upload(fileInput(), new File(['%PDF-1.7 …'], 'Tabela 2026.pdf'));
    const held = await uploads.next();
    expect(held.request.url).toBe(`/api/my-agents/${AGENT_ID}/documents`);
    const sent = held.request.body.get(MY_AGENT_DOCUMENT_FIELD);
    expect(sent instanceof File && sent.name).toBe('Tabela 2026.pdf');
    expect(await section().findByText('Enviando Tabela 2026.pdf... 0%')).toBeTruthy();
    expect(button.hasAttribute('disabled')).toBe(true);

    const document = documentOf('d1', 'Tabela 2026.pdf', 3);
    documents.push(document);
    held.respond(jsonResponse(document, 201));
    expect(await section().findByText('Documento Tabela 2026.pdf adicionado')).toBeTruthy();
    const list = within(section().getByRole('list', { name: 'Documentos do agente' }));
    expect(list.getByText('Tabela 2026.pdf')).toBeTruthy();
    expect(list.getByText(/^3 páginas · 12\.345 caracteres · Adicionado em /)).toBeTruthy();
    expect(button.hasAttribute('disabled')).toBe(false);
  });

  it('shows the server’s refusal in the user’s language, and keeps the list as it was', async () => {
    const { server, user } = await openAgent(`/my-agents/${AGENT_ID}`, [
      documentOf('d1', 'Convênios.docx', null),
    ]);
    expect(await section().findByText('Convênios.docx')).toBeTruthy();
    // No pages for a DOCX: its characters and date only.
    expect(section().getByText(/^12\.345 caracteres · Adicionado em /)).toBeTruthy();
    server.on('POST /api/my-agents/:id/documents', () =>
      errorResponse(400, {
        message: 'Este PDF está protegido por senha. Envie uma cópia sem senha',
        errors: { file: 'Este PDF está protegido por senha. Envie uma cópia sem senha' },
      }),
    );
    await user.upload(fileInput(), new File(['%PDF'], 'protegido.pdf'));
    expect(
      await section().findByText(
        'Não foi possível adicionar o documento: Este PDF está protegido por senha. Envie uma cópia sem senha',
      ),
    ).toBeTruthy();
    expect(section().getAllByRole('listitem')).toHaveLength(1);
  });

  it('removes a document after a question, and says when none is left', async () => {
    const { server, user } = await openAgent(`/my-agents/${AGENT_ID}`, [
      documentOf('d1', 'Tabela 2026.pdf', 3),
    ]);
    const remove = await section().findByRole('button', { name: 'Remover Tabela 2026.pdf' });

    // Cancelled: nothing sent, still listed.
    await user.click(remove);
    const asked = await screen.findByRole('dialog', { name: 'Remover Tabela 2026.pdf?' });
    await user.click(within(asked).getByRole('button', { name: 'Cancelar' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(section().getByText('Tabela 2026.pdf')).toBeTruthy();

    await user.click(remove);
    const confirm = await screen.findByRole('dialog', { name: 'Remover Tabela 2026.pdf?' });
    await user.click(within(confirm).getByRole('button', { name: 'Remover' }));
    expect(await section().findByText('Documento Tabela 2026.pdf removido')).toBeTruthy();
    await waitFor(() => expect(section().getByText('Nenhum documento ainda.')).toBeTruthy());
    expect(server.calls()).toContain(`DELETE /api/my-agents/${AGENT_ID}/documents/d1`);
  });
});
