import { IMAGE_UPLOAD_DEFAULTS } from '@contrateia/shared/images/images.schemas';
import { useEffect, useId, useRef, useState, type DragEvent } from 'react';
import { useForm, type Path } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { LiveMessage } from '@/components/ui/live-message';
import { describedBy, FieldNotes } from '@/components/ui/text-field';
import { useUploadImage } from '@/features/images/api/upload-image';
import { formatBytes, MEGABYTE } from '@/lib/byte-format';
import { ImageFields } from '@/features/images/components/image-fields';
import { failureText } from '@/features/images/failure-text';
import {
  acceptedTypes,
  checkImageFile,
  type FileProblem,
  type UploadLimits,
} from '@/features/images/upload-checks';
import { uploadFieldsResolver, type ImageFieldValues } from '@/features/images/validation';
import { usePublicSettings } from '@/hooks/use-public-settings';
import { ApiError } from '@/lib/api-client';
import { applyServerErrors } from '@/lib/form-errors';
import { cx } from '@/lib/cx';

const DEFAULTS: ImageFieldValues = {
  category: IMAGE_UPLOAD_DEFAULTS.category,
  altText: '',
  title: '',
  isPublic: IMAGE_UPLOAD_DEFAULTS.isPublic,
};
const FIELDS: Path<ImageFieldValues>[] = ['category', 'title', 'altText', 'isPublic'];

/** How far the upload is: the share of the body sent, then waiting for the server's answer. */
type Progress = { percent: number };

/**
 * The upload dialog: a file chosen with the picker or dropped on the zone, checked before anything
 * is sent (an image, of an allowed type, within the size limit of the admin's settings), a preview,
 * the category (production unless changed), title, alt text and visibility (private unless
 * changed), and a progress bar while it goes. Cancel (or Esc) stops an upload under way.
 */
export function UploadImageDialog({
  onClose,
  onUploaded,
}: {
  onClose: () => void;
  onUploaded: () => void;
}) {
  const { t, i18n } = useTranslation();
  const formId = useId();
  const inputRef = useRef<HTMLInputElement>(null);
  const limits = usePublicSettings().data?.uploads;
  const upload = useUploadImage();
  const [file, setFile] = useState<File | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const [progress, setProgress] = useState<Progress | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const controller = useRef<AbortController | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    clearErrors,
    getFieldState,
    formState: { errors },
  } = useForm<ImageFieldValues, unknown, ImageFieldValues>({
    resolver: uploadFieldsResolver,
    defaultValues: DEFAULTS,
    reValidateMode: 'onSubmit',
  });

  // Closing the dialog (Cancel, Esc) stops an upload under way.
  useEffect(() => () => controller.current?.abort(), []);

  const preview = usePreview(file);
  // The preview the browser could not draw: shown as nothing rather than a broken image.
  const [undrawable, setUndrawable] = useState<string | null>(null);
  const size = (bytes: number) => formatBytes(bytes, i18n.language);

  /** The accepted types and size, once the admin's settings are in. */
  const limitsHint = (uploadLimits: UploadLimits | undefined): string | undefined =>
    uploadLimits &&
    t('images.upload.limits', {
      types: acceptedTypes(uploadLimits).join(', '),
      max: size(uploadLimits.maxFileSize * MEGABYTE),
    });

  const problemText = (problem: FileProblem, chosen: File | null): string => {
    const name = chosen?.name ?? '';
    switch (problem.kind) {
      case 'noFile':
        return t('images.upload.noFile');
      case 'notImage':
        return t('images.upload.notImage');
      case 'typeNotAllowed':
        return t('images.upload.typeNotAllowed', { name, types: problem.types.join(', ') });
      case 'tooLarge':
        return t('images.upload.tooLarge', {
          name,
          size: size(chosen?.size ?? 0),
          max: size(problem.maxBytes),
        });
    }
  };

  const choose = (chosen: File | null) => {
    if (progress) return;
    setFile(chosen);
    setFailure(null);
    const problem = chosen ? checkImageFile(chosen, limits) : null;
    setFileError(problem ? problemText(problem, chosen) : null);
  };

  const handleDrop = (event: DragEvent<HTMLElement>) => {
    event.preventDefault();
    setDragging(false);
    choose(event.dataTransfer.files[0] ?? null);
  };

  const handleUpload = handleSubmit(async (fields) => {
    setFailure(null);
    const problem = checkImageFile(file, limits);
    if (problem || !file) {
      setFileError(problemText(problem ?? { kind: 'noFile' }, file));
      inputRef.current?.focus();
      return;
    }
    const abort = new AbortController();
    controller.current = abort;
    setProgress({ percent: 0 });
    try {
      await upload.mutateAsync({
        file,
        ...fields,
        signal: abort.signal,
        onProgress: ({ loaded, total }) =>
          setProgress({ percent: total > 0 ? Math.floor((loaded / total) * 100) : 0 }),
      });
      onUploaded();
    } catch (error) {
      if (abort.signal.aborted) return;
      setProgress(null);
      if (error instanceof ApiError) {
        applyServerErrors(setError, error.errors, FIELDS);
        const imageError = error.errors?.image;
        if (imageError) setFileError(imageError);
      }
      setFailure(failureText(t, 'upload', error));
    }
  });

  const uploading = progress !== null;
  const inputId = `${formId}-file`;
  const fileNotes = { error: fileError ?? undefined, hint: limitsHint(limits) };

  return (
    <Dialog title={t('images.upload.title')} onClose={onClose} className="image-dialog">
      <form
        id={formId}
        className="image-form"
        noValidate
        aria-busy={uploading || undefined}
        onSubmit={(event) => void handleUpload(event)}
        // A file dropped anywhere in the dialog is chosen, rather than opened by the browser in
        // place of the app.
        onDragOver={(event) => {
          event.preventDefault();
          event.dataTransfer.dropEffect = uploading ? 'none' : 'copy';
        }}
        onDrop={handleDrop}
      >
        <LiveMessage tone="error" message={failure} />
        <div className="field">
          <input
            ref={inputRef}
            id={inputId}
            type="file"
            accept="image/*"
            className="visually-hidden image-drop__input"
            disabled={uploading}
            aria-invalid={fileError ? true : undefined}
            aria-describedby={describedBy(inputId, fileNotes)}
            onChange={(event) => choose(event.target.files?.[0] ?? null)}
          />
          <label
            htmlFor={inputId}
            className={cx('image-drop', dragging && 'is-dragging', fileError && 'is-invalid')}
            onDragEnter={(event) => {
              event.preventDefault();
              setDragging(true);
            }}
            onDragLeave={(event) => {
              if (!event.currentTarget.contains(event.relatedTarget as Node | null)) {
                setDragging(false);
              }
            }}
          >
            <span className="image-drop__text">
              {dragging ? t('images.upload.dropHere') : t('images.upload.dropZone')}
            </span>
            <span className="image-drop__choose">{t('images.upload.choose')}</span>
          </label>
          <FieldNotes id={inputId} {...fileNotes} />
        </div>
        {file && (
          <div className="image-preview">
            {/* A refused file (here or by the server) has no preview: its error says why. */}
            {preview && !fileError && preview !== undrawable && (
              <img
                className="image-preview__image"
                src={preview}
                alt={t('images.upload.previewAlt', { name: file.name })}
                onError={() => setUndrawable(preview)}
              />
            )}
            <p className="image-preview__name">
              {t('images.upload.selected', { name: file.name, size: size(file.size) })}
            </p>
          </div>
        )}
        <ImageFields
          idPrefix={formId}
          register={register}
          errors={errors}
          defaultCategory={DEFAULTS.category}
          onEdit={(name) => {
            if (getFieldState(name).error) clearErrors(name);
          }}
        />
        {progress && (
          <div className="image-progress">
            <progress
              className="image-progress__bar"
              max={100}
              value={progress.percent}
              aria-label={t('images.upload.progress')}
            />
            <p className="image-progress__text" role="status">
              {progress.percent < 100
                ? t('images.upload.progressValue', { percent: progress.percent })
                : t('images.upload.processing')}
            </p>
          </div>
        )}
        <div className="image-form__actions">
          <Button type="submit" disabled={uploading}>
            {uploading ? t('images.upload.uploading') : t('images.upload.submit')}
          </Button>
          <Button variant="secondary" onClick={onClose}>
            {t('images.upload.cancel')}
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

/** An address for the chosen image while it is chosen (URL.createObjectURL), revoked after. */
function usePreview(file: File | null): string | null {
  const [preview, setPreview] = useState<string | null>(null);
  useEffect(() => {
    if (!file?.type.startsWith('image/')) return;
    const url = URL.createObjectURL(file);
    setPreview(url);
    return () => {
      URL.revokeObjectURL(url);
      setPreview(null);
    };
  }, [file]);
  return preview;
}
