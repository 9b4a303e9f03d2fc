import type { Image, UpdateImageInput } from '@contrateia/shared/images/images.schemas';
import { useId, useState } from 'react';
import { useForm, type Path } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { LiveMessage } from '@/components/ui/live-message';
import { useUpdateImage } from '@/features/images/api/update-image';
import { ImageFields } from '@/features/images/components/image-fields';
import { failureText } from '@/features/images/failure-text';
import { editImageResolver, type ImageFieldValues } from '@/features/images/validation';
import { ApiError } from '@/lib/api-client';
import { applyServerErrors } from '@/lib/form-errors';

const FIELDS: Path<ImageFieldValues>[] = ['category', 'title', 'altText', 'isPublic'];

/**
 * The edit dialog (PUT /api/images/{id}): an image's title, alt text, category and visibility,
 * validated with the shared updateImageSchema; the server's refusal ('Update failed: ...') stays in
 * the dialog.
 */
export function EditImageDialog({
  image,
  onClose,
  onSaved,
}: {
  image: Image;
  onClose: () => void;
  onSaved: () => void;
}) {
  const { t } = useTranslation();
  const formId = useId();
  const update = useUpdateImage();
  const [failure, setFailure] = useState<string | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    clearErrors,
    getFieldState,
    formState: { errors, isSubmitting },
  } = useForm<ImageFieldValues, unknown, UpdateImageInput>({
    resolver: editImageResolver,
    defaultValues: {
      category: image.category,
      altText: image.altText,
      title: image.title,
      isPublic: image.isPublic,
    },
    reValidateMode: 'onSubmit',
  });

  const handleSave = handleSubmit(async (changes) => {
    setFailure(null);
    try {
      await update.mutateAsync({ id: image.id, changes });
      onSaved();
    } catch (error) {
      if (error instanceof ApiError) applyServerErrors(setError, error.errors, FIELDS);
      setFailure(failureText(t, 'update', error));
    }
  });

  return (
    <Dialog title={t('images.edit.title')} onClose={onClose} className="image-dialog">
      <form
        id={formId}
        className="image-form"
        noValidate
        onSubmit={(event) => void handleSave(event)}
      >
        <LiveMessage tone="error" message={failure} />
        <div className="image-preview">
          <img className="image-preview__image" src={image.thumbnailUrl} alt={image.altText} />
          <p className="image-preview__name">{image.originalFilename}</p>
        </div>
        <ImageFields
          idPrefix={formId}
          register={register}
          errors={errors}
          defaultCategory={image.category}
          onEdit={(name) => {
            if (getFieldState(name).error) clearErrors(name);
          }}
        />
        <div className="image-form__actions">
          <Button type="submit" disabled={isSubmitting}>
            {isSubmitting ? t('images.edit.saving') : t('images.edit.save')}
          </Button>
          <Button variant="secondary" onClick={onClose}>
            {t('images.edit.cancel')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
