// @vitest-environment happy-dom
import type { Language } from '@contrateia/shared/i18n/languages';
import type { LogEntry } from '@contrateia/shared/logs/logs.schemas';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { LogsPage } from '@/features/logs/components/logs-page';
import { errorResponse, startFakeServer, type FakeServer } from '@/test/fake-server';
import { logEntryFixture, manyLogs, serveLogs } from '@/test/logs-fixtures';
import { renderWithProviders } from '@/test/render-with-providers';

// The logs page against a stand-in GET /api/logs that filters and pages as the server does
// (test/logs-fixtures.ts). Who may open it is app/routes/logs.test.tsx; the journey against the
// real server is e2e/logs.spec.ts.

const events = (): LogEntry[] => [
  logEntryFixture(),
  logEntryFixture({
    id: '2',
    timestamp: '2025-03-10T13:05:00.000Z',
    level: 'error',
    message: 'AI provider failed: timeout after 60 s',
    context: { category: 'ai', event: 'ai.provider_failed', userId: null, requestId: 'req-91' },
  }),
  logEntryFixture({
    id: '3',
    timestamp: '2025-03-09T09:00:00.000Z',
    level: 'info',
    message: 'Settings changed: theme',
    context: { category: 'admin', event: 'admin.settings', userId: 'u-1', requestId: null },
  }),
];

async function openLogs({
  language = 'en-US',
  route = '/logs',
  logs = events(),
  arrange,
}: {
  language?: Language;
  route?: string;
  logs?: LogEntry[];
  arrange?: (server: FakeServer) => void;
} = {}) {
  const server = startFakeServer();
  serveLogs(server, logs);
  arrange?.(server);
  const view = await renderWithProviders(<LogsPage />, { language, route, texts: ['logs'] });
  return { server, ...view };
}

const logCalls = (server: FakeServer) =>
  server.calls().filter((call) => call.startsWith('GET /api/logs'));
/** The rows of events (the header row and any opened details aside). */
const eventRows = () =>
  within(screen.getByRole('table'))
    .getAllByRole('row')
    .filter((row) => row.classList.contains('logs-row'));
const cell = (row: HTMLElement, column: string) =>
  within(row)
    .getAllByRole('cell')
    .find((c) => c.dataset.label === column);
/** An opened event's details. */
const DETAILS = { name: /^Details of the event at / };
const lastQuery = (server: FakeServer) =>
  new URL(logCalls(server).at(-1)!.slice('GET '.length), 'http://localhost').searchParams;

describe('the list of events', () => {
  it('shows each event: its time in the language and zone of the user (the full time in a tooltip), level, category and message', async () => {
    const { server } = await openLogs();
    await screen.findByRole('table', { name: 'Log events, newest first' });
    expect(screen.getByRole('heading', { level: 1, name: 'Logs' })).toBeVisible();
    expect(screen.getByText('3 events shown')).toBeInTheDocument();
    expect(
      within(screen.getByRole('table'))
        .getAllByRole('columnheader')
        .map((header) => header.textContent),
    ).toEqual(['Time', 'Level', 'Category', 'Message']);
    const [first, second, third] = eventRows();
    const short = new Intl.DateTimeFormat('en-US', { dateStyle: 'short', timeStyle: 'medium' });
    const full = new Intl.DateTimeFormat('en-US', { dateStyle: 'full', timeStyle: 'long' });
    const when = new Date('2025-03-10T14:30:15.000Z');
    const time = within(first!).getByText(short.format(when));
    expect(time).toHaveAttribute('datetime', '2025-03-10T14:30:15.000Z');
    expect(time).toHaveAttribute('title', full.format(when));
    expect(cell(first!, 'Level')).toHaveTextContent('Warning');
    expect(cell(first!, 'Category')).toHaveTextContent('Sign-in and accounts');
    expect(cell(first!, 'Message')).toHaveTextContent(
      'Failed sign-in for ana@exemplo.com: wrong password',
    );
    expect(cell(second!, 'Level')).toHaveTextContent('Error');
    expect(cell(second!, 'Category')).toHaveTextContent('AI provider');
    expect(cell(third!, 'Level')).toHaveTextContent('Info');
    expect(cell(third!, 'Category')).toHaveTextContent('Admin changes');
    // Each level has its own colour, beside its word.
    const levels = eventRows().map((row) => cell(row, 'Level')!.firstElementChild!.className);
    expect(new Set(levels).size).toBe(3);
    expect(logCalls(server)).toEqual(['GET /api/logs']);
  });

  it('says so while the events load', async () => {
    const server = startFakeServer();
    const held = server.hold('GET /api/logs');
    await renderWithProviders(<LogsPage />, { language: 'en-US', route: '/logs', texts: ['logs'] });
    expect(await screen.findByRole('status')).toHaveTextContent('Loading logs...');
    (await held.next()).respond({ logs: events(), nextCursor: null });
    expect(await screen.findByRole('table')).toBeInTheDocument();
  });

  it("says 'No logs available' when there are none", async () => {
    await openLogs({ logs: [] });
    expect(await screen.findByText('No logs available')).toBeVisible();
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Clear filters' })).not.toBeInTheDocument();
  });

  it('speaks pt-BR and es-ES', async () => {
    await openLogs({ language: 'pt-BR', logs: [] });
    expect(await screen.findByText('Nenhum log disponível')).toBeVisible();
    expect(screen.getByLabelText('Nível')).toBeInTheDocument();
    expect(screen.getByRole('option', { name: 'Todos os níveis' })).toBeInTheDocument();
    expect(screen.getByRole('group', { name: 'Período' })).toBeInTheDocument();
  });

  it("shows an admin change as the server words it in the admin's language, with what changed old → new", async () => {
    await openLogs({
      language: 'pt-BR',
      logs: [
        logEntryFixture({
          id: '7',
          message: 'Administrador alterou a imagem “Praia”',
          changes: [
            { field: 'title', name: 'título', from: 'Praia velha', to: 'Praia' },
            { field: 'apiKey', name: 'chave da API', from: null, to: null },
          ],
          context: {
            category: 'admin',
            event: 'admin.image.update',
            userId: 'u-1',
            requestId: null,
          },
        }),
      ],
    });
    const [row] = await waitFor(() => {
      expect(eventRows()).toHaveLength(1);
      return eventRows();
    });
    const message = cell(row!, 'Mensagem')!;
    expect(message).toHaveTextContent('Administrador alterou a imagem “Praia”');
    expect(within(message).getByRole('list', { name: 'O que mudou' })).toBeVisible();
    expect(
      within(message)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['título: “Praia velha” → “Praia”', 'chave da API: alterado']);
    // Never a raw key.
    expect(message.textContent).not.toMatch(/admin\.image|logMessages/);
  });

  it('speaks es-ES, with its dates', async () => {
    await openLogs({ language: 'es-ES' });
    const [first] = await waitFor(() => {
      const rows = eventRows();
      expect(rows).toHaveLength(3);
      return rows;
    });
    expect(screen.getByRole('heading', { level: 1, name: 'Registros' })).toBeVisible();
    expect(cell(first!, 'Nivel')).toHaveTextContent('Aviso');
    expect(cell(first!, 'Categoría')).toHaveTextContent('Inicios de sesión y cuentas');
    const short = new Intl.DateTimeFormat('es-ES', { dateStyle: 'short', timeStyle: 'medium' });
    expect(cell(first!, 'Hora')).toHaveTextContent(short.format(new Date('2025-03-10T14:30:15Z')));
  });
});

describe('the filters', () => {
  it('asks the server by level and category, and keeps them in the address', async () => {
    const { server, user, location } = await openLogs();
    await screen.findByRole('table');
    await user.selectOptions(screen.getByLabelText('Level'), 'Warning');
    await waitFor(() => expect(logCalls(server)).toContain('GET /api/logs?level=warn'));
    await waitFor(() => expect(eventRows()).toHaveLength(1));
    expect(location().search).toBe('?level=warn');

    await user.selectOptions(screen.getByLabelText('Category'), 'AI provider');
    await waitFor(() => expect(logCalls(server)).toContain('GET /api/logs?level=warn&category=ai'));
    expect(await screen.findByText('No logs match these filters')).toBeVisible();
    expect(location().search).toBe('?level=warn&category=ai');
    expect(screen.getByRole('combobox', { name: 'Category' })).toHaveValue('ai');
  });

  it('searches once typing pauses, not at every key', async () => {
    const { server, user, location } = await openLogs();
    await screen.findByRole('table');
    await user.type(screen.getByRole('searchbox', { name: 'Search' }), 'timeout');
    await waitFor(() => expect(eventRows()).toHaveLength(1));
    expect(cell(eventRows()[0]!, 'Message')).toHaveTextContent('timeout after 60 s');
    expect(logCalls(server)).toEqual(['GET /api/logs', 'GET /api/logs?search=timeout']);
    expect(location().search).toBe('?search=timeout');
  });

  it('searches at once on Enter', async () => {
    const { server, user } = await openLogs();
    await screen.findByRole('table');
    await user.type(screen.getByRole('searchbox', { name: 'Search' }), 'theme{Enter}');
    await waitFor(() => expect(eventRows()).toHaveLength(1));
    expect(logCalls(server)).toEqual(['GET /api/logs', 'GET /api/logs?search=theme']);
  });

  it('sends a date range typed in local time as ISO times with the offset, the end to its last millisecond', async () => {
    const { server } = await openLogs();
    await screen.findByRole('table');
    const range = screen.getByRole('group', { name: 'Date range' });
    fireEvent.change(within(range).getByLabelText('From'), {
      target: { value: '2025-03-10T08:00' },
    });
    fireEvent.change(within(range).getByLabelText('To'), {
      target: { value: '2025-03-10T18:45' },
    });
    await waitFor(() => expect(lastQuery(server).get('to')).not.toBeNull());
    const query = lastQuery(server);
    const offset = /[+-]\d{2}:\d{2}$/;
    expect(query.get('from')).toMatch(offset);
    expect(query.get('to')).toMatch(offset);
    expect(Date.parse(query.get('from')!)).toBe(new Date(2025, 2, 10, 8, 0).getTime());
    expect(Date.parse(query.get('to')!)).toBe(new Date(2025, 2, 10, 18, 45, 59, 999).getTime());
    // Typed one after the other, faster than the pause: one request for both.
    expect(logCalls(server)).toHaveLength(2);
    // The zone the times are in is said.
    expect(within(range).getByText(/^In your time zone, .+\.$/)).toBeInTheDocument();
  });

  it('refuses an end before the start with the shared message, and asks nothing with it', async () => {
    const { server, location } = await openLogs();
    await screen.findByRole('table');
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2025-03-10T18:00' } });
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2025-03-10T08:00' } });
    const to = screen.getByLabelText('To');
    await waitFor(() => expect(to).toHaveAttribute('aria-invalid', 'true'));
    expect(to).toHaveAccessibleDescription('The end must come after the start');
    expect(screen.getByText('The end must come after the start')).toHaveAttribute('role', 'alert');
    // Still no request with a range, once the pause has passed: the last good filters stay.
    fireEvent.change(screen.getByLabelText('To'), { target: { value: '2025-03-10T20:00' } });
    await waitFor(() => expect(lastQuery(server).get('to')).not.toBeNull());
    expect(logCalls(server).filter((call) => call.includes('from='))).toHaveLength(1);
    expect(screen.queryByText('The end must come after the start')).not.toBeInTheDocument();
    expect(location().search).toContain('from=');
  });

  it('opens with the filters of the address, so a reload keeps them', async () => {
    const from = new Date(2025, 2, 9, 0, 0).toISOString();
    const { server } = await openLogs({
      route: `/logs?level=info&category=admin&from=${encodeURIComponent(from)}&search=theme`,
    });
    await waitFor(() => expect(eventRows()).toHaveLength(1));
    expect(screen.getByLabelText('Level')).toHaveValue('info');
    expect(screen.getByLabelText('Category')).toHaveValue('admin');
    expect(screen.getByLabelText('From')).toHaveValue('2025-03-09T00:00');
    expect(screen.getByLabelText('To')).toHaveValue('');
    expect(screen.getByRole('searchbox', { name: 'Search' })).toHaveValue('theme');
    const query = lastQuery(server);
    expect([...query.keys()]).toEqual(['level', 'category', 'from', 'search']);
    expect(Date.parse(query.get('from')!)).toBe(Date.parse(from));
  });

  it('leaves out what no filter can hold in an edited address', async () => {
    const { server, location } = await openLogs({ route: '/logs?level=debug&category=x&to=soon' });
    await screen.findByRole('table');
    expect(logCalls(server)).toEqual(['GET /api/logs']);
    expect(screen.getByLabelText('Level')).toHaveValue('');
    await waitFor(() => expect(location().search).toBe(''));
  });

  it('says when nothing matches, and Clear filters shows every event again', async () => {
    const { server, user, location } = await openLogs({ route: '/logs?search=nothing-like-it' });
    expect(await screen.findByText('No logs match these filters')).toBeVisible();
    expect(screen.getByText('Try another level, category, date range or search.')).toBeVisible();
    const clearButtons = screen.getAllByRole('button', { name: 'Clear filters' });
    await user.click(clearButtons.at(-1)!);
    await waitFor(() => expect(eventRows()).toHaveLength(3));
    expect(screen.getByRole('searchbox', { name: 'Search' })).toHaveValue('');
    expect(location().search).toBe('');
    expect(logCalls(server)).toEqual(['GET /api/logs?search=nothing-like-it', 'GET /api/logs']);
    expect(screen.queryByRole('button', { name: 'Clear filters' })).not.toBeInTheDocument();
  });
});

describe('paging', () => {
  it('shows 50 events, and Load more appends the next ones from the cursor', async () => {
    const { server, user } = await openLogs({ logs: manyLogs(60) });
    await waitFor(() => expect(eventRows()).toHaveLength(50));
    expect(screen.getByText('50 events shown')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(eventRows()).toHaveLength(60));
    expect(cell(eventRows()[0]!, 'Message')).toHaveTextContent('Event number 1');
    expect(cell(eventRows()[59]!, 'Message')).toHaveTextContent('Event number 60');
    expect(screen.getByText('60 events shown')).toBeInTheDocument();
    expect(logCalls(server)).toEqual(['GET /api/logs', 'GET /api/logs?cursor=50']);
    expect(screen.queryByRole('button', { name: 'Load more' })).not.toBeInTheDocument();
    expect(screen.getByText('That is every event that matches.')).toBeInTheDocument();
  });

  it('keeps the filters on the next pages', async () => {
    const { server, user } = await openLogs({ logs: manyLogs(120), route: '/logs?level=info' });
    await waitFor(() => expect(eventRows()).toHaveLength(50));
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    await waitFor(() => expect(eventRows()).toHaveLength(100));
    expect(logCalls(server)).toEqual([
      'GET /api/logs?level=info',
      'GET /api/logs?level=info&cursor=50',
    ]);
    expect(screen.getByRole('button', { name: 'Load more' })).toBeEnabled();
  });

  it('keeps the events shown when the next page fails, and says why', async () => {
    const { server, user } = await openLogs({ logs: manyLogs(60) });
    await waitFor(() => expect(eventRows()).toHaveLength(50));
    server.on('GET /api/logs', () => errorResponse(503, { message: 'Database unavailable' }));
    await user.click(screen.getByRole('button', { name: 'Load more' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to fetch logs: Database unavailable',
    );
    expect(eventRows()).toHaveLength(50);
  });
});

describe('an event', () => {
  it('opens its context below the row: event, user id, request id, and the whole context as JSON', async () => {
    const { user } = await openLogs();
    await screen.findByRole('table');
    const toggle = screen.getByRole('button', {
      name: 'Failed sign-in for ana@exemplo.com: wrong password',
    });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await user.click(toggle);
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    const full = new Intl.DateTimeFormat('en-US', { dateStyle: 'full', timeStyle: 'long' });
    const short = new Intl.DateTimeFormat('en-US', { dateStyle: 'short', timeStyle: 'medium' });
    const when = new Date('2025-03-10T14:30:15.000Z');
    const details = screen.getByRole('region', {
      name: `Details of the event at ${short.format(when)}`,
    });
    expect(toggle).toHaveAttribute('aria-controls', details.id);
    const facts = Object.fromEntries(
      within(details)
        .getAllByRole('term')
        .map((term) => [term.textContent, term.nextElementSibling?.textContent]),
    );
    expect(facts).toEqual({
      Time: full.format(when),
      Event: 'auth.sign_in_failed',
      'User id': '5d0c43d2-6f6e-4f51-9a57-0d8c1f0b6a11',
      'Request id': 'req-7f3a',
    });
    const json = within(details).getByLabelText('Context');
    expect(json.tagName).toBe('PRE');
    expect(JSON.parse(json.textContent!)).toEqual(logEntryFixture().context);
    expect(json.textContent).toContain('\n  "requestId": "req-7f3a"');

    await user.click(toggle);
    expect(screen.queryByRole('region', DETAILS)).not.toBeInTheDocument();
  });

  it('opens and closes from the keyboard, with Enter and Space', async () => {
    const { user } = await openLogs();
    await screen.findByRole('table');
    const toggle = screen.getByRole('button', { name: 'Settings changed: theme' });
    toggle.focus();
    await user.keyboard('{Enter}');
    const details = await screen.findByRole('region', DETAILS);
    expect(within(details).getByText('None')).toBeInTheDocument();
    expect(toggle).toHaveFocus();
    await user.keyboard(' ');
    expect(screen.queryByRole('region', DETAILS)).not.toBeInTheDocument();
    await user.keyboard(' ');
    expect(screen.getByRole('region', DETAILS)).toBeInTheDocument();
  });

  it('opens from a click anywhere on its row', async () => {
    const { user } = await openLogs();
    await screen.findByRole('table');
    const [, second] = eventRows();
    await user.click(cell(second!, 'Category')!);
    const details = screen.getByRole('region', DETAILS);
    expect(within(details).getByText('ai.provider_failed')).toBeInTheDocument();
    expect(
      within(second!).getByRole('button', { name: 'AI provider failed: timeout after 60 s' }),
    ).toHaveAttribute('aria-expanded', 'true');
  });
});

describe('failures', () => {
  it("says 'Failed to fetch logs' with the server's reason, and tries again", async () => {
    let fail = true;
    const { user } = await openLogs({
      arrange: (server) => {
        const serve = events();
        server.on('GET /api/logs', () =>
          fail
            ? errorResponse(500, { message: 'Internal server error' })
            : { logs: serve, nextCursor: null },
        );
      },
    });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Failed to fetch logs: Internal server error',
    );
    fail = false;
    await user.click(screen.getByRole('button', { name: 'Try again' }));
    await waitFor(() => expect(eventRows()).toHaveLength(3));
  });

  it("says 'Failed to fetch logs' when the server gave no reason", async () => {
    await openLogs({
      arrange: (server) =>
        server.on('GET /api/logs', () => new Response('<html>Bad gateway</html>', { status: 502 })),
    });
    expect(await screen.findByRole('alert')).toHaveTextContent(/^Failed to fetch logs$/);
  });

  it("says 'Error fetching logs' when the server cannot be reached, in the user's language", async () => {
    await openLogs({
      language: 'pt-BR',
      arrange: (server) =>
        server.on('GET /api/logs', () => Promise.reject(new TypeError('Failed to fetch'))),
    });
    expect(await screen.findByRole('alert')).toHaveTextContent('Erro ao buscar os logs');
    expect(screen.getByRole('button', { name: 'Tentar de novo' })).toBeVisible();
  });
});
