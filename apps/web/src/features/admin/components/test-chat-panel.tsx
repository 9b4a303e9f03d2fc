import type { AdminAgent, Language } from '@contrateia/shared';
import { lazy, Suspense, useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { ChatComposer } from '@/features/chat/components/chat-composer';
import { useTestChat } from '@/features/admin/hooks/use-test-chat';
import { cx } from '@/lib/cx';

// react-markdown is most of the chat's weight: loaded with the first reply, as the chat does.
const BotMarkdown = lazy(() => import('@/features/chat/components/bot-markdown'));

/**
 * The test chat of one agent inside Agent Management: a message box (Enter sends, Shift+Enter a new
 * line), the conversation so far, and the same conversation continued with each message until "New
 * conversation". Works for inactive agents too; the server keeps these conversations apart from
 * users' conversations and stats.
 */
export function TestChatPanel({
  agent,
  id,
  onClose,
}: {
  agent: AdminAgent;
  /** The panel's element id (the opening button's aria-controls). */
  id: string;
  onClose: () => void;
}) {
  const { t, i18n } = useTranslation();
  const titleId = useId();
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const logRef = useRef<HTMLDivElement>(null);
  const chat = useTestChat(agent.name);
  const language = i18n.language as Language;
  const name = agent.displayName[language] || agent.name;
  const welcome = agent.configuration.welcomeMessage[language]?.trim();

  useEffect(() => {
    inputRef.current?.focus();
  }, []);

  // The newest line in view: the log scrolls inside the panel.
  const count = chat.messages.length;
  useEffect(() => {
    const log = logRef.current;
    if (log && count > 0) log.scrollTop = log.scrollHeight;
  }, [count, chat.pending]);

  return (
    <section id={id} className="admin-test-chat" aria-labelledby={titleId}>
      <header className="admin-test-chat__header">
        <h4 id={titleId} className="admin-test-chat__title">
          {t('agentManagement.testChat.title', { name })}
        </h4>
        <div className="admin-test-chat__actions">
          <Button
            variant="secondary"
            disabled={count === 0}
            onClick={() => {
              chat.restart();
              inputRef.current?.focus();
            }}
          >
            {t('agentManagement.testChat.restart')}
          </Button>
          <Button variant="secondary" onClick={onClose}>
            {t('agentManagement.testChat.close')}
          </Button>
        </div>
      </header>
      <p className="field__hint">
        {agent.isActive
          ? t('agentManagement.testChat.hint')
          : t('agentManagement.testChat.inactiveHint')}
      </p>
      <div
        ref={logRef}
        className="admin-test-chat__log"
        role="log"
        aria-label={t('agentManagement.testChat.log', { name })}
        // Focusable: the keyboard must be able to scroll it.
        tabIndex={0}
      >
        <ol className="admin-test-chat__messages">
          {welcome && (
            <li className="admin-test-chat__message is-bot">
              <span className="admin-test-chat__who">{name}</span>
              <p>{welcome}</p>
            </li>
          )}
          {chat.messages.map((message) => (
            <li key={message.id} className={cx('admin-test-chat__message', `is-${message.sender}`)}>
              <span className="admin-test-chat__who">
                {message.sender === 'user' ? t('agentManagement.testChat.you') : name}
              </span>
              {message.sender === 'bot' ? (
                <Suspense fallback={<p className="admin-test-chat__plain">{message.text}</p>}>
                  <BotMarkdown text={message.text} />
                </Suspense>
              ) : (
                <p className="admin-test-chat__plain">{message.text}</p>
              )}
              {message.reason && <p className="admin-test-chat__reason">{message.reason}</p>}
            </li>
          ))}
          {chat.pending && (
            <li className="admin-test-chat__message is-bot is-typing">
              {t('agentManagement.testChat.typing', { name })}
            </li>
          )}
        </ol>
      </div>
      <ChatComposer
        className="admin-test-chat__composer"
        onSend={chat.send}
        pending={chat.pending}
        label={t('agentManagement.testChat.inputLabel', { name })}
        placeholder={t('agentManagement.testChat.placeholder')}
        textareaRef={inputRef}
      />
    </section>
  );
}
