// @vitest-environment happy-dom
import type { ConversationResponse, ConversationSummary } from '@contrateia/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AgentChat } from '@/features/chat/components/agent-chat';
import { AuxtratChat } from '@/features/chat/components/auxtrat-chat';
import { errorResponse, startFakeServer } from '@/test/fake-server';
import { agentFixture, messageFixture } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render-with-providers';

// The conversation list every agent page has: titles, search, rename and delete, against a stand-in
// server that keeps the list as the real one does. The journeys against the real server are
// e2e/conversations.spec.ts.

const CURRENT = '00000000-0000-4000-8000-0000000c0001';
const PLANS = '00000000-0000-4000-8000-0000000aa111';
const REFUNDS = '00000000-0000-4000-8000-0000000bb222';

function summary(id: string, title: string, updatedAt: string): ConversationSummary {
  return { id, agentName: 'guia', title, messageCount: 2, createdAt: updatedAt, updatedAt };
}

/** The guia page (en-US) of a user with three conversations; the newest is the one shown. */
async function openPage({ agent = 'guia' }: { agent?: 'guia' | 'auxtrat' } = {}) {
  const server = startFakeServer();
  window.localStorage.setItem('token', 'token');
  const stored: ConversationSummary[] = [
    summary(CURRENT, 'What is new?', '2025-01-06T12:00:00.000Z'),
    summary(PLANS, 'Which plans are there?', '2025-01-05T12:00:00.000Z'),
    summary(REFUNDS, '', '2025-01-04T12:00:00.000Z'),
  ].map((c) => ({ ...c, agentName: agent }));
  // Message texts, for the search: the server searches titles and every message.
  const texts: Record<string, string> = { [REFUNDS]: 'I want a refund for my order' };
  server.on('GET /api/chat/conversations', (request) => {
    const q = new URL(request.url, 'http://localhost').searchParams.get('q')?.toLowerCase() ?? '';
    return {
      conversations: stored.filter(
        (c) => !q || c.title.toLowerCase().includes(q) || (texts[c.id] ?? '').includes(q),
      ),
    };
  });
  server.on('GET /api/chat/conversations/:id', (request): ConversationResponse => {
    const id = request.url.split('/').at(-1) ?? '';
    const found = stored.find((c) => c.id === id);
    return {
      conversation: {
        id,
        agentName: agent,
        title: found?.title ?? '',
        createdAt: found?.createdAt ?? '',
        messages: [
          messageFixture({ id: `${id}-q`, text: found?.title || 'question', sender: 'user' }),
          messageFixture({ id: `${id}-a`, text: 'An answer.', sender: 'bot' }),
        ],
      },
    };
  });
  server.on('PATCH /api/chat/conversations/:id', (request) => {
    const id = request.url.split('/').at(-1) ?? '';
    const found = stored.find((c) => c.id === id);
    if (!found) return errorResponse(404, { message: 'Conversation not found' });
    found.title = request.body.title.trim();
    return { success: true, conversation: found };
  });
  server.on('DELETE /api/chat/conversations/:id', (request) => {
    const id = request.url.split('/').at(-1) ?? '';
    stored.splice(
      stored.findIndex((c) => c.id === id),
      1,
    );
    return { success: true };
  });
  const fixture = agentFixture(agent, { language: 'en-US', isHired: true });
  const view = await renderWithProviders(
    agent === 'auxtrat' ? <AuxtratChat agent={fixture} /> : <AgentChat agent={fixture} />,
    { language: 'en-US', route: `/${agent}`, texts: ['app'] },
  );
  const list = screen.getByRole('region', {
    name: agent === 'auxtrat' ? 'Other Auxtrat Conversations' : 'Conversations',
  });
  // Settled: the newest conversation is open; auxtrat lists the others, every other page all three,
  // the one on screen marked.
  await waitFor(() =>
    expect(within(list).getAllByRole('listitem')).toHaveLength(agent === 'auxtrat' ? 2 : 3),
  );
  if (agent !== 'auxtrat') await within(list).findByRole('button', { current: true });
  return { server, list, stored, ...view };
}

function items(list: HTMLElement): string[] {
  return within(list)
    .getAllByRole('listitem')
    .map((item) => item.querySelector('.conversation-item__title')?.textContent ?? '');
}

describe('the conversation list of an agent page', () => {
  it("lists the conversations newest first, titled from their first message, else 'Conversation #' and the id's end; the one shown is marked", async () => {
    const { list } = await openPage();
    expect(items(list)).toEqual(['What is new?', 'Which plans are there?', 'Conversation #0bb222']);
    const [shown, plans] = within(list).getAllByRole('listitem');
    // The conversation on screen is in the list, marked for the eye and for screen readers.
    expect(within(list).getByRole('button', { current: true })).toHaveTextContent('What is new?');
    expect(shown).toHaveTextContent('Open now');
    expect(plans).not.toHaveTextContent('Open now');
    expect(plans!.querySelector('.conversation-item')).not.toHaveAttribute('aria-current');
    // A titled one also shows its number.
    expect(plans).toHaveTextContent('Conversation #0aa111');
    expect(plans).toHaveTextContent('2 messages');
  });

  it("keeps auxtrat's own heading and texts, and lists only its other conversations", async () => {
    const { list } = await openPage({ agent: 'auxtrat' });
    expect(
      within(list).getByRole('heading', { name: 'Other Auxtrat Conversations' }),
    ).toBeVisible();
    expect(within(list).getByRole('button', { name: 'Refresh' })).toBeVisible();
    expect(items(list)).toEqual(['Which plans are there?', 'Conversation #0bb222']);
    expect(list).not.toHaveTextContent('What is new?');
  });

  it('renames and deletes the conversation on screen from the list; deleted, the page starts afresh', async () => {
    const { list, server, user } = await openPage();
    await user.click(within(list).getByRole('button', { name: 'Rename “What is new?”' }));
    const field = within(list).getByRole('textbox', { name: 'Conversation title' });
    await user.clear(field);
    await user.type(field, 'News{Enter}');
    await waitFor(() => expect(items(list)[0]).toBe('News'));
    expect(server.requests.find((r) => r.method === 'PATCH')?.url).toBe(
      `/api/chat/conversations/${CURRENT}`,
    );

    // The shown conversation's messages are on the page until it is deleted.
    expect(screen.getByText('An answer.')).toBeInTheDocument();
    await user.click(within(list).getByRole('button', { name: 'Delete “News”' }));
    const dialog = screen.getByRole('dialog', { name: 'Delete conversation?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() =>
      expect(items(list)).toEqual(['Which plans are there?', 'Conversation #0bb222']),
    );
    expect(server.calls()).toContain(`DELETE /api/chat/conversations/${CURRENT}`);
    expect(screen.queryByText('An answer.')).not.toBeInTheDocument();
    expect(within(list).queryByRole('button', { current: true })).not.toBeInTheDocument();
  });

  it('searches titles and messages on the server, and says when nothing matches', async () => {
    const { list, server, user } = await openPage();
    const search = within(list).getByRole('searchbox', { name: 'Search conversations' });
    await user.type(search, 'refund');
    await waitFor(() => expect(items(list)).toEqual(['Conversation #0bb222']));
    // Asked once typing paused, not once per key.
    expect(server.calls().filter((call) => call.includes('q='))).toEqual([
      'GET /api/chat/conversations?agentName=guia&q=refund',
    ]);
    await user.clear(search);
    await user.type(search, 'zzz');
    expect(await within(list).findByText('No conversation matches your search')).toBeVisible();
    await user.clear(search);
    await waitFor(() => expect(items(list)).toHaveLength(3));
  });

  it('renames in place: Enter saves the trimmed title, Escape cancels; focus returns to Rename', async () => {
    const { list, server, user } = await openPage();
    await user.click(within(list).getByRole('button', { name: 'Rename “Which plans are there?”' }));
    const field = within(list).getByRole('textbox', { name: 'Conversation title' });
    expect(field).toHaveFocus();
    expect(field).toHaveValue('Which plans are there?');

    await user.clear(field);
    await user.type(field, '  Plans for Monday  {Enter}');
    await waitFor(() =>
      expect(items(list)).toEqual(['What is new?', 'Plans for Monday', 'Conversation #0bb222']),
    );
    const patch = server.requests.find((r) => r.method === 'PATCH');
    expect(patch?.url).toBe(`/api/chat/conversations/${PLANS}`);
    expect(patch?.body).toEqual({ title: 'Plans for Monday' });
    expect(screen.getByText('Renamed to “Plans for Monday”.')).toBeInTheDocument();
    await waitFor(() =>
      expect(within(list).getByRole('button', { name: 'Rename “Plans for Monday”' })).toHaveFocus(),
    );

    // Escape leaves it as it was, sending nothing.
    await user.click(within(list).getByRole('button', { name: 'Rename “Plans for Monday”' }));
    await user.type(within(list).getByRole('textbox', { name: 'Conversation title' }), ' more');
    await user.keyboard('{Escape}');
    expect(
      within(list).queryByRole('textbox', { name: 'Conversation title' }),
    ).not.toBeInTheDocument();
    expect(items(list)[1]).toBe('Plans for Monday');
    expect(server.requests.filter((r) => r.method === 'PATCH')).toHaveLength(1);
    await waitFor(() =>
      expect(within(list).getByRole('button', { name: 'Rename “Plans for Monday”' })).toHaveFocus(),
    );
  });

  it('refuses a blank, huge or hostile title with the shared message, sending nothing', async () => {
    const { list, server, user } = await openPage();
    await user.click(within(list).getByRole('button', { name: 'Rename “Which plans are there?”' }));
    const field = within(list).getByRole('textbox', { name: 'Conversation title' });
    await user.clear(field);
    await user.type(field, '   {Enter}');
    expect(within(list).getByRole('alert')).toHaveTextContent('Please enter a title');
    expect(field).toHaveAttribute('aria-invalid', 'true');
    await user.clear(field);
    await user.type(field, `${'x'.repeat(101)}{Enter}`);
    expect(within(list).getByRole('alert')).toHaveTextContent(
      'Titles can have at most 100 characters',
    );
    await user.clear(field);
    await user.type(field, '<b>bold</b>{Enter}');
    expect(within(list).getByRole('alert')).toHaveTextContent(
      'Titles can only hold plain text: no line breaks, hidden characters or HTML tags',
    );
    expect(server.requests.filter((r) => r.method === 'PATCH')).toHaveLength(0);
    await user.keyboard('{Escape}');
    expect(items(list)).toEqual(['What is new?', 'Which plans are there?', 'Conversation #0bb222']);
  });

  it('deletes after a confirmation; Cancel keeps it', async () => {
    const { list, server, user } = await openPage();
    const remove = () =>
      user.click(within(list).getByRole('button', { name: 'Delete “Conversation #0bb222”' }));

    await remove();
    let dialog = screen.getByRole('dialog', { name: 'Delete conversation?' });
    expect(dialog).toHaveTextContent(
      '“Conversation #0bb222” and all its messages will be deleted. This cannot be undone.',
    );
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(server.requests.filter((r) => r.method === 'DELETE')).toHaveLength(0);
    expect(items(list)).toHaveLength(3);

    await remove();
    dialog = screen.getByRole('dialog', { name: 'Delete conversation?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(items(list)).toEqual(['What is new?', 'Which plans are there?']));
    expect(server.calls()).toContain(`DELETE /api/chat/conversations/${REFUNDS}`);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByText('Conversation deleted.')).toBeInTheDocument();
    await waitFor(() =>
      expect(within(list).getByRole('searchbox', { name: 'Search conversations' })).toHaveFocus(),
    );
  });
});
