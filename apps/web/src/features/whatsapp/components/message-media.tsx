import {
  whatsappPreviewMedia,
  type WhatsAppMedia,
  type WhatsAppPreviewMedia,
} from '@contrateia/shared/whatsapp/whatsapp.schemas';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Icon } from '@/components/ui/icons';
import { formatBytes } from '@/lib/byte-format';
import { cx } from '@/lib/cx';

/**
 * What a message carries besides its text, as WhatsApp shows it: a photo or sticker as a
 * thumbnail that opens full size, a voice note or audio as a player with its length (and what was
 * said, once transcribed), a video with its player, a document with its name, size and a download,
 * a location with a map link, a contact card with its name and number. A file that is not kept
 * says why. Files come from the server's own signed addresses; nothing here is ever run.
 */
export function MessageMedia({ media }: { media: WhatsAppMedia }) {
  const { t, i18n } = useTranslation();
  const size = media.size === undefined ? undefined : formatBytes(media.size, i18n.language);

  if (media.kind === 'location') return <LocationCard media={media} />;
  if (media.kind === 'contact') {
    return (
      <div className="wa-media wa-media--card">
        <span className="wa-media__icon">
          <MediaIcon kind="contact" />
        </span>
        <div className="wa-media__card-text">
          <span className="wa-media__label">{t('whatsapp.media.contact')}</span>
          {media.contactName && <strong>{media.contactName}</strong>}
          {media.contactNumber && <span dir="ltr">{media.contactNumber}</span>}
        </div>
      </div>
    );
  }
  if (!media.url) {
    // Not kept (too large, not what it said, expired…): what it was, and why it is not here.
    return (
      <div className="wa-media wa-media--card wa-media--unavailable">
        <span className="wa-media__icon">
          <MediaIcon kind={kindKey(media)} />
        </span>
        <div className="wa-media__card-text">
          <span className="wa-media__label">
            {[media.fileName ?? t(`whatsapp.media.kind.${kindKey(media)}`), size]
              .filter(Boolean)
              .join(' · ')}
          </span>
          <span className="wa-media__reason">
            {t(`whatsapp.media.unavailable.${media.unavailable ?? 'download-failed'}`)}
          </span>
        </div>
      </div>
    );
  }
  switch (media.kind) {
    case 'image':
    case 'sticker':
      return <Picture media={media} url={media.url} />;
    case 'audio':
      return (
        <div className="wa-media wa-media--audio">
          <span className="wa-media__label">
            <MediaIcon kind={kindKey(media)} />
            {t(`whatsapp.media.kind.${kindKey(media)}`)}
            {media.seconds !== undefined && (
              <span className="wa-media__duration"> · {duration(media.seconds)}</span>
            )}
          </span>
          <audio className="wa-media__player" controls preload="metadata" src={media.url}>
            <a href={media.url}>{t('whatsapp.media.download')}</a>
          </audio>
          {media.transcript !== undefined && (
            <blockquote className="wa-media__transcript">
              <span className="wa-media__label">{t('whatsapp.media.transcript')}</span>
              <p>{media.transcript}</p>
            </blockquote>
          )}
        </div>
      );
    case 'video':
      return (
        <div className="wa-media wa-media--video">
          {/* The sender's still, else the first frame: the browser reads just enough to show it. */}
          <video
            className="wa-media__video"
            controls
            preload="metadata"
            src={media.url}
            poster={media.poster}
          >
            <a href={media.url}>{t('whatsapp.media.download')}</a>
          </video>
          {media.seconds !== undefined && (
            <span className="wa-media__duration">
              {t('whatsapp.media.kind.video')} · {duration(media.seconds)}
            </span>
          )}
        </div>
      );
    default:
      return (
        <div className="wa-media wa-media--card">
          <span className="wa-media__icon">
            <MediaIcon kind="document" />
          </span>
          <div className="wa-media__card-text">
            <strong className="wa-media__name">
              {media.fileName ?? t('whatsapp.media.kind.document')}
            </strong>
            <span className="wa-media__reason">
              {[size, typeName(media.mimetype)].filter(Boolean).join(' · ')}
            </span>
          </div>
          <a
            className="wa-media__download"
            href={media.url}
            download={media.fileName ?? true}
            aria-label={t('whatsapp.media.downloadNamed', {
              name: media.fileName ?? t('whatsapp.media.kind.document'),
            })}
          >
            {t('whatsapp.media.download')}
          </a>
        </div>
      );
  }
}

/** A photo or sticker as a thumbnail; a click (or Enter) shows it whole, over the page. */
function Picture({ media, url }: { media: WhatsAppMedia; url: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [failed, setFailed] = useState(false);
  const label = t(`whatsapp.media.kind.${kindKey(media)}`);
  if (failed) {
    return (
      <div className="wa-media wa-media--card wa-media--unavailable">
        <span className="wa-media__icon">
          <MediaIcon kind={kindKey(media)} />
        </span>
        <span className="wa-media__reason">{t('whatsapp.media.loadFailed')}</span>
      </div>
    );
  }
  return (
    <>
      <button
        type="button"
        className={cx(
          'wa-media wa-media__thumb',
          media.kind === 'sticker' && 'wa-media__thumb--sticker',
        )}
        aria-label={t('whatsapp.media.open', { kind: label })}
        onClick={() => setOpen(true)}
      >
        <img
          src={url}
          alt={media.caption ?? label}
          loading="lazy"
          onError={() => setFailed(true)}
        />
      </button>
      {open && (
        <Dialog
          title={label}
          className="wa-media-viewer"
          onClose={() => setOpen(false)}
          footer={
            <>
              <a className="btn btn--secondary" href={url} download>
                {t('whatsapp.media.download')}
              </a>
              <Button onClick={() => setOpen(false)}>{t('whatsapp.media.close')}</Button>
            </>
          }
        >
          <img className="wa-media-viewer__image" src={url} alt={media.caption ?? label} />
        </Dialog>
      )}
    </>
  );
}

/** A location: its name when it has one, its coordinates, and the map a phone would open. */
function LocationCard({ media }: { media: WhatsAppMedia }) {
  const { t, i18n } = useTranslation();
  const { latitude, longitude } = media;
  const number = new Intl.NumberFormat(i18n.language, { maximumFractionDigits: 5 });
  const known = latitude !== undefined && longitude !== undefined;
  return (
    <div className="wa-media wa-media--card">
      <span className="wa-media__icon">
        <MediaIcon kind="location" />
      </span>
      <div className="wa-media__card-text">
        <span className="wa-media__label">{t('whatsapp.media.kind.location')}</span>
        {media.place && <strong>{media.place}</strong>}
        {known && (
          <span>
            {number.format(latitude)}, {number.format(longitude)}
          </span>
        )}
      </div>
      {known && (
        <a
          className="wa-media__download"
          href={`https://www.google.com/maps/search/?api=1&query=${latitude},${longitude}`}
          target="_blank"
          rel="noopener noreferrer"
        >
          {t('whatsapp.media.map')}
        </a>
      )}
    </div>
  );
}

/** Each kind's mark, in the message and in the list's preview, as WhatsApp marks them. */
export function MediaIcon({ kind }: { kind: WhatsAppPreviewMedia }) {
  return <Icon className="wa-media-icon">{ICON_PATHS[kind]}</Icon>;
}

const ICON_PATHS: Record<WhatsAppPreviewMedia, ReactNode> = {
  image: (
    <>
      <path d="M3 8a2 2 0 0 1 2-2h2l2-2h6l2 2h2a2 2 0 0 1 2 2v10a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2z" />
      <circle cx="12" cy="13" r="3.5" />
    </>
  ),
  sticker: (
    <>
      <path d="M21 12a9 9 0 1 1-9-9h9z" />
      <path d="M8.5 14.5a4 4 0 0 0 7 0M9 10h.01M15 10h.01" />
    </>
  ),
  audio: (
    <>
      <path d="M9 18V5l11-2v13" />
      <circle cx="6" cy="18" r="3" />
      <circle cx="17" cy="16" r="3" />
    </>
  ),
  voice: (
    <>
      <rect x="9" y="2" width="6" height="12" rx="3" />
      <path d="M5 11a7 7 0 0 0 14 0M12 18v4" />
    </>
  ),
  video: (
    <>
      <rect x="2" y="6" width="14" height="12" rx="2" />
      <path d="M16 10l6-3v10l-6-3z" />
    </>
  ),
  document: (
    <>
      <path d="M14 2H6a2 2 0 0 0-2 2v16a2 2 0 0 0 2 2h12a2 2 0 0 0 2-2V8z" />
      <path d="M14 2v6h6M8 13h8M8 17h5" />
    </>
  ),
  location: (
    <>
      <path d="M12 22s7-6.2 7-12a7 7 0 0 0-14 0c0 5.8 7 12 7 12z" />
      <circle cx="12" cy="10" r="2.5" />
    </>
  ),
  contact: (
    <>
      <circle cx="12" cy="8" r="4" />
      <path d="M4 21a8 8 0 0 1 16 0" />
    </>
  ),
};

/** The label's key: a voice note is not an audio file sent. */
function kindKey(media: WhatsAppMedia): WhatsAppPreviewMedia {
  return whatsappPreviewMedia(media)!;
}

/** A length as players show it: 0:42, 12:05, 1:02:09. */
function duration(seconds: number): string {
  const whole = Math.round(seconds);
  const s = String(whole % 60).padStart(2, '0');
  const m = Math.floor(whole / 60) % 60;
  const h = Math.floor(whole / 3600);
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/** A type as people name files ("PDF", "DOCX"), from its media type; nothing for one unnamed. */
function typeName(mimetype: string | undefined): string | undefined {
  if (!mimetype || mimetype === 'application/octet-stream') return undefined;
  return (
    TYPE_NAMES[mimetype] ??
    mimetype
      .split('/')[1]
      ?.split(/[.+;-]/)
      .at(-1)
      ?.toUpperCase()
  );
}

const TYPE_NAMES: Record<string, string> = {
  'application/pdf': 'PDF',
  'application/msword': 'DOC',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'DOCX',
  'application/vnd.ms-excel': 'XLS',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': 'XLSX',
  'application/vnd.openxmlformats-officedocument.presentationml.presentation': 'PPTX',
  'text/plain': 'TXT',
  'application/zip': 'ZIP',
};
