import { isBlankText, MESSAGE_MAX_LENGTH } from '@contrateia/shared';
import { useId, useState, type KeyboardEvent, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { SendIcon } from '@/components/ui/action-icons';
import { StopIcon } from '@/features/chat/components/chat-icons';
import type { RefusedMessage } from '@/features/chat/hooks/use-chat';
import { useRetryCountdown } from '@/features/chat/hooks/use-retry-countdown';
import { cx } from '@/lib/cx';
import '@/features/chat/components/chat-composer.css';

/** The counter appears when a message gets this close to the limit. */
const COUNTER_FROM = MESSAGE_MAX_LENGTH - 400;

/**
 * The message box: Enter sends, Shift+Enter makes a new line, blank messages are not sent, and
 * nothing is sent while a reply is pending (the text stays editable meanwhile). Over
 * MESSAGE_MAX_LENGTH the shared validation message shows and sending stops; the text is not cut, so
 * a long paste can be trimmed by hand instead of silently losing its end.
 *
 * While a reply streams, Stop (when `onStop` is given) takes Send's place. A message the rate
 * limit refused (`refused`) comes back into the box with the server's message, and sending waits
 * for the time the server gave, counting down.
 */
export function ChatComposer({
  onSend,
  pending,
  disabled = false,
  label,
  placeholder,
  textareaRef,
  className,
  onStop,
  refused = null,
}: {
  /** Returns whether the message was taken; the box empties only then. */
  onSend: (text: string) => boolean;
  /** Stops the reply being streamed; without it there is no Stop button. */
  onStop?: () => void;
  refused?: RefusedMessage | null;
  pending: boolean;
  disabled?: boolean;
  label: string;
  placeholder: string;
  textareaRef?: Ref<HTMLTextAreaElement>;
  className?: string;
}) {
  const { t } = useTranslation();
  const id = useId();
  const counterId = `${id}-counter`;
  const errorId = `${id}-error`;
  const refusedId = `${id}-refused`;
  const [text, setText] = useState('');

  // A refused message comes back into the box (adjusting state while rendering, once per refusal).
  const [restored, setRestored] = useState<RefusedMessage | null>(null);
  if (refused !== restored) {
    setRestored(refused);
    if (refused && !text.trim()) setText(refused.text);
  }
  const waitSeconds = useRetryCountdown(refused?.retryAt ?? null);

  const tooLong = text.trim().length > MESSAGE_MAX_LENGTH;
  const showCounter = text.length >= COUNTER_FROM;
  // The shared schema's rule: invisible characters alone (zero-width…) are as blank as spaces.
  const canSend = !isBlankText(text) && !tooLong && !pending && !disabled && waitSeconds === 0;

  const handleSend = () => {
    if (canSend && onSend(text)) setText('');
  };

  const handleKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    // Not while an input method is composing: there Enter confirms the composition.
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    handleSend();
  };

  const describedBy = [showCounter && counterId, tooLong && errorId, refused && refusedId]
    .filter(Boolean)
    .join(' ');
  const stopping = pending && onStop;

  return (
    <form
      className={cx('chat-composer', className)}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        handleSend();
      }}
    >
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      <div className="chat-composer__row">
        <textarea
          ref={textareaRef}
          id={id}
          className="chat-composer__input"
          rows={1}
          value={text}
          placeholder={placeholder}
          aria-invalid={tooLong || undefined}
          aria-describedby={describedBy || undefined}
          onChange={(event) => setText(event.target.value)}
          onKeyDown={handleKeyDown}
        />
        {stopping ? (
          // Keys: a different button, so a double click on Send never lands on Stop.
          <Button
            key="stop"
            variant="secondary"
            className="chat-composer__send chat-composer__stop"
            onClick={onStop}
          >
            <StopIcon />
            <span className="chat-composer__send-label">{t('agentChat.stop')}</span>
          </Button>
        ) : (
          <Button key="send" type="submit" className="chat-composer__send" disabled={!canSend}>
            <SendIcon />
            <span className="chat-composer__send-label">{t('agentChat.send')}</span>
          </Button>
        )}
      </div>
      {refused && (
        <div id={refusedId} className="chat-composer__refused" role="alert">
          <p className="field__error">{refused.error}</p>
          <p className="chat-composer__wait">
            {waitSeconds > 0
              ? t('agentChat.retryIn', { count: waitSeconds })
              : t('agentChat.retryNow')}
          </p>
        </div>
      )}
      {(showCounter || tooLong) && (
        <div className="chat-composer__meta">
          {tooLong && (
            <p id={errorId} className="field__error" role="alert">
              {t('validation.messageTooLong')}
            </p>
          )}
          {showCounter && (
            <p id={counterId} className={cx('chat-composer__counter', tooLong && 'is-over')}>
              {t('agentChat.counter', { count: text.length, max: MESSAGE_MAX_LENGTH })}
            </p>
          )}
        </div>
      )}
    </form>
  );
}
