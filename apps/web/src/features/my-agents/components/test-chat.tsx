import type { MyAgent } from '@contrateia/shared';
import { lazy, Suspense, useEffect, useId, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { ChatComposer } from '@/features/chat/components/chat-composer';
import { useTestChat } from '@/features/my-agents/hooks/use-test-chat';
import { cx } from '@/lib/cx';

// react-markdown is most of the chat's weight: loaded with the first reply, as the chat does.
const BotMarkdown = lazy(() => import('@/features/chat/components/bot-markdown'));

/**
 * A chat with the saved agent beside its form, through the agent's own chat API, in a
 * conversation of its own: it answers with what was last saved, which it says, and says again
 * while the form holds changes not yet saved.
 */
export function TestChat({ agent, unsaved }: { agent: MyAgent; unsaved: boolean }) {
  const { t } = useTranslation();
  const titleId = useId();
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const logRef = useRef<HTMLDivElement>(null);
  const chat = useTestChat(agent.name);
  const name = agent.displayName;

  // The newest line in view: the log scrolls inside the panel.
  const count = chat.lines.length;
  useEffect(() => {
    const log = logRef.current;
    if (log && count > 0) log.scrollTop = log.scrollHeight;
  }, [count, chat.pending]);

  return (
    <section className="my-agent-test" aria-labelledby={titleId}>
      <div className="my-agent-test__header">
        <h2 id={titleId} className="my-agent-test__title">
          {t('ownAgents.test.title', { name })}
        </h2>
        <Button
          variant="secondary"
          className="my-agent-test__restart"
          disabled={count === 0}
          onClick={() => {
            chat.restart();
            inputRef.current?.focus();
          }}
        >
          {t('ownAgents.test.restart')}
        </Button>
      </div>
      <p className="my-agent-test__hint">{t('ownAgents.test.hint')}</p>
      {unsaved && <p className="my-agent-test__unsaved">{t('ownAgents.test.unsaved')}</p>}
      <div
        ref={logRef}
        className="my-agent-test__log"
        role="log"
        aria-label={t('ownAgents.test.log', { name })}
        // Focusable: the keyboard must be able to scroll it.
        tabIndex={0}
      >
        {count === 0 && !chat.pending && (
          <p className="my-agent-test__empty">{t('ownAgents.test.empty')}</p>
        )}
        <ol className="my-agent-test__lines">
          {chat.lines.map((line) => (
            <li key={line.id} className={cx('my-agent-test__line', `is-${line.sender}`)}>
              <span className="my-agent-test__who">
                {line.sender === 'user' ? t('ownAgents.test.you') : name}
              </span>
              {line.sender === 'bot' ? (
                <Suspense fallback={<p className="my-agent-test__plain">{line.text}</p>}>
                  <BotMarkdown text={line.text} />
                </Suspense>
              ) : (
                <p className="my-agent-test__plain">{line.text}</p>
              )}
            </li>
          ))}
          {chat.pending && (
            <li className="my-agent-test__line is-bot is-typing">
              {t('ownAgents.test.typing', { name })}
            </li>
          )}
        </ol>
      </div>
      <ChatComposer
        className="my-agent-test__composer"
        onSend={chat.send}
        pending={chat.pending}
        label={t('ownAgents.test.inputLabel', { name })}
        placeholder={t('ownAgents.test.placeholder')}
        textareaRef={inputRef}
      />
    </section>
  );
}
