// @vitest-environment happy-dom
import type { ChatStreamEvent } from '@contrateia/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { QuickChat } from '@/features/chat/components/quick-chat';
import { errorResponse, eventStream, startFakeServer } from '@/test/fake-server';
import { agentFixture } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render-with-providers';

// The dashboard's quick chat (its chat panel): the short form POST /api/chat, streamed, with Stop.
// The journey against the real server is e2e/stop-reply.spec.ts.

const CONVERSATION_ID = '00000000-0000-4000-8000-0000000d0001';

function done(text: string): ChatStreamEvent {
  return {
    event: 'done',
    data: {
      success: true,
      message: { id: 'stored-1', text, sender: 'bot', timestamp: '2025-01-06T12:00:00.000Z' },
      conversation: { id: CONVERSATION_ID },
    },
  };
}

async function openQuickChat() {
  const server = startFakeServer();
  window.localStorage.setItem('token', 'token');
  server.on('GET /api/chat/conversations', () => ({ conversations: [] }));
  const sends = server.hold('POST /api/chat');
  const onReplied = vi.fn();
  const agents = [
    agentFixture('guia', { language: 'en-US', isHired: true }),
    agentFixture('assistente', { language: 'en-US', isHired: true }),
  ];
  const view = await renderWithProviders(<QuickChat agents={agents} onReplied={onReplied} />, {
    language: 'en-US',
    route: '/dashboard',
    texts: ['app'],
  });
  const panel = screen.getByRole('region', { name: 'Quick chat' });
  const next = async () => {
    const held = await sends.next();
    const stream = eventStream(held.request);
    held.respond(stream.response);
    return { request: held.request, stream };
  };
  return {
    server,
    next,
    onReplied,
    panel,
    box: within(panel).getByRole('textbox', { name: 'Message to Guide' }),
    ...view,
  };
}

describe("the dashboard's quick chat", () => {
  it('streams the reply from the chosen agent, as the short form, then shows it stored', async () => {
    const { next, panel, box, user, onReplied } = await openQuickChat();
    expect(panel).toHaveTextContent('Ask any of your agents anything.');
    await user.selectOptions(within(panel).getByRole('combobox', { name: 'Agent' }), 'Assistant');
    await user.type(box, '  quanto é 7 x 8?  {Enter}');
    const { request, stream } = await next();
    expect(request.body).toEqual({ message: 'quanto é 7 x 8?', agentName: 'assistente' });
    expect(request.headers.get('accept')).toContain('text/event-stream');

    stream.send({ event: 'start', data: { conversation: { id: CONVERSATION_ID } } });
    stream.send({ event: 'delta', data: { text: '7 x 8 = ' } });
    const transcript = within(panel).getByRole('region', { name: 'Quick chat' });
    await within(transcript).findByText('7 x 8 =', { exact: false });
    expect(onReplied).not.toHaveBeenCalled();
    stream.send({ event: 'delta', data: { text: '**56**' } });
    stream.send(done('7 x 8 = **56**'));
    stream.end();
    expect(await within(transcript).findByText('56', { selector: 'strong' })).toBeVisible();
    await waitFor(() => expect(onReplied).toHaveBeenCalledTimes(1));
    expect(transcript).toHaveTextContent('Assistant');
    expect(within(panel).queryByRole('button', { name: 'Stop' })).not.toBeInTheDocument();
    // The box now names the chosen agent.
    expect(box).toHaveAccessibleName('Message to Assistant');
  });

  it('Stop ends the reply: what arrived stays, marked stopped; the lists and figures refresh once it is stored', async () => {
    const { next, server, panel, box, user, onReplied } = await openQuickChat();
    await user.type(box, 'tell me a long story{Enter}');
    const { request, stream } = await next();
    stream.send({ event: 'start', data: { conversation: { id: CONVERSATION_ID } } });
    stream.send({ event: 'delta', data: { text: 'Once upon a time' } });
    const transcript = within(panel).getByRole('region', { name: 'Quick chat' });
    await within(transcript).findByText('Once upon a time');

    // The server answers a list read only once the stopped reply is stored.
    const lists = server.hold('GET /api/chat/conversations');
    await user.click(within(panel).getByRole('button', { name: 'Stop' }));
    expect(request.signal.aborted).toBe(true);
    expect(transcript).toHaveTextContent('Once upon a time');
    expect(transcript).toHaveTextContent('Stopped: the reply was cut short here.');
    expect(within(panel).queryByRole('button', { name: 'Stop' })).not.toBeInTheDocument();
    expect(within(panel).getByRole('button', { name: 'Send' })).toBeVisible();

    const list = await lists.next();
    expect(list.request.url).toBe('/api/chat/conversations?agentName=guia');
    expect(onReplied).not.toHaveBeenCalled();
    list.respond({ conversations: [] });
    await waitFor(() => expect(onReplied).toHaveBeenCalledTimes(1));
  });

  it('shows the server message when the reply fails before it starts', async () => {
    const { server, panel, box, user } = await openQuickChat();
    server.on('POST /api/chat', () =>
      errorResponse(403, { message: "You don't have access to this agent" }),
    );
    await user.type(box, 'hello{Enter}');
    const transcript = within(panel).getByRole('region', { name: 'Quick chat' });
    expect(
      await within(transcript).findByText('Error sending message. Please try again.'),
    ).toBeVisible();
  });
});
