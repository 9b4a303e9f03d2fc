import { lazy, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import type { ChatEntry } from '@/features/chat/chat-entry';
import { TypingIndicator } from '@/features/chat/components/typing-indicator';
import { useDateFormat } from '@/hooks/use-date-format';
import { cx } from '@/lib/cx';

const BotMarkdown = lazy(() => import('@/features/chat/components/bot-markdown'));

/** Plain text, whitespace kept; React escapes it, so HTML shows as text. */
function PlainText({ text }: { text: string }) {
  return <p className="chat-text">{text}</p>;
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
      {time && (
        <time className="chat-message__time" dateTime={entry.timestamp}>
          {time}
        </time>
      )}
    </li>
  );
}
