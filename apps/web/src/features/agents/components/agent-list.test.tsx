// @vitest-environment happy-dom
import type { Agent } from '@contrateia/shared';
import type { Language } from '@contrateia/shared/i18n/languages';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AvailableAgents } from '@/features/agents/components/available-agents';
import { HiredAgents } from '@/features/agents/components/hired-agents';
import { errorResponse, startFakeServer, type Answer } from '@/test/fake-server';
import { agentFixture, type FixtureAgentName } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render-with-providers';

// The dashboard's two agent lists, both built on AgentList, against a stand-in server.
// e2e/agents-and-chat.spec.ts hires through the real server and follows the Chat link.

const TEXTS = {
  'pt-BR': {
    hired: 'Seus agentes contratados',
    available: 'Agentes disponíveis',
    noHired: 'Nenhum agente contratado ainda',
    allHired: 'Todos os agentes foram contratados!',
  },
  'en-US': {
    hired: 'Your Hired Agents',
    available: 'Available Agents',
    noHired: 'No agents hired yet',
    allHired: 'All agents are hired!',
  },
  'es-ES': {
    hired: 'Tus agentes contratados',
    available: 'Agentes disponibles',
    noHired: 'Todavía no has contratado agentes',
    allHired: '¡Todos los agentes están contratados!',
  },
} as const;

function agents(names: (FixtureAgentName | Agent)[], language: Language, isHired: boolean) {
  return names.map((name) =>
    typeof name === 'string' ? agentFixture(name, { language, isHired }) : name,
  );
}

/** The dashboard's lists, with the server answering `hired` and `available` in `language`. */
async function openLists(
  language: Language,
  {
    hired,
    available,
  }: {
    /** The hired agents, or the whole answer. */
    hired: (FixtureAgentName | Agent)[] | (() => Answer<'GET /api/agents/user'>);
    available: FixtureAgentName[];
  },
) {
  const server = startFakeServer();
  window.localStorage.setItem('token', 'token-da-ana');
  server.on('GET /api/agents/user', () =>
    typeof hired === 'function' ? hired() : { agents: agents(hired, language, true) },
  );
  server.on('GET /api/agents/available', () => ({
    agents: agents(available, language, false),
  }));
  const view = await renderWithProviders(
    <>
      <HiredAgents />
      <AvailableAgents />
    </>,
    { language, route: '/dashboard', texts: ['app'] },
  );
  const t = TEXTS[language];
  return {
    server,
    ...view,
    hiredSection: screen.getByRole('region', { name: t.hired }),
    availableSection: screen.getByRole('region', { name: t.available }),
  };
}

function names(section: HTMLElement): string[] {
  return within(section)
    .queryAllByRole('heading', { level: 3 })
    .map((heading) => heading.textContent ?? '');
}

describe('the agent lists', () => {
  it('list the hired and the available agents the server sends, in the language asked for', async () => {
    const { server, hiredSection, availableSection } = await openLists('en-US', {
      hired: ['guia'],
      available: ['assistente', 'auxtrat', 'indirect'],
    });
    await within(availableSection).findByRole('heading', { level: 3, name: 'Indirect' });
    expect(names(hiredSection)).toEqual(['Guide']);
    expect(names(availableSection)).toEqual(['Assistant', 'Auxtrat', 'Indirect']);
    expect(
      within(availableSection).getByText(
        'A general assistant: answers questions, does sums and helps with everyday tasks.',
      ),
    ).toBeVisible();
    expect(
      within(hiredSection)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Chat · Guide']);
    expect(
      within(availableSection)
        .getAllByRole('button')
        .map((button) => button.textContent),
    ).toEqual(['Hire · Assistant', 'Hire · Auxtrat', 'Hire · Indirect']);

    expect(server.calls().sort()).toEqual(['GET /api/agents/available', 'GET /api/agents/user']);
    for (const request of server.requests) {
      expect(request.headers.get('Accept-Language')).toBe('en-US');
      expect(request.headers.get('Authorization')).toBe('Bearer token-da-ana');
    }
  });

  it.each(['pt-BR', 'en-US', 'es-ES'] as const)(
    'say when either list is empty (%s)',
    async (language) => {
      const { hiredSection, availableSection } = await openLists(language, {
        hired: [],
        available: [],
      });
      const t = TEXTS[language];
      expect(await within(hiredSection).findByText(t.noHired)).toBeVisible();
      expect(await within(availableSection).findByText(t.allHired)).toBeVisible();
      expect(within(hiredSection).queryByRole('listitem')).not.toBeInTheDocument();
      expect(within(availableSection).queryByRole('listitem')).not.toBeInTheDocument();
    },
  );

  it('Hire moves the agent to the hired list without asking for either list again', async () => {
    const { server, user, hiredSection, availableSection } = await openLists('pt-BR', {
      hired: ['guia'],
      available: ['assistente', 'auxtrat'],
    });
    const hire = server.hold('POST /api/agents/hire');
    const button = await within(availableSection).findByRole('button', {
      name: 'Contratar · Assistente',
    });
    await user.click(button);

    const pending = await hire.next();
    expect(pending.request.body).toEqual({
      agentId: agentFixture('assistente', { language: 'pt-BR', isHired: false }).id,
    });
    expect(button).toHaveTextContent('Contratando... · Assistente');
    expect(button).toHaveAttribute('aria-busy', 'true');
    // Busy: a second Hire does nothing.
    const other = within(availableSection).getByRole('button', { name: 'Contratar · Auxtrat' });
    expect(other).toHaveAttribute('aria-disabled', 'true');
    await user.click(other);

    pending.respond({
      success: true,
      message: 'Assistente agora faz parte da sua equipe',
      agent: agentFixture('assistente', { language: 'pt-BR', isHired: true }),
    });
    expect(
      await within(availableSection).findByText('Assistente agora faz parte da sua equipe'),
    ).toBeVisible();
    expect(names(hiredSection)).toEqual(['Guia', 'Assistente']);
    expect(names(availableSection)).toEqual(['Auxtrat']);
    expect(
      within(hiredSection).getByRole('link', { name: 'Conversar · Assistente' }),
    ).toHaveAttribute('href', '/assistente');
    // The section's heading takes the focus the removed button had.
    expect(screen.getByRole('heading', { level: 2, name: TEXTS['pt-BR'].available })).toHaveFocus();
    expect(server.calls().filter((call) => !call.startsWith('GET'))).toEqual([
      'POST /api/agents/hire',
    ]);
    expect(server.calls().filter((call) => call.startsWith('GET'))).toHaveLength(2);
  });

  it("shows the server's message when hiring is refused, and keeps both lists", async () => {
    const { server, user, hiredSection, availableSection } = await openLists('pt-BR', {
      hired: ['guia'],
      available: ['assistente'],
    });
    server.on('POST /api/agents/hire', () =>
      errorResponse(403, { message: 'Sua conta funciona com um único agente' }),
    );
    await user.click(
      await within(availableSection).findByRole('button', { name: 'Contratar · Assistente' }),
    );

    expect(
      await within(availableSection).findByText('Sua conta funciona com um único agente'),
    ).toBeVisible();
    expect(within(availableSection).getByRole('alert')).toHaveTextContent(
      /^Sua conta funciona com um único agente$/,
    );
    expect(names(hiredSection)).toEqual(['Guia']);
    expect(names(availableSection)).toEqual(['Assistente']);
  });

  it("links each hired agent's Chat button to its page: an admin's agent to the generic one", async () => {
    const custom: Agent = {
      ...agentFixture('guia', { language: 'pt-BR', isHired: true }),
      id: 'b7d51a0e-2f7c-4c8e-9d3a-5e6f7a8b9c0d',
      name: 'vendas',
      displayName: 'Vendas',
    };
    const { user, hiredSection, location } = await openLists('pt-BR', {
      hired: ['guia', 'auxtrat', custom],
      available: [],
    });
    await within(hiredSection).findByRole('heading', { level: 3, name: 'Vendas' });
    const links = within(hiredSection).getAllByRole('link');
    expect(links.map((link) => [link.textContent, link.getAttribute('href')])).toEqual([
      ['Conversar · Guia', '/guia'],
      ['Conversar · Auxtrat', '/auxtrat'],
      ['Conversar · Vendas', '/agent/vendas'],
    ]);

    await user.click(within(hiredSection).getByRole('link', { name: 'Conversar · Vendas' }));
    expect(
      await screen.findByRole('heading', { name: 'Stand-in page at /agent/vendas' }),
    ).toBeInTheDocument();
    expect(location().pathname).toBe('/agent/vendas');
  });

  it('says when a list could not load, and Try again asks once more', async () => {
    let attempts = 0;
    const { server, user, hiredSection } = await openLists('en-US', {
      hired: () => {
        attempts += 1;
        if (attempts === 1) return errorResponse(500, { message: 'Server error' });
        return { agents: agents(['guia'], 'en-US', true) };
      },
      available: [],
    });
    expect(await within(hiredSection).findByRole('alert')).toHaveTextContent(
      /^Failed to load agents$/,
    );
    expect(within(hiredSection).queryByRole('heading', { level: 3 })).not.toBeInTheDocument();

    await user.click(within(hiredSection).getByRole('button', { name: 'Try again' }));
    expect(
      await within(hiredSection).findByRole('heading', { level: 3, name: 'Guide' }),
    ).toBeVisible();
    expect(within(hiredSection).queryByRole('alert')).not.toBeInTheDocument();
    expect(server.calls().filter((call) => call === 'GET /api/agents/user')).toHaveLength(2);
  });
});
