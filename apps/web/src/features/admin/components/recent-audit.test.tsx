// @vitest-environment happy-dom
import type { AuditEntry } from '@contrateia/shared/admin/admin.schemas';
import type { Language } from '@contrateia/shared/i18n/languages';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { RecentAudit } from '@/features/admin/components/recent-audit';
import { auditEntryFixture, uuid } from '@/test/admin-manage-fixtures';
import { errorResponse, startFakeServer, type FakeServer } from '@/test/fake-server';
import { renderWithProviders } from '@/test/render-with-providers';

// The recent admin changes against a stand-in API that pages the audit, newest first, as the server
// does.

function fakeAuditApi(server: FakeServer, entries: AuditEntry[]) {
  server.on('GET /api/admin/audit', ({ url }) => {
    const query = new URL(url, 'http://localhost').searchParams;
    const limit = Number(query.get('limit'));
    const offset = Number(query.get('offset'));
    return { entries: entries.slice(offset, offset + limit), total: entries.length };
  });
}

async function openAudit({
  language = 'en-US',
  entries,
}: {
  language?: Language;
  entries: AuditEntry[];
}) {
  const server = startFakeServer();
  fakeAuditApi(server, entries);
  const view = await renderWithProviders(<RecentAudit />, {
    language,
    route: '/admin',
    texts: ['app', 'admin'],
  });
  return { server, ...view };
}

const items = () => within(screen.getByRole('list')).getAllByRole('listitem');

/** `count` changes, the newest first. */
const changes = (count: number) =>
  Array.from({ length: count }, (_, i) =>
    auditEntryFixture({
      id: uuid(800 + i),
      at: new Date(Date.UTC(2025, 5, 2, 10, 0) - i * 60_000).toISOString(),
      action: 'agent.update',
      target: `agent-${i + 1}`,
      changes: { instructions: { before: 'a', after: 'b' } },
    }),
  );

describe('the recent changes', () => {
  it('says who did what, on what, which fields and when', async () => {
    await openAudit({
      entries: [
        auditEntryFixture({
          changes: {
            primaryColor: { before: '#667eea', after: '#112233' },
            buttonColor: { before: '#667eea', after: '#334455' },
          },
        }),
        auditEntryFixture({
          id: uuid(901),
          action: 'user.role',
          target: uuid(11),
          targetName: 'Bruno Lima (bruno@exemplo.com)',
          // Both roles of the account changed: said once.
          changes: {
            role: { before: 'user', after: 'admin' },
            originalRole: { before: 'user', after: 'admin' },
          },
          actor: null,
        }),
        auditEntryFixture({
          id: uuid(902),
          action: 'agent.create',
          target: uuid(12),
          targetName: 'Support Bot',
          changes: {
            name: { before: null, after: 'support-bot' },
            isActive: { before: null, after: true },
          },
        }),
        // The AI settings are their own target.
        auditEntryFixture({
          id: uuid(904),
          action: 'ai.update',
          target: 'ai',
          changes: { model: { before: '', after: 'gpt-4o-mini' } },
        }),
        // An agent's configuration in words; a field this version has no words for, as named.
        auditEntryFixture({
          id: uuid(905),
          action: 'agent.update',
          target: uuid(13),
          targetName: 'Auxtrat',
          changes: {
            'configuration.catalogue': { before: null, after: null },
            'configuration.capabilities': { before: null, after: null },
            futureField: { before: 1, after: 2 },
          },
        }),
        // An action this version does not know is shown as the server names it.
        auditEntryFixture({ id: uuid(903), action: 'images.upload', target: 'logo.png' }),
      ],
    });
    await screen.findByRole('list');
    const [theme, role, agent, ai, edit, unknown] = items();
    expect(theme).toHaveTextContent('Ana Admin changed the theme settings');
    expect(theme).toHaveTextContent('Changed: primary colour and button colour');
    const when = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });
    expect(
      within(theme!).getByText(when.format(new Date('2025-06-02T10:00:00.000Z'))),
    ).toHaveAttribute('datetime', '2025-06-02T10:00:00.000Z');
    expect(role).toHaveTextContent(
      'A deleted account changed the role of the user Bruno Lima (bruno@exemplo.com)',
    );
    expect(role).not.toHaveTextContent(uuid(11));
    expect(within(role!).getByText(/^Changed:/)).toHaveTextContent(/^Changed: role$/);
    expect(agent).toHaveTextContent('Ana Admin created the agent Support Bot');
    // A creation lists no field names.
    expect(agent).not.toHaveTextContent('Changed:');
    expect(ai).toHaveTextContent('Ana Admin changed the AI settings');
    expect(ai).not.toHaveTextContent('settings ai');
    expect(ai).toHaveTextContent('Changed: model');
    expect(edit).toHaveTextContent('Ana Admin edited the agent Auxtrat');
    expect(edit).toHaveTextContent('Changed: catalogue, skills, and futureField');
    expect(unknown).toHaveTextContent('Ana Admin images.upload logo.png');
  });

  it("words the monitor's quick actions, with no target or field names of their own", async () => {
    await openAudit({
      language: 'es-ES',
      entries: [
        auditEntryFixture({
          action: 'monitor.cleanup-sessions',
          target: 'sessions',
          changes: { sessions: { before: null, after: 3 }, codes: { before: null, after: 5 } },
        }),
        auditEntryFixture({
          id: uuid(905),
          action: 'monitor.test-email',
          target: 'ana@exemplo.com',
          changes: { mode: { before: null, after: 'smtp' } },
        }),
        auditEntryFixture({
          id: uuid(906),
          action: 'monitor.reconnect-whatsapp',
          target: 'whatsapp',
          changes: { reconnected: { before: null, after: 1 } },
        }),
      ],
    });
    await screen.findByRole('list');
    const [cleanup, mail, whatsapp] = items();
    expect(cleanup).toHaveTextContent(
      'Ana Admin eliminó las sesiones y los códigos de correo caducados',
    );
    expect(cleanup).not.toHaveTextContent('sessions');
    expect(mail).toHaveTextContent('Ana Admin envió un correo de prueba');
    expect(whatsapp).toHaveTextContent(
      'Ana Admin volvió a conectar las conexiones de WhatsApp fallidas',
    );
    for (const item of [cleanup, mail, whatsapp]) expect(item).not.toHaveTextContent('Cambiado');
  });

  it('names every field in words, and an upload or a deletion by its name alone', async () => {
    const whole = {
      title: 'Farol',
      width: 32,
      height: 24,
      fileSize: 900,
      mimeType: 'image/png',
      originalFilename: 'farol.png',
    };
    await openAudit({
      language: 'pt-BR',
      entries: [
        auditEntryFixture({
          id: uuid(901),
          action: 'image.delete',
          target: uuid(77),
          targetName: 'Farol',
          changes: Object.fromEntries(
            Object.entries(whole).map(([field, value]) => [field, { before: value, after: null }]),
          ),
        }),
        auditEntryFixture({
          id: uuid(902),
          action: 'image.upload',
          target: uuid(77),
          targetName: 'Farol',
          changes: Object.fromEntries(
            Object.entries(whole).map(([field, value]) => [field, { before: null, after: value }]),
          ),
        }),
        auditEntryFixture({
          id: uuid(903),
          action: 'image.update',
          target: uuid(78),
          targetName: 'Praia',
          changes: {
            title: { before: 'Praia velha', after: 'Praia' },
            originalFilename: { before: 'a.png', after: 'b.png' },
          },
        }),
      ],
    });
    await waitFor(() => expect(items()).toHaveLength(3));
    const [deleted, uploaded, edited] = items();
    expect(deleted).toHaveTextContent('excluiu a imagem Farol');
    expect(uploaded).toHaveTextContent('enviou a imagem Farol');
    expect(uploaded).not.toHaveTextContent('Alterado');
    expect(edited).toHaveTextContent('Alterado: título e nome do arquivo');
    for (const item of items())
      expect(item.textContent).not.toMatch(/width|height|fileSize|mimeType|originalFilename/);
  });

  it('in Portuguese', async () => {
    await openAudit({ language: 'pt-BR', entries: [auditEntryFixture()] });
    await screen.findByRole('list');
    expect(items()[0]).toHaveTextContent('Ana Admin alterou as configurações de tema');
    expect(items()[0]).toHaveTextContent('Alterado: cor primária');
  });

  it('loads more on request until every change is shown', async () => {
    const { server, user } = await openAudit({ entries: changes(25) });
    await screen.findByRole('list');
    expect(items()).toHaveLength(20);
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(items()).toHaveLength(25));
    expect(items()[24]).toHaveTextContent('agent-25');
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    expect(server.calls()).toEqual([
      'GET /api/admin/audit?limit=20&offset=0',
      'GET /api/admin/audit?limit=20&offset=20',
    ]);
  });

  it('says when nothing has changed yet', async () => {
    await openAudit({ entries: [] });
    expect(await screen.findByText('No changes yet.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
  });

  it("says 'Failed to load recent changes' with the server's reason, and tries again", async () => {
    const server = startFakeServer();
    server.on('GET /api/admin/audit', () => errorResponse(500, { message: 'Server error' }));
    const { user } = await renderWithProviders(<RecentAudit />, {
      language: 'en-US',
      texts: ['app', 'admin'],
    });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to load recent changes: Server error',
    );
    fakeAuditApi(server, [auditEntryFixture()]);
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('changed the theme settings')).toBeInTheDocument();
  });
});
