import type { Agent } from '@contrateia/shared';
import { useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { QrIcon } from '@/components/ui/action-icons';
import { ChatWindow } from '@/features/chat/components/chat-window';
import { ConversationSidebar } from '@/features/chat/components/conversation-sidebar';
import { PairingDialog } from '@/features/chat/components/pairing-dialog';
import { useChat } from '@/features/chat/hooks/use-chat';
import { useDocumentTitle } from '@/hooks/use-document-title';

/**
 * Auxtrat (spec §2): the chat, the sidebar of the user's other auxtrat conversations, and Sync
 * Agent, which pairs the current conversation by QR code. A conversation exists only once a
 * message has been sent, so Sync Agent waits for one (and says so).
 */
export function AuxtratChat({ agent }: { agent: Agent }) {
  const { t } = useTranslation();
  useDocumentTitle(agent.displayName);
  const chat = useChat({
    agentName: agent.name,
    welcomeMessage: agent.configuration.welcomeMessage,
  });
  const [syncing, setSyncing] = useState(false);
  const hintId = useId();
  const conversationId = chat.conversationId;
  const showHint = !conversationId && !chat.loading;
  const inputRef = useRef<HTMLTextAreaElement>(null);

  // The chosen entry leaves the list (it is now the current one): focus goes to the message box.
  const handleOpen = (id: string) => {
    chat.open(id);
    inputRef.current?.focus();
  };

  return (
    <div className="chat-layout chat-layout--with-sidebar">
      <ChatWindow
        agent={agent}
        chat={chat}
        inputRef={inputRef}
        actions={
          <Button
            variant="secondary"
            disabled={!conversationId}
            aria-describedby={showHint ? hintId : undefined}
            onClick={() => setSyncing(true)}
          >
            <QrIcon />
            {t('auxtrat.sync')}
          </Button>
        }
        notice={
          showHint && (
            <p id={hintId} className="chat__hint">
              {t('auxtrat.syncHint')}
            </p>
          )
        }
      />
      <ConversationSidebar agentName={agent.name} currentId={conversationId} onOpen={handleOpen} />
      {syncing && conversationId && (
        <PairingDialog
          conversationId={conversationId}
          agentName={agent.name}
          onClose={() => setSyncing(false)}
        />
      )}
    </div>
  );
}
