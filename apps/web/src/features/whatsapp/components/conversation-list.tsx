import type { WhatsAppConversation } from '@contrateia/shared/whatsapp/whatsapp.schemas';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import {
  useDeleteConversation,
  useSetWhitelist,
  useToggleAi,
} from '@/features/whatsapp/api/conversation-actions';
import { AssignAgentDialog } from '@/features/whatsapp/components/assign-agent-dialog';
import { MediaIcon } from '@/features/whatsapp/components/message-media';
import { StatusIcon } from '@/features/whatsapp/components/status-icon';
import { useDateFormat } from '@/hooks/use-date-format';
import { errorMessage } from '@/lib/api-client';
import { cx } from '@/lib/cx';
import { contactDisplayName, formatPhoneNumber } from '@/features/whatsapp/contact-name';

/**
 * The conversations with their count; each opens in the chat pane and has AI ON/OFF and Delete
 * (after a confirmation). The enhanced page adds the status icon, the Whitelist toggle and Assign
 * Agent.
 */
export function ConversationList({
  conversations,
  total,
  more,
  selectedId,
  enhanced,
  onSelect,
  onDeleted,
}: {
  /** The conversations loaded so far (the list is read a page at a time), newest first. */
  conversations: WhatsAppConversation[];
  /** How many the account has, loaded or not. */
  total: number;
  /** Set while more are left to load: whether they are loading, and how to load them. */
  more?: { loading: boolean; load: () => void };
  selectedId: string | null;
  enhanced: boolean;
  onSelect: (id: string) => void;
  onDeleted: (id: string) => void;
}) {
  const { t } = useTranslation();
  const toggleAi = useToggleAi();
  const setWhitelist = useSetWhitelist();
  const [deleting, setDeleting] = useState<WhatsAppConversation | null>(null);
  const [assigning, setAssigning] = useState<WhatsAppConversation | null>(null);
  const failed = toggleAi.isError || setWhitelist.isError;
  const titleRef = useRef<HTMLHeadingElement>(null);
  // After a deletion the Delete button that had focus is gone (and the dialog's own return of
  // focus with it): focus goes to the conversation that took its place, or to the list's heading
  // when none is left. Undefined: nothing to do; null: the heading.
  const focusAfterDelete = useRef<string | null | undefined>(undefined);

  useEffect(() => {
    if (deleting !== null || focusAfterDelete.current === undefined) return;
    const next = focusAfterDelete.current;
    focusAfterDelete.current = undefined;
    const button =
      next === null
        ? null
        : document.querySelector<HTMLElement>(`[data-conversation="${CSS.escape(next)}"]`);
    (button ?? titleRef.current)?.focus();
  }, [deleting]);

  return (
    <section className="wa-list" aria-labelledby="wa-list-title">
      <header className="wa-list__header">
        <h2 ref={titleRef} id="wa-list-title" className="wa-list__title" tabIndex={-1}>
          {t('whatsapp.list.title')}
        </h2>
        <span className="wa-list__count">{t('whatsapp.list.count', { count: total })}</span>
      </header>
      <div role="alert">
        {failed && (
          <p className="alert alert--error">
            {errorMessage(toggleAi.error ?? setWhitelist.error, {
              failed: t('whatsapp.actionFailed'),
            })}
          </p>
        )}
      </div>
      {conversations.length === 0 ? (
        <p className="wa-list__empty">{t('whatsapp.list.empty')}</p>
      ) : (
        <ul className="wa-list__items">
          {conversations.map((conversation) => (
            <ConversationItem
              key={conversation.id}
              conversation={conversation}
              selected={conversation.id === selectedId}
              enhanced={enhanced}
              onSelect={() => onSelect(conversation.id)}
              onToggleAi={() =>
                toggleAi.mutate({ id: conversation.id, input: !conversation.ai_enabled })
              }
              onToggleWhitelist={() =>
                setWhitelist.mutate({ id: conversation.id, input: !conversation.is_whitelisted })
              }
              onAssign={() => setAssigning(conversation)}
              onDelete={() => setDeleting(conversation)}
            />
          ))}
        </ul>
      )}
      {more && <LoadMore loading={more.loading} onLoad={more.load} />}
      {deleting && (
        <DeleteDialog
          conversation={deleting}
          onClose={() => setDeleting(null)}
          onDeleted={() => {
            const index = conversations.findIndex((c) => c.id === deleting.id);
            const neighbour = conversations[index + 1] ?? conversations[index - 1];
            focusAfterDelete.current = neighbour?.id ?? null;
            setDeleting(null);
            onDeleted(deleting.id);
          }}
        />
      )}
      {assigning && (
        <AssignAgentDialog conversation={assigning} onClose={() => setAssigning(null)} />
      )}
    </section>
  );
}

/**
 * The list's end while more conversations are left: they load as it scrolls into view, or with
 * its button (from the keyboard, or where the browser cannot tell what is in view).
 */
function LoadMore({ loading, onLoad }: { loading: boolean; onLoad: () => void }) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDivElement>(null);
  const load = useRef(onLoad);
  load.current = onLoad;
  useEffect(() => {
    const end = ref.current;
    if (!end || typeof IntersectionObserver === 'undefined') return;
    const observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) load.current();
    });
    observer.observe(end);
    return () => observer.disconnect();
  }, []);
  return (
    <div ref={ref} className="wa-list__more">
      <button type="button" className="wa-action" disabled={loading} onClick={onLoad}>
        {loading ? t('whatsapp.list.loadingMore') : t('whatsapp.list.more')}
      </button>
    </div>
  );
}

function ConversationItem({
  conversation,
  selected,
  enhanced,
  onSelect,
  onToggleAi,
  onToggleWhitelist,
  onAssign,
  onDelete,
}: {
  conversation: WhatsAppConversation;
  selected: boolean;
  enhanced: boolean;
  onSelect: () => void;
  onToggleAi: () => void;
  onToggleWhitelist: () => void;
  onAssign: () => void;
  onDelete: () => void;
}) {
  const { t } = useTranslation();
  const { messageTime } = useDateFormat();
  const name = contactDisplayName(conversation, t);
  return (
    <li className={cx('wa-item', selected && 'is-selected')} aria-label={name}>
      <button
        type="button"
        data-conversation={conversation.id}
        className="wa-item__open"
        aria-current={selected || undefined}
        onClick={onSelect}
      >
        {enhanced && <StatusIcon status={conversation.status} />}
        <span className="wa-item__main">
          <span className="wa-item__name">{name}</span>
          {conversation.status === 'blocked' && !enhanced && (
            <span className="wa-item__blocked">{t('whatsapp.block.badge')}</span>
          )}
          {conversation.needs_human && (
            <span className="wa-item__needs-human">{t('whatsapp.needsHuman.badge')}</span>
          )}
          {conversation.contact_number &&
            name !== formatPhoneNumber(conversation.contact_number) && (
              <span className="wa-item__number">
                {formatPhoneNumber(conversation.contact_number)}
              </span>
            )}
          <span className="wa-item__last">
            {/* A photo or voice note without caption is named for what it is, as WhatsApp does. */}
            {conversation.last_message?.media && (
              <span className="wa-item__media">
                <MediaIcon kind={conversation.last_message.media} />
                {!conversation.last_message.text &&
                  t(`whatsapp.media.kind.${conversation.last_message.media}`)}
              </span>
            )}
            {conversation.last_message
              ? conversation.last_message.text
              : t('whatsapp.list.noMessages')}
          </span>
        </span>
        <span className="wa-item__side">
          <time dateTime={conversation.updated_at}>{messageTime(conversation.updated_at)}</time>
          {/* The open conversation is being read: no count to catch up on. */}
          {conversation.unread_count > 0 && !selected && (
            <span className="wa-item__unread">
              <span aria-hidden="true">{conversation.unread_count}</span>
              <span className="visually-hidden">
                {t('whatsapp.list.unread', { count: conversation.unread_count })}
              </span>
            </span>
          )}
        </span>
      </button>
      <div className="wa-item__actions">
        <button
          type="button"
          className={cx('wa-toggle', conversation.ai_enabled && 'is-on')}
          aria-pressed={conversation.ai_enabled}
          title={t('whatsapp.ai.label')}
          onClick={onToggleAi}
        >
          {conversation.ai_enabled ? t('whatsapp.ai.on') : t('whatsapp.ai.off')}
        </button>
        {enhanced && (
          <>
            <button
              type="button"
              className={cx('wa-toggle', conversation.is_whitelisted && 'is-on')}
              aria-pressed={conversation.is_whitelisted}
              onClick={onToggleWhitelist}
            >
              {t('whatsapp.whitelist.button')}
            </button>
            <button type="button" className="wa-action" onClick={onAssign}>
              {conversation.agent_display_name
                ? t('whatsapp.assign.current', { agent: conversation.agent_display_name })
                : t('whatsapp.assign.button')}
            </button>
          </>
        )}
        <button
          type="button"
          className="wa-action wa-action--danger"
          aria-label={t('whatsapp.delete.label', { name })}
          onClick={onDelete}
        >
          {t('whatsapp.delete.button')}
        </button>
      </div>
    </li>
  );
}

function DeleteDialog({
  conversation,
  onClose,
  onDeleted,
}: {
  conversation: WhatsAppConversation;
  onClose: () => void;
  onDeleted: () => void;
}) {
  const { t } = useTranslation();
  const remove = useDeleteConversation();
  return (
    <ConfirmDialog
      title={t('whatsapp.delete.title')}
      cancelLabel={t('whatsapp.delete.cancel')}
      confirmLabel={t('whatsapp.delete.confirm')}
      busy={remove.isPending}
      onConfirm={() => remove.mutate(conversation.id, { onSuccess: onDeleted })}
      onClose={onClose}
    >
      <p>{t('whatsapp.delete.question')}</p>
      <p className="wa-delete__who">{contactDisplayName(conversation, t)}</p>
      {remove.isError && (
        <p className="alert alert--error" role="alert">
          {errorMessage(remove.error, { failed: t('whatsapp.delete.failed') })}
        </p>
      )}
    </ConfirmDialog>
  );
}
