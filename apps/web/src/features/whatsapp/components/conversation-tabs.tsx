import type { WhatsAppConversation } from '@contrateia/shared/whatsapp/whatsapp.schemas';
import { useRef, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { StatusIcon } from '@/features/whatsapp/components/status-icon';
import { cx } from '@/lib/cx';
import { contactDisplayName } from '@/features/whatsapp/contact-name';

/** Tabs show the first 10 conversations. */
export const TAB_COUNT = 10;

/**
 * Active Conversations (enhanced page): a tab per conversation, the first 10 of the list, opening
 * it in the chat pane. Arrow keys, Home and End move between tabs (only the chosen tab is in the
 * Tab order, as the tabs pattern has it).
 */
export function ConversationTabs({
  conversations,
  selectedId,
  panelId,
  onSelect,
}: {
  conversations: WhatsAppConversation[];
  selectedId: string | null;
  panelId: string;
  onSelect: (id: string) => void;
}) {
  const { t } = useTranslation();
  const listRef = useRef<HTMLDivElement>(null);
  const tabs = conversations.slice(0, TAB_COUNT);
  if (tabs.length === 0) return null;
  const focusable = tabs.some((c) => c.id === selectedId) ? selectedId : tabs[0]?.id;

  const handleKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = tabs.findIndex((c) => c.id === (event.target as HTMLElement).dataset.id);
    if (index < 0) return;
    const next =
      event.key === 'ArrowRight'
        ? (index + 1) % tabs.length
        : event.key === 'ArrowLeft'
          ? (index - 1 + tabs.length) % tabs.length
          : event.key === 'Home'
            ? 0
            : event.key === 'End'
              ? tabs.length - 1
              : null;
    if (next === null) return;
    event.preventDefault();
    const id = tabs[next]?.id;
    if (!id) return;
    onSelect(id);
    listRef.current?.querySelector<HTMLElement>(`[data-id="${id}"]`)?.focus();
  };

  return (
    <div className="wa-tabs">
      <h2 className="wa-tabs__title" id="wa-tabs-title">
        {t('whatsapp.tabs.label')}
      </h2>
      <div
        ref={listRef}
        role="tablist"
        aria-labelledby="wa-tabs-title"
        className="wa-tabs__list"
        onKeyDown={handleKeyDown}
      >
        {tabs.map((conversation) => {
          const selected = conversation.id === selectedId;
          return (
            <button
              key={conversation.id}
              type="button"
              role="tab"
              data-id={conversation.id}
              aria-selected={selected}
              aria-controls={selected ? panelId : undefined}
              tabIndex={conversation.id === focusable ? 0 : -1}
              className={cx('wa-tab', selected && 'is-selected')}
              onClick={() => onSelect(conversation.id)}
            >
              <StatusIcon status={conversation.status} />
              <span className="wa-tab__name">{contactDisplayName(conversation, t)}</span>
              {conversation.unread_count > 0 && !selected && (
                <span className="wa-item__unread" aria-hidden="true">
                  {conversation.unread_count}
                </span>
              )}
            </button>
          );
        })}
      </div>
    </div>
  );
}
