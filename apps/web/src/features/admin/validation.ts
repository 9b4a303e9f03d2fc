import { zodResolver } from '@hookform/resolvers/zod';
import {
  contentSettingsSchema,
  systemSettingsSchema,
  themeSettingsSchema,
} from '@contrateia/shared/settings/settings.schemas';

// The settings forms validate with the schemas the server checks. Only the admin panel's chunk
// imports this, so none of it reaches another page.
export const contentResolver = zodResolver(contentSettingsSchema);
export const themeResolver = zodResolver(themeSettingsSchema);
export const systemResolver = zodResolver(systemSettingsSchema);

/** One allowed file type as the schema takes it (lower-case letters and digits, up to 10). */
export const fileTypeSchema = systemSettingsSchema.shape.allowedFileTypes.element;
