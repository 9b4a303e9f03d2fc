import type { TFunction } from 'i18next';
import { ApiError, NetworkError } from '@/lib/api-client';

type Failure = 'fetch' | 'upload' | 'update' | 'delete';

/**
 * The page's failure texts ('Failed to fetch images: ...', 'Upload failed: ...'), the reason after
 * the colon: the server's message (already in the user's language), or what the page knows of a
 * failure without one.
 */
export function failureText(t: TFunction, failure: Failure, error: unknown): string {
  let reason: string;
  if (error instanceof ApiError) {
    reason = error.message || t('images.errors.status', { status: error.status });
  } else if (error instanceof NetworkError) {
    reason = t('images.errors.network');
  } else {
    reason = t('images.errors.unexpected');
  }
  return t(`images.errors.${failure}`, { reason });
}
