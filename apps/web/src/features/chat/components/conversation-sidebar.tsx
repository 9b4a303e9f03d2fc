import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { HistoryIcon } from '@/features/chat/components/chat-icons';
import { ConversationList } from '@/features/chat/components/conversation-list';
import { useMediaQuery } from '@/hooks/use-media-query';

/** Where the list sits beside the chat; narrower, it opens as a drawer from the chat's header. */
const SIDE_BY_SIDE = '(min-width: 60rem)';

/** Whether the conversation list fits beside the chat (else it is a drawer). */
export function useSideBySide(): boolean {
  return useMediaQuery(SIDE_BY_SIDE);
}

export interface ConversationSidebarProps {
  agentName: string;
  /** The list's heading ('Other Auxtrat Conversations' on auxtrat's page). */
  title: string;
  currentId: string | null;
  /** Leave the conversation on screen out of the list (auxtrat's "other conversations"). */
  othersOnly?: boolean;
  onOpen: (id: string) => void;
  onDeleted: (id: string) => void;
}

/**
 * The conversation list of an agent page as a side panel on wide screens, the same list as
 * ConversationList renders it.
 */
export function ConversationSidebar({ title, ...list }: ConversationSidebarProps) {
  const headingId = useId();
  return (
    <section className="card conversation-sidebar" aria-labelledby={headingId}>
      <div className="conversation-sidebar__header">
        <h2 id={headingId} className="conversation-sidebar__title">
          {title}
        </h2>
      </div>
      <div className="conversation-sidebar__body">
        <ConversationList {...list} />
      </div>
    </section>
  );
}

/**
 * On a phone: a button (for the chat's header) that opens the list as a drawer, a modal dialog
 * (Escape closes it, focus stays inside and returns to the button). Choosing a conversation
 * closes it.
 */
export function ConversationDrawer({ title, onOpen, ...list }: ConversationSidebarProps) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="secondary" aria-haspopup="dialog" onClick={() => setOpen(true)}>
        <HistoryIcon />
        {t('conversations.open')}
      </Button>
      {open && (
        <Dialog
          title={title}
          onClose={() => setOpen(false)}
          className="dialog--drawer"
          footer={
            <Button variant="secondary" onClick={() => setOpen(false)}>
              {t('auxtrat.close')}
            </Button>
          }
        >
          <ConversationList
            {...list}
            onOpen={(id) => {
              setOpen(false);
              onOpen(id);
            }}
          />
        </Dialog>
      )}
    </>
  );
}
