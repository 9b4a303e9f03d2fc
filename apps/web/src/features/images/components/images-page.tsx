import type { Image } from '@contrateia/shared/images/images.schemas';
import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { LiveMessage } from '@/components/ui/live-message';
import { useImages } from '@/features/images/api/get-images';
import { DeleteImageDialog } from '@/features/images/components/delete-image-dialog';
import { EditImageDialog } from '@/features/images/components/edit-image-dialog';
import { ImageFiltersBar } from '@/features/images/components/image-filters-bar';
import { ImageGrid } from '@/features/images/components/image-grid';
import { ImageStats } from '@/features/images/components/image-stats';
import { UploadImageDialog } from '@/features/images/components/upload-image-dialog';
import { useImageFilters } from '@/features/images/hooks/use-image-filters';
import { SUCCESS_MESSAGE_MS, useTimedMessage } from '@/hooks/use-timed-message';
import '@/features/images/images.css';

type OpenDialog = { kind: 'upload' } | { kind: 'edit' | 'delete'; image: Image };

/**
 * The image library: the figures, a search and the category and visibility filters (kept in the
 * address), the grid of images with Copy URL, Edit and Delete (confirmed), "Load more" past the
 * first 50, and the upload dialog (drag and drop, a preview, a progress bar). The server is the
 * guard: every call is for admins in admin mode.
 */
export function ImagesPage() {
  const { t } = useTranslation();
  const { filters, setFilter } = useImageFilters();
  const images = useImages(filters);
  const [dialog, setDialog] = useState<OpenDialog | null>(null);
  const notice = useTimedMessage(SUCCESS_MESSAGE_MS);
  const [copyFailed, setCopyFailed] = useState(false);
  const listHeadingRef = useRef<HTMLHeadingElement>(null);
  const listHeadingId = useId();
  // After a deletion the button that opened the dialog is gone: focus goes to the list instead.
  const [focusList, setFocusList] = useState(0);
  useEffect(() => {
    if (focusList > 0) listHeadingRef.current?.focus();
  }, [focusList]);

  const showNotice = (message: string) => {
    setCopyFailed(false);
    notice.show(message);
  };

  const handleCopy = async (image: Image) => {
    notice.clear();
    setCopyFailed(false);
    // The address as anyone can open it, this site's origin in front of the server's path.
    const url = new URL(image.url, window.location.origin).href;
    try {
      await navigator.clipboard.writeText(url);
      notice.show(image.isPublic ? t('images.copy.copied') : t('images.copy.copiedPrivate'));
    } catch {
      // No Clipboard API (plain HTTP) or the browser refused it.
      setCopyFailed(true);
    }
  };

  return (
    <div className="images">
      <div className="images__header">
        <div className="images__heading">
          <h1 className="images__title">{t('images.title')}</h1>
          <p className="images__intro">{t('images.intro')}</p>
        </div>
        <Button onClick={() => setDialog({ kind: 'upload' })}>{t('images.uploadButton')}</Button>
      </div>
      <LiveMessage tone="success" message={notice.message} />
      <LiveMessage tone="error" message={copyFailed ? t('images.errors.copy') : null} />
      <ImageStats />
      <ImageFiltersBar filters={filters} onChange={setFilter} />
      <section className="images__list" aria-labelledby={listHeadingId}>
        <h2 ref={listHeadingRef} id={listHeadingId} className="visually-hidden" tabIndex={-1}>
          {t('images.list.title')}
        </h2>
        <ImageGrid
          state={images}
          filtered={filters.search !== '' || filters.category !== null || filters.isPublic !== null}
          onCopy={(image) => void handleCopy(image)}
          onEdit={(image) => setDialog({ kind: 'edit', image })}
          onDelete={(image) => setDialog({ kind: 'delete', image })}
        />
      </section>

      {dialog?.kind === 'upload' && (
        <UploadImageDialog
          onClose={() => setDialog(null)}
          onUploaded={() => {
            setDialog(null);
            showNotice(t('images.upload.done'));
          }}
        />
      )}
      {dialog?.kind === 'edit' && (
        <EditImageDialog
          image={dialog.image}
          onClose={() => setDialog(null)}
          onSaved={() => {
            setDialog(null);
            showNotice(t('images.edit.done'));
          }}
        />
      )}
      {dialog?.kind === 'delete' && (
        <DeleteImageDialog
          image={dialog.image}
          onClose={() => setDialog(null)}
          onDeleted={() => {
            setDialog(null);
            showNotice(t('images.delete.done'));
            setFocusList((count) => count + 1);
          }}
        />
      )}
    </div>
  );
}
