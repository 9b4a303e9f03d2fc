import { WHATSAPP_PHOTO_TYPES } from '@contrateia/shared/whatsapp/whatsapp.schemas';
import { useRef, useState, type ChangeEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { CloseIcon, PaperclipIcon } from '@/components/ui/action-icons';
import { useSendMedia } from '@/features/whatsapp/api/conversation-actions';
import { useWhatsAppStatus } from '@/features/whatsapp/api/get-status';
import { errorMessage } from '@/lib/api-client';
import { formatBytes } from '@/lib/byte-format';

/**
 * What the paper clip offers: photos, and the documents a business sends (PDF, Office and
 * OpenDocument files, text, CSV). No `capture`: a phone offers its gallery and its files, not
 * only the camera. The server reads each file's real type anyway.
 */
const ACCEPT = [
  'image/*',
  'application/pdf',
  '.pdf',
  '.doc',
  '.docx',
  '.xls',
  '.xlsx',
  '.ppt',
  '.pptx',
  '.odt',
  '.ods',
  '.odp',
  '.rtf',
  '.txt',
  '.csv',
  '.zip',
].join(',');

/**
 * The composer's file: chosen with the paper clip, kept until it is sent or removed, and sent
 * with the typed text as its caption. A file over the server's limit (WHATSAPP_MEDIA_MAX_MB, told
 * by the status) is refused at once, saying the limit; the server refuses it too.
 */
export function useAttachment(conversationId: string) {
  const { t, i18n } = useTranslation();
  const maxBytes = useWhatsAppStatus().data?.mediaMaxBytes;
  const sendMedia = useSendMedia();
  const [file, setFile] = useState<File | null>(null);
  const [refusal, setRefusal] = useState('');
  return {
    file,
    sending: sendMedia.isPending,
    /** Why the file chosen was not taken, or not sent ('' when nothing went wrong). */
    error:
      refusal ||
      (sendMedia.isError
        ? errorMessage(sendMedia.error, { failed: t('whatsapp.chat.sendFileFailed') })
        : ''),
    /** Takes `chosen` in place of the file before, unless it is too large. */
    choose(chosen: File) {
      sendMedia.reset();
      if (maxBytes !== undefined && chosen.size > maxBytes) {
        setRefusal(t('whatsapp.chat.fileTooLarge', { size: formatBytes(maxBytes, i18n.language) }));
        return;
      }
      setRefusal('');
      setFile(chosen);
    },
    remove() {
      setFile(null);
      setRefusal('');
      sendMedia.reset();
    },
    /** Sends the file with `caption`; `onSent` once the server stored it (pending, like a text). */
    send(caption: string, onSent: () => void) {
      if (!file) return;
      sendMedia.mutate(
        { id: conversationId, file, caption },
        {
          onSuccess: () => {
            setFile(null);
            onSent();
          },
        },
      );
    },
    /** Forgets the last error (the user is typing again). */
    resetError() {
      setRefusal('');
      if (sendMedia.isError) sendMedia.reset();
    },
  };
}

/** The paper clip: opens the device's file chooser (gallery, files, camera as the phone offers). */
export function AttachButton({
  disabled,
  onChoose,
}: {
  disabled: boolean;
  onChoose: (file: File) => void;
}) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const handleChange = (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = event.target.files?.[0];
    // Emptied: the same file chosen again (after removing it) is a change again.
    event.target.value = '';
    if (chosen) onChoose(chosen);
  };
  return (
    <>
      <button
        type="button"
        className="wa-composer__attach"
        aria-label={t('whatsapp.chat.attach')}
        title={t('whatsapp.chat.attach')}
        disabled={disabled}
        onClick={() => input.current?.click()}
      >
        <PaperclipIcon />
      </button>
      <input
        ref={input}
        type="file"
        accept={ACCEPT}
        hidden
        tabIndex={-1}
        disabled={disabled}
        onChange={handleChange}
      />
    </>
  );
}

/** The chosen file above the text box: its name and size, and a button to remove it. */
export function AttachmentChip({
  file,
  sending,
  onRemove,
}: {
  file: File;
  sending: boolean;
  onRemove: () => void;
}) {
  const { t, i18n } = useTranslation();
  // The server sends as a photo only what WhatsApp shows as one; another image (a GIF, a HEIC
  // from an iPhone…) reaches the contact as a file to download, and the owner knows it first.
  const asDocument =
    file.type.startsWith('image/') &&
    !(WHATSAPP_PHOTO_TYPES as readonly string[]).includes(file.type);
  return (
    <>
      <div className="wa-attachment" role="group" aria-label={t('whatsapp.chat.attached')}>
        <PaperclipIcon />
        <span className="wa-attachment__name">{file.name}</span>
        <span className="wa-attachment__size">{formatBytes(file.size, i18n.language)}</span>
        {sending ? (
          <span className="wa-attachment__sending" role="status">
            {t('whatsapp.chat.sendingFile')}
          </span>
        ) : (
          <button
            type="button"
            className="wa-attachment__remove"
            aria-label={t('whatsapp.chat.removeFile', { name: file.name })}
            onClick={onRemove}
          >
            <CloseIcon />
          </button>
        )}
      </div>
      {asDocument && <p className="wa-attachment-note">{t('whatsapp.chat.imageAsDocument')}</p>}
    </>
  );
}
