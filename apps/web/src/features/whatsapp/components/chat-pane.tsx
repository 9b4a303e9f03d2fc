import { isBlankText } from '@contrateia/shared/chat/chat.schemas';
import {
  WHATSAPP_MESSAGE_MAX_LENGTH,
  type WhatsAppConversation,
  type WhatsAppDeliveryStatus,
} from '@contrateia/shared/whatsapp/whatsapp.schemas';
import { useEffect, useId, useLayoutEffect, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { SendIcon } from '@/components/ui/action-icons';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import {
  useResumeAgent,
  useRetryMessage,
  useSendMessage,
  useSetBlocked,
} from '@/features/whatsapp/api/conversation-actions';
import { useWhatsAppAgents } from '@/features/whatsapp/api/get-agents';
import { useWhatsAppConversation } from '@/features/whatsapp/api/get-conversations';
import { useWhatsAppStatus } from '@/features/whatsapp/api/get-status';
import { useDateFormat } from '@/hooks/use-date-format';
import { useHasPassed } from '@/hooks/use-has-passed';
import { errorMessage } from '@/lib/api-client';
import { cx } from '@/lib/cx';
import { contactDisplayName, formatPhoneNumber } from '@/features/whatsapp/contact-name';
import {
  AttachButton,
  AttachmentChip,
  useAttachment,
} from '@/features/whatsapp/components/composer-attachment';
import { MessageMedia } from '@/features/whatsapp/components/message-media';
import { WhatsAppText } from '@/features/whatsapp/components/whatsapp-text';

/**
 * The open conversation: who it is with, Manual Mode or AI Assistant Active, the messages, and a
 * box to write to the contact. A send that fails puts the text back.
 */
export function ChatPane({
  conversation,
  focusOnOpen,
  onBack,
}: {
  conversation: WhatsAppConversation;
  /** On one column the list gives way to the pane: its heading takes focus (and the view). */
  focusOnOpen: boolean;
  onBack: () => void;
}) {
  const { t } = useTranslation();
  const { messageTime } = useDateFormat();
  const detail = useWhatsAppConversation(conversation.id);
  const setBlocked = useSetBlocked();
  const resumeAgent = useResumeAgent();
  const [confirmingBlock, setConfirmingBlock] = useState(false);
  const blockedByOwner = conversation.blocked_reason === 'owner';
  const messagesRef = useRef<HTMLOListElement>(null);
  const titleRef = useRef<HTMLHeadingElement>(null);
  const name = contactDisplayName(conversation, t);
  const messages = detail.data?.messages ?? [];
  // A reply carries its agent's internal name; the user knows the agent by its display name.
  const agents = useWhatsAppAgents();
  const agentLabel = (agentName: string) =>
    agents.data?.find((agent) => agent.name === agentName)?.displayName ?? agentName;

  // Once per opening (the pane is keyed by conversation).
  const focusedOnOpen = useRef(false);
  useEffect(() => {
    if (!focusOnOpen || focusedOnOpen.current) return;
    focusedOnOpen.current = true;
    titleRef.current?.focus();
  }, [focusOnOpen]);

  // The newest message in view as it arrives (not when older ones are put before it).
  const newestId = messages.at(-1)?.id;
  useEffect(() => {
    const list = messagesRef.current;
    if (list) list.scrollTop = list.scrollHeight;
  }, [newestId]);
  // The newest message grown by its status (why it failed, Retry) stays in view, if it was.
  const newestStatus = messages.at(-1)?.status;
  useEffect(() => {
    const list = messagesRef.current;
    if (list && list.scrollHeight - list.scrollTop - list.clientHeight < NEAR_END_PX)
      list.scrollTop = list.scrollHeight;
  }, [newestStatus]);

  // Older messages load as the user scrolls to the top, and what was in view stays in view: the
  // scroll moves down by what was put above it.
  const heightBeforeOlder = useRef<number | null>(null);
  const loadOlder = () => {
    if (!detail.hasNextPage || detail.isFetchingNextPage) return;
    heightBeforeOlder.current = messagesRef.current?.scrollHeight ?? null;
    void detail.fetchNextPage();
  };
  const oldestId = messages[0]?.id;
  useLayoutEffect(() => {
    const list = messagesRef.current;
    const before = heightBeforeOlder.current;
    if (!list || before === null) return;
    heightBeforeOlder.current = null;
    list.scrollTop += list.scrollHeight - before;
  }, [oldestId]);

  // The pause ends at its time on an open page too (the server says nothing then).
  const pauseOver = useHasPassed(conversation.paused_until);
  const pausedUntil = pauseOver ? null : conversation.paused_until;
  // Nobody answers a contact without an agent of its own while the account has no default one.
  const status = useWhatsAppStatus();
  const hasAgent =
    conversation.agent_id !== null || !status.data || status.data.defaultAgentId !== null;
  const answering =
    conversation.ai_enabled && conversation.status === 'active' && !pausedUntil && hasAgent;

  return (
    <section className="wa-chat" aria-labelledby="wa-chat-title">
      <header className="wa-chat__header">
        <Button variant="ghost" className="wa-chat__back" onClick={onBack}>
          <span aria-hidden="true">‹ </span>
          {t('whatsapp.chat.back')}
        </Button>
        <div className="wa-chat__who">
          <h2 ref={titleRef} id="wa-chat-title" className="wa-chat__title" tabIndex={-1}>
            {name}
          </h2>
          {conversation.contact_number &&
            name !== formatPhoneNumber(conversation.contact_number) && (
              <span className="wa-chat__number">
                {formatPhoneNumber(conversation.contact_number)}
              </span>
            )}
        </div>
        {/* "Active" only while the agent answers: AI on, and the contact neither blocked, pending nor taken over. */}
        <span className={cx('wa-mode', answering ? 'wa-mode--ai' : 'wa-mode--manual')}>
          {!conversation.ai_enabled
            ? t('whatsapp.chat.manualMode')
            : answering
              ? t('whatsapp.chat.aiActive')
              : t('whatsapp.chat.aiOnHold')}
        </span>
        {/* Block stops the agent for good (after a question); Unblock lifts any block at once. */}
        <Button
          variant="secondary"
          className="wa-chat__block"
          disabled={setBlocked.isPending}
          aria-label={t(
            conversation.status === 'blocked'
              ? 'whatsapp.block.unblockLabel'
              : 'whatsapp.block.label',
            { name },
          )}
          onClick={() =>
            conversation.status === 'blocked'
              ? setBlocked.mutate({ id: conversation.id, input: false })
              : setConfirmingBlock(true)
          }
        >
          {conversation.status === 'blocked'
            ? t('whatsapp.block.unblock')
            : t('whatsapp.block.button')}
        </Button>
        {/* Why the agent does not answer this contact now (the server decides). */}
        {conversation.status === 'blocked' || conversation.status === 'pending' ? (
          <p className={cx('wa-chat__note', `wa-chat__note--${conversation.status}`)} role="status">
            {conversation.status === 'pending'
              ? t('whatsapp.chat.pendingNote')
              : blockedByOwner
                ? t('whatsapp.chat.blockedByOwnerNote')
                : conversation.blocked_until
                  ? t('whatsapp.chat.blockedUntilNote', {
                      time: messageTime(conversation.blocked_until),
                    })
                  : t('whatsapp.chat.blockedNote')}
          </p>
        ) : null}
        {/* The owner wrote to the contact: the agent is paused until then (the server says). */}
        {conversation.ai_enabled && pausedUntil && conversation.status !== 'blocked' ? (
          <div className="wa-chat__note wa-chat__note--paused" role="status">
            <p>
              {t(
                conversation.needs_human
                  ? 'whatsapp.chat.handedOverNote'
                  : 'whatsapp.chat.pausedNote',
                { time: messageTime(pausedUntil) },
              )}
            </p>
            <Button
              variant="secondary"
              className="wa-chat__resume"
              disabled={resumeAgent.isPending}
              aria-label={t('whatsapp.chat.resumeLabel')}
              onClick={() => resumeAgent.mutate({ id: conversation.id, input: undefined })}
            >
              {t('whatsapp.chat.resume')}
            </Button>
          </div>
        ) : null}
        {resumeAgent.isError && (
          <p className="alert alert--error" role="alert">
            {errorMessage(resumeAgent.error, { failed: t('whatsapp.chat.resumeFailed') })}
          </p>
        )}
        {setBlocked.isError && !confirmingBlock && (
          <p className="alert alert--error" role="alert">
            {errorMessage(setBlocked.error, { failed: t('whatsapp.block.failed') })}
          </p>
        )}
        {/* A blocked contact's flood beyond the day's allowance is counted, not kept. */}
        {conversation.dropped_count > 0 && (
          <p className="wa-chat__note wa-chat__note--blocked">
            {t('whatsapp.chat.dropped', { count: conversation.dropped_count })}
          </p>
        )}
      </header>
      {/* The messages, and above them (while older ones are left) the way to load them. */}
      <div className="wa-chat__body">
        {detail.hasNextPage && (
          <div className="wa-chat__older">
            <Button variant="ghost" disabled={detail.isFetchingNextPage} onClick={loadOlder}>
              {detail.isFetchingNextPage
                ? t('whatsapp.chat.loadingOlder')
                : t('whatsapp.chat.older')}
            </Button>
          </div>
        )}
        {detail.isError && !detail.data ? (
          <p className="alert alert--error" role="alert">
            {t('whatsapp.chat.loadFailed')}
          </p>
        ) : (
          // Focusable, so the messages scroll from the keyboard too.
          <ol
            ref={messagesRef}
            className="wa-chat__messages"
            tabIndex={0}
            aria-label={t('whatsapp.chat.messages')}
            aria-busy={detail.isPending || detail.isFetchingNextPage || undefined}
            onScroll={(event) => {
              if (event.currentTarget.scrollTop < OLDER_AT_PX) loadOlder();
            }}
          >
            {messages.map((message) => (
              <li key={message.id} className={cx('wa-message', `wa-message--${message.sender}`)}>
                <span className="wa-message__sender">
                  {message.sender === 'contact'
                    ? name
                    : message.agentName
                      ? t('whatsapp.chat.agent', { agent: agentLabel(message.agentName) })
                      : t('whatsapp.chat.you')}
                </span>
                {message.deleted ? (
                  <p className="wa-message__text wa-message__text--deleted">
                    {t('whatsapp.chat.deleted')}
                  </p>
                ) : (
                  <>
                    {message.media && <MessageMedia media={message.media} />}
                    {/* With media, the text is its caption, and often there is none. */}
                    {(message.text || !message.media) && (
                      <p className="wa-message__text">
                        <WhatsAppText text={message.text} />
                      </p>
                    )}
                  </>
                )}
                {message.unanswered && (
                  <p className="wa-message__unanswered">{t('whatsapp.chat.unanswered')}</p>
                )}
                <span className="wa-message__meta">
                  {message.editedAt && (
                    <span className="wa-message__edited">{t('whatsapp.chat.edited')}</span>
                  )}
                  <time className="wa-message__time" dateTime={message.timestamp}>
                    {messageTime(message.timestamp)}
                  </time>
                  {/* Beside the time, as WhatsApp shows them. */}
                  {message.status && <Ticks status={message.status} />}
                </span>
                {message.status === 'failed' && (
                  <SendFailure
                    conversationId={conversation.id}
                    messageId={message.id}
                    error={message.statusError}
                  />
                )}
                {message.reactions && message.reactions.length > 0 && (
                  <ul className="wa-message__reactions" aria-label={t('whatsapp.chat.reactions')}>
                    {message.reactions.map((reaction) => (
                      <li
                        key={reaction.sender}
                        className="wa-reaction"
                        title={reaction.sender === 'contact' ? name : t('whatsapp.chat.you')}
                      >
                        {reaction.emoji}
                      </li>
                    ))}
                  </ul>
                )}
              </li>
            ))}
          </ol>
        )}
      </div>
      <Composer conversationId={conversation.id} name={name} />
      {confirmingBlock && (
        <ConfirmDialog
          title={t('whatsapp.block.title')}
          cancelLabel={t('whatsapp.block.cancel')}
          confirmLabel={t('whatsapp.block.confirm')}
          busy={setBlocked.isPending}
          onConfirm={() =>
            setBlocked.mutate(
              { id: conversation.id, input: true },
              { onSuccess: () => setConfirmingBlock(false) },
            )
          }
          onClose={() => {
            setConfirmingBlock(false);
            setBlocked.reset();
          }}
        >
          <p>{t('whatsapp.block.question', { name })}</p>
          {setBlocked.isError && (
            <p className="alert alert--error" role="alert">
              {errorMessage(setBlocked.error, { failed: t('whatsapp.block.failed') })}
            </p>
          )}
        </ConfirmDialog>
      )}
    </section>
  );
}

/** WhatsApp's marks of where an outgoing message stands: ✓ sent, ✓✓ delivered, blue ✓✓ read. */
const TICKS: Record<WhatsAppDeliveryStatus, string> = {
  pending: '🕓',
  sent: '✓',
  delivered: '✓✓',
  read: '✓✓',
  failed: '!',
};

/** An outgoing message's ticks, named for screen readers. */
function Ticks({ status }: { status: WhatsAppDeliveryStatus }) {
  const { t } = useTranslation();
  const label = t(`whatsapp.chat.status.${status}`);
  return (
    <span className={cx('wa-ticks', `wa-ticks--${status}`)} data-status={status}>
      <span role="img" aria-label={label} title={label}>
        {TICKS[status]}
      </span>
    </span>
  );
}

/** Why a message was not sent, and Retry. */
function SendFailure({
  conversationId,
  messageId,
  error,
}: {
  conversationId: string;
  messageId: string;
  error?: string;
}) {
  const { t } = useTranslation();
  const retry = useRetryMessage();
  return (
    <span className="wa-send-failure">
      {error && <span className="wa-ticks__error">{error}</span>}
      <Button
        variant="secondary"
        disabled={retry.isPending}
        onClick={() => retry.mutate({ id: conversationId, messageId })}
      >
        {t('whatsapp.chat.retry')}
      </Button>
      {retry.isError && (
        <span role="alert" className="wa-ticks__error">
          {errorMessage(retry.error, { failed: t('whatsapp.chat.retryFailed') })}
        </span>
      )}
    </span>
  );
}

/** How near its end (in pixels) the list of messages follows its newest message as it grows. */
const NEAR_END_PX = 160;

/** How near the top of the messages (in pixels) the older ones start loading. */
const OLDER_AT_PX = 48;

/**
 * Enter sends, Shift+Enter makes a new line; blank text is not sent. The paper clip attaches a
 * photo or a document, sent with the typed text as its caption.
 */
function Composer({ conversationId, name }: { conversationId: string; name: string }) {
  const { t } = useTranslation();
  const id = useId();
  const [text, setText] = useState('');
  const send = useSendMessage();
  const attachment = useAttachment(conversationId);
  const { file } = attachment;
  const sending = send.isPending || attachment.sending;
  const tooLong = text.trim().length > WHATSAPP_MESSAGE_MAX_LENGTH;
  const canSend = (file !== null || !isBlankText(text)) && !tooLong && !sending;

  const handleSend = () => {
    if (!canSend) return;
    const typed = text;
    if (file) {
      // The caption stays in the box while the file goes, and is cleared once the server has it.
      attachment.send(typed.trim(), () => setText((current) => (current === typed ? '' : current)));
      return;
    }
    setText('');
    send.mutate(
      { id: conversationId, text: typed.trim() },
      // Back into the box, unless something new was typed meanwhile.
      { onError: () => setText((current) => (current.trim() ? current : typed)) },
    );
  };

  const handleKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    handleSend();
  };

  const error = send.isError
    ? errorMessage(send.error, { failed: t('whatsapp.chat.sendFailed') })
    : attachment.error;

  return (
    <form
      className="wa-composer"
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        handleSend();
      }}
    >
      <label htmlFor={id} className="visually-hidden">
        {t('whatsapp.chat.messageLabel', { name })}
      </label>
      {file && (
        <AttachmentChip file={file} sending={attachment.sending} onRemove={attachment.remove} />
      )}
      <div className="wa-composer__row">
        <AttachButton
          disabled={sending}
          onChoose={(chosen) => {
            if (send.isError) send.reset();
            attachment.choose(chosen);
          }}
        />
        <textarea
          id={id}
          className="wa-composer__input"
          rows={1}
          value={text}
          placeholder={t(file ? 'whatsapp.chat.captionPlaceholder' : 'whatsapp.chat.placeholder')}
          readOnly={attachment.sending}
          aria-invalid={tooLong || undefined}
          aria-describedby={error || tooLong ? `${id}-error` : undefined}
          onChange={(event) => {
            setText(event.target.value);
            if (send.isError) send.reset();
            attachment.resetError();
          }}
          onKeyDown={handleKeyDown}
        />
        <Button type="submit" className="wa-composer__send" disabled={!canSend}>
          <SendIcon />
          <span className="wa-composer__send-label">{t('whatsapp.chat.send')}</span>
        </Button>
      </div>
      <div id={`${id}-error`} role="alert">
        {(error || tooLong) && (
          <p className="field__error">{tooLong ? t('whatsapp.chat.tooLong') : error}</p>
        )}
      </div>
    </form>
  );
}
