// @vitest-environment happy-dom
import type { Language } from '@contrateia/shared/i18n/languages';
import type {
  WhatsAppAgent,
  WhatsAppConversation,
  WhatsAppMessage,
  WhatsAppStatus,
} from '@contrateia/shared/whatsapp/whatsapp.schemas';
import { act, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { StatusIcon } from '@/features/whatsapp/components/status-icon';
import { WhatsAppPage } from '@/features/whatsapp/components/whatsapp-page';
import { RealtimeContext } from '@/hooks/use-realtime';
import { emulateDialogCloseRequests } from '@/test/browser';
import {
  conversationPage,
  conversationsPage,
  errorResponse,
  startFakeServer,
  type FakeServer,
  type HeldEndpoint,
} from '@/test/fake-server';
import { startFakeRealtime } from '@/test/fake-realtime';
import { renderWithProviders, setLanguage } from '@/test/render-with-providers';

// The WhatsApp pages against a stand-in API that keeps its state as the real one does, and a real
// Socket.IO server in the test process sending the server's events (test/fake-realtime.ts).

const TOKEN = 'token-da-ana';
const QR_1 = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAAAQ==';
const QR_2 = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAYAAABytg0kAAAAAg==';

const TEXTS = {
  'pt-BR': {
    disconnected: 'Não conectado',
    connection: 'Conexão',
    unknownState: 'Status da conexão desconhecido',
    loggedOut:
      'O celular desvinculou este dispositivo (sessão encerrada). Pressione Conectar para vinculá-lo de novo com um novo código.',
    qrLimit: 'O código expirou sem ser escaneado. Pressione Conectar para receber um novo.',
    ended: {
      loggedOut:
        'O celular desvinculou este dispositivo (sessão encerrada). Pressione Conectar para vinculá-lo de novo com um novo código.',
      qrLimit: 'O código expirou sem ser escaneado. Pressione Conectar para receber um novo.',
      replaced:
        'Outra sessão assumiu este número e esta foi encerrada. Pressione Conectar para vinculá-lo de novo.',
      other: 'A conexão com o WhatsApp terminou. Pressione Conectar para tentar de novo.',
      banned:
        'O WhatsApp baniu este número: ele não pode ser conectado enquanto o WhatsApp não suspender o banimento.',
    },
    connect: 'Conectar',
    disconnect: 'Desconectar',
    qrTitle: 'Conectar WhatsApp',
    qrAlt: 'QR code para conectar o WhatsApp',
    showQr: 'Mostrar QR code',
    qrClose: 'Fechar',
    waiting: 'Preparando o código…',
    scan: 'Escaneie o código com o WhatsApp',
    connectedAs: 'Conectado como +5511988887777',
    count: (n: number) => `${n} ${n === 1 ? 'conversa' : 'conversas'}`,
    aiOn: 'IA LIGADA',
    aiOff: 'IA DESLIGADA',
    manual: 'Modo manual',
    aiActive: 'Assistente de IA ativo',
    aiOnHold: 'IA em espera',
    authFailed: 'O WhatsApp recusou a conexão. Conecte de novo para receber um novo código.',
    banned:
      'O WhatsApp baniu este número: ele não pode ser conectado enquanto o WhatsApp não suspender o banimento.',
    blockedNote:
      'Este contato enviou mensagens demais em pouco tempo e está bloqueado por um tempo: as mensagens dele aparecem aqui, mas o agente não responde. Você ainda pode responder à mão.',
    pendingNote:
      'Este contato não está na lista de permissões: o agente não responde enquanto o modo lista de permissões estiver ligado.',
    deleteOf: (name: string) => `Excluir a conversa com ${name}`,
    deleteQuestion: 'Tem certeza de que deseja excluir esta conversa?',
    deleteConfirm: 'Excluir',
    cancel: 'Cancelar',
    messageTo: (name: string) => `Mensagem para ${name}`,
    send: 'Enviar',
    back: 'Voltar às conversas',
    reconnectingLive: 'Atualizações ao vivo interrompidas: reconectando…',
    whitelist: 'Lista de permissões',
    assignAgent: 'Atribuir agente',
    assign: 'Atribuir',
    agentOf: (agent: string) => `Agente: ${agent}`,
    agentReply: (agent: string) => `${agent} (IA)`,
    unanswered: 'Não respondida (chegou enquanto o WhatsApp estava desconectado)',
    tabs: 'Conversas ativas',
    status: { active: 'Ativa', blocked: 'Bloqueada', pending: 'Pendente', unknown: 'Sem status' },
    whitelistMode: 'Modo lista de permissões',
    stateWords: {
      connecting: 'Conectando…',
      reconnecting: 'Reconectando…',
      failed: 'Não foi possível falar com o WhatsApp',
    },
  },
  'en-US': {
    disconnected: 'Not connected',
    connection: 'Connection',
    unknownState: 'Connection status unknown',
    loggedOut:
      'The phone unlinked this device (logged out). Press Connect to link it again with a new code.',
    qrLimit: 'The code expired before it was scanned. Press Connect to get a new one.',
    ended: {
      loggedOut:
        'The phone unlinked this device (logged out). Press Connect to link it again with a new code.',
      qrLimit: 'The code expired before it was scanned. Press Connect to get a new one.',
      replaced:
        'Another session took over this number, so this one was ended. Press Connect to link it again.',
      other: 'The connection to WhatsApp ended. Press Connect to try again.',
      banned: 'WhatsApp banned this number: it cannot be connected until WhatsApp lifts the ban.',
    },
    connect: 'Connect',
    disconnect: 'Disconnect',
    qrTitle: 'Connect WhatsApp',
    qrAlt: 'QR code to link WhatsApp',
    showQr: 'Show QR code',
    qrClose: 'Close',
    waiting: 'Preparing the code…',
    scan: 'Scan the code with WhatsApp',
    connectedAs: 'Connected as +5511988887777',
    count: (n: number) => `${n} ${n === 1 ? 'conversation' : 'conversations'}`,
    aiOn: 'AI ON',
    aiOff: 'AI OFF',
    manual: 'Manual Mode',
    aiActive: 'AI Assistant Active',
    aiOnHold: 'AI on hold',
    authFailed: 'WhatsApp refused the link. Connect again to get a new code.',
    banned: 'WhatsApp banned this number: it cannot be connected until WhatsApp lifts the ban.',
    blockedNote:
      'This contact sent too many messages in a short time and is blocked for a while: their messages show here, but the agent does not answer. You can still reply by hand.',
    pendingNote:
      'This contact is not whitelisted: the agent does not answer while whitelist mode is on.',
    deleteOf: (name: string) => `Delete the conversation with ${name}`,
    deleteQuestion: 'Are you sure you want to delete this conversation?',
    deleteConfirm: 'Delete',
    cancel: 'Cancel',
    messageTo: (name: string) => `Message to ${name}`,
    send: 'Send',
    back: 'Back to conversations',
    reconnectingLive: 'Live updates interrupted: reconnecting…',
    whitelist: 'Whitelist',
    assignAgent: 'Assign Agent',
    assign: 'Assign',
    agentOf: (agent: string) => `Agent: ${agent}`,
    agentReply: (agent: string) => `${agent} (AI)`,
    unanswered: 'Not answered (it arrived while WhatsApp was disconnected)',
    tabs: 'Active Conversations',
    status: { active: 'Active', blocked: 'Blocked', pending: 'Pending', unknown: 'No status' },
    whitelistMode: 'Whitelist mode',
    stateWords: {
      connecting: 'Connecting…',
      reconnecting: 'Reconnecting…',
      failed: 'Cannot reach WhatsApp',
    },
  },
} as const;

const LANGUAGES = Object.keys(TEXTS) as (keyof typeof TEXTS)[];

function statusFixture(overrides: Partial<WhatsAppStatus> = {}): WhatsAppStatus {
  return {
    isReady: true,
    qrCode: null,
    conversationsCount: 0,
    aiEnabledCount: 0,
    whitelistMode: false,
    whitelistedCount: 0,
    agentAssignedCount: 0,
    state: 'ready',
    phone: '5511988887777',
    defaultAgentId: null,
    lastCloseReason: null,
    pairingCode: null,
    mediaMaxBytes: 16 * 1024 * 1024,
    ...overrides,
  };
}

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

function conversationFixture(
  n: number,
  overrides: Partial<WhatsAppConversation> = {},
): WhatsAppConversation {
  return {
    id: id(n),
    contact_name: `Contact ${n}`,
    contact_number: `55119000000${String(n).padStart(2, '0')}`,
    updated_at: new Date(Date.UTC(2026, 0, 1, 12, 0) - n * 60_000).toISOString(),
    last_message: { text: `Last words of ${n}` },
    unread_count: 0,
    ai_enabled: false,
    is_whitelisted: false,
    status: 'active',
    agent_id: null,
    agent_display_name: null,
    dropped_count: 0,
    blocked_reason: overrides.status === 'blocked' ? 'flood' : null,
    blocked_until: null,
    paused_until: null,
    needs_human: false,
    ...overrides,
  };
}

/** Contact 1 active, Contact 2 blocked, Contact 3 pending. */
const oneOfEachStatus = () =>
  (['active', 'blocked', 'pending'] as const).map((status, i) =>
    conversationFixture(i + 1, { status }),
  );

function messageFixture(overrides: Partial<WhatsAppMessage> = {}): WhatsAppMessage {
  return {
    id: `m-${Math.random().toString(36).slice(2)}`,
    sender: 'contact',
    text: 'Hello',
    timestamp: '2026-01-01T12:00:00.000Z',
    ...overrides,
  };
}

const AGENTS: WhatsAppAgent[] = [
  {
    id: '0f1e8d6a-3b1c-4c52-8b0e-1a2b3c4d5e02',
    name: 'assistente',
    displayName: 'Assistente',
    description: 'General help.',
    own: false,
  },
  {
    id: '0f1e8d6a-3b1c-4c52-8b0e-1a2b3c4d5e03',
    name: 'auxtrat',
    displayName: 'Auxtrat',
    description: 'Products and services.',
    own: false,
  },
];

/**
 * The page in `language`, with a stand-in API holding `conversations` (and their messages) and
 * the connection `status`; returns once the page has joined the live room.
 */
async function openPage({
  language = 'en-US',
  enhanced = false,
  status = statusFixture(),
  conversations = [conversationFixture(1), conversationFixture(2)],
  agents = AGENTS,
  beforeRender,
}: {
  language?: Language;
  enhanced?: boolean;
  status?: WhatsAppStatus;
  conversations?: WhatsAppConversation[];
  /** The agents that may answer the contacts. */
  agents?: WhatsAppAgent[];
  /** Changes the stand-in API before the page's first reads (e.g. holds one). */
  beforeRender?: (server: FakeServer) => void;
} = {}) {
  const server = startFakeServer();
  window.localStorage.setItem('token', TOKEN);
  const realtime = await startFakeRealtime({ token: TOKEN });
  const state = {
    status: { ...status, conversationsCount: conversations.length },
    conversations: [...conversations],
    messages: new Map<string, WhatsAppMessage[]>(
      conversations.map((c) => [
        c.id,
        [messageFixture({ id: `${c.id}-1`, text: c.last_message?.text ?? '' })],
      ]),
    ),
  };
  const find = (url: string) => {
    const conversationId = url.split('?')[0]!.split('/')[4] ?? '';
    return state.conversations.find((c) => c.id === conversationId);
  };
  const change = (url: string, patch: Partial<WhatsAppConversation>) => {
    const found = find(url);
    if (!found) return errorResponse(404, { message: 'Conversation not found' });
    Object.assign(found, patch);
    return { success: true as const, data: { ...found } };
  };
  // As the server counts them: every conversation, loaded by the page or not.
  server.on('GET /api/whatsapp/status', () => ({
    success: true,
    data: { ...state.status, conversationsCount: state.conversations.length },
  }));
  server.on('GET /api/whatsapp/conversations', (request) =>
    conversationsPage(state.conversations, request.url),
  );
  server.on('GET /api/whatsapp/conversations/:id', (request) => {
    const found = find(request.url);
    if (!found) return errorResponse(404, { message: 'Conversation not found' });
    found.unread_count = 0;
    return conversationPage(found, state.messages.get(found.id) ?? [], request.url);
  });
  server.on('POST /api/whatsapp/conversations/:id/ai', (request) =>
    change(request.url, { ai_enabled: request.body.enabled }),
  );
  server.on('POST /api/whatsapp/conversations/:id/whitelist', (request) =>
    change(request.url, { is_whitelisted: request.body.isWhitelisted }),
  );
  server.on('POST /api/whatsapp/conversations/:id/assign-agent', (request) =>
    change(request.url, {
      agent_id: request.body.agentId,
      agent_display_name: AGENTS.find((a) => a.id === request.body.agentId)?.displayName ?? null,
    }),
  );
  server.on('DELETE /api/whatsapp/conversations/:id', (request) => {
    const found = find(request.url);
    if (!found) return errorResponse(404, { message: 'Conversation not found' });
    state.conversations = state.conversations.filter((c) => c !== found);
    return { success: true, data: null };
  });
  server.on('POST /api/whatsapp/conversations/:id/messages', (request) => {
    const found = find(request.url);
    if (!found) return errorResponse(404, { message: 'Conversation not found' });
    const message = messageFixture({
      sender: 'user',
      text: request.body.text,
      timestamp: new Date().toISOString(),
    });
    state.messages.get(found.id)?.push(message);
    return { success: true, data: message };
  });
  server.on('POST /api/whatsapp/conversations/:id/block', (request) =>
    change(
      request.url,
      request.body.blocked
        ? { status: 'blocked', blocked_reason: 'owner', blocked_until: null }
        : { status: 'active', blocked_reason: null, blocked_until: null },
    ),
  );
  server.on('GET /api/whatsapp/agents/available', () => ({ success: true, data: agents }));
  server.on('POST /api/whatsapp/settings', (request) => {
    Object.assign(state.status, request.body);
    return { success: true, data: { ...state.status } };
  });
  beforeRender?.(server);

  const view = await renderWithProviders(
    <RealtimeContext.Provider value={realtime.client}>
      <WhatsAppPage enhanced={enhanced} />
    </RealtimeContext.Provider>,
    { language, route: enhanced ? '/whatsapp-enhanced' : '/whatsapp', texts: ['whatsapp'] },
  );
  await waitFor(() => expect(realtime.joins).toBe(1));
  if (!beforeRender) {
    // The first reads, and the reading again once the page joined the live room.
    await waitFor(() => expect(view.queryClient.isFetching()).toBe(0));
    if (conversations.length > 0) await screen.findAllByRole('listitem');
  }
  return { server, realtime, state, ...view };
}

const list = () => screen.getByRole('region', { name: /^(Conversations|Conversas)$/ });
const item = (name: string) => within(list()).getByRole('listitem', { name });
/** The conversation's own button (named by the contact, then number, last message and time). */
const openButton = (name: string) =>
  within(item(name)).getByRole('button', { name: new RegExp(`^${name} `) });

describe.each(LANGUAGES)('the WhatsApp page in %s', (language) => {
  const text = TEXTS[language];

  it('connects: Connect opens the QR modal, which shows each new code and closes once the phone is linked', async () => {
    const { server, realtime, state, user } = await openPage({
      language,
      status: statusFixture({ state: 'disconnected', isReady: false, phone: null }),
      conversations: [],
    });
    server.on('POST /api/whatsapp/connect', () => {
      state.status = { ...state.status, state: 'connecting' };
      return { success: true, data: { ...state.status } };
    });
    const connection = screen.getByRole('region', {
      name: language === 'en-US' ? 'Connection' : 'Conexão',
    });
    expect(within(connection).getByRole('status')).toHaveTextContent(text.disconnected);

    await user.click(within(connection).getByRole('button', { name: text.connect }));
    const dialog = await screen.findByRole('dialog', { name: text.qrTitle });
    expect(server.calls()).toContain('POST /api/whatsapp/connect');
    expect(within(dialog).getByText(text.waiting)).toBeVisible();

    // The server's events, as its transport produces codes (and the status says the same).
    state.status = { ...state.status, state: 'qr', qrCode: QR_1 };
    realtime.emit('whatsapp:qr', { qrCode: QR_1 });
    expect(await within(dialog).findByRole('img', { name: text.qrAlt })).toHaveAttribute(
      'src',
      QR_1,
    );
    expect(within(connection).getAllByRole('status')[0]).toHaveTextContent(text.scan);

    state.status = { ...state.status, qrCode: QR_2 };
    realtime.emit('whatsapp:qr', { qrCode: QR_2 });
    await waitFor(() =>
      expect(within(dialog).getByRole('img', { name: text.qrAlt })).toHaveAttribute('src', QR_2),
    );

    state.status = {
      ...state.status,
      state: 'ready',
      isReady: true,
      qrCode: null,
      phone: '5511988887777',
    };
    realtime.emit('whatsapp:ready', { phone: '5511988887777' });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(within(connection).getAllByRole('status')[0]).toHaveTextContent(text.connectedAs);
    expect(within(connection).getByRole('button', { name: text.disconnect })).toBeVisible();
  });

  it('gives focus to Disconnect when the QR modal opened with Show QR code closes on linking', async () => {
    const { realtime, state, user } = await openPage({
      language,
      status: statusFixture({ state: 'qr', isReady: false, qrCode: QR_1, phone: null }),
      conversations: [],
    });
    await user.click(screen.getByRole('button', { name: text.showQr }));
    const dialog = await screen.findByRole('dialog', { name: text.qrTitle });
    expect(within(dialog).getByRole('img', { name: text.qrAlt })).toBeVisible();
    state.status = { ...state.status, state: 'ready', isReady: true, qrCode: null };
    realtime.emit('whatsapp:ready', { phone: '5511988887777' });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(screen.queryByRole('button', { name: text.showQr })).not.toBeInTheDocument();
    await waitFor(() =>
      expect(screen.getByRole('button', { name: text.disconnect })).toHaveFocus(),
    );
  });

  it('gives focus back to Show QR code when the modal it opened is closed', async () => {
    const { user } = await openPage({
      language,
      status: statusFixture({ state: 'qr', isReady: false, qrCode: QR_1, phone: null }),
      conversations: [],
    });
    await user.click(screen.getByRole('button', { name: text.showQr }));
    const dialog = await screen.findByRole('dialog', { name: text.qrTitle });
    await user.click(within(dialog).getByRole('button', { name: text.qrClose }));
    await waitFor(() => expect(screen.getByRole('button', { name: text.showQr })).toHaveFocus());
  });

  it('lists the conversations with their count, and switches AI replies per conversation', async () => {
    const { server, user } = await openPage({
      language,
      status: statusFixture({ defaultAgentId: AGENTS[0]!.id }),
    });
    expect(list()).toHaveTextContent(text.count(2));
    expect(
      within(list())
        .getAllByRole('listitem')
        .map((li) => li.getAttribute('aria-label')),
    ).toEqual(['Contact 1', 'Contact 2']);

    await user.click(openButton('Contact 1'));
    const chat = await screen.findByRole('region', { name: 'Contact 1' });
    expect(chat).toHaveTextContent(text.manual);

    const toggle = within(item('Contact 1')).getByRole('button', { name: text.aiOff });
    expect(toggle).toHaveAttribute('aria-pressed', 'false');
    await user.click(toggle);
    const on = await within(item('Contact 1')).findByRole('button', { name: text.aiOn });
    expect(on).toHaveAttribute('aria-pressed', 'true');
    expect(chat).toHaveTextContent(text.aiActive);
    expect(server.requests.find((r) => r.url.endsWith('/ai'))).toMatchObject({
      method: 'POST',
      url: `/api/whatsapp/conversations/${id(1)}/ai`,
      body: { enabled: true },
    });
    // The other conversation is untouched.
    expect(within(item('Contact 2')).getByRole('button', { name: text.aiOff })).toBeVisible();
  });

  it('with AI on but no agent to answer (none of its own, no default), says the AI waits', async () => {
    const { user } = await openPage({
      language,
      conversations: [conversationFixture(1, { ai_enabled: true })],
    });
    await user.click(openButton('Contact 1'));
    const chat = await screen.findByRole('region', { name: 'Contact 1' });
    expect(chat).toHaveTextContent(text.aiOnHold);
    expect(chat).not.toHaveTextContent(text.aiActive);
  });

  it('deletes a conversation only after the confirmation', async () => {
    emulateDialogCloseRequests();
    const { server, user } = await openPage({ language });
    await user.click(
      within(item('Contact 2')).getByRole('button', { name: text.deleteOf('Contact 2') }),
    );
    let dialog = await screen.findByRole('dialog');
    expect(dialog).toHaveTextContent(text.deleteQuestion);
    await user.click(within(dialog).getByRole('button', { name: text.cancel }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    // Escape leaves it too.
    await user.click(
      within(item('Contact 2')).getByRole('button', { name: text.deleteOf('Contact 2') }),
    );
    await screen.findByRole('dialog');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(server.calls().filter((call) => call.startsWith('DELETE'))).toEqual([]);

    await user.click(
      within(item('Contact 2')).getByRole('button', { name: text.deleteOf('Contact 2') }),
    );
    dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: text.deleteConfirm }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(server.calls()).toContain(`DELETE /api/whatsapp/conversations/${id(2)}`);
    expect(within(list()).getAllByRole('listitem')).toHaveLength(1);
    expect(list()).toHaveTextContent(text.count(1));
  });

  it('after a deletion confirmed from the keyboard, focus goes to the next conversation, else the previous, else the heading', async () => {
    const { user } = await openPage({
      language,
      conversations: [conversationFixture(1), conversationFixture(2), conversationFixture(3)],
    });
    const deleteByKeyboard = async (name: string) => {
      within(item(name))
        .getByRole('button', { name: text.deleteOf(name) })
        .focus();
      await user.keyboard('{Enter}');
      const dialog = await screen.findByRole('dialog');
      within(dialog).getByRole('button', { name: text.deleteConfirm }).focus();
      await user.keyboard('{Enter}');
      await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
      await waitFor(() => expect(within(list()).queryByRole('listitem', { name })).toBeNull());
    };
    await deleteByKeyboard('Contact 1');
    await waitFor(() => expect(openButton('Contact 2')).toHaveFocus());
    await deleteByKeyboard('Contact 3');
    await waitFor(() => expect(openButton('Contact 2')).toHaveFocus());
    await deleteByKeyboard('Contact 2');
    await waitFor(() => expect(within(list()).getByRole('heading', { level: 2 })).toHaveFocus());
  });

  it('sends a manual message; a failed send puts the typed text back with the reason', async () => {
    const { server, user } = await openPage({ language });
    await user.click(openButton('Contact 1'));
    const chat = await screen.findByRole('region', { name: 'Contact 1' });
    await within(chat).findByText('Last words of 1');
    const box = within(chat).getByRole('textbox', { name: text.messageTo('Contact 1') });

    await user.type(box, 'Bom dia!{Enter}');
    expect(await within(chat).findByText('Bom dia!')).toBeVisible();
    expect(box).toHaveValue('');
    expect(server.requests.at(-1)).toMatchObject({
      method: 'POST',
      url: `/api/whatsapp/conversations/${id(1)}/messages`,
      body: { text: 'Bom dia!' },
    });
    // The list shows it as the last message.
    expect(item('Contact 1')).toHaveTextContent('Bom dia!');

    server.on('POST /api/whatsapp/conversations/:id/messages', () =>
      errorResponse(409, { message: 'WhatsApp is not connected.' }),
    );
    await user.type(box, 'Are you there?');
    await user.click(within(chat).getByRole('button', { name: text.send }));
    expect(await within(chat).findByRole('alert')).toHaveTextContent('WhatsApp is not connected.');
    expect(box).toHaveValue('Are you there?');
    expect(within(chat).queryByText('Are you there?', { selector: 'p' })).not.toBeInTheDocument();
  });

  it('shows a new message from the socket in the list and in the open conversation, and a new contact at the top', async () => {
    const { realtime, user } = await openPage({ language });
    await user.click(openButton('Contact 2'));
    const chat = await screen.findByRole('region', { name: 'Contact 2' });
    await within(chat).findByText('Last words of 2');

    const at = '2026-01-01T13:00:00.000Z';
    realtime.emit('whatsapp:new_message', {
      conversation: conversationFixture(2, {
        updated_at: at,
        last_message: { text: 'Still open?' },
        unread_count: 1,
      }),
      message: messageFixture({ id: 'live-1', text: 'Still open?', timestamp: at }),
    });
    expect(await within(chat).findByText('Still open?')).toBeVisible();
    // Newest first: Contact 2 moved up.
    await waitFor(() =>
      expect(
        within(list())
          .getAllByRole('listitem')
          .map((li) => li.getAttribute('aria-label')),
      ).toEqual(['Contact 2', 'Contact 1']),
    );
    expect(item('Contact 2')).toHaveTextContent('Still open?');

    const later = '2026-01-01T14:00:00.000Z';
    realtime.emit('whatsapp:new_message', {
      conversation: conversationFixture(3, {
        contact_name: 'Bia',
        updated_at: later,
        last_message: { text: 'Oi!' },
        unread_count: 1,
      }),
      message: messageFixture({ id: 'live-2', text: 'Oi!', timestamp: later }),
    });
    await waitFor(() => expect(list()).toHaveTextContent(text.count(3)));
    expect(within(list()).getAllByRole('listitem')[0]).toHaveAccessibleName('Bia');
    // The open conversation is still Contact 2's, with nothing of Bia's in it.
    expect(chat).not.toHaveTextContent('Oi!');
  });

  it('counts no conversations in the plural ("0 conversas", as Portuguese says it)', async () => {
    await openPage({ language, conversations: [] });
    expect(list()).toHaveTextContent(text.count(0));
  });

  it("names an agent's live reply by the agent's display name, not its internal name", async () => {
    const { realtime, user } = await openPage({ language });
    await user.click(openButton('Contact 2'));
    const chat = await screen.findByRole('region', { name: 'Contact 2' });
    await within(chat).findByText('Last words of 2');
    realtime.emit('whatsapp:message_sent', {
      conversationId: id(2),
      message: messageFixture({
        id: 'reply-1',
        sender: 'user',
        text: 'We open at 9.',
        agentName: 'auxtrat',
      }),
    });
    const reply = (await within(chat).findByText('We open at 9.')).closest('li')!;
    expect(reply).toHaveTextContent(text.agentReply('Auxtrat'));
    expect(reply).not.toHaveTextContent('auxtrat');
  });

  it('marks a message that waited too long for the number as not answered, and only that one', async () => {
    const { realtime, user } = await openPage({ language });
    await user.click(openButton('Contact 2'));
    const chat = await screen.findByRole('region', { name: 'Contact 2' });
    await within(chat).findByText('Last words of 2');
    const at = '2026-01-01T13:00:00.000Z';
    realtime.emit('whatsapp:new_message', {
      conversation: conversationFixture(2, {
        updated_at: at,
        last_message: { text: 'Do you deliver?' },
        unread_count: 1,
      }),
      message: messageFixture({
        id: 'late-1',
        text: 'Do you deliver?',
        timestamp: at,
        unanswered: true,
      }),
    });
    const late = (await within(chat).findByText('Do you deliver?')).closest('li')!;
    expect(late).toHaveTextContent(text.unanswered);
    const earlier = within(chat).getByText('Last words of 2').closest('li')!;
    expect(earlier).not.toHaveTextContent(text.unanswered);
  });

  it('opens a conversation from the keyboard, and Back returns focus to it in the list', async () => {
    const { user } = await openPage({ language });
    openButton('Contact 2').focus();
    await user.keyboard('{Enter}');
    const chat = await screen.findByRole('region', { name: 'Contact 2' });
    await user.click(within(chat).getByRole('button', { name: text.back }));
    expect(screen.queryByRole('region', { name: 'Contact 2' })).not.toBeInTheDocument();
    expect(openButton('Contact 2')).toHaveFocus();
  });

  it('follows the AI switch made elsewhere (whatsapp:ai_toggled)', async () => {
    const { realtime } = await openPage({ language });
    realtime.emit('whatsapp:ai_toggled', { conversationId: id(2), enabled: true });
    expect(await within(item('Contact 2')).findByRole('button', { name: text.aiOn })).toBeVisible();
  });

  it('follows a whitelist, an agent, whitelist mode and a deletion made elsewhere', async () => {
    const { realtime, state } = await openPage({ language, enhanced: true });
    const toggle = within(item('Contact 1')).getByRole('button', { name: text.whitelist });
    expect(toggle).toHaveAttribute('aria-pressed', 'false');
    // Another tab changed them: the server has them, and says so.
    Object.assign(state.conversations[0]!, { is_whitelisted: true });
    realtime.emit('whatsapp:conversation_changed', { conversationId: id(1) });
    await waitFor(() => expect(toggle).toHaveAttribute('aria-pressed', 'true'));

    const mode = screen.getByRole('switch', { name: text.whitelistMode });
    state.status.whitelistMode = true;
    realtime.emit('whatsapp:settings_changed', { whitelistMode: true });
    await waitFor(() => expect(mode).toBeChecked());

    state.conversations = state.conversations.filter((c) => c.id !== id(2));
    realtime.emit('whatsapp:conversation_deleted', { conversationId: id(2) });
    await waitFor(() =>
      expect(within(list()).queryByRole('listitem', { name: 'Contact 2' })).not.toBeInTheDocument(),
    );
    expect(within(list()).getAllByRole('listitem')).toHaveLength(1);
  });

  it('reconnects after the server restarts, saying so meanwhile, and reads the page again', async () => {
    const { realtime, server } = await openPage({ language });
    const reads = () =>
      server.calls().filter((call) => call === 'GET /api/whatsapp/conversations').length;
    const before = reads();
    const restarted = realtime.restart();
    expect(await screen.findByText(text.reconnectingLive)).toBeVisible();
    await restarted;
    await waitFor(() => expect(realtime.joins).toBe(2));
    await waitFor(() => expect(screen.queryByText(text.reconnectingLive)).not.toBeInTheDocument());
    await waitFor(() => expect(reads()).toBe(before + 1));
  });

  it('while live updates are down, the indicator says the state is unknown, not connected', async () => {
    const { realtime } = await openPage({ language });
    const connection = screen.getByRole('region', { name: text.connection });
    const indicator = () => within(connection).getAllByRole('status')[0]!;
    expect(indicator()).toHaveTextContent(text.connectedAs);
    const restarted = realtime.restart();
    await waitFor(() => expect(indicator()).toHaveTextContent(text.unknownState));
    expect(connection).not.toHaveTextContent(text.connectedAs);
    expect(indicator().querySelector('.wa-dot')).toHaveClass('wa-dot--unknown');
    expect(indicator().querySelector('.wa-dot')).not.toHaveClass('wa-dot--ready');
    await restarted;
    await waitFor(() => expect(indicator()).toHaveTextContent(text.connectedAs));
    expect(indicator().querySelector('.wa-dot')).toHaveClass('wa-dot--ready');
  });

  it("shows WhatsApp's refusal and a disconnection as they are announced", async () => {
    const { realtime, server, state } = await openPage({
      language,
      status: statusFixture({ state: 'qr', isReady: false, qrCode: QR_1, phone: null }),
      conversations: [],
    });
    const connection = screen.getByRole('region', {
      name: language === 'en-US' ? 'Connection' : 'Conexão',
    });
    // Said in the page's language, whatever words the event carries.
    realtime.emit('whatsapp:auth_failure', { message: 'Session refused by WhatsApp.' });
    expect(await within(connection).findByText(text.authFailed)).toBeVisible();
    expect(within(connection).queryByText('Session refused by WhatsApp.')).not.toBeInTheDocument();
    realtime.emit('whatsapp:auth_failure', { message: 'banned' });
    expect(await within(connection).findByText(text.banned)).toBeVisible();
    expect(within(connection).getByText(text.stateWords.failed)).toBeVisible();
    expect(within(connection).getByRole('button', { name: text.connect })).toBeVisible();

    state.status = statusFixture({
      state: 'disconnected',
      isReady: false,
      phone: null,
      lastCloseReason: 'failed',
    });
    realtime.emit('whatsapp:ready', { phone: '5511988887777' });
    await within(connection).findByText(text.connectedAs);
    const statusReads = () =>
      server.calls().filter((call) => call === 'GET /api/whatsapp/status').length;
    const before = statusReads();
    realtime.emit('whatsapp:disconnected', { reason: 'logged out' });
    expect(await within(connection).findByText(text.disconnected)).toBeVisible();
    expect(within(connection).getByRole('button', { name: text.connect })).toBeVisible();
    // The server's word on the state is read again.
    await waitFor(() => expect(statusReads()).toBe(before + 1));
  });

  it('says why the number was disconnected when the phone logged out', async () => {
    const { realtime, state } = await openPage({ language, conversations: [] });
    const connection = screen.getByRole('region', { name: text.connection });
    state.status = statusFixture({
      state: 'disconnected',
      isReady: false,
      phone: null,
      lastCloseReason: 'logged-out',
    });
    realtime.emit('whatsapp:disconnected', { reason: 'logged-out' });
    expect(await within(connection).findByText(text.loggedOut)).toBeVisible();
    expect(within(connection).getByText(text.disconnected)).toBeVisible();
    // A new code ends the explanation.
    state.status = statusFixture({ state: 'qr', isReady: false, qrCode: QR_1, phone: null });
    realtime.emit('whatsapp:qr', { qrCode: QR_1 });
    await waitFor(() => expect(within(connection).queryByText(text.loggedOut)).toBeNull());
  });

  it('when the codes run out, the modal closes saying why, and focus stays on Connect', async () => {
    const { realtime, server, state, user } = await openPage({
      language,
      status: statusFixture({ state: 'disconnected', isReady: false, phone: null }),
      conversations: [],
    });
    server.on('POST /api/whatsapp/connect', () => {
      state.status = { ...state.status, state: 'qr', qrCode: QR_1 };
      return { success: true, data: { ...state.status } };
    });
    const connection = screen.getByRole('region', { name: text.connection });
    await user.click(within(connection).getByRole('button', { name: text.connect }));
    const dialog = await screen.findByRole('dialog', { name: text.qrTitle });
    await within(dialog).findByRole('img', { name: text.qrAlt });
    state.status = statusFixture({
      state: 'disconnected',
      isReady: false,
      phone: null,
      lastCloseReason: 'qr-limit',
    });
    realtime.emit('whatsapp:disconnected', { reason: 'qr-limit' });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(within(connection).getByRole('alert')).toHaveTextContent(text.qrLimit);
    await waitFor(() =>
      expect(within(connection).getByRole('button', { name: text.connect })).toHaveFocus(),
    );
  });

  it('says nothing more after its own Disconnect', async () => {
    const { realtime, state } = await openPage({ language, conversations: [] });
    const connection = screen.getByRole('region', { name: text.connection });
    state.status = statusFixture({
      state: 'disconnected',
      isReady: false,
      phone: null,
      lastCloseReason: 'requested',
    });
    realtime.emit('whatsapp:disconnected', { reason: 'requested' });
    expect(await within(connection).findByText(text.disconnected)).toBeVisible();
    expect(within(connection).getByRole('alert')).toBeEmptyDOMElement();
  });

  it.each([
    ['disconnected', 'logged-out', 'loggedOut'],
    ['disconnected', 'qr-limit', 'qrLimit'],
    ['failed', 'replaced', 'replaced'],
    ['failed', 'failed', 'other'],
    ['failed', 'banned', 'banned'],
  ] as const)(
    'opened after the number was %s (%s), says why, as the server kept it',
    async (state, lastCloseReason, said) => {
      await openPage({
        language,
        status: statusFixture({ state, isReady: false, phone: null, lastCloseReason }),
        conversations: [],
      });
      const connection = screen.getByRole('region', { name: text.connection });
      expect(within(connection).getByRole('alert')).toHaveTextContent(text.ended[said]);
      expect(within(connection).getByRole('button', { name: text.connect })).toBeVisible();
    },
  );

  it('opened after its own Disconnect, says nothing more', async () => {
    await openPage({
      language,
      status: statusFixture({
        state: 'disconnected',
        isReady: false,
        phone: null,
        lastCloseReason: 'requested',
      }),
      conversations: [],
    });
    const connection = screen.getByRole('region', { name: text.connection });
    expect(within(connection).getByText(text.disconnected)).toBeVisible();
    expect(within(connection).getByRole('alert')).toBeEmptyDOMElement();
  });

  it.each(['connecting', 'reconnecting', 'failed'] as const)(
    'says the WhatsApp state %s in words',
    async (state) => {
      await openPage({
        language,
        status: statusFixture({ state, isReady: false }),
        conversations: [],
      });
      expect(screen.getByText(text.stateWords[state])).toBeVisible();
    },
  );
});

describe.each(LANGUAGES)('the enhanced WhatsApp page in %s', (language) => {
  const text = TEXTS[language];

  it('marks each conversation with its status icon and colour', async () => {
    await openPage({
      language,
      enhanced: true,
      conversations: oneOfEachStatus(),
    });
    const icon = (name: string) => within(item(name)).getByRole('img');
    expect(icon('Contact 1')).toHaveAccessibleName(text.status.active);
    expect(icon('Contact 1')).toHaveClass('wa-status--active');
    expect(icon('Contact 2')).toHaveAccessibleName(text.status.blocked);
    expect(icon('Contact 2')).toHaveClass('wa-status--blocked');
    expect(icon('Contact 3')).toHaveAccessibleName(text.status.pending);
    expect(icon('Contact 3')).toHaveClass('wa-status--pending');
  });

  it('says in the open conversation why the agent does not answer a blocked or pending contact', async () => {
    // On this page the status icon's name comes first in the button that opens a conversation.
    const opener = (name: string) => within(item(name)).getAllByRole('button')[0]!;
    const { user } = await openPage({
      language,
      enhanced: true,
      conversations: oneOfEachStatus(),
    });
    await user.click(opener('Contact 2'));
    const blocked = await screen.findByRole('region', { name: 'Contact 2' });
    expect(within(blocked).getByRole('status')).toHaveTextContent(text.blockedNote);
    await user.click(opener('Contact 3'));
    const pending = await screen.findByRole('region', { name: 'Contact 3' });
    expect(within(pending).getByRole('status')).toHaveTextContent(text.pendingNote);
    await user.click(opener('Contact 1'));
    const active = await screen.findByRole('region', { name: 'Contact 1' });
    expect(within(active).queryByRole('status')).not.toBeInTheDocument();
  });

  it('shows any other status grey (the contract has three today; a newer server may send more)', async () => {
    await renderWithProviders(<StatusIcon status="archived" />, { language, texts: ['whatsapp'] });
    const icon = screen.getByRole('img', { name: text.status.unknown });
    expect(icon).toHaveClass('wa-status--unknown');
  });

  it('whitelists a contact, and switches whitelist mode', async () => {
    const { server, user } = await openPage({ language, enhanced: true });
    const toggle = within(item('Contact 1')).getByRole('button', { name: text.whitelist });
    expect(toggle).toHaveAttribute('aria-pressed', 'false');
    await user.click(toggle);
    await waitFor(() => expect(toggle).toHaveAttribute('aria-pressed', 'true'));
    expect(server.requests.find((r) => r.url.endsWith('/whitelist'))).toMatchObject({
      url: `/api/whatsapp/conversations/${id(1)}/whitelist`,
      body: { isWhitelisted: true },
    });

    const mode = screen.getByRole('switch', { name: text.whitelistMode });
    expect(mode).not.toBeChecked();
    await user.click(mode);
    await waitFor(() => expect(mode).toBeChecked());
    expect(server.requests.find((r) => r.url === '/api/whatsapp/settings')?.body).toEqual({
      whitelistMode: true,
    });
  });

  it('assigns an agent in the Assign Agent modal; Cancel changes nothing', async () => {
    const { server, user } = await openPage({ language, enhanced: true });
    await user.click(within(item('Contact 1')).getByRole('button', { name: text.assignAgent }));
    let dialog = await screen.findByRole('dialog', { name: text.assignAgent });
    await within(dialog).findByRole('radio', { name: /Auxtrat/ });
    await user.click(within(dialog).getByRole('radio', { name: /Auxtrat/ }));
    await user.click(within(dialog).getByRole('button', { name: text.cancel }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(server.calls().filter((call) => call.endsWith('/assign-agent'))).toEqual([]);

    await user.click(within(item('Contact 1')).getByRole('button', { name: text.assignAgent }));
    dialog = await screen.findByRole('dialog', { name: text.assignAgent });
    expect(
      within(dialog)
        .getAllByRole('radio')
        .map((radio) => radio.parentElement?.textContent),
    ).toEqual([expect.any(String), 'AssistenteGeneral help.', 'AuxtratProducts and services.']);
    await user.click(within(dialog).getByRole('radio', { name: /Auxtrat/ }));
    await user.click(within(dialog).getByRole('button', { name: text.assign }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(server.requests.find((r) => r.url.endsWith('/assign-agent'))?.body).toEqual({
      agentId: AGENTS[1]!.id,
    });
    expect(
      within(item('Contact 1')).getByRole('button', { name: text.agentOf('Auxtrat') }),
    ).toBeVisible();
  });

  it('shows the first 10 conversations as Active Conversations tabs, which open them (arrows too)', async () => {
    const conversations = Array.from({ length: 12 }, (_, i) => conversationFixture(i + 1));
    const { user } = await openPage({ language, enhanced: true, conversations });
    const tablist = screen.getByRole('tablist', { name: text.tabs });
    const tabs = within(tablist).getAllByRole('tab');
    expect(tabs.map((tab) => tab.textContent)).toEqual(
      Array.from({ length: 10 }, (_, i) => `Contact ${i + 1}`),
    );
    expect(list()).toHaveTextContent(text.count(12));

    await user.click(tabs[2]!);
    expect(await screen.findByRole('region', { name: 'Contact 3' })).toBeVisible();
    expect(tabs[2]).toHaveAttribute('aria-selected', 'true');
    await user.keyboard('{ArrowRight}');
    expect(await screen.findByRole('region', { name: 'Contact 4' })).toBeVisible();
    expect(within(tablist).getByRole('tab', { selected: true })).toHaveFocus();
  });
});

describe('the enhanced WhatsApp page after a language switch', () => {
  it('reads its data again, so the agent names the server words follow the new language', async () => {
    // As the server does: display names in the request's language (Accept-Language).
    const ASSISTANT: Record<Language, string> = {
      'pt-BR': 'Assistente',
      'en-US': 'Assistant',
      'es-ES': 'Asistente',
    };
    const inLanguage = (headers: Headers) =>
      ASSISTANT[(headers.get('Accept-Language') ?? 'pt-BR') as Language];
    const assigned = { agent_id: AGENTS[0]!.id, agent_display_name: ASSISTANT['en-US'] };
    const { server, state, user } = await openPage({
      language: 'en-US',
      enhanced: true,
      conversations: [conversationFixture(1, assigned)],
    });
    state.messages
      .get(id(1))
      ?.push(messageFixture({ id: 'reply', sender: 'user', text: 'Hi!', agentName: 'assistente' }));
    server.on('GET /api/whatsapp/conversations', (request) => ({
      success: true,
      data: state.conversations.map((c) => ({
        ...c,
        agent_display_name: inLanguage(request.headers),
      })),
      nextCursor: null,
    }));
    server.on('GET /api/whatsapp/agents/available', (request) => ({
      success: true,
      data: AGENTS.map((a) =>
        a.name === 'assistente' ? { ...a, displayName: inLanguage(request.headers) } : a,
      ),
    }));
    await user.click(within(item('Contact 1')).getAllByRole('button')[0]!);
    const chat = await screen.findByRole('region', { name: 'Contact 1' });
    const reply = (await within(chat).findByText('Hi!')).closest('li')!;
    await waitFor(() => expect(reply).toHaveTextContent(TEXTS['en-US'].agentReply('Assistant')));
    expect(
      within(item('Contact 1')).getByRole('button', { name: TEXTS['en-US'].agentOf('Assistant') }),
    ).toBeVisible();

    await act(() => setLanguage('pt-BR'));
    expect(
      await within(item('Contact 1')).findByRole('button', {
        name: TEXTS['pt-BR'].agentOf('Assistente'),
      }),
    ).toBeVisible();
    await waitFor(() => expect(reply).toHaveTextContent(TEXTS['pt-BR'].agentReply('Assistente')));
  });
});

// The server sends an event once its change is stored, so a read the page sent before the event
// may come back without the change: such an answer must not undo what the event showed.
describe('the WhatsApp page when live events cross its reads', () => {
  const LIST = 'GET /api/whatsapp/conversations';
  const count = (server: FakeServer, call: string) =>
    server.calls().filter((made) => made === call).length;
  const snapshot = (conversations: WhatsAppConversation[]) => ({
    success: true as const,
    data: conversations.map((c) => ({ ...c })),
    nextCursor: null,
  });
  const dora = conversationFixture(4, {
    contact_name: 'Dora',
    status: 'pending',
    updated_at: '2026-01-01T13:00:00.000Z',
    last_message: { text: 'Bom dia! Quero um orçamento.' },
    unread_count: 1,
  });
  const doraWrites = {
    conversation: dora,
    message: messageFixture({
      id: 'dora-1',
      text: 'Bom dia! Quero um orçamento.',
      timestamp: dora.updated_at,
    }),
  };

  it('keeps a new contact who writes while whitelist mode is switched, and reads the list again after the answer that missed her', async () => {
    const { server, realtime, state, user, queryClient } = await openPage({
      enhanced: true,
      conversations: [conversationFixture(1)],
    });
    // As whatsapp.service.ts does: the settings saved, the account's browsers told, then answered.
    server.on('POST /api/whatsapp/settings', (request) => {
      Object.assign(state.status, request.body);
      realtime.emit('whatsapp:settings_changed', { whitelistMode: state.status.whitelistMode });
      return { success: true, data: { ...state.status } };
    });
    const reads = server.hold(LIST);
    const before = count(server, LIST);
    const mode = screen.getByRole('switch', { name: TEXTS['en-US'].whitelistMode });
    await user.click(mode);
    await waitFor(() => expect(mode).toBeChecked());
    // The answer and the event each read the list again.
    await waitFor(() => expect(count(server, LIST)).toBe(before + 2));
    const missed = [await reads.next(), await reads.next()];
    const stale = snapshot(state.conversations);

    // Dora writes: her conversation is stored, then announced.
    state.conversations.unshift({ ...dora });
    realtime.emit('whatsapp:new_message', doraWrites);
    const doraItem = await within(list()).findByRole('listitem', { name: 'Dora' });
    expect(within(doraItem).getByRole('img')).toHaveAccessibleName('Pending');

    // The reads the server answered before her message come back without her.
    for (const read of missed) read.respond(stale);
    const again = await reads.next();
    expect(within(list()).getByRole('listitem', { name: 'Dora' })).toBeVisible();
    again.respond(snapshot(state.conversations));
    await waitFor(() =>
      expect(queryClient.isFetching({ queryKey: ['whatsapp', 'conversations'] })).toBe(0),
    );
    expect(
      within(list())
        .getAllByRole('listitem')
        .map((li) => li.getAttribute('aria-label')),
    ).toEqual(['Dora', 'Contact 1']);
    expect(list()).toHaveTextContent(TEXTS['en-US'].count(2));
  });

  it('keeps a message that arrives while the open conversation is read again', async () => {
    const { server, realtime, state, user, queryClient } = await openPage();
    await user.click(openButton('Contact 1'));
    const chat = await screen.findByRole('region', { name: 'Contact 1' });
    await within(chat).findByText('Last words of 1');
    const detail = () => ({
      success: true as const,
      data: { ...state.conversations[0]!, messages: [...(state.messages.get(id(1)) ?? [])] },
      nextCursor: null,
    });
    const reads = server.hold('GET /api/whatsapp/conversations/:id');
    // Changed in another tab: the conversation is read again.
    realtime.emit('whatsapp:conversation_changed', { conversationId: id(1) });
    const missed = await reads.next();
    const stale = detail();

    const at = '2026-01-01T13:00:00.000Z';
    const message = messageFixture({ id: 'live-1', text: 'Still there?', timestamp: at });
    state.messages.get(id(1))!.push(message);
    Object.assign(state.conversations[0]!, {
      updated_at: at,
      last_message: { text: message.text },
    });
    realtime.emit('whatsapp:new_message', {
      conversation: { ...state.conversations[0]! },
      message,
    });
    expect(await within(chat).findByText('Still there?')).toBeVisible();

    missed.respond(stale);
    const again = await reads.next();
    expect(within(chat).getByText('Still there?')).toBeVisible();
    again.respond(detail());
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));
    expect(within(chat).getByText('Still there?')).toBeVisible();
  });

  it('keeps the QR code that arrives while the status is read again after Connect', async () => {
    const { server, realtime, state, user, queryClient } = await openPage({
      status: statusFixture({ state: 'disconnected', isReady: false, phone: null }),
      conversations: [],
    });
    server.on('POST /api/whatsapp/connect', () => {
      state.status = { ...state.status, state: 'connecting' };
      return { success: true, data: { ...state.status } };
    });
    const reads = server.hold('GET /api/whatsapp/status');
    await user.click(screen.getByRole('button', { name: TEXTS['en-US'].connect }));
    const dialog = await screen.findByRole('dialog', { name: TEXTS['en-US'].qrTitle });
    const missed = await reads.next();
    const stale = { success: true as const, data: { ...state.status } };

    state.status = { ...state.status, state: 'qr', qrCode: QR_1 };
    realtime.emit('whatsapp:qr', { qrCode: QR_1 });
    const qr = await within(dialog).findByRole('img', { name: TEXTS['en-US'].qrAlt });
    expect(qr).toHaveAttribute('src', QR_1);

    missed.respond(stale);
    const again = await reads.next();
    expect(within(dialog).getByRole('img', { name: TEXTS['en-US'].qrAlt })).toHaveAttribute(
      'src',
      QR_1,
    );
    again.respond({ success: true, data: { ...state.status } });
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));
    expect(within(dialog).getByRole('img', { name: TEXTS['en-US'].qrAlt })).toHaveAttribute(
      'src',
      QR_1,
    );
  });

  it('reads the list again after joining the live room, and after an event, while its first read is on its way', async () => {
    let reads!: HeldEndpoint<typeof LIST>;
    const { server, realtime, state, queryClient } = await openPage({
      conversations: [conversationFixture(1)],
      beforeRender: (server) => {
        reads = server.hold(LIST);
      },
    });
    // Sent before the page joined the live room: what happened before the join was never told.
    (await reads.next()).respond(snapshot(state.conversations));
    const second = await reads.next();
    const stale = snapshot(state.conversations);
    // Dora writes while the list is still loading.
    const statusReads = count(server, 'GET /api/whatsapp/status');
    state.conversations.unshift({ ...dora, status: 'active' });
    realtime.emit('whatsapp:new_message', {
      ...doraWrites,
      conversation: { ...dora, status: 'active' },
    });
    // The page took the event in: a new contact changes the counts, which it reads again.
    await waitFor(() => expect(count(server, 'GET /api/whatsapp/status')).toBe(statusReads + 1));
    second.respond(stale);
    (await reads.next()).respond(snapshot(state.conversations));
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));
    expect(
      within(list())
        .getAllByRole('listitem')
        .map((li) => li.getAttribute('aria-label')),
    ).toEqual(['Dora', 'Contact 1']);
  });

  it('reads the status and the list again when the settings change, and not the agents', async () => {
    const { server, realtime, state, user, queryClient } = await openPage({ enhanced: true });
    // "Who answers your customers?" and the open conversation name agents: the agents are loaded.
    await user.click(within(item('Contact 1')).getAllByRole('button')[0]!);
    await screen.findByRole('region', { name: 'Contact 1' });
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));
    const AGENTS_CALL = 'GET /api/whatsapp/agents/available';
    const STATUS = 'GET /api/whatsapp/status';
    expect(count(server, AGENTS_CALL)).toBeGreaterThan(0);
    const before = [count(server, LIST), count(server, STATUS), count(server, AGENTS_CALL)];

    state.status.whitelistMode = true;
    for (const conversation of state.conversations) conversation.status = 'pending';
    realtime.emit('whatsapp:settings_changed', { whitelistMode: true });
    await waitFor(() =>
      expect(within(item('Contact 1')).getByRole('img')).toHaveAccessibleName('Pending'),
    );
    expect(screen.getByRole('switch', { name: TEXTS['en-US'].whitelistMode })).toBeChecked();
    await waitFor(() => expect(queryClient.isFetching()).toBe(0));
    expect([count(server, LIST), count(server, STATUS), count(server, AGENTS_CALL)]).toEqual([
      before[0]! + 1,
      before[1]! + 1,
      before[2],
    ]);
  });
});

// "Quem atende seus clientes?": nobody answers until the account chooses; its own agents come first.
describe('who answers the customers', () => {
  const CLINIC: WhatsAppAgent = {
    id: '0f1e8d6a-3b1c-4c52-8b0e-1a2b3c4d5e09',
    name: 'clinica-sorriso',
    displayName: 'Clínica Sorriso',
    description: 'Atendimento da clínica.',
    own: true,
  };
  const picker = () => screen.getByRole('combobox', { name: 'Quem atende seus clientes?' });
  const NOBODY_HINT = /Ninguém responde seus clientes por enquanto/;

  it('says nobody answers until one is chosen, offers the account’s own agents first, and saves the choice', async () => {
    const { server, user } = await openPage({ language: 'pt-BR', agents: [CLINIC, ...AGENTS] });
    await waitFor(() => expect(picker()).toBeEnabled());
    expect(picker()).toHaveValue('');
    expect(screen.getByText(NOBODY_HINT)).toBeInTheDocument();
    expect(
      within(picker())
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Ninguém (eu respondo)', 'Clínica Sorriso', 'Assistente', 'Auxtrat']);
    expect(
      within(picker())
        .getAllByRole('group')
        .map((g) => g.getAttribute('label')),
    ).toEqual(['Seus agentes', 'Agentes contratados']);

    await user.selectOptions(picker(), 'Clínica Sorriso');
    await waitFor(() => expect(picker()).toHaveValue(CLINIC.id));
    expect(server.requests.filter((r) => r.url === '/api/whatsapp/settings').at(-1)?.body).toEqual({
      defaultAgentId: CLINIC.id,
    });
    expect(screen.queryByText(NOBODY_HINT)).not.toBeInTheDocument();

    await user.selectOptions(picker(), 'Ninguém (eu respondo)');
    await waitFor(() => expect(screen.getByText(NOBODY_HINT)).toBeInTheDocument());
    expect(server.requests.filter((r) => r.url === '/api/whatsapp/settings').at(-1)?.body).toEqual({
      defaultAgentId: null,
    });
  });

  it('marks a conversation whose contact asked for a person: "Precisa de você"', async () => {
    await openPage({
      language: 'pt-BR',
      conversations: [conversationFixture(1, { needs_human: true }), conversationFixture(2)],
    });
    expect(within(item('Contact 1')).getByText('Precisa de você')).toBeInTheDocument();
    expect(within(item('Contact 2')).queryByText('Precisa de você')).not.toBeInTheDocument();
  });

  it('with no agent of its own, points to creating one', async () => {
    await openPage({ language: 'pt-BR' });
    await waitFor(() => expect(picker()).toBeEnabled());
    expect(
      screen.getByRole('link', { name: 'Criar um agente que conhece o seu negócio' }),
    ).toHaveAttribute('href', '/my-agents/new');
  });
});

// The list and a conversation are read a page at a time (50 unless asked); the page loads older
// messages as the user scrolls to the top, and more conversations at the list's end.
describe('the WhatsApp page reading a page at a time', () => {
  const messages = (count: number) =>
    Array.from({ length: count }, (_, i) =>
      messageFixture({
        id: `long-${i + 1}`,
        text: `Message ${i + 1}`,
        timestamp: new Date(Date.UTC(2026, 0, 1, 10, 0) + i * 1000).toISOString(),
      }),
    );
  const shownTexts = (chat: HTMLElement) =>
    within(within(chat).getByRole('list', { name: 'Messages' }))
      .getAllByRole('listitem')
      .map((li) => within(li).getByText(/^Message \d+$/).textContent);

  it('opens a conversation of 120 messages on its newest 50; scrolling to the top loads older ones, keeping the view', async () => {
    const { state, user, server } = await openPage({ conversations: [conversationFixture(1)] });
    state.messages.set(id(1), messages(120));
    await user.click(openButton('Contact 1'));
    const chat = await screen.findByRole('region', { name: 'Contact 1' });
    await within(chat).findByText('Message 120');
    expect(shownTexts(chat)).toEqual(Array.from({ length: 50 }, (_, i) => `Message ${71 + i}`));

    const scroller = within(chat).getByRole('list', { name: 'Messages' });
    // A browser's layout: each message 40 px high, 400 px in view.
    Object.defineProperty(scroller, 'scrollHeight', {
      configurable: true,
      get: () => scroller.querySelectorAll('li').length * 40,
    });
    scroller.scrollTop = 30;
    scroller.dispatchEvent(new Event('scroll'));
    await within(chat).findByText('Message 21');
    expect(shownTexts(chat)).toEqual(Array.from({ length: 100 }, (_, i) => `Message ${21 + i}`));
    // What was in view stays in view: the 50 messages put above it moved it down by their height.
    expect(scroller.scrollTop).toBe(30 + 50 * 40);
    expect(server.calls()).toContain(`GET /api/whatsapp/conversations/${id(1)}?cursor=70`);

    // The last page, from the button (keyboard users, or no scrollbar); then no button is left.
    await user.click(within(chat).getByRole('button', { name: 'Show earlier messages' }));
    await within(chat).findByText('Message 1');
    expect(shownTexts(chat)).toHaveLength(120);
    expect(within(chat).queryByRole('button', { name: 'Show earlier messages' })).toBeNull();
  });

  it('a new message arriving after older pages were loaded goes at the end, once', async () => {
    const { state, user, realtime } = await openPage({ conversations: [conversationFixture(1)] });
    state.messages.set(id(1), messages(60));
    await user.click(openButton('Contact 1'));
    const chat = await screen.findByRole('region', { name: 'Contact 1' });
    await user.click(await within(chat).findByRole('button', { name: 'Show earlier messages' }));
    await within(chat).findByText('Message 1');
    const message = messageFixture({
      id: 'live',
      text: 'Message 61',
      timestamp: '2026-01-01T13:00:00.000Z',
    });
    state.messages.get(id(1))!.push(message);
    realtime.emit('whatsapp:new_message', {
      conversation: {
        ...state.conversations[0]!,
        updated_at: message.timestamp,
        last_message: { text: message.text },
      },
      message,
    });
    await within(chat).findByText('Message 61');
    expect(shownTexts(chat)).toEqual(Array.from({ length: 61 }, (_, i) => `Message ${i + 1}`));
  });

  it('lists the first 50 of 70 conversations with the whole count, and loads the rest at the end of the list', async () => {
    const all = Array.from({ length: 70 }, (_, i) => conversationFixture(i + 1));
    const { user } = await openPage({ conversations: all });
    expect(within(list()).getAllByRole('listitem')).toHaveLength(50);
    expect(list()).toHaveTextContent('70 conversations');
    await user.click(within(list()).getByRole('button', { name: 'Show more conversations' }));
    await waitFor(() => expect(within(list()).getAllByRole('listitem')).toHaveLength(70));
    expect(within(list()).queryByRole('button', { name: 'Show more conversations' })).toBeNull();
  });

  it('shows how many of a blocked contact’s messages were counted but not kept', async () => {
    const { user } = await openPage({
      language: 'pt-BR',
      conversations: [conversationFixture(1, { status: 'blocked', dropped_count: 3 })],
    });
    await user.click(openButton('Contact 1'));
    const chat = await screen.findByRole('region', { name: 'Contact 1' });
    expect(chat).toHaveTextContent(
      '3 mensagens deste contato não foram guardadas: durante o bloqueio, guardamos no máximo 100 por dia.',
    );
  });
});

describe('linking by phone number and blocking a contact', () => {
  it('asks for the number, refuses one without its country code, and shows the code in two groups of four until linked', async () => {
    const { server, realtime, state, user } = await openPage({
      language: 'pt-BR',
      status: statusFixture({ state: 'disconnected', isReady: false, phone: null }),
      conversations: [],
    });
    server.on('POST /api/whatsapp/connect', () => {
      state.status = { ...state.status, state: 'qr', qrCode: QR_1 };
      return { success: true, data: { ...state.status } };
    });
    const asked: unknown[] = [];
    server.on('POST /api/whatsapp/pairing-code', (request) => {
      asked.push(request.body);
      state.status = { ...state.status, state: 'qr', pairingCode: 'ABCD2345' };
      return { success: true, data: { ...state.status } };
    });
    await user.click(screen.getByRole('button', { name: 'Conectar' }));
    const dialog = await screen.findByRole('dialog', { name: 'Conectar WhatsApp' });
    await user.click(
      within(dialog).getByRole('button', { name: 'Conectar com número de telefone' }),
    );

    const phone = within(dialog).getByRole('textbox', { name: 'Número do WhatsApp' });
    await user.type(phone, '99999-8888');
    await user.click(within(dialog).getByRole('button', { name: 'Gerar código' }));
    expect(phone).toHaveAccessibleDescription(/só números \(10 a 15 dígitos\)/);
    expect(asked).toEqual([]);

    await user.clear(phone);
    await user.type(phone, '+55 (41) 99999-8888');
    await user.click(within(dialog).getByRole('button', { name: 'Gerar código' }));
    await waitFor(() => expect(asked).toEqual([{ phone: '5541999998888' }]));
    expect(await within(dialog).findByText('ABCD')).toBeVisible();
    expect(within(dialog).getByText('2345')).toBeVisible();
    expect(
      within(dialog).getByText(
        'No celular, abra o WhatsApp > Aparelhos conectados > Conectar aparelho > Conectar com número de telefone e digite este código:',
      ),
    ).toBeVisible();

    // A new code replaces it, as the QR is replaced.
    realtime.emit('whatsapp:pairing_code', { pairingCode: 'WXYZ6789' });
    expect(await within(dialog).findByText('WXYZ')).toBeVisible();
    expect(within(dialog).queryByText('ABCD')).not.toBeInTheDocument();

    state.status = {
      ...state.status,
      state: 'ready',
      isReady: true,
      qrCode: null,
      pairingCode: null,
    };
    realtime.emit('whatsapp:ready', { phone: '5541999998888' });
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('opens on the code while one is valid, and goes back to the QR on request', async () => {
    const { user } = await openPage({
      language: 'en-US',
      status: statusFixture({
        state: 'qr',
        isReady: false,
        qrCode: QR_1,
        pairingCode: 'K7M2P9QX',
        phone: null,
      }),
      conversations: [],
    });
    await user.click(screen.getByRole('button', { name: 'Show QR code' }));
    const dialog = await screen.findByRole('dialog', { name: 'Connect WhatsApp' });
    expect(within(dialog).getByText('K7M2')).toBeVisible();
    expect(within(dialog).getByText('P9QX')).toBeVisible();
    await user.click(within(dialog).getByRole('button', { name: 'Use the QR code' }));
    expect(within(dialog).getByRole('img', { name: 'QR code to link WhatsApp' })).toBeVisible();
  });

  it('blocks a contact only after the confirmation, shows it blocked in the list and the pane, and unblocks it', async () => {
    const { server, user } = await openPage({ language: 'en-US' });
    await user.click(openButton('Contact 1'));
    const pane = await screen.findByRole('region', { name: 'Contact 1' });
    await user.click(within(pane).getByRole('button', { name: 'Block Contact 1' }));
    const dialog = await screen.findByRole('dialog', { name: 'Block contact' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(server.calls().some((call) => call.endsWith('/block'))).toBe(false);

    await user.click(within(pane).getByRole('button', { name: 'Block Contact 1' }));
    const confirm = await screen.findByRole('dialog', { name: 'Block contact' });
    await user.click(within(confirm).getByRole('button', { name: 'Block' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(
      await within(pane).findByText(
        'You blocked this contact: their messages show here, but the agent does not answer. You can still reply by hand.',
      ),
    ).toBeVisible();
    expect(within(item('Contact 1')).getByText('Blocked')).toBeVisible();

    await user.click(within(pane).getByRole('button', { name: 'Unblock Contact 1' }));
    await waitFor(() =>
      expect(within(pane).queryByText(/You blocked this contact/)).not.toBeInTheDocument(),
    );
    expect(within(item('Contact 1')).queryByText('Blocked')).not.toBeInTheDocument();
    expect(within(pane).getByRole('button', { name: 'Block Contact 1' })).toBeVisible();
  });

  it('says until when a contact that wrote too fast is blocked, and lets the owner lift it at once', async () => {
    const { user } = await openPage({
      language: 'pt-BR',
      status: statusFixture({ defaultAgentId: AGENTS[0]!.id }),
      conversations: [
        conversationFixture(1, {
          status: 'blocked',
          blocked_reason: 'flood',
          blocked_until: '2026-01-01T12:15:00.000Z',
          ai_enabled: true,
        }),
      ],
    });
    await user.click(openButton('Contact 1'));
    const pane = await screen.findByRole('region', { name: 'Contact 1' });
    expect(
      within(pane).getByText(/está bloqueado até .*: as mensagens dele aparecem aqui/),
    ).toBeVisible();
    // AI is on, yet the agent does not answer a blocked contact: the header says it waits.
    expect(within(pane).getByText('IA em espera')).toBeVisible();
    expect(within(pane).queryByText('Assistente de IA ativo')).not.toBeInTheDocument();
    await user.click(within(pane).getByRole('button', { name: 'Desbloquear Contact 1' }));
    await waitFor(() =>
      expect(within(pane).queryByText(/está bloqueado até/)).not.toBeInTheDocument(),
    );
    expect(within(pane).getByText('Assistente de IA ativo')).toBeVisible();
  });
});

describe('the ticks of what the account sends', () => {
  /** The server's answer to Retry: the message, pending again. */
  const retriedAnswer = {
    success: true as const,
    data: messageFixture({ id: 'out-1', sender: 'user', text: 'On my way', status: 'pending' }),
  };
  const labels = {
    'pt-BR': {
      pending: 'Enviando',
      sent: 'Enviada',
      delivered: 'Entregue',
      read: 'Lida',
      failed: 'Não enviada',
      retry: 'Tentar novamente',
    },
    'en-US': {
      pending: 'Sending',
      sent: 'Sent',
      delivered: 'Delivered',
      read: 'Read',
      failed: 'Not sent',
      retry: 'Retry',
    },
    'es-ES': {
      pending: 'Enviando',
      sent: 'Enviado',
      delivered: 'Entregado',
      read: 'Leído',
      failed: 'No enviado',
      retry: 'Reintentar',
    },
  } as const;

  it.each(LANGUAGES)(
    'move with the socket from sending to read, and a failed one says why and is retried (%s)',
    async (language) => {
      const label = labels[language];
      let retried = '';
      const { realtime, user } = await openPage({
        language,
        beforeRender: (server) =>
          server.on('POST /api/whatsapp/conversations/:id/messages/:messageId/retry', (request) => {
            retried = request.url;
            return retriedAnswer;
          }),
      });
      await user.click(openButton('Contact 2'));
      const chat = await screen.findByRole('region', { name: 'Contact 2' });
      await within(chat).findByText('Last words of 2');
      realtime.emit('whatsapp:message_sent', {
        conversationId: id(2),
        message: messageFixture({
          id: 'out-1',
          sender: 'user',
          text: 'On my way',
          status: 'pending',
        }),
      });
      const sent = (await within(chat).findByText('On my way')).closest('li')!;
      expect(within(sent).getByRole('img', { name: label.pending })).toBeVisible();
      for (const status of ['sent', 'delivered', 'read'] as const) {
        realtime.emit('whatsapp:message_status', {
          conversationId: id(2),
          messageId: 'out-1',
          status,
        });
        expect(await within(sent).findByRole('img', { name: label[status] })).toBeVisible();
      }

      realtime.emit('whatsapp:message_status', {
        conversationId: id(2),
        messageId: 'out-1',
        status: 'failed',
        error: 'WhatsApp refused the message (error 463).',
      });
      expect(await within(sent).findByRole('img', { name: label.failed })).toBeVisible();
      expect(sent).toHaveTextContent('WhatsApp refused the message (error 463).');
      await user.click(within(sent).getByRole('button', { name: label.retry }));
      expect(await within(sent).findByRole('img', { name: label.pending })).toBeVisible();
      expect(retried).toContain(`/api/whatsapp/conversations/${id(2)}/messages/out-1/retry`);
      expect(sent).not.toHaveTextContent('error 463');
    },
  );
  it('a Retry answered after the socket said the message was sent shows it sent, not sending again (pt-BR)', async () => {
    // The server sends the message while it answers Retry: the socket's news come first.
    let sendAtOnce = async () => {};
    const { realtime, user, queryClient } = await openPage({
      language: 'pt-BR',
      beforeRender: (server) =>
        server.on('POST /api/whatsapp/conversations/:id/messages/:messageId/retry', async () => {
          await sendAtOnce();
          return retriedAnswer;
        }),
    });
    await user.click(openButton('Contact 2'));
    const chat = await screen.findByRole('region', { name: 'Contact 2' });
    realtime.emit('whatsapp:message_sent', {
      conversationId: id(2),
      message: messageFixture({ id: 'out-1', sender: 'user', text: 'On my way', status: 'failed' }),
    });
    const sent = (await within(chat).findByText('On my way')).closest('li')!;
    sendAtOnce = async () => {
      for (const status of ['pending', 'sent'] as const)
        realtime.emit('whatsapp:message_status', {
          conversationId: id(2),
          messageId: 'out-1',
          status,
        });
      await within(sent).findByRole('img', { name: labels['pt-BR'].sent });
    };
    await user.click(within(sent).getByRole('button', { name: labels['pt-BR'].retry }));
    // Retry's answer came and was taken in: the ticks still say sent.
    await waitFor(() => expect(queryClient.isMutating()).toBe(0));
    expect(within(sent).queryByRole('button', { name: labels['pt-BR'].retry })).toBeNull();
    expect(within(sent).getByRole('img', { name: labels['pt-BR'].sent })).toBeVisible();
    expect(within(sent).queryByRole('img', { name: labels['pt-BR'].pending })).toBeNull();
  });
});

describe("a contact's edits, deletions and reactions", () => {
  it('shows "editada", "mensagem apagada" and the reaction badge, in place as the socket tells (pt-BR)', async () => {
    const { realtime, user } = await openPage({ language: 'pt-BR' });
    await user.click(openButton('Contact 2'));
    const chat = await screen.findByRole('region', { name: 'Contact 2' });
    const original = (await within(chat).findByText('Last words of 2')).closest('li')!;
    expect(original).not.toHaveTextContent('editada');

    realtime.emit('whatsapp:message_updated', {
      conversationId: id(2),
      message: messageFixture({
        id: `${id(2)}-1`,
        text: 'Novas palavras de 2',
        editedAt: '2026-01-01T12:05:00.000Z',
      }),
    });
    const edited = (await within(chat).findByText('Novas palavras de 2')).closest('li')!;
    expect(edited).toHaveTextContent('editada');
    expect(within(chat).queryByText('Last words of 2')).toBeNull();

    realtime.emit('whatsapp:message_updated', {
      conversationId: id(2),
      message: messageFixture({
        id: `${id(2)}-1`,
        text: '',
        deleted: true,
      }),
    });
    const deleted = await within(chat).findByText('mensagem apagada');
    expect(deleted).toHaveClass('wa-message__text--deleted');
    expect(deleted.closest('li')).not.toHaveTextContent('editada');

    realtime.emit('whatsapp:message_sent', {
      conversationId: id(2),
      message: messageFixture({
        id: 'reply-1',
        sender: 'user',
        text: 'Abrimos às 9h.',
        agentName: 'auxtrat',
        status: 'read',
      }),
    });
    await within(chat).findByText('Abrimos às 9h.');
    realtime.emit('whatsapp:message_updated', {
      conversationId: id(2),
      message: messageFixture({
        id: 'reply-1',
        sender: 'user',
        text: 'Abrimos às 9h.',
        agentName: 'auxtrat',
        status: 'read',
        reactions: [{ sender: 'contact', emoji: '👍' }],
      }),
    });
    const reply = (await within(chat).findByText('Abrimos às 9h.')).closest('li')!;
    const badge = await within(reply).findByRole('list', { name: 'Reações' });
    expect(within(badge).getByRole('listitem')).toHaveTextContent('👍');

    // Taken back: the badge goes.
    realtime.emit('whatsapp:message_updated', {
      conversationId: id(2),
      message: messageFixture({
        id: 'reply-1',
        sender: 'user',
        text: 'Abrimos às 9h.',
        agentName: 'auxtrat',
        status: 'read',
      }),
    });
    await waitFor(() => expect(within(reply).queryByRole('list', { name: 'Reações' })).toBeNull());
  });
});

describe('the owner sends a photo or a document', () => {
  const texts = {
    attach: 'Anexar foto ou documento',
    attached: 'Arquivo anexado',
    remove: (name: string) => `Remover ${name}`,
    messageTo: 'Mensagem para Contact 1',
    send: 'Enviar',
    sending: 'Enviando o arquivo…',
  };

  /** Contact 1's pane, its composer's file input, and the stand-in API answering files as the server does. */
  async function openComposer(options: Parameters<typeof openPage>[0] = {}) {
    const page = await openPage({ language: 'pt-BR', ...options });
    page.server.on('POST /api/whatsapp/conversations/:id/media', (request) => {
      const file = request.body.get('file') as File;
      const caption = String(request.body.get('caption') ?? '');
      return {
        success: true,
        data: messageFixture({
          sender: 'user',
          text: caption,
          status: 'pending',
          timestamp: new Date().toISOString(),
          media: {
            kind: file.type.startsWith('image/') ? 'image' : 'document',
            mimetype: file.type,
            size: file.size,
            ...(caption ? { caption } : {}),
            url: '/api/whatsapp/media/m-1?expires=1&signature=s',
          },
        }),
      };
    });
    await page.user.click(openButton('Contact 1'));
    const chat = await screen.findByRole('region', { name: 'Contact 1' });
    await within(chat).findByText('Last words of 1');
    const input = chat.querySelector<HTMLInputElement>('input[type="file"]')!;
    return { ...page, chat, input };
  }

  const mediaRequests = (server: FakeServer) =>
    server.requests.filter((r) => r.url.endsWith('/media'));

  it('attaches a photo with the paper clip, shows it above the box, and sends it with the typed caption', async () => {
    const { server, user, chat, input } = await openComposer();
    // Photos and documents, from the gallery or the files: never only the camera.
    expect(input.accept).toContain('image/*');
    expect(input.accept).toContain('.pdf');
    expect(input.accept).toContain('.docx');
    expect(input).not.toHaveAttribute('capture');
    expect(within(chat).getByRole('button', { name: texts.attach })).toBeEnabled();

    await user.upload(
      input,
      new File([new Uint8Array(3 * 1024)], 'vitrine.jpg', { type: 'image/jpeg' }),
    );
    const chip = within(chat).getByRole('group', { name: texts.attached });
    expect(chip).toHaveTextContent('vitrine.jpg');
    expect(chip).toHaveTextContent('3 kB');
    // A file alone may go: no caption needed.
    expect(within(chat).getByRole('button', { name: texts.send })).toBeEnabled();

    const box = within(chat).getByRole('textbox', { name: texts.messageTo });
    await user.type(box, 'Nossa vitrine{Enter}');
    expect(await within(chat).findByText('Nossa vitrine')).toBeVisible();
    const [sent] = mediaRequests(server);
    expect(sent).toMatchObject({
      method: 'POST',
      url: `/api/whatsapp/conversations/${id(1)}/media`,
    });
    const body = sent!.body as FormData;
    expect(body.get('caption')).toBe('Nossa vitrine');
    expect(body.get('file')).toMatchObject({
      name: 'vitrine.jpg',
      size: 3 * 1024,
      type: 'image/jpeg',
    });
    expect(within(chat).queryByRole('group', { name: texts.attached })).not.toBeInTheDocument();
    expect(box).toHaveValue('');

    // Removed before sending: nothing goes.
    await user.upload(input, new File(['%PDF-1.4'], 'catalogo.pdf', { type: 'application/pdf' }));
    await user.click(within(chat).getByRole('button', { name: texts.remove('catalogo.pdf') }));
    expect(within(chat).queryByRole('group', { name: texts.attached })).not.toBeInTheDocument();
    expect(within(chat).getByRole('button', { name: texts.send })).toBeDisabled();
    expect(mediaRequests(server)).toHaveLength(1);
  });

  it('says before sending that an image WhatsApp does not show as a photo goes as a document', async () => {
    const { user, chat, input } = await openComposer();
    const asDocument =
      'Vai como documento: o WhatsApp mostra como foto só imagens JPEG, PNG e WebP.';
    await user.upload(
      input,
      new File([new Uint8Array(64)], 'IMG_0412.HEIC', { type: 'image/heic' }),
    );
    expect(within(chat).getByText(asDocument)).toBeVisible();
    await user.click(within(chat).getByRole('button', { name: texts.remove('IMG_0412.HEIC') }));
    expect(within(chat).queryByText(asDocument)).not.toBeInTheDocument();
    await user.upload(input, new File([new Uint8Array(64)], 'animacao.gif', { type: 'image/gif' }));
    expect(within(chat).getByText(asDocument)).toBeVisible();
    await user.click(within(chat).getByRole('button', { name: texts.remove('animacao.gif') }));
    // A photo WhatsApp shows as one, and a document: nothing to say.
    await user.upload(input, new File([new Uint8Array(64)], 'vitrine.png', { type: 'image/png' }));
    expect(within(chat).queryByText(asDocument)).not.toBeInTheDocument();
    await user.click(within(chat).getByRole('button', { name: texts.remove('vitrine.png') }));
    await user.upload(input, new File(['%PDF-1.4'], 'catalogo.pdf', { type: 'application/pdf' }));
    expect(within(chat).queryByText(asDocument)).not.toBeInTheDocument();
  });

  it('says it is sending while the file goes, with nothing to press twice', async () => {
    const { server, user, chat, input } = await openComposer();
    const held = server.hold('POST /api/whatsapp/conversations/:id/media');
    await user.upload(input, new File(['%PDF-1.4'], 'catalogo.pdf', { type: 'application/pdf' }));
    await user.type(within(chat).getByRole('textbox', { name: texts.messageTo }), 'Segue');
    await user.click(within(chat).getByRole('button', { name: texts.send }));
    const { request, respond } = await held.next();
    expect(within(chat).getByRole('status')).toHaveTextContent(texts.sending);
    expect(within(chat).getByRole('button', { name: texts.send })).toBeDisabled();
    expect(within(chat).getByRole('button', { name: texts.attach })).toBeDisabled();
    respond({
      success: true,
      data: messageFixture({
        sender: 'user',
        text: 'Segue',
        status: 'pending',
        media: { kind: 'document', mimetype: 'application/pdf', size: 8, fileName: 'catalogo.pdf' },
      }),
    });
    expect((request.body as FormData).get('caption')).toBe('Segue');
    await waitFor(() =>
      expect(within(chat).queryByRole('group', { name: texts.attached })).not.toBeInTheDocument(),
    );
    expect(within(chat).getByRole('button', { name: texts.attach })).toBeEnabled();
  });

  it('refuses a file over the server’s limit at once, saying the limit; a refusal of the server is shown with the file kept', async () => {
    const { server, user, chat, input } = await openComposer({
      status: statusFixture({ mediaMaxBytes: 1024 * 1024 }),
    });
    await user.upload(
      input,
      new File([new Uint8Array(1024 * 1024 + 1)], 'video.pdf', { type: 'application/pdf' }),
    );
    expect(await within(chat).findByRole('alert')).toHaveTextContent(
      'O arquivo é grande demais: o máximo é 1 MB',
    );
    expect(within(chat).queryByRole('group', { name: texts.attached })).not.toBeInTheDocument();
    expect(within(chat).getByRole('button', { name: texts.send })).toBeDisabled();
    expect(mediaRequests(server)).toHaveLength(0);

    // What the server refuses (its limit, a "photo" that is none) is said in its words.
    server.on('POST /api/whatsapp/conversations/:id/media', () =>
      errorResponse(400, {
        message: 'Este arquivo não é uma foto de verdade (JPEG, PNG ou WebP)',
      }),
    );
    await user.upload(input, new File(['texto'], 'foto.jpg', { type: 'image/jpeg' }));
    expect(within(chat).getByRole('alert')).toBeEmptyDOMElement();
    await user.click(within(chat).getByRole('button', { name: texts.send }));
    expect(await within(chat).findByRole('alert')).toHaveTextContent(
      'Este arquivo não é uma foto de verdade (JPEG, PNG ou WebP)',
    );
    expect(within(chat).getByRole('group', { name: texts.attached })).toHaveTextContent('foto.jpg');
  });
});
