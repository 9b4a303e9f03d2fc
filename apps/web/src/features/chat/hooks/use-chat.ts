import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { conversationQueryOptions, useConversation } from '@/features/chat/api/get-conversation';
import {
  conversationsQueryRoot,
  useConversations,
  useRefreshAfterStop,
} from '@/features/chat/api/get-conversations';
import { chatErrorText, useSendMessage } from '@/features/chat/api/send-message';
import { localEntry, type ChatEntry } from '@/features/chat/chat-entry';
import { markdownToPlainText } from '@/features/chat/plain-text';
import { ApiError } from '@/lib/api-client';
import { useRealtimeEvent } from '@/hooks/use-realtime';

/**
 * A message the server's rate limit refused (429): it was not sent. The text goes back into the
 * box with the server's message, and sending waits until `retryAt` (epoch ms).
 */
export interface RefusedMessage {
  text: string;
  error: string;
  retryAt: number;
}

/**
 * Which conversation the chat shows: the newest one with this agent (resolved once the list
 * arrives), a fresh one (created by the first message), or a given one.
 */
type Selection = { mode: 'latest' } | { mode: 'fresh' } | { mode: 'conversation'; id: string };

interface ChatState {
  selection: Selection;
  /** The conversation whose stored messages have been copied into `messages`. */
  loadedId: string | null;
  messages: ChatEntry[];
  /** The history could not be loaded: the chat went on as a fresh one. */
  loadFailed: boolean;
}

const FRESH: ChatState = {
  selection: { mode: 'fresh' },
  loadedId: null,
  messages: [],
  loadFailed: false,
};

function openState(id: string): ChatState {
  return {
    selection: { mode: 'conversation', id },
    loadedId: null,
    messages: [],
    loadFailed: false,
  };
}

/**
 * A chat with one agent: opens the latest conversation, sends messages and shows the reply as it
 * streams, one reply at a time; `clear` starts a fresh conversation (the old ones stay on the
 * server) and `open` switches to another one.
 *
 * The messages live in local state, copied once from the server when a conversation opens and
 * then extended by this page; the copy waits for a fresh fetch, so a revisit never starts from a
 * cached, older history.
 */
export function useChat({
  agentName,
  welcomeMessage,
}: {
  agentName: string;
  welcomeMessage: string;
}) {
  const { t } = useTranslation();
  const [state, setState] = useState<ChatState>({ ...FRESH, selection: { mode: 'latest' } });
  const [pending, setPending] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  const [refused, setRefused] = useState<RefusedMessage | null>(null);
  // The reply being streamed, which Stop marks as stopped.
  const streamingId = useRef<string | null>(null);
  const sendMessage = useSendMessage();
  const refreshAfterStop = useRefreshAfterStop();

  // Bumped by clear/open: a reply still arriving for the previous chat is dropped.
  const generation = useRef(0);
  const controller = useRef<AbortController | null>(null);
  // Also a ref: two Enter presses can land before the re-render that disables sending.
  const sending = useRef(false);

  const list = useConversations(agentName);
  const conversationId = state.selection.mode === 'conversation' ? state.selection.id : null;
  const needsLoad = conversationId !== null && state.loadedId !== conversationId;
  const conversation = useConversation(needsLoad ? conversationId : null);

  // Adjusting state while rendering (react.dev: "storing information from previous renders"):
  // each branch changes the state so that it no longer applies.
  if (state.selection.mode === 'latest' && !list.isFetching) {
    const latest = list.data?.conversations[0];
    if (latest) setState(openState(latest.id));
    else if (list.data) setState(FRESH);
    else if (list.isError) setState({ ...FRESH, loadFailed: true });
  }
  if (needsLoad && !conversation.isFetching) {
    const loaded = conversation.data?.conversation;
    if (loaded && loaded.id === conversationId) {
      setState((current) => ({ ...current, loadedId: loaded.id, messages: loaded.messages }));
    } else if (conversation.isError) {
      setState({ ...FRESH, loadFailed: true });
    }
  }

  const loading = state.selection.mode === 'latest' || needsLoad;

  const reset = useCallback((next: ChatState) => {
    generation.current += 1;
    controller.current?.abort();
    controller.current = null;
    sending.current = false;
    streamingId.current = null;
    setPending(false);
    setAnnouncement('');
    setRefused(null);
    setState(next);
  }, []);

  const clear = useCallback(() => reset(FRESH), [reset]);
  const open = useCallback((id: string) => reset(openState(id)), [reset]);

  // Messages stored elsewhere (Sync Agent's WhatsApp chat, a reply to an indirect relay) show at
  // once: the open conversation is read again, unless this page is sending (its own reply brings
  // the conversation as stored).
  const queryClient = useQueryClient();
  useRealtimeEvent('chat:message', ({ conversationId: changed }) => {
    void queryClient.invalidateQueries({ queryKey: conversationsQueryRoot });
    if (changed !== conversationId) return;
    queryClient.fetchQuery({ ...conversationQueryOptions(changed), staleTime: 0 }).then(
      ({ conversation: loaded }) => {
        if (sending.current) return;
        setState((s) => (s.loadedId === loaded.id ? { ...s, messages: loaded.messages } : s));
        const last = loaded.messages.at(-1);
        if (last?.sender === 'bot') setAnnouncement(markdownToPlainText(last.text));
      },
      () => {}, // the next change, or opening it again, reads it
    );
  });

  // Leaving the page stops the reply, as Stop does: the server keeps what had arrived.
  useEffect(() => () => controller.current?.abort(), []);

  /**
   * Stops the reply being streamed: the request is aborted, the server stores what had arrived
   * (marked stopped), and the page keeps that text, marked the same way.
   */
  const stop = useCallback(() => {
    const id = streamingId.current;
    if (!id || !controller.current) return;
    // Known once the reply started (its first event names it), even for a new conversation.
    const stoppedConversation = conversationId;
    controller.current.abort();
    controller.current = null;
    streamingId.current = null;
    sending.current = false;
    setPending(false);
    setState((s) => ({
      ...s,
      messages: s.messages.map((m) =>
        m.id === id ? { ...m, streaming: false, stopped: true } : m,
      ),
    }));
    setAnnouncement(t('agentChat.stoppedAnnouncement'));
    if (stoppedConversation) void refreshAfterStop(agentName);
  }, [t, agentName, conversationId, refreshAfterStop]);

  /** Sends `text` unless it is blank or a reply is pending; returns whether it was sent. */
  const send = (text: string): boolean => {
    const message = text.trim();
    if (!message || sending.current || loading) return false;
    sending.current = true;

    const current = generation.current;
    const isCurrent = () => generation.current === current;
    const abort = new AbortController();
    controller.current = abort;

    const user = localEntry({ text: message, sender: 'user' });
    const bot = localEntry({ text: '', sender: 'bot', streaming: true });
    const updateBot = (update: (entry: ChatEntry) => ChatEntry) =>
      setState((s) => ({
        ...s,
        messages: s.messages.map((m) => (m.id === bot.id ? update(m) : m)),
      }));

    setState((s) => ({ ...s, messages: [...s.messages, user, bot] }));
    streamingId.current = bot.id;
    setPending(true);
    setAnnouncement('');
    setRefused(null);

    sendMessage
      .mutateAsync({
        input: { message, agentName, ...(conversationId ? { conversationId } : {}) },
        signal: abort.signal,
        onStart: (id) => {
          // Known before the reply: a stopped first reply still continues this conversation.
          if (isCurrent()) {
            setState((s) => ({ ...s, selection: { mode: 'conversation', id }, loadedId: id }));
          }
        },
        onDelta: (delta) => {
          if (isCurrent()) updateBot((entry) => ({ ...entry, text: entry.text + delta }));
        },
      })
      .then(
        ({ message: stored, conversation: { id } }) => {
          if (!isCurrent()) return;
          setState((s) => ({
            ...s,
            // The first message created the conversation: it is now the one shown.
            selection: { mode: 'conversation', id },
            loadedId: id,
            messages: s.messages.map((m) => (m.id === bot.id ? stored : m)),
          }));
          setAnnouncement(markdownToPlainText(stored.text));
        },
        (error: unknown) => {
          if (!isCurrent() || abort.signal.aborted) return;
          const errorText = chatErrorText(error, t('agentChat.error'));
          if (error instanceof ApiError && error.status === 429) {
            // Not sent: the message leaves the list and goes back into the box.
            setState((s) => ({
              ...s,
              messages: s.messages.filter((m) => m.id !== user.id && m.id !== bot.id),
            }));
            setRefused({
              text: message,
              error: errorText,
              retryAt: Date.now() + (error.retryAfterSeconds ?? 1) * 1000,
            });
            setAnnouncement(errorText);
            return;
          }
          updateBot((entry) => ({ ...entry, text: errorText, type: 'error', streaming: false }));
          setAnnouncement(errorText);
        },
      )
      .finally(() => {
        if (!isCurrent() || abort.signal.aborted) return;
        streamingId.current = null;
        controller.current = null;
        sending.current = false;
        setPending(false);
      });
    return true;
  };

  // Memoised: the list is what the message list's auto-scroll watches for changes.
  const messages = useMemo<ChatEntry[]>(
    () => [
      { id: 'welcome', text: welcomeMessage, sender: 'bot', timestamp: '', type: 'welcome' },
      ...state.messages,
    ],
    [welcomeMessage, state.messages],
  );

  return {
    messages,
    /** The stored conversation shown, or null before the first message of a fresh chat. */
    conversationId: needsLoad ? null : conversationId,
    loading,
    loadFailed: state.loadFailed,
    pending,
    /** The last reply (or error) in full, for a live region: streamed text is not announced bit by bit. */
    announcement,
    send,
    /** Stops the reply being streamed, keeping what arrived. */
    stop,
    /** The last message the rate limit refused, to put back in the box (null once sent). */
    refused,
    /** Starts a fresh conversation (the next message creates it); the old ones stay stored. */
    clear,
    /** Shows another stored conversation, which the next message continues. */
    open,
  };
}

export type ChatController = ReturnType<typeof useChat>;
