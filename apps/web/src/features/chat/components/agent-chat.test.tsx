// @vitest-environment happy-dom
import type {
  ChatStreamEvent,
  ConversationResponse,
  ConversationSummary,
} from '@contrateia/shared';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AgentChat } from '@/features/chat/components/agent-chat';
import { errorResponse, eventStream, startFakeServer } from '@/test/fake-server';
import { agentFixture, messageFixture } from '@/test/fixtures';
import { renderWithProviders } from '@/test/render-with-providers';

// The chat window of an agent page against a stand-in server whose replies the test streams event
// by event. The journeys against the real engine are e2e/agents-and-chat.spec.ts.

const CONVERSATION_ID = '3c9a7e52-94a1-4f0e-a0a5-6b2f0d8e7c10';
const SECOND_CONVERSATION_ID = '3c9a7e52-94a1-4f0e-a0a5-6b2f0d8e7c11';
const TOKEN = 'token-da-ana';

const TEXTS = {
  'pt-BR': {
    region: 'Mensagens com Guia',
    box: 'Mensagem para Guia',
    send: 'Enviar',
    clear: 'Limpar conversa',
    clearTitle: 'Limpar a conversa?',
    clearConfirm: 'Limpar conversa',
    stop: 'Parar',
    typing: 'O agente está digitando…',
    error: 'Desculpe, ocorreu um erro. Tente novamente.',
  },
  'en-US': {
    region: 'Messages with Guide',
    box: 'Message to Guide',
    send: 'Send',
    clear: 'Clear Chat',
    clearTitle: 'Clear the chat?',
    clearConfirm: 'Clear Chat',
    stop: 'Stop',
    typing: 'Agent is typing…',
    error: "I'm sorry, I encountered an error. Please try again.",
  },
} as const;

/** The languages these tests have texts for. */
type Language = keyof typeof TEXTS;

function summary(id: string, messageCount: number): ConversationSummary {
  return {
    id,
    agentName: 'guia',
    title: '',
    messageCount,
    createdAt: '2025-01-06T12:00:00.000Z',
    updatedAt: '2025-01-06T12:00:00.000Z',
  };
}

/**
 * The guia page for a signed-in user with no conversation yet (or `history`), in `language`;
 * resolves once the chat has settled and can send, unless `holdHistory` leaves the history's
 * request to the test (`historyRequests`, answered with `historyAnswer`). `replies.next()` takes
 * the next message the page sends and gives the test its reply stream to write.
 */
async function openChat(
  language: Language = 'pt-BR',
  {
    history,
    holdHistory = false,
  }: { history?: { id: string; texts: [string, string] }; holdHistory?: boolean } = {},
) {
  const server = startFakeServer();
  window.localStorage.setItem('token', TOKEN);
  // The guia conversations the server holds, newest first: a finished reply adds to them.
  const listed: ConversationSummary[] = history ? [summary(history.id, 2)] : [];
  server.on('GET /api/chat/conversations', () => ({ conversations: [...listed] }));
  const store = (conversationId: string) => {
    const existing = listed.find((conversation) => conversation.id === conversationId);
    if (existing) existing.messageCount += 2;
    else listed.unshift(summary(conversationId, 2));
  };
  const messages = server.hold('POST /api/chat/message');
  const replies = {
    async next() {
      const held = await messages.next();
      const stream = eventStream(held.request);
      held.respond(stream.response);
      const send = (event: ChatStreamEvent) => {
        // As the server does: the question and the reply are stored when the reply is done.
        if (event.event === 'done') store(event.data.conversation.id);
        stream.send(event);
      };
      return { request: held.request, stream: { ...stream, send } };
    },
  };
  const historyAnswer: ConversationResponse | undefined = history && {
    conversation: {
      id: history.id,
      agentName: 'guia',
      title: history.texts[0],
      createdAt: '2025-01-06T12:00:00.000Z',
      messages: [
        messageFixture({ id: 'm1', text: history.texts[0], sender: 'user' }),
        messageFixture({ id: 'm2', text: history.texts[1], sender: 'bot' }),
      ],
    },
  };
  const historyRequests = server.hold('GET /api/chat/conversations/:id');
  const agent = agentFixture('guia', { language, isHired: true });
  const view = await renderWithProviders(<AgentChat agent={agent} />, {
    language,
    route: '/guia',
    texts: ['app'],
  });
  const t = TEXTS[language];
  const region = screen.getByRole('region', { name: t.region });
  if (!holdHistory) {
    if (historyAnswer) (await historyRequests.next()).respond(historyAnswer);
    await expectSettled(region);
  }
  return {
    server,
    replies,
    historyRequests,
    historyAnswer,
    ...view,
    t,
    agent,
    region,
    box: screen.getByRole('textbox', { name: t.box }),
    sendButton: screen.getByRole('button', { name: t.send }),
  };
}

/** The history has been looked up: the region is no longer busy and sending is possible. */
async function expectSettled(region: HTMLElement) {
  await waitFor(() => expect(region).not.toHaveAttribute('aria-busy'));
}

/** The chat's entries (welcome, messages, replies), not lists inside a Markdown reply. */
function entries(region: HTMLElement): HTMLElement[] {
  return Array.from(region.querySelectorAll<HTMLElement>(':scope > ol > li'));
}

function entryTexts(region: HTMLElement): string[] {
  return entries(region).map(
    (entry) => entry.querySelector('.chat-message__bubble')?.textContent ?? '',
  );
}

function done(text: string, conversationId = CONVERSATION_ID, id = 'stored-reply') {
  return {
    event: 'done' as const,
    data: {
      success: true as const,
      message: messageFixture({ id, text, sender: 'bot' }),
      conversation: { id: conversationId },
    },
  };
}

describe('the chat window', () => {
  it("starts with the agent's welcome message, asking for the agent's conversations with the session", async () => {
    const { server, region, agent, sendButton } = await openChat();
    expect(screen.getByRole('heading', { level: 1, name: 'Guia' })).toBeVisible();
    expect(screen.getByText(agent.description)).toBeVisible();
    expect(entryTexts(region)).toEqual([agent.configuration.welcomeMessage]);
    expect(sendButton).toBeDisabled();

    expect(server.calls()).toEqual(['GET /api/chat/conversations?agentName=guia']);
    const [request] = server.requests;
    expect(request?.headers.get('Authorization')).toBe(`Bearer ${TOKEN}`);
    expect(request?.headers.get('Accept-Language')).toBe('pt-BR');
  });

  it('sends on Enter, adds a line on Shift+Enter, and never sends a blank message', async () => {
    const { server, replies, region, box, sendButton, user } = await openChat();

    await user.type(box, '   ');
    expect(sendButton).toBeDisabled();
    await user.type(box, '{Enter}');
    expect(box).toHaveValue('   ');
    await user.clear(box);

    await user.type(box, '  como contrato{Shift>}{Enter}{/Shift}um agente?  ');
    expect(box).toHaveValue('  como contrato\num agente?  ');
    expect(entries(region)).toHaveLength(1);
    expect(sendButton).toBeEnabled();

    await user.type(box, '{Enter}');
    const { request } = await replies.next();
    expect(box).toHaveValue('');
    expect(request.body).toEqual({ message: 'como contrato\num agente?', agentName: 'guia' });
    expect(request.headers.get('Accept')).toBe('text/event-stream');
    expect(request.headers.get('Authorization')).toBe(`Bearer ${TOKEN}`);
    expect(request.headers.get('Accept-Language')).toBe('pt-BR');
    // The question is trimmed and keeps its two lines.
    expect(entries(region)[1]?.querySelector('.chat-text')?.textContent).toBe(
      'como contrato\num agente?',
    );
    expect(server.calls()).toEqual([
      'GET /api/chat/conversations?agentName=guia',
      'POST /api/chat/message',
    ]);
  });

  it('shows the typing indicator, then the text as it streams, then the stored reply; nothing is sent meanwhile', async () => {
    const { server, replies, region, box, sendButton, user, t } = await openChat();
    await user.type(box, 'como contrato um agente?{Enter}');
    const { stream } = await replies.next();

    const typing = await within(region).findByRole('status');
    expect(typing).toHaveTextContent(t.typing);
    expect(entries(region)).toHaveLength(3);
    expect(entries(region)[2]).toContainElement(typing);

    // Pending: the box stays editable, Enter does not send, and Stop takes Send's place.
    await user.type(box, 'e o idioma?{Enter}');
    expect(box).toHaveValue('e o idioma?');
    expect(sendButton).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: t.stop })).toBeVisible();
    expect(server.calls().filter((call) => call === 'POST /api/chat/message')).toHaveLength(1);

    stream.send({ event: 'delta', data: { text: 'Para contratar' } });
    await within(region).findByText('Para contratar');
    expect(within(region).queryByRole('status')).not.toBeInTheDocument();
    stream.send({ event: 'delta', data: { text: ' um agente, abra o **Painel**' } });
    expect(await within(region).findByText('Painel', { selector: 'strong' })).toBeVisible();
    expect(entries(region)[2]).toHaveTextContent(/^Guia:Para contratar um agente, abra o Painel$/);
    expect(entries(region)[2]?.querySelector('time')).toBeNull();
    expect(screen.queryByRole('button', { name: t.send })).not.toBeInTheDocument();

    // The stored message replaces the streamed text.
    stream.send(done('Para contratar um agente, abra o **Painel** e escolha *Contratar*.'));
    stream.end();
    expect(await within(region).findByText('Contratar', { selector: 'em' })).toBeVisible();
    expect(entryTexts(region)).toEqual([
      'Olá! Eu sou o Guia. Pergunte como fazer qualquer coisa na ContrateIA.',
      'como contrato um agente?',
      'Para contratar um agente, abra o Painel e escolha Contratar.',
    ]);
    expect(entries(region)[2]?.querySelector('time')).toHaveAttribute(
      'datetime',
      '2025-01-06T12:00:00.000Z',
    );
    // Screen readers hear the whole reply once, as plain text.
    expect(
      screen.getByText('Para contratar um agente, abra o Painel e escolha Contratar.', {
        selector: '[aria-live="polite"]',
      }),
    ).toBeInTheDocument();

    // Free again: the waiting text goes, into the conversation the first reply created.
    expect(await screen.findByRole('button', { name: t.send })).toBeEnabled();
    await user.type(box, '{Enter}');
    const second = await replies.next();
    expect(second.request.body).toEqual({
      message: 'e o idioma?',
      agentName: 'guia',
      conversationId: CONVERSATION_ID,
    });
  });

  it("shows the chat's error text in place of the reply when the stream ends with an error event (en-US)", async () => {
    const { replies, region, box, user, t } = await openChat('en-US');
    await user.type(box, 'how do I hire an agent?{Enter}');
    const { stream } = await replies.next();
    stream.send({ event: 'delta', data: { text: 'To hire' } });
    await within(region).findByText('To hire');
    stream.send({
      event: 'error',
      data: { success: false, message: 'The AI service did not respond. Please try again.' },
    });
    stream.end();

    expect(await within(region).findByText(t.error)).toBeVisible();
    expect(entryTexts(region)).toEqual([
      "Hello! I'm the Guide. Ask me how to do anything in ContrateIA.",
      'how do I hire an agent?',
      t.error,
    ]);
    expect(entries(region)[2]).toHaveClass('chat-message--error');
    expect(within(region).queryByText('To hire')).not.toBeInTheDocument();
    // Nothing was stored: the next message still starts a conversation.
    await user.type(box, 'hello');
    const sendAgain = screen.getByRole('button', { name: t.send });
    expect(sendAgain).toBeEnabled();
    await user.click(sendAgain);
    const next = await replies.next();
    expect(next.request.body).toEqual({ message: 'hello', agentName: 'guia' });
  });

  it("shows the server's message when it refuses the message before streaming", async () => {
    const { server, region, box, user } = await openChat();
    server.on('POST /api/chat/message', () =>
      errorResponse(409, { message: 'Aguarde a resposta atual terminar' }),
    );
    await user.type(box, 'oi{Enter}');

    expect(await within(region).findByText('Aguarde a resposta atual terminar')).toBeVisible();
    expect(entryTexts(region)).toEqual([
      'Olá! Eu sou o Guia. Pergunte como fazer qualquer coisa na ContrateIA.',
      'oi',
      'Aguarde a resposta atual terminar',
    ]);
    expect(entries(region)[2]).toHaveClass('chat-message--error');
  });

  // The button and its dialog name the same action.
  it("Clear Chat's dialog says what the button said: its title and its action", async () => {
    const { user, t } = await openChat();
    await user.click(screen.getByRole('button', { name: t.clear }));
    const dialog = screen.getByRole('dialog', { name: t.clearTitle });
    expect(within(dialog).getByRole('button', { name: t.clear })).toBeVisible();
  });

  it('Clear Chat goes back to the welcome message, and the next message starts a new conversation', async () => {
    const { server, replies, region, box, user, t, agent } = await openChat();
    await user.type(box, 'primeira{Enter}');
    const first = await replies.next();
    first.stream.send(done('Resposta um.'));
    first.stream.end();
    await within(region).findByText('Resposta um.');
    // The page refreshes its list, which now holds that conversation.
    await waitFor(() => expect(server.calls()).toHaveLength(3));

    await user.click(screen.getByRole('button', { name: t.clear }));
    await user.click(
      within(screen.getByRole('dialog')).getByRole('button', { name: t.clearConfirm }),
    );
    expect(entryTexts(region)).toEqual([agent.configuration.welcomeMessage]);
    await waitFor(() => expect(box).toHaveFocus());

    await user.type(box, 'segunda{Enter}');
    const second = await replies.next();
    expect(second.request.body).toEqual({ message: 'segunda', agentName: 'guia' });
    second.stream.send(done('Resposta dois.', SECOND_CONVERSATION_ID, 'stored-reply-2'));
    second.stream.end();
    await within(region).findByText('Resposta dois.');
    expect(entryTexts(region)).toEqual([
      agent.configuration.welcomeMessage,
      'segunda',
      'Resposta dois.',
    ]);
    // The first conversation was never reopened.
    const list = 'GET /api/chat/conversations?agentName=guia';
    await waitFor(() =>
      expect(server.calls()).toEqual([
        list,
        'POST /api/chat/message',
        list,
        'POST /api/chat/message',
        list,
      ]),
    );
  });

  it('Clear Chat while a reply streams stops reading it and drops it', async () => {
    const { replies, region, box, user, t, agent } = await openChat();
    await user.type(box, 'pergunta longa{Enter}');
    const { request, stream } = await replies.next();
    stream.send({ event: 'delta', data: { text: 'Uma resposta que' } });
    await within(region).findByText('Uma resposta que');

    await user.click(screen.getByRole('button', { name: t.clear }));
    await user.click(
      within(screen.getByRole('dialog')).getByRole('button', { name: t.clearConfirm }),
    );
    expect(request.signal.aborted).toBe(true);
    expect(entryTexts(region)).toEqual([agent.configuration.welcomeMessage]);
    await user.type(box, 'outra');
    expect(screen.getByRole('button', { name: t.send })).toBeEnabled();
  });

  it('opens the latest conversation, sending nothing until it has loaded, then continues it', async () => {
    const { server, replies, historyRequests, historyAnswer, region, box, sendButton, user } =
      await openChat('pt-BR', {
        history: {
          id: CONVERSATION_ID,
          texts: ['como troco o idioma?', 'Use o **seletor de idioma**.'],
        },
        holdHistory: true,
      });
    const pending = await historyRequests.next();
    expect(region).toHaveAttribute('aria-busy', 'true');
    expect(within(region).getByRole('status')).toHaveTextContent(/^Carregando a conversa\.\.\.$/);
    await user.type(box, 'obrigada{Enter}');
    expect(box).toHaveValue('obrigada');
    expect(sendButton).toBeDisabled();
    expect(entries(region)).toHaveLength(1);

    if (!historyAnswer) throw new Error('no history');
    pending.respond(historyAnswer);
    expect(
      await within(region).findByText('seletor de idioma', { selector: 'strong' }),
    ).toBeVisible();
    await expectSettled(region);
    expect(entryTexts(region)).toEqual([
      'Olá! Eu sou o Guia. Pergunte como fazer qualquer coisa na ContrateIA.',
      'como troco o idioma?',
      'Use o seletor de idioma.',
    ]);
    expect(server.calls()).toEqual([
      'GET /api/chat/conversations?agentName=guia',
      `GET /api/chat/conversations/${CONVERSATION_ID}`,
    ]);

    await user.type(box, '{Enter}');
    const { request } = await replies.next();
    expect(request.body).toEqual({
      message: 'obrigada',
      agentName: 'guia',
      conversationId: CONVERSATION_ID,
    });
  });

  it('Stop ends the reply: what arrived stays, marked stopped, and the next message continues the conversation', async () => {
    const { replies, region, box, user, t } = await openChat();
    await user.type(box, 'conta uma história{Enter}');
    const { request, stream } = await replies.next();
    stream.send({ event: 'start', data: { conversation: { id: CONVERSATION_ID } } });
    stream.send({ event: 'delta', data: { text: 'Era uma vez' } });
    await within(region).findByText('Era uma vez');

    await user.click(screen.getByRole('button', { name: t.stop }));
    expect(request.signal.aborted).toBe(true);
    expect(entryTexts(region)).toEqual([
      'Olá! Eu sou o Guia. Pergunte como fazer qualquer coisa na ContrateIA.',
      'conta uma história',
      'Era uma vez',
    ]);
    expect(entries(region)[2]).toHaveTextContent('Interrompida: a resposta parou aqui.');
    expect(within(region).queryByText(t.typing)).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: t.stop })).not.toBeInTheDocument();

    // The conversation the server named at the start goes on (no done event ever came).
    await user.type(box, 'continue{Enter}');
    const next = await replies.next();
    expect(next.request.body).toEqual({
      message: 'continue',
      agentName: 'guia',
      conversationId: CONVERSATION_ID,
    });
  });

  it('shows a stored stopped reply as stopped', async () => {
    const { historyRequests, historyAnswer, region } = await openChat('en-US', {
      history: { id: CONVERSATION_ID, texts: ['tell me a story', 'Once upon'] },
      holdHistory: true,
    });
    if (!historyAnswer) throw new Error('no history');
    const [question, reply] = historyAnswer.conversation.messages;
    (await historyRequests.next()).respond({
      conversation: {
        ...historyAnswer.conversation,
        messages: [question!, { ...reply!, stopped: true }],
      },
    });
    await expectSettled(region);
    expect(entryTexts(region).slice(1)).toEqual(['tell me a story', 'Once upon']);
    expect(entries(region)[2]).toHaveTextContent('Stopped: the reply was cut short here.');
    expect(entries(region)[1]).not.toHaveTextContent('Stopped');
  });

  it('Copy on each reply puts its text on the clipboard and says so; the welcome and questions have none', async () => {
    const { replies, region, box, user } = await openChat('en-US');
    await user.type(box, 'how do I hire?{Enter}');
    const { stream } = await replies.next();
    stream.send({ event: 'delta', data: { text: 'Open the **Dashboard**' } });
    await within(region).findByText('Dashboard', { selector: 'strong' });
    // Not while it streams.
    expect(within(region).queryByRole('button', { name: 'Copy' })).not.toBeInTheDocument();
    stream.send(done('Open the **Dashboard** and choose *Hire*.'));
    stream.end();
    const copy = await within(region).findByRole('button', { name: 'Copy' });
    expect(within(region).getAllByRole('button', { name: 'Copy' })).toHaveLength(1);
    expect(entries(region)[2]).toContainElement(copy);

    await user.click(copy);
    expect(await navigator.clipboard.readText()).toBe('Open the **Dashboard** and choose *Hire*.');
    expect(within(entries(region)[2]!).getByRole('status')).toHaveTextContent('Copied');
  });

  it('a message the rate limit refuses is not shown as sent: it goes back into the box with the error, and Send waits for Retry-After', async () => {
    const { server, region, box, user, t } = await openChat('en-US');
    server.on(
      'POST /api/chat/message',
      () =>
        new Response(
          JSON.stringify({
            success: false,
            message: 'Too many requests. Please try again in 1 seconds.',
          }),
          { status: 429, headers: { 'Content-Type': 'application/json', 'Retry-After': '1' } },
        ),
    );
    await user.type(box, 'one more question{Enter}');

    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('Too many requests. Please try again in 1 seconds.');
    expect(alert).toHaveTextContent('You can try again in 1 second.');
    expect(box).toHaveValue('one more question');
    // Nothing was sent: the chat shows only the welcome.
    expect(entries(region)).toHaveLength(1);
    expect(screen.getByRole('button', { name: t.send })).toBeDisabled();
    await user.type(box, '{Enter}');
    expect(server.calls().filter((call) => call === 'POST /api/chat/message')).toHaveLength(1);

    // Once the time the server gave has passed, sending works again.
    await waitFor(() => expect(screen.getByRole('button', { name: t.send })).toBeEnabled(), {
      timeout: 3000,
    });
    expect(alert).toHaveTextContent('You can send it again now.');
    server.on('POST /api/chat/message', (request) => {
      const stream = eventStream(request);
      stream.send(done('Sure.'));
      stream.end();
      return stream.response;
    });
    await user.click(screen.getByRole('button', { name: t.send }));
    expect(await within(region).findByText('Sure.')).toBeVisible();
    expect(entryTexts(region).slice(1)).toEqual(['one more question', 'Sure.']);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  // Escape on the dialog is the browser's (happy-dom has none): e2e/conversations.spec.ts.
  it('Clear Chat asks first: Cancel keeps the conversation', async () => {
    const { replies, region, box, user, t } = await openChat('en-US');
    await user.type(box, 'keep this{Enter}');
    const { stream } = await replies.next();
    stream.send(done('Kept.'));
    stream.end();
    await within(region).findByText('Kept.');
    const clear = screen.getByRole('button', { name: t.clear });

    await user.click(clear);
    const dialog = screen.getByRole('dialog', { name: 'Clear the chat?' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(entryTexts(region).slice(1)).toEqual(['keep this', 'Kept.']);
    expect(clear).toHaveFocus();
  });

  it('a reply that waits for a yes offers Send and Cancel, which answer it; they go once answered', async () => {
    const { replies, region, box, user } = await openChat();
    await user.type(box, 'envie para (11) 98888-7777: oi{Enter}');
    const { stream } = await replies.next();
    stream.send({
      event: 'done',
      data: {
        success: true,
        message: {
          ...messageFixture({
            id: 'proposal',
            text: 'Vou enviar para **+55 11 98888 7777**',
            sender: 'bot',
          }),
          awaits: 'relayConfirm',
        },
        conversation: { id: CONVERSATION_ID },
      },
    });
    stream.end();
    const group = await screen.findByRole('group', { name: 'Confirmar o envio' });
    await user.click(within(group).getByRole('button', { name: 'Sim, enviar' }));
    const answer = await replies.next();
    expect(answer.request.body).toEqual({
      message: 'sim',
      agentName: 'guia',
      conversationId: CONVERSATION_ID,
    });
    // While the answer is on its way, and once the reply asks nothing, there is nothing to confirm.
    expect(screen.queryByRole('group', { name: 'Confirmar o envio' })).not.toBeInTheDocument();
    answer.stream.send(done('Enviada para **+55 11 98888 7777**.', CONVERSATION_ID, 'sent'));
    answer.stream.end();
    await within(region).findByText(/^Enviada para/);
    expect(screen.queryByRole('group', { name: 'Confirmar o envio' })).not.toBeInTheDocument();
  });
});
