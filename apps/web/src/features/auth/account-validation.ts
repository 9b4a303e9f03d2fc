import { zodResolver } from '@hookform/resolvers/zod';
import {
  changePasswordSchema,
  deleteAccountSchema,
  forgotPasswordSchema,
  resetPasswordSchema,
  updateProfileSchema,
} from '@contrateia/shared';

// The account pages' resolvers, from the shared schemas. Imported only by the /profile and
// /forgot-password chunks, so none of it reaches /login.
export const profileResolver = zodResolver(updateProfileSchema);
export const changePasswordResolver = zodResolver(changePasswordSchema);
export const forgotPasswordResolver = zodResolver(forgotPasswordSchema);
export const resetPasswordResolver = zodResolver(resetPasswordSchema);
export const deleteAccountResolver = zodResolver(deleteAccountSchema);
