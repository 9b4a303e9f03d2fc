import type { Image } from '@contrateia/shared/images/images.schemas';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '@/components/ui/confirm-dialog';
import { LiveMessage } from '@/components/ui/live-message';
import { useDeleteImage } from '@/features/images/api/delete-image';
import { failureText } from '@/features/images/failure-text';
import { imageName } from '@/features/images/image-name';

/**
 * Asks before deleting an image (its row and files go; its links stop working); the server's
 * refusal ('Delete failed: ...') stays in the dialog.
 */
export function DeleteImageDialog({
  image,
  onClose,
  onDeleted,
}: {
  image: Image;
  onClose: () => void;
  onDeleted: () => void;
}) {
  const { t } = useTranslation();
  const remove = useDeleteImage();
  const handleConfirm = () => {
    remove.mutate(image.id, { onSuccess: onDeleted });
  };
  return (
    <ConfirmDialog
      title={t('images.delete.title')}
      cancelLabel={t('images.delete.cancel')}
      confirmLabel={t('images.delete.confirm')}
      busy={remove.isPending}
      onConfirm={handleConfirm}
      onClose={onClose}
    >
      <p>{t('images.delete.question', { name: imageName(image) })}</p>
      <LiveMessage
        tone="error"
        message={remove.isError ? failureText(t, 'delete', remove.error) : null}
      />
    </ConfirmDialog>
  );
}
