import type { Agent } from '@contrateia/shared';
import { useEffect, useId, useRef, useState, type ReactNode, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { AgentAvatar } from '@/features/chat/components/agent-avatar';
import { MessageList } from '@/features/chat/components/message-list';
import { ChatComposer } from '@/features/chat/components/chat-composer';
import type { ChatController } from '@/features/chat/hooks/use-chat';
import { useAutoScroll } from '@/features/chat/hooks/use-auto-scroll';
import '@/features/chat/chat.css';

/**
 * An agent's chat: the agent's name and description with Clear Chat (and any other `actions`), the
 * messages, and the message box. Whole replies are announced to screen readers.
 */
export function ChatWindow({
  agent,
  chat,
  actions,
  notice,
  inputRef,
}: {
  agent: Agent;
  chat: ChatController;
  /** The message box, for a parent that moves focus there. */
  inputRef?: RefObject<HTMLTextAreaElement | null>;
  actions?: ReactNode;
  /** Shown under the header, e.g. a hint about the actions. */
  notice?: ReactNode;
}) {
  const { t } = useTranslation();
  const titleId = useId();
  const ownInputRef = useRef<HTMLTextAreaElement>(null);
  const textareaRef = inputRef ?? ownInputRef;
  const { containerRef, contentRef, handleScroll, follow } = useAutoScroll<
    HTMLDivElement,
    HTMLOListElement
  >(chat.messages);

  const handleSend = (text: string) => {
    const sent = chat.send(text);
    if (sent) follow();
    return sent;
  };

  // indirect showed a message to relay: Send and Cancel say its "yes" and "no" for the person.
  const last = chat.messages.at(-1);
  const confirming = !chat.pending && last?.sender === 'bot' && last.awaits === 'relayConfirm';

  // Clear Chat asks first; once the question is gone, focus goes to the message box.
  const [confirmingClear, setConfirmingClear] = useState(false);
  const [focusBox, setFocusBox] = useState(false);
  useEffect(() => {
    // After the dialog's own cleanup has handed focus back to Clear Chat.
    if (!focusBox) return;
    textareaRef.current?.focus();
    setFocusBox(false);
  }, [focusBox, textareaRef]);

  const handleClear = () => {
    setConfirmingClear(false);
    chat.clear();
    follow();
    setFocusBox(true);
  };

  return (
    <section className="chat card" aria-labelledby={titleId}>
      <header className="chat__header">
        <div className="chat__heading">
          <AgentAvatar name={agent.name} displayName={agent.displayName} />
          <div className="chat__titles">
            <h1 id={titleId} className="chat__title">
              {agent.displayName}
            </h1>
            <p className="chat__description">{agent.description}</p>
          </div>
        </div>
        <div className="chat__actions">
          {actions}
          <Button
            variant="secondary"
            aria-haspopup="dialog"
            onClick={() => setConfirmingClear(true)}
          >
            {t('agentChat.clear')}
          </Button>
        </div>
      </header>
      {notice}
      {chat.loadFailed && (
        <p className="alert alert--error chat__notice" role="alert">
          {t('agentChat.historyFailed')}
        </p>
      )}
      <MessageList
        messages={chat.messages}
        agentName={agent.displayName}
        label={t('agentChat.messagesLabel', { name: agent.displayName })}
        loading={chat.loading}
        containerRef={containerRef}
        contentRef={contentRef}
        onScroll={handleScroll}
      />
      {confirming && (
        <div className="chat__confirm" role="group" aria-label={t('agentChat.relay.label')}>
          <Button onClick={() => handleSend(t('agentChat.relay.yes'))}>
            {t('agentChat.relay.send')}
          </Button>
          <Button variant="secondary" onClick={() => handleSend(t('agentChat.relay.no'))}>
            {t('agentChat.relay.cancel')}
          </Button>
        </div>
      )}
      <div className="visually-hidden" aria-live="polite">
        {chat.announcement}
      </div>
      <ChatComposer
        textareaRef={textareaRef}
        onSend={handleSend}
        pending={chat.pending}
        onStop={chat.stop}
        refused={chat.refused}
        disabled={chat.loading}
        label={t('agentChat.inputLabel', { name: agent.displayName })}
        placeholder={t('agentChat.placeholder')}
      />
      {confirmingClear && (
        <Dialog
          title={t('agentChat.clearTitle')}
          onClose={() => setConfirmingClear(false)}
          footer={
            <>
              <Button variant="secondary" onClick={() => setConfirmingClear(false)}>
                {t('conversations.cancel')}
              </Button>
              <Button onClick={handleClear}>{t('agentChat.clearConfirm')}</Button>
            </>
          }
        >
          <p>{t('agentChat.clearQuestion')}</p>
        </Dialog>
      )}
    </section>
  );
}
