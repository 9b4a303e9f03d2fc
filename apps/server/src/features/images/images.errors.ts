import { AppError, defineError } from '@/lib/errors';

// ---- The upload form ----

/** No file: not a multipart form at all, or one without its `image` (then on that field). */
export const imageRequired = defineError(400, 'errors.imageRequired');

/** A 413 saying the file is over the admin's limit, in MB. */
export const imageTooLarge = (maxFileSizeMb: number) =>
  new AppError(413, 'errors.imageTooLarge', { params: { size: maxFileSizeMb } });

/** A form that does not parse: a part cut short, a field given twice, a malformed body. */
export const uploadFormInvalid = defineError(400, 'errors.uploadFormInvalid');

/** More parts, files or fields than a form of one image has. */
export const uploadFormTooLarge = defineError(400, 'errors.uploadFormTooLarge');

/** A NUL character in a field's name or value. */
export const invalidCharacters = defineError(400, 'errors.invalidCharacters');

/** A field the upload schema refused: its own message key (a validation one), on its field. */
export const uploadFieldInvalid = ({ key, field }: { key: string; field: string }) =>
  new AppError(400, key, { field });

/** The file's extension, once it is read, is none or one the admin does not allow. */
export const imageNoExtension = (allowed: string) =>
  new AppError(400, 'errors.imageNoExtension', { params: { allowed } });

export const imageTypeNotAllowed = ({
  extension,
  allowed,
}: {
  extension: string;
  allowed: string;
}) => new AppError(400, 'errors.imageTypeNotAllowed', { params: { extension, allowed } });

// ---- The file's bytes ----

/** Not one of the raster formats, by its signature or by what the decoder reads. */
export const imageInvalid = defineError(400, 'errors.imageInvalid');

/** Bytes the decoder could not read to the end. */
export const imageDamaged = defineError(400, 'errors.imageDamaged');

/** Over the pixel limit, given in megapixels. */
export const imageTooManyPixels = (maxMegapixels: number) =>
  new AppError(400, 'errors.imageTooManyPixels', { params: { max: maxMegapixels } });

/** The format the bytes really are is not among the types the admin allows. */
export const imageFormatNotAllowed = ({ format, allowed }: { format: string; allowed: string }) =>
  new AppError(400, 'errors.imageFormatNotAllowed', { params: { format, allowed } });

// ---- Stored images ----

export const imageNotFound = defineError(404, 'errors.imageNotFound');

/** A private image's signed address that is expired or was changed. */
export const imageLinkInvalid = defineError(403, 'errors.imageLinkInvalid');
