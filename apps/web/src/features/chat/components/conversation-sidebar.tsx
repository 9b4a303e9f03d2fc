import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { ChevronIcon, RefreshIcon } from '@/components/ui/action-icons';
import { useConversations } from '@/features/chat/api/get-conversations';
import { useDateFormat } from '@/hooks/use-date-format';
import { useMediaQuery } from '@/hooks/use-media-query';
import { cx } from '@/lib/cx';

/** Where the sidebar sits beside the chat; below it, it folds behind its heading. */
const SIDE_BY_SIDE = '(min-width: 60rem)';

/** The part of an id that names a conversation on screen (spec §2: its last 6 characters). */
function shortId(id: string): string {
  return id.slice(-6);
}

/**
 * Other Auxtrat Conversations (spec §2): the user's other conversations with an agent, newest
 * first, each 'Conversation #' + the id's end, message count and created date; choosing one
 * opens it in the chat.
 */
export function ConversationSidebar({
  agentName,
  currentId,
  onOpen,
}: {
  agentName: string;
  currentId: string | null;
  onOpen: (id: string) => void;
}) {
  const { t } = useTranslation();
  const { dateTime } = useDateFormat();
  const headingId = useId();
  const bodyId = useId();
  const sideBySide = useMediaQuery(SIDE_BY_SIDE);
  const [expanded, setExpanded] = useState(false);
  const { data, isPending, isError, isFetching, refetch } = useConversations(agentName);

  const others = data?.conversations.filter((conversation) => conversation.id !== currentId) ?? [];
  const open = sideBySide || expanded;
  const title = t('auxtrat.otherConversations');

  return (
    <section className="card conversation-sidebar" aria-labelledby={headingId}>
      <div className="conversation-sidebar__header">
        <h2 id={headingId} className="conversation-sidebar__title">
          {sideBySide ? (
            title
          ) : (
            <button
              type="button"
              className="conversation-sidebar__toggle"
              aria-expanded={expanded}
              aria-controls={bodyId}
              onClick={() => setExpanded((value) => !value)}
            >
              <span>
                {title}
                {data && <span className="conversation-sidebar__count"> ({others.length})</span>}
              </span>
              <ChevronIcon />
            </button>
          )}
        </h2>
      </div>
      <div id={bodyId} className="conversation-sidebar__body" hidden={!open}>
        <Button
          variant="secondary"
          className={cx('conversation-sidebar__refresh', isFetching && 'is-busy')}
          aria-busy={isFetching || undefined}
          onClick={() => void refetch()}
        >
          <RefreshIcon />
          {t('auxtrat.refresh')}
        </Button>
        {isPending ? (
          <p className="conversation-sidebar__empty">{t('app.loading')}</p>
        ) : isError && !data ? (
          <p className="alert alert--error" role="alert">
            {t('auxtrat.conversationsFailed')}
          </p>
        ) : others.length === 0 ? (
          <p className="conversation-sidebar__empty">{t('auxtrat.noOtherConversations')}</p>
        ) : (
          <ul className="conversation-list">
            {others.map((conversation) => (
              <li key={conversation.id}>
                <button
                  type="button"
                  className="conversation-item"
                  onClick={() => onOpen(conversation.id)}
                >
                  <span className="conversation-item__title">
                    {t('auxtrat.conversation', { id: shortId(conversation.id) })}
                  </span>
                  <span className="conversation-item__meta">
                    <span>{t('auxtrat.messageCount', { count: conversation.messageCount })}</span>
                    <time dateTime={conversation.createdAt}>
                      {dateTime(conversation.createdAt)}
                    </time>
                  </span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
    </section>
  );
}
