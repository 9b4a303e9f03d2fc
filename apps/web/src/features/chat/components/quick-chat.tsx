import type { Agent } from '@contrateia/shared';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { chatErrorText } from '@/features/chat/api/send-message';
import { useSendShortMessage } from '@/features/chat/api/send-short-message';
import { localEntry, type ChatEntry } from '@/features/chat/chat-entry';
import { markdownToPlainText } from '@/features/chat/plain-text';
import { ChatComposer } from '@/features/chat/components/chat-composer';
import { MessageList } from '@/features/chat/components/message-list';
import { useAutoScroll } from '@/features/chat/hooks/use-auto-scroll';
import '@/features/chat/chat.css';

/**
 * The dashboard's chat panel (spec §2): pick a hired agent, ask, read the reply in a small
 * transcript. Uses the short form (`POST /api/chat`); the exchange is kept in the user's latest
 * conversation with that agent, so it also appears on the agent's page.
 */
export function QuickChat({ agents, onReplied }: { agents: Agent[]; onReplied?: () => void }) {
  const { t } = useTranslation();
  const headingId = useId();
  const selectId = useId();
  const [chosen, setChosen] = useState<string | null>(null);
  const [messages, setMessages] = useState<ChatEntry[]>([]);
  const send = useSendShortMessage();
  const { containerRef, contentRef, handleScroll, follow } = useAutoScroll<
    HTMLDivElement,
    HTMLOListElement
  >(messages);

  // The chosen agent, while it is still hired; else the first one.
  const agent = agents.find((candidate) => candidate.name === chosen) ?? agents[0];

  const handleSend = (text: string) => {
    const message = text.trim();
    if (!agent || !message || send.isPending) return false;
    const author = agent.displayName;
    const pending = localEntry({ text: '', sender: 'bot', streaming: true, author });
    const replace = (entry: ChatEntry) =>
      setMessages((current) => current.map((m) => (m.id === pending.id ? entry : m)));
    setMessages((current) => [...current, localEntry({ text: message, sender: 'user' }), pending]);
    follow();
    send.mutate(
      { message, agentName: agent.name },
      {
        onSuccess: ({ response }) => replace(localEntry({ text: response, sender: 'bot', author })),
        onError: (error) =>
          replace(
            localEntry({
              text: chatErrorText(error, t('dashboard.chatError')),
              sender: 'bot',
              type: 'error',
              author,
            }),
          ),
        onSettled: () => onReplied?.(),
      },
    );
    return true;
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
            pending={send.isPending}
            label={t('agentChat.inputLabel', { name: agent.displayName })}
            placeholder={t('agentChat.placeholder')}
          />
        </>
      )}
    </section>
  );
}
