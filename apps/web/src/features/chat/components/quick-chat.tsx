import type { Agent } from '@contrateia/shared';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useRefreshAfterStop } from '@/features/chat/api/get-conversations';
import { chatErrorText } from '@/features/chat/api/send-message';
import { useSendShortMessage } from '@/features/chat/api/send-short-message';
import { localEntry, type ChatEntry } from '@/features/chat/chat-entry';
import { markdownToPlainText } from '@/features/chat/plain-text';
import { ChatComposer } from '@/features/chat/components/chat-composer';
import { MessageList } from '@/features/chat/components/message-list';
import { useAutoScroll } from '@/features/chat/hooks/use-auto-scroll';
import '@/features/chat/chat.css';

/** The reply being streamed: what Stop needs to end it and to refresh what it changed. */
type Streaming = {
  abort: AbortController;
  entryId: string;
  agentName: string;
  conversationId: string | null;
};

/**
 * The dashboard's chat panel: pick a hired agent, ask, read the reply in a small transcript as it
 * streams; Stop ends it, keeping what arrived. Uses the short form (`POST /api/chat`); the exchange
 * is kept in the user's latest conversation with that agent, so it also appears on the agent's
 * page.
 */
export function QuickChat({ agents, onReplied }: { agents: Agent[]; onReplied?: () => void }) {
  const { t } = useTranslation();
  const headingId = useId();
  const selectId = useId();
  const [chosen, setChosen] = useState<string | null>(null);
  const [messages, setMessages] = useState<ChatEntry[]>([]);
  const send = useSendShortMessage();
  const refreshAfterStop = useRefreshAfterStop();
  const streaming = useRef<Streaming | null>(null);
  // Not the mutation's own pending state: after Stop, Send is back at once.
  const [replying, setReplying] = useState(false);
  const { containerRef, contentRef, handleScroll, follow } = useAutoScroll<
    HTMLDivElement,
    HTMLOListElement
  >(messages);

  // Leaving the dashboard stops the reply, as Stop does: the server keeps what had arrived.
  useEffect(() => () => streaming.current?.abort.abort(), []);

  // The chosen agent, while it is still hired; else the first one.
  const agent = agents.find((candidate) => candidate.name === chosen) ?? agents[0];

  const handleSend = (text: string) => {
    const message = text.trim();
    if (!agent || !message || replying) return false;
    const author = agent.displayName;
    const pending = localEntry({ text: '', sender: 'bot', streaming: true, author });
    const update = (change: (entry: ChatEntry) => ChatEntry) =>
      setMessages((current) => current.map((m) => (m.id === pending.id ? change(m) : m)));
    setMessages((current) => [...current, localEntry({ text: message, sender: 'user' }), pending]);
    follow();
    const reply: Streaming = {
      abort: new AbortController(),
      entryId: pending.id,
      agentName: agent.name,
      conversationId: null,
    };
    streaming.current = reply;
    setReplying(true);
    send.mutate(
      {
        input: { message, agentName: agent.name },
        signal: reply.abort.signal,
        onStart: (id) => {
          reply.conversationId = id;
        },
        onDelta: (delta) => update((entry) => ({ ...entry, text: entry.text + delta })),
      },
      {
        onSuccess: ({ message: stored }) =>
          update(() => localEntry({ text: stored.text, sender: 'bot', author })),
        onError: (error) => {
          if (reply.abort.signal.aborted) return;
          update(() =>
            localEntry({
              text: chatErrorText(error, t('dashboard.chatError')),
              sender: 'bot',
              type: 'error',
              author,
            }),
          );
        },
        onSettled: () => {
          // A stopped reply was let go by handleStop, which refreshes the figures once it is
          // stored; one cut off by leaving the page has nothing left to refresh.
          if (streaming.current !== reply || reply.abort.signal.aborted) return;
          streaming.current = null;
          setReplying(false);
          onReplied?.();
        },
      },
    );
    return true;
  };

  /** Stops the reply being streamed; what arrived stays, marked stopped, as the server stores it. */
  const handleStop = () => {
    const reply = streaming.current;
    if (!reply) return;
    streaming.current = null;
    setReplying(false);
    reply.abort.abort();
    setMessages((current) =>
      current.map((m) => (m.id === reply.entryId ? { ...m, streaming: false, stopped: true } : m)),
    );
    if (reply.conversationId) {
      void refreshAfterStop(reply.agentName).then(() => onReplied?.());
    }
  };

  const lastReply = messages.at(-1);
  const announcement =
    lastReply?.sender === 'bot' && !lastReply.streaming ? markdownToPlainText(lastReply.text) : '';

  return (
    <section className="card quick-chat" aria-labelledby={headingId}>
      <h2 id={headingId} className="card__title">
        {t('dashboard.chatTitle')}
      </h2>
      {!agent ? (
        <p className="agent-section__empty">{t('dashboard.noHired')}</p>
      ) : (
        <>
          <div className="field quick-chat__agent">
            <label htmlFor={selectId} className="field__label">
              {t('dashboard.chatAgent')}
            </label>
            <select
              id={selectId}
              className="field__input"
              value={agent.name}
              onChange={(event) => setChosen(event.target.value)}
            >
              {agents.map((option) => (
                <option key={option.id} value={option.name}>
                  {option.displayName}
                </option>
              ))}
            </select>
          </div>
          {messages.length === 0 ? (
            <p className="quick-chat__empty">{t('dashboard.chatEmpty')}</p>
          ) : (
            <MessageList
              className="quick-chat__messages"
              messages={messages}
              agentName={agent.displayName}
              label={t('dashboard.chatTranscript')}
              containerRef={containerRef}
              contentRef={contentRef}
              onScroll={handleScroll}
            />
          )}
          <div className="visually-hidden" aria-live="polite">
            {announcement}
          </div>
          <ChatComposer
            onSend={handleSend}
            onStop={handleStop}
            pending={replying}
            label={t('agentChat.inputLabel', { name: agent.displayName })}
            placeholder={t('agentChat.placeholder')}
          />
        </>
      )}
    </section>
  );
}
