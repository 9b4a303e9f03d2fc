import type { LoginInput, RegisterFormInput, VerifyFormInput } from '@contrateia/shared';
import { lazyResolver } from '@/lib/lazy-resolver';

// Each form validates with its shared schema; see lazyResolver for why lazily.
export const loginFormResolver = lazyResolver<LoginInput>(() =>
  import('@/features/auth/validation').then((m) => m.loginResolver),
);
export const registerFormResolver = lazyResolver<RegisterFormInput>(() =>
  import('@/features/auth/validation').then((m) => m.registerResolver),
);
export const verifyFormResolver = lazyResolver<VerifyFormInput>(() =>
  import('@/features/auth/validation').then((m) => m.verifyResolver),
);
