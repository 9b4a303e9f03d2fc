import {
  IMAGE_ALT_TEXT_MAX,
  IMAGE_CATEGORIES,
  IMAGE_TITLE_MAX,
  type ImageCategory,
} from '@contrateia/shared/images/images.schemas';
import type { FieldErrors, Path, UseFormRegister } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { describedBy, FieldNotes, TextField } from '@/components/ui/text-field';
import { SelectField } from '@/components/ui/form-fields';
import type { ImageFieldValues } from '@/features/images/validation';
import { useFieldErrorText } from '@/lib/form-errors';

/**
 * An image's category, title, alt text and visibility: the fields of the upload and edit dialogs. A
 * field's error clears as soon as it is edited.
 */
export function ImageFields({
  idPrefix,
  register,
  errors,
  defaultCategory,
  onEdit,
}: {
  idPrefix: string;
  register: UseFormRegister<ImageFieldValues>;
  errors: FieldErrors<ImageFieldValues>;
  /**
   * The form's category, as the select's default too: react-hook-form tells a select the user
   * changed before the form was ready by its options' default selection, which this makes agree
   * (as agent-form.tsx does).
   */
  defaultCategory: ImageCategory;
  /** Called with the field the user changed. */
  onEdit: (name: Path<ImageFieldValues>) => void;
}) {
  const { t } = useTranslation();
  const errorText = useFieldErrorText();
  const field = (name: Path<ImageFieldValues>) => register(name, { onChange: () => onEdit(name) });
  const publicId = `${idPrefix}-public`;
  const publicError = errorText(errors.isPublic);
  const publicHint = t('images.upload.isPublicHint');

  return (
    <>
      <SelectField
        id={`${idPrefix}-category`}
        label={t('images.upload.category')}
        defaultValue={defaultCategory}
        error={errorText(errors.category)}
        {...field('category')}
      >
        {IMAGE_CATEGORIES.map((category) => (
          <option key={category} value={category}>
            {t(`images.categories.${category}`)}
          </option>
        ))}
      </SelectField>
      <TextField
        id={`${idPrefix}-title`}
        label={t('images.upload.imageTitle')}
        autoComplete="off"
        maxLength={IMAGE_TITLE_MAX}
        error={errorText(errors.title)}
        {...field('title')}
      />
      <TextField
        id={`${idPrefix}-alt`}
        label={t('images.upload.altText')}
        hint={t('images.upload.altTextHint')}
        autoComplete="off"
        maxLength={IMAGE_ALT_TEXT_MAX}
        error={errorText(errors.altText)}
        {...field('altText')}
      />
      <div className="field">
        <label className="image-check">
          <input
            id={publicId}
            type="checkbox"
            aria-invalid={publicError ? true : undefined}
            aria-describedby={describedBy(publicId, { error: publicError, hint: publicHint })}
            {...field('isPublic')}
          />
          {t('images.upload.isPublic')}
        </label>
        <FieldNotes id={publicId} error={publicError} hint={publicHint} />
      </div>
    </>
  );
}
