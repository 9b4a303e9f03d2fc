import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ChatEntry } from '@/features/chat/chat-entry';
import { CheckIcon, CopyIcon } from '@/features/chat/components/chat-icons';
import { TypingIndicator } from '@/features/chat/components/typing-indicator';
import { useDateFormat } from '@/hooks/use-date-format';
import { cx } from '@/lib/cx';

const BotMarkdown = lazy(() => import('@/features/chat/components/bot-markdown'));

/** Plain text, whitespace kept; React escapes it, so HTML shows as text. */
function PlainText({ text }: { text: string }) {
  return <p className="chat-text">{text}</p>;
}

/** Puts text on the clipboard: the Clipboard API, else (plain HTTP) a selected hidden textarea. */
async function copyText(text: string): Promise<void> {
  // Only secure contexts (HTTPS, localhost) have the Clipboard API.
  if (typeof navigator.clipboard?.writeText === 'function') {
    await navigator.clipboard.writeText(text);
    return;
  }
  const area = document.createElement('textarea');
  area.value = text;
  area.setAttribute('readonly', '');
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.append(area);
  area.select();
  const copied = document.execCommand('copy');
  area.remove();
  if (!copied) throw new Error('copy refused');
}

/** Copy on a reply: the reply's text as written (Markdown), then a short "Copied" in its place. */
function CopyButton({ text }: { text: string }) {
  const { t } = useTranslation();
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const handleCopy = () => {
    copyText(text).then(
      () => setState('copied'),
      () => setState('failed'),
    );
  };
  return (
    <span className="chat-message__tools">
      <button
        type="button"
        className="chat-message__tool"
        onClick={handleCopy}
        onBlur={() => setState('idle')}
      >
        {state === 'copied' ? <CheckIcon /> : <CopyIcon />}
        {t('agentChat.copy')}
      </button>
      <span className="chat-message__tool-status" role="status">
        {state === 'copied'
          ? t('agentChat.copied')
          : state === 'failed'
            ? t('agentChat.copyFailed')
            : ''}
      </span>
    </span>
  );
}

/**
 * One message: the user's on the right as plain text, the agent's on the left as Markdown (plain
 * until the Markdown chunk arrives), errors as plain text. While a reply has no text yet, the
 * typing indicator stands in for it.
 */
export function ChatMessageItem({ entry, agentName }: { entry: ChatEntry; agentName: string }) {
  const { t } = useTranslation();
  const { messageTime } = useDateFormat();
  const fromUser = entry.sender === 'user';
  const author = fromUser ? t('agentChat.you') : (entry.author ?? agentName);
  const time = entry.streaming ? '' : messageTime(entry.timestamp);
  // Each finished reply can be copied (not the welcome, not an error, not one still arriving).
  const canCopy = !fromUser && !entry.streaming && !entry.type && entry.text.trim().length > 0;

  if (entry.streaming && !entry.text) {
    return (
      <li className="chat-message chat-message--bot">
        <div className="chat-message__bubble">
          <TypingIndicator />
        </div>
      </li>
    );
  }

  return (
    <li
      className={cx(
        'chat-message',
        fromUser ? 'chat-message--user' : 'chat-message--bot',
        entry.type && `chat-message--${entry.type}`,
      )}
    >
      {entry.author && !fromUser ? (
        <span className="chat-message__author">{entry.author}</span>
      ) : (
        <span className="visually-hidden">{author}:</span>
      )}
      <div className="chat-message__bubble">
        {fromUser || entry.type === 'error' ? (
          <PlainText text={entry.text} />
        ) : (
          <Suspense fallback={<PlainText text={entry.text} />}>
            <BotMarkdown text={entry.text} />
          </Suspense>
        )}
      </div>
      {entry.stopped && <p className="chat-message__stopped">{t('agentChat.stopped')}</p>}
      {(time || canCopy) && (
        <div className="chat-message__footer">
          {time && (
            <time className="chat-message__time" dateTime={entry.timestamp}>
              {time}
            </time>
          )}
          {canCopy && <CopyButton text={entry.text} />}
        </div>
      )}
    </li>
  );
}
