import type { Ref } from 'react';
import { useTranslation } from 'react-i18next';
import type { ChatEntry } from '@/features/chat/chat-entry';
import { ChatMessageItem } from '@/features/chat/components/chat-message';
import { cx } from '@/lib/cx';

/**
 * The scrolling list of messages. It takes keyboard focus (a scrolling region must be reachable
 * without a mouse) and is not itself a live region: streamed text would be read out piece by
 * piece; the chat announces whole replies separately.
 */
export function MessageList({
  messages,
  agentName,
  label,
  loading = false,
  className,
  containerRef,
  contentRef,
  onScroll,
}: {
  messages: ChatEntry[];
  agentName: string;
  label: string;
  loading?: boolean;
  className?: string;
  containerRef: Ref<HTMLDivElement>;
  contentRef: Ref<HTMLOListElement>;
  onScroll: () => void;
}) {
  const { t } = useTranslation();
  return (
    <div
      ref={containerRef}
      className={cx('chat-messages', className)}
      role="region"
      aria-label={label}
      aria-busy={loading || undefined}
      tabIndex={0}
      onScroll={onScroll}
    >
      <ol ref={contentRef} className="chat-messages__list">
        {messages.map((entry) => (
          <ChatMessageItem key={entry.id} entry={entry} agentName={agentName} />
        ))}
      </ol>
      {loading && (
        <div className="chat-messages__loading" role="status">
          <span className="spinner spinner--small" aria-hidden="true" />
          <span>{t('agentChat.loadingHistory')}</span>
        </div>
      )}
    </div>
  );
}
