import type { Agent } from '@contrateia/shared';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { QrIcon } from '@/components/ui/action-icons';
import { ChatPage } from '@/features/chat/components/chat-page';
import { PairingDialog } from '@/features/chat/components/pairing-dialog';

/**
 * Auxtrat: the agent page with its list titled Other Auxtrat Conversations, and Sync Agent, which
 * pairs the current conversation by QR code. A conversation exists only once a message has been
 * sent, so Sync Agent waits for one (and says so).
 */
export function AuxtratChat({ agent }: { agent: Agent }) {
  const { t } = useTranslation();
  const [syncing, setSyncing] = useState(false);
  const hintId = useId();
  const showHint = (conversationId: string | null, loading: boolean) => !conversationId && !loading;

  return (
    <ChatPage
      agent={agent}
      listTitle={t('auxtrat.otherConversations')}
      othersOnly
      actions={(chat) => (
        <Button
          variant="secondary"
          disabled={!chat.conversationId}
          aria-describedby={showHint(chat.conversationId, chat.loading) ? hintId : undefined}
          onClick={() => setSyncing(true)}
        >
          <QrIcon />
          {t('auxtrat.sync')}
        </Button>
      )}
      notice={(chat) =>
        showHint(chat.conversationId, chat.loading) && (
          <p id={hintId} className="chat__hint">
            {t('auxtrat.syncHint')}
          </p>
        )
      }
    >
      {(chat) =>
        syncing &&
        chat.conversationId && (
          <PairingDialog conversationId={chat.conversationId} onClose={() => setSyncing(false)} />
        )
      }
    </ChatPage>
  );
}
