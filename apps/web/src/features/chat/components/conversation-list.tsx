import {
  renameConversationSchema,
  SEARCH_MAX_LENGTH,
  type ConversationSummary,
} from '@contrateia/shared';
import type { ParseKeys } from 'i18next';
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { RefreshIcon } from '@/components/ui/action-icons';
import { useDeleteConversation } from '@/features/chat/api/delete-conversation';
import { useConversations } from '@/features/chat/api/get-conversations';
import { useRenameConversation } from '@/features/chat/api/rename-conversation';
import { PencilIcon, TrashIcon } from '@/features/chat/components/chat-icons';
import { useDebouncedValue } from '@/hooks/use-debounced-value';
import { useDateFormat } from '@/hooks/use-date-format';
import { ApiError } from '@/lib/api-client';
import { cx } from '@/lib/cx';

/** The part of an id that names a conversation on screen: its last 6 characters. */
function shortId(id: string): string {
  return id.slice(-6);
}

const SEARCH_DELAY_MS = 250;

/** The server's field message for a refused title, else its message, else `fallback`. */
function errorText(error: unknown, fallback: string): string {
  if (
    error instanceof ApiError &&
    (error.status === 400 || error.status === 404 || error.status === 409)
  ) {
    return error.errors?.title || error.message || fallback;
  }
  return fallback;
}

/**
 * The user's conversations with an agent: newest first, each titled from its first message (or its
 * new name) with 'Conversation #' + the id's end, message count and date; a search over titles and
 * messages; Refresh; and per conversation Rename (in place: Enter saves, Escape cancels) and Delete
 * (after a confirmation). Choosing one opens it. The conversation on screen is listed too, marked
 * as such, unless `othersOnly` (auxtrat's list is of its *other* conversations).
 */
export function ConversationList({
  agentName,
  currentId,
  othersOnly = false,
  onOpen,
  onDeleted,
}: {
  agentName: string;
  currentId: string | null;
  othersOnly?: boolean;
  onOpen: (id: string) => void;
  /** After a conversation is deleted (the page starts afresh if it was the one shown). */
  onDeleted: (id: string) => void;
}) {
  const { t } = useTranslation();
  const searchId = useId();
  const [search, setSearch] = useState('');
  // The server is asked once typing pauses, not on every key.
  const query = useDebouncedValue(search.trim(), SEARCH_DELAY_MS);
  const { data, isPending, isError, isFetching, refetch } = useConversations(agentName, query);
  const [renaming, setRenaming] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<ConversationSummary | null>(null);
  const [notice, setNotice] = useState('');
  // Where focus goes once a rename or a deletion is over (its controls are gone by then).
  const [focusAfter, setFocusAfter] = useState<
    { to: 'search' } | { to: 'rename'; id: string } | null
  >(null);
  const searchRef = useRef<HTMLInputElement>(null);
  const listRef = useRef<HTMLUListElement>(null);

  useEffect(() => {
    if (!focusAfter) return;
    const target =
      focusAfter.to === 'search'
        ? searchRef.current
        : listRef.current?.querySelector<HTMLElement>(`[data-rename="${focusAfter.id}"]`);
    (target ?? searchRef.current)?.focus();
    setFocusAfter(null);
  }, [focusAfter]);

  const all = data?.conversations ?? [];
  const shown = othersOnly ? all.filter((conversation) => conversation.id !== currentId) : all;

  return (
    <div className="conversation-list-panel">
      <div className="conversation-list-panel__tools">
        <label htmlFor={searchId} className="visually-hidden">
          {t('conversations.searchLabel')}
        </label>
        <input
          ref={searchRef}
          id={searchId}
          type="search"
          className="field__input conversation-list-panel__search"
          placeholder={t('conversations.searchPlaceholder')}
          value={search}
          maxLength={SEARCH_MAX_LENGTH}
          onChange={(event) => setSearch(event.target.value)}
        />
        <Button
          variant="secondary"
          className={cx('conversation-sidebar__refresh', isFetching && 'is-busy')}
          aria-busy={isFetching || undefined}
          onClick={() => void refetch()}
        >
          <RefreshIcon />
          {t('auxtrat.refresh')}
        </Button>
      </div>
      <p className="visually-hidden" role="status">
        {notice}
      </p>
      {isPending ? (
        <p className="conversation-sidebar__empty">{t('app.loading')}</p>
      ) : isError && !data ? (
        <p className="alert alert--error" role="alert">
          {t('auxtrat.conversationsFailed')}
        </p>
      ) : shown.length === 0 ? (
        <p className="conversation-sidebar__empty">
          {query
            ? t('conversations.noMatches')
            : othersOnly
              ? t('auxtrat.noOtherConversations')
              : t('conversations.empty')}
        </p>
      ) : (
        <ul ref={listRef} className="conversation-list">
          {shown.map((conversation) =>
            renaming === conversation.id ? (
              <li key={conversation.id}>
                <RenameForm
                  conversation={conversation}
                  onDone={(renamedTo) => {
                    setRenaming(null);
                    setFocusAfter({ to: 'rename', id: conversation.id });
                    if (renamedTo) setNotice(t('conversations.renamed', { title: renamedTo }));
                  }}
                />
              </li>
            ) : (
              <ConversationItem
                key={conversation.id}
                conversation={conversation}
                current={conversation.id === currentId}
                onOpen={onOpen}
                onRename={() => setRenaming(conversation.id)}
                onDelete={() => setDeleting(conversation)}
              />
            ),
          )}
        </ul>
      )}
      {deleting && (
        <DeleteDialog
          conversation={deleting}
          onClose={() => setDeleting(null)}
          onDeleted={() => {
            setDeleting(null);
            setFocusAfter({ to: 'search' });
            setNotice(t('conversations.deleted'));
            onDeleted(deleting.id);
          }}
        />
      )}
    </div>
  );
}

function ConversationItem({
  conversation,
  current,
  onOpen,
  onRename,
  onDelete,
}: {
  conversation: ConversationSummary;
  /** The conversation on screen. */
  current: boolean;
  onOpen: (id: string) => void;
  onRename: () => void;
  onDelete: () => void;
}) {
  const { t } = useTranslation();
  const { dateTime } = useDateFormat();
  const name = t('auxtrat.conversation', { id: shortId(conversation.id) });
  const title = conversation.title || name;
  return (
    <li className={cx('conversation-item-row', current && 'is-current')}>
      <button
        type="button"
        className="conversation-item"
        aria-current={current || undefined}
        onClick={() => onOpen(conversation.id)}
      >
        <span className="conversation-item__title">{title}</span>
        <span className="conversation-item__meta">
          {current && (
            <span className="conversation-item__current">{t('conversations.current')}</span>
          )}
          {conversation.title && <span>{name}</span>}
          <span>{t('auxtrat.messageCount', { count: conversation.messageCount })}</span>
          <time dateTime={conversation.updatedAt}>{dateTime(conversation.updatedAt)}</time>
        </span>
      </button>
      <span className="conversation-item__actions">
        <button
          type="button"
          className="icon-button"
          data-rename={conversation.id}
          aria-label={t('conversations.rename', { title })}
          title={t('conversations.renameShort')}
          onClick={onRename}
        >
          <PencilIcon />
        </button>
        <button
          type="button"
          className="icon-button icon-button--danger"
          aria-label={t('conversations.delete', { title })}
          title={t('conversations.deleteShort')}
          onClick={onDelete}
        >
          <TrashIcon />
        </button>
      </span>
    </li>
  );
}

/** Rename in place: the title field takes focus; Enter saves, Escape (or Cancel) leaves it as it was. */
function RenameForm({
  conversation,
  onDone,
}: {
  conversation: ConversationSummary;
  onDone: (renamedTo?: string) => void;
}) {
  const { t } = useTranslation();
  const id = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const [title, setTitle] = useState(conversation.title);
  const rename = useRenameConversation();
  const [error, setError] = useState('');

  useEffect(() => {
    inputRef.current?.focus();
    inputRef.current?.select();
  }, []);

  const handleSubmit = (event: FormEvent) => {
    event.preventDefault();
    // The server's own rule, so a refusal reads the same here and there.
    const parsed = renameConversationSchema.safeParse({ title });
    if (!parsed.success) {
      setError(t((parsed.error.issues[0]?.message ?? 'validation.titleRequired') as ParseKeys));
      return;
    }
    rename.mutate(
      { id: conversation.id, input: parsed.data },
      {
        onSuccess: (result) => onDone(result.conversation.title),
        onError: (failure) => setError(errorText(failure, t('conversations.renameFailed'))),
      },
    );
  };

  return (
    <form
      className="conversation-rename"
      noValidate
      onSubmit={handleSubmit}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.preventDefault();
          event.stopPropagation();
          onDone();
        }
      }}
    >
      <label htmlFor={id} className="visually-hidden">
        {t('conversations.titleLabel')}
      </label>
      <input
        ref={inputRef}
        id={id}
        className="field__input"
        value={title}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? `${id}-error` : undefined}
        onChange={(event) => {
          setTitle(event.target.value);
          setError('');
        }}
      />
      {error && (
        <p id={`${id}-error`} className="field__error" role="alert">
          {error}
        </p>
      )}
      <span className="conversation-rename__actions">
        <Button type="submit" disabled={rename.isPending}>
          {t('conversations.save')}
        </Button>
        <Button variant="secondary" onClick={() => onDone()}>
          {t('conversations.cancel')}
        </Button>
      </span>
    </form>
  );
}

function DeleteDialog({
  conversation,
  onClose,
  onDeleted,
}: {
  conversation: ConversationSummary;
  onClose: () => void;
  onDeleted: () => void;
}) {
  const { t } = useTranslation();
  const remove = useDeleteConversation();
  const title = conversation.title || t('auxtrat.conversation', { id: shortId(conversation.id) });
  return (
    <ConfirmDialog
      title={t('conversations.deleteTitle')}
      cancelLabel={t('conversations.cancel')}
      confirmLabel={t('conversations.deleteConfirm')}
      busy={remove.isPending}
      onConfirm={() => remove.mutate(conversation.id, { onSuccess: onDeleted })}
      onClose={onClose}
    >
      <p>{t('conversations.deleteQuestion', { title })}</p>
      {remove.isError && (
        <p className="alert alert--error" role="alert">
          {errorText(remove.error, t('conversations.deleteFailed'))}
        </p>
      )}
    </ConfirmDialog>
  );
}
