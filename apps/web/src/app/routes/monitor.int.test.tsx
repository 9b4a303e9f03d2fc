// @vitest-environment happy-dom
import type { MonitorStatus } from '@contrateia/shared/monitor/monitor.schemas';
import type { Language } from '@contrateia/shared/i18n/languages';
import type { User } from '@contrateia/shared';
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import MonitorRoute from '@/app/routes/monitor';
import { ADMIN, signIn } from '@/test/admin-settings';
import { errorResponse, startFakeServer, type FakeServer } from '@/test/fake-server';
import { userFixture } from '@/test/fixtures';
import { monitorStatusFixture } from '@/test/monitor-fixtures';
import { renderWithProviders } from '@/test/render-with-providers';

// /monitor (its figures, its refresh intervals, the sample data shown when the status cannot be
// fetched) against a stand-in API answering as GET /api/monitor/status does. The quick actions are
// tested beside them (features/monitor/components/quick-actions.test.tsx); the journey against the
// real server is e2e/monitor.spec.ts.

const STATUS = 'GET /api/monitor/status';

/** Today at 14:03:25 local time, as the server's ISO sample time. */
function todayAt(hours: number, minutes: number, seconds: number): string {
  const date = new Date();
  date.setHours(hours, minutes, seconds, 0);
  return date.toISOString();
}

async function openMonitor({
  user = ADMIN,
  language = 'en-US',
  status = monitorStatusFixture({ lastUpdate: todayAt(14, 3, 25) }),
  arrange = () => {},
}: {
  user?: User;
  language?: Language;
  status?: MonitorStatus;
  arrange?: (server: FakeServer) => void;
} = {}) {
  const server = startFakeServer();
  signIn(server, user);
  server.on(STATUS, () => status);
  arrange(server);
  const view = await renderWithProviders(<MonitorRoute />, {
    language,
    route: '/monitor',
    texts: ['app', 'monitor'],
  });
  await screen.findByRole('heading', { level: 1 });
  return { server, ...view };
}

/** Waits for the figures to be on screen (the system status card). */
async function figuresShown() {
  return screen.findByRole('region', {
    name: /^(System status|Status do sistema|Estado del sistema)/,
  });
}

const statusCalls = (server: FakeServer) => server.calls().filter((call) => call === STATUS);

/** One service's card in the services list, by its name in words. */
function service(name: string): HTMLElement {
  return within(screen.getByRole('region', { name: 'Services' })).getByRole('listitem', { name });
}

describe('/monitor, for whom', () => {
  it('says Access denied to a user, with a way back, and asks the server nothing', async () => {
    const { server } = await openMonitor({ user: userFixture() });
    expect(screen.getByRole('heading', { level: 1, name: 'Access denied' })).toBeVisible();
    expect(
      screen.getByText('Only administrators in admin mode can open the system monitor.'),
    ).toBeVisible();
    expect(screen.getByRole('link', { name: 'Back to the dashboard' })).toHaveAttribute(
      'href',
      '/dashboard',
    );
    expect(screen.queryByRole('button', { name: 'Refresh Now' })).not.toBeInTheDocument();
    expect(server.calls().filter((call) => call.includes('/monitor'))).toEqual([]);
    expect(document.title).toBe('Access denied · ContrateIA');
  });

  it('tells an admin in user mode to switch to admin mode (pt-BR)', async () => {
    const { server } = await openMonitor({ user: { ...ADMIN, role: 'user' }, language: 'pt-BR' });
    expect(screen.getByRole('heading', { level: 1, name: 'Acesso negado' })).toBeVisible();
    expect(
      screen.getByText(
        'Você está no modo usuário. Passe para o modo administrador no topo da página para abrir o monitor do sistema.',
      ),
    ).toBeVisible();
    expect(screen.getByRole('link', { name: 'Voltar ao Painel' })).toBeVisible();
    expect(server.calls().filter((call) => call.includes('/monitor'))).toEqual([]);
  });
});

describe('/monitor, the figures', () => {
  it('shows a wait while the first figures come, then the system status in a word, with what it means', async () => {
    const { server } = await openMonitor({
      arrange: (server) => {
        server.hold(STATUS);
      },
    });
    expect(screen.getByRole('heading', { level: 1, name: 'System monitor' })).toBeVisible();
    expect(screen.getByText('Loading the system status...')).toBeInTheDocument();
    expect(screen.getByText('No figures received yet')).toBeVisible();
    expect(document.title).toBe('Monitor · ContrateIA');
    // The quick actions do not wait for the figures.
    expect(screen.getByRole('button', { name: 'Remove expired sessions and codes' })).toBeVisible();
    expect(statusCalls(server)).toHaveLength(1);
  });

  it("shows the system's status, the last update and the server's uptime", async () => {
    await openMonitor();
    const card = await figuresShown();
    expect(card).toHaveTextContent('Healthy');
    expect(card).toHaveTextContent('Every service is working.');
    expect(card).toHaveTextContent('Server running for 1 day, 2 hours.');
    expect(screen.getByText(/^Last update: 2:03:25\sPM$/)).toBeVisible();
  });

  it.each([
    {
      systemStatus: 'degraded',
      word: 'Degraded',
      text: 'Some services work only in part or in a fallback mode.',
    },
    { systemStatus: 'down', word: 'Down', text: 'A service the system needs is down.' },
  ] as const)('says $word in words, not by colour alone', async ({ systemStatus, word, text }) => {
    await openMonitor({ status: monitorStatusFixture({ systemStatus }) });
    const card = await figuresShown();
    expect(within(card).getByText(word)).toBeVisible();
    expect(card).toHaveTextContent(text);
    // The colour comes with an icon of its own shape.
    expect(card.querySelector('svg')).not.toBeNull();
  });

  it('names each service in words, with its status, uptime and what its check found', async () => {
    await openMonitor();
    await figuresShown();
    const names = within(screen.getByRole('region', { name: 'Services' }))
      .getAllByRole('heading', { level: 3 })
      .map((heading) => heading.textContent);
    expect(names).toEqual([
      'Database',
      'Redis (shared state)',
      'E-mail',
      'AI provider',
      'WhatsApp',
      'Live connections',
    ]);
    expect(service('Database')).toHaveTextContent('Up');
    expect(service('Database')).toHaveTextContent('Up for 1 day, 2 hours');
    expect(service('Database')).toHaveTextContent('PostgreSQL · answered in 3 ms');
    expect(service('Redis (shared state)')).toHaveTextContent('answered in 1 ms');
    expect(service('E-mail')).toHaveTextContent('Up for 2 hours, 2 minutes');
    expect(service('E-mail')).toHaveTextContent('SMTP server · answered in 48 ms');
    expect(service('AI provider')).toHaveTextContent('Up for 45 seconds');
    expect(service('AI provider')).toHaveTextContent('OpenAI-compatible API · answered in 812 ms');
    expect(service('WhatsApp')).toHaveTextContent('Up for 1 hour');
    expect(service('WhatsApp')).toHaveTextContent('2 of 3 connected');
    expect(service('Live connections')).toHaveTextContent('7 open connections');
  });

  it('shows each queue of background jobs: how many wait, run, and failed in the last hour', async () => {
    await openMonitor();
    await figuresShown();
    const region = screen.getByRole('region', { name: 'Background jobs' });
    const queue = (name: string) => within(region).getByRole('listitem', { name });
    expect(
      within(region)
        .getAllByRole('heading', { level: 3 })
        .map((heading) => heading.textContent),
    ).toEqual(['Log retention', 'Clean-up of sessions and codes', 'WhatsApp auto-replies']);
    expect(queue('WhatsApp auto-replies')).toHaveTextContent('4 waiting · 2 running');
    expect(queue('WhatsApp auto-replies')).toHaveTextContent('1 failed in the last hour');
    expect(queue('Log retention')).toHaveTextContent('0 waiting · 0 running');
    expect(queue('Log retention')).toHaveTextContent('No failures in the last hour');
  });

  it('words the other kinds, a service down and why, and mail in log mode', async () => {
    await openMonitor({
      status: monitorStatusFixture({
        systemStatus: 'down',
        services: [
          {
            name: 'database',
            status: 'up',
            uptime: 60,
            details: { kind: 'pglite', latencyMs: 0.4 },
          },
          { name: 'mail', status: 'up', uptime: 60, details: { kind: 'log' } },
          {
            name: 'ai',
            status: 'down',
            uptime: null,
            details: { kind: 'builtin', error: 'timeout' },
          },
          { name: 'redis', status: 'down', uptime: null, details: { error: 'ECONNREFUSED' } },
          { name: 'whatsapp', status: 'up', uptime: 60, details: { linked: 0, connected: 0 } },
          {
            name: 'sockets',
            status: 'down',
            uptime: null,
            details: { connections: 1, error: 'x9' },
          },
        ],
      }),
    });
    await figuresShown();
    expect(service('Database')).toHaveTextContent(
      'Embedded database (PGlite) · answered in 0.4 ms',
    );
    expect(service('E-mail')).toHaveTextContent('Log mode');
    expect(service('E-mail')).toHaveTextContent('No SMTP: e-mails are written to the server log');
    expect(service('AI provider')).toHaveTextContent('Down');
    expect(service('AI provider')).not.toHaveTextContent(/Up for/);
    expect(service('AI provider')).toHaveTextContent(
      'Built-in engine · Problem: it did not answer in time',
    );
    expect(service('Redis (shared state)')).toHaveTextContent('Problem: it refused the connection');
    expect(service('WhatsApp')).toHaveTextContent('No linked accounts');
    expect(service('Live connections')).toHaveTextContent(
      '1 open connection · Problem: the check failed (code x9)',
    );
  });

  it('shows CPU, memory, disk and network as meters, with the figures behind each percent', async () => {
    await openMonitor();
    await figuresShown();
    const meter = (name: string) => screen.getByRole('meter', { name });
    expect(screen.getAllByRole('meter')).toHaveLength(4);
    expect(meter('CPU')).toHaveAttribute('aria-valuenow', '37');
    expect(meter('CPU')).toHaveAttribute('aria-valuemin', '0');
    expect(meter('CPU')).toHaveAttribute('aria-valuemax', '100');
    expect(meter('CPU')).toHaveAttribute('aria-valuetext', '37%: 8 cores, load average 2.96');
    expect(meter('Memory')).toHaveAttribute('aria-valuenow', '42');
    expect(meter('Memory')).toHaveAccessibleDescription('6.7 GB used of 16 GB');
    expect(meter('Disk')).toHaveAttribute('aria-valuetext', '91%: 455 GB used of 500 GB');
    expect(meter('Network')).toHaveAttribute('aria-valuenow', '15');
    expect(meter('Network')).toHaveAccessibleDescription(
      'Receiving 15 MB/s, sending 3.8 MB/s; link speed 1 Gb/s',
    );
    const performance = screen.getByRole('region', { name: 'Performance' });
    for (const percent of ['37%', '42%', '91%', '15%']) {
      expect(within(performance).getByText(percent)).toBeVisible();
    }
  });

  it('says the link speed is unknown, with the bytes per second, when the server cannot tell a network percent', async () => {
    const status = monitorStatusFixture();
    await openMonitor({
      status: {
        ...status,
        performance: { ...status.performance, network: null },
        figures: { ...status.figures, networkLinkBitsPerSecond: null, containerLimits: true },
      },
    });
    await figuresShown();
    expect(screen.getAllByRole('meter')).toHaveLength(3);
    expect(screen.queryByRole('meter', { name: 'Network' })).not.toBeInTheDocument();
    const performance = screen.getByRole('region', { name: 'Performance' });
    expect(
      within(performance).getByText(
        'Link speed unknown, so no percentage. Receiving 15 MB/s, sending 3.8 MB/s',
      ),
    ).toBeVisible();
    expect(within(performance).getByText('Network')).toBeVisible();
    // Figures read from the container's limits say so.
    expect(screen.getByRole('meter', { name: 'Memory' })).toHaveAccessibleDescription(
      '6.7 GB used of 16 GB (container limits)',
    );
  });

  it.each<[Language, MonitorStatus['storage'], string, string, string | RegExp]>([
    [
      'en-US',
      { mediaFiles: 1_234, mediaBytes: 5_600_000_000 },
      'Performance',
      'WhatsApp files',
      '5.6 GB in 1,234 files',
    ],
    [
      'en-US',
      { mediaFiles: 1, mediaBytes: 48_000 },
      'Performance',
      'WhatsApp files',
      '48 kB in 1 file',
    ],
    ['en-US', { mediaFiles: 0, mediaBytes: 0 }, 'Performance', 'WhatsApp files', 'No files kept'],
    ['en-US', null, 'Performance', 'WhatsApp files', 'Not counted yet'],
    [
      'pt-BR',
      { mediaFiles: 1_234, mediaBytes: 5_600_000_000 },
      'Desempenho',
      'Arquivos do WhatsApp',
      /^5,6\sGB em 1\.234 arquivos$/,
    ],
    [
      'es-ES',
      { mediaFiles: 12_345, mediaBytes: 5_600_000_000 },
      'Rendimiento',
      'Archivos de WhatsApp',
      /^5,6\sGB en 12\.345 archivos$/,
    ],
  ])(
    'shows the WhatsApp files kept, their size and how many (%s, %j)',
    async (language, storage, region, heading, figures) => {
      await openMonitor({ language, status: monitorStatusFixture({ storage }) });
      await figuresShown();
      const performance = screen.getByRole('region', { name: region });
      const item = within(performance).getByText(heading).closest('li')!;
      expect(within(item).getByText(figures)).toBeVisible();
      // A share of nothing in particular: no bar.
      expect(within(item).queryByRole('meter')).not.toBeInTheDocument();
    },
  );

  it('reads in Portuguese', async () => {
    await openMonitor({ language: 'pt-BR' });
    expect(await figuresShown()).toHaveTextContent('Saudável');
    expect(screen.getByRole('heading', { level: 1, name: 'Monitor do sistema' })).toBeVisible();
    expect(screen.getByRole('meter', { name: 'Memória' })).toHaveAccessibleDescription(
      '6,7 GB usados de 16 GB',
    );
    expect(
      within(screen.getByRole('region', { name: 'Serviços' })).getByRole('listitem', {
        name: 'WhatsApp',
      }),
    ).toHaveTextContent('2 de 3 conectadas');
    expect(screen.getByRole('button', { name: 'Atualizar agora' })).toBeVisible();
    expect(screen.getByRole('combobox', { name: 'Atualizar a cada' })).toHaveDisplayValue(
      '30 segundos',
    );
    const replies = within(
      screen.getByRole('region', { name: 'Tarefas em segundo plano' }),
    ).getByRole('listitem', { name: 'Respostas automáticas do WhatsApp' });
    expect(replies).toHaveTextContent('4 na fila · 2 em andamento');
    expect(replies).toHaveTextContent('1 falhou na última hora');
  });

  // The default install has no SMTP; its mail is configured in log mode, not failing, so the page
  // says so in words without a warning.
  it('shows mail in log mode as "modo de registro", configured, not a fault (pt-BR)', async () => {
    const status = monitorStatusFixture();
    await openMonitor({
      language: 'pt-BR',
      status: {
        ...status,
        services: status.services.map((entry) =>
          entry.name === 'mail' ? { ...entry, status: 'up', details: { kind: 'log' } } : entry,
        ),
      },
    });
    expect(await figuresShown()).toHaveTextContent('Saudável');
    const mail = within(screen.getByRole('region', { name: 'Serviços' })).getByRole('listitem', {
      name: 'E-mail',
    });
    expect(mail).toHaveTextContent('Modo de registro');
    expect(mail).toHaveTextContent('os e-mails são gravados no log do servidor');
    expect(mail).not.toHaveTextContent('Instável');
    expect(mail).not.toHaveTextContent(/Modo log/);
    expect(mail.querySelector('.monitor-health-icon--good')).not.toBeNull();
  });

  it('reads in Spanish', async () => {
    await openMonitor({ language: 'es-ES' });
    expect(await figuresShown()).toHaveTextContent('Correcto');
    expect(screen.getByRole('meter', { name: 'Disco' })).toHaveAttribute(
      'aria-valuetext',
      // Spanish writes a no-break space before % (and Intl may before the units).
      expect.stringMatching(/^91\s%: 455\sGB usados de 500\sGB$/),
    );
    expect(
      within(screen.getByRole('region', { name: 'Servicios' })).getByRole('listitem', {
        name: 'Conexiones en directo',
      }),
    ).toHaveTextContent('7 conexiones abiertas');
    expect(screen.getByRole('button', { name: 'Enviarme un correo de prueba' })).toBeVisible();
  });
});

describe('/monitor, refreshing', () => {
  /**
   * Only the polling's clock is faked (TanStack Query's refetchInterval is a setInterval);
   * everything else runs on real time. Testing Library's waitFor polls with setInterval too, so
   * these tests wait for the requests themselves: each one is held until answered.
   */
  async function openPolling() {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const view = await openMonitor();
    await figuresShown();
    const held = view.server.hold(STATUS);
    /** The next status request arrived; answered, and the page is done with it. */
    const answerNext = async () => {
      const { respond } = await held.next();
      expect(screen.getByRole('button', { name: 'Refreshing...' })).toBeVisible();
      respond(monitorStatusFixture());
      // Until then a tick of the interval would join this request instead of making one.
      await screen.findByRole('button', { name: 'Refresh Now' });
    };
    /** Moves the polling's clock on, and lets what it started run. */
    const advance = async (ms: number) => {
      await act(async () => {
        vi.advanceTimersByTime(ms);
      });
    };
    return { ...view, answerNext, advance };
  }

  it('asks again every 30 s by default, and as often as the chosen interval, which is kept', async () => {
    const { server, user, answerNext, advance } = await openPolling();
    const select = screen.getByRole('combobox', { name: 'Refresh every' });
    expect(select).toHaveDisplayValue('30 seconds');
    expect(
      within(select)
        .getAllByRole('option')
        .map((option) => option.textContent),
    ).toEqual(['10 seconds', '30 seconds', '1 minute', '5 minutes']);
    expect(statusCalls(server)).toHaveLength(1);

    await advance(29_000);
    expect(statusCalls(server)).toHaveLength(1);
    await advance(1_000);
    await answerNext();
    expect(statusCalls(server)).toHaveLength(2);

    await user.selectOptions(select, '10 seconds');
    expect(window.localStorage.getItem('monitor.refreshSeconds')).toBe('10');
    await advance(10_000);
    await answerNext();
    await advance(10_000);
    await answerNext();
    expect(statusCalls(server)).toHaveLength(4);

    await user.selectOptions(select, '5 minutes');
    await advance(299_000);
    expect(statusCalls(server)).toHaveLength(4);
    await advance(1_000);
    await answerNext();
    expect(statusCalls(server)).toHaveLength(5);
  });

  it('pauses while the tab is hidden, and asks at once when it is shown again', async () => {
    const { server, answerNext, advance } = await openPolling();
    const visibility = vi.spyOn(document, 'visibilityState', 'get');
    onTestFinished(() => visibility.mockRestore());
    const setVisibility = async (state: DocumentVisibilityState) => {
      visibility.mockReturnValue(state);
      await act(async () => {
        document.dispatchEvent(new Event('visibilitychange', { bubbles: true }));
      });
    };

    await setVisibility('hidden');
    await advance(120_000);
    expect(statusCalls(server)).toHaveLength(1);

    await setVisibility('visible');
    await answerNext();
    expect(statusCalls(server)).toHaveLength(2);
    await advance(30_000);
    await answerNext();
    expect(statusCalls(server)).toHaveLength(3);
  });

  it('opens with the interval chosen before, and the default for anything else stored', async () => {
    window.localStorage.setItem('monitor.refreshSeconds', '60');
    const first = await openMonitor();
    expect(screen.getByRole('combobox', { name: 'Refresh every' })).toHaveDisplayValue('1 minute');
    first.unmount();

    window.localStorage.setItem('monitor.refreshSeconds', '1');
    await openMonitor();
    expect(screen.getByRole('combobox', { name: 'Refresh every' })).toHaveDisplayValue(
      '30 seconds',
    );
  });

  it('Refresh Now asks at once, says it is refreshing meanwhile, and shows the new time', async () => {
    const { server, user } = await openMonitor();
    await figuresShown();
    const status = server.hold(STATUS);
    const refresh = screen.getByRole('button', { name: 'Refresh Now' });
    await user.click(refresh);
    const pending = await status.next();
    expect(refresh).toHaveTextContent('Refreshing...');
    expect(refresh).toHaveAttribute('aria-disabled', 'true');
    // Pressing it again meanwhile asks nothing more.
    await user.click(refresh);
    expect(statusCalls(server)).toHaveLength(2);

    pending.respond(
      monitorStatusFixture({
        lastUpdate: todayAt(14, 4, 5),
        performance: { cpu: 88, memory: 42, disk: 91, network: 15 },
      }),
    );
    expect(await screen.findByText(/^Last update: 2:04:05\sPM$/)).toBeVisible();
    expect(screen.getByRole('meter', { name: 'CPU' })).toHaveAttribute('aria-valuenow', '88');
    expect(refresh).toHaveTextContent('Refresh Now');
    expect(refresh).not.toHaveAttribute('aria-disabled');
  });

  it('is used from the keyboard: the interval, Refresh Now, then the quick actions', async () => {
    const { server, user } = await openMonitor();
    await figuresShown();
    const select = screen.getByRole('combobox', { name: 'Refresh every' });
    select.focus();
    await user.tab();
    expect(screen.getByRole('button', { name: 'Refresh Now' })).toHaveFocus();
    await user.keyboard('{Enter}');
    await waitFor(() => expect(statusCalls(server)).toHaveLength(2));
    await user.tab();
    expect(screen.getByRole('button', { name: 'Remove expired sessions and codes' })).toHaveFocus();
  });
});

describe('/monitor, when the status cannot be fetched', () => {
  const SAMPLE = /^(Sample|Exemplo|Ejemplo)$/;

  it("shows the error with the server's message, and sample data marked as such on every figure", async () => {
    await openMonitor({
      arrange: (server) =>
        server.on(STATUS, () => errorResponse(500, { message: 'Internal server error' })),
    });
    await waitFor(() =>
      expect(screen.getByRole('alert')).toHaveTextContent(
        'Failed to fetch the system status: Internal server error',
      ),
    );
    expect(
      screen.getByText(
        "Sample data: the figures below are an example, not this system's. Real figures replace them at the next successful refresh.",
      ),
    ).toBeVisible();
    const card = await figuresShown();
    expect(within(card).getByText(SAMPLE)).toBeVisible();
    const services = within(screen.getByRole('region', { name: 'Services' })).getAllByRole(
      'listitem',
    );
    expect(services.length).toBeGreaterThan(0);
    for (const item of services) expect(within(item).getByText(SAMPLE)).toBeVisible();
    // Each bar is named a sample, for screen readers too.
    expect(screen.getByRole('meter', { name: 'CPU Sample' })).toBeVisible();
    expect(screen.getByRole('meter', { name: 'Memory Sample' })).toBeVisible();
    expect(screen.getByRole('meter', { name: 'Disk Sample' })).toBeVisible();
    // CPU, memory, disk, network and the WhatsApp files kept.
    expect(
      within(screen.getByRole('region', { name: 'Performance' })).getAllByText(SAMPLE),
    ).toHaveLength(5);
    // No real figures came: no time to show.
    expect(screen.getByText('No figures received yet')).toBeVisible();
  });

  it('says the server could not be reached, in the language of the page', async () => {
    await openMonitor({
      language: 'pt-BR',
      arrange: (server) =>
        server.on(STATUS, () => {
          throw new TypeError('Failed to fetch');
        }),
    });
    await waitFor(() =>
      expect(screen.getByRole('alert')).toHaveTextContent(
        'Falha ao buscar o status do sistema: não foi possível falar com o servidor. Verifique sua conexão.',
      ),
    );
    expect(screen.getByText(/^Dados de exemplo:/)).toBeVisible();
  });

  it('replaces the sample with the real figures at the next successful fetch, and keeps the last real time while it fails', async () => {
    let failing = false;
    const real = monitorStatusFixture({ lastUpdate: todayAt(9, 15, 0) });
    const { user } = await openMonitor({
      arrange: (server) =>
        server.on(STATUS, () =>
          failing ? errorResponse(403, { message: 'Access denied' }) : real,
        ),
    });
    await figuresShown();
    expect(screen.queryByText(SAMPLE)).not.toBeInTheDocument();

    failing = true;
    await user.click(screen.getByRole('button', { name: 'Refresh Now' }));
    await waitFor(() =>
      expect(screen.getByRole('alert')).toHaveTextContent(
        'Failed to fetch the system status: Access denied',
      ),
    );
    expect(screen.getByRole('meter', { name: 'CPU Sample' })).toBeVisible();
    expect(screen.getByText(/^Last update: 9:15:00\sAM$/)).toBeVisible();

    failing = false;
    await user.click(screen.getByRole('button', { name: 'Refresh Now' }));
    expect(await screen.findByRole('meter', { name: 'CPU' })).toHaveAttribute(
      'aria-valuenow',
      '37',
    );
    expect(screen.queryByText(SAMPLE)).not.toBeInTheDocument();
    expect(screen.queryByText(/^Sample data:/)).not.toBeInTheDocument();
    expect(screen.getByRole('alert')).toBeEmptyDOMElement();
  });
});
