import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { LoadingScreen } from '@/components/ui/loading-screen';
import { useWhatsAppConversations } from '@/features/whatsapp/api/get-conversations';
import { useWhatsAppStatus } from '@/features/whatsapp/api/get-status';
import { useUpdateSettings } from '@/features/whatsapp/api/update-settings';
import { AnsweringAgent } from '@/features/whatsapp/components/answering-agent';
import { ChatPane } from '@/features/whatsapp/components/chat-pane';
import { ConnectionPanel } from '@/features/whatsapp/components/connection-panel';
import { ConversationList } from '@/features/whatsapp/components/conversation-list';
import { ConversationTabs } from '@/features/whatsapp/components/conversation-tabs';
import { useWhatsAppFollowLanguage } from '@/features/whatsapp/hooks/use-whatsapp-follow-language';
import { useWhatsAppLive } from '@/features/whatsapp/hooks/use-whatsapp-live';
import { useDocumentTitle } from '@/hooks/use-document-title';
import { useMediaQuery } from '@/hooks/use-media-query';
import { errorMessage } from '@/lib/api-client';
import { cx } from '@/lib/cx';
import '@/features/whatsapp/whatsapp.css';

/**
 * /whatsapp and /whatsapp-enhanced: the connection, the conversations and the chat pane, kept live
 * by the server's events. `enhanced` adds the status icons, Whitelist, Assign Agent, whitelist mode
 * and the Active Conversations tabs. On a phone the list and the open conversation take the screen
 * in turn.
 */
export function WhatsAppPage({ enhanced = false }: { enhanced?: boolean }) {
  const { t } = useTranslation();
  const title = enhanced ? t('whatsapp.enhancedTitle') : t('whatsapp.pageTitle');
  useDocumentTitle(title);
  const { liveState, authFailure, lastMerge } = useWhatsAppLive();
  useWhatsAppFollowLanguage();
  const status = useWhatsAppStatus();
  const conversations = useWhatsAppConversations();
  const [chosenId, setChosenId] = useState<string | null>(null);
  const panelId = useId();
  // Below this width the list and the open conversation take the screen in turn (whatsapp.css).
  const oneColumn = useMediaQuery('(max-width: 55.99rem)');
  const closedId = useRef<string | null>(null);

  // Back from a conversation: focus returns to it in the list, where the user left.
  useEffect(() => {
    if (chosenId !== null || closedId.current === null) return;
    document.querySelector<HTMLElement>(`[data-conversation="${closedId.current}"]`)?.focus();
    closedId.current = null;
  }, [chosenId]);

  // The open conversation merged into the contact's other one: that one is open now.
  useEffect(() => {
    if (lastMerge) setChosenId((id) => (id === lastMerge.from ? lastMerge.into : id));
  }, [lastMerge]);

  const list = conversations.data ?? [];
  // A conversation deleted (here or elsewhere) is no longer open.
  const selected = list.find((c) => c.id === chosenId) ?? null;

  if (status.isPending) return <LoadingScreen inline label={t('app.loading')} />;

  return (
    <div className={cx('wa-page', selected && 'has-selection')}>
      <header className="wa-page__header">
        <div>
          <h1 className="wa-page__title">{title}</h1>
          <p className="wa-page__intro">{t('whatsapp.intro')}</p>
          {status.data && <AnsweringAgent defaultAgentId={status.data.defaultAgentId} />}
        </div>
        {status.data ? (
          <ConnectionPanel status={status.data} liveState={liveState} authFailure={authFailure} />
        ) : (
          <p className="alert alert--error" role="alert">
            {errorMessage(status.error, { failed: t('whatsapp.state.failed') })}
          </p>
        )}
      </header>
      {enhanced && status.data && (
        <EnhancedSettings whitelistMode={status.data.whitelistMode} counts={status.data} />
      )}
      {enhanced && (
        <ConversationTabs
          conversations={list}
          selectedId={selected?.id ?? null}
          panelId={panelId}
          onSelect={setChosenId}
        />
      )}
      <div className="wa-page__body">
        {conversations.isPending ? (
          <p className="wa-list__empty">{t('app.loading')}</p>
        ) : conversations.isError && !conversations.data ? (
          <div className="wa-list">
            <p className="alert alert--error" role="alert">
              {t('whatsapp.list.loadFailed')}
            </p>
            <Button variant="secondary" onClick={() => void conversations.refetch()}>
              {t('whatsapp.list.retry')}
            </Button>
          </div>
        ) : (
          <ConversationList
            conversations={list}
            total={Math.max(list.length, status.data?.conversationsCount ?? 0)}
            more={
              conversations.hasNextPage
                ? {
                    loading: conversations.isFetchingNextPage,
                    load: () => {
                      if (!conversations.isFetchingNextPage) void conversations.fetchNextPage();
                    },
                  }
                : undefined
            }
            selectedId={selected?.id ?? null}
            enhanced={enhanced}
            onSelect={setChosenId}
            onDeleted={(id) => setChosenId((current) => (current === id ? null : current))}
          />
        )}
        <div id={panelId} className="wa-page__pane">
          {selected ? (
            <ChatPane
              key={selected.id}
              conversation={selected}
              focusOnOpen={oneColumn}
              onBack={() => {
                closedId.current = selected.id;
                setChosenId(null);
              }}
            />
          ) : (
            <p className="wa-page__choose">{t('whatsapp.chat.choose')}</p>
          )}
        </div>
      </div>
    </div>
  );
}

/** Whitelist mode and the counts the status carries (enhanced page). */
function EnhancedSettings({
  whitelistMode,
  counts,
}: {
  whitelistMode: boolean;
  counts: {
    conversationsCount: number;
    aiEnabledCount: number;
    whitelistedCount: number;
    agentAssignedCount: number;
  };
}) {
  const { t } = useTranslation();
  const settings = useUpdateSettings();
  const hintId = useId();
  const stats = [
    [t('whatsapp.stats.conversations'), counts.conversationsCount],
    [t('whatsapp.stats.aiEnabled'), counts.aiEnabledCount],
    [t('whatsapp.stats.whitelisted'), counts.whitelistedCount],
    [t('whatsapp.stats.withAgent'), counts.agentAssignedCount],
  ] as const;
  return (
    <div className="wa-settings">
      <dl className="wa-stats" aria-label={t('whatsapp.stats.label')}>
        {stats.map(([label, value]) => (
          <div key={label} className="wa-stats__item">
            <dt>{label}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <div className="wa-switch">
        <label className="wa-switch__label">
          <input
            type="checkbox"
            role="switch"
            checked={whitelistMode}
            disabled={settings.isPending}
            aria-describedby={hintId}
            onChange={(event) => settings.mutate({ whitelistMode: event.target.checked })}
          />
          <span>{t('whatsapp.whitelistMode.label')}</span>
        </label>
        <p id={hintId} className="wa-switch__hint">
          {t('whatsapp.whitelistMode.hint')}
        </p>
        <div role="alert">
          {settings.isError && (
            <p className="alert alert--error">
              {errorMessage(settings.error, { failed: t('whatsapp.whitelistMode.failed') })}
            </p>
          )}
        </div>
      </div>
    </div>
  );
}
