import { zodResolver } from '@hookform/resolvers/zod';
import { loginSchema, registerFormSchema, verifyFormSchema } from '@contrateia/shared';

/**
 * The auth forms' resolvers, built from the shared schemas. Loaded through `lazyResolver` so
 * zod stays out of the first download of the sign-in pages.
 */
export const loginResolver = zodResolver(loginSchema);
export const registerResolver = zodResolver(registerFormSchema);
export const verifyResolver = zodResolver(verifyFormSchema);
